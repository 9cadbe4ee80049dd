//! Memory that the jobs of a run share across processes: a few atomic words in a memfd
//! mapped by the parent and by each job process ([`SharedWords`]), and the futex calls
//! that let a job sleep on one of them until another process changes it ([`wait`],
//! [`wake`]). The runner keeps the counters of its flows and the locks of `lockfile`
//! there, so that jobs in child processes take part in them as job threads do.

use std::fs::File;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, RawFd};
use std::process::Command;
use std::sync::atomic::{AtomicU32, AtomicU64};

/// A mapping of `wide` 64-bit words followed by `narrow` 32-bit words, zeroed when made,
/// shared with every process that maps the same file.
#[derive(Debug)]
pub struct SharedWords {
    ptr: *mut u8,
    size: usize,
    wide: usize,
    narrow: usize,
    /// The memfd behind the mapping (`None`: an anonymous mapping no other program can
    /// map).
    file: Option<File>,
}

// SAFETY: the mapping is only reached through atomics, which any thread may use at once;
// the pointer stays valid until the value is dropped.
unsafe impl Send for SharedWords {}
// SAFETY: as for Send: every access goes through `&AtomicU64` / `&AtomicU32`.
unsafe impl Sync for SharedWords {}

impl SharedWords {
    /// The bytes of `wide` and `narrow` words (at least one page's worth of nothing is
    /// never asked for: an empty region maps one byte).
    fn size_of(wide: usize, narrow: usize) -> usize {
        (wide * 8 + narrow * 4).max(1)
    }

    /// New zeroed words in a memfd that [`SharedWords::pass_to`] hands to child processes;
    /// where the kernel has no memfd, an anonymous mapping this process alone uses.
    pub fn create(wide: usize, narrow: usize) -> io::Result<SharedWords> {
        let size = Self::size_of(wide, narrow);
        let name = c"iomark-shared";
        // SAFETY: `name` is a valid C string; the call makes a new descriptor.
        let fd = unsafe { libc::memfd_create(name.as_ptr(), libc::MFD_CLOEXEC) };
        if fd < 0 {
            let ptr = map(size, libc::MAP_SHARED | libc::MAP_ANONYMOUS, -1)?;
            return Ok(SharedWords { ptr, size, wide, narrow, file: None });
        }
        // SAFETY: `fd` is the new descriptor, owned by nothing else.
        let file = unsafe { File::from_raw_fd(fd) };
        file.set_len(size as u64)?;
        let ptr = map(size, libc::MAP_SHARED, file.as_raw_fd())?;
        Ok(SharedWords { ptr, size, wide, narrow, file: Some(file) })
    }

    /// The words another process made, in the memfd this process inherited as `fd`
    /// (see [`SharedWords::pass_to`]); it must hold exactly `wide` and `narrow` words.
    pub fn inherited(fd: RawFd, wide: usize, narrow: usize) -> io::Result<SharedWords> {
        let size = Self::size_of(wide, narrow);
        // SAFETY: fcntl only sets the descriptor's close-on-exec flag (the programs this
        // process starts do not inherit it in turn); an invalid one is an error.
        if unsafe { libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC) } < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: the descriptor is open (checked above) and was handed to this process
        // for it alone; the File owns it from now on.
        let file = unsafe { File::from_raw_fd(fd) };
        if file.metadata()?.len() != size as u64 {
            return Err(io::Error::new(io::ErrorKind::InvalidData, "shared words of another run"));
        }
        let ptr = map(size, libc::MAP_SHARED, file.as_raw_fd())?;
        Ok(SharedWords { ptr, size, wide, narrow, file: Some(file) })
    }

    /// Lets the program `command` starts inherit the memfd, under the same descriptor
    /// number (which it returns), or `None` for an anonymous mapping.
    pub fn pass_to(&self, command: &mut Command) -> Option<RawFd> {
        use std::os::unix::process::CommandExt;
        let fd = self.file.as_ref()?.as_raw_fd();
        // SAFETY: the closure runs in the child between fork and exec, and makes only
        // fcntl, which is async-signal-safe; it allocates nothing and takes no lock.
        unsafe {
            command.pre_exec(move || {
                if libc::fcntl(fd, libc::F_SETFD, 0) < 0 {
                    return Err(io::Error::last_os_error());
                }
                Ok(())
            });
        }
        Some(fd)
    }

    /// The 64-bit words.
    pub fn wide(&self) -> &[AtomicU64] {
        // SAFETY: the mapping holds `wide` 64-bit words at its start, page-aligned, zeroed
        // when made and only ever changed through atomics; it lives as long as `self`.
        unsafe { std::slice::from_raw_parts(self.ptr.cast::<AtomicU64>(), self.wide) }
    }

    /// The 32-bit words.
    pub fn narrow(&self) -> &[AtomicU32] {
        // SAFETY: the 32-bit words follow the 64-bit ones (so they are 4-aligned) inside
        // the mapping, which lives as long as `self`; only atomics touch them.
        unsafe {
            let start = self.ptr.add(self.wide * 8).cast::<AtomicU32>();
            std::slice::from_raw_parts(start, self.narrow)
        }
    }
}

