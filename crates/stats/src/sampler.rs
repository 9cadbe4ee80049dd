//! [`RateSampler`]: the periodic bandwidth and IOPS samples behind fio's `bw (KiB/s)` and
//! `iops` lines (`bwavgtime`/`iopsavgtime`, default 500 ms).
//!
//! fio 3.33's rule, which this follows exactly:
//!
//! - One sampling window per job, shared by its three directions. A check at time `t`
//!   computes `spent`, the whole milliseconds since the window began (truncated), and
//!   takes samples when `spent >= window − 1` (fio allows 1 ms of slack).
//! - For each direction that moved `delta > 0` bytes (or I/Os) since the last sample:
//!   `rate = delta · 1000 / spent / 1024` KiB/s for bandwidth, `delta · 1000 / spent` for
//!   IOPS, in integer arithmetic (truncating; 0 if `spent` is 0). It divides by the
//!   *actual* elapsed time, not the nominal window. A direction that did nothing in the
//!   window gets no sample (not a zero).
//! - The next window starts at `t` (not at the nominal boundary).
//! - A run shorter than one window has no samples; the partial window at the end of a job
//!   is never sampled. fio's 30 000 ms runs show `samples=59`.
//!
//! Only the running [`Moments`] of the samples are kept: no per-sample storage.

use crate::moments::Moments;

/// What a [`RateSampler`] measures, and so how a rate is scaled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum RateUnit {
    /// Bytes in, KiB/s out.
    KibPerSec,
    /// I/Os in, I/Os per second out.
    PerSec,
}

/// Why a sampler could not be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SamplerError {
    /// The window (`bwavgtime`/`iopsavgtime`) was 0 ms.
    ZeroWindow,
}

impl std::fmt::Display for SamplerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SamplerError::ZeroWindow => write!(f, "the averaging window must be at least 1 ms"),
        }
    }
}

impl std::error::Error for SamplerError {}

const NS_PER_MS: u64 = 1_000_000;

/// Samples a rate per direction every window; see the module doc for fio's exact rule.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RateSampler {
    unit: RateUnit,
    window_ms: u64,
    start_ns: u64,
    /// The first time at which `spent >= window − 1`: a tick before it is one comparison.
    due_ns: u64,
    last: [u64; 3],
    stats: [Moments; 3],
}

impl RateSampler {
    /// A sampler with a window of `window_ms`, whose first window starts at `start_ns`
    /// with all totals at 0.
    pub fn new(unit: RateUnit, window_ms: u64, start_ns: u64) -> Result<Self, SamplerError> {
        if window_ms == 0 {
            return Err(SamplerError::ZeroWindow);
        }
        let mut s = RateSampler {
            unit,
            window_ms,
            start_ns,
            due_ns: 0,
            last: [0; 3],
            stats: [Moments::new(); 3],
        };
        s.restart(start_ns, [0; 3]);
        Ok(s)
    }

    /// Starts a new window at `now_ns` from the given totals, keeping the samples taken so
    /// far (the runner calls it when `ramp_time` ends, after clearing).
    pub fn restart(&mut self, now_ns: u64, totals: [u64; 3]) {
        self.start_ns = now_ns;
        self.due_ns = now_ns.saturating_add((self.window_ms - 1) * NS_PER_MS);
        self.last = totals;
    }

    /// Called from the job's loop with the current time and the running totals (bytes or
    /// I/Os completed, per direction). Takes samples when a window has passed; returns
    /// whether it did. Never allocates.
    #[inline]
    pub fn tick(&mut self, now_ns: u64, totals: [u64; 3]) -> bool {
        if !self.is_due(now_ns) {
            return false;
        }
        self.sample(now_ns, totals);
        true
    }

    /// The first time at which a [`tick`](Self::tick) takes samples.
    #[inline]
    pub fn due_ns(&self) -> u64 {
        self.due_ns
    }

    /// True when a [`tick`](Self::tick) at `now_ns` would take samples, so that a caller
    /// can gather the totals only then.
    #[inline]
    pub fn is_due(&self, now_ns: u64) -> bool {
        now_ns >= self.due_ns
    }

