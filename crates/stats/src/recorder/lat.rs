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

impl DirRecorder {
    /// Counts one completed I/O: `bytes` transferred of `requested_bytes`.
    #[inline(always)]
    pub(crate) fn count(&mut self, bytes: u64, requested_bytes: u64) {
        self.bytes += bytes;
        self.ios += 1;
        if bytes < requested_bytes {
            self.short += 1;
        }
    }

    /// The slat and lat histograms of a reaped I/O ([`Keep::REAPED_HISTS`]), out of the
    /// way of the I/O path that has none (`slat_percentiles`, `lat_percentiles` off).
    #[cold]
    #[inline(never)]
    pub(crate) fn reaped_hists(&mut self, keep: u8, slat_ns: u64, lat_ns: u64) {
        if let Some(h) = self.slat.hist.as_mut().filter(|_| keep & Keep::SLAT != 0) {
            h.record(slat_ns);
        }
        if let Some(h) = self.lat.hist.as_mut().filter(|_| keep & Keep::LAT != 0) {
            h.record(lat_ns);
        }
    }
}

/// What the I/O path records for one direction, as the bits of one byte (the
/// configuration's flags and which histograms exist, folded once).
pub(crate) struct Keep;

impl Keep {
    /// Submission latency (`slat`, not `disable_slat`).
    pub(crate) const SLAT: u8 = 1;
    /// Completion latency (not `disable_clat`).
    pub(crate) const CLAT: u8 = 2;
    /// Total latency, recorded apart from clat (not `disable_lat`, and not
    /// [`RecorderConfig::lat_is_clat`]).
    pub(crate) const LAT: u8 = 4;
    /// A slat or lat histogram that a reaped I/O records into.
    pub(crate) const REAPED_HISTS: u8 = 8;

    /// The bits of direction `d`, whose recorder is `dir`, under `cfg`.
    pub(crate) fn of(cfg: &RecorderConfig, dir: &DirRecorder, d: usize) -> u8 {
        let lat = cfg.lat && !cfg.lat_is_clat[d];
        let hists = (cfg.slat && dir.slat.hist.is_some()) || (lat && dir.lat.hist.is_some());
        [
            (cfg.slat, Keep::SLAT),
            (cfg.clat, Keep::CLAT),
            (lat, Keep::LAT),
            (hists, Keep::REAPED_HISTS),
        ]
        .iter()
        .filter(|(on, _)| *on)
        .fold(0, |bits, (_, bit)| bits | bit)
    }
}
