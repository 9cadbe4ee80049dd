//! fio 3.33's skewed laws: how one value of `zipf`, `pareto` or `normal` over `n` values
//! comes from its random state, and how fio scatters it over the file.
//!
//! Fitted to fio 3.33's `write_iolog` (null engine, `norandommap`, files of 1000, 1001 and
//! 1024 blocks, many seeds; every I/O of every run matches):
//!
//! - **zipf:θ** is the generator of J. Gray et al., "Quickly generating billion-record
//!   synthetic databases" (SIGMOD 1994): with ζ(n) = Σ_{i=1..n} i^-θ (fio sums at most the
//!   first ten million terms, in that order), α = 1/(1-θ) and
//!   η = (1 - (2/n)^(1-θ)) / (1 - ζ(2)/ζ(n)), a fraction u gives 1 when u·ζ(n) < 1, 2 when it
//!   is below 1 + 2^-θ, else 1 + ⌊n·(η·u - η + 1)^α⌋; the value is that less one.
//! - **pareto:h** gives ⌊(n-1)·u^(ln h / ln(1-h))⌋.
//! - **normal:dev** adds up twelve draws, each taken modulo n+1, divides by twelve rounding
//!   up, then, when dev > 0, adds ⌊s·f⌋ - ⌊s/2⌋ for one more fraction f, where
//!   s = min(⌈n·dev/100⌉, ⌊n/2⌋) (so any dev from 50 up is 50). The 12-draw mean alone
//!   already spreads over about a sixth of the file.
//! - A value v lands at `(v × 0x61C8864680B583EB + off) mod n` (wrapping at 64 bits): the
//!   multiplicative (Fibonacci) hash with the 64-bit golden-ratio constant scatters the hot
//!   values over the file, then `off` shifts them. For zipf and pareto `off` is the state's
//!   first draw, taken when the state is made, or ⌊center·n⌋ when a center is given (the
//!   first draw is taken all the same); for normal it is ⌊(center - ½)·n⌋ as a 32-bit
//!   unsigned number (so 0 for the default center ½, and a negative shift wraps at 2^32).
//! - `file_service_type` uses the same laws over `nrfiles × 1024` values without the hash
//!   (see [`crate::FileService`]).
//!
//!   When the deviation d carries the value past either end (mean + d < 0 or ≥ n, about
//!   one I/O in ten thousand at `dev=50`), the value is mean + d/2 (the half rounded
//!   toward zero): fio 3.33 over 65536 blocks gives 58344 for mean 50183 and d = 16323,
//!   5147 for mean 12983 and d = −15673. A value still past the end after that (which
//!   needs a mean within an eighth of the range from its end, and was never seen) is
//!   taken as that end.

use crate::taus::FioRng;

/// The constant of fio's hash of a value: ⌊2^64/φ²⌋, odd, so the product is a bijection.
const GOLDEN_64: u64 = 0x61C8_8646_80B5_83EB;
/// The most terms of ζ(n) fio adds up.
const ZETA_TERMS: u64 = 10_000_000;
/// How many draws a normal value adds up.
const GAUSS_DRAWS: u64 = 12;

/// fio's hash of a value before it is shifted and reduced to a position.
#[inline]
pub(crate) fn scatter(v: u64) -> u64 {
    v.wrapping_mul(GOLDEN_64)
}

/// Gray's zipf generator over `n` values.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Zipf {
    n: f64,
    zeta_n: f64,
    alpha: f64,
    eta: f64,
    /// 1 + 2^-θ: below it (times ζ(n)), the value is 2.
    second: f64,
}

impl Zipf {
    /// The generator over `n` ≥ 1 values with exponent `theta` (> 0, not 1).
    pub(crate) fn new(n: u64, theta: f64) -> Zipf {
        let mut zeta_n = 0.0;
        for i in 0..n.min(ZETA_TERMS) {
            zeta_n += (1.0 / (i + 1) as f64).powf(theta);
        }
        let second = 1.0 + 0.5f64.powf(theta);
        let nf = n as f64;
        let eta = (1.0 - (2.0 / nf).powf(1.0 - theta)) / (1.0 - second / zeta_n);
        Zipf { n: nf, zeta_n, alpha: 1.0 / (1.0 - theta), eta, second }
    }

    /// The value of fraction `u`: 0 the most likely (it may reach `n` for u close to 1).
    #[inline]
    pub(crate) fn value(&self, u: f64) -> u64 {
        let uz = u * self.zeta_n;
        if uz < 1.0 {
            0
        } else if uz < self.second {
            1
        } else {
            (self.n * (self.eta * u - self.eta + 1.0).powf(self.alpha)) as u64
        }
    }
}

/// One of fio's skewed laws over `n` values, without placement.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Law {
    /// Gray's zipf.
    Zipf(Zipf),
    /// Pareto: `(n-1)·u^power`.
    Pareto {
        /// ln h / ln(1-h).
        power: f64,
    },
    /// The 12-draw mean, widened by `spread` values.
    Gauss {
        /// s = min(⌈n·dev/100⌉, ⌊n/2⌋).
        spread: u64,
    },
}

impl Law {
    /// Zipf with exponent `theta`.
    pub(crate) fn zipf(n: u64, theta: f64) -> Law {
        Law::Zipf(Zipf::new(n.max(1), theta))
    }

    /// Pareto with fio's input `h` (0 < h < 1).
    pub(crate) fn pareto(h: f64) -> Law {
        Law::Pareto { power: h.ln() / (1.0 - h).ln() }
    }

