//! Keyword substitution, done on a whole job-file line before the value is parsed:
//! `$ncpus`, `$pagesize`, `$mb_memory` and `${ENV}`, and fio's small calculator that
//! evaluates an arithmetic expression containing a keyword (`size=($pagesize*2)`).
//!
//! What fio 3.33 does, step by step, and what [`substitute`] reproduces:
//!
//! 1. `${NAME}` anywhere in the line (the option name too) becomes the environment
//!    variable's value, or nothing when it is unset. The name runs to the first `}`
//!    (`${X${Y}}` looks up `X${Y`), `${NAME` without `}` stays as written, `$NAME` without
//!    braces is not a reference. One pass: a value containing `${…}` is not expanded again.
//! 2. Then each of `$ncpus`, `$pagesize` and `$mb_memory` becomes its number, as plain
//!    text and case-sensitively (`$ncpus2` is `22`, `$NCPUS` stays), also when it came from
//!    an environment variable.
//! 3. If step 2 replaced a keyword, and the value (the text after the first `=`) has at
//!    most 100 characters and contains `+`, `-`, `*` or `/`, the value is computed by fio's
//!    calculator, which is the `bc` program (see [`super::bc`]): `size=$pagesize*2` gives
//!    `8192`, `($ncpus/3)` gives `0`, `($ncpus*0.5)` gives `1.0` (read as 1). A `bc`
//!    error fails the option (`($ncpus*1k)`, `($pagesize*2)k`, `$ncpus*(2`,
//!    `bs=($pagesize*2),($pagesize)`). `^` and `%` alone do not start the calculator
//!    (`($pagesize^2)` stays as written and fails as a size), nor does a keyword without
//!    an operator (`($mb_memory)` stays `(24105)`), nor an environment variable alone
//!    (`${N}*2` stays `3*2`). A longer value is left as text.
//!
//! fio 3.33 does all this only in job files; on its command line `--size='$ncpus*2'` is
//! refused as written (its HOWTO says keywords work there too). Which lines to pass here
//! is the caller's choice.

use super::ValueError;

/// The values of fio's keywords on this machine; the caller reads them from the system so
/// that this crate stays free of I/O.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Keywords {
    /// Online CPUs (`$ncpus`).
    pub ncpus: u64,
    /// The page size in bytes (`$pagesize`).
    pub pagesize: u64,
    /// Total memory in MiB (`$mb_memory`).
    pub mb_memory: u64,
}

/// The longest value fio's calculator evaluates; longer values are left as text.
pub const MAX_CALC_LEN: usize = 100;

