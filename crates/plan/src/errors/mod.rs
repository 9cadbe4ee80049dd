//! What a job does when an I/O fails: fio's `continue_on_error`, `ignore_error` and
//! `error_dump`.
//!
//! An error is of one of three kinds: a *verify* error when its errno is `EILSEQ` (what a
//! failed verification reports), else a *read* error for a read and a *write* error for
//! anything else (writes, trims, syncs). The job goes on past an error when its kind may
//! continue and its errno is in the kind's list; otherwise the error is fatal and ends the
//! job. As fio 3.33 behaves (measured on `/dev/full`, whose writes fail with `ENOSPC`):
//!
//! - `continue_on_error` lets kinds continue (`read`, `write`, `io` = read and write,
//!   `verify`, `all`, `none`; `1` is `all`, `0` `none`) on the default list, `EIO` and
//!   `EILSEQ`.
//! - `ignore_error=READ,WRITE,VERIFY` replaces a kind's list with its own (`:`-separated
//!   names or numbers, `ENOSPC:122`; a number's sign is dropped, and text after it
//!   ignored with a note, as fio 3.33 reads it with C's `atoi`) and lets that kind
//!   continue even where `continue_on_error` does not; an empty part keeps the default.
//! - Once any kind may continue, the report carries the job's error count and first error
//!   (JSON `total_err` and `first_error`, the normal report's `errors    :` line, two more
//!   terse fields) and the job's `error` is its first error, fatal or not. Only a fatal
//!   error makes iomark exit with status 1, as fio.
//! - A failed I/O counts as issued (`total_ios`, `issued rwts`) with no bytes and no
//!   latency.
//! - A fatal error is described on standard error (`I/O error on file F: … offset=…`);
//!   with `error_dump=1` every error is.
//!
//! Errors of the engine itself (a failed submission or reap, not an I/O's result) are
//! always fatal. Counting and describing a failed I/O is the runner's `errors`.

mod names;

use crate::error::OptionError;
use iomark_core::Ddir;
use iomark_options::keys;
use iomark_options::value::errors::{read_ignore_error, ErrorEntry};
use iomark_options::JobSpec;

/// The kinds of error, in the order of `ignore_error`'s lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// A read failed.
    Read = 0,
    /// A write, trim or sync failed.
    Write = 1,
    /// A verification failed (`EILSEQ`).
    Verify = 2,
}

impl ErrorKind {
    /// The kind of an error `errno` met by an I/O of direction `ddir`.
    pub fn of(ddir: Ddir, errno: i32) -> ErrorKind {
        match (errno, ddir) {
            (libc::EILSEQ, _) => ErrorKind::Verify,
            (_, Ddir::Read) => ErrorKind::Read,
            _ => ErrorKind::Write,
        }
    }
}

/// The errnos a kind continues on when no list is given.
const NON_FATAL: [i32; 2] = [libc::EIO, libc::EILSEQ];

/// A job's error policy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ErrorPolicy {
    /// Per kind: whether it may continue.
    continues: [bool; 3],
    /// Per kind: the errnos it continues on.
    lists: [Vec<i32>; 3],
    /// `error_dump`: describe every error on standard error, not only fatal ones.
    pub dump: bool,
}

impl Default for ErrorPolicy {
    /// fio's default: every error is fatal.
    fn default() -> Self {
        ErrorPolicy {
            continues: [false; 3],
            lists: [NON_FATAL.to_vec(), NON_FATAL.to_vec(), NON_FATAL.to_vec()],
            dump: false,
        }
    }
}

impl ErrorPolicy {
    /// The error options of `spec`.
    pub fn of(spec: &JobSpec) -> Result<ErrorPolicy, OptionError> {
        let continues = match spec.get(keys::CONTINUE_ON_ERROR).map(|c| c.name) {
            Some("read") => [true, false, false],
            Some("write") => [false, true, false],
            Some("io") => [true, true, false],
            Some("verify") => [false, false, true],
            Some("all" | "1") => [true; 3],
            _ => [false; 3],
        };
        let mut p = ErrorPolicy { continues, ..ErrorPolicy::default() };
        if let Some(text) = spec.get(keys::IGNORE_ERROR) {
            let bad =
                |why: String| OptionError::new(keys::IGNORE_ERROR, format!("'{text}': {why}"));
            // Read (and its leniency noted) when the job was parsed.
            let (lists, _) = read_ignore_error(&text).map_err(|e| bad(e.to_string()))?;
            for (kind, list) in lists.iter().enumerate() {
                let list = errnos(list).map_err(bad)?;
                if !list.is_empty() {
                    p.lists[kind] = list;
                    p.continues[kind] = true;
                }
            }
        }
        p.dump = spec.flag(keys::ERROR_DUMP);
        Ok(p)
    }

