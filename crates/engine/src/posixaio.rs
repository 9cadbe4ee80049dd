//! The `posixaio` engine: POSIX asynchronous I/O (`aio_read`, `aio_write`, `aio_fsync`) as
//! glibc implements it, with helper threads inside the C library.
//!
//! Each unit owns one `aiocb`, allocated once and never moved while its I/O is in flight. As
//! in fio, the I/O starts inside `queue` (there is no separate submission call in POSIX AIO);
//! `commit` only reports how many were started since the last commit, so that the submit
//! distribution counts them. `reap` polls the in-flight control blocks with `aio_error` and,
//! when it must wait, sleeps in `aio_suspend`.
//!
//! glibc serves the requests of one file descriptor in order, one at a time, so a job on one
//! file gets little parallelism from a deeper queue; fio on Linux behaves the same way
//! (`strace -f` of `fio --ioengine=posixaio --iodepth=8` shows every `pwrite64` on one
//! helper thread).
//!
//! Dropping the engine cancels what has not started and waits for the rest, since glibc's
//! threads write into the control blocks and buffers until a request ends; an I/O that never
//! ends (a read on an empty pipe, say) makes the drop wait forever. The runner reaps
//! everything before it drops the engine, and drops the engine before the units.
//! Trims are synchronous (`crate::sync::trim`), as POSIX AIO has no discard.

use crate::interface::{Engine, EngineError, Queued};
use crate::unit::IoUnit;
use iomark_core::Ddir;
use std::io;
use std::os::fd::RawFd;

/// POSIX AIO through glibc: one `aiocb` per unit, indexed by `IoUnit::index`.
pub struct PosixAioEngine {
    /// One control block per unit. Boxed so that the blocks keep their addresses while the
    /// engine value moves; never reallocated while any I/O is in flight.
    cbs: Box<[libc::aiocb]>,
    /// Indexes of the units whose I/O is in flight (capacity: one per unit).
    in_flight: Vec<u32>,
    /// Whether each unit's control block is in flight (a unit queued twice is refused).
    busy: Box<[bool]>,
    /// The list `aio_suspend` waits on, rebuilt from `in_flight` before each wait.
    suspend: Box<[*const libc::aiocb]>,
    /// I/Os started since the last `commit`.
    started: usize,
}

// SAFETY: the raw pointers in the control blocks and in `suspend` point into this engine's
// own boxed control blocks and into unit buffers the runner keeps alive and untouched while
// the I/O is in flight. glibc's AIO is process-wide: a request started on one thread may be
// polled, waited for and collected on any other, so moving the engine to another thread is
// sound.
unsafe impl Send for PosixAioEngine {}

/// A zeroed control block that asks for no completion notification.
fn blank_cb() -> libc::aiocb {
    // SAFETY: aiocb is plain data (integers and raw pointers); all-zero is a valid value,
    // and it is how POSIX asks applications to initialise one.
    let mut cb: libc::aiocb = unsafe { std::mem::zeroed() };
    cb.aio_sigevent.sigev_notify = libc::SIGEV_NONE;
    cb
}

fn errno() -> i32 {
    io::Error::last_os_error().raw_os_error().unwrap_or(libc::EIO)
}

impl PosixAioEngine {
    /// An engine for `depth` units (at least one).
    pub fn new(depth: u32) -> Self {
        let depth = depth.max(1) as usize;
        PosixAioEngine {
            cbs: (0..depth).map(|_| blank_cb()).collect(),
            in_flight: Vec::with_capacity(depth),
            busy: vec![false; depth].into_boxed_slice(),
            suspend: vec![std::ptr::null(); depth].into_boxed_slice(),
            started: 0,
        }
    }

    /// Grows the pools to `units` entries; only while nothing is in flight.
    fn ensure_capacity(&mut self, units: usize) {
        if units <= self.cbs.len() || !self.in_flight.is_empty() {
            return;
        }
        let started = self.started;
        *self = PosixAioEngine::new(units as u32);
        self.started = started;
    }

    /// Waits until at least one in-flight I/O has finished (or a signal interrupts).
    fn suspend(&mut self) -> io::Result<()> {
        let n = self.in_flight.len();
        for (slot, &i) in self.suspend.iter_mut().zip(&self.in_flight) {
            *slot = &self.cbs[i as usize];
        }
        // SAFETY: the first `n` entries of `suspend` point to control blocks of I/Os in
        // flight, all alive in `self.cbs`; a null timeout waits without limit.
        let r =
            unsafe { libc::aio_suspend(self.suspend.as_ptr(), n as libc::c_int, std::ptr::null()) };
        if r < 0 {
            let e = errno();
            // EINTR: a signal arrived; EAGAIN: no timeout was given, so should not happen,
            // but rescanning is always safe.
            if e != libc::EINTR && e != libc::EAGAIN {
                return Err(io::Error::from_raw_os_error(e));
            }
        }
        Ok(())
    }

