//! fio's `net` and `netsplice` engines: a job's reads receive from a socket and its writes
//! send to one, over TCP, UDP (IPv4 or IPv6) or a Unix stream socket. One job receives
//! (`rw=read`), the other sends (`rw=write`); they may run in two programs, fio on one side
//! and iomark on the other.
//!
//! `netsplice` is the same engine whose TCP blocks go through a pipe ([`Pipe`], the
//! `splice` engine's): a send maps the block into the pipe with `vmsplice(2)` and moves it
//! to the socket with `splice(2)`; a receive moves the socket's bytes into the pipe with
//! `splice(2)` and copies them into the block with `vmsplice(2)`. UDP and Unix sockets
//! send and receive as `net` does, as in fio 3.33 (seen with `strace`).
//!
//! What goes over the wire is what fio 3.33 sends (seen with `strace` on loopback):
//!
//! - the blocks, as they are, one `send` per write (a TCP receiver fills each block from
//!   the stream; a UDP receiver takes one datagram per read);
//! - UDP only, first: the 8-byte opening message `link\0\0\0\x98`, which the reader waits
//!   for before its job starts;
//! - last, from the sender, the 8-byte closing message `knil\x89\0\0\0` (TCP and UDP; on a
//!   Unix socket fio's attempt fails, so iomark sends none there and closes).
//!
//! A receiver that gets the closing message, or the end of the stream (a 0-byte read, the
//! sender having closed), ends its job cleanly: the I/O answers [`END_OF_STREAM`], which is
//! not an I/O and not an error.

mod bound;

use crate::interface::{Engine, EngineError, Queued};
use crate::splice::Pipe;
use crate::unit::IoUnit;
use iomark_core::Ddir;
use std::net::{IpAddr, SocketAddr, TcpStream, ToSocketAddrs, UdpSocket};
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::PathBuf;

/// The result of a read that found the end of the stream: the sender closed or said it was
/// done. The runner ends the job cleanly, without counting the I/O (a negative value, so
/// that it takes the runner's cold path of failed I/Os, which recognises it).
pub const END_OF_STREAM: i64 = -(1 << 20);

/// The message a UDP sender opens with (fio 3.33's bytes).
pub const OPEN_MESSAGE: [u8; 8] = *b"link\0\0\0\x98";

/// The message a sender closes with (fio 3.33's bytes).
pub const CLOSE_MESSAGE: [u8; 8] = *b"knil\x89\0\0\0";

/// `protocol`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Protocol {
    /// TCP over IPv4 (fio's default).
    #[default]
    Tcp,
    /// TCP over IPv6.
    Tcp6,
    /// UDP over IPv4.
    Udp,
    /// UDP over IPv6.
    Udp6,
    /// A Unix stream socket at a path.
    Unix,
}

/// A net job's options.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct NetSpec {
    /// `protocol`.
    pub protocol: Protocol,
    /// `hostname`.
    pub hostname: Option<String>,
    /// `port` (0: not given).
    pub port: u16,
    /// The socket's path (`filename`, for `protocol=unix`).
    pub path: Option<PathBuf>,
    /// `listen`.
    pub listen: bool,
    /// `pingpong`.
    pub pingpong: bool,
    /// `nodelay`.
    pub nodelay: bool,
    /// `window_size` (0: the system's).
    pub window_size: u64,
    /// `mss` (0: the system's).
    pub mss: u32,
    /// `ttl`.
    pub ttl: u32,
    /// `interface`.
    pub interface: Option<String>,
    /// Whether the job sends (it writes); otherwise it receives.
    pub sends: bool,
}

/// The connection.
#[derive(Debug)]
enum Conn {
    /// Not made yet (before `setup`).
    None,
    /// A connected stream (TCP or Unix).
    Stream(OwnedFd),
    /// A UDP socket, and the address of the other side once known.
    Udp(UdpSocket, Option<SocketAddr>),
}

