//! `write_hint`: the write life time hint of each of a job's files (`fcntl(2)`
//! `F_SET_RW_HINT`), set when the job starts.
//!
//! What fio 3.33 does (checked with `strace`, and by reading the hint back): `none`,
//! `short`, `medium`, `long` and `extreme` are the kernel's values 1 to 5; every regular
//! file and block device of the job gets the hint, whether the job writes or not, but not a
//! character device, nor the files of a job on the null engine or with `create_only`. The
//! hint belongs to the file's inode, so iomark sets it through a descriptor of its own.
//! When the kernel refuses it, fio fails the job before any I/O (`err=22 … func=fcntl write
//! hint`); so does iomark, with the error `fcntl write hint: …`.

use iomark_plan::files::FilesPlan;
use iomark_plan::layout::FileKind;
use std::os::fd::AsRawFd;
use std::os::unix::fs::FileTypeExt;

/// The kernel refused a file's hint (or the file could not be opened to set it); the
/// message is the job's error text, as fio's `func=fcntl write hint`.
#[derive(Debug, thiserror::Error)]
#[error("fcntl write hint: {0}")]
pub struct HintError(#[source] pub std::io::Error);

impl HintError {
    /// The job's errno (`EINVAL` when the error carries none).
    pub fn errno(&self) -> i32 {
        self.0.raw_os_error().unwrap_or(libc::EINVAL)
    }
}

/// Sets the job's hint on its files; fails when the kernel refuses it.
pub fn apply(plan: &FilesPlan) -> Result<(), HintError> {
    let Some(hint) = plan.write_hint else { return Ok(()) };
    if !plan.touched {
        return Ok(());
    }
    let failed = HintError;
    for file in &plan.list {
        if matches!(file.kind, FileKind::CharDevice) {
            continue;
        }
        let f = std::fs::File::open(&file.path).map_err(failed)?;
        let kind = f.metadata().map_err(failed)?.file_type();
        if kind.is_file() || kind.is_block_device() {
            iomark_engine::file::set_write_hint(f.as_raw_fd(), hint).map_err(failed)?;
        }
    }
    Ok(())
}
