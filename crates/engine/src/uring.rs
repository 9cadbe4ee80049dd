//! The `io_uring` engine: requests go to the kernel through a submission ring and come back
//! through a completion ring, with one `io_uring_enter` per batch and none at all to collect
//! completions that are already there.
//!
//! Each queued unit becomes one submission entry whose `user_data` is the unit's pool index,
//! so a completion finds its unit whatever order completions arrive in. The options are
//! fio's: `hipri` polls for completions (`IOPOLL`), `sqthread_poll` lets a kernel thread
//! take the submissions (`SQPOLL`, pinned by `sqthread_poll_cpu`), `fixedbufs` and
//! `registerfiles` register the units' buffers and the job's files once at setup,
//! `nonvectored` picks `READ`/`WRITE` over `READV`/`WRITEV`, `nowait` and `uncached` add
//! `RWF_NOWAIT` and `RWF_DONTCACHE`, and `force_async` punts every Nth request to the
//! kernel's workers (`IOSQE_ASYNC`). Trims are done synchronously inside `queue`, as fio's
//! engine does for files and block devices.
//!
//! Without `SQPOLL` and `IOPOLL` the ring is made for one thread (`SINGLE_ISSUER`,
//! `DEFER_TASKRUN`) where the kernel allows it: completions are then posted only when the
//! job asks for them, in its own context, which saves the kernel work on every I/O. Such a
//! ring is made disabled and enabled by `setup`, on the thread that does the I/O; the engine
//! must then stay on that thread.

mod prep;
mod setup;

use crate::interface::{Engine, EngineError, Queued};
use crate::options::EngineOptions;
use crate::sync::{sync_file, sync_range, trim};
use crate::unit::IoUnit;
use io_uring::{opcode, squeue, types, EnterFlags, IoUring};
use iomark_core::Ddir;
use prep::{Prep, RwOp};
use std::io;
use std::os::fd::{AsRawFd, RawFd};

/// The `user_data` of the cancel request that `Drop` sends (no unit has this index).
const CANCEL_TAG: u64 = u64::MAX;

/// The `io_uring` engine.
pub struct UringEngine {
    ring: IoUring,
    /// The descriptor `io_uring_enter` takes: the ring's, or its registered index.
    enter_fd: RawFd,
    /// `IORING_ENTER_REGISTERED_RING` when `enter_fd` is a registered index.
    enter_flags: u32,
    /// The ring is still disabled (`R_DISABLED`) and must be enabled before any enter.
    disabled: bool,
    sqpoll: bool,
    iopoll: bool,
    /// How requests are made.
    prep: Prep,
    force_async: u32,
    /// Requests queued since the last `IOSQE_ASYNC` one.
    since_async: u32,
    uncached: bool,
    /// What to fall back to when registering, iomark's default, is refused: the request
    /// kind without registered buffers, or `None` when the job asked to register.
    fallback: Option<RwOp>,
    /// Entries queued since the last commit.
    unsubmitted: u32,
    /// Requests submitted or queued and not yet reaped.
    in_flight: u32,
    notes: Vec<String>,
    /// `io_uring_enter` calls made.
    enters: std::cell::Cell<u64>,
}

impl UringEngine {
    /// A ring for `options`; fails with the option at fault when the kernel cannot do what
    /// it asks.
    pub fn new(options: &EngineOptions) -> Result<Self, EngineError> {
        let built = setup::build(options)?;
        let mut notes = Vec::new();
        if options.sqthread_poll_cpu.is_some() && !options.sqthread_poll {
            notes.push("io_uring: sqthread_poll_cpu has no effect without sqthread_poll".into());
        }
        Ok(UringEngine {
            enter_fd: built.ring.as_raw_fd(),
            ring: built.ring,
            enter_flags: 0,
            enters: std::cell::Cell::new(0),
            disabled: built.disabled,
            sqpoll: options.sqthread_poll,
            iopoll: options.hipri,
            prep: Prep::new(options, built.has_read_write),
            force_async: options.force_async,
            since_async: 0,
            uncached: options.uncached != 0,
            fallback: options
                .register_by_default
                .then(|| Prep::unregistered_op(options, built.has_read_write)),
            unsubmitted: 0,
            in_flight: 0,
            notes,
        })
    }

    /// Enables a ring made disabled, from the calling thread (which becomes its only
    /// submitter), and registers the ring's descriptor with that thread.
    fn enable(&mut self) -> io::Result<()> {
        if self.disabled {
            self.ring.submitter().register_enable_rings()?;
            self.disabled = false;
        }
        if self.enter_flags == 0 {
            if let Some(index) = setup::register_ring_fd(self.ring.as_raw_fd()) {
                self.enter_fd = index as RawFd;
                self.enter_flags = EnterFlags::REGISTERED_RING.bits();
            }
        }
        Ok(())
    }

