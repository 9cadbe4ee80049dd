//! The client side of the NBD protocol's handshake, written from the protocol's public
//! description (the `nbd` project's `doc/proto.md`): an NBD URI read into where to connect
//! and which export, the fixed newstyle handshake with `NBD_OPT_GO` (falling back to
//! `NBD_OPT_EXPORT_NAME` on a server that does not know it), and the layout of the
//! transmission phase's requests and simple replies. Structured replies are never asked
//! for, so every reply is a simple one.

use std::io::{self, Read, Write};
use std::net::TcpStream;
use std::os::unix::net::UnixStream;

/// `NBDMAGIC`, the server's first eight bytes.
const NBDMAGIC: u64 = 0x4e42_444d_4147_4943;
/// `IHAVEOPT`: the newstyle magic, and the magic of each option the client sends.
const IHAVEOPT: u64 = 0x4948_4156_454f_5054;
/// The magic of the server's option replies.
const REPLY_MAGIC: u64 = 0x0003_e889_0455_65a9;
/// Handshake flags (server) and client flags: fixed newstyle, and no 124 zeroes.
const FIXED_NEWSTYLE: u16 = 1;
const NO_ZEROES: u16 = 2;
/// `NBD_OPT_EXPORT_NAME` and `NBD_OPT_GO`.
const OPT_EXPORT_NAME: u32 = 1;
const OPT_GO: u32 = 7;
/// Option reply types: `NBD_REP_ACK`, `NBD_REP_INFO`, and the error bit.
const REP_ACK: u32 = 1;
const REP_INFO: u32 = 3;
const REP_ERR_BIT: u32 = 1 << 31;
const REP_ERR_UNSUP: u32 = REP_ERR_BIT | 1;
/// `NBD_INFO_EXPORT`: the export's size and transmission flags.
const INFO_EXPORT: u16 = 0;

/// The magic of a transmission request.
pub const REQUEST_MAGIC: u32 = 0x2560_9513;
/// The magic of a simple reply.
pub const SIMPLE_REPLY_MAGIC: u32 = 0x6744_6698;
/// Commands: `NBD_CMD_READ`, `WRITE`, `DISC`, `FLUSH`, `TRIM`.
pub const CMD_READ: u16 = 0;
/// `NBD_CMD_WRITE`.
pub const CMD_WRITE: u16 = 1;
/// `NBD_CMD_DISC`: the client is going away.
pub const CMD_DISC: u16 = 2;
/// `NBD_CMD_FLUSH`.
pub const CMD_FLUSH: u16 = 3;
/// `NBD_CMD_TRIM`.
pub const CMD_TRIM: u16 = 4;
/// Transmission flags: the export is read-only, takes flushes, takes trims.
pub const FLAG_READ_ONLY: u16 = 1 << 1;
/// `NBD_FLAG_SEND_FLUSH`.
pub const FLAG_SEND_FLUSH: u16 = 1 << 2;
/// `NBD_FLAG_SEND_TRIM`.
pub const FLAG_SEND_TRIM: u16 = 1 << 5;

/// Where an NBD URI points.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// The server's address.
    pub address: Address,
    /// The export's name (empty: the server's default export).
    pub export: String,
}

/// A server's address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Address {
    /// `nbd://host:port/`.
    Tcp {
        /// The host's name or address.
        host: String,
        /// The port (10809 by default).
        port: u16,
    },
    /// `nbd+unix:///?socket=PATH`.
    Unix(String),
}

/// Reads an NBD URI: `nbd://host[:port][/export]` (port 10809 by default) or
/// `nbd+unix:///[export]?socket=PATH`. TLS (`nbds`) and vsock are refused with the reason.
pub fn parse_uri(uri: &str) -> Result<Target, String> {
    let (scheme, rest) = uri.split_once("://").ok_or("not an NBD URI (nbd://… or nbd+unix://…)")?;
    let (rest, query) = rest.split_once('?').unwrap_or((rest, ""));
    let (authority, path) = rest.split_once('/').unwrap_or((rest, ""));
    let export = decode(path)?;
    let param = |name: &str| {
        query.split('&').find_map(|kv| kv.strip_prefix(name)?.strip_prefix('=')).map(decode)
    };
    let address = match scheme {
        "nbd" => {
            let (host, port) = match authority.rsplit_once(':') {
                Some((h, p)) if !h.ends_with(']') || authority.starts_with('[') => {
                    (h, p.parse().map_err(|_| format!("port '{p}' is not a port number"))?)
                }
                _ => (authority, 10809),
            };
            let host = host.trim_start_matches('[').trim_end_matches(']');
            let host = if host.is_empty() { "localhost" } else { host };
            Address::Tcp { host: decode(host)?, port }
        }
        "nbd+unix" => {
            Address::Unix(param("socket").ok_or("nbd+unix needs ?socket=PATH")??.to_string())
        }
        "nbds" | "nbds+unix" => {
            return Err("TLS (nbds) is not supported: iomark speaks plain NBD only".into())
        }
        other => return Err(format!("'{other}' is not an NBD URI scheme (nbd, nbd+unix)")),
    };
    Ok(Target { address, export })
}

