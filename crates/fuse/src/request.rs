//! A request as the exporter sees it: the in header, then what the opcode asks, parsed from
//! the opcode's own header and the payload that follows it.
//!
//! Both transports hand over the same three parts: `/dev/fuse` in one buffer (the in
//! header, the opcode's header, the payload, one after the other; [`split`] cuts it), and
//! FUSE-over-io_uring in three places (the in header and the opcode's header in the ring
//! entry's header buffer, the payload in its payload buffer). A WRITE's data is not copied
//! here: the transport knows where it lies and hands its address to the backing write.

use crate::abi::{self, op, FallocateIn, InHeader, InitIn, OpenIn, ReadIn, SetattrIn, WriteIn};
use crate::wire;

/// The name of the one file in the export's root directory.
pub const VOLUME_NAME: &[u8] = b"volume";

/// What a request asks, with the values the exporter needs from it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Request {
    /// The first request of the connection.
    Init(InitIn),
    /// Looks up a name; `volume` is whether it is the root's `volume`.
    Lookup {
        /// Whether the name is `volume` in the root directory.
        volume: bool,
    },
    /// A node's attributes.
    Getattr,
    /// Changes attributes; only the size is acted on.
    Setattr(SetattrIn),
    /// Opens the file with `open(2)` flags.
    Open {
        /// The `open(2)` flags.
        flags: u32,
    },
    /// Reads `size` bytes at `offset`.
    Read {
        /// Where.
        offset: u64,
        /// How much.
        size: u32,
    },
    /// Writes `size` bytes at `offset` (the data lies where the transport says).
    Write {
        /// Where.
        offset: u64,
        /// How much.
        size: u32,
    },
    /// File system statistics.
    Statfs,
    /// Closes the file for good.
    Release,
    /// A `close` of a descriptor of the file.
    Flush,
    /// Syncs the file.
    Fsync,
    /// Opens the root directory.
    Opendir,
    /// Reads directory entries from the entry at `offset`, at most `size` bytes of them.
    Readdir {
        /// Index of the first entry wanted.
        offset: u64,
        /// Room for entries, in bytes.
        size: u32,
        /// READDIRPLUS: each entry with its attributes.
        plus: bool,
    },
    /// Closes the root directory.
    Releasedir,
    /// Allocates, or punches a hole (`mode` as `fallocate(2)`).
    Fallocate(FallocateIn),
    /// Asks to interrupt a request in progress.
    Interrupt,
    /// Drops lookups.
    Forget,
    /// The last request of the connection.
    Destroy,
    /// An opcode the exporter does not serve.
    Unsupported(u32),
    /// A request too short for what its opcode needs.
    Malformed(u32),
}

impl Request {
    /// Parses the request whose in header is `header`, whose opcode's header is `op_header`
    /// and whose payload is `payload`.
    pub fn parse(header: &InHeader, op_header: &[u8], payload: &[u8]) -> Request {
        let code = header.opcode;
        let bad = Request::Malformed(code);
        match code {
            op::INIT => Request::Init(wire::read_prefix::<InitIn>(op_header)),
            op::LOOKUP => {
                let name = payload.split(|&b| b == 0).next().unwrap_or_default();
                Request::Lookup { volume: header.nodeid == abi::ROOT_ID && name == VOLUME_NAME }
            }
            op::GETATTR => Request::Getattr,
            op::SETATTR => wire::read::<SetattrIn>(op_header).map_or(bad, Request::Setattr),
            op::OPEN => {
                wire::read::<OpenIn>(op_header).map_or(bad, |o| Request::Open { flags: o.flags })
            }
            op::READ => wire::read::<ReadIn>(op_header)
                .map_or(bad, |r| Request::Read { offset: r.offset, size: r.size }),
            op::WRITE => wire::read::<WriteIn>(op_header)
                .map_or(bad, |w| Request::Write { offset: w.offset, size: w.size }),
            op::STATFS => Request::Statfs,
            op::RELEASE => Request::Release,
            op::FLUSH => Request::Flush,
            op::FSYNC => Request::Fsync,
            op::OPENDIR => Request::Opendir,
            op::READDIR | op::READDIRPLUS => wire::read::<ReadIn>(op_header).map_or(bad, |r| {
                Request::Readdir { offset: r.offset, size: r.size, plus: code == op::READDIRPLUS }
            }),
            op::RELEASEDIR => Request::Releasedir,
            op::FALLOCATE => wire::read::<FallocateIn>(op_header).map_or(bad, Request::Fallocate),
            op::INTERRUPT => Request::Interrupt,
            op::FORGET | op::BATCH_FORGET => Request::Forget,
            op::DESTROY => Request::Destroy,
            other => Request::Unsupported(other),
        }
    }

    /// Whether the kernel waits for no reply to it.
    pub fn unanswered(&self) -> bool {
        matches!(self, Request::Forget | Request::Interrupt)
    }
}

/// Cuts a classic `/dev/fuse` request (`bytes`, as read) into its in header, its opcode's
/// header and its payload; `None` when it is shorter than an in header.
pub fn split(bytes: &[u8]) -> Option<(InHeader, &[u8], &[u8])> {
    let header: InHeader = wire::read(bytes)?;
    let end = (header.len as usize).clamp(40, bytes.len());
    let body = &bytes[40..end];
    let cut = abi::op_header_size(header.opcode).min(body.len());
    Some((header, &body[..cut], &body[cut..]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::put;

    fn classic(opcode: u32, nodeid: u64, op_header: &[u8], payload: &[u8]) -> Vec<u8> {
        let len = 40 + op_header.len() + payload.len();
        let h = InHeader { len: len as u32, opcode, unique: 9, nodeid, ..Default::default() };
        let mut out = vec![0u8; 40];
        put(&mut out, &h);
        out.extend_from_slice(op_header);
        out.extend_from_slice(payload);
        out
    }

    #[test]
    fn a_lookup_of_volume_in_the_root_is_the_volume() {
        let bytes = classic(op::LOOKUP, 1, &[], b"volume\0");
        let (h, o, p) = split(&bytes).unwrap();
        assert_eq!(Request::parse(&h, o, p), Request::Lookup { volume: true });
        let bytes = classic(op::LOOKUP, 1, &[], b"volumes\0");
        let (h, o, p) = split(&bytes).unwrap();
        assert_eq!(Request::parse(&h, o, p), Request::Lookup { volume: false });
    }

    #[test]
    fn a_write_splits_into_its_header_and_its_data() {
        let w = WriteIn { offset: 4096, size: 3, ..Default::default() };
        let mut head = [0u8; 40];
        put(&mut head, &w);
        let bytes = classic(op::WRITE, 2, &head, b"abc");
        let (h, o, p) = split(&bytes).unwrap();
        assert_eq!(Request::parse(&h, o, p), Request::Write { offset: 4096, size: 3 });
        assert_eq!(p, b"abc");
        assert_eq!(40 + o.len(), 80, "a WRITE's data starts 80 bytes into the request");
    }

    #[test]
    fn a_short_read_is_malformed_and_an_unknown_opcode_unsupported() {
        let bytes = classic(op::READ, 2, &[0u8; 8], &[]);
        let (h, o, p) = split(&bytes).unwrap();
        assert_eq!(Request::parse(&h, o, p), Request::Malformed(op::READ));
        let bytes = classic(9, 1, &[], &[]);
        let (h, o, p) = split(&bytes).unwrap();
        assert_eq!(Request::parse(&h, o, p), Request::Unsupported(9));
        assert!(split(&[0u8; 39]).is_none());
    }
}
