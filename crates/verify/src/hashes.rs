//! The checksums `--crctest` measures, in fio 3.33's order ([`CRCTEST`]): the verify
//! methods' (see [`crate::block::method`]) and three hashes fio uses elsewhere and tests
//! beside them, written here from their published definitions: FNV-1a (64 bits, by words),
//! MurmurHash3 (x86, 32 bits, seed 0) and Bob Jenkins' lookup3 `hashlittle` (the kernel's
//! `jhash`, initial value 0).

use crate::block::{Method, MAX_DIGEST};
use iomark_workload::lookup3;

/// One checksum of `--crctest`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hash {
    /// A verify method's checksum.
    Method(Method),
    /// MurmurHash3 x86_32.
    Murmur3,
    /// Jenkins' lookup3.
    Jhash,
    /// FNV-1a, 64 bits.
    Fnv,
}

/// `--crctest`'s checksums, by fio's names, in fio's order.
pub const CRCTEST: [(&str, Hash); 17] = [
    ("md5", Hash::Method(Method::Md5)),
    ("crc64", Hash::Method(Method::Crc64)),
    ("crc32", Hash::Method(Method::Crc32)),
    ("crc32c", Hash::Method(Method::Crc32c)),
    ("crc16", Hash::Method(Method::Crc16)),
    ("crc7", Hash::Method(Method::Crc7)),
    ("sha1", Hash::Method(Method::Sha1)),
    ("sha256", Hash::Method(Method::Sha256)),
    ("sha512", Hash::Method(Method::Sha512)),
    ("xxhash", Hash::Method(Method::Xxhash)),
    ("murmur3", Hash::Murmur3),
    ("jhash", Hash::Jhash),
    ("fnv", Hash::Fnv),
    ("sha3-224", Hash::Method(Method::Sha3_224)),
    ("sha3-256", Hash::Method(Method::Sha3_256)),
    ("sha3-384", Hash::Method(Method::Sha3_384)),
    ("sha3-512", Hash::Method(Method::Sha3_512)),
];

impl Hash {
    /// Hashes `data`; returns the first 8 bytes of the result (so that the work is used).
    pub fn run(self, data: &[u8]) -> u64 {
        match self {
            Hash::Method(m) => {
                let mut out = [0u8; MAX_DIGEST];
                m.checksum(data, &mut out);
                u64::from_le_bytes(out[..8].try_into().unwrap_or_default())
            }
            Hash::Murmur3 => u64::from(murmur3_32(data, 0)),
            Hash::Jhash => u64::from(lookup3(data, 0)),
            Hash::Fnv => fnv1a_64(data),
        }
    }
}

/// FNV-1a, 64 bits, over 64-bit little-endian words and then the bytes left (fio's
/// `fnv` steps by words, which is what makes it fast; the bytewise FNV-1a of a buffer
/// shorter than 8 bytes is the same).
pub fn fnv1a_64(data: &[u8]) -> u64 {
    const PRIME: u64 = 0x100_0000_01b3;
    let mut words = data.chunks_exact(8);
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for w in &mut words {
        let w = u64::from_le_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]);
        h = (h ^ w).wrapping_mul(PRIME);
    }
    words.remainder().iter().fold(h, |h, &b| (h ^ u64::from(b)).wrapping_mul(PRIME))
}

/// MurmurHash3, x86, 32 bits.
pub fn murmur3_32(data: &[u8], seed: u32) -> u32 {
    const C1: u32 = 0xcc9e_2d51;
    const C2: u32 = 0x1b87_3593;
    let mut h = seed;
    let mut blocks = data.chunks_exact(4);
    for b in &mut blocks {
        let k = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        h ^= k.wrapping_mul(C1).rotate_left(15).wrapping_mul(C2);
        h = h.rotate_left(13).wrapping_mul(5).wrapping_add(0xe654_6b64);
    }
    let tail = blocks.remainder();
    if !tail.is_empty() {
        let k = tail.iter().rev().fold(0u32, |k, &b| (k << 8) | u32::from(b));
        h ^= k.wrapping_mul(C1).rotate_left(15).wrapping_mul(C2);
    }
    h ^= data.len() as u32;
    h ^= h >> 16;
    h = h.wrapping_mul(0x85eb_ca6b);
    h ^= h >> 13;
    h = h.wrapping_mul(0xc2b2_ae35);
    h ^ (h >> 16)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hashes_give_their_published_values() {
        // FNV-1a 64 of "a"; MurmurHash3 x86_32 of "hello", seed 0; lookup3 of "" with
        // init 0 (Jenkins' test vector) and of "Four score and seven years ago".
        assert_eq!(fnv1a_64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(murmur3_32(b"hello", 0), 0x248b_fa47);
        assert_eq!(lookup3(b"", 0), 0xdead_beef);
        assert_eq!(lookup3(b"Four score and seven years ago", 0), 0x1777_0551);
        assert_eq!(CRCTEST.len(), 17);
    }
}
