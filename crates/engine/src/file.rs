//! File operations around the I/O that need raw system calls: the size of a block device,
//! dropping a file's pages from the cache (`invalidate`), preallocation (`fallocate`), and
//! the CPU usage of the calling thread.

use std::io;
use std::os::fd::RawFd;

fn check(r: libc::c_int) -> io::Result<()> {
    if r < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(())
    }
}

/// The size in bytes of the block device open as `fd`.
pub fn block_device_size(fd: RawFd) -> io::Result<u64> {
    // BLKGETSIZE64 = _IOR(0x12, 114, size_t)
    const BLKGETSIZE64: libc::c_ulong = 0x8008_1272;
    let mut size: u64 = 0;
    // SAFETY: BLKGETSIZE64 writes one u64 to the pointer, which points to `size`.
    check(unsafe { libc::ioctl(fd, BLKGETSIZE64, &mut size as *mut u64) })?;
    Ok(size)
}

/// Drops the cached pages of `len` bytes at `offset` (all when `len` is 0), as fio's
/// `invalidate` does for files.
pub fn drop_cache(fd: RawFd, offset: u64, len: u64) -> io::Result<()> {
    fadvise(fd, offset, len, libc::POSIX_FADV_DONTNEED)
}

/// How the job will read a file, for the kernel's read-ahead (`fadvise_hint`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Random offsets: no read-ahead (`POSIX_FADV_RANDOM`).
    Random,
    /// Sequential: more read-ahead (`POSIX_FADV_SEQUENTIAL`).
    Sequential,
}

/// Tells the kernel how the whole file open as `fd` will be accessed.
pub fn advise(fd: RawFd, access: Access) -> io::Result<()> {
    let advice = match access {
        Access::Random => libc::POSIX_FADV_RANDOM,
        Access::Sequential => libc::POSIX_FADV_SEQUENTIAL,
    };
    fadvise(fd, 0, 0, advice)
}

fn fadvise(fd: RawFd, offset: u64, len: u64, advice: libc::c_int) -> io::Result<()> {
    // SAFETY: posix_fadvise only advises the kernel about fd's pages.
    let r = unsafe { libc::posix_fadvise(fd, offset as libc::off_t, len as libc::off_t, advice) };
    if r != 0 {
        return Err(io::Error::from_raw_os_error(r));
    }
    Ok(())
}

/// Sets the write life time hint of the file open as `fd` (`fcntl(F_SET_RW_HINT)`, Linux
/// 4.13 and later): 1 none, 2 short, 3 medium, 4 long, 5 extreme (0 is "not set"). The
/// hint belongs to the file's inode, whichever descriptor sets it.
pub fn set_write_hint(fd: RawFd, hint: u64) -> io::Result<()> {
    // F_LINUX_SPECIFIC_BASE + 12; the libc crate does not name it on every target.
    const F_SET_RW_HINT: libc::c_int = 1024 + 12;
    let value: u64 = hint;
    // SAFETY: the kernel reads one u64 through the pointer, which points at `value`,
    // alive for the call.
    let r = unsafe { libc::fcntl(fd, F_SET_RW_HINT, &value as *const u64) };
    if r < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// The write life time hint of the file open as `fd` (`fcntl(F_GET_RW_HINT)`; see
/// [`set_write_hint`]).
pub fn write_hint(fd: RawFd) -> io::Result<u64> {
    const F_GET_RW_HINT: libc::c_int = 1024 + 11;
    let mut value: u64 = 0;
    // SAFETY: the kernel writes one u64 through the pointer, which points at `value`.
    let r = unsafe { libc::fcntl(fd, F_GET_RW_HINT, &mut value as *mut u64) };
    if r < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(value)
}

/// Flushes the buffer cache of the block device open as `fd` (`BLKFLSBUF`), fio's
/// `invalidate` for devices.
pub fn flush_block_device(fd: RawFd) -> io::Result<()> {
    // BLKFLSBUF = _IO(0x12, 97)
    const BLKFLSBUF: libc::c_ulong = 0x1261;
    // SAFETY: BLKFLSBUF takes no argument and only flushes the device's buffers.
    check(unsafe { libc::ioctl(fd, BLKFLSBUF, 0) })
}

/// How `fallocate` preallocates a file being laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Prealloc {
    /// No preallocation.
    None,
    /// `fallocate(2)` with mode 0 (fio's `native`).
    Native,
    /// `posix_fallocate(3)`.
    Posix,
    /// `fallocate(2)` with `FALLOC_FL_KEEP_SIZE`.
    KeepSize,
    /// `ftruncate` to the size, nothing allocated.
    Truncate,
}

