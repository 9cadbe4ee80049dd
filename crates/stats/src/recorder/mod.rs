//! [`JobRecorder`]: everything one job records while it runs, fed by the runner's single
//! completion point, and merged for `group_reporting`. What it keeps is set by its
//! [`RecorderConfig`] (`config.rs`); each latency and direction has its own recorder
//! (`lat.rs`).
//!
//! All memory is allocated by [`JobRecorder::new`]; the recording methods only add to
//! counters, [`crate::sums::SumMoments`] and [`crate::LatHistogram`]s, so the I/O path never allocates, locks or
//! makes a system call here. A recorder belongs to one job thread; merging happens after
//! the jobs have finished.

mod config;
mod lat;
mod prio;

pub use config::{RecorderConfig, SyncKind};
use lat::Keep;
pub use lat::{DirRecorder, LatRecorder};
pub use prio::PrioRecorder;

use crate::dist::{self, Buckets, LAT_BUCKETS, MAP_BUCKETS};
use crate::sampler::{RateSampler, RateUnit, SamplerError};
use crate::sums::SumMoments;
use iomark_core::Ddir;

/// [`dist::latency_bucket`] is below [`LAT_BUCKETS`], a power of two: masked with this,
/// the index needs no bounds check (the mask changes nothing).
const LAT_MASK: usize = LAT_BUCKETS - 1;
const _: () = assert!(LAT_BUCKETS.is_power_of_two());

/// Failed I/Os: fio's `total_err` and `first_error`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct ErrorCounts {
    /// How many I/Os failed.
    pub total: u64,
    /// The errno of the first, 0 if none.
    pub first: i32,
}

