//! [`JobRecorder`]: everything one job records while it runs, fed by the runner's single
//! completion point, and merged for `group_reporting`.
//!
//! All memory is allocated by [`JobRecorder::new`]; the recording methods only add to
//! counters, [`SumMoments`] and [`LatHistogram`]s, so the I/O path never allocates, locks or
//! makes a system call here. A recorder belongs to one job thread; merging happens after
//! the jobs have finished.

use crate::dist::{self, Buckets, LAT_BUCKETS, MAP_BUCKETS};
use crate::hist::LatHistogram;
use crate::sampler::{RateSampler, RateUnit, SamplerError};
use crate::sums::SumMoments;

/// A data direction, in fio's order. Its value indexes every per-direction array.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dir {
    /// Reads.
    Read = 0,
    /// Writes.
    Write = 1,
    /// Trims.
    Trim = 2,
}

impl Dir {
    /// All three, in order.
    pub const ALL: [Dir; 3] = [Dir::Read, Dir::Write, Dir::Trim];
}

/// The kind of a sync I/O, which decides how fio 3.33 counts it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SyncKind {
    /// `fsync=N`: in the sync latency and in the syncs issued.
    Fsync,
    /// `fdatasync=N`: in the sync latency only (fio 3.33 also adds it to the short
    /// reads, its count of syncs spilling into the next count; iomark does not).
    Fdatasync,
    /// `sync_file_range`: in the sync latency only (fio 3.33 also adds it to the short
    /// writes, likewise; iomark does not).
    FileRange,
}

/// Which statistics a job keeps; decides what [`JobRecorder::new`] allocates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecorderConfig {
    /// The directions the job performs (from `rw`); histograms exist only for these.
    pub dirs: [bool; 3],
    /// Whether the engine measures a separate submission latency (async engines). Sync
    /// engines have none, and fio prints no slat line for them. fio's `disable_slat`
    /// turns it off for any engine.
    pub slat: bool,
    /// Whether completion latency is recorded (off with fio's `disable_clat`): then the
    /// clat figures stay empty, and so do the latency buckets, which count clat.
    pub clat: bool,
    /// Whether total latency is recorded (off with fio's `disable_lat`).
    pub lat: bool,
    /// fio's `clat_percentiles` (default on): a clat histogram per direction.
    pub clat_percentiles: bool,
    /// fio's `lat_percentiles` (default off): a lat histogram per direction.
    pub lat_percentiles: bool,
    /// fio's `slat_percentiles` (default off): a slat histogram per direction, if `slat`.
    pub slat_percentiles: bool,
    /// Whether the job issues `fsync`/`fdatasync`/`sync_file_range` I/Os; their latency
    /// histogram exists when this and clat or lat percentiles are on, as fio reports it.
    pub syncs: bool,
    /// fio's `bwavgtime`, in milliseconds (default 500).
    pub bw_avg_ms: u64,
    /// fio's `iopsavgtime`, in milliseconds (default 500).
    pub iops_avg_ms: u64,
    /// Directions whose every I/O has lat equal to clat (reads and trims on a synchronous
    /// engine, which start and issue an I/O at one clock reading): their lat is not
    /// recorded apart but copied from clat by [`JobRecorder::settle`], which saves the
    /// I/O path a second set of sums. Ignored unless both `clat` and `lat` are kept.
    pub lat_is_clat: [bool; 3],
    /// Whether the job is rate-limited and records its latency corrected for coordinated
    /// omission: from each I/O's intended start (when its schedule said it was due) to its
    /// completion ([`DirRecorder::lat_corrected`]).
    pub corrected: bool,
}

impl Default for RecorderConfig {
    /// A read-only sync-engine job with fio's defaults.
    fn default() -> Self {
        RecorderConfig {
            dirs: [true, false, false],
            slat: false,
            clat: true,
            lat: true,
            clat_percentiles: true,
            lat_percentiles: false,
            slat_percentiles: false,
            syncs: false,
            bw_avg_ms: 500,
            iops_avg_ms: 500,
            lat_is_clat: [false; 3],
            corrected: false,
        }
    }
}

/// One latency kind: its moments, and its histogram when percentiles are wanted.
#[derive(Debug, Clone, PartialEq)]
pub struct LatRecorder {
    /// Count, min, max, mean, deviation.
    pub moments: SumMoments,
    /// The histogram, if this latency's percentiles are reported.
    pub hist: Option<LatHistogram>,
}

