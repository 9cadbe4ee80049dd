//! `docs/options.md` and `docs/compatibility.md`, rendered from the option table and from
//! the lists of what iomark refuses (`iomark_options::compat`).
//!
//! The reference of every option is generated, never written by hand: [`options_markdown`]
//! prints one section per category of fio's HOWTO and one per engine, and
//! [`compatibility_markdown`] every refused engine and option with its reason. Tests compare
//! the checked-in files with them, so the pages cannot drift from the tables.

use iomark_options::compat::{self, ENGINES, OPTIONS};
use iomark_options::kind::TimeUnit;
use iomark_options::table::{self, Category, ChoiceArg, Kind, OptionDef, Support};
use std::fmt::Write as _;

/// The whole of `docs/options.md`.
pub fn options_markdown() -> String {
    let rows = table::all();
    let general: Vec<&OptionDef> = rows.iter().filter(|d| d.engines.is_empty()).collect();
    let supported = rows.iter().filter(|d| d.support == Support::Yes).count();
    let mut out = String::new();
    out.push_str("# iomark options\n\n");
    out.push_str(
        "This file is generated from the option table (`crates/options/src/table/`) by \
         `cargo test`; do not edit it. After changing the table, rewrite it with\n\
         `IOMARK_BLESS=1 cargo test -p iomark-manual docs_options_md_is_fresh`.\n\n",
    );
    let _ = writeln!(
        out,
        "iomark knows {} options: the {} general options of fio 3.33 and {} options of \
         particular I/O engines. {} of them are supported; iomark refuses the others with \
         `option 'NAME' is not supported yet` rather than ignore them. Names, value syntax \
         and defaults are fio's; `iomark --cmdhelp=NAME` prints the same facts.\n",
        rows.len(),
        general.len(),
        rows.len() - general.len(),
        supported,
    );
    out.push_str("## Contents\n\n");
    for cat in Category::ALL {
        if general.iter().any(|d| d.category == cat) {
            let _ = writeln!(out, "- [{}](#{})", cat.title(), anchor(cat.title()));
        }
    }
    for engine in engines() {
        let title = engine_title(engine);
        let _ = writeln!(out, "- [{title}](#{})", anchor(&title));
    }
    for cat in Category::ALL {
        let defs: Vec<&&OptionDef> = general.iter().filter(|d| d.category == cat).collect();
        if defs.is_empty() {
            continue;
        }
        let _ = write!(out, "\n## {}\n", cat.title());
        for def in defs {
            option_entry(&mut out, def, def.help);
        }
    }
    let mut described: Vec<&str> = Vec::new();
    for engine in engines() {
        let _ = write!(out, "\n## {}\n", engine_title(engine));
        for def in rows.iter().filter(|d| d.engines.contains(&engine)) {
            if described.contains(&def.name) {
                let first = def.engines[0];
                let _ = write!(
                    out,
                    "\n### `{}`\n\nThe same option as for [`{first}`](#{}) above.\n",
                    def.name,
                    anchor(&engine_title(first)),
                );
            } else {
                described.push(def.name);
                option_entry(&mut out, def, def.help);
            }
        }
    }
    out
}