/// `%XX` escapes decoded.
fn decode(text: &str) -> Result<String, String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3).ok_or_else(|| format!("bad escape in '{text}'"))?;
            out.push(u8::from_str_radix(hex, 16).map_err(|_| format!("bad escape in '{text}'"))?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|_| format!("'{text}' is not UTF-8 once decoded"))
}

/// A connected stream, TCP or Unix.
#[derive(Debug)]
pub enum Stream {
    /// A TCP connection.
    Tcp(TcpStream),
    /// A Unix socket connection.
    Unix(UnixStream),
}

impl Stream {
    /// Connects to `address`.
    pub fn connect(address: &Address) -> io::Result<Stream> {
        Ok(match address {
            Address::Tcp { host, port } => {
                let s = TcpStream::connect((host.as_str(), *port))?;
                s.set_nodelay(true)?;
                Stream::Tcp(s)
            }
            Address::Unix(path) => Stream::Unix(UnixStream::connect(path)?),
        })
    }

    /// Blocking or not.
    pub fn set_nonblocking(&self, on: bool) -> io::Result<()> {
        match self {
            Stream::Tcp(s) => s.set_nonblocking(on),
            Stream::Unix(s) => s.set_nonblocking(on),
        }
    }
}

impl Read for Stream {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Stream::Tcp(s) => s.read(buf),
            Stream::Unix(s) => s.read(buf),
        }
    }
}