/// Everything one job records. See the module doc.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct JobRecorder {
    config: RecorderConfig,
    /// Per direction, what the I/O path records ([`Keep`]): the configuration's flags
    /// folded into one word, so a completion tests bits of one byte. Made by
    /// [`JobRecorder::new`] and [`JobRecorder::settle`].
    #[serde(default)]
    keep: [u8; 3],
    /// Reads, writes, trims.
    pub dirs: [DirRecorder; 3],
    /// `fsync`/`fdatasync`/`sync_file_range` calls: their latency (fio's `sync` section).
    pub sync: LatRecorder,
    /// How many of the syncs were `fdatasync`s or `sync_file_range`s: fio 3.33 counts
    /// them in the sync latency but not in the sync I/Os issued (JSON `sync.total_ios`,
    /// the fourth `issued rwts`).
    pub uncounted_syncs: u64,
    /// `fsync`s that failed: fio 3.33 counts them among the syncs issued (JSON
    /// `sync.total_ios`), though not in the sync latency.
    #[serde(default)]
    pub failed_fsyncs: u64,
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
    /// The job's blocks by state and trims (`block_error_percentiles`), set when it ends.
    #[serde(default)]
    pub lifetimes: Option<crate::lifetimes::BlockStates>,
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
        let keep = [0, 1, 2].map(|d| Keep::of(&config, &dirs[d], d));
        Ok(JobRecorder {
            config,
            keep,
            dirs,
            sync: LatRecorder::new(sync_hist),
            uncounted_syncs: 0,
            failed_fsyncs: 0,
            depth: Buckets::new(),
            submit: Buckets::new(),
            complete: Buckets::new(),
            latency: Buckets::new(),
            bw: RateSampler::new(RateUnit::KibPerSec, config.bw_avg_ms, start_ns)?,
            iops: RateSampler::new(RateUnit::PerSec, config.iops_avg_ms, start_ns)?,
            errors: ErrorCounts::default(),
            prios: None,
            lifetimes: None,
        })
    }

    /// Keeps the latency of each I/O priority apart, as [`PrioRecorder`] says: `listed`
    /// gives, for reads, writes and trims, the priorities their I/Os may have, each list
    /// the job's own first. Allocates, so call it before the first I/O. The latency kept
    /// is the total latency if `total_latency`, else the completion latency; when the job
    /// does not record that latency (`disable_lat`, `disable_clat`) nothing is kept.
    ///
    /// Every data I/O recorded with [`record_io`](Self::record_io) (or
    /// [`record_clat_n`](Self::record_clat_n)) must then be given to
    /// [`record_prio`](Self::record_prio) with the same latencies, and no other: that is
    /// what makes the priorities add up to their direction.
    pub fn track_prios(&mut self, listed: [Vec<u16>; 3], total_latency: bool) {
        let c = &self.config;
        let (kept, hist) =
            if total_latency { (c.lat, c.lat_percentiles) } else { (c.clat, c.clat_percentiles) };
        if kept && listed.iter().all(|l| !l.is_empty()) {
            let hists = c.dirs.map(|active| active && hist);
            self.prios = Some(PrioRecorder::new(listed, total_latency, hists));
        }
    }

    /// Records the latency of a data I/O of priority `ioprio` (0 for the job's own): its
    /// completion latency `clat_ns` or total latency `lat_ns`, whichever is kept.
    #[inline]
    pub fn record_prio(&mut self, dir: Ddir, ioprio: u16, clat_ns: u64, lat_ns: u64) {
        if let Some(p) = &mut self.prios {
            let ns = if p.total_latency { lat_ns } else { clat_ns };
            p.record(dir.index(), ioprio, ns);
        }
    }

    /// The configuration this recorder was made with.
    pub fn config(&self) -> &RecorderConfig {
        &self.config
    }

    /// Records one completed I/O of data direction `dir`: `bytes` transferred of
    /// `requested_bytes`, and its latencies in nanoseconds (`None` when not measured: slat
    /// on sync engines, or fio's `disable_slat`/`disable_clat`/`disable_lat`, which the
    /// configuration applies here too: a latency it does not keep is dropped). The latency
    /// buckets count clat, as fio.
    #[inline(always)]
    pub fn record_io(
        &mut self,
        dir: Ddir,
        bytes: u64,
        requested_bytes: u64,
        slat_ns: Option<u64>,
        clat_ns: Option<u64>,
        lat_ns: Option<u64>,
    ) {
        let keep = self.keep[dir.index()];
        let d = &mut self.dirs[dir.index()];
        d.count(bytes, requested_bytes);
        if let Some(ns) = slat_ns.filter(|_| keep & Keep::SLAT != 0) {
            d.slat.record(ns);
        }
        if let Some(ns) = clat_ns.filter(|_| keep & Keep::CLAT != 0) {
            d.clat.record(ns);
            self.latency.add(dist::latency_bucket(ns) & LAT_MASK, 1);
        }
        if let Some(ns) = lat_ns.filter(|_| keep & Keep::LAT != 0) {
            d.lat.record(ns);
        }
    }

    /// Records the completion latency `ns` of `count` I/Os of direction `dir` at once,
    /// as `count` calls of [`JobRecorder::record_io`] with that clat would have (which
    /// were then given no clat). A batch of I/Os submitted together and reaped together
    /// shares one clat: recording it once per batch is the same statistics for less work.
    #[inline]
    pub fn record_clat_n(&mut self, dir: Ddir, ns: u64, count: u64) {
        if self.config.clat {
            self.dirs[dir.index()].clat.record_n(ns, count);
            self.latency.add(dist::latency_bucket(ns), count);
        }
    }

    /// Records one reaped data I/O of direction `dir`, as [`record_io`](Self::record_io)
    /// with no clat would, but for the moments of its slat and lat: those go with its run
    /// of equal clat, which [`record_run`](Self::record_run) records at once. Only the
    /// histograms of slat and lat (`slat_percentiles`, `lat_percentiles`) take each value
    /// here.
    #[inline(always)]
    pub fn record_reaped(
        &mut self,
        dir: Ddir,
        bytes: u64,
        requested_bytes: u64,
        slat_ns: u64,
        lat_ns: u64,
    ) {
        let keep = self.keep[dir.index()];
        let d = &mut self.dirs[dir.index()];
        d.count(bytes, requested_bytes);
        if keep & Keep::REAPED_HISTS != 0 {
            d.reaped_hists(keep, slat_ns, lat_ns);
        }
    }

    /// Records a run of reaped I/Os of direction `dir` (each given to
    /// [`record_reaped`](Self::record_reaped)) that share the completion latency `clat_ns`:
    /// `slats` holds their submission latencies. Their total latencies are those shifted
    /// by `clat_ns` (lat = slat + clat for every I/O), so the statistics are exactly what
    /// [`record_io`](Self::record_io) for each would have given.
    #[inline]
    pub fn record_run(&mut self, dir: Ddir, clat_ns: u64, slats: &SumMoments) {
        self.record_clat_n(dir, clat_ns, slats.count());
        let keep = self.keep[dir.index()];
        let d = &mut self.dirs[dir.index()];
        if keep & Keep::SLAT != 0 {
            d.slat.moments.merge(slats);
        }
        if keep & Keep::LAT != 0 {
            d.lat.moments.merge(&slats.shifted(clat_ns));
        }
    }

    /// Records the completion latency `ns` of an I/O of direction `dir` already counted by
    /// [`record_io`](Self::record_io) without one, and leaves the latency buckets alone:
    /// fio's metadata engines (`filecreate`…) time each file's operation so.
    pub fn record_clat_alone(&mut self, dir: Ddir, ns: u64) {
        if self.config.clat {
            self.dirs[dir.index()].clat.record(ns);
        }
    }

    /// Ends recording: fills in lat for the directions whose lat is their clat (see
    /// [`RecorderConfig::lat_is_clat`]), then the job's own priority's share of each
    /// direction ([`PrioRecorder`]). Call it after the last I/O and before reading or
    /// merging the recorder (an interim report settles a copy); a second call changes
    /// nothing.
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
        let (config, dirs) = (&self.config, &self.dirs);
        self.keep = [0, 1, 2].map(|d| Keep::of(config, &dirs[d], d));
        if let Some(p) = &mut self.prios {
            let shares = p.settle(&self.dirs);
            debug_assert!(shares.is_ok(), "priorities recorded apart from their direction");
        }
    }

    /// Records the corrected latency of one completed I/O (see
    /// [`RecorderConfig::corrected`]); nothing when the job does not keep it.
    #[inline]
    pub fn record_corrected(&mut self, dir: Ddir, ns: u64) {
        if let Some(c) = &mut self.dirs[dir.index()].lat_corrected {
            c.record(ns);
        }
    }

    /// Records an I/O of direction `dir` (`None` for a sync) that failed with `errno`: it
    /// counts as issued (fio's `total_ios`), with no bytes and no latency, and in the error
    /// count.
    #[inline]
    pub fn record_error(&mut self, dir: Option<Ddir>, errno: i32) {
        if let Some(dir) = dir {
            self.dirs[dir.index()].ios += 1;
        }
        if self.errors.total == 0 {
            self.errors.first = errno;
        }
        self.errors.total += 1;
    }

    /// Records an I/O that was dropped (fio's `dropped=` count).
    #[inline]
    pub fn record_drop(&mut self, dir: Ddir) {
        self.dirs[dir.index()].dropped += 1;
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

    /// The first time at which [`tick`](Self::tick) does more than compare: before it, a
    /// caller may leave `tick` out.
    #[inline]
    pub fn next_tick_ns(&self) -> u64 {
        self.bw.due_ns().min(self.iops.due_ns())
    }

    /// Forgets everything recorded and restarts the sample windows at `now_ns` (the end
    /// of `ramp_time`). Keeps every allocation.
    pub fn clear(&mut self, now_ns: u64) {
        self.dirs.iter_mut().for_each(DirRecorder::clear);
        self.sync.clear();
        self.uncounted_syncs = 0;
        self.failed_fsyncs = 0;
        self.depth.clear();
        self.submit.clear();
        self.complete.clear();
        self.latency.clear();
        self.bw.clear();
        self.iops.clear();
        self.errors = ErrorCounts::default();
        if let Some(p) = &mut self.prios {
            p.clear();
        }
        self.bw.restart(now_ns, [0; 3]);
        self.iops.restart(now_ns, [0; 3]);
    }

    /// Adds another job's recording, for `group_reporting` (and later for hosts): counts
    /// and histograms add exactly, latency moments combine by the parallel formula, and
    /// bandwidth/IOPS samples add up as fio does ([`RateSampler::merge`]). Both recorders
    /// must be settled ([`settle`](Self::settle)).
    pub fn merge(&mut self, other: &JobRecorder) {
        self.merge_prios(other);
        for (a, b) in self.dirs.iter_mut().zip(other.dirs.iter()) {
            a.merge(b);
        }
        self.sync.merge(&other.sync);
        self.uncounted_syncs += other.uncounted_syncs;
        self.failed_fsyncs += other.failed_fsyncs;
        self.depth.merge(&other.depth);
        self.submit.merge(&other.submit);
        self.complete.merge(&other.complete);
        self.latency.merge(&other.latency);
        self.bw.merge(&other.bw);
        self.iops.merge(&other.iops);
        if self.errors.total == 0 {
            self.errors.first = other.errors.first;
        }
        self.errors.total += other.errors.total;
        match (&mut self.lifetimes, &other.lifetimes) {
            (Some(mine), Some(theirs)) => mine.merge(theirs),
            (mine @ None, Some(theirs)) => *mine = Some(theirs.clone()),
            _ => {}
        }
        for d in 0..3 {
            self.config.dirs[d] |= other.config.dirs[d];
        }
    }

    /// The priorities of `other` merged into this recorder's, before the directions merge.
    /// Where one side kept none, all its I/Os count under its own priority
    /// ([`RecorderConfig::own_prio`]); so do the other's where the two kept different
    /// latencies (one with `lat_percentiles`, one without), this recorder's kind winning.
    /// Either way every priority's histogram stays a share of its direction's.
    fn merge_prios(&mut self, other: &JobRecorder) {
        let total_latency = match (&self.prios, &other.prios) {
            (None, None) => return,
            (Some(p), _) | (None, Some(p)) => p.total_latency,
        };
        let (own, dirs) = (self.config.own_prio, &self.dirs);
        let mine = self.prios.get_or_insert_with(|| PrioRecorder::whole(own, dirs, total_latency));
        match &other.prios {
            Some(theirs) if theirs.total_latency == total_latency => mine.merge(theirs),
            _ => {
                mine.merge(&PrioRecorder::whole(other.config.own_prio, &other.dirs, total_latency))
            }
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
mod tests;