/// The whole of `docs/compatibility.md`.
pub fn compatibility_markdown() -> String {
    let mut out = String::new();
    out.push_str("# What iomark refuses of fio 3.33, and why\n\n");
    out.push_str(
        "This file is generated from `crates/options/src/compat.rs` and \
         `crates/options/src/audit.rs` by `cargo test`; do not edit it. After changing the lists, rewrite it with\n\
         `IOMARK_BLESS=1 cargo test -p iomark-manual --test options compatibility_md_is_fresh`.\n\n",
    );
    out.push_str(
        "iomark runs fio's job files with fio's meaning. What it cannot run it refuses, with a \
         message that names the engine or option and gives the reason below; it never \
         ignores an option. Where iomark does run an option but differs from fio 3.33 in a \
         detail, the difference is documented beside the feature ([running.md](running.md), \
         [job-files.md](job-files.md), [workloads.md](workloads.md), [engines.md](engines.md), \
         [logs.md](logs.md), [random.md](random.md)).\n",
    );
    out.push_str(
        "\nA reason that starts with \"planned\" marks an option iomark means to run and has \
         not yet; every other refusal is for good, for the reason given.\n",
    );
    out.push_str("\n## Engines\n\n| engine | why iomark does not run it |\n|---|---|\n");
    for r in ENGINES {
        let _ = writeln!(out, "| `{}` | {} |", r.name, r.reason);
    }
    out.push_str("\n## Options\n\n");
    let refused: Vec<_> = table::all().iter().filter(|d| d.support == Support::NotYet).collect();
    let (engine_bound, general): (Vec<&&OptionDef>, Vec<&&OptionDef>) =
        refused.iter().partition(|d| {
            !OPTIONS.iter().any(|r| r.name == d.name) && compat::option_reason(d.name).is_some()
        });
    out.push_str("| option | why iomark refuses it |\n|---|---|\n");
    for def in &general {
        let reason = compat::option_reason(def.name).unwrap_or("(no reason given: a test fails)");
        let _ = writeln!(out, "| `{}` | {reason} |", def.name);
    }
    if !engine_bound.is_empty() {
        out.push_str("\nThe options of the engines above are refused with their engine:\n\n");
    }
    for def in &engine_bound {
        let engines: Vec<String> = def.engines.iter().map(|e| format!("`{e}`")).collect();
        let _ = writeln!(out, "- `{}` ({})", def.name, engines.join(", "));
    }
    out.push_str(
        "\n## Random draws that are not fio's\n\nWith `randrepeat=1` (the default) iomark draws \
         fio 3.33's random numbers, so a random job issues fio's I/O in fio's order and \
         writes fio's data ([random.md](random.md)). These draws differ:\n\n\
         | option | what differs |\n|---|---|\n",
    );
    for d in compat::DRAWS {
        let _ = writeln!(out, "| `{}` | {} |", d.name, d.what);
    }
    out.push_str(
        "\n## Refusals audited against fio 3.33\n\nEvery case that iomark's checks refused was \
         run under fio 3.33. Where fio runs it sensibly iomark runs it too; where fio's run is \
         broken (it crashes, hangs, fails the job or writes nonsense) iomark refuses it, and \
         the message says what fio does. Notes and the leniency of malformed values are in \
         [job-files.md](job-files.md#malformed-values-that-fio-333-runs).\n\n\
         | case | fio 3.33 | iomark |\n|---|---|---|\n",
    );
    for a in iomark_options::audit::AUDITED {
        let _ = writeln!(out, "| {} | {} | {} |", a.case, a.fio, a.iomark);
    }
    out
}

/// The engines that have options in the table, in the order their options first appear.
fn engines() -> Vec<&'static str> {
    let mut seen = Vec::new();
    for def in table::all() {
        for engine in def.engines {
            if !seen.contains(engine) {
                seen.push(*engine);
            }
        }
    }
    seen
}

/// The section title of an engine's options.
fn engine_title(engine: &str) -> String {
    format!("Options of the {engine} engine")
}

/// The anchor GitHub gives a heading: lowercase, spaces as dashes, other punctuation dropped.
fn anchor(title: &str) -> String {
    title
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            '-' | '_' => Some(c),
            c if c.is_ascii_alphanumeric() => Some(c.to_ascii_lowercase()),
            _ => None,
        })
        .collect()
}

