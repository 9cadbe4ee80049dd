//! Lists: file names (`filename=a:b`), per-direction values (`bs=4k,64k`,
//! `bsrange=1k-4k,8k-16k`), percentile lists (`99:99.9`) and CPU lists (`0-3,6`).
//!
//! Per-direction values follow fio 3.33's effective rule, so that callers need none of
//! their own. With `D` the option's default:
//!
//! | written        | reads | writes | trims |
//! |----------------|-------|--------|-------|
//! | `a`            | a     | a      | a     |
//! | `a,b`          | a     | b      | b     |
//! | `,b`           | D     | b      | b     |
//! | `a,`           | a     | D      | D     |
//! | `a,b,c`        | a     | b      | c     |
//! | `a,,c`, `,,c`  | a / D | D      | c     |
//! | `a,b,`, `,b,`  | a / D | b      | D     |
//!
//! `None` in a [`super::Value`] array means D: the option's default applies to that
//! direction. For `bs` and `rate`-like values fio also splits at `:` (`bs=4k:8k` is
//! `bs=4k,8k`); for ranges `:` separates the ends, so only `,` splits directions. fio
//! ignores values past the third; iomark refuses them. A value with no entry at all (`,`)
//! is refused, as fio does.

use super::{Ctx, ValueError};

/// Splits `text` at any of `seps` that is not inside parentheses.
pub(crate) fn split_outside_parens<'a>(text: &'a str, seps: &[u8]) -> Vec<&'a str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0usize, 0usize);
    for (i, b) in text.bytes().enumerate() {
        match b {
            b'(' => depth += 1,
            b')' => depth = depth.saturating_sub(1),
            _ if depth == 0 && seps.contains(&b) => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
}

/// Splits a per-direction value and applies fio's effective rule (see the module
/// documentation); `elem` parses one non-blank entry.
pub(crate) fn per_dir<T: Clone>(
    raw: &str,
    seps: &[u8],
    elem: impl Fn(&str) -> Result<T, ValueError>,
) -> Result<[Option<T>; 3], ValueError> {
    let fields = split_outside_parens(raw.trim(), seps);
    let list_err = |why: &str| ValueError::List { value: raw.to_string(), why: why.to_string() };
    if fields.len() > 3 {
        return Err(list_err("at most three values: reads, writes, trims"));
    }
    if fields.iter().all(|f| f.trim().is_empty()) {
        return Err(if fields.len() == 1 { ValueError::Missing } else { list_err("no value") });
    }
    let mut parsed = Vec::with_capacity(3);
    for field in &fields {
        let field = field.trim();
        parsed.push(if field.is_empty() { None } else { Some(elem(field)?) });
    }
    Ok(match parsed.as_slice() {
        [a] => [a.clone(), a.clone(), a.clone()],
        [a, b] => [a.clone(), b.clone(), b.clone()],
        [a, b, c] => [a.clone(), b.clone(), c.clone()],
        _ => unreachable!("one to three fields"),
    })
}

/// Parses one size range `min-max` or `min:max`; the ends are swapped when the lower is
/// larger, as fio does. A single size is not a range (fio refuses `bsrange=4k`).
pub(crate) fn size_range(raw: &str, ctx: &Ctx) -> Result<(u64, u64), ValueError> {
    let parts = split_outside_parens(raw, b"-:");
    match parts.as_slice() {
        [lo, hi] => {
            let (lo, hi) = (super::size::parse_size(lo, ctx)?, super::size::parse_size(hi, ctx)?);
            Ok((lo.min(hi), lo.max(hi)))
        }
        _ if raw.contains('/') => Err(ValueError::List {
            value: raw.to_string(),
            why: "separate directions with ',' (fio 3.33 ignores what follows '/')".into(),
        }),
        _ => Err(ValueError::Range(raw.to_string())),
    }
}

/// Splits `filename` at `:`, where `\:` is a literal colon (and any other backslash is
/// kept as written, so `C:\x` is the two names `C` and `\x`, as in fio on Linux). Empty
/// names (`a::b`, a trailing `:`) are dropped, as fio drops them.
pub fn parse_file_list(raw: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut current = String::new();
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&':') => {
                current.push(':');
                chars.next();
            }
            ':' => names.push(std::mem::take(&mut current)),
            _ => current.push(c),
        }
    }
    names.push(current);
    names.retain(|n| !n.is_empty());
    names
}

/// The most entries fio keeps in a `percentile_list`.
pub const MAX_FLOAT_LIST: usize = 20;

