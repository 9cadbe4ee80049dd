//! One queue of the exporter: an io_uring, a fixed set of request slots with their
//! buffers, and the life of a request in a slot, the same for both transports.
//!
//! A slot fetches a request (a read of `/dev/fuse`, or a FUSE uring command that completes
//! when the kernel puts a request in the slot's buffers: `dev.rs`, `uring.rs`), the volume
//! answers it ([`Volume::answer`]), fault injection decides what becomes of a data request
//! (an injected delay is an io_uring timeout, so the queue never sleeps), the backing I/O
//! goes to the same ring, and its completion is the reply. Each slot has at most one
//! operation in the kernel at a time, and its buffers stay put while it does: they are
//! heap blocks owned by the slot, and the queue ends only when nothing is in flight.
//!
//! `user_data` is the slot's index times 8 plus a tag saying what completed; one value is
//! reserved for the `/dev/fuse` poll of the dev transport.

use crate::abi::{OutHeader, WriteOut};
use crate::inject::{Decision, Faults};
use crate::request::Request;
use crate::summary::Counters;
use crate::volume::{Action, DataOp, Volume};
use crate::wire::put;
use io_uring::{cqueue, opcode, squeue, types, IoUring};
use std::io;
use std::os::fd::{AsRawFd, RawFd};
use std::sync::Arc;

/// The rings of both transports take 128-byte entries (FUSE's uring commands need them).
pub type Ring = IoUring<squeue::Entry128, cqueue::Entry>;

/// What completed, in the low bits of `user_data`.
pub(crate) mod tag {
    /// A request fetched (a `/dev/fuse` read, or a FUSE uring command).
    pub const FETCH: u64 = 0;
    /// The backing I/O of a request.
    pub const BACKING: u64 = 1;
    /// An injected delay.
    pub const DELAY: u64 = 2;
    /// A reply written to `/dev/fuse`.
    pub const REPLY: u64 = 3;
    /// The `/dev/fuse` poll (the whole `user_data`).
    pub const POLL: u64 = u64::MAX;
}

/// Alignment of the slot buffers and of `O_DIRECT` backing I/O.
pub const ALIGN: usize = 4096;

/// Where a slot is in a request's life.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum State {
    /// Waiting to fetch (dev: until `/dev/fuse` is readable).
    Idle,
    /// A fetch is in the kernel.
    Fetching,
    /// A request is being served (a delay, a backing I/O or a reply in the kernel).
    Busy,
    /// The connection is gone; the slot fetches no more.
    Dead,
}

/// One request slot and its buffers.
pub(crate) struct Slot {
    /// The data buffer, over-allocated so that `base` is aligned.
    pub buf: Vec<u8>,
    /// Offset of the aligned start in `buf`.
    pub base: usize,
    /// FUSE-over-io_uring: the ring entry's header buffer.
    pub head: Vec<u8>,
    /// FUSE-over-io_uring: the two buffers handed to the kernel at registration.
    pub iov: [libc::iovec; 2],
    pub state: State,
    /// The request's id (the commit id over io_uring).
    pub unique: u64,
    /// The data operation being served, with what injection decided for it.
    pub op: Option<(DataOp, Decision)>,
    /// An injected delay's length, read by the kernel while the timeout runs.
    pub delay: types::Timespec,
}

/// Which transport a queue serves, and on which descriptor.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Mode {
    /// Classic `/dev/fuse` reads and writes.
    Dev { fd: RawFd },
    /// FUSE-over-io_uring on queue `qid`.
    Uring { fd: RawFd, qid: u16 },
}

/// One queue: a ring, its slots, and what it counted.
pub struct Queue {
    // The ring is declared (and so dropped) first: it closes before the buffers go.
    pub(crate) ring: Ring,
    pub(crate) slots: Vec<Slot>,
    pub(crate) mode: Mode,
    pub(crate) volume: Arc<Volume>,
    pub(crate) faults: Arc<Faults>,
    /// What this queue served.
    pub counters: Counters,
    /// Operations in the kernel (the dev poll not counted).
    pub(crate) inflight: usize,
    /// Dev transport: reads of `/dev/fuse` in flight.
    pub(crate) reading: usize,
    /// The connection is ending: fetch no more.
    pub(crate) ending: bool,
    /// Bytes of a slot's data area (the largest request or reply).
    pub(crate) area: usize,
    /// Offset of the data area from a slot's aligned start (dev: room for the headers).
    pub(crate) data_at: usize,
}

// SAFETY: the raw pointers a queue holds (its slots' iovecs) point into the queue's own
// heap buffers, which move with it; a queue is used by one thread at a time, and moved to
// its thread before its ring has anything in flight.
unsafe impl Send for Queue {}

