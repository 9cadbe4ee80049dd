//! The synchronous engines: each I/O is one blocking system call, done inside `queue`.
//!
//! - `sync`: `lseek` then `read`/`write`.
//! - `psync` (fio's default): `pread`/`pwrite`.
//! - `vsync`: `lseek` then `readv`/`writev` with one vector.
//! - `pvsync`: `preadv`/`pwritev`.
//! - `pvsync2`: `preadv2`/`pwritev2`, with `RWF_HIPRI` (`hipri`, on `hipri_percentage` of
//!   the I/Os) and `RWF_NOWAIT` (`nowait`). Where the file cannot be polled (a file system,
//!   a device without poll queues) the kernel ignores `RWF_HIPRI` and the I/O completes as
//!   usual; fio 3.33 does nothing more there, nor does iomark.
//!
//! All of them trim with `fallocate(PUNCH_HOLE)` on files and `BLKDISCARD` on block devices,
//! and sync with `fsync`/`fdatasync` and `sync_file_range`.

use crate::interface::{Engine, Queued};
use crate::unit::IoUnit;
use iomark_core::Ddir;

/// Which system calls a synchronous engine uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SyncFlavor {
    /// `lseek` + `read`/`write`.
    Sync,
    /// `pread`/`pwrite`.
    Psync,
    /// `lseek` + `readv`/`writev`.
    Vsync,
    /// `preadv`/`pwritev`.
    Pvsync,
    /// `preadv2`/`pwritev2` with flags.
    Pvsync2 {
        /// Ask for polled completion (`RWF_HIPRI`).
        hipri: bool,
        /// Fail instead of blocking (`RWF_NOWAIT`).
        nowait: bool,
        /// Drop the pages from the page cache after the I/O (`RWF_DONTCACHE`).
        uncached: bool,
    },
}

/// A synchronous engine.
#[derive(Debug)]
pub struct SyncEngine {
    flavor: SyncFlavor,
    /// pvsync2's `hipri_percentage`: the chance, in percent, that an I/O of a `hipri` job
    /// asks for polling (100: every one).
    hipri_percentage: u32,
    /// Where the spread of `hipri_percentage` stands: the percent owed to the next I/Os.
    owed: u32,
    /// Reads and writes made; each is `per_transfer` system calls (counted this way, a
    /// transfer costs one addition).
    transfers: u64,
    /// The system calls of one transfer: 2 for the flavors that seek first, else 1.
    per_transfer: u64,
    /// The other system calls made: syncs and trims.
    other_calls: u64,
}

impl SyncEngine {
    /// An engine of the given flavor.
    pub fn new(flavor: SyncFlavor) -> Self {
        let per_transfer = match flavor {
            SyncFlavor::Sync | SyncFlavor::Vsync => 2,
            _ => 1,
        };
        SyncEngine {
            flavor,
            hipri_percentage: 100,
            owed: 0,
            transfers: 0,
            per_transfer,
            other_calls: 0,
        }
    }

    /// pvsync2 with `hipri`: this share of the I/Os, in percent, asks for polling (fio's
    /// `hipri_percentage`). fio draws each I/O at random; iomark spreads the share evenly,
    /// so that any 100 consecutive I/Os hold exactly that many polled ones.
    pub fn with_hipri_percentage(mut self, percentage: u32) -> Self {
        self.hipri_percentage = percentage.min(100);
        self
    }

    /// The flavor for the next I/O: pvsync2's `RWF_HIPRI` on its share of the I/Os.
    #[inline]
    fn flavor_for_io(&mut self) -> SyncFlavor {
        match self.flavor {
            SyncFlavor::Pvsync2 { hipri: true, nowait, uncached }
                if self.hipri_percentage < 100 =>
            {
                self.owed += self.hipri_percentage;
                let hipri = self.owed >= 100;
                if hipri {
                    self.owed -= 100;
                }
                SyncFlavor::Pvsync2 { hipri, nowait, uncached }
            }
            flavor => flavor,
        }
    }
}

