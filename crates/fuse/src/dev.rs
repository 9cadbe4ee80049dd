//! The classic transport: requests read from `/dev/fuse` and replies written to it, both
//! through the queue's io_uring.
//!
//! Each queue reads its own descriptor: the session's, or a clone of it
//! (`FUSE_DEV_IOC_CLONE`), so that a reply goes back on the descriptor its request came
//! from. The descriptors are non-blocking: a read posted while no request waits completes
//! at once with `EAGAIN`. So a queue keeps one read in flight while requests keep coming:
//! the queue's multishot poll on the descriptor says when requests have arrived, a read
//! that got one is followed at once by the next (into another free slot), and one that got
//! `EAGAIN` waits for the poll. (A blocking read would park the kernel's retry inside the
//! thread's own `io_uring_enter` until the next request, stalling every reply the thread
//! owes: with several queues on one connection, a request that one queue saw arrive can be
//! taken by another. Posting a read in every free slot would answer each request with as
//! many `EAGAIN`s.)
//!
//! A slot's buffer holds the request so that a WRITE's data lands aligned: the request is
//! read 80 bytes (the in header and `fuse_write_in`) before the aligned data area, and a
//! reply is written from 16 bytes (the out header) before it, its arguments or read data
//! in the data area.

use crate::abi::{OutHeader, MIN_READ_BUFFER};
use crate::inject::Faults;
use crate::queue::{tag, Mode, Queue, State, ALIGN};
use crate::request::{split, Request};
use crate::volume::Volume;
use crate::wire::put;
use io_uring::{cqueue, opcode, types};
use std::io;
use std::os::fd::RawFd;
use std::sync::Arc;

/// Where a request is read: the in header and a WRITE's header before the data area.
const REQUEST_AT: usize = ALIGN - 80;
/// Where a reply is written from: its out header just before the data area.
const REPLY_AT: usize = ALIGN - 16;

impl Queue {
    /// A dev-transport queue of `depth` slots on `fd`, for requests up to `max_write`.
    pub(crate) fn dev(
        fd: RawFd,
        depth: usize,
        max_write: usize,
        volume: Arc<Volume>,
        faults: Arc<Faults>,
    ) -> io::Result<Queue> {
        let area = max_write.max(MIN_READ_BUFFER);
        Queue::new(Mode::Dev { fd }, depth, area, ALIGN, volume, faults)
    }

    /// Arms the poll and posts the first read.
    pub(crate) fn dev_start(&mut self) {
        let Mode::Dev { fd } = self.mode else { return };
        self.arm_poll(fd);
        self.read_next(fd);
    }

    /// Posts a read into a free slot unless one is in flight already.
    pub(crate) fn read_next(&mut self, fd: RawFd) {
        if self.reading > 0 || self.ending {
            return;
        }
        if let Some(i) = self.slots.iter().position(|s| s.state == State::Idle) {
            self.dev_fetch(i, fd);
        }
    }

    fn arm_poll(&mut self, fd: RawFd) {
        let sqe = opcode::PollAdd::new(types::Fd(fd), libc::POLLIN as u32)
            .multi(true)
            .build()
            .user_data(tag::POLL);
        // SAFETY: a poll points at no memory of ours.
        unsafe { self.push(sqe.into(), false) };
    }

    /// Posts a read of the next request into slot `i`.
    pub(crate) fn dev_fetch(&mut self, i: usize, fd: RawFd) {
        let s = &mut self.slots[i];
        s.op = None;
        if self.ending {
            s.state = State::Dead;
            return;
        }
        s.state = State::Fetching;
        self.reading += 1;
        let start = s.base + REQUEST_AT;
        let len = (s.buf.len() - start) as u32;
        let ptr = s.buf[start..].as_mut_ptr();
        let sqe = opcode::Read::new(types::Fd(fd), ptr, len)
            .build()
            .user_data((i as u64) << 3 | tag::FETCH);
        // SAFETY: the read lands in slot `i`'s buffer, which stays put until it completes.
        unsafe { self.push(sqe.into(), true) };
    }

    /// Slot `i`'s read of `/dev/fuse` completed with `res`.
    pub(crate) fn dev_fetched(&mut self, i: usize, res: i32) {
        let Mode::Dev { fd } = self.mode else { return };
        self.reading -= 1;
        if res == -libc::EAGAIN {
            self.slots[i].state = State::Idle;
            return;
        }
        if res == -libc::EINTR {
            return self.dev_fetch(i, fd);
        }
        if res < 0 {
            // ENODEV: unmounted; anything else: the connection is unusable.
            self.ending = true;
            self.slots[i].state = State::Dead;
            return;
        }
        let s = &self.slots[i];
        let start = s.base + REQUEST_AT;
        let Some((header, op_header, payload)) = split(&s.buf[start..start + res as usize]) else {
            return self.dev_fetch(i, fd);
        };
        let req = Request::parse(&header, op_header, payload);
        self.counters.over_dev += 1;
        self.serve(i, header.unique, header.nodeid, req);
        // More may be waiting: read on.
        self.read_next(fd);
    }

    /// Writes slot `i`'s reply (`header`, then its data area) to `fd`.
    pub(crate) fn dev_reply(&mut self, i: usize, fd: RawFd, header: OutHeader) {
        let s = &mut self.slots[i];
        let start = s.base + REPLY_AT;
        put(&mut s.buf[start..], &header);
        let ptr = s.buf[start..].as_ptr();
        let sqe = opcode::Write::new(types::Fd(fd), ptr, header.len)
            .build()
            .user_data((i as u64) << 3 | tag::REPLY);
        // SAFETY: the reply is in slot `i`'s buffer, which stays put until the write completes.
        unsafe { self.push(sqe.into(), true) };
    }

    /// Slot `i`'s reply was written (`res` bytes, or an error): the slot is free again.
    pub(crate) fn dev_replied(&mut self, i: usize, res: i32) {
        let Mode::Dev { fd } = self.mode else { return };
        // ENOENT: the kernel no longer waits for this request (interrupted): nothing to do.
        if res == -libc::ENODEV {
            self.ending = true;
        }
        self.slots[i].op = None;
        self.slots[i].state = if self.ending { State::Dead } else { State::Idle };
        // A queue whose slots were all busy reads again now that one is free.
        self.read_next(fd);
    }

    /// The poll saw `/dev/fuse` readable: idle slots read again.
    pub(crate) fn dev_polled(&mut self, res: i32, flags: u32) {
        let Mode::Dev { fd } = self.mode else { return };
        if self.ending {
            return;
        }
        if !cqueue::more(flags) {
            if res < 0 && res != -libc::ECANCELED {
                self.ending = true;
            } else {
                self.arm_poll(fd);
            }
        }
        self.read_next(fd);
    }
}