    /// One `io_uring_enter`; `EINTR` is retried.
    fn enter(&self, to_submit: u32, min_complete: u32, flags: u32) -> io::Result<usize> {
        loop {
            self.enters.set(self.enters.get() + 1);
            // SAFETY: no argument pointer is passed; the kernel reads the submission entries
            // we pushed, whose buffers stay valid until their completions are reaped.
            let r = unsafe {
                libc::syscall(
                    libc::SYS_io_uring_enter,
                    self.enter_fd,
                    to_submit,
                    min_complete,
                    flags | self.enter_flags,
                    std::ptr::null::<libc::c_void>(),
                    0usize,
                )
            };
            if r >= 0 {
                return Ok(r as usize);
            }
            let e = io::Error::last_os_error();
            if e.kind() != io::ErrorKind::Interrupted {
                return Err(e);
            }
        }
    }

    /// The flags an enter needs beyond its own: `SQ_WAKEUP` when the submission thread
    /// sleeps, `GETEVENTS` when completions wait to be posted (deferred task work, an
    /// overflowed completion queue) or polled for.
    fn ring_flags(&mut self) -> u32 {
        let sq = self.ring.submission();
        let mut flags = 0;
        if self.sqpoll && sq.need_wakeup() {
            flags |= EnterFlags::SQ_WAKEUP.bits();
        }
        if self.iopoll || sq.taskrun() || sq.cq_overflow() {
            flags |= EnterFlags::GETEVENTS.bits();
        }
        flags
    }

    /// Moves up to `room` completions from the ring to their units.
    fn drain(&mut self, units: &mut [IoUnit], room: usize, done: &mut Vec<u32>) -> usize {
        let mut got = 0;
        let mut cq = self.ring.completion();
        while got < room {
            let Some(cqe) = cq.next() else { break };
            let index = cqe.user_data() as usize;
            if let Some(unit) = units.get_mut(index) {
                unit.result = i64::from(cqe.result());
                done.push(index as u32);
                got += 1;
            }
            self.in_flight = self.in_flight.saturating_sub(1);
        }
        got
    }
}

