//! `ignore_error`: up to three lists of errors (reads, writes, verification), each of
//! `:`-separated numbers or names (`EAGAIN,ENOSPC:122`). The option is a string of the
//! table, read here when the job is parsed ([`read_ignore_error`]) and again by the plan,
//! which knows the names.
//!
//! fio 3.33's leniency, learned from its runs on `/dev/full` (whose writes fail with
//! `ENOSPC`, 28): an entry is read as C's `atoi` reads it, its sign dropped, so text after
//! the number is ignored (`28x`, `28.5`, `28k` and `28e1` are 28; `1c` is 1); an entry
//! whose number is 0, or that has none, is a name, which must be exact (`0`, `0x1c`,
//! `ENOSPCx` and `x28` are refused). iomark reads the same, with a note.

use super::lenient::number::read_decimal;
use super::lenient::Leniency;
use super::ValueError;

/// One entry of a list of `ignore_error`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ErrorEntry {
    /// An error number (its sign dropped).
    Number(i32),
    /// An error name (`ENOSPC`), for the plan to look up.
    Name(String),
}

/// The lists of `text` (reads, writes, verification; an empty or absent list is empty),
/// read as fio 3.33 does, with a [`Leniency`] to note where fio ignores text; the refusal
/// where fio refuses the value too (more than three lists).
pub fn read_ignore_error(
    text: &str,
) -> Result<([Vec<ErrorEntry>; 3], Option<Leniency>), ValueError> {
    let parts: Vec<&str> = text.split(',').collect();
    if parts.len() > 3 {
        return Err(ValueError::List {
            value: text.to_string(),
            why: "at most three lists (read, write, verify)".into(),
        });
    }
    let mut lists: [Vec<ErrorEntry>; 3] = Default::default();
    let mut ignored = Vec::new();
    let mut first_bad = None;
    for (list, part) in lists.iter_mut().zip(&parts) {
        for item in part.split(':').map(str::trim).filter(|s| !s.is_empty()) {
            match read_decimal(item) {
                Some((n, rest)) if n != 0 => {
                    let n = i32::try_from(n.unsigned_abs()).unwrap_or(i32::MAX);
                    if !rest.is_empty() {
                        ignored.push(rest.to_string());
                        first_bad.get_or_insert_with(|| item.to_string());
                    }
                    list.push(ErrorEntry::Number(n));
                }
                _ => list.push(ErrorEntry::Name(item.to_string())),
            }
        }
    }
    let Some(bad) = first_bad else { return Ok((lists, None)) };
    let used = super::lenient::joined_lists(&lists[..parts.len()], |e| match e {
        ErrorEntry::Number(n) => n.to_string(),
        ErrorEntry::Name(s) => s.clone(),
    });
    let leniency = Leniency {
        written: text.to_string(),
        ignored,
        why: Vec::new(),
        used,
        strict: ValueError::Explained {
            what: "error",
            value: bad,
            why: "an error is a number or a name (EIO)".into(),
        },
    };
    Ok((lists, Some(leniency)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ErrorEntry::{Name, Number};

    fn read(text: &str) -> Result<([Vec<ErrorEntry>; 3], Option<String>), ValueError> {
        read_ignore_error(text).map(|(l, n)| (l, n.map(|n| n.to_string())))
    }

    #[test]
    fn numbers_and_names() {
        let (lists, note) = read("EAGAIN,ENOSPC:-122").unwrap();
        assert_eq!(lists[0], [Name("EAGAIN".into())]);
        assert_eq!(lists[1], [Name("ENOSPC".into()), Number(122)]);
        assert!(lists[2].is_empty() && note.is_none());
        assert_eq!(read(", 28").unwrap().0[1], [Number(28)]);
    }

    #[test]
    fn text_after_a_number_is_ignored_as_fio_does() {
        // fio 3.33 on /dev/full: each of these ignores ENOSPC (28).
        for text in [",28x", ",28.5", ",28k", ",28e1", ",ENOSPC:5x"] {
            let (lists, note) = read(text).unwrap();
            assert!(lists[1].contains(&Number(28)) || lists[1].contains(&Number(5)), "{text}");
            assert!(note.is_some(), "{text}");
        }
        let (lists, note) = read("5x").unwrap();
        assert_eq!(lists[0], [Number(5)]);
        assert_eq!(note.unwrap(), "'5x' is read as fio 3.33 reads it, ignoring 'x'; used 5");
        // No number, or 0: a name, which the plan looks up (and fio refuses `0x1c`).
        assert_eq!(read(",0x1c").unwrap().0[1], [Name("0x1c".into())]);
        assert_eq!(read(",x28").unwrap().0[1], [Name("x28".into())]);
    }

    #[test]
    fn four_lists_are_refused() {
        assert!(read("1,2,3,4").is_err());
    }
}