/// Replaces keywords and `${ENV}` references in `line`, as fio does; `env` looks up an
/// environment variable.
pub fn substitute(
    line: &str,
    keywords: &Keywords,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<String, ValueError> {
    let expanded = expand_env(line, env);
    let (line, replaced) = replace_keywords(&expanded, keywords);
    if !replaced {
        return Ok(line);
    }
    let (key, value) = match line.split_once('=') {
        Some((key, value)) => (Some(key), value),
        None => (None, line.as_str()),
    };
    let has_operator = value.bytes().any(|b| matches!(b, b'+' | b'-' | b'*' | b'/'));
    if !has_operator || value.trim().len() > MAX_CALC_LEN {
        return Ok(line.clone());
    }
    let result = super::bc::calculate(value).map_err(|why| ValueError::Expr {
        value: value.trim().to_string(),
        why: format!("fio's calculator (bc) fails: {why}"),
    })?;
    Ok(match key {
        Some(key) => format!("{key}={result}"),
        None => result,
    })
}

/// Step 1: `${NAME}` references.
fn expand_env(line: &str, env: &dyn Fn(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(start) = rest.find("${") {
        let Some(len) = rest[start + 2..].find('}') else {
            break;
        };
        out.push_str(&rest[..start]);
        out.push_str(&env(&rest[start + 2..start + 2 + len]).unwrap_or_default());
        rest = &rest[start + 2 + len + 1..];
    }
    out.push_str(rest);
    out
}

/// Step 2: the keywords, and whether any was found.
fn replace_keywords(line: &str, k: &Keywords) -> (String, bool) {
    let mut text = line.to_string();
    let mut replaced = false;
    for (name, value) in
        [("$ncpus", k.ncpus), ("$pagesize", k.pagesize), ("$mb_memory", k.mb_memory)]
    {
        if text.contains(name) {
            text = text.replace(name, &value.to_string());
            replaced = true;
        }
    }
    (text, replaced)
}

#[cfg(test)]
mod tests {
    use super::*;

    const KW: Keywords = Keywords { ncpus: 2, pagesize: 4096, mb_memory: 24105 };

    fn env(name: &str) -> Option<String> {
        match name {
            "HOME" => Some("/root".into()),
            "NUM" => Some("3".into()),
            "KW" => Some("$ncpus*2".into()),
            "KEY" => Some("size".into()),
            "E1" => Some("${NUM}".into()),
            "EMPTY" => Some(String::new()),
            _ => None,
        }
    }

    fn sub(line: &str) -> Result<String, ValueError> {
        substitute(line, &KW, &env)
    }

    fn ok(line: &str) -> String {
        sub(line).unwrap()
    }

    #[test]
    fn plain_lines_are_unchanged() {
        assert_eq!(ok("size=4k"), "size=4k");
        assert_eq!(ok("size=(1+2)"), "size=(1+2)");
        assert_eq!(ok("filename=/tmp/a-b"), "filename=/tmp/a-b");
    }

    #[test]
    fn keywords_alone() {
        assert_eq!(ok("size=$mb_memory"), "size=24105");
        assert_eq!(ok("size=$ncpus$ncpus"), "size=22");
        assert_eq!(ok("size=$ncpus2"), "size=22");
        assert_eq!(ok("size=$ncpusx"), "size=2x");
        assert_eq!(ok("size=$NCPUS"), "size=$NCPUS");
        assert_eq!(ok("description=a $ncpus b"), "description=a 2 b");
    }

    #[test]
    fn keyword_without_operator_is_not_computed() {
        assert_eq!(ok("size=($mb_memory)"), "size=(24105)");
        assert_eq!(ok("size=($pagesize)"), "size=(4096)");
        assert_eq!(ok("size=($pagesize^2)"), "size=(4096^2)");
        assert_eq!(ok("size=($pagesize%5)"), "size=(4096%5)");
        assert_eq!(ok("size=($ncpus"), "size=(2");
    }

    #[test]
    fn calculator() {
        assert_eq!(ok("size=($pagesize*2)"), "size=8192");
        assert_eq!(ok("size=$pagesize*2"), "size=8192");
        assert_eq!(ok("size=($pagesize+1)"), "size=4097");
        assert_eq!(ok("size=($ncpus*2)"), "size=4");
        assert_eq!(ok("size=(1+$ncpus)"), "size=3");
        assert_eq!(ok("size=($ncpus*(1+2))"), "size=6");
        assert_eq!(ok("size=($ncpus/3)"), "size=0");
        assert_eq!(ok("size=($ncpus*0.5)"), "size=1.0");
        assert_eq!(ok("size=($ncpus*0.25)"), "size=.50");
        assert_eq!(ok("size=$ncpus-1"), "size=1");
        assert_eq!(ok("size=1-$ncpus"), "size=-1");
        assert_eq!(ok("size=$mb_memory*2"), "size=48210");
        assert_eq!(ok("size=$ncpus*2+($pagesize)"), "size=4100");
        assert_eq!(ok("size = $ncpus * 2"), "size =4");
        assert_eq!(ok("size=$pagesize$ncpus*2"), "size=81924");
        assert_eq!(ok("runtime=($ncpus*2)"), "runtime=4");
    }

    #[test]
    fn calculator_errors() {
        for bad in [
            "size=($ncpus*1k)",
            "size=($pagesize*2)k",
            "size=$ncpus*(2",
            "size=$ncpus**2",
            "size=$ncpus/0",
            "bs=($pagesize*2),($pagesize)",
            "filename=/tmp/f-$ncpus",
            "size=4k+$ncpus",
        ] {
            assert!(matches!(sub(bad), Err(ValueError::Expr { .. })), "{bad}");
        }
    }

    #[test]
    fn calculator_length_limit() {
        let at_limit = format!("size=$ncpus{}", "*1".repeat(49));
        assert_eq!(ok(&at_limit), "size=2");
        let over = format!("size=$ncpus{}", "*1".repeat(50));
        assert_eq!(ok(&over), format!("size=2{}", "*1".repeat(50)));
    }

    #[test]
    fn environment() {
        assert_eq!(ok("size=${NUM}k"), "size=3k");
        assert_eq!(ok("directory=${HOME}"), "directory=/root");
        assert_eq!(ok("size=${NOPE}"), "size=");
        assert_eq!(ok("size=x${NOPE}y"), "size=xy");
        assert_eq!(ok("size=${EMPTY}4k"), "size=4k");
        assert_eq!(ok("size=$NUM"), "size=$NUM");
        assert_eq!(ok("size=${NUM"), "size=${NUM");
        assert_eq!(ok("size=${}"), "size=");
        assert_eq!(ok("size=$${NUM}"), "size=$3");
        assert_eq!(ok("size=${X${NUM}}"), "size=}");
        assert_eq!(ok("size=${E1}"), "size=${NUM}");
        assert_eq!(ok("${KEY}=4k"), "size=4k");
    }

    #[test]
    fn environment_does_not_start_the_calculator_but_keywords_in_it_do() {
        assert_eq!(ok("size=${NUM}*2"), "size=3*2");
        assert_eq!(ok("size=$ncpus*${NUM}"), "size=6");
        assert_eq!(ok("size=${KW}"), "size=4");
    }

    #[test]
    fn arbitrary_bytes_do_not_panic() {
        for line in ["", "=", "${", "$", "=$ncpus*", "é${é}=$ncpus*é", "\u{0}$pagesize/\u{0}"] {
            let _ = sub(line);
        }
    }
}
