//! fio's `ftruncate` and `falloc` engines: each I/O is a call that changes the file's size
//! or its allocation instead of moving data; the I/O counts its block's bytes, as fio's do.
//!
//! - `ftruncate`: a write sets the file's size to the write's offset (`ftruncate(2)`; the
//!   block size is ignored); a read or a trim fails with `EINVAL`, as in fio 3.33.
//! - `falloc`: a read is `fallocate(FALLOC_FL_KEEP_SIZE)` over its block, a write
//!   `fallocate(0)`, a trim `fallocate(FALLOC_FL_KEEP_SIZE | FALLOC_FL_PUNCH_HOLE)`.
//!
//! Both sync with `fsync`, `fdatasync` and `sync_file_range` as the other synchronous
//! engines do.

use crate::interface::{Engine, Queued};
use crate::sync::{ret, sync_file, sync_range};
use crate::unit::IoUnit;
use iomark_core::Ddir;

/// Which of the two engines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SizeCall {
    /// `ftruncate`.
    Ftruncate,
    /// `falloc`.
    Fallocate,
}

/// The `ftruncate` or `falloc` engine.
#[derive(Debug)]
pub struct SizeEngine {
    call: SizeCall,
}

impl SizeEngine {
    /// The engine making `call`s.
    pub fn new(call: SizeCall) -> Self {
        SizeEngine { call }
    }
}

/// The I/O's length, or the negated errno of a failed call (`r` < 0).
fn done(r: libc::c_int, len: usize) -> i64 {
    if r < 0 {
        ret(-1)
    } else {
        len as i64
    }
}

impl Engine for SizeEngine {
    fn name(&self) -> &'static str {
        match self.call {
            SizeCall::Ftruncate => "ftruncate",
            SizeCall::Fallocate => "falloc",
        }
    }

    fn is_sync(&self) -> bool {
        true
    }

    fn queue(&mut self, unit: &mut IoUnit) -> Queued {
        let (fd, offset, len) = (unit.fd, unit.offset as libc::off_t, unit.len);
        let keep = libc::FALLOC_FL_KEEP_SIZE;
        unit.result = match (self.call, unit.ddir) {
            (_, Ddir::Sync) => sync_file(fd, false),
            (_, Ddir::Datasync) => sync_file(fd, true),
            (_, Ddir::SyncFileRange) => {
                sync_range(fd, unit.offset, unit.len as u64, unit.sync_flags)
            }
            // SAFETY: ftruncate only changes the size of the file behind fd.
            (SizeCall::Ftruncate, Ddir::Write) => done(unsafe { libc::ftruncate(fd, offset) }, len),
            (SizeCall::Ftruncate, _) => -i64::from(libc::EINVAL),
            (SizeCall::Fallocate, ddir) => {
                let mode = match ddir {
                    Ddir::Read => keep,
                    Ddir::Trim => keep | libc::FALLOC_FL_PUNCH_HOLE,
                    _ => 0,
                };
                // SAFETY: fallocate only changes the allocation of the file behind fd.
                let r = unsafe { libc::fallocate(fd, mode, offset, len as libc::off_t) };
                done(r, len)
            }
        };
        Queued::Completed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::fd::AsRawFd;

    #[test]
    fn ftruncate_sets_the_size_to_the_offset_and_falloc_allocates() {
        let path = std::env::temp_dir().join(format!("iomark-falloc-{}", std::process::id()));
        let file = std::fs::File::options()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(&path)
            .unwrap();
        let mut u = IoUnit::new(0, 4096, 4096).unwrap();
        (u.fd, u.len) = (file.as_raw_fd(), 4096);
        let mut falloc = SizeEngine::new(SizeCall::Fallocate);
        (u.ddir, u.offset) = (Ddir::Write, 8192);
        falloc.queue(&mut u);
        assert_eq!(u.result, 4096);
        assert_eq!(file.metadata().unwrap().len(), 12288);
        let mut trunc = SizeEngine::new(SizeCall::Ftruncate);
        (u.ddir, u.offset) = (Ddir::Write, 4096);
        trunc.queue(&mut u);
        assert_eq!(u.result, 4096);
        assert_eq!(file.metadata().unwrap().len(), 4096);
        u.ddir = Ddir::Read;
        trunc.queue(&mut u);
        assert_eq!(u.result, -i64::from(libc::EINVAL));
        std::fs::remove_file(&path).unwrap();
    }
}
