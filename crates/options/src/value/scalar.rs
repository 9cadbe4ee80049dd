//! Booleans, flags and enum choices.
//!
//! fio 3.33 reads a boolean as an integer that must be 0 or 1: `direct=1`, `01` and `0x1`
//! work; `true`, `yes`, `on` and their opposites, in any case, are refused ("failed
//! parsing"), and so is `direct=2`. An empty value after `=` is refused too
//! (`stonewall=` fails); a flag option written alone (`stonewall`) means true, which the
//! job-file and command-line parsers express by passing an empty value for
//! [`Kind::Flag`](crate::kind::Kind::Flag).
//!
//! Enum choices are matched exactly and case-sensitively (`rw=RandRead` is refused); what
//! follows the first `:` is the choice's argument (`rw=randread:8`).
//!
//! A set of choices (`sync_file_range=wait_before,write:8`) joins names with `,` and may end
//! in `:N`, a whole number. fio 3.33 drops unknown names after the first, ignores empty ones
//! and reads N with `atoi` (`write:4k` is 4, `write:abc` and `write:0x10` are 0, which turns
//! the option off); iomark refuses all of these. Without `:N` fio counts 1.

use super::{Value, ValueError};
use crate::kind::{Choice, ChoiceArg};

/// Parses `0` or `1` (also written `01`, `0x1`); fio refuses every other spelling.
pub fn parse_bool(raw: &str) -> Result<bool, ValueError> {
    let text = raw.trim();
    let digits = match text.get(..2) {
        Some("0x" | "0X") => &text[2..],
        _ => text,
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ValueError::Bool(raw.to_string()));
    }
    match digits.trim_start_matches('0') {
        "" => Ok(false),
        "1" => Ok(true),
        _ => Err(ValueError::Bool(raw.to_string())),
    }
}

/// Parses a flag: empty (the option written alone) is true, otherwise a boolean.
pub fn parse_flag(raw: &str) -> Result<bool, ValueError> {
    if raw.is_empty() {
        Ok(true)
    } else {
        parse_bool(raw)
    }
}

/// Matches `raw` against `choices`, case-sensitively, and checks the `:` argument.
pub fn parse_choice(
    raw: &str,
    choices: &'static [Choice],
    ctx: &super::Ctx,
) -> Result<Value, ValueError> {
    let text = raw.trim();
    let (name, arg) = match text.split_once(':') {
        Some((name, arg)) => (name, Some(arg)),
        None => (text, None),
    };
    let valid = || choices.iter().map(|c| c.name).collect::<Vec<_>>().join(", ");
    let choice = choices
        .iter()
        .find(|c| c.name == name)
        .ok_or_else(|| ValueError::Choice { value: raw.to_string(), valid: valid() })?;
    let arg = arg.filter(|a| !a.is_empty());
    let arg_err = |why: &str| ValueError::Expr { value: raw.to_string(), why: why.to_string() };
    match (choice.arg, arg) {
        (ChoiceArg::None, Some(_)) => return Err(arg_err("this value takes no ':' argument")),
        (ChoiceArg::Float, None) => return Err(arg_err("a number must follow ':'")),
        (ChoiceArg::OptionalSize, Some(a)) => {
            super::size::parse_size(a, ctx)?;
        }
        (ChoiceArg::OptionalCount, Some(a)) if !a.bytes().all(|b| b.is_ascii_digit()) => {
            return Err(arg_err("a count of decimal digits must follow ':'"));
        }
        (ChoiceArg::OptionalFloat | ChoiceArg::Float, Some(a)) => {
            super::size::float_literal(a).ok_or_else(|| ValueError::Number(a.to_string()))?;
        }
        _ => {}
    }
    Ok(Value::Choice { name: choice.name, arg: arg.map(str::to_string) })
}