/// The `net` engine (or `netsplice`, with its pipe).
#[derive(Debug)]
pub struct NetEngine {
    spec: NetSpec,
    conn: Conn,
    syscalls: u64,
    name: &'static str,
    /// `netsplice`'s pipe, through which a TCP connection's blocks go.
    pipe: Option<Pipe>,
}

impl NetEngine {
    /// The engine, its options checked; the connection is made by `setup`.
    pub fn new(spec: Option<&NetSpec>) -> Result<Self, EngineError> {
        let spec = spec.cloned().unwrap_or_default();
        let opt = EngineError::option;
        match spec.protocol {
            Protocol::Unix => {
                if spec.port != 0 {
                    return Err(opt("port", "a port is not valid with protocol=unix"));
                }
                if spec.path.is_none() {
                    return Err(opt("filename", "protocol=unix needs the socket's path"));
                }
            }
            _ if spec.port == 0 => return Err(opt("port", "the net engine needs a port")),
            _ => {}
        }
        let tcp = matches!(spec.protocol, Protocol::Tcp | Protocol::Tcp6);
        if spec.listen && !tcp {
            return Err(opt("listen", "listen is only valid for TCP"));
        }
        if spec.listen && spec.hostname.is_some() {
            return Err(opt("hostname", "a listening job takes no hostname"));
        }
        // A UDP receiver binds every address, or joins the IPv4 multicast group it names;
        // fio 3.33 refuses any other hostname there, an IPv6 group included.
        let group = spec.hostname.as_deref().and_then(|h| h.parse::<IpAddr>().ok());
        let v4_group = matches!(group, Some(IpAddr::V4(g)) if g.is_multicast());
        if !tcp
            && spec.protocol != Protocol::Unix
            && !spec.sends
            && spec.hostname.is_some()
            && !v4_group
        {
            return Err(opt("hostname", "hostname not valid for non-multicast inbound network IO"));
        }
        let connects = if tcp { !spec.listen } else { spec.sends };
        if connects && spec.hostname.is_none() && spec.protocol != Protocol::Unix {
            return Err(opt("hostname", "a job that connects or sends needs a hostname"));
        }
        Ok(NetEngine { spec, conn: Conn::None, syscalls: 0, name: "net", pipe: None })
    }

    /// The `netsplice` engine: TCP blocks go through a pipe, with `splice(2)` and
    /// `vmsplice(2)` (`SPLICE_F_MOVE`, as fio 3.33's); UDP and Unix sockets as `net`.
    pub fn spliced(spec: Option<&NetSpec>) -> Result<Self, EngineError> {
        let mut engine = NetEngine::new(spec)?;
        engine.name = "netsplice";
        if matches!(engine.spec.protocol, Protocol::Tcp | Protocol::Tcp6) {
            engine.pipe = Some(Pipe::new(libc::SPLICE_F_MOVE)?);
        }
        Ok(engine)
    }

    fn v6(&self) -> bool {
        matches!(self.spec.protocol, Protocol::Tcp6 | Protocol::Udp6)
    }

    /// The address to connect or send to.
    fn peer(&self) -> Result<SocketAddr, EngineError> {
        let host = self.spec.hostname.as_deref().unwrap_or_default();
        let v6 = self.v6();
        let found = (host, self.spec.port)
            .to_socket_addrs()
            .map_err(|e| EngineError::option("hostname", format!("'{host}': {e}")))?
            .find(|a| a.is_ipv6() == v6);
        found.ok_or_else(|| {
            let family = if v6 { "IPv6" } else { "IPv4" };
            EngineError::option("hostname", format!("'{host}' has no {family} address"))
        })
    }

    /// The address a listener or reader binds: every address, or a multicast group.
    fn local(&self) -> SocketAddr {
        let any: IpAddr = if self.v6() { "::".parse().unwrap() } else { [0, 0, 0, 0].into() };
        SocketAddr::new(any, self.spec.port)
    }

