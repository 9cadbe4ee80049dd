//! `lockmem`: a region of anonymous memory locked in RAM (`mlock(2)`) for a job's duration,
//! so that the page cache has that much less to work with.
//!
//! As fio 3.33 does it (checked with `strace`): a private anonymous mapping of the size,
//! `mlock`ed when the job starts, `munlock`ed and unmapped when it ends. A size above the
//! machine's memory less 128 MiB is cut to that (fio says "limiting mlocked memory to N
//! MiB"). When the kernel refuses the lock (`RLIMIT_MEMLOCK` for an unprivileged user),
//! fio prints `mlock: Cannot allocate memory` and runs the job anyway; so does iomark.

use std::io;

/// Memory locked in RAM until dropped.
pub struct LockedMemory {
    base: *mut libc::c_void,
    len: usize,
}

// SAFETY: the mapping is owned by this value alone and is never read or written through
// it; it is plain process memory, which any thread may unlock and unmap.
unsafe impl Send for LockedMemory {}

/// The most `lockmem` takes, in bytes: the machine's memory less 128 MiB, as fio caps it.
pub fn limit() -> u64 {
    crate::system::mb_memory().saturating_sub(128) << 20
}

impl LockedMemory {
    /// Maps `len` bytes and locks them. The mapping is undone on failure.
    pub fn lock(len: u64) -> io::Result<LockedMemory> {
        let len =
            usize::try_from(len).map_err(|_| io::Error::from_raw_os_error(libc::ENOMEM))?.max(1);
        // SAFETY: a new private anonymous mapping placed by the kernel; it overlaps no
        // memory Rust knows about.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: base..base+len is the mapping just made.
        if unsafe { libc::mlock(base, len) } < 0 {
            let e = io::Error::last_os_error();
            // SAFETY: the same mapping, not used after this.
            unsafe { libc::munmap(base, len) };
            return Err(e);
        }
        Ok(LockedMemory { base, len })
    }

    /// How many bytes are locked.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether nothing is locked (never: at least one byte is).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl Drop for LockedMemory {
    fn drop(&mut self) {
        // SAFETY: base and len describe the mapping made and locked in `lock`, unused since.
        unsafe {
            libc::munlock(self.base, self.len);
            libc::munmap(self.base, self.len);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn locked_kib() -> u64 {
        let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmLck:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap_or(0)
    }

    #[test]
    fn the_region_is_locked_until_dropped() {
        let before = locked_kib();
        let Ok(region) = LockedMemory::lock(1 << 20) else {
            eprintln!("skipped: mlock of 1 MiB refused here (RLIMIT_MEMLOCK)");
            return;
        };
        assert_eq!(region.len(), 1 << 20);
        // Other tests of this binary may lock and unlock meanwhile: at least ours shows.
        assert!(locked_kib() >= before + 1024 || locked_kib() >= 1024);
        drop(region);
        assert!(limit() > 0);
    }
}
