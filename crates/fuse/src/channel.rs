//! The `/dev/fuse` channel served with plain blocking `read(2)` and `write(2)`: the INIT
//! handshake, and under the uring transport the requests that still come this way
//! (FORGET and INTERRUPT, and everything sent before the ring queues are registered).
//!
//! Data requests that arrive here are served with synchronous system calls, with the same
//! fault injection as on the queues (a delay is a sleep: this thread serves nothing else).

use crate::abi::{
    init, InitIn, InitOut, OutHeader, WriteOut, KERNEL_MINOR_VERSION, KERNEL_VERSION,
};
use crate::inject::Faults;
use crate::request::{split, Request};
use crate::summary::Counters;
use crate::volume::{Action, DataOp, Volume};
use crate::wire::{as_bytes, put};
use std::fs::File;
use std::io::{self, Read, Write};
use std::os::unix::fs::FileExt;

/// What INIT settled.
#[derive(Debug, Clone, Copy)]
pub struct Negotiated {
    /// The reply took FUSE-over-io_uring.
    pub uring: bool,
    /// The largest WRITE (and READ) the kernel will send.
    pub max_write: u32,
    /// Pages per request (`max_pages`).
    pub max_pages: u16,
}

/// Reads the INIT request from `dev`, answers it and says what was settled; `want_uring`
/// asks for FUSE-over-io_uring if the kernel offers it. `background` is the most requests
/// in the kernel's background queue (all queues' slots).
pub fn handshake(
    dev: &mut File,
    max_write: u32,
    want_uring: bool,
    background: u16,
) -> io::Result<Negotiated> {
    let mut buf = vec![0u8; crate::abi::MIN_READ_BUFFER + max_write as usize + 4096];
    loop {
        let n = match dev.read(&mut buf) {
            Err(e) if e.raw_os_error() == Some(libc::EINTR) => continue,
            r => r?,
        };
        let Some((header, op_header, payload)) = split(&buf[..n]) else { continue };
        let Request::Init(init) = Request::parse(&header, op_header, payload) else {
            // Nothing else comes before INIT; anything that does is refused.
            reply(dev, header.unique, -libc::EIO, &[])?;
            continue;
        };
        let (out, negotiated) = answer_init(&init, max_write, want_uring, background);
        if init.major != KERNEL_VERSION {
            reply(dev, header.unique, -libc::EPROTO, &[])?;
            return Err(io::Error::other(format!(
                "the kernel speaks FUSE {}.{}, iomark 7.x",
                init.major, init.minor
            )));
        }
        reply(dev, header.unique, 0, as_bytes(&out))?;
        return Ok(negotiated);
    }
}

/// The INIT reply to `init`.
fn answer_init(
    init: &InitIn,
    max_write: u32,
    want_uring: bool,
    background: u16,
) -> (InitOut, Negotiated) {
    let mut offered = u64::from(init.flags);
    if offered & init::INIT_EXT != 0 {
        offered |= u64::from(init.flags2) << 32;
    }
    let mut want = init::ASYNC_READ
        | init::BIG_WRITES
        | init::ASYNC_DIO
        | init::PARALLEL_DIROPS
        | init::MAX_PAGES
        | init::INIT_EXT
        | init::DIRECT_IO_ALLOW_MMAP;
    if want_uring {
        want |= init::OVER_IO_URING;
    }
    let take = offered & want;
    let max_pages = max_write.div_ceil(4096).clamp(1, 256) as u16;
    let out = InitOut {
        major: KERNEL_VERSION,
        minor: init.minor.min(KERNEL_MINOR_VERSION),
        max_readahead: init.max_readahead,
        flags: take as u32,
        max_background: background,
        congestion_threshold: (u32::from(background) * 3 / 4).max(1) as u16,
        max_write,
        time_gran: 1,
        max_pages,
        flags2: (take >> 32) as u32,
        ..InitOut::default()
    };
    let negotiated = Negotiated { uring: take & init::OVER_IO_URING != 0, max_write, max_pages };
    (out, negotiated)
}

/// Writes a reply to request `unique`.
fn reply(dev: &mut File, unique: u64, error: i32, args: &[u8]) -> io::Result<()> {
    let header = OutHeader { len: (16 + args.len()) as u32, error, unique };
    let mut msg = Vec::with_capacity(16 + args.len());
    msg.extend_from_slice(as_bytes(&header));
    msg.extend_from_slice(args);
    match dev.write(&msg) {
        // The kernel no longer waits for this request (interrupted): nothing to do.
        Err(e) if e.raw_os_error() == Some(libc::ENOENT) => Ok(()),
        r => r.map(|_| ()),
    }
}

