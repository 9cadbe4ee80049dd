//! The random number generators behind a workload: one small, fast, seedable generator and
//! the separate streams a job draws from.
//!
//! Like fio, which keeps one random state per purpose, a workload owns one independent
//! stream per decision (offsets, block sizes, the read/write mix, the sequential/random
//! mix, file choice, buffer contents). Each stream is derived from the job's seed and a
//! fixed per-stream constant, so changing `rwmixread` or `bssplit` does not move a single
//! offset, and the same seed always gives the same sequence.
//!
//! The generator is xoshiro256** (Blackman and Vigna, 2018), written here from the
//! published algorithm; its 256-bit state is filled from the seed with SplitMix64, as the
//! authors recommend. It is not cryptographic and need not be: it only has to be fast,
//! well distributed and reproducible.

/// One of the independent random streams of a workload.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stream {
    /// Random offsets (and the random-map search start).
    Offsets,
    /// Block size choice within `bsrange` or `bssplit`.
    BlockSizes,
    /// The read/write decision of mixed modes (`rwmixread`).
    RwMix,
    /// The sequential/random decision of `percentage_random`.
    SeqRandMix,
    /// File choice for `file_service_type=random`.
    Files,
    /// Buffer contents (initial fill, refill, scramble).
    Buffers,
    /// Where skewed distributions put their hot blocks (the keys of their permutation, the
    /// random base of zipf and pareto), file by file.
    Placement,
}

impl Stream {
    /// A fixed constant per stream, mixed into the seed. Arbitrary odd 64-bit values; they
    /// only have to differ from each other.
    fn salt(self) -> u64 {
        match self {
            Stream::Offsets => 0x6f66_6673_6574_7321,
            Stream::BlockSizes => 0x626c_6f63_6b73_697b,
            Stream::RwMix => 0x7277_6d69_7872_6561,
            Stream::SeqRandMix => 0x7365_7172_616e_6425,
            Stream::Files => 0x6669_6c65_7365_7276,
            Stream::Buffers => 0x6275_6666_6572_7333,
            Stream::Placement => 0x706c_6163_656d_656f,
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
    fn streams_are_independent() {
        let mut o = Rng::for_stream(1, Stream::Offsets);
        let mut m = Rng::for_stream(1, Stream::RwMix);
        assert_ne!(o.next_u64(), m.next_u64());
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