impl Write for Stream {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Stream::Tcp(s) => s.write(buf),
            Stream::Unix(s) => s.write(buf),
        }
    }

    fn write_vectored(&mut self, bufs: &[io::IoSlice<'_>]) -> io::Result<usize> {
        match self {
            Stream::Tcp(s) => s.write_vectored(bufs),
            Stream::Unix(s) => s.write_vectored(bufs),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl std::os::fd::AsRawFd for Stream {
    fn as_raw_fd(&self) -> std::os::fd::RawFd {
        match self {
            Stream::Tcp(s) => s.as_raw_fd(),
            Stream::Unix(s) => s.as_raw_fd(),
        }
    }
}

/// An export, opened: the connection in its transmission phase, the export's size and
/// its transmission flags.
#[derive(Debug)]
pub struct Export {
    /// The connection (blocking).
    pub stream: Stream,
    /// The export's size in bytes.
    pub size: u64,
    /// The transmission flags (`FLAG_*`).
    pub flags: u16,
}

/// Connects to `target` and opens its export through the fixed newstyle handshake.
pub fn open(target: &Target) -> Result<Export, String> {
    let mut s = Stream::connect(&target.address).map_err(|e| format!("cannot connect: {e}"))?;
    handshake(&mut s, &target.export).map(|(size, flags)| Export { stream: s, size, flags })
}

/// The handshake on `s` for `export`: its size and transmission flags.
fn handshake(s: &mut Stream, export: &str) -> Result<(u64, u16), String> {
    let io = |e: io::Error| format!("handshake: {e}");
    let mut head = [0u8; 18];
    s.read_exact(&mut head).map_err(io)?;
    if be64(&head[0..8]) != NBDMAGIC || be64(&head[8..16]) != IHAVEOPT {
        return Err("the server does not speak newstyle NBD".into());
    }
    let server = u16::from_be_bytes([head[16], head[17]]);
    if server & FIXED_NEWSTYLE == 0 {
        return Err("the server does not speak fixed newstyle NBD".into());
    }
    let client = u32::from(FIXED_NEWSTYLE | (server & NO_ZEROES));
    s.write_all(&client.to_be_bytes()).map_err(io)?;
    // NBD_OPT_GO: the name, and no particular information asked for.
    let mut data = Vec::with_capacity(export.len() + 6);
    data.extend_from_slice(&(export.len() as u32).to_be_bytes());
    data.extend_from_slice(export.as_bytes());
    data.extend_from_slice(&0u16.to_be_bytes());
    send_option(s, OPT_GO, &data).map_err(io)?;
    let mut got = None;
    loop {
        let mut reply = [0u8; 20];
        s.read_exact(&mut reply).map_err(io)?;
        if be64(&reply[0..8]) != REPLY_MAGIC {
            return Err("handshake: bad option reply magic".into());
        }
        let kind = be32(&reply[12..16]);
        let mut body = vec![0u8; be32(&reply[16..20]).min(1 << 20) as usize];
        s.read_exact(&mut body).map_err(io)?;
        match kind {
            REP_INFO
                if body.len() >= 12 && u16::from_be_bytes([body[0], body[1]]) == INFO_EXPORT =>
            {
                got = Some((be64(&body[2..10]), u16::from_be_bytes([body[10], body[11]])));
            }
            REP_INFO => {}
            REP_ACK => return got.ok_or_else(|| "the server sent no export information".into()),
            REP_ERR_UNSUP => return export_name(s, export, server & NO_ZEROES != 0),
            k if k & REP_ERR_BIT != 0 => {
                let text = String::from_utf8_lossy(&body);
                return Err(format!("the server refused export '{export}' ({k:#x}): {text}"));
            }
            _ => {}
        }
    }
}

/// The old way to open an export, for a server without `NBD_OPT_GO`.
fn export_name(s: &mut Stream, export: &str, no_zeroes: bool) -> Result<(u64, u16), String> {
    let io = |e: io::Error| format!("handshake: {e}");
    send_option(s, OPT_EXPORT_NAME, export.as_bytes()).map_err(io)?;
    let mut head = [0u8; 10];
    s.read_exact(&mut head).map_err(io)?;
    if !no_zeroes {
        s.read_exact(&mut [0u8; 124]).map_err(io)?;
    }
    Ok((be64(&head[0..8]), u16::from_be_bytes([head[8], head[9]])))
}

fn send_option(s: &mut Stream, option: u32, data: &[u8]) -> io::Result<()> {
    let mut msg = Vec::with_capacity(16 + data.len());
    msg.extend_from_slice(&IHAVEOPT.to_be_bytes());
    msg.extend_from_slice(&option.to_be_bytes());
    msg.extend_from_slice(&(data.len() as u32).to_be_bytes());
    msg.extend_from_slice(data);
    s.write_all(&msg)
}

/// A transmission request's 28 bytes.
pub fn request(command: u16, handle: u64, offset: u64, len: u32) -> [u8; 28] {
    let mut r = [0u8; 28];
    r[0..4].copy_from_slice(&REQUEST_MAGIC.to_be_bytes());
    r[6..8].copy_from_slice(&command.to_be_bytes());
    r[8..16].copy_from_slice(&handle.to_be_bytes());
    r[16..24].copy_from_slice(&offset.to_be_bytes());
    r[24..28].copy_from_slice(&len.to_be_bytes());
    r
}

/// A big-endian `u64` from the first eight bytes of `b`.
pub fn be64(b: &[u8]) -> u64 {
    u64::from_be_bytes(b[..8].try_into().unwrap_or([0; 8]))
}

/// A big-endian `u32` from the first four bytes of `b`.
pub fn be32(b: &[u8]) -> u32 {
    u32::from_be_bytes(b[..4].try_into().unwrap_or([0; 4]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_are_read_as_nbd_reads_them() {
        let t = parse_uri("nbd+unix:///?socket=/tmp/s%20x").unwrap();
        assert_eq!(t, Target { address: Address::Unix("/tmp/s x".into()), export: String::new() });
        let t = parse_uri("nbd+unix:///disk?socket=/tmp/s").unwrap();
        assert_eq!(t.export, "disk");
        let t = parse_uri("nbd://localhost:10810/exp").unwrap();
        assert_eq!(t.address, Address::Tcp { host: "localhost".into(), port: 10810 });
        assert_eq!(t.export, "exp");
        let t = parse_uri("nbd://127.0.0.1").unwrap();
        assert_eq!(t.address, Address::Tcp { host: "127.0.0.1".into(), port: 10809 });
        let t = parse_uri("nbd://[::1]:99/").unwrap();
        assert_eq!(t.address, Address::Tcp { host: "::1".into(), port: 99 });
        assert!(parse_uri("nbds://h/").unwrap_err().contains("TLS"));
        assert!(parse_uri("nbd+unix:///").unwrap_err().contains("socket"));
        assert!(parse_uri("/dev/nbd0").is_err());
    }

    #[test]
    fn a_request_is_laid_out_big_endian() {
        let r = request(CMD_WRITE, 7, 4096, 512);
        assert_eq!(be32(&r), REQUEST_MAGIC);
        assert_eq!(&r[4..8], &[0, 0, 0, 1]);
        assert_eq!(be64(&r[8..]), 7);
        assert_eq!(be64(&r[16..]), 4096);
        assert_eq!(be32(&r[24..]), 512);
    }
}
