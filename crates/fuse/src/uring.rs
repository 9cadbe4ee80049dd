//! The FUSE-over-io_uring transport (Linux 6.14 and later, `CONFIG_FUSE_IO_URING`, switched
//! on by `/sys/module/fuse/parameters/enable_uring`).
//!
//! Each queue serves one possible CPU (`qid`): the kernel hands a request to the queue of
//! the CPU its caller runs on. Each slot is a ring entry: at registration
//! (`FUSE_IO_URING_CMD_REGISTER`, an `IORING_OP_URING_CMD` whose 80-byte command holds
//! `fuse_uring_cmd_req`) it gives the kernel two buffers, a header buffer (`struct
//! fuse_uring_req_header`: the in/out header, the opcode's header, `fuse_uring_ent_in_out`)
//! and a payload buffer; the command completes when a request has been copied into them.
//! The reply goes back in the same buffers with `FUSE_IO_URING_CMD_COMMIT_AND_FETCH`, which
//! also waits for the next request: one submission per request, no `read(2)` or `write(2)`.
//!
//! The kernel needs 128-byte submission entries (`IORING_SETUP_SQE128`) for the command;
//! completions are ordinary 16-byte ones (it posts no extra completion data). The io-uring
//! crate builds the command with `opcode::UringCmd80` but has no setter for the entry's
//! `len`, which registration needs (2, the number of iovecs): [`with_len`] sets it.

use crate::abi::{uring, InHeader, OutHeader, UringCmdReq, UringEntInOut};
use crate::inject::Faults;
use crate::queue::{tag, Mode, Queue, State};
use crate::request::Request;
use crate::volume::Volume;
use crate::wire::{as_bytes, put, read};
use io_uring::{opcode, squeue, types};
use std::io;
use std::os::fd::RawFd;
use std::sync::Arc;

/// Offset of `fuse_uring_ent_in_out` in the header buffer.
const ENT_AT: usize = uring::IN_OUT_HEADER + uring::OP_IN_OUT;

/// The 80 bytes of a FUSE uring command for queue `qid`, committing `commit_id`.
fn command(qid: u16, commit_id: u64) -> [u8; 80] {
    let mut cmd = [0u8; 80];
    put(&mut cmd, &UringCmdReq { flags: 0, commit_id, qid, padding: [0; 6] });
    cmd
}

/// `sqe` with its `len` field (bytes 24 to 27 of `struct io_uring_sqe`) set to `len`.
fn with_len(sqe: squeue::Entry128, len: u32) -> squeue::Entry128 {
    // SAFETY: `Entry128` is `#[repr(C)]` over the kernel's 128-byte SQE (the io-uring crate
    // asserts its size); an SQE is plain data, valid for any bytes.
    let mut raw: [u8; 128] = unsafe { std::mem::transmute(sqe) };
    raw[24..28].copy_from_slice(&len.to_ne_bytes());
    // SAFETY: as above, back the other way.
    unsafe { std::mem::transmute::<[u8; 128], squeue::Entry128>(raw) }
}

impl Queue {
    /// A uring-transport queue for CPU `qid` on `fd`, with `depth` ring entries whose
    /// payload buffers hold `payload` bytes.
    pub(crate) fn uring(
        fd: RawFd,
        qid: u16,
        depth: usize,
        payload: usize,
        volume: Arc<Volume>,
        faults: Arc<Faults>,
    ) -> io::Result<Queue> {
        let mut q = Queue::new(Mode::Uring { fd, qid }, depth, payload, 0, volume, faults)?;
        for s in &mut q.slots {
            s.head = vec![0u8; uring::REQ_HEADER];
            s.iov = [
                libc::iovec { iov_base: s.head.as_mut_ptr().cast(), iov_len: s.head.len() },
                libc::iovec { iov_base: s.buf[s.base..].as_mut_ptr().cast(), iov_len: payload },
            ];
        }
        Ok(q)
    }