/// One option: its heading, a short list of facts, its help and long help, and its values.
fn option_entry(out: &mut String, def: &OptionDef, help: &str) {
    let _ = write!(out, "\n### `{}`\n\n", def.name);
    if !def.aliases.is_empty() {
        let aliases: Vec<String> = def.aliases.iter().map(|a| format!("`{a}`")).collect();
        let _ = writeln!(out, "- Also called: {}", aliases.join(", "));
    }
    let _ = writeln!(out, "- Value: {}", kind_words(&def.kind));
    match def.default {
        Some(d) => {
            let _ = writeln!(out, "- Default: `{d}`");
        }
        None => out.push_str("- Default: none\n"),
    }
    if !def.engines.is_empty() {
        let engines: Vec<String> = def.engines.iter().map(|e| format!("`{e}`")).collect();
        let _ = writeln!(out, "- Engines: {}", engines.join(", "));
    }
    let support = match def.support {
        Support::Yes => "supported",
        Support::NotYet => "not supported yet",
    };
    let _ = writeln!(out, "- iomark: {support}");
    let _ = writeln!(out, "\n{}.", help.trim_end_matches('.'));
    if !def.long_help.is_empty() {
        let _ = writeln!(out, "\n{}", def.long_help);
    }
    if let Kind::Enum(choices) | Kind::Distribution(choices) | Kind::ChoiceSet(choices) = def.kind {
        out.push_str("\nValues:\n\n");
        for c in choices {
            let _ = writeln!(out, "- `{}`: {}{}", c.name, c.help, arg_words(c.arg));
        }
    }
}

/// What may follow an enum value, as a parenthesis for the docs.
fn arg_words(arg: ChoiceArg) -> &'static str {
    match arg {
        ChoiceArg::None => "",
        ChoiceArg::OptionalSize | ChoiceArg::OptionalCount => " (may be followed by `:N`)",
        ChoiceArg::OptionalFloat => " (may be followed by `:` and a number)",
        ChoiceArg::Float => " (followed by `:` and a number)",
        ChoiceArg::OptionalStr => " (may be followed by `:` and more text)",
    }
}

/// The value grammar of a kind, in words.
fn kind_words(kind: &Kind) -> String {
    match kind {
        Kind::Str => "text".to_string(),
        Kind::FileList => "names separated by `:` (`\\:` is a colon within a name)".to_string(),
        Kind::Enum(_) => "one of the values below".to_string(),
        Kind::Bool => "boolean (`0` or `1`)".to_string(),
        Kind::Flag => "boolean; given without a value it means `1`".to_string(),
        Kind::Int { min, max } if *max == i64::MAX => format!("integer, at least {min}"),
        Kind::Int { min, max } => format!("integer from {min} to {max}"),
        Kind::Float { min, max } => format!("number from {min} to {max}"),
        Kind::Size => "size in bytes, with k/m/g/t/p suffixes".to_string(),
        Kind::SizeOrPercent => "size in bytes, or a percentage (`50%`)".to_string(),
        Kind::Time { unit } => format!("time; a bare number is in {}", unit_words(*unit)),
        Kind::TimeRange { unit } => {
            format!("time, or a range `min-max`; a bare number is in {}", unit_words(*unit))
        }
        Kind::SizePerDir => "size, or up to three sizes for reads,writes,trims".to_string(),
        Kind::IntPerDir => "integer, or up to three for reads,writes,trims".to_string(),
        Kind::RangePerDir => {
            "size range `min-max`, or up to three for reads,writes,trims".to_string()
        }
        Kind::SizeRange => "size, or size range `min-max`".to_string(),
        Kind::BsSplit => "`size/percent` pairs separated by `:`, per direction".to_string(),
        Kind::FloatList => "numbers separated by `:`".to_string(),
        Kind::Floats => "positive numbers separated by `:`".to_string(),
        Kind::CpuList => "CPU numbers and ranges separated by `,` (`0-3,6`)".to_string(),
        Kind::ChoiceSet(_) => {
            "one or more of the values below joined by `,`, then optionally `:` and a whole \
             number"
                .to_string()
        }
        Kind::Distribution(_) => {
            "one of the values below with its numbers or zones, or up to three for \
             reads,writes,trims"
                .to_string()
        }
    }
}

/// The unit of a bare time number, in words.
fn unit_words(unit: TimeUnit) -> &'static str {
    match unit {
        TimeUnit::Seconds => "seconds",
        TimeUnit::Millis => "milliseconds",
        TimeUnit::Micros => "microseconds",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchors_follow_github() {
        assert_eq!(anchor("Target file/device"), "target-filedevice");
        assert_eq!(
            anchor("Threads, processes and job synchronization"),
            "threads-processes-and-job-synchronization"
        );
        assert_eq!(anchor("I/O type"), "io-type");
    }
}