impl LatRecorder {
    fn new(with_hist: bool) -> Self {
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

    fn clear(&mut self) {
        self.moments.clear();
        if let Some(h) = &mut self.hist {
            h.clear();
        }
    }

    fn heap_bytes(&self) -> usize {
        self.hist.as_ref().map_or(0, |_| LatHistogram::HEAP_BYTES)
    }
}

/// What one direction of a job recorded.
#[derive(Debug, Clone, PartialEq)]
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
    fn new(cfg: &RecorderConfig, active: bool) -> Self {
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

    fn clear(&mut self) {
        (self.bytes, self.ios, self.short, self.dropped) = (0, 0, 0, 0);
        self.slat.clear();
        self.clat.clear();
        self.lat.clear();
        if let Some(c) = &mut self.lat_corrected {
            c.clear();
        }
    }
}

/// Latency per I/O priority (fio's statistics for `cmdprio_percentage` and kin): for each
/// direction and each priority an I/O may have, the completion latency (the total latency
/// with `lat_percentiles`, as fio 3.33 chooses).
#[derive(Debug, Clone, PartialEq)]
pub struct PrioRecorder {
    /// The priorities (`ioprio_set(2)` values), the job's own first.
    pub values: Vec<u16>,
    /// Reads, writes, trims: one recorder per priority, in the order of `values`.
    pub dirs: [Vec<LatRecorder>; 3],
    /// Whether the latency is the total latency rather than the completion latency.
    pub total_latency: bool,
}

impl PrioRecorder {
    fn merge(&mut self, other: &PrioRecorder) {
        for (i, v) in other.values.iter().enumerate() {
            let at = match self.values.iter().position(|x| x == v) {
                Some(at) => at,
                None => {
                    self.values.push(*v);
                    for d in &mut self.dirs {
                        d.push(LatRecorder::new(false));
                    }
                    self.values.len() - 1
                }
            };
            for d in 0..3 {
                if let (Some(mine), Some(theirs)) = (self.dirs[d].get_mut(at), other.dirs[d].get(i))
                {
                    mine.merge(theirs);
                }
            }
        }
    }
}

/// Failed I/Os: fio's `total_err` and `first_error`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ErrorCounts {
    /// How many I/Os failed.
    pub total: u64,
    /// The errno of the first, 0 if none.
    pub first: i32,
}

/// Everything one job records. See the module doc.
#[derive(Debug, Clone, PartialEq)]
pub struct JobRecorder {
    config: RecorderConfig,
    /// Reads, writes, trims.
    pub dirs: [DirRecorder; 3],
    /// `fsync`/`fdatasync`/`sync_file_range` calls: their latency (fio's `sync` section).
    pub sync: LatRecorder,
    /// How many of the syncs were `fdatasync`s or `sync_file_range`s: fio 3.33 counts
    /// them in the sync latency but not in the sync I/Os issued (JSON `sync.total_ios`,
    /// the fourth `issued rwts`).
    pub uncounted_syncs: u64,
    /// I/Os per issue depth ([`dist::depth_bucket`]).
    pub depth: Buckets<MAP_BUCKETS>,
    /// Submit calls per batch size ([`dist::batch_bucket`]).
    pub submit: Buckets<MAP_BUCKETS>,
    /// Reap calls per batch size ([`dist::batch_bucket`]).
    pub complete: Buckets<MAP_BUCKETS>,
    /// I/Os per completion-latency bucket ([`dist::latency_bucket`]).
    pub latency: Buckets<LAT_BUCKETS>,
    /// Bandwidth samples, KiB/s.
    pub bw: RateSampler,
    /// IOPS samples.
    pub iops: RateSampler,
    /// Failed I/Os.
    pub errors: ErrorCounts,
    /// Latency per I/O priority, when the job gives I/Os priorities of their own.
    pub prios: Option<PrioRecorder>,
}

