//! [`SumMoments`]: count, minimum, maximum, mean and sample standard deviation of latencies,
//! from exact integer sums.
//!
//! Recording adds the value and its square to 128-bit integers: no division and no
//! rounding on the I/O path (Welford's method, which fio uses, divides at every value).
//! The mean and the sum of squared deviations are derived exactly from the sums when the
//! report is made, so the result is at least as precise as Welford's and merging two sets
//! is a plain addition. The sum of values cannot overflow (fewer than 2^64 values, each
//! below 2^64, add up to less than 2^128), so recording adds it without a check. The sum of
//! squares stays exact while `n × max²` is below 2^128: with latencies under an hour
//! (2^42 ns) that is more than 2^44 values; beyond, it saturates rather than wraps.

/// Exact running sums of a stream of values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SumMoments {
    n: u64,
    min: u64,
    max: u64,
    sum: u128,
    sum_sq: u128,
}

impl Default for SumMoments {
    fn default() -> Self {
        Self::new()
    }
}

impl SumMoments {
    /// No values yet.
    pub const fn new() -> Self {
        SumMoments { n: 0, min: u64::MAX, max: 0, sum: 0, sum_sq: 0 }
    }

    /// Sums that give `n` values with these extremes, this mean and this sum of squared
    /// deviations from it (fio's `io_stat`, as its server sends it): exact to the
    /// rounding of `mean` and `s`.
    pub fn from_summary(n: u64, min: u64, max: u64, mean: f64, s: f64) -> Self {
        if n == 0 {
            return Self::new();
        }
        let sum = (mean * n as f64).round().max(0.0) as u128;
        // Σx² = S + (Σx)² / n.
        let sum_sq = (s.max(0.0) + (sum as f64) * (sum as f64) / n as f64).round() as u128;
        SumMoments { n, min, max, sum, sum_sq }
    }

    /// Adds one value.
    #[inline]
    pub fn record(&mut self, x: u64) {
        self.n += 1;
        // Branches rather than min()/max(): a new extreme is rare, so nothing is stored
        // for most values.
        if x < self.min {
            self.min = x;
        }
        if x > self.max {
            self.max = x;
        }
        let x = u128::from(x);
        // No overflow: `n` values below 2^64 each, with `n` a u64 (see the module note).
        self.sum += x;
        let (sum_sq, overflow) = self.sum_sq.overflowing_add(x * x);
        self.sum_sq = sum_sq;
        if overflow {
            self.saturate();
        }
    }

    /// The sum of squares went past 2^128: it stays at its largest (every later value
    /// but 0 overflows it again), as a saturating addition leaves it. Out of `record`'s way.
    #[cold]
    #[inline(never)]
    fn saturate(&mut self) {
        self.sum_sq = u128::MAX;
    }

    /// Adds `count` copies of one value (what `count` calls of [`SumMoments::record`]
    /// give).
    #[inline]
    pub fn record_n(&mut self, x: u64, count: u64) {
        if count <= 1 {
            // One value (every I/O reaped alone): no 128-bit multiplication by the count.
            if count == 1 {
                self.record(x);
            }
            return;
        }
        self.n += count;
        if x < self.min {
            self.min = x;
        }
        if x > self.max {
            self.max = x;
        }
        let (x, c) = (u128::from(x), u128::from(count));
        self.sum += x * c;
        self.sum_sq = self.sum_sq.saturating_add((x * x).saturating_mul(c));
    }

    /// The same values each increased by `c`, as recording `x + c` for each value `x`
    /// recorded here would give: Σ(x + c) = Σx + n·c and Σ(x + c)² = Σx² + 2c·Σx + n·c²,
    /// exact (saturating where the sums would). A batch's total latencies are its
    /// submission latencies shifted by its one completion latency.
    #[inline]
    pub fn shifted(&self, c: u64) -> SumMoments {
        let mut moved = SumMoments::new();
        if self.n == 0 {
            return moved;
        }
        if self.n == 1 {
            // One value (an I/O reaped alone): recorded shifted, without the 128-bit
            // products below, unless the shifted value leaves u64.
            if let Some(x) = self.min.checked_add(c) {
                moved.record(x);
                return moved;
            }
        }
        let (n, c) = (u128::from(self.n), u128::from(c));
        let sum = self.sum.saturating_add(n * c);
        let sum_sq = self
            .sum_sq
            .saturating_add((2 * c).saturating_mul(self.sum))
            .saturating_add((c * c).saturating_mul(n));
        SumMoments {
            n: self.n,
            min: self.min.saturating_add(c as u64),
            max: self.max.saturating_add(c as u64),
            sum,
            sum_sq,
        }
    }

    /// Adds another set, as if all its values had been recorded here.
    #[inline]
    pub fn merge(&mut self, other: &SumMoments) {
        self.n += other.n;
        self.min = self.min.min(other.min);
        self.max = self.max.max(other.max);
        self.sum = self.sum.saturating_add(other.sum);
        self.sum_sq = self.sum_sq.saturating_add(other.sum_sq);
    }

    /// How many values.
    pub fn count(&self) -> u64 {
        self.n
    }

    /// The smallest value, if any.
    pub fn min(&self) -> Option<u64> {
        (self.n > 0).then_some(self.min)
    }

    /// The largest value, if any.
    pub fn max(&self) -> Option<u64> {
        (self.n > 0).then_some(self.max)
    }

    /// The mean (0 with no values).
    pub fn mean(&self) -> f64 {
        if self.n == 0 {
            return 0.0;
        }
        let n = u128::from(self.n);
        // Whole part and remainder separately, so that huge sums keep their precision.
        (self.sum / n) as f64 + (self.sum % n) as f64 / n as f64
    }

