//! A keyed permutation of `0..n`: where each rank of a skewed distribution lands in a file.
//!
//! fio 3.33 spreads the popular blocks of `zipf`, `pareto` and `normal` over the whole file
//! (measured with `--write_iolog`: the hottest blocks of a zipf job are scattered, and a
//! normal job's hits fill every sixteenth of the file about equally). iomark does the same
//! with its own permutation: two rounds of "multiply by an odd key, fold the high half into
//! the low half" on the smallest power of two that holds `n`, each round a bijection there,
//! repeated ("cycle walking") until the value falls below `n`. That is a bijection of
//! `0..n`, with 0 fixed, and it takes fewer than two rounds on average.

use crate::rng::Rng;

/// A permutation of `0..n` that keeps 0 in place.
#[derive(Debug, Clone)]
pub(crate) struct Scramble {
    n: u64,
    mask: u64,
    shift: u32,
    keys: [u64; 2],
}

impl Scramble {
    /// A permutation of `0..n` (`n` ≥ 1) keyed from `rng`.
    pub(crate) fn new(n: u64, rng: &mut Rng) -> Scramble {
        let bits = 64 - n.saturating_sub(1).leading_zeros();
        let mask = if bits == 64 { u64::MAX } else { (1u64 << bits) - 1 };
        Scramble { n, mask, shift: bits / 2 + 1, keys: [rng.next_u64() | 1, rng.next_u64() | 1] }
    }

    /// One bijective round on `0..=mask`.
    #[inline]
    fn round(&self, x: u64) -> u64 {
        let mut x = x.wrapping_mul(self.keys[0]) & self.mask;
        x ^= x >> self.shift;
        x = x.wrapping_mul(self.keys[1]) & self.mask;
        x ^ (x >> self.shift)
    }

    /// The image of `x` (`x < n`).
    #[inline]
    pub(crate) fn apply(&self, x: u64) -> u64 {
        let mut y = self.round(x);
        while y >= self.n {
            y = self.round(y);
        }
        y
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn is_a_permutation_with_zero_fixed() {
        let mut rng = Rng::from_seed(9);
        for n in [1u64, 2, 3, 5, 64, 65, 1000, 4096, 10_007] {
            let s = Scramble::new(n, &mut rng);
            let mut seen = vec![false; n as usize];
            for x in 0..n {
                let y = s.apply(x);
                assert!(y < n && !seen[y as usize], "n {n}: {x} -> {y}");
                seen[y as usize] = true;
            }
            assert_eq!(s.apply(0), 0);
        }
    }

    #[test]
    fn the_first_ranks_spread_over_the_range() {
        // The 64 hottest ranks of 2^20 blocks land in every sixteenth of the file.
        let n = 1 << 20;
        let s = Scramble::new(n, &mut Rng::from_seed(4));
        let mut sixteenths = [0; 16];
        for r in 0..64 {
            sixteenths[(s.apply(r) * 16 / n) as usize] += 1;
        }
        assert!(sixteenths.iter().filter(|&&c| c > 0).count() >= 12, "{sixteenths:?}");
    }
}