impl Engine for UringEngine {
    fn name(&self) -> &'static str {
        "io_uring"
    }

    fn is_sync(&self) -> bool {
        false
    }

    fn setup(&mut self, units: &mut [IoUnit], fds: &[RawFd]) -> Result<(), EngineError> {
        self.enable()
            .map_err(|e| EngineError::option("ioengine", format!("enabling the ring: {e}")))?;
        let slots = units.iter().map(|u| u.index as usize + 1).max().unwrap_or(0);
        self.prep.make_room(slots);
        if self.prep.op == RwOp::Fixed {
            match (setup::register_buffers(&self.ring, units, slots), self.fallback) {
                (Ok(()), _) => {}
                (Err(e), Some(op)) => {
                    self.prep.op = op;
                    self.notes.push(format!("io_uring: buffers not registered: {}", e.message));
                }
                (Err(e), None) => return Err(e),
            }
        }
        if self.prep.registered_files && !fds.is_empty() {
            match (self.ring.submitter().register_files(fds), self.fallback) {
                (Ok(()), _) => {}
                (Err(e), Some(_)) => {
                    self.prep.registered_files = false;
                    self.notes.push(format!("io_uring: files not registered: {e}"));
                }
                (Err(e), None) => {
                    let message = format!("registering the files: {e}");
                    return Err(EngineError::option("registerfiles", message));
                }
            }
        }
        if self.uncached {
            if let Some(&fd) = fds.iter().find(|&&fd| fd >= 0) {
                setup::check_dontcache(fd)?;
            }
        }
        Ok(())
    }

    fn reopen(&mut self, fds: &[RawFd]) -> Result<(), EngineError> {
        if self.prep.registered_files && !fds.is_empty() {
            self.ring.submitter().register_files_update(0, fds).map_err(|e| {
                EngineError::option("registerfiles", format!("updating the files: {e}"))
            })?;
        }
        Ok(())
    }

    fn queue(&mut self, unit: &mut IoUnit) -> Queued {
        let entry = match unit.ddir {
            Ddir::Trim => {
                unit.result = trim(unit.fd, unit.offset, unit.len as u64);
                return Queued::Completed;
            }
            // A polled ring takes only reads and writes.
            Ddir::Sync | Ddir::Datasync if self.iopoll => {
                unit.result = sync_file(unit.fd, unit.ddir == Ddir::Datasync);
                return Queued::Completed;
            }
            // Nothing to sync (see `Ddir::SyncFileRange`), or a polled ring.
            Ddir::SyncFileRange if self.iopoll || unit.len == 0 => {
                unit.result = sync_range(unit.fd, unit.offset, unit.len as u64, unit.sync_flags);
                return Queued::Completed;
            }
            Ddir::Sync | Ddir::Datasync => self.prep.sync(unit),
            Ddir::SyncFileRange => self.prep.sync_range(unit),
            Ddir::Read | Ddir::Write => self.prep.rw(unit),
        };
        let mut entry = entry.user_data(u64::from(unit.index));
        let punt = self.force_async > 0 && self.since_async + 1 >= self.force_async;
        if punt {
            entry = entry.flags(squeue::Flags::ASYNC);
        }
        let mut sq = self.ring.submission();
        // SAFETY: the entry points at the unit's buffer and, for READV/WRITEV, at the unit's
        // iovec in `self.prep`. The runner neither touches nor frees the unit until `reap`
        // hands it back, the iovec is rewritten only when the unit is queued again, and
        // `Drop` waits for every request in flight before the ring goes away.
        if unsafe { sq.push(&entry) }.is_err() {
            return Queued::Busy;
        }
        self.since_async = if punt { 0 } else { self.since_async + 1 };
        self.unsubmitted += 1;
        self.in_flight += 1;
        Queued::Queued
    }

    fn commit(&mut self) -> io::Result<usize> {
        let queued = self.unsubmitted as usize;
        if queued == 0 {
            return Ok(0);
        }
        if self.disabled {
            self.enable()?;
        }
        let flags = self.ring_flags();
        if self.sqpoll {
            // The kernel thread takes the entries by itself unless it fell asleep.
            if flags != 0 {
                self.enter(0, 0, flags)?;
            }
            self.unsubmitted = 0;
            return Ok(queued);
        }
        let pending = self.ring.submission().len() as u32;
        match self.enter(pending, 0, flags) {
            Ok(n) => {
                self.unsubmitted = pending.saturating_sub(n as u32);
                Ok(n)
            }
            // No room for completions yet: the entries stay queued, and the next commit or a
            // waiting reap submits them.
            Err(e) if matches!(e.raw_os_error(), Some(libc::EAGAIN | libc::EBUSY)) => Ok(0),
            Err(e) => Err(e),
        }
    }

    fn reap(
        &mut self,
        units: &mut [IoUnit],
        min: usize,
        max: usize,
        done: &mut Vec<u32>,
    ) -> io::Result<usize> {
        if self.disabled {
            self.enable()?;
        }
        let min = min.min(max).min(self.in_flight as usize);
        let mut got = self.drain(units, max, done);
        if got > 0 && got >= min {
            // Enough was in the ring: no enter, and no look at its flags.
            return Ok(got);
        }
        let mut flushed = false;
        loop {
            let flags = self.ring_flags();
            let wait = if got < min {
                (min - got) as u32
            } else if got == 0 && !flushed && flags & EnterFlags::GETEVENTS.bits() != 0 {
                // Finished I/O may wait to be posted (deferred task work, polling): one
                // enter that does not block collects it.
                flushed = true;
                0
            } else {
                return Ok(got);
            };
            let pending = if self.sqpoll { 0 } else { self.ring.submission().len() as u32 };
            match self.enter(pending, wait, flags | EnterFlags::GETEVENTS.bits()) {
                Ok(_) => {}
                Err(e) if matches!(e.raw_os_error(), Some(libc::EAGAIN | libc::EBUSY)) => {}
                Err(e) => return Err(e),
            }
            self.unsubmitted = self.unsubmitted.min(self.ring.submission().len() as u32);
            got += self.drain(units, max - got, done);
        }
    }

    fn syscalls(&self) -> Option<u64> {
        Some(self.enters.get())
    }

    fn notes(&self) -> Vec<String> {
        self.notes.clone()
    }
}

impl Drop for UringEngine {
    /// Cancels what can be cancelled (a read from an idle pipe, say) and waits for every
    /// request still in flight, so that no buffer is freed while the kernel may still use
    /// it; then gives back the registered ring descriptor.
    fn drop(&mut self) {
        if self.in_flight > 0 && !self.disabled {
            let cancel = opcode::AsyncCancel2::new(types::CancelBuilder::any())
                .build()
                .user_data(CANCEL_TAG);
            // SAFETY: a cancel request points at no memory.
            let _ = unsafe { self.ring.submission().push(&cancel) };
        }
        while self.in_flight > 0 && !self.disabled {
            let pending = if self.sqpoll { 0 } else { self.ring.submission().len() as u32 };
            let flags = EnterFlags::GETEVENTS.bits() | self.ring_flags();
            if self.enter(pending, 1, flags).is_err() {
                break;
            }
            let reaped = self.ring.completion().filter(|c| c.user_data() != CANCEL_TAG).count();
            self.in_flight = self.in_flight.saturating_sub(reaped as u32);
        }
        if self.enter_flags != 0 {
            setup::unregister_ring_fd(self.ring.as_raw_fd(), self.enter_fd as u32);
        }
    }
}