impl JobRecorder {
    /// A recorder for one job whose clock starts at `start_ns`; allocates every histogram
    /// the configuration asks for, and nothing after this.
    pub fn new(mut config: RecorderConfig, start_ns: u64) -> Result<Self, SamplerError> {
        if !(config.clat && config.lat) {
            config.lat_is_clat = [false; 3];
        }
        let dirs = [0, 1, 2].map(|d| DirRecorder::new(&config, config.dirs[d]));
        let sync_hist = config.syncs && (config.clat_percentiles || config.lat_percentiles);
        Ok(JobRecorder {
            config,
            dirs,
            sync: LatRecorder::new(sync_hist),
            uncounted_syncs: 0,
            depth: Buckets::new(),
            submit: Buckets::new(),
            complete: Buckets::new(),
            latency: Buckets::new(),
            bw: RateSampler::new(RateUnit::KibPerSec, config.bw_avg_ms, start_ns)?,
            iops: RateSampler::new(RateUnit::PerSec, config.iops_avg_ms, start_ns)?,
            errors: ErrorCounts::default(),
            prios: None,
        })
    }

    /// Keeps the latency of each I/O priority in `values` (the job's own first) apart, as
    /// [`PrioRecorder`] says; allocates, so call it before the first I/O.
    pub fn track_prios(&mut self, values: &[u16], total_latency: bool) {
        let c = &self.config;
        let hist = if total_latency { c.lat_percentiles } else { c.clat_percentiles };
        let dirs = [0, 1, 2].map(|d| {
            values.iter().map(|_| LatRecorder::new(hist && c.dirs[d])).collect::<Vec<_>>()
        });
        self.prios = Some(PrioRecorder { values: values.to_vec(), dirs, total_latency });
    }

    /// Records the latency of a data I/O of priority `ioprio` (0 for the job's own): its
    /// completion latency `clat_ns` or total latency `lat_ns`, whichever is kept.
    #[inline]
    pub fn record_prio(&mut self, dir: Dir, ioprio: u16, clat_ns: u64, lat_ns: u64) {
        if let Some(p) = &mut self.prios {
            let at = p.values.iter().position(|&v| v == ioprio).unwrap_or(0);
            let ns = if p.total_latency { lat_ns } else { clat_ns };
            if let Some(rec) = p.dirs[dir as usize].get_mut(at) {
                rec.record(ns);
            }
        }
    }

    /// The configuration this recorder was made with.
    pub fn config(&self) -> &RecorderConfig {
        &self.config
    }

    /// Records one completed I/O: `bytes` transferred of `requested_bytes`, and its
    /// latencies in nanoseconds (`None` when not measured: slat on sync engines, or fio's
    /// `disable_slat`/`disable_clat`/`disable_lat`, which the configuration applies here
    /// too: a latency it does not keep is dropped). The latency buckets count clat, as fio.
    #[inline(always)]
    pub fn record_io(
        &mut self,
        dir: Dir,
        bytes: u64,
        requested_bytes: u64,
        slat_ns: Option<u64>,
        clat_ns: Option<u64>,
        lat_ns: Option<u64>,
    ) {
        let d = &mut self.dirs[dir as usize];
        d.bytes += bytes;
        d.ios += 1;
        if bytes < requested_bytes {
            d.short += 1;
        }
        if let Some(ns) = slat_ns.filter(|_| self.config.slat) {
            d.slat.record(ns);
        }
        if let Some(ns) = clat_ns.filter(|_| self.config.clat) {
            d.clat.record(ns);
            self.latency.add(dist::latency_bucket(ns), 1);
        }
        if let Some(ns) = lat_ns.filter(|_| self.config.lat) {
            if !self.config.lat_is_clat[dir as usize] {
                d.lat.record(ns);
            }
        }
    }

    /// Records the completion latency `ns` of `count` I/Os of direction `dir` at once,
    /// as `count` calls of [`JobRecorder::record_io`] with that clat would have (which
    /// were then given no clat). A batch of I/Os submitted together and reaped together
    /// shares one clat: recording it once per batch is the same statistics for less work.
    #[inline]
    pub fn record_clat_n(&mut self, dir: Dir, ns: u64, count: u64) {
        if self.config.clat {
            self.dirs[dir as usize].clat.record_n(ns, count);
            self.latency.add(dist::latency_bucket(ns), count);
        }
    }

