//! The latency table and verdict of fio 3.33's `act` profile (the Aerospike Certification
//! Tool's): for each slice of the run, the share of the I/Os whose latency falls in each
//! band (over 1 ms, over 8 ms, over 64 ms), and PASSED when no slice has more than 5 %,
//! 1 % and 0.1 % of its I/Os in those bands.
//!
//! What fio 3.33 does, established by running it with latencies made exact (its reads and
//! writes answered after fixed sleeps, at real-time priority):
//!
//! - the bands do not add up: an I/O of 10 ms counts under 8 ms only, not under 1 ms too
//!   (its "over 1 ms" column is the share from 1 to 8 ms), and each column is judged on its
//!   own (4.47 % + 0.89 % + 0.10 % passes);
//! - latencies are compared in whole microseconds: 8 000.392 µs is not over 8 ms;
//! - the share is of all the I/Os of the slice, reads and large-block writes alike;
//! - each share is compared to its limit strictly (0.10 % over 64 ms passes, 1.09 % over
//!   8 ms fails), and the limits do not depend on `load`;
//! - the preparation's I/Os (`prep`) are not counted: its table is all zeros, and it passes.
//!
//! iomark counts from the jobs' completion-latency histograms, whose buckets are within
//! 0.1 % of the values they hold: an I/O within that distance of a bound may be counted on
//! its other side (docs/workloads.md). fio prints the same figures under `trans` and
//! `device`; so does iomark.

use serde::{Deserialize, Serialize};

/// The lower bounds of the table's bands, in milliseconds.
pub const BOUNDS_MS: [u64; 3] = [1, 8, 64];

/// The share of a slice's I/Os in each band above which the device fails, in percent.
pub const LIMITS_PCT: [f64; 3] = [5.0, 1.0, 0.1];

/// The I/Os recorded up to some point of an ACT run: how many, and how many in each band.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ActCounts {
    /// I/Os completed.
    pub ios: u64,
    /// Of those, how many took over 1 ms and at most 8 ms, over 8 ms and at most 64 ms,
    /// and over 64 ms (in whole microseconds).
    pub bands: [u64; 3],
}

/// The band of a latency of `ns` nanoseconds, if it is over 1 ms in whole microseconds.
pub fn band_of(ns: u64) -> Option<usize> {
    let us = ns / 1000;
    BOUNDS_MS.iter().rposition(|&ms| us > ms * 1000)
}

impl ActCounts {
    /// The I/Os of completion latency histograms, each given as its count and its bins
    /// (`(value, count)`: [`LatStats`](crate::report::LatStats)' `n` and `bins`).
    pub fn of_clats<'a>(clats: impl Iterator<Item = (u64, &'a [(u64, u64)])>) -> ActCounts {
        let mut counts = ActCounts::default();
        for (n, bins) in clats {
            counts.ios += n;
            for &(value, count) in bins {
                if let Some(band) = band_of(value) {
                    counts.bands[band] += count;
                }
            }
        }
        counts
    }

    /// What was recorded after `before` (an earlier snapshot of the same run).
    pub fn since(self, before: ActCounts) -> ActCounts {
        ActCounts {
            ios: self.ios.saturating_sub(before.ios),
            bands: std::array::from_fn(|i| self.bands[i].saturating_sub(before.bands[i])),
        }
    }
}

/// One row of the table: a slice's I/Os and the share of them in each band.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ActSlice {
    /// The slice's number, from 1.
    pub slice: u32,
    /// The I/Os of the slice.
    pub ios: u64,
    /// The share of them in each band ([`BOUNDS_MS`]), in percent (0 without I/Os).
    pub pct: [f64; 3],
}

/// The table and verdict of an ACT run.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ActReport {
    /// The slices, in order.
    pub slices: Vec<ActSlice>,
    /// Whether no slice has a band over its limit ([`LIMITS_PCT`]).
    pub passed: bool,
}

impl ActReport {
    /// Judges the slices whose I/Os are `slices` (each slice's own, not cumulative).
    pub fn judge(slices: &[ActCounts]) -> ActReport {
        let slices: Vec<ActSlice> = slices
            .iter()
            .zip(1..)
            .map(|(c, slice)| ActSlice {
                slice,
                ios: c.ios,
                pct: c
                    .bands
                    .map(|n| if c.ios == 0 { 0.0 } else { n as f64 * 100.0 / c.ios as f64 }),
            })
            .collect();
        let passed =
            slices.iter().all(|s| s.pct.iter().zip(LIMITS_PCT).all(|(&pct, limit)| pct <= limit));
        ActReport { slices, passed }
    }

    /// The verdict's word, as fio prints it.
    pub fn verdict(&self) -> &'static str {
        if self.passed {
            "PASSED"
        } else {
            "FAILED"
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(ios: u64, bands: [u64; 3]) -> ActCounts {
        ActCounts { ios, bands }
    }

    #[test]
    fn bands_are_whole_microseconds_over_each_bound() {
        assert_eq!(band_of(999_999), None);
        assert_eq!(band_of(1_000_999), None);
        assert_eq!(band_of(1_001_000), Some(0));
        assert_eq!(band_of(8_000_392), Some(0));
        assert_eq!(band_of(8_001_000), Some(1));
        assert_eq!(band_of(64_000_999), Some(1));
        assert_eq!(band_of(64_001_000), Some(2));
        assert_eq!(band_of(u64::MAX), Some(2));
    }

    /// The settings fio 3.33 passed and failed (module documentation), each band on its own.
    #[test]
    fn each_band_is_judged_on_its_own_against_its_limit() {
        let judge = |bands: [u64; 3]| ActReport::judge(&[counts(10_000, bands)]).passed;
        assert!(judge([500, 100, 10]), "5 %, 1 %, 0.1 % exactly pass");
        assert!(!judge([501, 0, 0]));
        assert!(!judge([0, 101, 0]));
        assert!(!judge([0, 0, 11]));
        assert!(judge([447, 89, 10]), "4.47 % + 0.89 % + 0.10 % passes");
        assert!(ActReport::judge(&[counts(0, [0; 3])]).passed, "no I/O passes");
        let two = ActReport::judge(&[counts(100, [1, 0, 0]), counts(100, [0, 2, 0])]);
        assert!(!two.passed, "one failing slice fails the device");
        assert_eq!(two.slices[1].slice, 2);
        assert_eq!(two.slices[1].pct, [0.0, 2.0, 0.0]);
        assert_eq!(two.verdict(), "FAILED");
    }

    #[test]
    fn counts_come_from_the_completion_histograms() {
        let reads: (u64, &[(u64, u64)]) = (6, &[(500, 3), (2_000_000, 2), (70_000_000, 1)]);
        let writes: (u64, &[(u64, u64)]) = (2, &[(9_000_000, 2)]);
        let all = ActCounts::of_clats([reads, writes, reads, writes].into_iter());
        assert_eq!(all, counts(16, [4, 4, 2]));
        assert_eq!(all.since(counts(10, [1, 4, 0])), counts(6, [3, 0, 2]));
    }
}
