//! The verify methods and their checksums, laid out as fio 3.33 lays them out.
//!
//! Every checksum is computed by a well-kept crate (`crc32c`, `crc`, `md-5`, `sha1`, `sha2`,
//! `sha3`, `xxhash-rust`); what is fio's is the choice of variant and the byte layout, each
//! learnt by hexdumping blocks fio 3.33 wrote and checking them against the crates:
//!
//! | method | fio type | bytes after the 40-byte header | variant |
//! |---|---|---|---|
//! | md5 | 2 | 16 | MD5 digest |
//! | crc64 | 3 | 8 | CRC-64/REDIS (Jones polynomial, reflected, init 0), little-endian |
//! | crc32 | 4 | 4 | CRC-32 polynomial 04c11db7, not reflected, init 0, no final xor, LE |
//! | crc32c | 5 | 4 | CRC-32C with init ~0 and no final xor (the bitwise not of the usual value), LE |
//! | crc16 | 7 | 2 | CRC-16/ARC, LE |
//! | crc7 | 8 | 1 | CRC-7/MMC |
//! | sha256 | 9 | 64 | SHA-256 in the first 32 bytes (see below) |
//! | sha512 | 10 | 128 | SHA-512 in the first 64 bytes (see below) |
//! | sha3-224/256/384/512 | 11–14 | 28/32/48/64 | SHA3 digest |
//! | xxhash | 15 | 4 | XXH32, seed 1, LE |
//! | sha1 | 16 | 20 | SHA-1 digest, each 32-bit word byte-swapped |
//! | meta | 1 | 0 | header only |
//!
//! fio 3.33's sha256 and sha512 fields do not hold the standard digest of the block (its
//! sha256 field holds the hash's last padded input block); iomark keeps fio's field sizes
//! and stores the standard digest, so fio cannot check iomark's sha256/sha512 blocks nor
//! the other way round. `pattern_hdr` is not in fio 3.33 (it refuses the name); iomark
//! gives it type 17 (its own).

use crc::{Algorithm, Crc, CRC_16_ARC, CRC_64_REDIS, CRC_7_MMC};
use md5::Digest;

/// The most bytes a method's checksum field takes.
pub const MAX_DIGEST: usize = 128;

/// What `verify` checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// `null`: pretend (write nothing special, check nothing).
    Null,
    /// `meta`: the header alone.
    Meta,
    /// `pattern`: every byte against `verify_pattern`, no header.
    Pattern,
    /// `pattern_hdr`: a header, then the pattern.
    PatternHdr,
    /// `md5`.
    Md5,
    /// `crc64`.
    Crc64,
    /// `crc32`.
    Crc32,
    /// `crc32c` and `crc32c-intel` (hardware-accelerated where the CPU has it).
    Crc32c,
    /// `crc16`.
    Crc16,
    /// `crc7`.
    Crc7,
    /// `sha1`.
    Sha1,
    /// `sha256`.
    Sha256,
    /// `sha512`.
    Sha512,
    /// `sha3-224`.
    Sha3_224,
    /// `sha3-256`.
    Sha3_256,
    /// `sha3-384`.
    Sha3_384,
    /// `sha3-512`.
    Sha3_512,
    /// `xxhash`.
    Xxhash,
}

/// fio's crc32: polynomial 04c11db7 MSB-first, init 0, no final xor.
const CRC_32_FIO: Algorithm<u32> = Algorithm {
    width: 32,
    poly: 0x04c1_1db7,
    init: 0,
    refin: false,
    refout: false,
    xorout: 0,
    check: 0x89a1_897f,
    residue: 0,
};

static CRC64: Crc<u64> = Crc::<u64>::new(&CRC_64_REDIS);
static CRC32: Crc<u32> = Crc::<u32>::new(&CRC_32_FIO);
static CRC16: Crc<u16> = Crc::<u16>::new(&CRC_16_ARC);
static CRC7: Crc<u8> = Crc::<u8>::new(&CRC_7_MMC);

/// Every method, for tests and help.
pub const ALL: [Method; 18] = [
    Method::Null,
    Method::Meta,
    Method::Pattern,
    Method::PatternHdr,
    Method::Md5,
    Method::Crc64,
    Method::Crc32,
    Method::Crc32c,
    Method::Crc16,
    Method::Crc7,
    Method::Sha1,
    Method::Sha256,
    Method::Sha512,
    Method::Sha3_224,
    Method::Sha3_256,
    Method::Sha3_384,
    Method::Sha3_512,
    Method::Xxhash,
];

impl Method {
    /// The method named `name` as `verify` takes it (`0` is no method: `None`).
    pub fn from_name(name: &str) -> Option<Method> {
        Some(match name {
            "null" => Method::Null,
            "meta" => Method::Meta,
            "pattern" => Method::Pattern,
            "pattern_hdr" => Method::PatternHdr,
            "md5" => Method::Md5,
            "crc64" => Method::Crc64,
            "crc32" => Method::Crc32,
            "crc32c" | "crc32c-intel" => Method::Crc32c,
            "crc16" => Method::Crc16,
            "crc7" => Method::Crc7,
            "sha1" => Method::Sha1,
            "sha256" => Method::Sha256,
            "sha512" => Method::Sha512,
            "sha3-224" => Method::Sha3_224,
            "sha3-256" => Method::Sha3_256,
            "sha3-384" => Method::Sha3_384,
            "sha3-512" => Method::Sha3_512,
            "xxhash" => Method::Xxhash,
            _ => return None,
        })
    }