/// Parses a `:`-separated list of percentiles, each in `0..=100`, at most 20 of them.
/// fio 3.33 warns and keeps the first 20 (or the entries before a bad one); iomark
/// refuses the whole value instead.
pub fn parse_float_list(raw: &str) -> Result<Vec<f64>, ValueError> {
    let list_err = |why: String| ValueError::List { value: raw.to_string(), why };
    let items: Vec<&str> = raw.trim().split(':').collect();
    if items.len() > MAX_FLOAT_LIST {
        return Err(list_err(format!("at most {MAX_FLOAT_LIST} values")));
    }
    items
        .iter()
        .map(|item| match super::size::float_literal(item) {
            // (fio 3.33 ends the list at a 0: `value::lenient` reads it so, with a note.)
            Some(v) if v > 0.0 && v <= 100.0 => Ok(v),
            Some(0.0) => Err(list_err("a 0 ends the list".into())),
            Some(_) => Err(list_err(format!("'{}' is outside 0..100", item.trim()))),
            None => Err(list_err(format!("'{}' is not a number", item.trim()))),
        })
        .collect()
}

/// Parses a `:`-separated list of positive numbers (fio's float lists without a bound).
pub fn parse_floats(raw: &str) -> Result<Vec<f64>, ValueError> {
    let list_err = |why: String| ValueError::List { value: raw.to_string(), why };
    raw.trim()
        .split(':')
        .map(|item| match super::size::float_literal(item) {
            Some(v) if v > 0.0 && v.is_finite() => Ok(v),
            Some(_) => Err(list_err(format!("'{}' is not above 0", item.trim()))),
            None => Err(list_err(format!("'{}' is not a number", item.trim()))),
        })
        .collect()
}

/// The number of CPUs fio can address (`your OS only supports up to 1024 CPUs`).
pub const MAX_CPUS: u32 = 1024;

/// Parses a CPU list, `,`-separated numbers and `a-b` ranges (`0-3,6`), into sorted CPU
/// numbers without duplicates. Whether the CPUs exist is checked later, against the
/// machine (fio: `CPU 2 too large (max=1)`). fio has no stride syntax; a reversed range
/// (`3-0`) is refused as fio refuses it; empty entries (`0,,1`) are skipped as fio does.
pub fn parse_cpu_list(raw: &str) -> Result<Vec<u32>, ValueError> {
    let list_err = |why: String| ValueError::List { value: raw.to_string(), why };
    let cpu = |text: &str| -> Result<u32, ValueError> {
        let text = text.trim();
        match text.parse::<u32>() {
            Ok(n) if n < MAX_CPUS && text.bytes().all(|b| b.is_ascii_digit()) => Ok(n),
            Ok(_) => Err(list_err(format!("CPU {text} is beyond the {MAX_CPUS} supported"))),
            Err(_) if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) => {
                Err(list_err(format!("CPU {text} is beyond the {MAX_CPUS} supported")))
            }
            Err(_) => Err(list_err(format!("'{text}' is not a CPU number"))),
        }
    };
    let mut cpus = Vec::new();
    for item in raw.split(',').map(str::trim).filter(|i| !i.is_empty()) {
        match item.split_once('-') {
            Some((lo, hi)) => {
                let (lo, hi) = (cpu(lo)?, cpu(hi)?);
                if lo > hi {
                    return Err(list_err(format!("range '{item}' is reversed")));
                }
                cpus.extend(lo..=hi);
            }
            None => cpus.push(cpu(item)?),
        }
    }
    if cpus.is_empty() {
        return Err(list_err("no CPU given".into()));
    }
    cpus.sort_unstable();
    cpus.dedup();
    Ok(cpus)
}

#[cfg(test)]
mod tests {
    use super::*;

    const CTX: Ctx = Ctx { kb_base: 1024 };

    fn sizes(raw: &str) -> Result<[Option<u64>; 3], ValueError> {
        per_dir(raw, b",:", |f| super::super::size::parse_size(f, &CTX))
    }

    #[test]
    fn split_respects_parentheses() {
        assert_eq!(split_outside_parens("(1-2)-3", b"-"), vec!["(1-2)", "3"]);
        assert_eq!(split_outside_parens("a,b", b","), vec!["a", "b"]);
    }

    #[test]
    fn per_dir_single_value_applies_to_all() {
        assert_eq!(sizes("4k"), Ok([Some(4096); 3]));
    }

    #[test]
    fn per_dir_two_values_trim_copies_write() {
        assert_eq!(sizes("4k,64k"), Ok([Some(4096), Some(65536), Some(65536)]));
        assert_eq!(sizes(",8k"), Ok([None, Some(8192), Some(8192)]));
        assert_eq!(sizes("16k,"), Ok([Some(16384), None, None]));
    }

