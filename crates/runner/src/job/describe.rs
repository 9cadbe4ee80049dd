//! Counting and describing a failed I/O, as fio does (the policy that decides whether the
//! job goes on is [`iomark_plan::errors::ErrorPolicy`]).

use iomark_core::Ddir;
use iomark_plan::errors::ErrorPolicy;

/// A data or sync I/O (`unit`, doing `op`) of job `job` failed with `errno`: counts it in
/// `recorder` (as issued, and as an error), describes it on standard error (naming its file
/// among `files`) when it ends the job or `error_dump` asks, and returns whether it ends
/// the job, as `policy` says.
pub fn failed_io(
    (job, policy, files): (&str, &ErrorPolicy, &iomark_plan::files::FilesPlan),
    recorder: &mut iomark_stats::recorder::JobRecorder,
    unit: &iomark_engine::IoUnit,
    op: &str,
    errno: i32,
) -> bool {
    let dir = Some(unit.ddir).filter(|d| d.is_data());
    recorder.record_error(dir, errno);
    recorder.failed_fsyncs += u64::from(unit.ddir == Ddir::Sync);
    let fatal = !policy.continues(unit.ddir, errno);
    if fatal || policy.dump {
        let path = files.list.get(unit.file as usize).map(|f| f.path.as_path());
        let line =
            describe(path.unwrap_or(std::path::Path::new("")), op, unit.offset, unit.len, errno);
        eprintln!("iomark: job '{job}': {line}");
    }
    fatal
}

pub use crate::outcome::errno_text;

/// The line describing a failed I/O, as fio's `io_u error` line:
/// `I/O error on file /dev/full: No space left on device: write offset=0, buflen=4096`.
pub fn describe(path: &std::path::Path, op: &str, offset: u64, len: usize, errno: i32) -> String {
    format!(
        "I/O error on file {}: {}: {op} offset={offset}, buflen={len}",
        path.display(),
        errno_text(errno)
    )
}

/// The name fio gives an I/O of `d` in its error messages.
pub fn ddir_name(d: Ddir) -> &'static str {
    match d {
        Ddir::Read => "read",
        Ddir::Write => "write",
        Ddir::Trim => "trim",
        Ddir::Sync => "sync",
        Ddir::Datasync => "datasync",
        Ddir::SyncFileRange => "sync_file_range",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
