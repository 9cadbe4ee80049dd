//! fio's random generators: L'Ecuyer's maximally equidistributed combined Tausworthe
//! generators, seeded as fio 3.33 seeds them, and the ways fio turns their draws into numbers.
//!
//! - `random_generator=tausworthe` (the default) is taus88 (P. L'Ecuyer, "Maximally
//!   equidistributed combined Tausworthe generators", Math. Comp. 65 (1996)): three 32-bit
//!   components, period about 2^88, 32-bit draws.
//! - `random_generator=tausworthe64` is lfsr258 (P. L'Ecuyer, "Tables of maximally
//!   equidistributed combined LFSR generators", Math. Comp. 68 (1999)): five 64-bit
//!   components, period about 2^258, 64-bit draws. fio 3.33 uses it for every stream of the
//!   job once the job asks for it, and never picks it by itself (its HOWTO says it does when
//!   a file has more than 2^32 blocks; 3.33 draws 32-bit offsets for such files too).
//!
//! Seeding (fitted to fio 3.33's offsets and block sizes, whose draws give the generator's
//! state away: the state is a linear function of the draws over GF(2)): the components are
//! `c1 = 53·M ^ seed`, `c2 = c1·M ^ seed`, `c3 = c2·M ^ seed`… (wrapping products, `M` =
//! 69069 for taus88 and 6906969069 for lfsr258), each raised to the least value the paper
//! allows when below it, and the generator is then stepped six times before its first draw.
//!
//! A draw `r` becomes a number the way fio's offsets, block sizes and percentages show:
//! `r / (max + 1)` in double precision is a fraction in `[0, 1)`, and `n` times it,
//! truncated, is a value in `0..n` (offsets, files, block sizes); `1 + ⌊100 × fraction⌋` is
//! a percentage draw in `1..=100` (the read/write mix, `bssplit`, `percentage_random`).

/// taus88: three 32-bit Tausworthe components.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Taus88([u32; 3]);

/// lfsr258: five 64-bit Tausworthe components.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Taus258([u64; 5]);

/// Raises `x` to at least `min`, as the generators' papers require of each component
/// (their high bits must not all be zero).
fn at_least<T: PartialOrd + std::ops::Add<Output = T> + Copy>(x: T, min: T) -> T {
    if x < min {
        x + min
    } else {
        x
    }
}

/// The first value of fio's seeding chain.
const CHAIN_START: u64 = 53;
/// How many draws fio discards after seeding.
const WARM_UP: usize = 6;

impl Taus88 {
    fn new(seed: u32) -> Taus88 {
        const MULT: u32 = 69069;
        let mut c = CHAIN_START as u32;
        let mut s = [0u32; 3];
        for (slot, min) in s.iter_mut().zip([2u32, 8, 16]) {
            c = at_least(c.wrapping_mul(MULT) ^ seed, min);
            *slot = c;
        }
        let mut t = Taus88(s);
        for _ in 0..WARM_UP {
            t.next();
        }
        t
    }

    #[inline]
    fn next(&mut self) -> u32 {
        let [s1, s2, s3] = &mut self.0;
        *s1 = ((*s1 & 0xffff_fffe) << 12) ^ (((*s1 << 13) ^ *s1) >> 19);
        *s2 = ((*s2 & 0xffff_fff8) << 4) ^ (((*s2 << 2) ^ *s2) >> 25);
        *s3 = ((*s3 & 0xffff_fff0) << 17) ^ (((*s3 << 3) ^ *s3) >> 11);
        *s1 ^ *s2 ^ *s3
    }
}

impl Taus258 {
    fn new(seed: u64) -> Taus258 {
        const MULT: u64 = 6_906_969_069;
        let mut c = CHAIN_START;
        let mut s = [0u64; 5];
        for (slot, min) in s.iter_mut().zip([2u64, 512, 4096, 131_072, 8_388_608]) {
            c = at_least(c.wrapping_mul(MULT) ^ seed, min);
            *slot = c;
        }
        let mut t = Taus258(s);
        for _ in 0..WARM_UP {
            t.next();
        }
        t
    }

    #[inline]
    fn next(&mut self) -> u64 {
        let [z1, z2, z3, z4, z5] = &mut self.0;
        *z1 = ((*z1 & 0xffff_ffff_ffff_fffe) << 10) ^ (((*z1 << 1) ^ *z1) >> 53);
        *z2 = ((*z2 & 0xffff_ffff_ffff_fe00) << 5) ^ (((*z2 << 24) ^ *z2) >> 50);
        *z3 = ((*z3 & 0xffff_ffff_ffff_f000) << 29) ^ (((*z3 << 3) ^ *z3) >> 23);
        *z4 = ((*z4 & 0xffff_ffff_fffe_0000) << 23) ^ (((*z4 << 5) ^ *z4) >> 24);
        *z5 = ((*z5 & 0xffff_ffff_ff80_0000) << 8) ^ (((*z5 << 3) ^ *z5) >> 33);
        *z1 ^ *z2 ^ *z3 ^ *z4 ^ *z5
    }
}

/// One of fio's random states: taus88 or lfsr258, with fio's ways of reading a draw.
///
/// An lfsr258 state is `t64`; a taus88 state is `t32` with `t64` empty (a state of
/// lfsr258 leaves `t32` unused). The hot loop's draw (`below_small`) reads `t32` without
/// asking which generator this is: its caller knows (`is_32`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FioRng {
    t32: Taus88,
    t64: Option<Taus258>,
}

/// Below this, `n` times a 32-bit draw is exact in a double (2^53 / 2^32).
const EXACT_32: u64 = 1 << 21;