    fn sample(&mut self, now_ns: u64, totals: [u64; 3]) {
        let spent = (now_ns - self.start_ns) / NS_PER_MS;
        for ((stats, &total), &last) in self.stats.iter_mut().zip(&totals).zip(&self.last) {
            let delta = total.wrapping_sub(last);
            if delta == 0 {
                continue;
            }
            let rate = if spent == 0 {
                0
            } else {
                let per_sec = u128::from(delta) * 1000 / u128::from(spent);
                let scaled = match self.unit {
                    RateUnit::KibPerSec => per_sec / 1024,
                    RateUnit::PerSec => per_sec,
                };
                u64::try_from(scaled).unwrap_or(u64::MAX)
            };
            stats.record(rate);
        }
        self.restart(now_ns, totals);
    }

    /// The samples of one direction (0 read, 1 write, 2 trim).
    pub fn stats(&self, dir: usize) -> &Moments {
        &self.stats[dir]
    }

    /// Sets what direction `dir` sampled to `stats` (a recording rebuilt from another
    /// tool's figures).
    pub fn set_stats(&mut self, dir: usize, stats: Moments) {
        self.stats[dir] = stats;
    }

    /// Adds another job's samples by fio's `group_reporting` rule ([`Moments::merge_sum`]).
    pub fn merge(&mut self, other: &RateSampler) {
        for (a, b) in self.stats.iter_mut().zip(other.stats.iter()) {
            a.merge_sum(b);
        }
    }

    /// Forgets every sample (the window is left as it is).
    pub fn clear(&mut self) {
        self.stats = [Moments::new(); 3];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = NS_PER_MS;

    #[test]
    fn a_run_shorter_than_one_window_has_no_samples() {
        let mut s = RateSampler::new(RateUnit::KibPerSec, 500, 0).unwrap();
        assert!(!s.tick(400 * MS, [1 << 20, 0, 0]));
        assert!(!s.tick(498 * MS + MS - 1, [2 << 20, 0, 0]));
        assert_eq!(s.stats(0).count(), 0);
    }

    #[test]
    fn a_sample_divides_by_the_actual_elapsed_milliseconds() {
        let mut s = RateSampler::new(RateUnit::KibPerSec, 500, 0).unwrap();
        // 499 ms is enough (1 ms of slack); 10 MiB over 499 ms.
        assert!(s.tick(499 * MS + 700_000, [10 << 20, 0, 0]));
        assert_eq!(s.stats(0).max(), Some((10u64 << 20) * 1000 / 499 / 1024));
        // The next window starts at the sample time, not at 500 ms.
        assert!(!s.tick(998 * MS, [20 << 20, 0, 0]));
        assert!(s.tick(999 * MS, [20 << 20, 0, 0]));
        assert_eq!(s.stats(0).count(), 2);
    }

    #[test]
    fn late_checks_give_lower_rates_not_extra_samples() {
        let mut s = RateSampler::new(RateUnit::PerSec, 500, 0).unwrap();
        assert!(s.tick(1_000 * MS, [0, 1000, 0]));
        assert_eq!((s.stats(1).count(), s.stats(1).mean()), (1, 1000.0));
    }

    #[test]
    fn an_idle_direction_gets_no_sample() {
        let mut s = RateSampler::new(RateUnit::PerSec, 100, 5 * MS).unwrap();
        s.tick(105 * MS, [10, 0, 0]);
        s.tick(205 * MS, [10, 7, 0]);
        assert_eq!(s.stats(0).count(), 1);
        assert_eq!(s.stats(1).count(), 1);
        assert_eq!(s.stats(2).count(), 0);
        // The idle window's bytes were not carried into the next one.
        assert_eq!(s.stats(1).mean(), 70.0);
    }

    #[test]
    fn restart_rebases_the_window_and_the_totals() {
        let mut s = RateSampler::new(RateUnit::PerSec, 500, 0).unwrap();
        s.restart(2_000 * MS, [300, 0, 0]);
        assert!(!s.tick(2_400 * MS, [400, 0, 0]));
        assert!(s.tick(2_500 * MS, [800, 0, 0]));
        assert_eq!(s.stats(0).mean(), 1000.0);
    }

    #[test]
    fn a_zero_window_is_refused() {
        assert_eq!(RateSampler::new(RateUnit::PerSec, 0, 0), Err(SamplerError::ZeroWindow));
    }

    #[test]
    fn merge_sums_rates() {
        let mut a = RateSampler::new(RateUnit::PerSec, 500, 0).unwrap();
        let mut b = a.clone();
        a.tick(500 * MS, [500, 0, 0]);
        b.tick(500 * MS, [250, 0, 0]);
        a.merge(&b);
        assert_eq!((a.stats(0).count(), a.stats(0).mean()), (2, 1500.0));
    }
}
