//! fio's `e4defrag` engine: each write swaps the blocks under its range of the job's file
//! with the same blocks of a donor file (`donorname`), with ext4's `EXT4_IOC_MOVE_EXT`
//! ioctl, as a defragmenter does; no data is written from the buffer. What fio 3.33 does,
//! seen with `strace` (and the ioctl's argument read by a preloaded shim):
//!
//! - before the job, the donor is opened (`O_WRONLY|O_CREAT`, mode 0644, not truncated)
//!   and, unless `inplace=1`, allocated over the file's size at once (`fallocate`, mode 0);
//!   the file system's block size is the donor's `st_blksize`;
//! - a write is one `ioctl(EXT4_IOC_MOVE_EXT)` on the job's file, whose original and donor
//!   starts are both the block of the write's offset and whose length is the blocks the
//!   write touches (a partial block counts whole); with `inplace=1` the ioctl is between
//!   a `fallocate` of the write's byte range in the donor and an `ftruncate` of the donor
//!   to 0, and all three are timed. The write counts its own length, whatever the blocks;
//! - a read, a trim or a sync fails with `EINVAL` (the job's error 22);
//! - the donor is left behind.
//!
//! Where fio 3.33 allocates the donor over `filesize` alone (without it the allocation
//! fails and so does the job), iomark takes `filesize`'s upper bound when it is given and
//! otherwise the size of the job's largest file.

use crate::interface::{Engine, EngineError, Queued};
use crate::sync::ret;
use crate::unit::IoUnit;
use iomark_core::Ddir;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::PathBuf;

/// `EXT4_IOC_MOVE_EXT`: `_IOWR('f', 15, struct move_extent)`.
const EXT4_IOC_MOVE_EXT: libc::c_ulong =
    (3 << 30) | ((std::mem::size_of::<MoveExtent>() as libc::c_ulong) << 16) | (0x66 << 8) | 15;

/// The kernel's `struct move_extent` (`fs/ext4/ext4.h`), counted in file-system blocks.
#[repr(C)]
#[derive(Debug, Default)]
struct MoveExtent {
    /// Zero.
    reserved: u32,
    /// The donor's descriptor.
    donor_fd: u32,
    /// The first block of the original file.
    orig_start: u64,
    /// The first block of the donor.
    donor_start: u64,
    /// How many blocks to move.
    len: u64,
    /// How many blocks were moved (the kernel's answer).
    moved_len: u64,
}

/// An e4defrag job's options.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DefragSpec {
    /// `donorname`, placed under `directory` when relative; `None` when not given.
    pub donor: Option<PathBuf>,
    /// `inplace=1`: allocate and free the donor's blocks inside each write.
    pub inplace: bool,
    /// The donor's size when `inplace=0` (`filesize`'s upper bound); `None`: the size of
    /// the job's largest file.
    pub donor_size: Option<u64>,
}

/// The `e4defrag` engine.
#[derive(Debug)]
pub struct DefragEngine {
    spec: DefragSpec,
    donor: Option<OwnedFd>,
    /// The file system's block size (the donor's `st_blksize`).
    block: u64,
    syscalls: u64,
}

impl DefragEngine {
    /// The engine, its options checked; the donor is opened by `setup`.
    pub fn new(spec: Option<&DefragSpec>) -> Result<Self, EngineError> {
        let spec = spec.cloned().unwrap_or_default();
        if spec.donor.is_none() {
            return Err(EngineError::option("donorname", "the e4defrag engine needs a donor file"));
        }
        Ok(DefragEngine { spec, donor: None, block: 4096, syscalls: 0 })
    }

    /// Opens (and, unless `inplace`, allocates) the donor next to the job's files `fds`.
    fn open_donor(&mut self, fds: &[RawFd]) -> Result<(), String> {
        let path = self.spec.donor.clone().unwrap_or_default();
        let fail = |what: &str, e: std::io::Error| format!("{}: {what}: {e}", path.display());
        let donor = std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .mode(0o644)
            .open(&path)
            .map_err(|e| fail("cannot open", e))?;
        if !self.spec.inplace {
            let size = self.spec.donor_size.unwrap_or_else(|| {
                fds.iter()
                    .filter(|&&fd| fd >= 0)
                    .map(|&fd| stat(fd).st_size as u64)
                    .max()
                    .unwrap_or(0)
            });
            // SAFETY: fallocate only changes the allocation of the file behind the descriptor.
            let r = unsafe { libc::fallocate(donor.as_raw_fd(), 0, 0, size as libc::off_t) };
            if size > 0 && r < 0 {
                return Err(fail("cannot allocate", std::io::Error::last_os_error()));
            }
        }
        self.block = donor.metadata().map_err(|e| fail("cannot stat", e))?.blksize().max(1);
        self.donor = Some(donor.into());
        Ok(())
    }