    fn connect(&mut self) -> Result<Conn, String> {
        let s = &self.spec;
        match (s.protocol, s.sends, s.listen) {
            (Protocol::Unix, false, _) => {
                let path = s.path.clone().unwrap_or_default();
                let _ = std::fs::remove_file(&path);
                let l =
                    UnixListener::bind(&path).map_err(|e| format!("{}: {e}", path.display()))?;
                waiting();
                let (c, _) = l.accept().map_err(|e| e.to_string())?;
                Ok(Conn::Stream(c.into()))
            }
            (Protocol::Unix, true, _) => {
                let path = s.path.clone().unwrap_or_default();
                let c =
                    UnixStream::connect(&path).map_err(|e| format!("{}: {e}", path.display()))?;
                Ok(Conn::Stream(c.into()))
            }
            (Protocol::Tcp | Protocol::Tcp6, _, true) => {
                let l = bound::listener(self.local()).map_err(|e| e.to_string())?;
                self.tune(l.as_raw_fd(), true);
                waiting();
                let (c, _) = l.accept().map_err(|e| e.to_string())?;
                self.tune(c.as_raw_fd(), true);
                Ok(Conn::Stream(c.into()))
            }
            (Protocol::Tcp | Protocol::Tcp6, _, false) => {
                let peer = self.peer().map_err(|e| e.message)?;
                let c = TcpStream::connect(peer).map_err(|e| format!("{peer}: {e}"))?;
                self.tune(c.as_raw_fd(), true);
                Ok(Conn::Stream(c.into()))
            }
            (_, true, _) => {
                let peer = self.peer().map_err(|e| e.message)?;
                let u = UdpSocket::bind(if self.v6() { "[::]:0" } else { "0.0.0.0:0" })
                    .map_err(|e| e.to_string())?;
                self.tune(u.as_raw_fd(), false);
                if peer.ip().is_multicast() {
                    self.multicast_out(&u);
                }
                u.send_to(&OPEN_MESSAGE, peer).map_err(|e| format!("{peer}: {e}"))?;
                Ok(Conn::Udp(u, Some(peer)))
            }
            (_, false, _) => {
                let mut local = self.local();
                let group = self.spec.hostname.as_deref().and_then(|h| h.parse::<IpAddr>().ok());
                if let Some(g) = group.filter(IpAddr::is_multicast) {
                    local.set_ip(g);
                }
                let join = match group.filter(IpAddr::is_multicast) {
                    Some(IpAddr::V4(g)) => Some((g, self.interface_v4().unwrap_or(0.into()))),
                    _ => None,
                };
                let u = bound::udp(local, join).map_err(|e| e.to_string())?;
                self.tune(u.as_raw_fd(), false);
                let mut open = [0u8; 8];
                loop {
                    let (n, from) = u.recv_from(&mut open).map_err(|e| e.to_string())?;
                    if n == 8 && open == OPEN_MESSAGE {
                        return Ok(Conn::Udp(u, Some(from)));
                    }
                }
            }
        }
    }

    fn interface_v4(&self) -> Option<std::net::Ipv4Addr> {
        self.spec.interface.as_deref().and_then(|i| i.parse().ok())
    }

    /// A UDP sender to a multicast group: `ttl`, and `interface` as the way out.
    fn multicast_out(&self, u: &UdpSocket) {
        let _ = u.set_multicast_ttl_v4(self.spec.ttl);
        if let Some(addr) = self.interface_v4() {
            let a = libc::in_addr { s_addr: u32::from_ne_bytes(addr.octets()) };
            setsockopt(u.as_raw_fd(), libc::IPPROTO_IP, libc::IP_MULTICAST_IF, &a);
        }
    }

