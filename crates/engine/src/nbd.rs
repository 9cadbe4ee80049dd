//! fio's `nbd` engine: a job's I/O goes to a Network Block Device server named by `uri`
//! (`nbd://host:port/export`, `nbd+unix:///export?socket=PATH`), as NBD requests.
//!
//! iomark speaks the protocol itself ([`proto`]) rather than binding libnbd as fio does:
//! the part a benchmark needs (the fixed newstyle handshake, then reads, writes, trims and
//! flushes with simple replies) is small, and speaking it directly keeps the engine free of
//! a C library, its callbacks and its own threads. The engine is asynchronous, as fio's:
//! `queue` sends the request (a write's data with it) and answers `Queued`; replies are
//! read as they come and handed back by `reap`, by the unit's index, which is the request's
//! handle. The socket is non-blocking: while a request waits for room to be sent, the
//! replies that arrive meanwhile are read, so a server busy answering is never deadlocked
//! against a client busy sending. Syncs are `NBD_CMD_FLUSH` (none where the export takes
//! no flushes), trims `NBD_CMD_TRIM` (EOPNOTSUPP where it takes none).

pub mod proto;

use crate::interface::{Engine, EngineError, Queued};
use crate::unit::IoUnit;
use iomark_core::Ddir;
use proto::{Export, Stream};
use std::collections::VecDeque;
use std::io::{self, IoSlice, Read, Write};
use std::os::fd::AsRawFd;

/// The size of the export at `uri`: what a job without `size` covers (fio's engine takes
/// the export's size as its file's).
pub fn export_size(uri: &str) -> Result<u64, EngineError> {
    Ok(connect(uri)?.size)
}

fn connect(uri: &str) -> Result<Export, EngineError> {
    let target = proto::parse_uri(uri).map_err(|m| EngineError::option("uri", m))?;
    proto::open(&target).map_err(|m| EngineError::option("uri", format!("'{uri}': {m}")))
}

/// Where a queued unit's reply goes.
#[derive(Debug, Clone, Copy)]
struct Slot {
    /// The unit's buffer (a read's data lands there).
    buf: *mut u8,
    /// The I/O's length (its result when it succeeds; 0 for a flush).
    len: usize,
    /// Whether the reply carries data.
    read: bool,
}

/// A reply being read.
#[derive(Debug, Default)]
struct Rx {
    /// The reply's header, `filled` bytes of it so far.
    head: [u8; 16],
    filled: usize,
    /// A read's data being received: the unit, and bytes received so far.
    payload: Option<(u32, usize)>,
}

/// The `nbd` engine: one connection per job.
#[derive(Debug)]
pub struct NbdEngine {
    export: Export,
    slots: Vec<Slot>,
    rx: Rx,
    /// Completions read and not yet reaped: unit and result.
    ready: VecDeque<(u32, i64)>,
    /// System calls made for I/O.
    syscalls: u64,
    /// Requests sent since the last `commit`.
    sent: usize,
}

// SAFETY: the raw pointers in `slots` point into the units' buffers, which the runner
// keeps alive and unmoved while their I/O is queued; the engine moves between threads
// only with the job, never while another thread uses it.
unsafe impl Send for NbdEngine {}

impl NbdEngine {
    /// Connects to `uri` and opens its export, for a job of depth `iodepth`.
    pub fn new(uri: Option<&str>, iodepth: u32) -> Result<Self, EngineError> {
        let uri = uri.ok_or_else(|| EngineError::option("uri", "the nbd engine needs a uri"))?;
        let export = connect(uri)?;
        export.stream.set_nonblocking(true).map_err(|e| EngineError::other(e.to_string()))?;
        let depth = iodepth.max(1) as usize;
        let empty = Slot { buf: std::ptr::null_mut(), len: 0, read: false };
        Ok(NbdEngine {
            export,
            slots: vec![empty; depth],
            rx: Rx::default(),
            ready: VecDeque::with_capacity(depth),
            syscalls: 0,
            sent: 0,
        })
    }