/// Serves `dev` until the connection ends, with blocking calls.
pub fn serve(mut dev: File, volume: &Volume, faults: &Faults) -> Counters {
    let max = volume.export().max_io as usize;
    let mut buf = vec![0u8; crate::abi::MIN_READ_BUFFER.max(max) + 4096];
    let mut out = vec![0u8; crate::abi::MIN_READ_BUFFER.max(max)];
    let mut counters = Counters::default();
    loop {
        let n = match dev.read(&mut buf) {
            Ok(n) => n,
            Err(e) if e.raw_os_error() == Some(libc::EINTR) => continue,
            // ENODEV: unmounted.
            Err(_) => return counters,
        };
        let Some((header, op_header, payload)) = split(&buf[..n]) else { continue };
        let req = Request::parse(&header, op_header, payload);
        counters.over_dev += 1;
        let (error, len) = match volume.answer(header.nodeid, &req, &mut out) {
            Action::Reply(n) => {
                counters.metadata += 1;
                (0, n)
            }
            Action::Error(e) => (-e, 0),
            Action::Nothing => continue,
            Action::Destroy => (0, 0),
            Action::Data(op) => data(volume, faults, op, payload, &mut out, &mut counters),
        };
        if reply(&mut dev, header.unique, error, &out[..len]).is_err() {
            return counters;
        }
    }
}

/// Serves a data request synchronously: (error, reply length).
fn data(
    volume: &Volume,
    faults: &Faults,
    op: DataOp,
    payload: &[u8],
    out: &mut [u8],
    c: &mut Counters,
) -> (i32, usize) {
    let decision = faults.decide(&op);
    let k = op.kind() as usize;
    c.requests[k] += 1;
    if let Some(d) = decision.delay {
        c.delayed += 1;
        std::thread::sleep(d);
    }
    if let Some(errno) = decision.fail {
        c.injected[k] += 1;
        c.first_injected.get_or_insert(errno);
        return (-errno, 0);
    }
    let file = &volume.file;
    let result = match op {
        DataOp::Read { offset, len } => {
            file.read_at(&mut out[..len as usize], offset).inspect(|&n| {
                c.bytes[k] += n as u64;
                if let Some(at) = decision.corrupt.filter(|&at| (at as usize) < n) {
                    c.corrupted += 1;
                    out[at as usize] ^= 0xa5;
                }
            })
        }
        DataOp::Write { offset, len } => {
            let data = &payload[..(len as usize).min(payload.len())];
            file.write_at(data, offset).map(|n| {
                c.bytes[k] += n as u64;
                if !volume.block {
                    volume.reached(offset + n as u64);
                }
                put(out, &WriteOut { size: n as u32, padding: 0 })
            })
        }
        DataOp::Fsync => file.sync_data().map(|_| 0),
        DataOp::Fallocate { offset, len, mode } => crate::sys::fallocate(file, mode, offset, len)
            .map(|_| {
                if mode & libc::FALLOC_FL_KEEP_SIZE as u32 == 0 && !volume.block {
                    volume.reached(offset.saturating_add(len));
                }
                0
            }),
    };
    match result {
        Ok(n) => (0, n),
        Err(e) => {
            c.backing_errors[k] += 1;
            (-e.raw_os_error().unwrap_or(libc::EIO), 0)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn init_takes_what_is_offered_and_wanted_only() {
        let offered =
            init::ASYNC_READ | init::ASYNC_DIO | init::INIT_EXT | init::MAX_PAGES | (1 << 3);
        let uring_bits = (init::OVER_IO_URING | init::DIRECT_IO_ALLOW_MMAP) >> 32;
        let init = InitIn {
            major: 7,
            minor: 44,
            flags: offered as u32,
            flags2: uring_bits as u32,
            ..Default::default()
        };
        let (out, n) = answer_init(&init, 131072, true, 256);
        assert_eq!(out.minor, 42);
        assert_eq!(u64::from(out.flags), offered & !(1 << 3));
        assert_eq!(u64::from(out.flags2) << 32, init::OVER_IO_URING | init::DIRECT_IO_ALLOW_MMAP);
        assert_eq!((out.max_write, out.max_pages, out.max_background), (131072, 32, 256));
        assert!(n.uring);
        let (out, n) = answer_init(&init, 131072, false, 256);
        assert_eq!(out.flags2 as u64 & (init::OVER_IO_URING >> 32), 0);
        assert!(!n.uring);
    }
}