/// Preallocates `len` bytes of the file open as `fd` from offset 0.
pub fn preallocate(fd: RawFd, len: u64, how: Prealloc) -> io::Result<()> {
    let len = len as libc::off_t;
    match how {
        Prealloc::None => Ok(()),
        // SAFETY: fallocate only changes the file behind fd.
        Prealloc::Native => check(unsafe { libc::fallocate(fd, 0, 0, len) }),
        Prealloc::KeepSize => {
            // SAFETY: fallocate only changes the file behind fd.
            check(unsafe { libc::fallocate(fd, libc::FALLOC_FL_KEEP_SIZE, 0, len) })
        }
        Prealloc::Posix => {
            // SAFETY: posix_fallocate only changes the file behind fd.
            let r = unsafe { libc::posix_fallocate(fd, 0, len) };
            if r != 0 {
                return Err(io::Error::from_raw_os_error(r));
            }
            Ok(())
        }
        // SAFETY: ftruncate only changes the file behind fd.
        Prealloc::Truncate => check(unsafe { libc::ftruncate(fd, len) }),
    }
}

/// CPU usage of the calling thread, from `getrusage(RUSAGE_THREAD)`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ThreadUsage {
    /// User CPU time, microseconds.
    pub user_us: u64,
    /// System CPU time, microseconds.
    pub system_us: u64,
    /// Voluntary plus involuntary context switches.
    pub ctx: u64,
    /// Major page faults.
    pub majflt: u64,
    /// Minor page faults.
    pub minflt: u64,
}

impl ThreadUsage {
    /// The calling thread's usage so far.
    pub fn now() -> Self {
        // SAFETY: rusage is plain data; all-zero is a valid value.
        let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: getrusage writes into `ru`, which we own.
        if unsafe { libc::getrusage(libc::RUSAGE_THREAD, &mut ru) } != 0 {
            return ThreadUsage::default();
        }
        let us = |t: libc::timeval| (t.tv_sec as u64) * 1_000_000 + t.tv_usec as u64;
        ThreadUsage {
            user_us: us(ru.ru_utime),
            system_us: us(ru.ru_stime),
            ctx: (ru.ru_nvcsw + ru.ru_nivcsw) as u64,
            majflt: ru.ru_majflt as u64,
            minflt: ru.ru_minflt as u64,
        }
    }

    /// The sum of two threads' usage.
    pub fn plus(self, other: ThreadUsage) -> ThreadUsage {
        ThreadUsage {
            user_us: self.user_us + other.user_us,
            system_us: self.system_us + other.system_us,
            ctx: self.ctx + other.ctx,
            majflt: self.majflt + other.majflt,
            minflt: self.minflt + other.minflt,
        }
    }

    /// The usage between `earlier` and `self`.
    pub fn since(self, earlier: ThreadUsage) -> ThreadUsage {
        ThreadUsage {
            user_us: self.user_us.saturating_sub(earlier.user_us),
            system_us: self.system_us.saturating_sub(earlier.system_us),
            ctx: self.ctx.saturating_sub(earlier.ctx),
            majflt: self.majflt.saturating_sub(earlier.majflt),
            minflt: self.minflt.saturating_sub(earlier.minflt),
        }
    }
}

/// The kernel's id of the calling thread (what fio reports as a job's pid).
pub fn thread_id() -> u32 {
    // SAFETY: gettid has no arguments and cannot fail.
    unsafe { libc::gettid() as u32 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::fd::AsRawFd;

    #[test]
    fn preallocation_sets_the_size_and_cache_drop_succeeds() {
        let file = tempfile::tempfile().unwrap();
        preallocate(file.as_raw_fd(), 1 << 20, Prealloc::Truncate).unwrap();
        assert_eq!(file.metadata().unwrap().len(), 1 << 20);
        drop_cache(file.as_raw_fd(), 0, 0).unwrap();
    }

    #[test]
    fn a_regular_file_is_not_a_block_device() {
        let file = tempfile::tempfile().unwrap();
        assert!(block_device_size(file.as_raw_fd()).is_err());
    }

    #[test]
    fn thread_usage_grows_with_work() {
        let before = ThreadUsage::now();
        let start = std::time::Instant::now();
        let mut x = 0u64;
        let mut used = ThreadUsage::default();
        while used.user_us + used.system_us == 0 && start.elapsed().as_secs() < 10 {
            for i in 0..1_000_000u64 {
                x = x.wrapping_mul(31).wrapping_add(i);
            }
            used = ThreadUsage::now().since(before);
        }
        std::hint::black_box(x);
        assert!(used.user_us + used.system_us > 0, "getrusage reported no CPU time");
        assert!(thread_id() > 0);
    }
}
