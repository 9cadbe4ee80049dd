//! fio's `splice` engine: data moves between the file and the unit's buffer through a pipe,
//! as fio 3.33 moves it (seen with `strace`):
//!
//! - a write maps the buffer into the pipe with `vmsplice(2)`, then moves the pipe's
//!   contents to the file at the write's offset with `splice(2)`, a pipe's worth at a time;
//! - a read moves the file's bytes into the pipe with `splice(2)`, then copies them out of
//!   the pipe into the buffer with `vmsplice(2)` on the pipe's read end.
//!
//! Every I/O completes inside `queue`; trims and syncs are the synchronous engines' calls.
//! fio on a read first tries to `vmsplice` into a fresh read-only mapping (which fails with
//! `EFAULT`, then it retries into the buffer); iomark goes straight to the buffer.

use crate::interface::{Engine, EngineError, Queued};
use crate::sync::{ret, sync_file, sync_range, trim};
use crate::unit::IoUnit;
use iomark_core::Ddir;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

/// The `splice` engine, with its pipe.
#[derive(Debug)]
pub struct SpliceEngine {
    read_end: OwnedFd,
    write_end: OwnedFd,
}

impl SpliceEngine {
    /// The engine, with a new pipe.
    pub fn new() -> Result<Self, EngineError> {
        let mut fds = [0 as libc::c_int; 2];
        // SAFETY: pipe2 writes two descriptors into the array it is given.
        if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } < 0 {
            let e = std::io::Error::last_os_error();
            return Err(EngineError::other(format!("cannot make the splice pipe: {e}")));
        }
        // SAFETY: both descriptors were just made by pipe2 and belong to nothing else.
        let (read_end, write_end) =
            unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
        Ok(SpliceEngine { read_end, write_end })
    }

    /// Writes `len` bytes of `buf` to `fd` at `offset` through the pipe.
    fn write(&self, fd: libc::c_int, buf: *mut u8, len: usize, offset: u64) -> i64 {
        let mut done = 0;
        while done < len {
            // SAFETY: `done < len`, within the unit's buffer; the bytes `done..len` stay
            // alive and unchanged until the pipe is drained below, before `queue` returns.
            let from = unsafe { buf.add(done) };
            let iov = libc::iovec { iov_base: from.cast(), iov_len: len - done };
            // SAFETY: `iov` describes memory owned by the unit; the kernel checks the pipe.
            let mapped = unsafe { libc::vmsplice(self.write_end.as_raw_fd(), &iov, 1, 0) };
            if mapped <= 0 {
                return if mapped < 0 { ret(-1) } else { done as i64 };
            }
            let mut left = mapped as usize;
            while left > 0 {
                let mut off = (offset + done as u64) as libc::loff_t;
                // SAFETY: `off` is a live local the kernel updates; the descriptors are
                // checked by the kernel.
                let n = unsafe {
                    libc::splice(
                        self.read_end.as_raw_fd(),
                        std::ptr::null_mut(),
                        fd,
                        &mut off,
                        left,
                        0,
                    )
                };
                if n <= 0 {
                    return if n < 0 { ret(-1) } else { done as i64 };
                }
                left -= n as usize;
                done += n as usize;
            }
        }
        done as i64
    }

    /// Reads `len` bytes of `fd` at `offset` into `buf` through the pipe.
    fn read(&self, fd: libc::c_int, buf: *mut u8, len: usize, offset: u64) -> i64 {
        let mut done = 0;
        while done < len {
            let mut off = (offset + done as u64) as libc::loff_t;
            // SAFETY: `off` is a live local the kernel updates; the descriptors are checked
            // by the kernel.
            let n = unsafe {
                libc::splice(
                    fd,
                    &mut off,
                    self.write_end.as_raw_fd(),
                    std::ptr::null_mut(),
                    len - done,
                    0,
                )
            };
            if n <= 0 {
                return if n < 0 { ret(-1) } else { done as i64 };
            }
            let mut left = n as usize;
            while left > 0 {
                // SAFETY: `done + left <= len`, within the unit's buffer, the unit's own
                // for the call.
                let to = unsafe { buf.add(done) };
                let iov = libc::iovec { iov_base: to.cast(), iov_len: left };
                // SAFETY: vmsplice on the pipe's read end copies into the memory `iov`
                // describes, which the unit owns.
                let got = unsafe { libc::vmsplice(self.read_end.as_raw_fd(), &iov, 1, 0) };
                if got <= 0 {
                    return if got < 0 { ret(-1) } else { done as i64 };
                }
                left -= got as usize;
                done += got as usize;
            }
        }
        done as i64
    }
}

impl Engine for SpliceEngine {
    fn name(&self) -> &'static str {
        "splice"
    }

    fn is_sync(&self) -> bool {
        true
    }

    fn queue(&mut self, unit: &mut IoUnit) -> Queued {
        let (fd, offset) = (unit.fd, unit.offset);
        let len = unit.len.min(unit.buf.len());
        let buf = unit.buf.as_mut_ptr();
        unit.result = match unit.ddir {
            Ddir::Read => self.read(fd, buf, len, offset),
            Ddir::Write => self.write(fd, buf, len, offset),
            Ddir::Trim => trim(fd, offset, unit.len as u64),
            Ddir::Sync => sync_file(fd, false),
            Ddir::Datasync => sync_file(fd, true),
            Ddir::SyncFileRange => sync_range(fd, offset, unit.len as u64, unit.sync_flags),
        };
        Queued::Completed
    }
}
