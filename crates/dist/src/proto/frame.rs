//! Messages on the wire: the 24-byte header with its two CRC-16s, fragments of 1024 bytes,
//! and the limits that keep a bad peer from making iomark allocate without end.

use super::{Op, ProtoError, VERSION};
use std::io::{Read, Write};

/// Header bytes before the payload.
pub const HEADER: usize = 24;
/// The largest fragment fio sends (and iomark sends).
pub const FRAGMENT: usize = 1024;
/// The largest payload of one frame iomark accepts.
pub const MAX_FRAME: u32 = 1 << 20;
/// The largest message (all its fragments) iomark accepts: a job's statistics are
/// 184 056 bytes, a job file may be larger.
pub const MAX_MESSAGE: u64 = 64 << 20;
/// The largest log file (`IOLOG`, all its fragments) iomark accepts: histogram logs hold
/// 14 896 bytes a row.
pub const MAX_IOLOG: u64 = 1 << 30;

/// The "more fragments follow" flag.
const MORE: u32 = 1;

const CRC: crc::Crc<u16> = crc::Crc::<u16>::new(&crc::CRC_16_ARC);

/// One whole message: its opcode, tag and payload (fragments joined).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    /// What it is.
    pub op: Op,
    /// The sender's tag (echoed in replies).
    pub tag: u64,
    /// The payload.
    pub payload: Vec<u8>,
}

/// Writes a message with `op`, `tag` and `payload`, in fragments where it is long.
pub fn write_message(
    out: &mut impl Write,
    op: Op,
    tag: u64,
    payload: &[u8],
) -> std::io::Result<()> {
    let mut chunks: Vec<&[u8]> = payload.chunks(FRAGMENT).collect();
    if chunks.is_empty() {
        chunks.push(&[]);
    }
    let last = chunks.len() - 1;
    let mut bytes = Vec::with_capacity(payload.len() + HEADER * chunks.len());
    for (i, chunk) in chunks.into_iter().enumerate() {
        let mut header = [0u8; HEADER];
        header[0..2].copy_from_slice(&VERSION.to_le_bytes());
        header[2..4].copy_from_slice(&(op as u16).to_le_bytes());
        let flags = if i < last { MORE } else { 0 };
        header[4..8].copy_from_slice(&flags.to_le_bytes());
        header[8..16].copy_from_slice(&tag.to_le_bytes());
        header[16..20].copy_from_slice(&(chunk.len() as u32).to_le_bytes());
        let head_crc = CRC.checksum(&header[..20]);
        header[20..22].copy_from_slice(&head_crc.to_le_bytes());
        let pdu_crc = if chunk.is_empty() { 0 } else { CRC.checksum(chunk) };
        header[22..24].copy_from_slice(&pdu_crc.to_le_bytes());
        bytes.extend_from_slice(&header);
        bytes.extend_from_slice(chunk);
    }
    out.write_all(&bytes)?;
    out.flush()
}

/// Reads the next whole message; `Ok(None)` when the peer closed the connection between
/// messages. A wrong version, checksum, unknown opcode or oversized message is an error,
/// after which the connection is to be closed.
pub fn read_message(input: &mut impl Read) -> Result<Option<Message>, ProtoError> {
    let mut payload = Vec::new();
    loop {
        let mut header = [0u8; HEADER];
        match read_full(input, &mut header)? {
            0 if payload.is_empty() => return Ok(None),
            n if n < HEADER => {
                return Err(std::io::Error::from(std::io::ErrorKind::UnexpectedEof).into())
            }
            _ => {}
        }
        let u16_at = |i: usize| u16::from_le_bytes([header[i], header[i + 1]]);
        let u32_at = |i: usize| u32::from_le_bytes(header[i..i + 4].try_into().unwrap_or_default());
        let version = u16_at(0);
        if version != VERSION {
            return Err(ProtoError::Version { theirs: version, ours: VERSION });
        }
        if CRC.checksum(&header[..20]) != u16_at(20) {
            return Err(ProtoError::Checksum { what: "header" });
        }
        let raw_op = u16_at(2);
        let op = Op::from_u16(raw_op).ok_or(ProtoError::UnknownOp(raw_op))?;
        let flags = u32_at(4);
        let tag = u64::from_le_bytes(header[8..16].try_into().unwrap_or_default());
        let len = u32_at(16);
        let total = payload.len() as u64 + u64::from(len);
        let most = if op == Op::IoLog { MAX_IOLOG } else { MAX_MESSAGE };
        if len > MAX_FRAME || total > most {
            let limit = if len > MAX_FRAME { u64::from(MAX_FRAME) } else { most };
            return Err(ProtoError::TooLarge { bytes: total, limit });
        }
        let start = payload.len();
        payload.resize(start + len as usize, 0);
        if read_full(input, &mut payload[start..])? < len as usize {
            return Err(std::io::Error::from(std::io::ErrorKind::UnexpectedEof).into());
        }
        let crc = if len == 0 { 0 } else { CRC.checksum(&payload[start..]) };
        if crc != u16_at(22) {
            return Err(ProtoError::Checksum { what: "payload" });
        }
        if flags & MORE == 0 {
            return Ok(Some(Message { op, tag, payload }));
        }
    }
}

/// Reads until `buf` is full or the input ends; how many bytes were read.
fn read_full(input: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match input.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_payload_travels_in_fragments_and_comes_back_whole() {
        let payload: Vec<u8> = (0..2500u32).map(|i| i as u8).collect();
        let mut wire = Vec::new();
        write_message(&mut wire, Op::Ts, 7, &payload).unwrap();
        assert_eq!(wire.len(), payload.len() + 3 * HEADER);
        // The first fragment says "more", the last does not.
        assert_eq!(wire[4], 1);
        assert_eq!(wire[2 * (HEADER + FRAGMENT) + 4], 0);
        let back = read_message(&mut wire.as_slice()).unwrap().unwrap();
        assert_eq!(back, Message { op: Op::Ts, tag: 7, payload });
    }

    #[test]
    fn the_checksums_are_fios() {
        // fio 3.33's reply to a probe begins so (captured on loopback).
        let mut wire = Vec::new();
        write_message(&mut wire, Op::Run, 0, &[]).unwrap();
        assert_eq!(&wire[..4], &[97, 0, 16, 0]);
        assert_eq!(CRC.checksum(b"123456789"), 0xbb3d);
    }

    #[test]
    fn bad_messages_are_refused() {
        let mut wire = Vec::new();
        write_message(&mut wire, Op::Probe, 1, b"hello").unwrap();
        let mut other = wire.clone();
        other[0] = 96;
        assert!(matches!(
            read_message(&mut other.as_slice()),
            Err(ProtoError::Version { theirs: 96, ours: 97 })
        ));
        let mut bad = wire.clone();
        bad[HEADER] ^= 1;
        assert!(matches!(read_message(&mut bad.as_slice()), Err(ProtoError::Checksum { .. })));
        // A header announcing 2 GiB is refused before anything is allocated.
        let mut huge = wire.clone();
        huge[16..20].copy_from_slice(&(1u32 << 31).to_le_bytes());
        let head_crc = CRC.checksum(&huge[..20]);
        huge[20..22].copy_from_slice(&head_crc.to_le_bytes());
        assert!(matches!(read_message(&mut huge.as_slice()), Err(ProtoError::TooLarge { .. })));
        // Cut short.
        assert!(read_message(&mut &wire[..HEADER + 2]).is_err());
        assert!(read_message(&mut &wire[..0]).unwrap().is_none());
    }
}
