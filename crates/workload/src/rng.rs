//! iomark's own random generator, for the draws that are not fio's: the per-write
//! decisions of generated buffer contents (`scramble_buffers` stamps, dedupe and
//! compression). Every draw that decides which I/O is issued is fio's (`crate::taus`).
//!
//! The generator is xoshiro256** (Blackman and Vigna, 2018), written here from the
//! published algorithm; its 256-bit state is filled from the seed with SplitMix64, as the
//! authors recommend. It is not cryptographic and need not be: it only has to be fast,
//! well distributed and reproducible.

/// One of the streams of iomark's own draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stream {
    /// Buffer contents (scramble stamps, dedupe and compression decisions).
    Buffers,
}

impl Stream {
    /// A fixed constant per stream, mixed into the seed.
    fn salt(self) -> u64 {
        match self {
            Stream::Buffers => 0x6275_6666_6572_7333,
        }
    }
}

/// One step of SplitMix64: advances `state` and returns a well-mixed 64-bit value.
fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The xoshiro256** generator: 256 bits of state, period 2^256 - 1.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rng {
    s: [u64; 4],
}

impl Rng {
    /// A generator whose state is expanded from `seed` with SplitMix64 (never all zero).
    pub fn from_seed(seed: u64) -> Rng {
        let mut sm = seed;
        let s =
            [splitmix64(&mut sm), splitmix64(&mut sm), splitmix64(&mut sm), splitmix64(&mut sm)];
        Rng { s }
    }

    /// The generator of `stream` for a job seeded with `seed`.
    pub fn for_stream(seed: u64, stream: Stream) -> Rng {
        Rng::from_seed(seed ^ stream.salt())
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let result = self.s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = self.s[1] << 17;
        self.s[2] ^= self.s[0];
        self.s[3] ^= self.s[1];
        self.s[1] ^= self.s[2];
        self.s[0] ^= self.s[3];
        self.s[2] ^= t;
        self.s[3] = self.s[3].rotate_left(45);
        result
    }

    /// A uniform value in `0..n` (`n > 0`), without modulo bias (Lemire's multiply-shift
    /// with rejection). Returns 0 when `n` is 0.
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        let mut m = u128::from(self.next_u64()) * u128::from(n);
        // Only a low part below n can be biased; the division is needed only then (Lemire).
        if (m as u64) < n {
            let threshold = n.wrapping_neg() % n;
            while (m as u64) < threshold {
                m = u128::from(self.next_u64()) * u128::from(n);
            }
        }
        (m >> 64) as u64
    }

    /// A uniform value in `[0, 1)` with 53 random bits.
    #[inline]
    pub fn unit_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// True with probability `percent`/100 (`percent` ≥ 100 is always true, 0 never).
    #[inline]
    pub fn percent(&mut self, percent: u32) -> bool {
        self.below(100) < u64::from(percent)
    }

    /// Fills `buf` with random bytes, eight at a time.
    pub fn fill_bytes(&mut self, buf: &mut [u8]) {
        let mut chunks = buf.chunks_exact_mut(8);
        for chunk in &mut chunks {
            chunk.copy_from_slice(&self.next_u64().to_le_bytes());
        }
        let tail = chunks.into_remainder();
        if !tail.is_empty() {
            let bytes = self.next_u64().to_le_bytes();
            tail.copy_from_slice(&bytes[..tail.len()]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_sequence_different_seed_different() {
        let mut a = Rng::from_seed(0x89);
        let mut b = Rng::from_seed(0x89);
        let mut c = Rng::from_seed(0x8a);
        let va: Vec<u64> = (0..16).map(|_| a.next_u64()).collect();
        let vb: Vec<u64> = (0..16).map(|_| b.next_u64()).collect();
        let vc: Vec<u64> = (0..16).map(|_| c.next_u64()).collect();
        assert_eq!(va, vb);
        assert_ne!(va, vc);
    }

    #[test]
    fn a_stream_differs_from_its_seed() {
        let mut s = Rng::for_stream(1, Stream::Buffers);
        assert_ne!(s.next_u64(), Rng::from_seed(1).next_u64());
    }

    #[test]
    fn below_is_in_range_and_roughly_uniform() {
        let mut r = Rng::from_seed(7);
        let mut counts = [0u32; 10];
        for _ in 0..100_000 {
            let v = r.below(10);
            assert!(v < 10);
            counts[v as usize] += 1;
        }
        for c in counts {
            assert!((9_500..10_500).contains(&c), "{counts:?}");
        }
        assert_eq!(r.below(0), 0);
        assert_eq!(r.below(1), 0);
    }

    #[test]
    fn percent_extremes() {
        let mut r = Rng::from_seed(3);
        assert!((0..1000).all(|_| r.percent(100)));
        assert!((0..1000).all(|_| !r.percent(0)));
    }

    #[test]
    fn fill_bytes_covers_odd_lengths() {
        let mut r = Rng::from_seed(5);
        let mut buf = [0u8; 13];
        r.fill_bytes(&mut buf);
        assert!(buf.iter().any(|&b| b != 0));
        assert!(buf[8..].iter().any(|&b| b != 0));
    }
}