    /// Ends recording: fills in lat for the directions whose lat is their clat (see
    /// [`RecorderConfig::lat_is_clat`]). Call once, after the last I/O and before reading
    /// or merging the recorder.
    pub fn settle(&mut self) {
        for (d, mirrored) in self.config.lat_is_clat.iter_mut().enumerate() {
            if std::mem::take(mirrored) {
                let dir = &mut self.dirs[d];
                dir.lat.moments = dir.clat.moments;
                if dir.lat.hist.is_some() {
                    dir.lat.hist = dir.clat.hist.clone();
                }
            }
        }
    }

    /// Records the corrected latency of one completed I/O (see
    /// [`RecorderConfig::corrected`]); nothing when the job does not keep it.
    #[inline]
    pub fn record_corrected(&mut self, dir: Dir, ns: u64) {
        if let Some(c) = &mut self.dirs[dir as usize].lat_corrected {
            c.record(ns);
        }
    }

    /// Records an I/O of direction `dir` (`None` for a sync) that failed with `errno`: it
    /// counts as issued (fio's `total_ios`), with no bytes and no latency, and in the error
    /// count.
    #[inline]
    pub fn record_error(&mut self, dir: Option<Dir>, errno: i32) {
        if let Some(dir) = dir {
            self.dirs[dir as usize].ios += 1;
        }
        if self.errors.total == 0 {
            self.errors.first = errno;
        }
        self.errors.total += 1;
    }

    /// Records an I/O that was dropped (fio's `dropped=` count).
    #[inline]
    pub fn record_drop(&mut self, dir: Dir) {
        self.dirs[dir as usize].dropped += 1;
    }

    /// Records one completed sync and its latency, counted as fio 3.33 counts its
    /// [`SyncKind`]: only an `fsync` counts as a sync issued.
    #[inline]
    pub fn record_sync(&mut self, lat_ns: u64, kind: SyncKind) {
        self.sync.record(lat_ns);
        self.uncounted_syncs += u64::from(kind != SyncKind::Fsync);
    }

    /// Records `ios` I/Os issued while `depth` I/Os were in flight (them included). fio
    /// calls it with 1 for an I/O an engine completes at once, and with the number of
    /// queued I/Os at each commit.
    #[inline]
    pub fn record_depth(&mut self, depth: u32, ios: u32) {
        self.depth.add(dist::depth_bucket(depth), u64::from(ios));
    }

    /// Records one submit call that handed `ios` I/Os to the kernel.
    #[inline]
    pub fn record_submit(&mut self, ios: u32) {
        self.submit.add(dist::batch_bucket(ios), 1);
    }

    /// Records one reap call that returned `ios` completions.
    #[inline]
    pub fn record_complete(&mut self, ios: u32) {
        self.complete.add(dist::batch_bucket(ios), 1);
    }

    /// Called from the job's loop: takes bandwidth and IOPS samples when their windows
    /// have passed (see [`RateSampler`]). One comparison per sampler otherwise.
    #[inline]
    pub fn tick(&mut self, now_ns: u64) {
        if self.bw.is_due(now_ns) {
            let bytes = [0, 1, 2].map(|d| self.dirs[d].bytes);
            self.bw.tick(now_ns, bytes);
        }
        if self.iops.is_due(now_ns) {
            let ios = [0, 1, 2].map(|d| self.dirs[d].ios);
            self.iops.tick(now_ns, ios);
        }
    }

    /// Forgets everything recorded and restarts the sample windows at `now_ns` (the end
    /// of `ramp_time`). Keeps every allocation.
    pub fn clear(&mut self, now_ns: u64) {
        self.dirs.iter_mut().for_each(DirRecorder::clear);
        self.sync.clear();
        self.uncounted_syncs = 0;
        self.depth.clear();
        self.submit.clear();
        self.complete.clear();
        self.latency.clear();
        self.bw.clear();
        self.iops.clear();
        self.errors = ErrorCounts::default();
        if let Some(p) = &mut self.prios {
            p.dirs.iter_mut().flatten().for_each(LatRecorder::clear);
        }
        self.bw.restart(now_ns, [0; 3]);
        self.iops.restart(now_ns, [0; 3]);
    }

