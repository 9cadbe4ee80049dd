//! The hash of a file name that seeds fio 3.33's skewed distributions of that file (see
//! [`crate::FioSeeds::file_seed`]): Bob Jenkins' `lookup3` hash of the name's bytes
//! ("hashlittle", public domain, 2006), with its three words starting at
//! `0x61C88647 + length` where the published hash starts them at
//! `0xdeadbeef + length + initval`.
//!
//! Fitted to the seeds of fio 3.33's zipf states (which its draws give away) for names of
//! 1 to 12 bytes: `x`, `ab`, `j.0.0`, `abcdefghijkl` and others. Longer names go through
//! the hash's 12-byte rounds first; fio 3.33's seeds for them differ from what this gives
//! (written down in docs/compatibility.md), so a skewed job on a file whose name is
//! longer than 12 bytes draws other offsets than fio's unless `randseed` is given.

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

/// The little-endian word of up to 4 bytes.
fn word(bytes: &[u8]) -> u32 {
    bytes.iter().rev().fold(0, |w, &b| (w << 8) | u32::from(b))
}

/// The hash of `name`.
pub(crate) fn name_hash(name: &[u8]) -> u32 {
    hash_from(name, START.wrapping_add(name.len() as u32))
}

/// `lookup3` of `name` with its words starting at `start`.
fn hash_from(name: &[u8], start: u32) -> u32 {
    let (mut a, mut b, mut c) = (start, start, start);
    let mut rest = name;
    while rest.len() > 12 {
        a = a.wrapping_add(word(&rest[..4]));
        b = b.wrapping_add(word(&rest[4..8]));
        c = c.wrapping_add(word(&rest[8..12]));
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
        ] {
            assert_eq!(name_hash(name.as_bytes()), seed, "{name}");
        }
    }

    #[test]
    fn the_rounds_are_lookup3s() {
        // Bob Jenkins' published check values of `hashlittle` (lookup3.c, initval 0 and 1),
        // with the published start restored.
        let published = |text: &[u8], initval: u32| {
            hash_from(text, 0xdead_beef_u32.wrapping_add(initval).wrapping_add(text.len() as u32))
        };
        let text = b"Four score and seven years ago";
        assert_eq!(published(text, 0), 0x1777_0551);
        assert_eq!(published(text, 1), 0xcd62_8161);
    }
}
