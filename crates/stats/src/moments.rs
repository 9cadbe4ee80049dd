//! [`Moments`]: count, minimum, maximum, mean and standard deviation of a stream of values,
//! kept in constant space.
//!
//! The bandwidth and IOPS samples use it (latencies use the division-free
//! [`SumMoments`](crate::sums::SumMoments) instead, being recorded on the I/O path). The mean
//! and the sum of squared deviations are updated by Welford's method, as fio does, so that a
//! long run of large, close values loses no precision; two sets are combined by the parallel
//! formula of Chan, Golub and LeVeque, as fio does for `group_reporting`.

/// Running count, min, max, mean and sample standard deviation.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Moments {
    n: u64,
    min: u64,
    max: u64,
    mean: f64,
    /// Sum of squared deviations from the mean (fio's `S`).
    m2: f64,
}

impl Default for Moments {
    fn default() -> Self {
        Self::new()
    }
}

impl Moments {
    /// No values yet.
    pub const fn new() -> Self {
        Moments { n: 0, min: u64::MAX, max: 0, mean: 0.0, m2: 0.0 }
    }

    /// `n` values with these extremes, this mean and this sum of squared deviations from
    /// it (fio's `io_stat`, as its server sends it).
    pub fn from_summary(n: u64, min: u64, max: u64, mean: f64, m2: f64) -> Self {
        if n == 0 {
            return Self::new();
        }
        Moments { n, min, max, mean, m2 }
    }

    /// Adds one value (Welford: `δ = x − mean; mean += δ/n; M2 += δ·(x − mean)`).
    #[inline]
    pub fn record(&mut self, x: u64) {
        self.n += 1;
        self.min = self.min.min(x);
        self.max = self.max.max(x);
        let xf = x as f64;
        let delta = xf - self.mean;
        self.mean += delta / self.n as f64;
        self.m2 += delta * (xf - self.mean);
    }

    /// Combines another set into this one, as if all values had been recorded here
    /// (Chan et al.: `δ = mean_b − mean_a`, `M2 = M2_a + M2_b + δ²·n_a·n_b/n`).
    pub fn merge(&mut self, other: &Moments) {
        if other.n == 0 {
            return;
        }
        if self.n == 0 {
            *self = *other;
            return;
        }
        let (na, nb) = (self.n as f64, other.n as f64);
        let n = na + nb;
        let delta = other.mean - self.mean;
        self.mean += delta * nb / n;
        self.m2 += other.m2 + delta * delta * na * nb / n;
        self.n += other.n;
        self.min = self.min.min(other.min);
        self.max = self.max.max(other.max);
    }

    /// fio's `group_reporting` rule for bandwidth and IOPS samples: jobs run side by side,
    /// so their rates add up. Count, min, max, mean and M2 are each summed (an empty side
    /// changes nothing). The deviation that results is fio's, not a statistic of any set.
    pub fn merge_sum(&mut self, other: &Moments) {
        if other.n == 0 {
            return;
        }
        if self.n == 0 {
            *self = *other;
            return;
        }
        self.n += other.n;
        self.min += other.min;
        self.max += other.max;
        self.mean += other.mean;
        self.m2 += other.m2;
    }

    /// Values recorded.
    pub fn count(&self) -> u64 {
        self.n
    }

    /// The smallest value, `None` when empty.
    pub fn min(&self) -> Option<u64> {
        (self.n > 0).then_some(self.min)
    }

    /// The largest value, `None` when empty.
    pub fn max(&self) -> Option<u64> {
        (self.n > 0).then_some(self.max)
    }

    /// The mean, 0 when empty.
    pub fn mean(&self) -> f64 {
        self.mean
    }

    /// The sample standard deviation `sqrt(M2 / (n − 1))`; 0 for fewer than two values,
    /// as fio prints.
    pub fn stddev(&self) -> f64 {
        if self.n > 1 {
            (self.m2 / (self.n - 1) as f64).sqrt()
        } else {
            0.0
        }
    }

