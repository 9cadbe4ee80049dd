//! The `libaio` engine: Linux native asynchronous I/O through its raw system calls
//! (`io_setup`, `io_submit`, `io_getevents`, `io_destroy`), without the C library.
//!
//! Each unit owns one preallocated `iocb`, tagged with the unit's index. `queue` fills it and
//! appends it to a batch; `commit` submits the batch with one `io_submit` (the kernel may take
//! fewer: the rest stays for the next commit, and a request it refuses comes back from `reap`
//! with the negated errno); `reap` collects completions with `io_getevents`, or, with
//! `userspace_reap` and a minimum of 0, straight from the completion ring.
//!
//! Syncs go to the kernel as `IOCB_CMD_FSYNC`/`IOCB_CMD_FDSYNC` (Linux 4.18) once nothing is in
//! flight, so that they follow the writes before them; where the kernel refuses those, they
//! and trims are done synchronously inside `queue`, as fio's libaio does.
//!
//! Buffered I/O is not asynchronous through Linux AIO: the kernel does it inside `io_submit`.
//! After every submission the engine looks at the ring (no system call) to see whether
//! everything submitted has already completed, and says so in `notes` when that was the rule.

pub mod abi;
mod ring;

use crate::interface::{Engine, EngineError, Queued};
use crate::options::EngineOptions;
use crate::sync::{sync_file, sync_range, trim};
use crate::unit::IoUnit;
use abi::{AioContext, IoEvent, Iocb};
use iomark_core::Ddir;
use ring::Ring;
use std::os::fd::RawFd;
use std::ptr::NonNull;

/// The note for a job whose submissions completed inline.
pub const INLINE_NOTE: &str = "libaio completed submissions inline: buffered I/O is not \
                               asynchronous with libaio; use direct=1, io_uring or threadpool";

/// The fewest requests that must have completed inline before `notes` says so: a job of a
/// few I/Os proves nothing.
pub const INLINE_MIN_IOCBS: u64 = 16;

/// The Linux AIO engine.
pub struct LibaioEngine {
    ctx: AioContext,
    /// The context's completion ring, if its layout is the known one.
    ring: Option<Ring>,
    /// One request per unit, by unit index: `depth` of them, from `Box::into_raw` (freed in
    /// Drop). Kept as a raw pointer so that the pointers handed to the kernel and the ones
    /// the engine writes through all derive from it.
    iocbs: NonNull<Iocb>,
    depth: usize,
    /// Requests queued and not yet taken by the kernel: `batch[head..len]`.
    batch: Box<[*mut Iocb]>,
    batch_head: usize,
    batch_len: usize,
    /// Room for the completions of one `io_getevents`.
    events: Box<[IoEvent]>,
    /// Units finished outside the kernel's ring (refused by `io_submit`, or synced by hand),
    /// with their results; `reap` returns them first.
    finished: Vec<(u32, i64)>,
    /// Requests the kernel took and `reap` has not returned.
    in_kernel: usize,
    nowait: bool,
    userspace_reap: bool,
    /// Whether syncs go to the kernel (cleared when it refuses `IOCB_CMD_FSYNC`).
    aio_fsync: bool,
    counts: Counts,
}

/// What the engine counted about its submissions.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    /// Requests the kernel took.
    pub submitted: u64,
    /// Of those, requests whose submission had completed everything in flight by the time
    /// `io_submit` returned.
    pub inline: u64,
    /// `io_submit` calls that took at least one request.
    pub submissions: u64,
    /// Of those, the calls after which everything in flight had completed.
    pub inline_submissions: u64,
    /// Completions read from the ring in user space.
    pub userspace_reaped: u64,
    /// System calls made: every `io_submit` and `io_getevents`, and the syncs and trims
    /// done in `queue`.
    pub syscalls: u64,
}

// SAFETY: the raw pointers point into the engine's own `iocbs` and into the context's ring,
// which belongs to the process, not to a thread; the engine is used by one thread at a time.
unsafe impl Send for LibaioEngine {}

impl LibaioEngine {
    /// An engine with a context for `options.iodepth` requests in flight.
    pub fn new(options: &EngineOptions) -> Result<Self, EngineError> {
        let depth = options.iodepth.max(1);
        let ctx = abi::io_setup(depth).map_err(|errno| setup_error(depth, errno))?;
        let depth = depth as usize;
        let iocbs = Box::into_raw(vec![Iocb::default(); depth].into_boxed_slice());
        // SAFETY: Box::into_raw never returns null.
        let iocbs = unsafe { NonNull::new_unchecked(iocbs.cast::<Iocb>()) };
        // SAFETY: `ctx` was just returned by io_setup; the ring lives in `self` and is dropped
        // before `io_destroy` (see Drop).
        let ring = unsafe { Ring::new(ctx) };
        Ok(LibaioEngine {
            ctx,
            ring,
            iocbs,
            depth,
            batch: vec![std::ptr::null_mut(); depth].into_boxed_slice(),
            batch_head: 0,
            batch_len: 0,
            events: vec![IoEvent::default(); depth].into_boxed_slice(),
            finished: Vec::with_capacity(depth),
            in_kernel: 0,
            nowait: options.nowait,
            userspace_reap: options.userspace_reap,
            aio_fsync: true,
            counts: Counts::default(),
        })
    }