    /// Normal with deviation `dev` percent over `n` values.
    pub(crate) fn gauss(n: u64, dev: f64) -> Law {
        let spread = (n as f64 * dev / 100.0).ceil() as u64;
        Law::Gauss { spread: spread.min(n / 2) }
    }

    /// Whether a state of this law takes its shift from its first draw (zipf, pareto).
    pub(crate) fn draws_shift(&self) -> bool {
        !matches!(self, Law::Gauss { .. })
    }

    /// The next value over `n` values from `rng` (signed: a normal value may leave the
    /// range at either end).
    #[inline]
    pub(crate) fn value(&self, n: u64, rng: &mut FioRng) -> i64 {
        match self {
            Law::Zipf(z) => z.value(rng.fraction()) as i64,
            Law::Pareto { power } => ((n - 1) as f64 * rng.fraction().powf(*power)) as i64,
            Law::Gauss { spread } => {
                let m = n.wrapping_add(1);
                let mut sum = 0u64;
                for _ in 0..GAUSS_DRAWS {
                    sum = sum.wrapping_add(rng.next_raw() % m);
                }
                let mean = sum.div_ceil(GAUSS_DRAWS) as i64;
                if *spread == 0 {
                    return mean;
                }
                let s = *spread as i64;
                let d = (s as f64 * rng.fraction()) as i64 - s / 2;
                if (0..n as i64).contains(&(mean + d)) {
                    mean + d
                } else {
                    // Past either end: half the deviation (see the module note).
                    mean + d / 2
                }
            }
        }
    }
}

impl Law {
    /// The next value to scatter: as [`Law::value`], a normal value still past either end
    /// taken as that end (zipf may give `n` itself, which fio scatters as it is).
    #[inline]
    pub(crate) fn unsigned_value(&self, n: u64, rng: &mut FioRng) -> u64 {
        let v = self.value(n, rng);
        match self {
            Law::Gauss { .. } => (v.max(0) as u64).min(n.saturating_sub(1)),
            _ => v as u64,
        }
    }
}

/// The shift of a normal law with `center` over `n` values: ⌊(center - ½)·n⌋ as a 32-bit
/// unsigned number, as fio 3.33 applies it.
pub(crate) fn gauss_shift(center: Option<f64>, n: u64) -> u64 {
    let c = center.unwrap_or(0.5);
    u64::from(((c - 0.5) * n as f64) as i64 as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first `count` positions of `law` over `n` values with `shift`, from a state seeded
    /// as fio seeds it with `randseed` given (0xb1899bed for the first job).
    fn positions(law: &Law, n: u64, center: Option<f64>, count: usize) -> Vec<u64> {
        let mut rng = FioRng::new(0xb189_9bed, false);
        let shift = if law.draws_shift() {
            let first = rng.next_raw();
            center.map_or(first, |c| (c * n as f64) as u64)
        } else {
            gauss_shift(center, n)
        };
        (0..count).map(|_| scatter(law.value(n, &mut rng) as u64).wrapping_add(shift) % n).collect()
    }

    #[test]
    fn fio_3_33_positions() {
        // fio 3.33 `--rw=randread --bs=4k --norandommap --randseed=1 --write_iolog=LOG`:
        // `--size=4m --random_distribution=zipf:1.2:0`,
        assert_eq!(
            positions(&Law::zipf(1024, 1.2), 1024, Some(0.0), 8),
            [289, 909, 940, 982, 993, 982, 982, 831]
        );
        // `--size=4000k --random_distribution=normal:30:0.3`,
        assert_eq!(
            positions(&Law::gauss(1000, 30.0), 1000, Some(0.3), 8),
            [9, 386, 372, 671, 71, 517, 464, 710]
        );
        // `--size=4004k --random_distribution=pareto:0.3`.
        assert_eq!(
            positions(&Law::pareto(0.3), 1001, None, 8),
            [431, 236, 545, 934, 984, 781, 728, 899]
        );
        // The hash alone: value v at v × 1003 mod 1024.
        assert_eq!(scatter(1) % 1024, 1003);
    }

    #[test]
    fn a_normal_value_past_either_end_takes_half_its_deviation() {
        // fio 3.33 `--rw=randread --bs=4k --norandommap --random_distribution=normal:50
        // --size=256m --number_ios=30000` (file `j.0.0` of job 1, whose state is seeded
        // 0xd646691e): of its first 30000 values four pass an end, and fio reads these
        // blocks for them.
        let (law, n) = (Law::gauss(65536, 50.0), 65536);
        let mut rng = FioRng::new(0xd646_691e, false);
        let blocks: Vec<u64> =
            (0..30000).map(|_| scatter(law.unsigned_value(n, &mut rng)) % n).collect();
        let past = [blocks[6815], blocks[14800], blocks[16433], blocks[29959]];
        assert_eq!(past, [60920, 45254, 17865, 40389]);
    }

    #[test]
    fn normal_shift_wraps_at_32_bits() {
        assert_eq!(gauss_shift(None, 1000), 0);
        assert_eq!(gauss_shift(Some(0.0), 1000) % 1000, 796);
        assert_eq!(gauss_shift(Some(0.0), 1001) % 1001, 120);
        assert_eq!(gauss_shift(Some(0.8), 1000), 300);
    }

    #[test]
    fn gauss_spread_is_capped_at_half_the_range() {
        assert_eq!(Law::gauss(1024, 10.0), Law::Gauss { spread: 103 });
        assert_eq!(Law::gauss(1024, 90.0), Law::Gauss { spread: 512 });
        assert_eq!(Law::gauss(1024, 0.0), Law::Gauss { spread: 0 });
    }
}