    /// Sends `head` and then `data`, reading replies while the socket is full.
    fn send(&mut self, head: &[u8], data: &[u8]) -> io::Result<()> {
        let mut sent = 0;
        let total = head.len() + data.len();
        while sent < total {
            let parts = if sent < head.len() {
                [IoSlice::new(&head[sent..]), IoSlice::new(data)]
            } else {
                [IoSlice::new(&data[sent - head.len()..]), IoSlice::new(&[])]
            };
            self.syscalls += 1;
            match self.export.stream.write_vectored(&parts) {
                Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
                Ok(n) => sent += n,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    if self.wait(libc::POLLIN | libc::POLLOUT)? & libc::POLLIN != 0 {
                        self.receive()?;
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// Waits until the socket is ready for `events`; returns those it is ready for.
    fn wait(&mut self, events: libc::c_short) -> io::Result<libc::c_short> {
        let mut pfd = libc::pollfd { fd: self.export.stream.as_raw_fd(), events, revents: 0 };
        loop {
            self.syscalls += 1;
            // SAFETY: `pfd` is one live pollfd, and the count says one.
            let n = unsafe { libc::poll(&mut pfd, 1, -1) };
            if n >= 0 {
                return Ok(pfd.revents);
            }
            let e = io::Error::last_os_error();
            if e.kind() != io::ErrorKind::Interrupted {
                return Err(e);
            }
        }
    }

    /// Reads whatever replies have arrived, without waiting.
    fn receive(&mut self) -> io::Result<()> {
        loop {
            let n = if let Some((unit, got)) = self.rx.payload {
                let slot = self.slots[unit as usize];
                // SAFETY: the slot's buffer is the queued unit's, at least `len` bytes long,
                // alive and untouched by the runner until the unit is reaped.
                let rest =
                    unsafe { std::slice::from_raw_parts_mut(slot.buf.add(got), slot.len - got) };
                read_some(&mut self.export.stream, rest, &mut self.syscalls)?
            } else {
                let head = &mut self.rx.head[self.rx.filled..];
                read_some(&mut self.export.stream, head, &mut self.syscalls)?
            };
            let Some(n) = n else { return Ok(()) };
            match self.rx.payload {
                Some((unit, got)) => {
                    let got = got + n;
                    if got == self.slots[unit as usize].len {
                        self.ready.push_back((unit, got as i64));
                        self.rx.payload = None;
                    } else {
                        self.rx.payload = Some((unit, got));
                    }
                }
                None => {
                    self.rx.filled += n;
                    if self.rx.filled == self.rx.head.len() {
                        self.rx.filled = 0;
                        self.reply()?;
                    }
                }
            }
        }
    }

    /// A whole reply header has arrived: completes its unit, or starts reading its data.
    fn reply(&mut self) -> io::Result<()> {
        let head = self.rx.head;
        let bad = |m: &str| io::Error::new(io::ErrorKind::InvalidData, format!("nbd: {m}"));
        if proto::be32(&head) != proto::SIMPLE_REPLY_MAGIC {
            return Err(bad("a reply with a bad magic"));
        }
        let error = proto::be32(&head[4..]);
        let handle = proto::be64(&head[8..]);
        let slot = match self.slots.get(handle as usize) {
            Some(s) if !s.buf.is_null() => *s,
            _ => return Err(bad("a reply to no request")),
        };
        let unit = handle as u32;
        if error != 0 {
            // NBD's error values are Linux's errno values.
            self.ready.push_back((unit, -i64::from(error)));
        } else if slot.read && slot.len > 0 {
            self.rx.payload = Some((unit, 0));
        } else {
            self.ready.push_back((unit, slot.len as i64));
        }
        Ok(())
    }
}

/// One non-blocking read: `Some(n)` bytes, `None` when nothing is there; the end of the
/// connection is an error.
fn read_some(s: &mut Stream, buf: &mut [u8], syscalls: &mut u64) -> io::Result<Option<usize>> {
    loop {
        *syscalls += 1;
        match s.read(buf) {
            Ok(0) => {
                return Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    "nbd: the server closed the connection",
                ))
            }
            Ok(n) => return Ok(Some(n)),
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => return Ok(None),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

impl Engine for NbdEngine {
    fn name(&self) -> &'static str {
        "nbd"
    }

    fn is_sync(&self) -> bool {
        false
    }

    fn setup(
        &mut self,
        units: &mut [IoUnit],
        _fds: &[std::os::fd::RawFd],
    ) -> Result<(), EngineError> {
        let depth = units.iter().map(|u| u.index as usize + 1).max().unwrap_or(0);
        if depth > self.slots.len() {
            self.slots.resize(depth, Slot { buf: std::ptr::null_mut(), len: 0, read: false });
            self.ready.reserve(depth);
        }
        Ok(())
    }

    fn queue(&mut self, unit: &mut IoUnit) -> Queued {
        let flags = self.export.flags;
        let command = match unit.ddir {
            Ddir::Read => proto::CMD_READ,
            Ddir::Write => proto::CMD_WRITE,
            Ddir::Trim if flags & proto::FLAG_SEND_TRIM == 0 => {
                unit.result = -i64::from(libc::EOPNOTSUPP);
                return Queued::Completed;
            }
            Ddir::Trim => proto::CMD_TRIM,
            _ if flags & proto::FLAG_SEND_FLUSH == 0 => {
                unit.result = 0;
                return Queued::Completed;
            }
            _ => proto::CMD_FLUSH,
        };
        let data = command != proto::CMD_FLUSH;
        let len = if data { unit.len } else { 0 };
        let buf = unit.buf.as_mut_ptr();
        self.slots[unit.index as usize] = Slot { buf, len, read: command == proto::CMD_READ };
        let head = proto::request(command, u64::from(unit.index), unit.offset, len as u32);
        let payload: &[u8] =
            if command == proto::CMD_WRITE { &unit.buf.as_slice()[..len] } else { &[] };
        match self.send(&head, payload) {
            Ok(()) => {
                self.sent += 1;
                Queued::Queued
            }
            Err(e) => {
                unit.result = -i64::from(e.raw_os_error().unwrap_or(libc::EIO));
                Queued::Completed
            }
        }
    }

    fn commit(&mut self) -> io::Result<usize> {
        Ok(std::mem::take(&mut self.sent))
    }

    fn reap(
        &mut self,
        units: &mut [IoUnit],
        min: usize,
        max: usize,
        done: &mut Vec<u32>,
    ) -> io::Result<usize> {
        if self.ready.len() < max {
            self.receive()?;
        }
        while self.ready.len() < min {
            self.wait(libc::POLLIN)?;
            self.receive()?;
        }
        let n = max.min(self.ready.len());
        for (unit, result) in self.ready.drain(..n) {
            units[unit as usize].result = result;
            done.push(unit);
        }
        Ok(n)
    }

    fn syscalls(&self) -> Option<u64> {
        Some(self.syscalls)
    }
}

impl Drop for NbdEngine {
    fn drop(&mut self) {
        // NBD_CMD_DISC, as a polite client leaves; the server may already be gone.
        let _ = self.export.stream.set_nonblocking(false);
        let _ = self.export.stream.write_all(&proto::request(proto::CMD_DISC, 0, 0, 0));
    }
}