/// A system call's return value: the count, or the negated errno.
pub(crate) fn ret(n: isize) -> i64 {
    if n < 0 {
        -i64::from(std::io::Error::last_os_error().raw_os_error().unwrap_or(libc::EIO))
    } else {
        n as i64
    }
}

fn seek(fd: libc::c_int, offset: u64) -> Result<(), i64> {
    // SAFETY: lseek only moves the file position of fd; a bad fd or offset returns -1.
    let r = unsafe { libc::lseek(fd, offset as libc::off_t, libc::SEEK_SET) };
    if r < 0 {
        return Err(ret(-1));
    }
    Ok(())
}

/// Does one data transfer with the flavor's system calls.
fn transfer(flavor: SyncFlavor, unit: &mut IoUnit, write: bool) -> i64 {
    let fd = unit.fd;
    let len = unit.len.min(unit.buf.len());
    let ptr = unit.buf.as_mut_ptr();
    let off = unit.offset as libc::off_t;
    let iov = libc::iovec { iov_base: ptr.cast(), iov_len: len };
    // SAFETY: every call below gets `ptr`/`iov`, which describe `len` bytes of the unit's own
    // buffer; the buffer stays alive and unaliased for the duration of the call, and the
    // kernel checks `fd`.
    let n = unsafe {
        match (flavor, write) {
            (SyncFlavor::Psync, false) => libc::pread(fd, ptr.cast(), len, off),
            (SyncFlavor::Psync, true) => libc::pwrite(fd, ptr.cast(), len, off),
            (SyncFlavor::Sync, w) => {
                if let Err(e) = seek(fd, unit.offset) {
                    return e;
                }
                if w {
                    libc::write(fd, ptr.cast(), len)
                } else {
                    libc::read(fd, ptr.cast(), len)
                }
            }
            (SyncFlavor::Vsync, w) => {
                if let Err(e) = seek(fd, unit.offset) {
                    return e;
                }
                if w {
                    libc::writev(fd, &iov, 1) as isize
                } else {
                    libc::readv(fd, &iov, 1) as isize
                }
            }
            (SyncFlavor::Pvsync, false) => libc::preadv(fd, &iov, 1, off) as isize,
            (SyncFlavor::Pvsync, true) => libc::pwritev(fd, &iov, 1, off) as isize,
            (SyncFlavor::Pvsync2 { hipri, nowait, uncached }, w) => {
                let mut flags = 0;
                if uncached {
                    flags |= libc::RWF_DONTCACHE;
                }
                if hipri {
                    flags |= libc::RWF_HIPRI;
                }
                if nowait {
                    flags |= libc::RWF_NOWAIT;
                }
                if w {
                    libc::pwritev2(fd, &iov, 1, off, flags) as isize
                } else {
                    libc::preadv2(fd, &iov, 1, off, flags) as isize
                }
            }
        }
    };
    ret(n)
}

/// Discards a range: `BLKDISCARD` on a block device, a punched hole in a file.
pub fn trim(fd: libc::c_int, offset: u64, len: u64) -> i64 {
    // SAFETY: fstat writes into the zeroed stat struct we own.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    // SAFETY: st is a valid, writable stat struct.
    if unsafe { libc::fstat(fd, &mut st) } < 0 {
        return ret(-1);
    }
    if st.st_mode & libc::S_IFMT == libc::S_IFBLK {
        let range: [u64; 2] = [offset, len];
        // BLKDISCARD = _IO(0x12, 119)
        const BLKDISCARD: libc::c_ulong = 0x1277;
        // SAFETY: BLKDISCARD reads two u64 values from the pointer, which points to `range`.
        let r = unsafe { libc::ioctl(fd, BLKDISCARD, range.as_ptr()) };
        return if r < 0 { ret(-1) } else { len as i64 };
    }
    let mode = libc::FALLOC_FL_PUNCH_HOLE | libc::FALLOC_FL_KEEP_SIZE;
    // SAFETY: fallocate only changes the file behind fd; bad arguments return -1.
    let r = unsafe { libc::fallocate(fd, mode, offset as libc::off_t, len as libc::off_t) };
    if r < 0 {
        ret(-1)
    } else {
        len as i64
    }
}