    /// Adds another job's recording, for `group_reporting` (and later for hosts): counts
    /// and histograms add exactly, latency moments combine by the parallel formula, and
    /// bandwidth/IOPS samples add up as fio does ([`RateSampler::merge`]).
    pub fn merge(&mut self, other: &JobRecorder) {
        for (a, b) in self.dirs.iter_mut().zip(other.dirs.iter()) {
            a.merge(b);
        }
        self.sync.merge(&other.sync);
        self.uncounted_syncs += other.uncounted_syncs;
        self.depth.merge(&other.depth);
        self.submit.merge(&other.submit);
        self.complete.merge(&other.complete);
        self.latency.merge(&other.latency);
        self.bw.merge(&other.bw);
        self.iops.merge(&other.iops);
        if self.errors.total == 0 {
            self.errors.first = other.errors.first;
        }
        match (&mut self.prios, &other.prios) {
            (Some(mine), Some(theirs)) => mine.merge(theirs),
            (None, Some(theirs)) => self.prios = Some(theirs.clone()),
            _ => {}
        }
        self.errors.total += other.errors.total;
        for d in 0..3 {
            self.config.dirs[d] |= other.config.dirs[d];
        }
    }

    /// Heap bytes held by this recorder's histograms (everything else is inline).
    pub fn heap_bytes(&self) -> usize {
        let dirs: usize = self
            .dirs
            .iter()
            .map(|d| {
                let corrected = d.lat_corrected.as_ref().map_or(0, LatRecorder::heap_bytes);
                d.slat.heap_bytes() + d.clat.heap_bytes() + d.lat.heap_bytes() + corrected
            })
            .sum();
        dirs + self.sync.heap_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rw_config() -> RecorderConfig {
        RecorderConfig { dirs: [true, true, false], slat: true, ..RecorderConfig::default() }
    }

    #[test]
    fn only_the_histograms_asked_for_are_allocated() {
        let r = JobRecorder::new(RecorderConfig::default(), 0).unwrap();
        assert!(r.dirs[0].clat.hist.is_some());
        assert!(r.dirs[1].clat.hist.is_none() && r.dirs[0].lat.hist.is_none());
        assert!(r.dirs[0].slat.hist.is_none() && r.sync.hist.is_none());
        // A one-direction job with fio's defaults needs less than fio's 148 480 bytes.
        assert_eq!(r.heap_bytes(), LatHistogram::HEAP_BYTES);
        assert!(r.heap_bytes() < 148_480);

        let all = RecorderConfig {
            dirs: [true; 3],
            slat: true,
            slat_percentiles: true,
            lat_percentiles: true,
            syncs: true,
            ..RecorderConfig::default()
        };
        assert_eq!(JobRecorder::new(all, 0).unwrap().heap_bytes(), 10 * LatHistogram::HEAP_BYTES);
    }

    #[test]
    fn record_io_counts_bytes_shorts_and_latencies() {
        let mut r = JobRecorder::new(rw_config(), 0).unwrap();
        r.record_io(Dir::Write, 4096, 4096, Some(900), Some(4_500), Some(5_400));
        r.record_io(Dir::Write, 1024, 4096, Some(1_100), Some(3_000), Some(4_100));
        r.record_drop(Dir::Read);
        let w = &r.dirs[1];
        assert_eq!((w.bytes, w.ios, w.short, w.dropped), (5120, 2, 1, 0));
        assert_eq!(r.dirs[0].dropped, 1);
        assert_eq!(w.slat.moments.mean(), 1_000.0);
        assert_eq!(w.clat.hist.as_ref().map(|h| h.count()), Some(2));
        assert_eq!(w.lat.moments.max(), Some(5_400));
        // Latency buckets count clat: 4.5 µs → µs "10", 3 µs → µs "4".
        assert_eq!((r.latency.counts()[12], r.latency.counts()[11]), (1, 1));
    }

    #[test]
    fn a_clat_run_records_as_its_ios_one_by_one() {
        let (mut runs, mut each) =
            (JobRecorder::new(rw_config(), 0).unwrap(), JobRecorder::new(rw_config(), 0).unwrap());
        for (ns, n) in [(4_500, 3), (900_000, 1), (4_500, 2)] {
            for _ in 0..n {
                runs.record_io(Dir::Write, 4096, 4096, Some(10), None, Some(ns + 10));
                each.record_io(Dir::Write, 4096, 4096, Some(10), Some(ns), Some(ns + 10));
            }
            runs.record_clat_n(Dir::Write, ns, n);
        }
        assert_eq!(runs, each);
    }

    #[test]
    fn corrected_latency_is_kept_only_when_asked_for() {
        let mut plain = JobRecorder::new(RecorderConfig::default(), 0).unwrap();
        plain.record_corrected(Dir::Read, 5);
        assert!(plain.dirs.iter().all(|d| d.lat_corrected.is_none()));
        let config = RecorderConfig { corrected: true, ..RecorderConfig::default() };
        let mut r = JobRecorder::new(config, 0).unwrap();
        r.record_corrected(Dir::Read, 7_000);
        r.record_corrected(Dir::Read, 9_000);
        let c = r.dirs[0].lat_corrected.as_ref().unwrap();
        assert_eq!((c.moments.count(), c.moments.max()), (2, Some(9_000)));
        assert_eq!(c.hist.as_ref().map(|h| h.count()), Some(2));
        // Directions the job does not perform keep sums but no histogram.
        assert!(r.dirs[1].lat_corrected.as_ref().is_some_and(|c| c.hist.is_none()));
        let mut merged = JobRecorder::new(RecorderConfig::default(), 0).unwrap();
        merged.merge(&r);
        assert_eq!(merged.dirs[0].lat_corrected.as_ref().map(|c| c.moments.count()), Some(2));
        r.clear(1);
        assert_eq!(r.dirs[0].lat_corrected.as_ref().map(|c| c.moments.count()), Some(0));
    }

    #[test]
    fn disabled_latencies_are_not_recorded() {
        let config = RecorderConfig {
            clat: false,
            lat_is_clat: [true; 3],
            lat_percentiles: true,
            ..RecorderConfig::default()
        };
        let mut r = JobRecorder::new(config, 0).unwrap();
        r.record_io(Dir::Read, 4096, 4096, Some(1), Some(2_000), Some(3_000));
        r.settle();
        let d = &r.dirs[0];
        assert_eq!((d.ios, d.slat.moments.count(), d.clat.moments.count()), (1, 0, 0));
        assert!(d.clat.hist.is_none());
        // lat is recorded for itself, not copied from the clat that was not kept.
        assert_eq!(d.lat.moments.max(), Some(3_000));
        assert_eq!(r.latency.counts().iter().sum::<u64>(), 0);

        let config = RecorderConfig { lat: false, slat: true, ..RecorderConfig::default() };
        let mut r = JobRecorder::new(config, 0).unwrap();
        r.record_io(Dir::Read, 4096, 4096, Some(1), Some(2_000), Some(3_000));
        let d = &r.dirs[0];
        assert_eq!(
            (d.slat.moments.count(), d.clat.moments.count(), d.lat.moments.count()),
            (1, 1, 0)
        );
    }

    #[test]
    fn failed_ios_count_as_issued_and_as_errors() {
        let mut a = JobRecorder::new(rw_config(), 0).unwrap();
        a.record_error(Some(Dir::Write), 28);
        a.record_error(None, 5);
        a.record_io(Dir::Write, 4096, 4096, Some(1), Some(2), Some(3));
        assert_eq!((a.dirs[1].ios, a.dirs[1].bytes, a.dirs[1].clat.moments.count()), (2, 4096, 1));
        assert_eq!(a.errors, ErrorCounts { total: 2, first: 28 });
        let mut b = JobRecorder::new(rw_config(), 0).unwrap();
        b.record_error(Some(Dir::Read), 5);
        b.merge(&a);
        assert_eq!(b.errors, ErrorCounts { total: 3, first: 5 });
        a.clear(0);
        assert_eq!(a.errors, ErrorCounts::default());
    }

    #[test]
    fn latencies_are_kept_per_priority_and_merged_by_priority() {
        let mut a = JobRecorder::new(RecorderConfig::default(), 0).unwrap();
        a.track_prios(&[0, 8192], false);
        a.record_prio(Dir::Read, 0, 100, 150);
        a.record_prio(Dir::Read, 8192, 50, 70);
        a.record_prio(Dir::Read, 8192, 60, 80);
        let p = a.prios.as_ref().unwrap();
        assert_eq!((p.dirs[0][0].moments.count(), p.dirs[0][1].moments.count()), (1, 2));
        assert_eq!(p.dirs[0][1].moments.max(), Some(60));
        assert!(p.dirs[0][0].hist.is_some() && p.dirs[1][0].hist.is_none());
        let mut b = JobRecorder::new(RecorderConfig::default(), 0).unwrap();
        b.track_prios(&[16384, 0], true);
        b.record_prio(Dir::Read, 16384, 1, 2);
        a.merge(&b);
        let p = a.prios.as_ref().unwrap();
        assert_eq!(p.values, [0, 8192, 16384]);
        assert_eq!(p.dirs[0][2].moments.max(), Some(2));
    }

    #[test]
    fn depth_submit_and_complete_are_bucketed() {
        let mut r = JobRecorder::new(RecorderConfig::default(), 0).unwrap();
        r.record_depth(1, 1);
        r.record_depth(4, 3);
        r.record_submit(3);
        r.record_complete(0);
        r.record_complete(70);
        assert_eq!(r.depth.counts(), &[1, 0, 3, 0, 0, 0, 0]);
        assert_eq!(r.submit.counts()[1], 1);
        assert_eq!((r.complete.counts()[0], r.complete.counts()[6]), (1, 1));
    }

    #[test]
    fn tick_samples_from_the_recorded_totals() {
        let mut r = JobRecorder::new(RecorderConfig::default(), 0).unwrap();
        for _ in 0..100 {
            r.record_io(Dir::Read, 4096, 4096, None, Some(1_000), Some(1_000));
        }
        r.tick(100_000_000);
        r.tick(500_000_000);
        assert_eq!(r.bw.stats(0).mean(), (409_600 * 1000 / 500 / 1024) as f64);
        assert_eq!(r.iops.stats(0).mean(), 200.0);
    }

    #[test]
    fn clear_forgets_everything_and_restarts_windows() {
        let mut r = JobRecorder::new(rw_config(), 0).unwrap();
        r.record_io(Dir::Read, 10, 10, Some(1), Some(2), Some(3));
        r.record_sync(5, SyncKind::Fsync);
        r.record_sync(6, SyncKind::FileRange);
        r.tick(600_000_000);
        r.clear(1_000_000_000);
        let fresh = {
            let mut f = JobRecorder::new(rw_config(), 0).unwrap();
            f.bw.restart(1_000_000_000, [0; 3]);
            f.iops.restart(1_000_000_000, [0; 3]);
            f
        };
        assert_eq!(r, fresh);
    }

    #[test]
    fn merge_is_exact_for_counts_and_histograms() {
        let (mut a, mut b, mut both) = (
            JobRecorder::new(rw_config(), 0).unwrap(),
            JobRecorder::new(rw_config(), 0).unwrap(),
            JobRecorder::new(rw_config(), 0).unwrap(),
        );
        for i in 0..1000u64 {
            let (r, dir) = if i % 3 == 0 { (&mut a, Dir::Read) } else { (&mut b, Dir::Write) };
            let t = (Some(i), Some(i * 37 + 5), Some(i * 38 + 5));
            r.record_io(dir, 4096, 4096, t.0, t.1, t.2);
            both.record_io(dir, 4096, 4096, t.0, t.1, t.2);
            r.record_depth(1, 1);
            both.record_depth(1, 1);
        }
        a.merge(&b);
        for d in 0..3 {
            assert_eq!(a.dirs[d].clat.hist, both.dirs[d].clat.hist);
            assert_eq!((a.dirs[d].bytes, a.dirs[d].ios), (both.dirs[d].bytes, both.dirs[d].ios));
            assert_eq!(a.dirs[d].clat.moments.count(), both.dirs[d].clat.moments.count());
        }
        assert_eq!((a.depth, a.latency), (both.depth, both.latency));
    }

    #[test]
    fn merge_copies_a_histogram_only_the_other_side_has() {
        let mut a = JobRecorder::new(RecorderConfig::default(), 0).unwrap();
        let mut b = JobRecorder::new(
            RecorderConfig { dirs: [false, true, false], ..RecorderConfig::default() },
            0,
        )
        .unwrap();
        b.record_io(Dir::Write, 1, 1, None, Some(77), Some(80));
        a.merge(&b);
        assert_eq!(a.dirs[1].clat.hist.as_ref().map(|h| h.count()), Some(1));
        assert_eq!(a.config().dirs, [true, true, false]);
    }
}