    /// What the engine counted so far.
    pub fn counts(&self) -> Counts {
        self.counts
    }

    /// Whether any unit is queued, submitted or refused and not yet reaped.
    fn busy(&self) -> bool {
        self.batch_len > self.batch_head || self.in_kernel > 0 || !self.finished.is_empty()
    }

    /// Submits the pending batch; returns how many requests left it (taken by the kernel or
    /// refused and moved to `finished`).
    fn submit(&mut self) -> usize {
        let mut taken = 0;
        while self.batch_head < self.batch_len {
            let nr = self.batch_len - self.batch_head;
            // SAFETY: batch[head..len] are pointers into `self.iocbs`, each filled by `queue`
            // for a unit that the runner leaves alone until it is reaped.
            let r = unsafe {
                abi::io_submit(self.ctx, nr, self.batch.as_mut_ptr().add(self.batch_head))
            };
            self.counts.syscalls += 1;
            match r {
                Ok(0) => break,
                Ok(k) => {
                    self.batch_head += k;
                    taken += k;
                    self.in_kernel += k;
                    self.count_submission(k);
                }
                // Out of resources with requests in flight: reaping frees them.
                Err(libc::EAGAIN) if self.in_kernel > 0 => break,
                Err(errno) => {
                    self.refuse_head(errno);
                    taken += 1;
                }
            }
        }
        if self.batch_head == self.batch_len {
            self.batch_head = 0;
            self.batch_len = 0;
        }
        taken
    }

    /// The kernel refused the first pending request: it completes with the negated errno,
    /// or, for a sync the kernel cannot do asynchronously, with a synchronous sync.
    fn refuse_head(&mut self, errno: i32) {
        // SAFETY: the pointer is into `self.iocbs` (see `submit`); nothing else uses it now.
        let iocb = unsafe { *self.batch[self.batch_head] };
        self.batch_head += 1;
        let op = iocb.aio_lio_opcode;
        let is_sync = op == abi::IOCB_CMD_FSYNC || op == abi::IOCB_CMD_FDSYNC;
        // A sync is only queued with nothing in flight, so it may be done here and now.
        let result = if errno == libc::EINVAL && is_sync {
            self.aio_fsync = false;
            self.counts.syscalls += 1;
            sync_file(iocb.aio_fildes as RawFd, op == abi::IOCB_CMD_FDSYNC)
        } else {
            -i64::from(errno)
        };
        self.finished.push((iocb.aio_data as u32, result));
    }

    /// Counts a submission of `k` requests, and whether everything in flight had completed
    /// when it returned.
    fn count_submission(&mut self, k: usize) {
        self.counts.submitted += k as u64;
        self.counts.submissions += 1;
        if self.ring.as_ref().is_some_and(|r| r.ready() >= self.in_kernel) {
            self.counts.inline += k as u64;
            self.counts.inline_submissions += 1;
        }
    }

    /// Fills the unit's request and appends it to the batch.
    fn enqueue(&mut self, unit: &mut IoUnit, opcode: u16) -> Queued {
        let rw = opcode == abi::IOCB_CMD_PREAD || opcode == abi::IOCB_CMD_PWRITE;
        let len = unit.len.min(unit.buf.len());
        let iocb = Iocb {
            aio_data: u64::from(unit.index),
            aio_rw_flags: if rw && self.nowait { libc::RWF_NOWAIT } else { 0 },
            aio_lio_opcode: opcode,
            aio_fildes: unit.fd as u32,
            aio_buf: if rw { unit.buf.as_mut_ptr() as u64 } else { 0 },
            aio_nbytes: if rw { len as u64 } else { 0 },
            aio_offset: if rw { unit.offset as i64 } else { 0 },
            aio_reqprio: unit.ioprio as i16,
            aio_flags: if unit.ioprio != 0 { abi::IOCB_FLAG_IOPRIO } else { 0 },
            ..Iocb::default()
        };
        // SAFETY: `index < depth` (checked by `queue`), and the unit's request is not in the
        // kernel's hands: the unit is not in flight.
        let slot = unsafe { self.iocbs.as_ptr().add(unit.index as usize) };
        // SAFETY: `slot` points to one of the engine's requests (see above).
        unsafe { slot.write(iocb) };
        if self.batch_len == self.batch.len() {
            // Requests the kernel did not take sit at the front; make room behind them.
            self.batch.copy_within(self.batch_head..self.batch_len, 0);
            self.batch_len -= self.batch_head;
            self.batch_head = 0;
        }
        self.batch[self.batch_len] = slot;
        self.batch_len += 1;
        Queued::Queued
    }

    /// Returns the units finished outside the ring, up to `max`.
    fn reap_finished(&mut self, units: &mut [IoUnit], max: usize, done: &mut Vec<u32>) -> usize {
        let n = self.finished.len().min(max);
        for &(index, result) in &self.finished[..n] {
            units[index as usize].result = result;
            done.push(index);
        }
        self.finished.drain(..n);
        n
    }
}

