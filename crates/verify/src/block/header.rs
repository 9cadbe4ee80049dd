//! The 40-byte block header, in fio 3.33's layout (learnt by hexdumping fio-written blocks):
//!
//! | bytes | field |
//! |---|---|
//! | 0–1 | magic `0xacca`, little-endian |
//! | 2–3 | the method's type number |
//! | 4–7 | the length the header covers (the block, or `verify_interval`) |
//! | 8–15 | the write's random seed |
//! | 16–23 | the file offset the header covers |
//! | 24–27, 28–31 | time of the write, seconds and nanoseconds (iomark writes 0) |
//! | 32–33 | the job's thread number, from 1 |
//! | 34–35 | the write's number in the job (`numberio`, low 16 bits) |
//! | 36–39 | CRC-32C (init ~0, no final xor) of bytes 0–35 |
//!
//! The method's checksum field follows at byte 40.

use super::method::header_crc;

/// The header's magic number.
pub const MAGIC: u16 = 0xacca;
/// The header's size without the checksum field.
pub const HEADER_LEN: usize = 40;

/// One block header.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Header {
    /// Magic number ([`MAGIC`]).
    pub magic: u16,
    /// The method's type number.
    pub method: u16,
    /// Bytes covered.
    pub len: u32,
    /// The write's seed.
    pub seed: u64,
    /// The file offset covered.
    pub offset: u64,
    /// Seconds part of the write's time.
    pub time_sec: u32,
    /// Nanoseconds part of the write's time.
    pub time_nsec: u32,
    /// Thread number, from 1.
    pub thread: u16,
    /// Write number, low 16 bits.
    pub numberio: u16,
    /// CRC-32C of the 36 bytes before it.
    pub crc: u32,
}

impl Header {
    /// Writes the header into `out[..40]`, computing its CRC.
    pub fn write(&self, out: &mut [u8]) {
        let out = &mut out[..HEADER_LEN];
        out[0..2].copy_from_slice(&self.magic.to_le_bytes());
        out[2..4].copy_from_slice(&self.method.to_le_bytes());
        out[4..8].copy_from_slice(&self.len.to_le_bytes());
        out[8..16].copy_from_slice(&self.seed.to_le_bytes());
        out[16..24].copy_from_slice(&self.offset.to_le_bytes());
        out[24..28].copy_from_slice(&self.time_sec.to_le_bytes());
        out[28..32].copy_from_slice(&self.time_nsec.to_le_bytes());
        out[32..34].copy_from_slice(&self.thread.to_le_bytes());
        out[34..36].copy_from_slice(&self.numberio.to_le_bytes());
        let crc = header_crc(&out[..36]);
        out[36..40].copy_from_slice(&crc.to_le_bytes());
    }

    /// Reads a header from `bytes[..40]` as it is (the CRC as stored).
    pub fn read(bytes: &[u8]) -> Header {
        let u16_at = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]);
        let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().unwrap_or([0; 4]));
        let u64_at = |i: usize| u64::from_le_bytes(bytes[i..i + 8].try_into().unwrap_or([0; 8]));
        Header {
            magic: u16_at(0),
            method: u16_at(2),
            len: u32_at(4),
            seed: u64_at(8),
            offset: u64_at(16),
            time_sec: u32_at(24),
            time_nsec: u32_at(28),
            thread: u16_at(32),
            numberio: u16_at(34),
            crc: u32_at(36),
        }
    }
}