    /// Forgets every value.
    pub fn clear(&mut self) {
        *self = Self::new();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two_pass(values: &[u64]) -> (f64, f64) {
        let n = values.len() as f64;
        let mean = values.iter().map(|&v| v as f64).sum::<f64>() / n;
        let ss = values.iter().map(|&v| (v as f64 - mean).powi(2)).sum::<f64>();
        (mean, (ss / (n - 1.0)).sqrt())
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-9 * b.abs().max(1.0)
    }

    fn values(seed: u64, n: usize) -> Vec<u64> {
        let mut x = seed;
        (0..n)
            .map(|_| {
                x = x
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                // Large, close values: where a naive sum of squares loses precision.
                1_000_000_000 + (x >> 40) % 100_000
            })
            .collect()
    }

    #[test]
    fn welford_matches_two_pass() {
        let v = values(1, 100_000);
        let mut m = Moments::new();
        v.iter().for_each(|&x| m.record(x));
        let (mean, sd) = two_pass(&v);
        assert!(close(m.mean(), mean) && close(m.stddev(), sd), "{m:?} vs {mean} {sd}");
        assert_eq!(m.min(), v.iter().min().copied());
        assert_eq!(m.max(), v.iter().max().copied());
        assert_eq!(m.count(), 100_000);
    }

    #[test]
    fn merge_matches_two_pass_over_the_union() {
        let (a, b) = (values(2, 30_000), values(3, 7_000));
        let b: Vec<u64> = b.iter().map(|x| x / 3).collect();
        let (mut ma, mut mb) = (Moments::new(), Moments::new());
        a.iter().for_each(|&x| ma.record(x));
        b.iter().for_each(|&x| mb.record(x));
        ma.merge(&mb);
        let all: Vec<u64> = a.iter().chain(&b).copied().collect();
        let (mean, sd) = two_pass(&all);
        assert!(close(ma.mean(), mean) && close(ma.stddev(), sd));
        assert_eq!(
            (ma.count(), ma.min(), ma.max()),
            (37_000, all.iter().min().copied(), all.iter().max().copied())
        );
    }

    #[test]
    fn merging_with_empty_changes_nothing() {
        let mut m = Moments::new();
        m.record(5);
        m.record(9);
        let before = m;
        m.merge(&Moments::new());
        m.merge_sum(&Moments::new());
        assert_eq!(m, before);
        let mut e = Moments::new();
        e.merge(&before);
        assert_eq!(e, before);
    }

    #[test]
    fn merge_sum_adds_rates_like_fio_group_reporting() {
        let (mut a, mut b) = (Moments::new(), Moments::new());
        [100, 110, 90].iter().for_each(|&x| a.record(x));
        [50, 60].iter().for_each(|&x| b.record(x));
        a.merge_sum(&b);
        assert_eq!((a.count(), a.min(), a.max()), (5, Some(140), Some(170)));
        assert!(close(a.mean(), 155.0));
        // M2: 200 + 50 = 250, over n - 1 = 4.
        assert!(close(a.stddev(), (250.0f64 / 4.0).sqrt()));
    }

    /// fio 3.33 with `group_reporting`, two null-engine jobs: one sampled 8192 and 8208 KiB/s,
    /// the other 2056 KiB/s; fio printed `min=10248, max=10264, avg=10256.00, stdev= 8.00,
    /// samples=3`.
    #[test]
    fn merge_sum_reproduces_a_fio_group_report() {
        let (mut a, mut b) = (Moments::new(), Moments::new());
        a.record(8192);
        a.record(8208);
        b.record(2056);
        a.merge_sum(&b);
        assert_eq!((a.min(), a.max(), a.count()), (Some(10248), Some(10264), 3));
        assert!(close(a.mean(), 10256.0) && close(a.stddev(), 8.0));
    }

    #[test]
    fn empty_and_single_value_report_zero_deviation() {
        let mut m = Moments::new();
        assert_eq!((m.min(), m.max(), m.mean(), m.stddev()), (None, None, 0.0, 0.0));
        m.record(42);
        assert_eq!((m.mean(), m.stddev()), (42.0, 0.0));
    }
}