/// `fsync` or `fdatasync`.
pub fn sync_file(fd: libc::c_int, data_only: bool) -> i64 {
    // SAFETY: fsync/fdatasync take only the descriptor; a bad fd returns -1.
    let r = unsafe {
        if data_only {
            libc::fdatasync(fd)
        } else {
            libc::fsync(fd)
        }
    };
    if r < 0 {
        ret(-1)
    } else {
        0
    }
}

/// `sync_file_range(fd, offset, len, flags)`; no call for a length of 0 (see
/// [`Ddir::SyncFileRange`]). Returns 0 or a negated errno.
pub fn sync_range(fd: libc::c_int, offset: u64, len: u64, flags: u32) -> i64 {
    if len == 0 {
        return 0;
    }
    let (offset, len) = (offset as libc::off64_t, len as libc::off64_t);
    // SAFETY: sync_file_range takes only the descriptor, a range and flags; bad arguments
    // return -1.
    let r = unsafe { libc::sync_file_range(fd, offset, len, flags) };
    if r < 0 {
        ret(-1)
    } else {
        0
    }
}

impl Engine for SyncEngine {
    fn name(&self) -> &'static str {
        match self.flavor {
            SyncFlavor::Sync => "sync",
            SyncFlavor::Psync => "psync",
            SyncFlavor::Vsync => "vsync",
            SyncFlavor::Pvsync => "pvsync",
            SyncFlavor::Pvsync2 { .. } => "pvsync2",
        }
    }

    fn is_sync(&self) -> bool {
        true
    }

    fn syscalls(&self) -> Option<u64> {
        Some(self.transfers * self.per_transfer + self.other_calls)
    }

    fn queue(&mut self, unit: &mut IoUnit) -> Queued {
        if let Ddir::Read | Ddir::Write = unit.ddir {
            self.transfers += 1;
            unit.result = transfer(self.flavor_for_io(), unit, unit.ddir == Ddir::Write);
            return Queued::Completed;
        }
        // A sync_file_range of nothing makes no call.
        self.other_calls += u64::from(unit.ddir != Ddir::SyncFileRange || unit.len > 0);
        unit.result = match unit.ddir {
            Ddir::Trim => trim(unit.fd, unit.offset, unit.len as u64),
            Ddir::Datasync => sync_file(unit.fd, true),
            Ddir::SyncFileRange => {
                sync_range(unit.fd, unit.offset, unit.len as u64, unit.sync_flags)
            }
            Ddir::Sync | Ddir::Read | Ddir::Write => sync_file(unit.fd, false),
        };
        Queued::Completed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn polled(percentage: u32, hipri: bool, n: usize) -> usize {
        let flavor = SyncFlavor::Pvsync2 { hipri, nowait: false, uncached: false };
        let mut engine = SyncEngine::new(flavor).with_hipri_percentage(percentage);
        (0..n)
            .filter(|_| matches!(engine.flavor_for_io(), SyncFlavor::Pvsync2 { hipri: true, .. }))
            .count()
    }

    #[test]
    fn hipri_percentage_draws_that_share_of_polled_ios() {
        assert_eq!(polled(100, true, 1000), 1000);
        assert_eq!(polled(0, true, 1000), 0);
        assert_eq!(polled(50, false, 1000), 0);
        assert_eq!(polled(30, true, 100), 30);
        assert_eq!(polled(1, true, 1000), 10);
        assert_eq!(polled(99, true, 200), 198);
        // Other engines are left alone.
        let mut psync = SyncEngine::new(SyncFlavor::Psync).with_hipri_percentage(10);
        assert_eq!(psync.flavor_for_io(), SyncFlavor::Psync);
    }
}