    #[test]
    fn per_dir_three_values() {
        assert_eq!(sizes("4k,8k,16k"), Ok([Some(4096), Some(8192), Some(16384)]));
        assert_eq!(sizes("4k,,8k"), Ok([Some(4096), None, Some(8192)]));
        assert_eq!(sizes(",,8k"), Ok([None, None, Some(8192)]));
        assert_eq!(sizes(",8k,"), Ok([None, Some(8192), None]));
        assert_eq!(sizes("16k,8k,"), Ok([Some(16384), Some(8192), None]));
    }

    #[test]
    fn per_dir_colon_separates_like_comma() {
        assert_eq!(sizes("16k:8k"), Ok([Some(16384), Some(8192), Some(8192)]));
        assert_eq!(sizes("1k,2k:3k"), Ok([Some(1024), Some(2048), Some(3072)]));
    }

    #[test]
    fn per_dir_errors() {
        assert!(matches!(sizes(","), Err(ValueError::List { .. })));
        assert!(matches!(sizes(",,"), Err(ValueError::List { .. })));
        assert_eq!(sizes(""), Err(ValueError::Missing));
        assert!(matches!(sizes("4k,8k,16k,32k"), Err(ValueError::List { .. })));
        assert!(matches!(sizes("4k/8k"), Err(ValueError::Size(_))));
    }

    #[test]
    fn per_dir_expressions() {
        assert_eq!(sizes("(2k*2),(1k)"), Ok([Some(4096), Some(1024), Some(1024)]));
    }

    #[test]
    fn ranges() {
        assert_eq!(size_range("1k-4k", &CTX), Ok((1024, 4096)));
        assert_eq!(size_range("1k:4k", &CTX), Ok((1024, 4096)));
        assert_eq!(size_range("8k-4k", &CTX), Ok((4096, 8192)));
        assert!(matches!(size_range("4k", &CTX), Err(ValueError::Range(_))));
        assert!(matches!(size_range("1k-4k-8k", &CTX), Err(ValueError::Range(_))));
        assert!(matches!(size_range("1k-4k/8k-16k", &CTX), Err(ValueError::List { .. })));
        assert!(size_range("1k-", &CTX).is_err());
        assert!(size_range("-4k", &CTX).is_err());
    }

    #[test]
    fn file_list() {
        assert_eq!(parse_file_list("a:b"), vec!["a", "b"]);
        assert_eq!(parse_file_list(r"a\:b"), vec!["a:b"]);
        assert_eq!(parse_file_list(r"c\\:d"), vec![r"c\:d"]);
        assert_eq!(parse_file_list("e::f"), vec!["e", "f"]);
        assert_eq!(parse_file_list(":h:"), vec!["h"]);
        assert_eq!(parse_file_list(r"C:\x"), vec!["C", r"\x"]);
        assert_eq!(parse_file_list(r"k\:l:m"), vec!["k:l", "m"]);
        assert_eq!(parse_file_list(r"a\"), vec![r"a\"]);
        assert!(parse_file_list(":").is_empty());
    }

    #[test]
    fn float_list() {
        assert_eq!(parse_float_list("99:99.9:99.99"), Ok(vec![99.0, 99.9, 99.99]));
        assert_eq!(parse_float_list("50:100"), Ok(vec![50.0, 100.0]));
        assert!(parse_float_list("0:100").is_err(), "a 0 ends the list: read leniently");
        assert_eq!(parse_float_list("1e1"), Ok(vec![10.0]));
        let twenty: Vec<String> = (1..=20).map(|i| i.to_string()).collect();
        assert_eq!(parse_float_list(&twenty.join(":")).map(|v| v.len()), Ok(20));
        let many: Vec<String> = (1..=21).map(|i| i.to_string()).collect();
        for bad in [many.join(":").as_str(), "101", "-1", "50:", ":50", "50::60", "50,60", "x"] {
            assert!(matches!(parse_float_list(bad), Err(ValueError::List { .. })), "{bad}");
        }
    }

    #[test]
    fn cpu_list() {
        assert_eq!(parse_cpu_list("0-3,6"), Ok(vec![0, 1, 2, 3, 6]));
        assert_eq!(parse_cpu_list("1,0,1"), Ok(vec![0, 1]));
        assert_eq!(parse_cpu_list("0,,1"), Ok(vec![0, 1]));
        assert_eq!(parse_cpu_list(" 0 , 1 "), Ok(vec![0, 1]));
        assert_eq!(parse_cpu_list("1023"), Ok(vec![1023]));
        for bad in ["", "3-0", "0-3:2", "x", "0x1", "-1", "0-", "1.5", "1024", "99999999999"] {
            assert!(matches!(parse_cpu_list(bad), Err(ValueError::List { .. })), "{bad}");
        }
    }
}