impl Engine for LibaioEngine {
    fn name(&self) -> &'static str {
        "libaio"
    }

    fn is_sync(&self) -> bool {
        false
    }

    fn setup(&mut self, units: &mut [IoUnit], _fds: &[RawFd]) -> Result<(), EngineError> {
        if units.iter().any(|u| u.index as usize >= self.depth) {
            return Err(EngineError::option(
                "iodepth",
                format!("libaio: more units than the depth {}", self.depth),
            ));
        }
        Ok(())
    }

    fn queue(&mut self, unit: &mut IoUnit) -> Queued {
        if unit.index as usize >= self.depth {
            unit.result = -i64::from(libc::EINVAL);
            return Queued::Completed;
        }
        let data_only = unit.ddir == Ddir::Datasync;
        match unit.ddir {
            Ddir::Read => self.enqueue(unit, abi::IOCB_CMD_PREAD),
            Ddir::Write => self.enqueue(unit, abi::IOCB_CMD_PWRITE),
            // Linux AIO has no sync_file_range: fio 3.33 calls it here and now, without
            // waiting for the I/Os in flight (it syncs only the writes that completed).
            Ddir::SyncFileRange => {
                self.counts.syscalls += u64::from(unit.len > 0);
                unit.result = sync_range(unit.fd, unit.offset, unit.len as u64, unit.sync_flags);
                Queued::Completed
            }
            // Trims, and syncs, wait until everything before them has completed.
            _ if self.busy() => Queued::Busy,
            Ddir::Trim => {
                self.counts.syscalls += 1;
                unit.result = trim(unit.fd, unit.offset, unit.len as u64);
                Queued::Completed
            }
            Ddir::Sync | Ddir::Datasync if !self.aio_fsync => {
                self.counts.syscalls += 1;
                unit.result = sync_file(unit.fd, data_only);
                Queued::Completed
            }
            Ddir::Sync => self.enqueue(unit, abi::IOCB_CMD_FSYNC),
            Ddir::Datasync => self.enqueue(unit, abi::IOCB_CMD_FDSYNC),
        }
    }

    fn commit(&mut self) -> std::io::Result<usize> {
        Ok(self.submit())
    }

    fn reap(
        &mut self,
        units: &mut [IoUnit],
        min: usize,
        max: usize,
        done: &mut Vec<u32>,
    ) -> std::io::Result<usize> {
        // Requests still waiting for the kernel cannot complete until they are submitted.
        if self.batch_len > self.batch_head {
            self.submit();
        }
        let mut n = self.reap_finished(units, max, done);
        let want_max = (max - n).min(self.in_kernel).min(self.events.len());
        if want_max == 0 {
            return Ok(n);
        }
        let want_min = min.saturating_sub(n).min(want_max);
        let events = &mut self.events[..want_max];
        let got = match &self.ring {
            Some(ring) if self.userspace_reap && min == 0 => {
                let got = ring.take(events);
                self.counts.userspace_reaped += got as u64;
                got
            }
            _ => loop {
                self.counts.syscalls += 1;
                match abi::io_getevents(self.ctx, want_min, events) {
                    Ok(got) => break got,
                    Err(libc::EINTR) => continue,
                    Err(errno) => return Err(std::io::Error::from_raw_os_error(errno)),
                }
            },
        };
        self.in_kernel -= got;
        for ev in &self.events[..got] {
            let index = ev.data as u32;
            units[index as usize].result = ev.res;
            done.push(index);
        }
        n += got;
        Ok(n)
    }

    fn syscalls(&self) -> Option<u64> {
        Some(self.counts.syscalls)
    }

    fn notes(&self) -> Vec<String> {
        let c = &self.counts;
        if c.inline >= INLINE_MIN_IOCBS && c.inline * 10 >= c.submitted * 9 {
            vec![INLINE_NOTE.to_string()]
        } else {
            Vec::new()
        }
    }
}

impl Drop for LibaioEngine {
    fn drop(&mut self) {
        self.ring = None;
        // The kernel waits for requests in flight; after this it holds no pointer of ours.
        abi::io_destroy(self.ctx);
        let all = std::ptr::slice_from_raw_parts_mut(self.iocbs.as_ptr(), self.depth);
        // SAFETY: `iocbs` came from Box::into_raw of a boxed slice of `depth` requests, and
        // is freed only here.
        drop(unsafe { Box::from_raw(all) });
    }
}

/// Why `io_setup` failed, with the option to blame.
fn setup_error(depth: u32, errno: i32) -> EngineError {
    let e = std::io::Error::from_raw_os_error(errno);
    match errno {
        libc::EAGAIN => EngineError::option(
            "iodepth",
            format!(
                "libaio: io_setup({depth}) failed: {e} (the system-wide limit \
                 /proc/sys/fs/aio-max-nr would be exceeded)"
            ),
        ),
        libc::EINVAL => {
            EngineError::option("iodepth", format!("libaio: io_setup({depth}) failed: {e}"))
        }
        _ => EngineError::option(
            "ioengine",
            format!("libaio: Linux AIO is not available (io_setup: {e})"),
        ),
    }
}