    /// Whether the job goes on past error `errno` of an I/O of direction `ddir`.
    #[inline]
    pub fn continues(&self, ddir: Ddir, errno: i32) -> bool {
        self.continues_kind(ErrorKind::of(ddir, errno), errno)
    }

    /// Whether the job goes on past error `errno` of kind `kind` (verification uses
    /// [`ErrorKind::Verify`]).
    pub fn continues_kind(&self, kind: ErrorKind, errno: i32) -> bool {
        self.continues[kind as usize] && self.lists[kind as usize].contains(&errno)
    }

    /// Whether any error may be passed over; the report then counts the errors.
    pub fn counts_errors(&self) -> bool {
        self.continues.contains(&true)
    }
}

/// One list of `ignore_error` as errnos, its names looked up.
fn errnos(list: &[ErrorEntry]) -> Result<Vec<i32>, String> {
    list.iter()
        .map(|e| match e {
            ErrorEntry::Number(n) => Ok(*n),
            ErrorEntry::Name(name) => {
                names::errno(name).ok_or_else(|| format!("unknown error '{name}'"))
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy(args: &str) -> Result<ErrorPolicy, String> {
        let args: Vec<&str> = args.split_whitespace().collect();
        ErrorPolicy::of(&crate::test_spec(&args)?).map_err(|e| e.message)
    }

    #[test]
    fn by_default_every_error_is_fatal() {
        let p = policy("").unwrap();
        assert!(!p.continues(Ddir::Read, libc::EIO) && !p.counts_errors());
    }

    #[test]
    fn continue_on_error_continues_on_eio_and_eilseq_only() {
        let p = policy("continue_on_error=read").unwrap();
        assert!(p.continues(Ddir::Read, libc::EIO));
        assert!(!p.continues(Ddir::Read, libc::ENOSPC));
        assert!(!p.continues(Ddir::Write, libc::EIO));
        // EILSEQ is a verify error whatever the direction.
        assert!(!p.continues(Ddir::Read, libc::EILSEQ));
        let all = policy("continue_on_error=1").unwrap();
        assert!(all.continues(Ddir::Write, libc::EIO) && all.continues(Ddir::Read, libc::EILSEQ));
        assert!(all.continues(Ddir::Trim, libc::EIO) && all.counts_errors());
        let io = policy("continue_on_error=io").unwrap();
        assert!(io.continues(Ddir::Sync, libc::EIO) && !io.continues(Ddir::Read, libc::EILSEQ));
    }

    #[test]
    fn ignore_error_replaces_a_kinds_list_and_lets_it_continue() {
        let p = policy("ignore_error=EAGAIN,ENOSPC:-122").unwrap();
        assert!(p.continues(Ddir::Read, libc::EAGAIN) && !p.continues(Ddir::Read, libc::EIO));
        assert!(p.continues(Ddir::Write, libc::ENOSPC) && p.continues(Ddir::Write, 122));
        assert!(!p.continues(Ddir::Write, libc::EIO));
        assert!(!p.continues(Ddir::Read, libc::EILSEQ), "verify keeps its default, off");
        let p = policy("continue_on_error=all ignore_error=,ENOSPC").unwrap();
        assert!(p.continues(Ddir::Read, libc::EIO), "an empty list keeps the default");
    }

    #[test]
    fn bad_lists_are_refused() {
        assert!(policy("ignore_error=,ENOSUCH").unwrap_err().contains("unknown error 'ENOSUCH'"));
        assert!(policy("ignore_error=,0x1c").is_err());
        assert!(policy("ignore_error=1,2,3,4").unwrap_err().contains("at most three"));
    }
}
