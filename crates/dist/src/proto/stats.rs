//! A job's statistics as fio 3.33's server sends them (`TS`: its `thread_stat`, 183 888
//! bytes, then its group's `group_run_stats`, 164, and 4 bytes of padding) and a group's
//! alone (`GS`). The fio client computes every figure it prints from these: the counts,
//! the sums behind means and deviations, and the latency histograms in fio's 1856 bins,
//! into which iomark's finer histograms fold exactly (`iomark_stats::log::fio_hist`).
//!
//! The offsets were read off captures of `fio --server` (jobs with known counts and
//! latencies): names and numbers first, then the `io_stat`s (max, min, samples, mean,
//! sum of squared deviations; 56 bytes each), CPU usage, the percentile list, the depth
//! and latency-bucket counts, the histograms, totals, runtimes, errors and the latency
//! target.

use super::messages::Le;
use iomark_runner::RawJob;
use iomark_stats::log::fio_hist::{fio_bin, FIO_HIST_BINS};
use iomark_stats::report::{GroupReport, JobReport, LatStats, SampleStats};

/// Bytes of a job's statistics without its group's.
pub(crate) const THREAD_STAT: usize = 183_888;
/// Bytes of a group's statistics.
const GROUP_STAT: usize = 164;
/// Bytes of a `TS` payload without priorities.
pub const TS_BYTES: usize = THREAD_STAT + GROUP_STAT + 4;
/// Bytes of one priority's statistics (fio's `clat_prio_stat`), which follow the `TS`
/// payload, reads' first, then writes' and trims': the priority's bins, its `io_stat`,
/// its `ioprio` value and 4 bytes of padding.
pub(crate) const PRIO_STAT: usize = 8 * FIO_HIST_BINS + 56 + 8;
/// Where in a priority's statistics its `io_stat` starts.
pub(crate) const PRIO_IO_STAT: usize = 8 * FIO_HIST_BINS;

/// Where each block of `thread_stat` starts.
pub(crate) mod at {
    pub(crate) const NAME: usize = 0;
    pub(crate) const VERROR: usize = 128;
    pub(crate) const ERROR: usize = 256;
    pub(crate) const NUMBER: usize = 260;
    pub(crate) const GROUP: usize = 264;
    pub(crate) const PID: usize = 268;
    pub(crate) const DESCRIPTION: usize = 272;
    pub(crate) const MEMBERS: usize = 528;
    pub(crate) const UNIFIED: usize = 532;
    pub(crate) const NO_PRIO_STAT: usize = 536;
    pub(crate) const SYNC: usize = 544;
    pub(crate) const CLAT: usize = 600;
    pub(crate) const SLAT: usize = 768;
    pub(crate) const LAT: usize = 936;
    pub(crate) const BW: usize = 1104;
    pub(crate) const IOPS: usize = 1272;
    pub(crate) const USR: usize = 1440;
    pub(crate) const CLAT_PCT: usize = 1480;
    pub(crate) const PCT_LIST: usize = 1504;
    pub(crate) const MAP: usize = 1824;
    pub(crate) const LAT_BUCKETS: usize = 1992;
    pub(crate) const PLAT: usize = 2248;
    pub(crate) const SYNC_PLAT: usize = 135_880;
    pub(crate) const TOTAL_IO: usize = 150_728;
    pub(crate) const SHORT: usize = 150_760;
    pub(crate) const DROP: usize = 150_784;
    pub(crate) const TOTAL_SUBMIT: usize = 150_808;
    pub(crate) const IO_BYTES: usize = 150_824;
    pub(crate) const RUNTIME: usize = 150_848;
    pub(crate) const TOTAL_RUN: usize = 150_872;
    pub(crate) const FIRST_ERROR: usize = 150_884;
    pub(crate) const TOTAL_ERR: usize = 150_888;
    pub(crate) const KB_BASE: usize = 183_680;
    pub(crate) const LAT_TARGET: usize = 183_688;
    pub(crate) const SIG_FIGS: usize = 183_728;
    /// Per direction (u64): where in the payload its priorities' statistics start.
    pub(crate) const PRIO_AT: usize = 183_832;
    /// Per direction (u32): how many priorities it has (0: none kept).
    pub(crate) const NR_PRIO: usize = 183_856;
}