impl Queue {
    /// A queue of `depth` slots with data areas of `area` bytes, `data_at` bytes after
    /// each slot's aligned start, for `mode`.
    pub(crate) fn new(
        mode: Mode,
        depth: usize,
        area: usize,
        data_at: usize,
        volume: Arc<Volume>,
        faults: Arc<Faults>,
    ) -> io::Result<Queue> {
        let entries = (depth + 8).next_power_of_two() as u32;
        // One thread submits (made the ring's only submitter when it enables the ring, in the
        // thread that runs the queue).
        let ring = Ring::builder()
            .setup_single_issuer()
            .setup_coop_taskrun()
            .setup_r_disabled()
            .build(entries)?;
        let slots = (0..depth)
            .map(|_| {
                let buf = vec![0u8; data_at + area + 2 * ALIGN];
                let base = buf.as_ptr().align_offset(ALIGN);
                Slot {
                    buf,
                    base,
                    head: Vec::new(),
                    iov: [libc::iovec { iov_base: std::ptr::null_mut(), iov_len: 0 }; 2],
                    state: State::Idle,
                    unique: 0,
                    op: None,
                    delay: types::Timespec::new(),
                }
            })
            .collect();
        Ok(Queue {
            ring,
            slots,
            mode,
            volume,
            faults,
            counters: Counters::default(),
            inflight: 0,
            reading: 0,
            ending: false,
            area,
            data_at,
        })
    }

    /// Enables the ring, making the calling thread its only submitter; call it first in the
    /// thread that runs the queue.
    pub(crate) fn enable(&mut self) -> io::Result<()> {
        self.ring.submitter().register_enable_rings()
    }

    /// Queues `sqe` in the ring, submitting first when the ring is full.
    ///
    /// # Safety
    /// Every buffer `sqe` points at must stay valid and unmoved until its completion: the
    /// queue's slots, which live as long as the queue, whose loop ends only when nothing is
    /// in flight.
    pub(crate) unsafe fn push(&mut self, sqe: squeue::Entry128, counted: bool) {
        loop {
            // SAFETY: the caller keeps what `sqe` points at alive until it completes.
            if unsafe { self.ring.submission().push(&sqe) }.is_ok() {
                break;
            }
            // The ring is full: hand what is queued to the kernel and try again.
            if let Err(e) = self.ring.submit() {
                if e.raw_os_error() != Some(libc::EBUSY) && e.raw_os_error() != Some(libc::EINTR) {
                    self.ending = true;
                    return;
                }
            }
        }
        if counted {
            self.inflight += 1;
        }
    }

    /// Runs the queue until the connection ends and nothing is in flight.
    pub fn run(&mut self) {
        let mut done: Vec<(u64, i32, u32)> = Vec::with_capacity(self.slots.len() * 2 + 8);
        while !(self.ending && self.inflight == 0) {
            match self.ring.submit_and_wait(1) {
                Ok(_) => {}
                Err(e) if matches!(e.raw_os_error(), Some(libc::EINTR | libc::EBUSY)) => {}
                Err(_) => return,
            }
            done.clear();
            done.extend(self.ring.completion().map(|c| (c.user_data(), c.result(), c.flags())));
            for &(user_data, res, flags) in &done {
                self.complete(user_data, res, flags);
            }
        }
    }

    fn complete(&mut self, user_data: u64, res: i32, flags: u32) {
        if user_data == tag::POLL {
            return self.dev_polled(res, flags);
        }
        self.inflight -= 1;
        let i = (user_data >> 3) as usize;
        match user_data & 7 {
            tag::FETCH => match self.mode {
                Mode::Dev { .. } => self.dev_fetched(i, res),
                Mode::Uring { .. } => self.uring_fetched(i, res),
            },
            tag::BACKING => self.backing_done(i, res),
            tag::DELAY => self.start_data(i),
            _ => self.dev_replied(i, res),
        }
    }

    /// The data area of slot `i`: where replies are written and reads land.
    pub(crate) fn area(&mut self, i: usize) -> &mut [u8] {
        let s = &mut self.slots[i];
        let start = s.base + self.data_at;
        &mut s.buf[start..start + self.area]
    }

    /// Serves `req`, which arrived in slot `i` with id `unique` about node `nodeid`.
    pub(crate) fn serve(&mut self, i: usize, unique: u64, nodeid: u64, req: Request) {
        self.slots[i].unique = unique;
        self.slots[i].state = State::Busy;
        let volume = Arc::clone(&self.volume);
        let action = volume.answer(nodeid, &req, self.area(i));
        match action {
            Action::Reply(n) => {
                self.counters.metadata += 1;
                self.reply(i, 0, n)
            }
            Action::Error(errno) => {
                if matches!(
                    req,
                    Request::Malformed(_) | Request::Read { .. } | Request::Write { .. }
                ) {
                    self.counters.refused += 1;
                } else {
                    self.counters.metadata += 1;
                }
                self.reply(i, -errno, 0)
            }
            Action::Nothing => self.refetch(i),
            Action::Destroy => {
                self.ending = true;
                self.reply(i, 0, 0)
            }
            Action::Data(op) => {
                let decision = self.faults.decide(&op);
                self.slots[i].op = Some((op, decision));
                match decision.delay {
                    Some(d) => {
                        self.counters.delayed += 1;
                        let s = &mut self.slots[i];
                        s.delay = types::Timespec::new().sec(d.as_secs()).nsec(d.subsec_nanos());
                        let sqe = opcode::Timeout::new(&s.delay).build();
                        let sqe = sqe.user_data((i as u64) << 3 | tag::DELAY);
                        // SAFETY: the timespec lives in the slot, which outlives the ring's
                        // use of it (the queue ends only when nothing is in flight).
                        unsafe { self.push(sqe.into(), true) };
                    }
                    None => self.start_data(i),
                }
            }
        }
    }