    /// `window_size`, and for TCP `nodelay` and `mss`.
    fn tune(&self, fd: i32, tcp: bool) {
        if self.spec.window_size > 0 {
            let w = self.spec.window_size.min(i32::MAX as u64) as libc::c_int;
            setsockopt(fd, libc::SOL_SOCKET, libc::SO_SNDBUF, &w);
            setsockopt(fd, libc::SOL_SOCKET, libc::SO_RCVBUF, &w);
        }
        if tcp && self.spec.nodelay {
            setsockopt(fd, libc::IPPROTO_TCP, libc::TCP_NODELAY, &1 as &libc::c_int);
        }
        if tcp && self.spec.mss > 0 {
            let m = self.spec.mss.min(i32::MAX as u32) as libc::c_int;
            setsockopt(fd, libc::IPPROTO_TCP, libc::TCP_MAXSEG, &m);
        }
    }

    /// Receives one block into `buf`: a stream fills it (up to the end of the stream), a
    /// UDP socket takes one datagram.
    fn receive(&mut self, buf: &mut [u8]) -> i64 {
        let got = match (&mut self.conn, self.pipe.as_mut()) {
            (Conn::Stream(fd), Some(pipe)) => match pipe.read(fd.as_raw_fd(), buf, None) {
                n if n < 0 => return n,
                n => n as usize,
            },
            (Conn::Stream(fd), None) => {
                let mut got = 0;
                while got < buf.len() {
                    self.syscalls += 1;
                    match io_result(recv(fd.as_raw_fd(), &mut buf[got..])) {
                        Ok(0) => break,
                        Ok(n) => got += n,
                        Err(e) if e == -(libc::EINTR as i64) => {}
                        Err(e) if got == 0 => return e,
                        Err(_) => break,
                    }
                }
                got
            }
            (Conn::Udp(u, peer), _) => {
                self.syscalls += 1;
                match u.recv_from(buf) {
                    Ok((n, from)) => {
                        *peer = Some(from);
                        n
                    }
                    Err(e) => return -(e.raw_os_error().unwrap_or(libc::EIO) as i64),
                }
            }
            (Conn::None, _) => return -(libc::ENOTCONN as i64),
        };
        if got == 0 || buf[..got] == CLOSE_MESSAGE {
            return END_OF_STREAM;
        }
        got as i64
    }

    /// Sends `buf` whole (a stream) or as one datagram.
    fn send(&mut self, buf: &[u8]) -> i64 {
        match (&self.conn, self.pipe.as_mut()) {
            (Conn::Stream(fd), Some(pipe)) => pipe.write(fd.as_raw_fd(), buf, None),
            (Conn::Stream(fd), None) => {
                let mut sent = 0;
                while sent < buf.len() {
                    self.syscalls += 1;
                    match io_result(send(fd.as_raw_fd(), &buf[sent..])) {
                        Ok(n) => sent += n,
                        Err(e) if e == -(libc::EINTR as i64) => {}
                        Err(e) => return e,
                    }
                }
                sent as i64
            }
            (Conn::Udp(u, peer), _) => {
                self.syscalls += 1;
                let to = peer.unwrap_or_else(|| self.local());
                match u.send_to(buf, to) {
                    Ok(n) => n as i64,
                    Err(e) => -(e.raw_os_error().unwrap_or(libc::EIO) as i64),
                }
            }
            (Conn::None, _) => -(libc::ENOTCONN as i64),
        }
    }
}

/// What a stream listener prints before it waits for the other side, as fio does, on
/// standard output (a UDP reader prints nothing, as fio's).
fn waiting() {
    // Straight to the descriptor: the program's report may hold the lock of Rust's
    // standard output while jobs run.
    let line = b"iomark: waiting for connection\n";
    // SAFETY: `line` is readable memory of its length; descriptor 1 is checked by the kernel.
    let _ = unsafe { libc::write(1, line.as_ptr().cast(), line.len()) };
}

fn setsockopt<T>(fd: i32, level: i32, name: i32, value: &T) {
    let len = std::mem::size_of::<T>() as libc::socklen_t;
    // SAFETY: `value` is a live `T` of `len` bytes; the kernel checks the descriptor.
    unsafe { libc::setsockopt(fd, level, name, (value as *const T).cast(), len) };
}