/// 2^32 and 2^64 as doubles: a draw over them is a fraction in `[0, 1)`.
const TWO_32: f64 = 4_294_967_296.0;
const TWO_64: f64 = 18_446_744_073_709_551_616.0;

impl FioRng {
    /// A state seeded with `seed` as fio seeds one: taus88 from the seed's low 32 bits, or
    /// lfsr258 from all 64 when `use64` (`random_generator=tausworthe64`).
    pub fn new(seed: u64, use64: bool) -> FioRng {
        if use64 {
            FioRng { t32: Taus88([0; 3]), t64: Some(Taus258::new(seed)) }
        } else {
            FioRng { t32: Taus88::new(seed as u32), t64: None }
        }
    }

    /// Whether this is taus88 (32-bit draws), which [`FioRng::below_small`] draws from.
    pub(crate) fn is_32(&self) -> bool {
        self.t64.is_none()
    }

    /// The next raw draw: 32 bits (taus88) or 64 (lfsr258).
    #[inline]
    pub fn next_raw(&mut self) -> u64 {
        match &mut self.t64 {
            None => u64::from(self.t32.next()),
            Some(t) => t.next(),
        }
    }

    /// The next draw as a fraction in `[0, 1)`: `r / (max + 1)` in double precision.
    #[inline]
    pub fn fraction(&mut self) -> f64 {
        match &mut self.t64 {
            None => f64::from(self.t32.next()) / TWO_32,
            Some(t) => t.next() as f64 / TWO_64,
        }
    }

    /// A value in `0..n`: `n` times the next fraction, truncated (0 when `n` is 0).
    ///
    /// A 32-bit draw `r` and `n` below 2^21 make `n × r` exact in a double, so the value
    /// is `n × r / 2^32` in integers (the common case, and the hot loop's: a few
    /// instructions instead of the conversions to and from doubles).
    #[inline(always)]
    pub fn below(&mut self, n: u64) -> u64 {
        if self.t64.is_none() && n < EXACT_32 {
            return (n * u64::from(self.t32.next())) >> 32;
        }
        self.below_by_double(n)
    }

    /// [`FioRng::below`] of a taus88 state for `n` below 2^21, both of which the caller
    /// has made sure of ([`FioRng::is_32`], [`FioRng::small`]): the hot loop's draw, with
    /// no test. (Of an lfsr258 state it would draw from the unused `t32`.)
    #[inline(always)]
    pub(crate) fn below_small(&mut self, n: u64) -> u64 {
        debug_assert!(n < EXACT_32 && self.is_32());
        (n * u64::from(self.t32.next())) >> 32
    }

    /// Whether [`FioRng::below_small`] takes `n`.
    pub(crate) fn small(n: u64) -> bool {
        n < EXACT_32
    }

    /// [`FioRng::below`] in doubles, as fio computes it.
    #[inline(never)]
    fn below_by_double(&mut self, n: u64) -> u64 {
        let v = (n as f64 * self.fraction()) as u64;
        // The product of a large `n` may round up to `n` itself.
        v.min(n.saturating_sub(1))
    }

    /// A percentage draw in `1..=100`.
    #[inline]
    pub fn percent(&mut self) -> u32 {
        if self.t64.is_none() {
            // 100 × r is exact in a double: `below`'s integer form.
            return 1 + ((100 * u64::from(self.t32.next())) >> 32) as u32;
        }
        1 + (100.0 * self.fraction()) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fio_3_33_draws_its_first_offsets_so() {
        // fio 3.33, `--rw=randread --bs=512 --size=2T --norandommap`: 2^32 blocks, so each
        // offset / 512 is one whole 32-bit draw of the job's offset state (seed 0xb1899bed).
        let mut r = FioRng::new(0xb189_9bed, false);
        let draws: Vec<u64> = (0..4).map(|_| r.next_raw()).collect();
        assert_eq!(draws, [259_043_585, 0xbd83_a78c, 0xd7da_da76, 0x7852_df63]);
        // `--random_generator=tausworthe64 --bs=1 --size=2^62`: offsets are a quarter of
        // each 64-bit draw (rounded to a double).
        let mut r = FioRng::new(0xb189_9bed, true);
        let offs: Vec<u64> = (0..3).map(|_| ((1u64 << 62) as f64 * r.fraction()) as u64).collect();
        assert_eq!(
            offs,
            [4_327_766_923_576_680_960, 121_252_278_608_672_448, 372_014_952_974_377_024]
        );
    }

    #[test]
    fn integer_below_is_the_double_product() {
        let mut fast = FioRng::new(9, false);
        let mut slow = fast.clone();
        for n in [1, 2, 3, 100, 1000, 4095, 4096, 65_537, (1 << 21) - 1] {
            for _ in 0..2000 {
                let want = ((n as f64 * slow.fraction()) as u64).min(n - 1);
                assert_eq!(fast.below(n), want, "n {n}");
            }
        }
        for _ in 0..2000 {
            let want = 1 + (100.0 * slow.fraction()) as u32;
            assert_eq!(fast.percent(), want);
        }
    }

    #[test]
    fn below_and_percent_stay_in_range() {
        let mut r = FioRng::new(1, false);
        for _ in 0..10_000 {
            assert!(r.below(7) < 7);
            assert!((1..=100).contains(&r.percent()));
        }
        let mut r = FioRng::new(1, true);
        assert!((0..10_000).all(|_| r.below(u64::MAX) < u64::MAX));
        assert_eq!(r.below(0), 0);
    }
}