impl Drop for SharedWords {
    fn drop(&mut self) {
        // SAFETY: the mapping was made by `map` with this size and is no longer borrowed
        // (borrows of its words end with `self`).
        unsafe {
            libc::munmap(self.ptr.cast(), self.size);
        }
    }
}

/// `mmap` of `size` bytes, readable and writable, with `flags`.
fn map(size: usize, flags: libc::c_int, fd: RawFd) -> io::Result<*mut u8> {
    let prot = libc::PROT_READ | libc::PROT_WRITE;
    // SAFETY: a new mapping at an address the kernel chooses; nothing existing is touched.
    let ptr = unsafe { libc::mmap(std::ptr::null_mut(), size, prot, flags, fd, 0) };
    if ptr == libc::MAP_FAILED {
        return Err(io::Error::last_os_error());
    }
    Ok(ptr.cast())
}

/// Sleeps while `word` (in memory shared between processes) holds `expected`, until
/// another thread or process wakes it; spurious returns are fine, the caller checks
/// again.
pub fn wait(word: &AtomicU32, expected: u32) {
    // SAFETY: the address is a live, aligned 32-bit atomic that outlives the call; a null
    // timeout means no timeout. FUTEX_WAIT only reads the word and sleeps.
    unsafe {
        libc::syscall(
            libc::SYS_futex,
            word.as_ptr(),
            libc::FUTEX_WAIT,
            expected,
            std::ptr::null::<libc::timespec>(),
        );
    }
}

/// Wakes every thread, of any process, sleeping on `word`.
pub fn wake(word: &AtomicU32) {
    // SAFETY: the address is a live, aligned 32-bit atomic; FUTEX_WAKE neither reads nor
    // writes it, it only wakes sleepers queued on that address.
    unsafe {
        libc::syscall(libc::SYS_futex, word.as_ptr(), libc::FUTEX_WAKE, i32::MAX);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering;

    #[test]
    fn words_start_at_zero_and_are_seen_through_the_inherited_descriptor() {
        let words = SharedWords::create(3, 2).expect("shared words");
        assert!(words.wide().iter().all(|w| w.load(Ordering::Relaxed) == 0));
        words.wide()[2].store(7, Ordering::Relaxed);
        words.narrow()[1].store(9, Ordering::Relaxed);
        let fd = words.file.as_ref().expect("a memfd").as_raw_fd();
        // SAFETY: a new descriptor for the same file, owned by the second mapping.
        let copy = unsafe { libc::dup(fd) };
        let other = SharedWords::inherited(copy, 3, 2).expect("mapped again");
        assert_eq!(other.wide()[2].load(Ordering::Relaxed), 7);
        assert_eq!(other.narrow()[1].load(Ordering::Relaxed), 9);
        other.narrow()[0].store(1, Ordering::Relaxed);
        assert_eq!(words.narrow()[0].load(Ordering::Relaxed), 1);
        // SAFETY: as above.
        let wrong = unsafe { libc::dup(fd) };
        assert!(SharedWords::inherited(wrong, 4, 2).is_err(), "another size");
    }
}