/// An `io_stat`: max, min, samples, mean and the sum of squared deviations, from what
/// the report holds (nothing recorded: max 0, min all ones, as fio).
fn io_stat(p: &mut Le, at: usize, n: u64, min: u64, max: u64, mean: f64, stddev: f64) {
    p.u64(at, if n == 0 { 0 } else { max });
    p.u64(at + 8, if n == 0 { u64::MAX } else { min });
    p.u64(at + 16, n);
    p.f64(at + 24, if n == 0 { 0.0 } else { mean });
    let s = if n > 1 { stddev * stddev * (n - 1) as f64 } else { 0.0 };
    p.f64(at + 40, s);
}

fn lat_stat(p: &mut Le, at: usize, l: &LatStats) {
    io_stat(p, at, l.n, l.min, l.max, l.mean, l.stddev);
}

fn sample_stat(p: &mut Le, at: usize, s: &SampleStats) {
    io_stat(p, at, s.samples, s.min, s.max, s.mean, s.stddev);
}

/// Adds a latency's bins (iomark's buckets by value) into fio's bins at `at`.
fn plat(p: &mut Le, at: usize, l: &LatStats) {
    let mut bins = vec![0u64; FIO_HIST_BINS];
    for &(value, count) in l.bins.iter().flatten() {
        bins[fio_bin(value)] += count;
    }
    for (i, c) in bins.into_iter().enumerate().filter(|(_, c)| *c > 0) {
        p.u64(at + 8 * i, c);
    }
}

/// The `TS` payload of `job` (numbered `number` from 1), reduced from `raw`, in `group`.
pub fn thread_stat(number: u32, job: &JobReport, raw: &RawJob, group: &GroupReport) -> Vec<u8> {
    let mut p = Le::zeros(TS_BYTES);
    p.str(at::NAME, 128, &job.name);
    p.str(at::VERROR, 128, &job.error_text);
    p.u32(at::ERROR, job.error as u32);
    p.u32(at::NUMBER, number);
    p.u32(at::GROUP, job.groupid);
    p.u32(at::PID, job.pid);
    p.str(at::DESCRIPTION, 256, job.description.as_deref().unwrap_or(""));
    p.u32(at::MEMBERS, job.jobs);
    p.u32(at::UNIFIED, job.unified_rw as u32);
    p.u32(at::NO_PRIO_STAT, 1);
    lat_stat(&mut p, at::SYNC, &job.sync.lat);
    for (d, dir) in job.dirs.iter().enumerate() {
        lat_stat(&mut p, at::CLAT + 56 * d, &dir.clat);
        lat_stat(&mut p, at::SLAT + 56 * d, &dir.slat);
        lat_stat(&mut p, at::LAT + 56 * d, &dir.lat);
        sample_stat(&mut p, at::BW + 56 * d, &dir.bw_samples);
        sample_stat(&mut p, at::IOPS + 56 * d, &dir.iops_samples);
        // Histograms: slat, clat, lat, each per direction.
        for (k, l) in [&dir.slat, &dir.clat, &dir.lat].into_iter().enumerate() {
            plat(&mut p, at::PLAT + 8 * FIO_HIST_BINS * (3 * k + d), l);
        }
        p.u64(at::TOTAL_IO + 8 * d, dir.total_ios);
        p.u64(at::SHORT + 8 * d, dir.short_ios);
        p.u64(at::DROP + 8 * d, dir.drop_ios);
        p.u64(at::IO_BYTES + 8 * d, dir.io_bytes);
        p.u64(at::RUNTIME + 8 * d, dir.runtime_ms);
    }
    plat(&mut p, at::SYNC_PLAT, &job.sync.lat);
    p.u64(at::TOTAL_IO + 24, job.sync.total_ios);
    let ms = |ns: u64| ns / 1_000_000;
    p.u64(at::USR, ms(raw.times.usr_ns));
    p.u64(at::USR + 8, ms(raw.times.sys_ns));
    p.u64(at::USR + 16, job.ctx);
    p.u64(at::USR + 24, job.minf);
    p.u64(at::USR + 32, job.majf);
    let has_bins = |f: fn(&iomark_stats::report::DirReport) -> &LatStats| {
        job.dirs.iter().any(|d| f(d).percentiles.is_some())
    };
    p.u32(at::CLAT_PCT, u32::from(has_bins(|d| &d.clat)));
    p.u32(at::CLAT_PCT + 4, u32::from(has_bins(|d| &d.lat)));
    p.u32(at::CLAT_PCT + 8, u32::from(has_bins(|d| &d.slat)));
    p.u64(at::CLAT_PCT + 16, 2);
    for (i, &pct) in job.percentile_list.iter().take(20).enumerate() {
        p.f64(at::PCT_LIST + 16 * i, pct);
    }
    let rec = &raw.recorder;
    for (k, counts) in
        [rec.depth.counts(), rec.submit.counts(), rec.complete.counts()].into_iter().enumerate()
    {
        for (i, &c) in counts.iter().enumerate() {
            p.u64(at::MAP + 56 * k + 8 * i, c);
        }
    }
    for (i, &c) in rec.latency.counts().iter().enumerate() {
        p.u64(at::LAT_BUCKETS + 8 * i, c);
    }
    p.u64(at::TOTAL_SUBMIT, rec.submit.total());
    p.u64(at::TOTAL_SUBMIT + 8, rec.complete.total());
    p.u64(at::TOTAL_RUN, raw.times.total_run_ms);
    if let Some(e) = &job.errors {
        p.u32(at::FIRST_ERROR, e.first_error as u32);
        p.u64(at::TOTAL_ERR, e.total_err);
    }
    p.u32(at::KB_BASE, 1024);
    p.u32(at::KB_BASE + 4, 4);
    p.u32(at::LAT_TARGET, job.latency_target.depth);
    p.u64(at::LAT_TARGET + 8, job.latency_target.target);
    p.f64(at::LAT_TARGET + 16, job.latency_target.percentile);
    p.u64(at::LAT_TARGET + 32, job.latency_target.window);
    p.u32(at::SIG_FIGS, 4);
    p.0[THREAD_STAT..THREAD_STAT + GROUP_STAT].copy_from_slice(&group_stat(group));
    prio_stats(&mut p, job);
    p.0
}