    /// Swaps the blocks under `len` bytes at `offset` of `fd` with the donor's.
    fn defrag(&mut self, fd: RawFd, offset: u64, len: usize) -> i64 {
        let Some(donor) = self.donor.as_ref().map(AsRawFd::as_raw_fd) else {
            return -i64::from(libc::EBADF);
        };
        let (off, n) = (offset as libc::off_t, len as libc::off_t);
        if self.spec.inplace {
            self.syscalls += 1;
            // SAFETY: fallocate only changes the allocation of the donor.
            if unsafe { libc::fallocate(donor, 0, off, n) } < 0 {
                return ret(-1);
            }
        }
        let first = offset / self.block;
        let mut me = MoveExtent {
            donor_fd: donor as u32,
            orig_start: first,
            donor_start: first,
            len: (offset + len as u64).div_ceil(self.block) - first,
            ..MoveExtent::default()
        };
        self.syscalls += 1;
        // SAFETY: `me` is a live `struct move_extent` the kernel reads and updates; the
        // kernel checks both descriptors.
        let moved = unsafe { libc::ioctl(fd, EXT4_IOC_MOVE_EXT, &mut me as *mut MoveExtent) };
        let result = if moved < 0 { ret(-1) } else { len as i64 };
        if self.spec.inplace {
            self.syscalls += 1;
            // SAFETY: ftruncate only changes the size of the donor.
            unsafe { libc::ftruncate(donor, 0) };
        }
        result
    }
}

/// The status of the file behind `fd` (zeros if it cannot be read).
fn stat(fd: RawFd) -> libc::stat {
    // SAFETY: an all-zero `stat` is a valid value of the plain C struct.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    // SAFETY: `st` is a live `stat` the kernel fills; the kernel checks the descriptor.
    unsafe { libc::fstat(fd, &mut st) };
    st
}

impl Engine for DefragEngine {
    fn name(&self) -> &'static str {
        "e4defrag"
    }

    fn is_sync(&self) -> bool {
        true
    }

    fn setup(&mut self, _units: &mut [IoUnit], fds: &[RawFd]) -> Result<(), EngineError> {
        self.open_donor(fds).map_err(|m| EngineError::option("donorname", m))
    }

    fn queue(&mut self, unit: &mut IoUnit) -> Queued {
        unit.result = match unit.ddir {
            Ddir::Write => self.defrag(unit.fd, unit.offset, unit.len),
            _ => -i64::from(libc::EINVAL),
        };
        Queued::Completed
    }

    fn syscalls(&self) -> Option<u64> {
        Some(self.syscalls)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ioctl_is_the_kernels() {
        assert_eq!(std::mem::size_of::<MoveExtent>(), 40);
        assert_eq!(EXT4_IOC_MOVE_EXT, 0xC028_660F);
    }

    #[test]
    fn a_donor_is_required() {
        let err = DefragEngine::new(None).unwrap_err();
        assert_eq!(err.option, Some("donorname"));
        let spec = DefragSpec { donor: Some("d".into()), ..DefragSpec::default() };
        assert!(DefragEngine::new(Some(&spec)).is_ok());
    }

    #[test]
    fn reads_trims_and_syncs_fail_with_einval_and_a_write_moves_or_fails_the_ioctl() {
        let dir = tempfile::tempdir().unwrap();
        let file = std::fs::File::create(dir.path().join("f")).unwrap();
        file.set_len(8192).unwrap();
        let spec = DefragSpec { donor: Some(dir.path().join("d")), ..DefragSpec::default() };
        let mut engine = DefragEngine::new(Some(&spec)).unwrap();
        engine.setup(&mut [], &[file.as_raw_fd()]).unwrap();
        let donor = std::fs::metadata(dir.path().join("d")).unwrap();
        assert_eq!(donor.len(), 8192, "allocated over the largest file");
        let mut unit = IoUnit::new(0, 4096, 4096).unwrap();
        (unit.fd, unit.len) = (file.as_raw_fd(), 4096);
        for ddir in [Ddir::Read, Ddir::Trim, Ddir::Sync] {
            unit.ddir = ddir;
            assert_eq!(engine.queue(&mut unit), Queued::Completed);
            assert_eq!(unit.result, -i64::from(libc::EINVAL), "{ddir:?}");
        }
        // The temporary directory may be on ext4, where the move succeeds.
        unit.ddir = Ddir::Write;
        engine.queue(&mut unit);
        assert!(unit.result == 4096 || unit.result < 0, "{}", unit.result);
        assert_eq!(engine.syscalls(), Some(1));
    }
}
