//! The recorders below a job's: one latency kind ([`LatRecorder`]) and one direction
//! ([`DirRecorder`]).

use super::config::RecorderConfig;
use crate::hist::LatHistogram;
use crate::sums::SumMoments;

/// One latency kind: its moments, and its histogram when percentiles are wanted.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct LatRecorder {
    /// Count, min, max, mean, deviation.
    pub moments: SumMoments,
    /// The histogram, if this latency's percentiles are reported.
    pub hist: Option<LatHistogram>,
}

impl LatRecorder {
    pub(crate) fn new(with_hist: bool) -> Self {
        LatRecorder { moments: SumMoments::new(), hist: with_hist.then(LatHistogram::new) }
    }

    /// Records one latency.
    #[inline]
    pub fn record(&mut self, ns: u64) {
        self.moments.record(ns);
        if let Some(h) = &mut self.hist {
            h.record(ns);
        }
    }

    /// Records `count` equal latencies at once.
    #[inline]
    pub fn record_n(&mut self, ns: u64, count: u64) {
        self.moments.record_n(ns, count);
        if let Some(h) = &mut self.hist {
            h.record_n(ns, count);
        }
    }

    /// Merges another recorder; a histogram only the other side has is copied (merging
    /// runs after the jobs, where allocating is fine).
    pub fn merge(&mut self, other: &LatRecorder) {
        self.moments.merge(&other.moments);
        match (&mut self.hist, &other.hist) {
            (Some(mine), Some(theirs)) => mine.merge(theirs),
            (None, Some(theirs)) => self.hist = Some(theirs.clone()),
            _ => {}
        }
    }

    pub(crate) fn clear(&mut self) {
        self.moments.clear();
        if let Some(h) = &mut self.hist {
            h.clear();
        }
    }

    pub(crate) fn heap_bytes(&self) -> usize {
        self.hist.as_ref().map_or(0, LatHistogram::heap_bytes)
    }
}

/// What one direction of a job recorded.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct DirRecorder {
    /// Bytes transferred.
    pub bytes: u64,
    /// I/Os completed.
    pub ios: u64,
    /// I/Os that transferred less than requested.
    pub short: u64,
    /// I/Os dropped.
    pub dropped: u64,
    /// Submission latency.
    pub slat: LatRecorder,
    /// Completion latency.
    pub clat: LatRecorder,
    /// Total latency.
    pub lat: LatRecorder,
    /// Latency from the intended start (see [`RecorderConfig::corrected`]); `None` when the
    /// job is not rate-limited.
    pub lat_corrected: Option<LatRecorder>,
}

impl DirRecorder {
    pub(crate) fn new(cfg: &RecorderConfig, active: bool) -> Self {
        DirRecorder {
            bytes: 0,
            ios: 0,
            short: 0,
            dropped: 0,
            slat: LatRecorder::new(active && cfg.slat && cfg.slat_percentiles),
            clat: LatRecorder::new(active && cfg.clat && cfg.clat_percentiles),
            lat: LatRecorder::new(active && cfg.lat && cfg.lat_percentiles),
            lat_corrected: cfg
                .corrected
                .then(|| LatRecorder::new(active && (cfg.clat_percentiles || cfg.lat_percentiles))),
        }
    }

    /// Adds another recording: counts add, latencies merge exactly ([`LatRecorder::merge`]).
    /// Used for `group_reporting` and for fio's `mixed` direction.
    pub fn merge(&mut self, other: &DirRecorder) {
        self.bytes += other.bytes;
        self.ios += other.ios;
        self.short += other.short;
        self.dropped += other.dropped;
        self.slat.merge(&other.slat);
        self.clat.merge(&other.clat);
        self.lat.merge(&other.lat);
        match (&mut self.lat_corrected, &other.lat_corrected) {
            (Some(mine), Some(theirs)) => mine.merge(theirs),
            (None, Some(theirs)) => self.lat_corrected = Some(theirs.clone()),
            _ => {}
        }
    }

    pub(crate) fn clear(&mut self) {
        (self.bytes, self.ios, self.short, self.dropped) = (0, 0, 0, 0);
        self.slat.clear();
        self.clat.clear();
        self.lat.clear();
        if let Some(c) = &mut self.lat_corrected {
            c.clear();
        }
    }
}