    /// The name fio prints for the method.
    pub fn name(self) -> &'static str {
        match self {
            Method::Null => "null",
            Method::Meta => "meta",
            Method::Pattern => "pattern",
            Method::PatternHdr => "pattern_hdr",
            Method::Md5 => "md5",
            Method::Crc64 => "crc64",
            Method::Crc32 => "crc32",
            Method::Crc32c => "crc32c",
            Method::Crc16 => "crc16",
            Method::Crc7 => "crc7",
            Method::Sha1 => "sha1",
            Method::Sha256 => "sha256",
            Method::Sha512 => "sha512",
            Method::Sha3_224 => "sha3-224",
            Method::Sha3_256 => "sha3-256",
            Method::Sha3_384 => "sha3-384",
            Method::Sha3_512 => "sha3-512",
            Method::Xxhash => "xxhash",
        }
    }

    /// The type number the header carries (fio's; see the module note).
    pub fn type_code(self) -> u16 {
        match self {
            Method::Null | Method::Pattern => 0,
            Method::Meta => 1,
            Method::Md5 => 2,
            Method::Crc64 => 3,
            Method::Crc32 => 4,
            Method::Crc32c => 5,
            Method::Crc16 => 7,
            Method::Crc7 => 8,
            Method::Sha256 => 9,
            Method::Sha512 => 10,
            Method::Sha3_224 => 11,
            Method::Sha3_256 => 12,
            Method::Sha3_384 => 13,
            Method::Sha3_512 => 14,
            Method::Xxhash => 15,
            Method::Sha1 => 16,
            Method::PatternHdr => 17,
        }
    }

    /// Whether blocks carry a header.
    pub fn has_header(self) -> bool {
        !matches!(self, Method::Null | Method::Pattern)
    }

    /// Whether the data after the header is checked against a checksum.
    pub fn has_checksum(self) -> bool {
        self.field_len() > 0
    }

    /// The size of the checksum field after the 40-byte header.
    pub fn field_len(self) -> usize {
        match self {
            Method::Null | Method::Meta | Method::Pattern | Method::PatternHdr => 0,
            Method::Md5 => 16,
            Method::Crc64 => 8,
            Method::Crc32 | Method::Crc32c | Method::Xxhash => 4,
            Method::Crc16 => 2,
            Method::Crc7 => 1,
            Method::Sha1 => 20,
            Method::Sha256 => 64,
            Method::Sha512 => 128,
            Method::Sha3_224 => 28,
            Method::Sha3_256 => 32,
            Method::Sha3_384 => 48,
            Method::Sha3_512 => 64,
        }
    }

    /// Writes the checksum of `data` into `out` as the header's field holds it; returns the
    /// field's length. Allocates nothing.
    pub fn checksum(self, data: &[u8], out: &mut [u8; MAX_DIGEST]) -> usize {
        let n = self.field_len();
        out[..n].fill(0);
        match self {
            Method::Null | Method::Meta | Method::Pattern | Method::PatternHdr => {}
            Method::Md5 => out[..16].copy_from_slice(&md5::Md5::digest(data)),
            Method::Crc64 => out[..8].copy_from_slice(&CRC64.checksum(data).to_le_bytes()),
            Method::Crc32 => out[..4].copy_from_slice(&CRC32.checksum(data).to_le_bytes()),
            Method::Crc32c => out[..4].copy_from_slice(&(!crc32c::crc32c(data)).to_le_bytes()),
            Method::Crc16 => out[..2].copy_from_slice(&CRC16.checksum(data).to_le_bytes()),
            Method::Crc7 => out[0] = CRC7.checksum(data),
            Method::Sha1 => {
                let d = sha1::Sha1::digest(data);
                for (o, w) in out[..20].chunks_mut(4).zip(d.chunks(4)) {
                    o.copy_from_slice(&[w[3], w[2], w[1], w[0]]);
                }
            }
            Method::Sha256 => out[..32].copy_from_slice(&sha2::Sha256::digest(data)),
            Method::Sha512 => out[..64].copy_from_slice(&sha2::Sha512::digest(data)),
            Method::Sha3_224 => out[..28].copy_from_slice(&sha3::Sha3_224::digest(data)),
            Method::Sha3_256 => out[..32].copy_from_slice(&sha3::Sha3_256::digest(data)),
            Method::Sha3_384 => out[..48].copy_from_slice(&sha3::Sha3_384::digest(data)),
            Method::Sha3_512 => out[..64].copy_from_slice(&sha3::Sha3_512::digest(data)),
            Method::Xxhash => {
                out[..4].copy_from_slice(&xxhash_rust::xxh32::xxh32(data, 1).to_le_bytes())
            }
        }
        n
    }
}

/// fio's header checksum: CRC-32C with init ~0 and no final xor.
pub fn header_crc(bytes: &[u8]) -> u32 {
    !crc32c::crc32c(bytes)
}
