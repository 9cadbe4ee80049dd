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
//!   names or numbers, `ENOSPC:122`; a number's sign is dropped) and lets that kind
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
//! always fatal.

mod names;

use iomark_core::Ddir;
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
    pub fn of(spec: &JobSpec) -> Result<ErrorPolicy, String> {
        let continues = match crate::get::choice(spec, "continue_on_error").map(|c| c.0) {
            Some("read") => [true, false, false],
            Some("write") => [false, true, false],
            Some("io") => [true, true, false],
            Some("verify") => [false, false, true],
            Some("all" | "1") => [true; 3],
            _ => [false; 3],
        };
        let mut p = ErrorPolicy { continues, ..ErrorPolicy::default() };
        if let Some(text) = crate::get::text(spec, "ignore_error") {
            let parts: Vec<&str> = text.split(',').collect();
            if parts.len() > 3 {
                return Err(format!(
                    "option 'ignore_error': '{text}': at most three lists (read, write, verify)"
                ));
            }
            for (kind, part) in parts.iter().enumerate() {
                let list = parse_list(part)
                    .map_err(|e| format!("option 'ignore_error': '{text}': {e}"))?;
                if !list.is_empty() {
                    p.lists[kind] = list;
                    p.continues[kind] = true;
                }
            }
        }
        p.dump = crate::get::flag(spec, "error_dump");
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

/// One list of `ignore_error`: names or numbers separated by `:`.
fn parse_list(text: &str) -> Result<Vec<i32>, String> {
    let mut list = Vec::new();
    for item in text.split(':').map(str::trim).filter(|s| !s.is_empty()) {
        let errno = match item.strip_prefix('-').unwrap_or(item).parse::<i32>() {
            Ok(n) if n > 0 => n,
            _ => names::errno(item).ok_or_else(|| format!("unknown error '{item}'"))?,
        };
        list.push(errno);
    }
    Ok(list)
}

/// A data or sync I/O (`unit`, doing `op`) of the job `plan` failed with `errno`: counts it
/// in `recorder` (as issued, and as an error), describes it on standard error when it ends
/// the job or `error_dump` asks, and returns whether it ends the job.
pub fn failed_io(
    plan: &crate::plan::JobPlan,
    recorder: &mut iomark_stats::recorder::JobRecorder,
    unit: &iomark_engine::IoUnit,
    op: &str,
    errno: i32,
) -> bool {
    let dir = Some(unit.ddir).filter(|d| d.is_data());
    recorder.record_error(dir, errno);
    let fatal = !plan.errors.continues(unit.ddir, errno);
    if fatal || plan.errors.dump {
        let path = plan.files.get(unit.file as usize).map(|f| f.path.as_path());
        let line =
            describe(path.unwrap_or(std::path::Path::new("")), op, unit.offset, unit.len, errno);
        eprintln!("iomark: job '{}': {line}", plan.name);
    }
    fatal
}

/// What the operating system calls error `errno` (`No space left on device`; `Success`
/// for 0), as fio prints it.
pub fn errno_text(errno: i32) -> String {
    if errno == 0 {
        return "Success".into();
    }
    let text = std::io::Error::from_raw_os_error(errno).to_string();
    match text.rfind(" (os error ") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

/// The line describing a failed I/O, as fio's `io_u error` line:
/// `I/O error on file /dev/full: No space left on device: write offset=0, buflen=4096`.
pub fn describe(path: &std::path::Path, op: &str, offset: u64, len: usize, errno: i32) -> String {
    format!(
        "I/O error on file {}: {}: {op} offset={offset}, buflen={len}",
        path.display(),
        errno_text(errno)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy(args: &str) -> Result<ErrorPolicy, String> {
        let args: Vec<&str> = args.split_whitespace().collect();
        ErrorPolicy::of(&crate::get::test_spec(&args)?)
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

    #[test]
    fn errors_read_as_fio_prints_them() {
        assert_eq!(errno_text(28), "No space left on device");
        assert_eq!(errno_text(0), "Success");
        let line = describe(std::path::Path::new("/dev/full"), "write", 4096, 512, 28);
        assert_eq!(
            line,
            "I/O error on file /dev/full: No space left on device: write offset=4096, buflen=512"
        );
    }
}