    /// The sample standard deviation (divisor n − 1; 0 with fewer than two values).
    pub fn stddev(&self) -> f64 {
        if self.n < 2 {
            return 0.0;
        }
        let n = u128::from(self.n);
        // Σ(x − mean)² = Σx² − (Σx)²/n. With Σx = q·n + r: (Σx)²/n = q²·n + 2·q·r + r²/n,
        // all integers but the last term, so the difference is exact up to that fraction.
        let (q, r) = (self.sum / n, self.sum % n);
        let whole = q
            .checked_mul(q)
            .and_then(|qq| qq.checked_mul(n))
            .and_then(|a| a.checked_add(2 * q * r))
            .and_then(|b| self.sum_sq.checked_sub(b));
        let squares = match whole {
            Some(w) => w as f64 - (r * r) as f64 / n as f64,
            None => {
                let mean = self.mean();
                (self.sum_sq as f64 - mean * self.sum as f64).max(0.0)
            }
        };
        (squares.max(0.0) / (self.n - 1) as f64).sqrt()
    }

    /// Forgets every value.
    pub fn clear(&mut self) {
        *self = SumMoments::new();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two_pass(xs: &[u64]) -> (f64, f64) {
        let n = xs.len() as f64;
        let mean = xs.iter().map(|&x| x as f64).sum::<f64>() / n;
        let ss: f64 = xs.iter().map(|&x| (x as f64 - mean).powi(2)).sum();
        (mean, (ss / (n - 1.0)).sqrt())
    }

    #[test]
    fn record_n_equals_repeated_record() {
        let (mut once, mut each) = (SumMoments::new(), SumMoments::new());
        for (x, n) in [(7_000u64, 3u64), (1, 1), (u64::MAX, 2), (40, 0), (5, 32)] {
            once.record_n(x, n);
            (0..n).for_each(|_| each.record(x));
        }
        assert_eq!(once, each);
    }

    #[test]
    fn mean_and_stddev_match_a_two_pass_computation() {
        let mut x = 0x1234_5678u64;
        let mut xs = Vec::new();
        for _ in 0..10_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            xs.push(1_000_000_000 + x % 5_000);
        }
        let mut m = SumMoments::new();
        xs.iter().for_each(|&v| m.record(v));
        let (mean, sd) = two_pass(&xs);
        assert!((m.mean() - mean).abs() / mean < 1e-12);
        assert!((m.stddev() - sd).abs() / sd < 1e-9, "{} vs {sd}", m.stddev());
        assert_eq!(
            (m.min(), m.max(), m.count()),
            (xs.iter().min().copied(), xs.iter().max().copied(), 10_000)
        );
    }

    #[test]
    fn one_value_shifted_and_counted_once_as_recorded() {
        for (x, c) in [
            (0u64, 0u64),
            (3, 7_000),
            (1 << 40, 1 << 41),
            (u64::MAX, 5),
            (u64::MAX / 2, u64::MAX / 2),
        ] {
            let mut one = SumMoments::new();
            one.record(x);
            let (mut moved, mut general) = (SumMoments::new(), SumMoments::new());
            moved.record_n(x, 1);
            assert_eq!(moved, one);
            // The general formula, as two values' sums less the second one's would give.
            let n = 1u128;
            let (cc, xx) = (u128::from(c), u128::from(x));
            general.n = 1;
            general.min = x.saturating_add(c);
            general.max = x.saturating_add(c);
            general.sum = xx + n * cc;
            general.sum_sq = (xx * xx)
                .saturating_add((2 * cc).saturating_mul(xx))
                .saturating_add((cc * cc).saturating_mul(n));
            assert_eq!(one.shifted(c), general, "x {x} shift {c}");
        }
    }

    #[test]
    fn shifted_equals_recording_shifted_values() {
        for c in [0u64, 1, 7_000, 1 << 40] {
            let (mut base, mut moved) = (SumMoments::new(), SumMoments::new());
            assert_eq!(base.shifted(c), moved);
            for v in 0..500u64 {
                let x = v * v % 977 + 3;
                base.record(x);
                moved.record(x + c);
            }
            assert_eq!(base.shifted(c), moved, "shift {c}");
        }
    }

    #[test]
    fn merging_equals_recording_everything_in_one() {
        let (mut a, mut b, mut all) = (SumMoments::new(), SumMoments::new(), SumMoments::new());
        for v in 0..1000u64 {
            let x = v * v % 977 + 3;
            if v % 3 == 0 {
                a.record(x)
            } else {
                b.record(x)
            }
            all.record(x);
        }
        a.merge(&b);
        assert_eq!(a, all);
    }

    #[test]
    fn small_sets_and_constant_values() {
        let mut m = SumMoments::new();
        assert_eq!((m.mean(), m.stddev(), m.min()), (0.0, 0.0, None));
        m.record(5);
        assert_eq!((m.mean(), m.stddev()), (5.0, 0.0));
        m.record(5);
        m.record(5);
        assert_eq!(m.stddev(), 0.0);
        // Beyond the exact range the sums saturate: the result stays a finite number.
        let mut big = SumMoments::new();
        big.record(u64::MAX);
        big.record(u64::MAX - 2);
        assert!(big.stddev().is_finite() && big.stddev() >= 0.0);
        assert_eq!(big.max(), Some(u64::MAX));
        let mut same = SumMoments::new();
        same.record_n(u64::MAX, 1);
        same.record_n(u64::MAX - 2, 1);
        big.record(0);
        same.record_n(0, 1);
        assert_eq!(big, same, "recording one by one saturates as record_n does");
    }
}
