//! The hash of a file name that seeds fio 3.33's skewed distributions of that file (see
//! [`crate::FioSeeds::file_seed`]): Bob Jenkins' `lookup3` hash ("hashlittle", public
//! domain, 2006) as fio 3.33 computes it, which differs from the published hash in two
//! ways: its three words start at `0x61C88647 + length` (the published hash starts them
//! at `0xdeadbeef + length + initval`), and of each 12-byte block before the last, only
//! bytes 0, 4 and 8 are added (one byte to each word, where the published hash adds the
//! block's three little-endian words).
//!
//! Fitted to the seeds of fio 3.33's zipf states (which its draws give away) for names of
//! 1 to 25 bytes: `x`, `ab`, `j.0.0`, `abcdefghijkl`, `abcdefghijklm`, `/tmp/rngcmp/x` and
//! others. [`lookup3`] is the published hash, which `--crctest` measures.

/// The words' start, less the name's length.
const START: u32 = 0x61C8_8647;

/// The last round of `lookup3`: mixes the three words into `c`.
fn last_round(mut a: u32, mut b: u32, mut c: u32) -> u32 {
    c ^= b;
    c = c.wrapping_sub(b.rotate_left(14));
    a ^= c;
    a = a.wrapping_sub(c.rotate_left(11));
    b ^= a;
    b = b.wrapping_sub(a.rotate_left(25));
    c ^= b;
    c = c.wrapping_sub(b.rotate_left(16));
    a ^= c;
    a = a.wrapping_sub(c.rotate_left(4));
    b ^= a;
    b = b.wrapping_sub(a.rotate_left(14));
    c ^= b;
    c.wrapping_sub(b.rotate_left(24))
}

/// A full round of `lookup3`, between 12-byte blocks.
fn round(a: &mut u32, b: &mut u32, c: &mut u32) {
    for (r1, r2, r3) in [(4, 6, 8), (16, 19, 4)] {
        *a = a.wrapping_sub(*c) ^ c.rotate_left(r1);
        *c = c.wrapping_add(*b);
        *b = b.wrapping_sub(*a) ^ a.rotate_left(r2);
        *a = a.wrapping_add(*c);
        *c = c.wrapping_sub(*b) ^ b.rotate_left(r3);
        *b = b.wrapping_add(*a);
    }
}

/// The little-endian word of up to 4 bytes (the last block's).
fn word(bytes: &[u8]) -> u32 {
    bytes.iter().rev().fold(0, |w, &b| (w << 8) | u32::from(b))
}

/// The hash of `name`.
pub(crate) fn name_hash(name: &[u8]) -> u32 {
    hash_with::<false>(name, START.wrapping_add(name.len() as u32))
}

/// Jenkins' published lookup3 `hashlittle` of `data` with initial value `init` (the
/// kernel's `jhash`), which `--crctest` measures.
pub fn lookup3(data: &[u8], init: u32) -> u32 {
    let start = 0xdead_beef_u32.wrapping_add(data.len() as u32).wrapping_add(init);
    hash_with::<true>(data, start)
}

/// `lookup3` of `name` with its words starting at `start`; `WHOLE_BLOCKS` adds the
/// blocks before the last as the published hash does, else as fio 3.33 does.
fn hash_with<const WHOLE_BLOCKS: bool>(name: &[u8], start: u32) -> u32 {
    let (mut a, mut b, mut c) = (start, start, start);
    let mut rest = name;
    while rest.len() > 12 {
        let part = |i: usize| {
            if WHOLE_BLOCKS {
                u32::from_le_bytes([rest[i], rest[i + 1], rest[i + 2], rest[i + 3]])
            } else {
                u32::from(rest[i])
            }
        };
        a = a.wrapping_add(part(0));
        b = b.wrapping_add(part(4));
        c = c.wrapping_add(part(8));
        round(&mut a, &mut b, &mut c);
        rest = &rest[12..];
    }
    if rest.is_empty() {
        return c;
    }
    let part = |i: usize| rest.get(i..rest.len().min(i + 4)).map_or(0, word);
    last_round(a.wrapping_add(part(0)), b.wrapping_add(part(4)), c.wrapping_add(part(8)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fio_3_33_seeds_of_short_names() {
        // The seeds of fio 3.33's zipf states for files of these names (job number 1).
        for (name, seed) in [
            ("x", 0x35f2_364c),
            ("y", 0x2de6_d67c),
            ("ab", 0x97a0_3579),
            ("j.0.0", 0xd646_691e),
            ("j.1.0", 0x8573_c70c),
            ("abcdefghijkl", 0xd855_beeb),
            ("abcdefghijklm", 0x5953_6a0b),
            ("abcdefghijklM", 0x6a50_3157),
            ("abcdefghijklmn", 0xdfbb_04cc),
            ("/tmp/rngcmp/x", 0x5dd5_4141),
            ("abcdefghijklmnopqrstuvwx", 0x8033_1df9),
            ("abcdefghijklmnopqrstuvwxy", 0xf582_6bdf),
        ] {
            assert_eq!(name_hash(name.as_bytes()), seed, "{name}");
        }
    }

    #[test]
    fn the_rounds_are_lookup3s() {
        // Bob Jenkins' published check values of `hashlittle` (lookup3.c, initval 0 and 1),
        // with the published start restored.
        let text = b"Four score and seven years ago";
        assert_eq!(lookup3(b"", 0), 0xdead_beef);
        assert_eq!(lookup3(text, 0), 0x1777_0551);
        assert_eq!(lookup3(text, 1), 0xcd62_8161);
    }
}
