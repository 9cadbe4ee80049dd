//! fio's `splice` engine, and the [`Pipe`] it moves data through, which the `netsplice`
//! engine shares ([`crate::net`]). Data moves between the unit's buffer and a descriptor
//! (the job's file, or a connected socket) as fio 3.33 moves it (seen with `strace`):
//!
//! - a write maps the buffer into the pipe with `vmsplice(2)`, then moves the pipe's
//!   contents to the descriptor (at the write's offset, for a file) with `splice(2)`, a
//!   pipe's worth at a time;
//! - a read moves the descriptor's bytes into the pipe with `splice(2)`, then copies them
//!   out of the pipe into the buffer with `vmsplice(2)` on the pipe's read end.
//!
//! Every I/O completes inside `queue`; trims and syncs are the synchronous engines' calls.
//! fio on a read first tries to `vmsplice` into a fresh read-only mapping (which fails with
//! `EFAULT`, then it retries into the buffer); iomark goes straight to the buffer.

use crate::interface::{Engine, EngineError, Queued};
use crate::sync::{ret, sync_file, sync_range, trim};
use crate::unit::IoUnit;
use iomark_core::Ddir;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

/// A pipe that moves blocks between a unit's buffer and a descriptor, counting its calls.
#[derive(Debug)]
pub struct Pipe {
    read_end: OwnedFd,
    write_end: OwnedFd,
    /// The flags of every `vmsplice` (fio's `splice` engine passes none, `netsplice`
    /// `SPLICE_F_MOVE`; both are hints).
    vmsplice_flags: libc::c_uint,
    calls: u64,
}

/// The offset a transfer starts at: `Some` for a file, `None` for a socket (which has none).
fn start(offset: Option<u64>, done: usize) -> Option<libc::loff_t> {
    offset.map(|o| (o + done as u64) as libc::loff_t)
}

/// A pointer to `off`'s value, or null for a descriptor without offsets.
fn off_ptr(off: &mut Option<libc::loff_t>) -> *mut libc::loff_t {
    off.as_mut().map_or(std::ptr::null_mut(), |o| o as *mut libc::loff_t)
}

impl Pipe {
    /// A new pipe whose `vmsplice` calls pass `vmsplice_flags`.
    pub fn new(vmsplice_flags: libc::c_uint) -> Result<Self, EngineError> {
        let mut fds = [0 as libc::c_int; 2];
        // SAFETY: pipe2 writes two descriptors into the array it is given.
        if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } < 0 {
            let e = std::io::Error::last_os_error();
            return Err(EngineError::other(format!("cannot make the splice pipe: {e}")));
        }
        // SAFETY: both descriptors were just made by pipe2 and belong to nothing else.
        let (read_end, write_end) =
            unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
        Ok(Pipe { read_end, write_end, vmsplice_flags, calls: 0 })
    }

    /// How many `splice` and `vmsplice` calls the pipe has made.
    pub fn calls(&self) -> u64 {
        self.calls
    }

    /// Writes `buf` to `fd` (at `offset`, for a file) through the pipe; the bytes written,
    /// or the negated errno of a call that failed.
    pub fn write(&mut self, fd: libc::c_int, buf: &[u8], offset: Option<u64>) -> i64 {
        let len = buf.len();
        let mut done = 0;
        while done < len {
            let from = buf[done..].as_ptr().cast_mut();
            let iov = libc::iovec { iov_base: from.cast(), iov_len: len - done };
            self.calls += 1;
            // SAFETY: `iov` describes `buf[done..]`, which stays alive and unchanged until
            // the pipe is drained below, before this call returns; vmsplice on the pipe's
            // write end only reads it. The kernel checks the pipe.
            let mapped =
                unsafe { libc::vmsplice(self.write_end.as_raw_fd(), &iov, 1, self.vmsplice_flags) };
            if mapped <= 0 {
                return if mapped < 0 { ret(-1) } else { done as i64 };
            }
            let mut left = mapped as usize;
            while left > 0 {
                let mut off = start(offset, done);
                self.calls += 1;
                // SAFETY: `off` is a live local the kernel updates (or null, for a socket);
                // the descriptors are checked by the kernel.
                let n = unsafe {
                    libc::splice(
                        self.read_end.as_raw_fd(),
                        std::ptr::null_mut(),
                        fd,
                        off_ptr(&mut off),
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

    /// Reads `fd` (at `offset`, for a file) into `buf` through the pipe, until `buf` is
    /// full or the data ends; the bytes read, or the negated errno of a call that failed.
    pub fn read(&mut self, fd: libc::c_int, buf: &mut [u8], offset: Option<u64>) -> i64 {
        let len = buf.len();
        let mut done = 0;
        while done < len {
            let mut off = start(offset, done);
            self.calls += 1;
            // SAFETY: `off` is a live local the kernel updates (or null, for a socket); the
            // descriptors are checked by the kernel.
            let n = unsafe {
                libc::splice(
                    fd,
                    off_ptr(&mut off),
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
                // `done + left <= len`: within `buf`.
                let iov = libc::iovec { iov_base: buf[done..].as_mut_ptr().cast(), iov_len: left };
                self.calls += 1;
                // SAFETY: vmsplice on the pipe's read end copies into the memory `iov`
                // describes, `buf[done..done + left]`, borrowed mutably for the call.
                let got = unsafe {
                    libc::vmsplice(self.read_end.as_raw_fd(), &iov, 1, self.vmsplice_flags)
                };
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

/// The `splice` engine, with its pipe.
#[derive(Debug)]
pub struct SpliceEngine {
    pipe: Pipe,
}

impl SpliceEngine {
    /// The engine, with a new pipe.
    pub fn new() -> Result<Self, EngineError> {
        Ok(SpliceEngine { pipe: Pipe::new(0)? })
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
        let buf = &mut unit.buf.as_mut_slice()[..len];
        unit.result = match unit.ddir {
            Ddir::Read => self.pipe.read(fd, buf, Some(offset)),
            Ddir::Write => self.pipe.write(fd, buf, Some(offset)),
            Ddir::Trim => trim(fd, offset, unit.len as u64),
            Ddir::Sync => sync_file(fd, false),
            Ddir::Datasync => sync_file(fd, true),
            Ddir::SyncFileRange => sync_range(fd, offset, unit.len as u64, unit.sync_flags),
        };
        Queued::Completed
    }
}