    /// Registers every slot as a ring entry; the errno of a registration the kernel refused.
    pub(crate) fn uring_register(&mut self) -> Result<(), i32> {
        let Mode::Uring { fd, qid } = self.mode else { return Err(libc::EINVAL) };
        for i in 0..self.slots.len() {
            let s = &mut self.slots[i];
            s.state = State::Fetching;
            let sqe = opcode::UringCmd80::new(types::Fd(fd), uring::CMD_REGISTER)
                .cmd(command(qid, 0))
                .addr(Some(s.iov.as_ptr() as u64))
                .build()
                .user_data((i as u64) << 3 | tag::FETCH);
            // SAFETY: the iovecs and both buffers they describe belong to slot `i` and stay
            // put for the queue's life, which outlasts every command in flight.
            unsafe { self.push(with_len(sqe, 2), true) };
        }
        self.ring.submit().map_err(|e| e.raw_os_error().unwrap_or(libc::EIO))?;
        // A refused registration completes at once; an accepted one waits for a request.
        let refused: Vec<(u64, i32)> =
            self.ring.completion().map(|c| (c.user_data(), c.result())).collect();
        let mut error = None;
        for (user_data, res) in refused {
            self.inflight -= 1;
            if res < 0 {
                self.slots[(user_data >> 3) as usize].state = State::Dead;
                error.get_or_insert(-res);
            } else {
                self.uring_fetched((user_data >> 3) as usize, res);
            }
        }
        match error {
            Some(errno) => {
                self.ending = true;
                Err(errno)
            }
            None => Ok(()),
        }
    }

    /// Slot `i`'s command completed with `res`: a request is in its buffers, or the
    /// connection is gone.
    pub(crate) fn uring_fetched(&mut self, i: usize, res: i32) {
        if res < 0 {
            // ENOTCONN, ECONNABORTED, ECANCELED: the connection or the ring is going away.
            self.ending = true;
            self.slots[i].state = State::Dead;
            return;
        }
        let s = &self.slots[i];
        let header: InHeader = read(&s.head).unwrap_or_default();
        let ent: UringEntInOut = read(&s.head[ENT_AT..]).unwrap_or_default();
        let len = (ent.payload_sz as usize).min(self.area);
        let op_header = &s.head[uring::IN_OUT_HEADER..ENT_AT];
        let req = Request::parse(&header, op_header, &s.buf[s.base..s.base + len]);
        self.counters.over_uring += 1;
        self.serve(i, ent.commit_id, header.nodeid, req);
    }

    /// Commits slot `i`'s reply (`header`, and `len` bytes of its payload buffer) and
    /// fetches the next request into it.
    pub(crate) fn uring_reply(
        &mut self,
        i: usize,
        fd: RawFd,
        qid: u16,
        header: OutHeader,
        len: usize,
    ) {
        let s = &mut self.slots[i];
        s.state = State::Fetching;
        s.op = None;
        put(&mut s.head, &header);
        let mut ent: UringEntInOut = read(&s.head[ENT_AT..]).unwrap_or_default();
        ent.payload_sz = len as u32;
        s.head[ENT_AT..ENT_AT + 32].copy_from_slice(as_bytes(&ent));
        let sqe = opcode::UringCmd80::new(types::Fd(fd), uring::CMD_COMMIT_AND_FETCH)
            .cmd(command(qid, header.unique))
            .build()
            .user_data((i as u64) << 3 | tag::FETCH);
        // SAFETY: the kernel reads the reply from, and writes the next request into, slot
        // `i`'s buffers registered earlier, which stay put for the queue's life.
        unsafe { self.push(sqe, true) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_carries_the_queue_and_the_commit_id() {
        let cmd = command(3, 0x1122);
        let req: UringCmdReq = read(&cmd).unwrap();
        assert_eq!((req.qid, req.commit_id, req.flags), (3, 0x1122, 0));
        assert!(cmd[24..].iter().all(|&b| b == 0));
    }

    #[test]
    fn the_length_lands_in_the_sqe_len_field() {
        let sqe = opcode::UringCmd80::new(types::Fd(5), uring::CMD_REGISTER).build();
        // SAFETY: as in `with_len`: a 128-byte plain-data SQE.
        let raw: [u8; 128] = unsafe { std::mem::transmute(with_len(sqe, 2)) };
        assert_eq!(u32::from_ne_bytes(raw[24..28].try_into().unwrap()), 2);
        assert_eq!(raw[0], io_uring::opcode::UringCmd80::CODE);
        assert_eq!(i32::from_ne_bytes(raw[4..8].try_into().unwrap()), 5);
    }
}
