//! A subcommand's own flags (rows of the flag table) picked out of a command line whose
//! other arguments are job options and job files, for `iomark sweep` and `iomark compare`.
//!
//! `--NAME=VALUE`, `--NAME VALUE` and `-X VALUE` are the subcommand's when its table has
//! the flag; everything else is kept, in order, for fio's command-line grammar.

use iomark_options::flags::Subcommand;

/// The subcommand's flags (by letter, with their value) and the other arguments.
#[derive(Debug, Default)]
pub struct Split {
    /// `(letter, value)` for each of the subcommand's flags, in order.
    pub flags: Vec<(char, Option<String>)>,
    /// The other arguments, in order.
    pub rest: Vec<String>,
}

impl Split {
    /// The last value of flag `c`.
    pub fn last(&self, c: char) -> Option<&str> {
        self.flags.iter().rev().find(|(f, _)| *f == c).and_then(|(_, v)| v.as_deref())
    }

    /// Whether flag `c` was given.
    pub fn has(&self, c: char) -> bool {
        self.flags.iter().any(|(f, _)| *f == c)
    }
}

/// Splits `args` (see the module doc); a flag without its value is an error.
pub fn split(sub: &Subcommand, args: &[String]) -> Result<Split, String> {
    let mut out = Split::default();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let (flag, inline) = if let Some(long) = arg.strip_prefix("--") {
            let (name, value) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (long, None),
            };
            (sub.find_long(name), value)
        } else if arg.len() == 2 && arg.starts_with('-') {
            (arg.chars().nth(1).and_then(|c| sub.find(c)), None)
        } else {
            (None, None)
        };
        let Some(flag) = flag else {
            out.rest.push(arg.clone());
            continue;
        };
        let value = match (flag.arg, inline) {
            (None, None) => None,
            (None, Some(_)) => return Err(format!("{arg}: the flag takes no value")),
            (Some(_), Some(v)) => Some(v),
            (Some(name), None) => Some(
                it.next().cloned().ok_or_else(|| format!("{arg}: a value ({name}) must follow"))?,
            ),
        };
        out.flags.push((flag.short, value));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use iomark_options::flags::SWEEP;

    #[test]
    fn the_sweeps_flags_are_picked_out() {
        let args: Vec<String> =
            ["--iodepth=1..8", "--size", "1m", "-e", "libaio,io_uring", "job.fio", "--repeat", "3"]
                .map(String::from)
                .to_vec();
        let s = split(&SWEEP, &args).unwrap();
        assert_eq!(s.last('d'), Some("1..8"));
        assert_eq!(s.last('e'), Some("libaio,io_uring"));
        assert_eq!(s.last('r'), Some("3"));
        assert_eq!(s.rest, ["--size", "1m", "job.fio"]);
        assert!(split(&SWEEP, &["--repeat".to_string()]).is_err());
        assert!(split(&SWEEP, &["--help=1".to_string()]).is_err());
    }
}
