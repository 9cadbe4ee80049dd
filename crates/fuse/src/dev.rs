//! The classic transport: requests read from `/dev/fuse` and replies written to it, both
//! through the queue's io_uring.
//!
//! Each queue reads its own descriptor: the session's, or a clone of it
//! (`FUSE_DEV_IOC_CLONE`), so that a reply goes back on the descriptor its request came
//! from. The descriptors are non-blocking. A read posted while no request waits completes
//! at once with `EAGAIN`, and the slot then waits for the queue's multishot poll on the
//! descriptor to say that requests have arrived; a slot whose reply has been written reads
//! again at once. (A blocking read would park the kernel's retry inside the thread's own
//! `io_uring_enter` until the next request, stalling every reply the thread owes: with
//! several queues on one connection, a request that one queue saw arrive can be taken by
//! another.)
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

    /// Arms the poll and posts a read in every slot.
    pub(crate) fn dev_start(&mut self) {
        let Mode::Dev { fd } = self.mode else { return };
        self.arm_poll(fd);
        for i in 0..self.slots.len() {
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

    /// Slot `i`'s reply was written (`res` bytes, or an error).
    pub(crate) fn dev_replied(&mut self, i: usize, res: i32) {
        let Mode::Dev { fd } = self.mode else { return };
        // ENOENT: the kernel no longer waits for this request (interrupted): nothing to do.
        if res == -libc::ENODEV {
            self.ending = true;
        }
        self.dev_fetch(i, fd);
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
        for i in 0..self.slots.len() {
            if self.slots[i].state == State::Idle {
                self.dev_fetch(i, fd);
            }
        }
    }
}