/// The priorities' statistics of `job`, when its directions keep them (`cmdprio_*`),
/// after the payload as fio 3.33's server sends them (learned from a capture of its `TS`
/// with `cmdprio_percentage`): each direction's offset and count in `thread_stat`, then
/// per priority its bins, its `io_stat` and its value.
fn prio_stats(p: &mut Le, job: &JobReport) {
    if job.dirs.iter().all(|d| d.prios.is_empty()) {
        return;
    }
    p.u32(at::NO_PRIO_STAT, 0);
    for (d, dir) in job.dirs.iter().enumerate().filter(|(_, d)| !d.prios.is_empty()) {
        p.u64(at::PRIO_AT + 8 * d, p.0.len() as u64);
        p.u32(at::NR_PRIO + 4 * d, dir.prios.len() as u32);
        for prio in &dir.prios {
            let mut e = Le::zeros(PRIO_STAT);
            plat(&mut e, 0, &prio.lat);
            lat_stat(&mut e, PRIO_IO_STAT, &prio.lat);
            e.u32(PRIO_IO_STAT + 56, (prio.prioclass << 13) | prio.prio);
            p.0.extend_from_slice(&e.0);
        }
    }
}

/// The `GS` payload of `group`.
pub fn group_stat(group: &GroupReport) -> Vec<u8> {
    let mut p = Le::zeros(GROUP_STAT);
    for (d, g) in group.dirs.iter().enumerate() {
        let idle = g.io_bytes == 0 && g.max_run_ms == 0;
        p.u64(8 * d, g.max_run_ms);
        p.u64(24 + 8 * d, if idle { u64::MAX } else { g.min_run_ms });
        p.u64(48 + 8 * d, g.max_bw);
        p.u64(72 + 8 * d, if idle { u64::MAX } else { g.min_bw });
        p.u64(96 + 8 * d, g.io_bytes);
        p.u64(120 + 8 * d, g.agg_bw);
    }
    p.u32(144, 1024);
    p.u32(148, 4);
    p.u32(152, 4);
    p.u32(156, group.groupid);
    p.u32(160, group.unified_rw as u32);
    p.0
}