    /// Starts slot `i`'s data operation (after its delay, if it had one).
    fn start_data(&mut self, i: usize) {
        let Some((op, decision)) = self.slots[i].op else { return };
        if let Some(errno) = decision.fail {
            let k = op.kind() as usize;
            self.counters.requests[k] += 1;
            self.counters.injected[k] += 1;
            self.counters.first_injected.get_or_insert(errno);
            return self.reply(i, -errno, 0);
        }
        let area = self.area(i).as_mut_ptr();
        let fd = |aligned: bool| -> RawFd {
            match (&self.volume.direct, aligned) {
                (Some(direct), true) => direct.as_raw_fd(),
                _ => self.volume.file.as_raw_fd(),
            }
        };
        let aligned =
            |offset: u64, len: u32| offset % ALIGN as u64 == 0 && len as usize % ALIGN == 0;
        let sqe = match op {
            DataOp::Read { offset, len } => {
                opcode::Read::new(types::Fd(fd(aligned(offset, len))), area, len)
                    .offset(offset)
                    .build()
            }
            DataOp::Write { offset, len } => {
                opcode::Write::new(types::Fd(fd(aligned(offset, len))), area, len)
                    .offset(offset)
                    .build()
            }
            DataOp::Fsync => {
                opcode::Fsync::new(types::Fd(fd(false))).flags(types::FsyncFlags::DATASYNC).build()
            }
            DataOp::Fallocate { offset, len, mode } => {
                opcode::Fallocate::new(types::Fd(fd(false)), len)
                    .offset(offset)
                    .mode(mode as i32)
                    .build()
            }
        };
        let sqe = sqe.user_data((i as u64) << 3 | tag::BACKING);
        // SAFETY: `area` is slot `i`'s data area, which stays put until the completion.
        unsafe { self.push(sqe.into(), true) };
    }

    /// Slot `i`'s backing I/O completed with `res`.
    fn backing_done(&mut self, i: usize, res: i32) {
        let Some((op, decision)) = self.slots[i].op.take() else { return };
        let k = op.kind() as usize;
        self.counters.requests[k] += 1;
        if res < 0 {
            self.counters.backing_errors[k] += 1;
            return self.reply(i, res, 0);
        }
        let n = res as u32;
        match op {
            DataOp::Read { .. } => {
                self.counters.bytes[k] += u64::from(n);
                if let Some(at) = decision.corrupt.filter(|&at| at < n) {
                    self.counters.corrupted += 1;
                    self.area(i)[at as usize] ^= 0xa5;
                }
                self.reply(i, 0, n as usize)
            }
            DataOp::Write { offset, .. } => {
                self.counters.bytes[k] += u64::from(n);
                if !self.volume.block {
                    self.volume.reached(offset + u64::from(n));
                }
                let len = put(self.area(i), &WriteOut { size: n, padding: 0 });
                self.reply(i, 0, len)
            }
            DataOp::Fallocate { offset, len, mode } => {
                if mode & libc::FALLOC_FL_KEEP_SIZE as u32 == 0 && !self.volume.block {
                    self.volume.reached(offset.saturating_add(len));
                }
                self.reply(i, 0, 0)
            }
            DataOp::Fsync => self.reply(i, 0, 0),
        }
    }

    /// Answers slot `i`'s request with `error` (0 or a negative errno) and the first `len`
    /// bytes of its data area.
    pub(crate) fn reply(&mut self, i: usize, error: i32, len: usize) {
        let header = OutHeader { len: (16 + len) as u32, error, unique: self.slots[i].unique };
        match self.mode {
            Mode::Dev { fd } => self.dev_reply(i, fd, header),
            Mode::Uring { fd, qid } => self.uring_reply(i, fd, qid, header, len),
        }
    }

    /// Fetches the next request into slot `i`.
    pub(crate) fn refetch(&mut self, i: usize) {
        match self.mode {
            Mode::Dev { fd } => {
                self.slots[i].state = State::Idle;
                self.read_next(fd)
            }
            // A request with no reply never comes over io_uring; commit an empty answer so
            // that the slot fetches again.
            Mode::Uring { .. } => self.reply(i, 0, 0),
        }
    }
}
