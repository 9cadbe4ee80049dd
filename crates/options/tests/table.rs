//! Tests of the option table as a whole: names, defaults, values and help of every row, the
//! engines its engine options name, and the reasons of what iomark refuses. What the table
//! prints (`--cmdhelp`, `--enghelp`, the generated docs), and the table's order against
//! fio 3.33's `--cmdhelp=all`, is tested in `iomark-manual`.

use iomark_options::table::{self, Kind, Support};
use iomark_options::value::{self, Ctx};
use std::collections::HashMap;

#[test]
fn names_and_aliases_are_unique() {
    let mut seen: HashMap<&str, &str> = HashMap::new();
    for def in table::all() {
        for name in std::iter::once(&def.name).chain(def.aliases) {
            if let Some(other) = seen.insert(name, def.name) {
                panic!("'{name}' names both '{other}' and '{}'", def.name);
            }
        }
    }
}

#[test]
fn names_are_lowercase_ascii_without_spaces() {
    for def in table::all() {
        for name in std::iter::once(&def.name).chain(def.aliases) {
            let ok = !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-');
            assert!(ok, "bad option name '{name}'");
        }
    }
}

#[test]
fn every_default_parses_with_its_kind() {
    let mut bad = Vec::new();
    for def in table::all() {
        if let Some(default) = def.default {
            if let Err(e) = value::parse(&def.kind, default, &Ctx::default()) {
                bad.push(format!("{} = '{default}': {e}", def.name));
            }
        }
    }
    assert!(bad.is_empty(), "defaults that do not parse:\n{}", bad.join("\n"));
}

#[test]
fn enum_choices_are_documented_and_unique() {
    for def in table::all() {
        let Kind::Enum(choices) = def.kind else { continue };
        assert!(!choices.is_empty(), "{} has no values", def.name);
        for (i, c) in choices.iter().enumerate() {
            assert!(!c.help.trim().is_empty(), "{}={} has no help", def.name, c.name);
            assert!(
                choices[..i].iter().all(|o| o.name != c.name),
                "{}={} is listed twice",
                def.name,
                c.name
            );
        }
    }
}

#[test]
fn every_option_has_help_and_supported_ones_have_long_help() {
    for def in table::all() {
        assert!(!def.help.trim().is_empty(), "{} has no help", def.name);
        if def.support == Support::Yes {
            assert!(
                !def.long_help.trim().is_empty(),
                "{} is supported but has no long help",
                def.name
            );
        }
    }
}

#[test]
fn int_ranges_are_ordered() {
    for def in table::all() {
        if let Kind::Int { min, max } = def.kind {
            assert!(min <= max, "{}: min {min} > max {max}", def.name);
        }
        if let Kind::Float { min, max } = def.kind {
            assert!(min <= max, "{}: min {min} > max {max}", def.name);
        }
    }
}

/// Engine options name engines that `ioengine` accepts, the engines `--enghelp` describes.
#[test]
fn engine_options_name_known_engines_and_are_in_the_engine_category() {
    let Some(Kind::Enum(engines)) = table::find("ioengine").map(|d| d.kind) else {
        panic!("ioengine is not an enum option");
    };
    for def in table::all().iter().filter(|d| !d.engines.is_empty()) {
        for engine in def.engines {
            let known = *engine != "external" && engines.iter().any(|c| c.name == *engine);
            assert!(known, "{}: unknown engine {engine}", def.name);
        }
        assert_eq!(def.category, table::Category::Engine, "{}", def.name);
    }
}

/// Every refusal names an option the table refuses, or an engine iomark does not run: a
/// reason never outlives the refusal it explains.
#[test]
fn refusal_reasons_name_refused_options_and_engines() {
    use iomark_options::assemble::SUPPORTED_ENGINES;
    use iomark_options::compat::{ENGINES, OPTIONS};
    for r in OPTIONS {
        let def = table::find(r.name).unwrap_or_else(|| panic!("{}: no such option", r.name));
        assert_eq!(def.support, Support::NotYet, "{}: supported, yet has a refusal", r.name);
    }
    for r in ENGINES {
        assert!(!SUPPORTED_ENGINES.contains(&r.name), "{}: runs, yet has a refusal", r.name);
    }
}

/// Every option iomark refuses has its reason: its own, or its engines'.
#[test]
fn every_refused_option_has_a_reason() {
    let missing: Vec<&str> = table::all()
        .iter()
        .filter(|d| d.support == Support::NotYet)
        .filter(|d| iomark_options::compat::option_reason(d.name).is_none())
        .map(|d| d.name)
        .collect();
    assert!(missing.is_empty(), "refused without a reason in compat.rs: {missing:?}");
}