fn recv(fd: i32, buf: &mut [u8]) -> isize {
    // SAFETY: `buf` is writable memory of its length.
    unsafe { libc::recv(fd, buf.as_mut_ptr().cast(), buf.len(), 0) }
}

fn send(fd: i32, buf: &[u8]) -> isize {
    // SAFETY: `buf` is readable memory of its length.
    unsafe { libc::send(fd, buf.as_ptr().cast(), buf.len(), libc::MSG_NOSIGNAL) }
}

/// A call's count, or its negated errno.
fn io_result(n: isize) -> Result<usize, i64> {
    if n >= 0 {
        Ok(n as usize)
    } else {
        Err(-(std::io::Error::last_os_error().raw_os_error().unwrap_or(libc::EIO) as i64))
    }
}

impl Engine for NetEngine {
    fn name(&self) -> &'static str {
        self.name
    }

    fn is_sync(&self) -> bool {
        true
    }

    fn setup(&mut self, _units: &mut [IoUnit], _fds: &[i32]) -> Result<(), EngineError> {
        self.conn = self.connect().map_err(|m| {
            let option = if self.spec.protocol == Protocol::Unix { "filename" } else { "port" };
            EngineError::option(option, m)
        })?;
        Ok(())
    }

    fn queue(&mut self, unit: &mut IoUnit) -> Queued {
        let len = unit.len;
        let buf = &mut unit.buf.as_mut_slice()[..len];
        unit.result = match unit.ddir {
            Ddir::Read => {
                let got = self.receive(buf);
                if self.spec.pingpong && got > 0 {
                    let back = self.send(&buf[..got as usize]);
                    if back < 0 {
                        back
                    } else {
                        got
                    }
                } else {
                    got
                }
            }
            Ddir::Write => {
                let sent = self.send(buf);
                if self.spec.pingpong && sent > 0 {
                    let back = self.receive(&mut buf[..sent as usize]);
                    if back == END_OF_STREAM {
                        -(libc::ECONNRESET as i64)
                    } else {
                        back.min(sent)
                    }
                } else {
                    sent
                }
            }
            Ddir::Trim => -(libc::EINVAL as i64),
            _ => 0,
        };
        Queued::Completed
    }

    fn finish(&mut self) -> crate::file::ThreadUsage {
        if self.spec.sends && self.spec.protocol != Protocol::Unix {
            // The closing message goes out with send(2), not through the pipe, as fio's.
            let pipe = self.pipe.take();
            let _ = self.send(&CLOSE_MESSAGE);
            self.pipe = pipe;
        }
        self.conn = Conn::None;
        crate::file::ThreadUsage::default()
    }

    fn syscalls(&self) -> Option<u64> {
        Some(self.syscalls + self.pipe.as_ref().map_or(0, Pipe::calls))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(protocol: Protocol) -> NetSpec {
        NetSpec { protocol, port: 8765, ..NetSpec::default() }
    }

    #[test]
    fn options_are_checked_as_fio_checks_them() {
        let err = |s: NetSpec| NetEngine::new(Some(&s)).unwrap_err().option;
        assert_eq!(err(NetSpec { port: 0, ..spec(Protocol::Tcp) }), Some("port"));
        assert_eq!(err(NetSpec { listen: true, ..spec(Protocol::Udp) }), Some("listen"));
        assert_eq!(err(spec(Protocol::Tcp)), Some("hostname"));
        assert_eq!(err(spec(Protocol::Unix)), Some("port"));
        let unix = NetSpec { port: 0, ..spec(Protocol::Unix) };
        assert_eq!(err(unix.clone()), Some("filename"));
        assert!(NetEngine::new(Some(&NetSpec { path: Some("/x".into()), ..unix })).is_ok());
        assert!(NetEngine::new(Some(&NetSpec { listen: true, ..spec(Protocol::Tcp) })).is_ok());
    }
}