    /// Collects finished I/Os, up to `max` in all, into `units` and `done`; returns how many
    /// this pass found.
    fn scan(&mut self, units: &mut [IoUnit], max: usize, done: &mut Vec<u32>, got: usize) -> usize {
        let mut found = 0;
        let mut k = 0;
        while k < self.in_flight.len() && got + found < max {
            let i = self.in_flight[k] as usize;
            let cb = &mut self.cbs[i];
            // SAFETY: cb is the control block of an I/O started by aio_read, aio_write or
            // aio_fsync and not yet collected with aio_return.
            let e = unsafe { libc::aio_error(cb) };
            if e == libc::EINPROGRESS {
                k += 1;
                continue;
            }
            // SAFETY: the I/O has finished (aio_error no longer says EINPROGRESS); aio_return
            // is called exactly once per request, which frees glibc's record of it.
            let n = unsafe { libc::aio_return(cb) };
            let result = match e {
                0 => n as i64,
                e if e > 0 => -i64::from(e),
                _ => -i64::from(errno()),
            };
            self.in_flight.swap_remove(k);
            self.busy[i] = false;
            if let Some(unit) = units.get_mut(i) {
                debug_assert_eq!(unit.index as usize, i);
                unit.result = result;
            }
            done.push(i as u32);
            found += 1;
        }
        found
    }
}

impl Drop for PosixAioEngine {
    /// Cancels what is still in flight and waits for the rest: glibc's threads write into
    /// the control blocks (and into the units' buffers, which the runner drops after the
    /// engine) until each request is over.
    fn drop(&mut self) {
        for &i in &self.in_flight {
            let cb = &mut self.cbs[i as usize];
            // SAFETY: cb is the control block of a request in flight; aio_cancel only marks
            // it cancelled if it has not started.
            unsafe { libc::aio_cancel(cb.aio_fildes, cb) };
        }
        while !self.in_flight.is_empty() {
            let mut sink = Vec::new();
            let n = self.in_flight.len();
            self.scan(&mut [], n, &mut sink, 0);
            if !self.in_flight.is_empty() && self.suspend().is_err() {
                // aio_suspend only fails on bad arguments; fall back to polling.
                std::thread::yield_now();
            }
        }
    }
}

impl Engine for PosixAioEngine {
    fn name(&self) -> &'static str {
        "posixaio"
    }

    fn is_sync(&self) -> bool {
        false
    }

    fn setup(&mut self, units: &mut [IoUnit], _fds: &[RawFd]) -> Result<(), EngineError> {
        let most = units.iter().map(|u| u.index as usize + 1).max().unwrap_or(0);
        self.ensure_capacity(most);
        Ok(())
    }

    fn queue(&mut self, unit: &mut IoUnit) -> Queued {
        if unit.ddir == Ddir::Trim {
            unit.result = crate::sync::trim(unit.fd, unit.offset, unit.len as u64);
            return Queued::Completed;
        }
        let i = unit.index as usize;
        let Some(cb) = self.cbs.get_mut(i) else {
            unit.result = -i64::from(libc::EINVAL);
            return Queued::Completed;
        };
        if self.busy[i] {
            // The runner never queues a unit twice; refusing keeps the control block of the
            // first request intact.
            unit.result = -i64::from(libc::EBUSY);
            return Queued::Completed;
        }
        *cb = blank_cb();
        cb.aio_fildes = unit.fd;
        cb.aio_offset = unit.offset as libc::off_t;
        cb.aio_buf = unit.buf.as_mut_ptr().cast();
        cb.aio_nbytes = unit.len.min(unit.buf.len());
        // SAFETY: cb lives in self.cbs and does not move until the request is collected by
        // reap (or Drop); aio_buf points to aio_nbytes bytes of the unit's buffer, which the
        // runner neither touches nor frees until reap hands the unit back.
        let r = unsafe {
            match unit.ddir {
                Ddir::Read => libc::aio_read(cb),
                Ddir::Write => libc::aio_write(cb),
                // POSIX AIO has no range sync; fio 3.33 fsyncs (the whole file, always).
                Ddir::Sync | Ddir::SyncFileRange => libc::aio_fsync(libc::O_SYNC, cb),
                Ddir::Datasync => libc::aio_fsync(libc::O_DSYNC, cb),
                Ddir::Trim => unreachable!("trims complete above"),
            }
        };
        if r < 0 {
            let e = errno();
            // Out of resources: wait for something in flight, then retry. With nothing in
            // flight waiting cannot help, so the error is the I/O's.
            if e == libc::EAGAIN && !self.in_flight.is_empty() {
                return Queued::Busy;
            }
            unit.result = -i64::from(e);
            return Queued::Completed;
        }
        self.in_flight.push(unit.index);
        self.busy[i] = true;
        self.started += 1;
        Queued::Queued
    }

    fn commit(&mut self) -> io::Result<usize> {
        Ok(std::mem::take(&mut self.started))
    }

    fn reap(
        &mut self,
        units: &mut [IoUnit],
        min: usize,
        max: usize,
        done: &mut Vec<u32>,
    ) -> io::Result<usize> {
        let mut got = 0;
        loop {
            got += self.scan(units, max, done, got);
            if got >= min || got >= max || self.in_flight.is_empty() {
                return Ok(got);
            }
            self.suspend()?;
        }
    }
}