/// Parses a set of `choices` joined by `,`, with an optional `:N` count of decimal digits
/// (see the module note). Repeated names count once.
pub fn parse_choice_set(raw: &str, choices: &'static [Choice]) -> Result<Value, ValueError> {
    let text = raw.trim();
    let (set, count) = match text.split_once(':') {
        Some((set, count)) => (set, Some(count)),
        None => (text, None),
    };
    let valid = || choices.iter().map(|c| c.name).collect::<Vec<_>>().join(", ");
    let mut names = Vec::new();
    for item in set.split(',') {
        let choice = choices.iter().find(|c| c.name == item).ok_or_else(|| {
            let value = if item.is_empty() { raw } else { item };
            ValueError::Choice { value: value.to_string(), valid: valid() }
        })?;
        if !names.contains(&choice.name) {
            names.push(choice.name);
        }
    }
    let count = match count.map(str::trim) {
        None => None,
        Some(n) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => {
            Some(n.parse().map_err(|_| ValueError::Number(n.to_string()))?)
        }
        Some(n) => {
            return Err(ValueError::Explained {
                what: "count",
                value: n.to_string(),
                why: "after ':' comes a whole number of writes, in decimal digits only (fio \
                      3.33 reads the leading digits and ignores the rest, so that '4k' means \
                      4 and 'abc' means 0, off)"
                    .to_string(),
            })
        }
    };
    Ok(Value::ChoiceSet { names, count })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Ctx;

    const CHOICES: &[Choice] = &[
        Choice { name: "read", help: "", arg: ChoiceArg::OptionalSize },
        Choice { name: "randread", help: "", arg: ChoiceArg::OptionalSize },
        Choice { name: "zipf", help: "", arg: ChoiceArg::Float },
        Choice { name: "normal", help: "", arg: ChoiceArg::OptionalFloat },
        Choice { name: "zoned", help: "", arg: ChoiceArg::OptionalStr },
        Choice { name: "null", help: "", arg: ChoiceArg::None },
    ];

    fn choice(raw: &str) -> Result<Value, ValueError> {
        parse_choice(raw, CHOICES, &Ctx::default())
    }

    fn named(name: &'static str, arg: Option<&str>) -> Result<Value, ValueError> {
        Ok(Value::Choice { name, arg: arg.map(str::to_string) })
    }

    #[test]
    fn bool_zero_and_one() {
        for (raw, want) in [("0", false), ("1", true), ("01", true), ("0x1", true), (" 1", true)] {
            assert_eq!(parse_bool(raw), Ok(want), "{raw}");
        }
    }

    #[test]
    fn bool_refuses_words_and_other_numbers() {
        for bad in ["true", "false", "yes", "no", "on", "off", "TRUE", "y", "2", "-1", "10", ""] {
            assert_eq!(parse_bool(bad), Err(ValueError::Bool(bad.into())), "{bad}");
        }
        assert!(parse_bool("1k").is_err());
    }

    #[test]
    fn flag_alone_is_true() {
        assert_eq!(parse_flag(""), Ok(true));
        assert_eq!(parse_flag("0"), Ok(false));
        assert!(parse_flag("yes").is_err());
    }

    #[test]
    fn choice_exact_match() {
        assert_eq!(choice("randread"), named("randread", None));
        assert_eq!(choice(" read "), named("read", None));
    }

    #[test]
    fn choice_is_case_sensitive_and_lists_valid_values() {
        let err = choice("RandRead").unwrap_err();
        assert_eq!(
            err,
            ValueError::Choice {
                value: "RandRead".into(),
                valid: "read, randread, zipf, normal, zoned, null".into()
            }
        );
        assert!(choice("rand").is_err());
        assert!(choice("randreads").is_err());
    }

    const FLAGS: &[Choice] = &[
        Choice { name: "wait_before", help: "", arg: ChoiceArg::None },
        Choice { name: "write", help: "", arg: ChoiceArg::None },
        Choice { name: "wait_after", help: "", arg: ChoiceArg::None },
    ];

    fn set(names: &[&'static str], count: Option<u64>) -> Result<Value, ValueError> {
        Ok(Value::ChoiceSet { names: names.to_vec(), count })
    }

    #[test]
    fn choice_sets_with_and_without_a_count() {
        let parse = |raw| parse_choice_set(raw, FLAGS);
        assert_eq!(parse("write:8"), set(&["write"], Some(8)));
        assert_eq!(parse("wait_before,write,wait_after:32"), set(FLAGS_NAMES, Some(32)));
        assert_eq!(parse("wait_after,write,write:2"), set(&["wait_after", "write"], Some(2)));
        assert_eq!(parse(" write "), set(&["write"], None));
        assert_eq!(parse("write:0"), set(&["write"], Some(0)));
        assert_eq!(parse("write: 2"), set(&["write"], Some(2)));
    }

    const FLAGS_NAMES: &[&str] = &["wait_before", "write", "wait_after"];

    #[test]
    fn choice_sets_refuse_what_fio_misreads() {
        let parse = |raw| parse_choice_set(raw, FLAGS);
        let err = parse("foo:4").unwrap_err();
        assert_eq!(
            err,
            ValueError::Choice {
                value: "foo".into(),
                valid: "wait_before, write, wait_after".into()
            }
        );
        for bad in ["WRITE:2", ",write:2", "write,:2", "write, wait_after:2", ":4", "write;x:1"] {
            assert!(matches!(parse(bad), Err(ValueError::Choice { .. })), "{bad}");
        }
        for bad in ["write:", "write:4k", "write:abc", "write:-1", "write:0x10", "write:2:3"] {
            assert!(matches!(parse(bad), Err(ValueError::Explained { .. })), "{bad}");
        }
        assert!(parse("write:99999999999999999999999").is_err());
    }

    #[test]
    fn choice_arguments() {
        assert_eq!(choice("randread:8"), named("randread", Some("8")));
        assert_eq!(choice("read:4k"), named("read", Some("4k")));
        assert_eq!(choice("randread:"), named("randread", None));
        assert_eq!(choice("zipf:1.2"), named("zipf", Some("1.2")));
        assert_eq!(choice("normal"), named("normal", None));
        assert_eq!(choice("zoned:60/10:30/20:10/70"), named("zoned", Some("60/10:30/20:10/70")));
        for bad in ["randread:x", "zipf", "zipf:x", "normal:x", "null:1"] {
            assert!(choice(bad).is_err(), "{bad}");
        }
    }
}
