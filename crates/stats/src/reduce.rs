//! Reduction: from [`JobRecorder`]s and the runner's times to the [`JobReport`]s and
//! [`GroupReport`]s of the [`RunReport`](crate::RunReport).
//!
//! The runner measures runtimes and CPU use; this module turns them and the recordings into
//! fio's numbers with fio 3.33's arithmetic:
//!
//! - `bw_bytes = io_bytes · 1000 / runtime_ms` in integer arithmetic (truncating), `iops =
//!   1000.0 · total_ios / runtime_ms` as a float, both 0 when the runtime is 0.
//! - CPU: `usr_cpu = usr time · 100 / job runtime` (fio uses whole milliseconds of
//!   `getrusage` time; iomark takes nanoseconds). Under `group_reporting` the runner passes
//!   the sums of the jobs' CPU times and of their runtimes, which gives fio's average.
//! - Percentiles: fio sorts `percentile_list` (at most 20 values, each in (0, 100]) and
//!   reports them in increasing order; they and the json+ bins exist when the latency has a
//!   histogram and at least one value.
//! - Groups ("Run status group"), per direction, over the reports whose runtime in that
//!   direction is not 0: `min_run`/`max_run` are the shortest and longest runtimes,
//!   `min_bw`/`max_bw` the lowest and highest `bw_bytes`, `io_bytes` the sum, and the
//!   aggregate `agg_bw = io_bytes · 1000 / max_run` (integer). Under `group_reporting` the
//!   group has one merged report whose runtime is the longest job's, so fio prints
//!   `run=max-max` and one bandwidth as both min and max.
//! - A job's share of its group (`per=`, JSON `bw_agg`): `trunc(bw mean) · 100 / (agg_bw /
//!   1024)`, at most 100; 100 when `agg_bw <= 1024`; 0 when the job has no bandwidth
//!   samples. fio's terse format (`agg_pct_terse`) divides the mean, not truncated, by the
//!   integer `agg_bw / 1024` instead, at most 100, 100 when that integer is 0, and 0
//!   without samples; the difference is in the last digits.
//! - Terse's first µs latency bucket (`terse_latency_2us`): fio 3.33 adds the shares of
//!   the ns row, unfloored, to the floored share of the µs `2` bucket (runs of fio with
//!   every clat logged: 99.9953 % of I/Os under 1 µs and a few in 1–2 µs printed
//!   `100.01%`; with none in 1–2 µs, 99.9956 % printed `100.00%`).
//! - `unified_rw_reporting` (`mixed`, `both`): a job's `mixed` direction is its three
//!   directions merged ([`DirRecorder::merge`]: counts summed, latency histograms and sums
//!   merged exactly), its bandwidth and IOPS samples summed per direction by fio's
//!   `group_reporting` rule ([`Moments::merge_sum`], which fio 3.33's `mixed` figures
//!   match), and its runtime the longest direction's. The group's `MIXED` line takes, as
//!   fio's does, each job's reported directions: a `mixed` job's mixed figures, any other
//!   job's reads, writes and trims one by one (so under `both` its min and max bandwidth
//!   are those of single directions). A job's mixed `per=` is its share of that line.
//!   The `mixed` direction has its latency per I/O priority too (fio 3.33's `prios`
//!   under `mixed`), each priority's three directions merged.
//! - Latency per I/O priority (`cmdprio_*`): the priorities' histograms are shares of
//!   their direction's ([`PrioRecorder`]), so in json+ the priorities' bins add up, bin
//!   for bin and under the same keys, to the direction's bins, in every merge: a group,
//!   `mixed`, an interim report.

use std::collections::BTreeMap;

use crate::dist::{LAT_FLOOR, MAP_FLOOR};
use crate::moments::Moments;
use crate::recorder::{DirRecorder, JobRecorder, LatRecorder, PrioRecorder};
use crate::report::{
    DirReport, ErrorReport, GroupDir, GroupReport, JobHeader, JobReport, LatStats, LatencyTarget,
    PrioStats, SampleStats, SteadyReport, SyncReport, UnifiedRw,
};

pub use crate::percentile_list::{
    PercentileList, PercentileListError, FIO_DEFAULT_PERCENTILES, MAX_PERCENTILES,
};

/// What the runner measured for one job (or, under `group_reporting`, for its group).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct JobTimes {
    /// Runtime per direction in milliseconds (fio's `runtime[ddir]`; 0 for a direction the
    /// job did not perform). Under `group_reporting`, the longest job's.
    pub runtime_ms: [u64; 3],
    /// The job's whole run in milliseconds (fio's `job_runtime`); summed under
    /// `group_reporting`.
    pub total_run_ms: u64,
    /// User CPU time in nanoseconds (summed under `group_reporting`).
    pub usr_ns: u64,
    /// System CPU time in nanoseconds (summed under `group_reporting`).
    pub sys_ns: u64,
    /// Context switches.
    pub ctx: u64,
    /// Major page faults.
    pub majf: u64,
    /// Minor page faults.
    pub minf: u64,
    /// The job's own counters after `ramp_time`.
    pub counters: crate::report::JobCounters,
}

impl JobTimes {
    /// Adds `other`, a job of the same reporting group (fio's `group_reporting`): the
    /// longest runtime per direction, the sums of everything else.
    pub fn merge_group(&mut self, other: &JobTimes) {
        self.runtime_ms = [0, 1, 2].map(|d| self.runtime_ms[d].max(other.runtime_ms[d]));
        self.add_usage(other);
    }

    /// Adds `other`, the same job run elsewhere (another MPI rank or host), IOR's way: each
    /// direction's runtime becomes the common wall time, from the earliest start to the
    /// latest end. `start_ms` and `other_start_ms` are when each began (wall clock, ms);
    /// usage is summed as under `group_reporting`.
    pub fn merge_spans(&mut self, start_ms: u64, other: &JobTimes, other_start_ms: u64) {
        let first = start_ms.min(other_start_ms);
        self.runtime_ms = [0, 1, 2].map(|d| {
            let end = |start: u64, t: &JobTimes| match t.runtime_ms[d] {
                0 => 0,
                r => start + r - first,
            };
            end(start_ms, self).max(end(other_start_ms, other))
        });
        self.add_usage(other);
    }

    fn add_usage(&mut self, other: &JobTimes) {
        self.total_run_ms += other.total_run_ms;
        self.usr_ns += other.usr_ns;
        self.sys_ns += other.sys_ns;
        self.ctx += other.ctx;
        self.majf += other.majf;
        self.minf += other.minf;
        self.counters = self.counters.plus(other.counters);
    }
}

/// The parts of a [`JobReport`] that are not statistics, copied through as given.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct JobMeta {
    /// The job's name.
    pub name: String,
    /// The job's `description`.
    pub description: Option<String>,
    /// The reporting group.
    pub groupid: u32,
    /// Jobs covered.
    pub jobs: u32,
    /// First error (errno), 0 if none.
    pub error: i32,
    /// What the error means.
    pub error_text: String,
    /// What the engine said about how it behaved (see `Engine::notes`).
    pub notes: Vec<String>,
    /// Thread id.
    pub pid: u32,
    /// Start time, `ctime` layout.
    pub start_time: String,
    /// Seconds from the start of the run to the end of the job.
    pub elapsed_s: u64,
    /// The job's options as written.
    pub options: Vec<(String, String)>,
    /// fio's header line.
    pub header: JobHeader,
    /// Latency-target results.
    pub latency_target: LatencyTarget,
    /// `unified_rw_reporting`.
    pub unified_rw: UnifiedRw,
    /// Steady-state results, if the job watched for steady state.
    pub steadystate: Option<SteadyReport>,
    /// The error count, when the job may go on past errors.
    pub errors: Option<ErrorReport>,
}

/// Latency statistics from a latency recorder.
pub fn lat_stats(rec: &LatRecorder, pcts: &PercentileList) -> LatStats {
    let m = &rec.moments;
    // The histogram's end buckets report the exact extremes, which the moments keep.
    let hist = rec.hist.as_ref().zip(m.min().zip(m.max())).map(|(h, (min, max))| (h, min..=max));
    LatStats {
        n: m.count(),
        min: m.min().unwrap_or(0),
        max: m.max().unwrap_or(0),
        mean: m.mean(),
        stddev: m.stddev(),
        percentiles: hist.as_ref().map(|(h, recorded)| {
            let values = h.percentiles(pcts.values(), recorded.clone());
            pcts.values().iter().copied().zip(values).collect()
        }),
        bins: hist.map(|(h, _)| h.bins().collect()),
    }
}

/// Sample statistics; the share of the group is filled in by [`group_reports`].
pub fn sample_stats(m: &Moments) -> SampleStats {
    SampleStats {
        min: m.min().unwrap_or(0),
        max: m.max().unwrap_or(0),
        agg_pct: 0.0,
        agg_pct_terse: 0.0,
        mean: m.mean(),
        stddev: m.stddev(),
        samples: m.count(),
    }
}

/// One direction's report.
pub fn dir_report(
    rec: &DirRecorder,
    bw: &Moments,
    iops: &Moments,
    runtime_ms: u64,
    pcts: &PercentileList,
) -> DirReport {
    let (bw_bytes, iops_rate) = if runtime_ms == 0 {
        (0, 0.0)
    } else {
        let bw = u128::from(rec.bytes) * 1000 / u128::from(runtime_ms);
        let iops = 1000.0 * rec.ios as f64 / runtime_ms as f64;
        (u64::try_from(bw).unwrap_or(u64::MAX), iops)
    };
    DirReport {
        io_bytes: rec.bytes,
        bw_bytes,
        iops: iops_rate,
        runtime_ms,
        total_ios: rec.ios,
        short_ios: rec.short,
        drop_ios: rec.dropped,
        slat: lat_stats(&rec.slat, pcts),
        clat: lat_stats(&rec.clat, pcts),
        lat: lat_stats(&rec.lat, pcts),
        lat_corrected: rec.lat_corrected.as_ref().map(|c| lat_stats(c, pcts)),
        bw_samples: sample_stats(bw),
        iops_samples: sample_stats(iops),
        prios: Vec::new(),
    }
}

/// A job's report from its recorder, the runner's times and the job's metadata.
pub fn job_report(
    rec: &JobRecorder,
    meta: JobMeta,
    times: &JobTimes,
    pcts: &PercentileList,
) -> JobReport {
    let dirs = [0, 1, 2].map(|d| {
        let mut dir =
            dir_report(&rec.dirs[d], rec.bw.stats(d), rec.iops.stats(d), times.runtime_ms[d], pcts);
        if let Some(p) = &rec.prios {
            dir.prios = prio_stats(p, &p.dirs[d], pcts);
        }
        dir
    });
    let mixed = meta.unified_rw.mixed().then(|| {
        let mut mixed = mixed_report(rec, times, pcts);
        if let Some(p) = &rec.prios {
            mixed.prios = prio_stats(p, &p.mixed(), pcts);
        }
        mixed
    });
    let ios: u64 = rec.dirs.iter().map(|d| d.ios).sum();
    let lat = rec.latency.percentages(ios, LAT_FLOOR);
    let ns_row = rec.latency.counts()[..10].iter().map(|&c| c as f64 / ios as f64 * 100.0);
    let terse_latency_2us = if ios == 0 { 0.0 } else { ns_row.fold(lat[10], |sum, s| sum + s) };
    let config = rec.config();
    let percentile_list = if config.clat_percentiles || config.lat_percentiles {
        pcts.values().to_vec()
    } else {
        Vec::new()
    };
    let cpu = |ns: u64| {
        if times.total_run_ms == 0 {
            0.0
        } else {
            ns as f64 * 100.0 / (times.total_run_ms as f64 * 1e6)
        }
    };
    JobReport {
        name: meta.name,
        description: meta.description,
        groupid: meta.groupid,
        jobs: meta.jobs,
        error: meta.error,
        error_text: meta.error_text,
        notes: meta.notes,
        pid: meta.pid,
        start_time: meta.start_time,
        elapsed_s: meta.elapsed_s,
        options: meta.options,
        header: meta.header,
        dirs,
        unified_rw: meta.unified_rw,
        mixed,
        sync: SyncReport {
            total_ios: rec.sync.moments.count() - rec.uncounted_syncs + rec.failed_fsyncs,
            lat: lat_stats(&rec.sync, pcts),
        },
        runtime_ms: times.total_run_ms,
        usr_cpu: cpu(times.usr_ns),
        sys_cpu: cpu(times.sys_ns),
        ctx: times.ctx,
        majf: times.majf,
        minf: times.minf,
        counters: times.counters,
        iodepth_level: rec.depth.percentages(ios, MAP_FLOOR),
        iodepth_submit: rec.submit.percentages(rec.submit.total(), MAP_FLOOR),
        iodepth_complete: rec.complete.percentages(rec.complete.total(), MAP_FLOOR),
        latency_ns: lat[0..10].try_into().unwrap_or([0.0; 10]),
        latency_us: lat[10..20].try_into().unwrap_or([0.0; 10]),
        latency_ms: lat[20..32].try_into().unwrap_or([0.0; 12]),
        terse_latency_2us,
        percentile_list,
        latency_target: meta.latency_target,
        steadystate: meta.steadystate,
        errors: meta.errors,
        block_latency: None,
        block_lifetimes: rec.lifetimes.as_ref().map(|b| b.report(pcts)),
    }
}

/// The latency per I/O priority of one direction, `listed` as one of
/// [`PrioRecorder::dirs`] (or [`PrioRecorder::mixed`]), when its I/Os had more than one
/// priority (as fio 3.33 reports them). The priorities' histograms add up to the
/// direction's ([`PrioRecorder`]), and so do their bins.
fn prio_stats<R: std::borrow::Borrow<LatRecorder>>(
    p: &PrioRecorder,
    listed: &[(u16, R)],
    pcts: &PercentileList,
) -> Vec<PrioStats> {
    let used: Vec<(u16, &LatRecorder)> = listed
        .iter()
        .map(|(v, r)| (*v, r.borrow()))
        .filter(|(_, r)| r.moments.count() > 0)
        .collect();
    if used.len() < 2 {
        return Vec::new();
    }
    used.into_iter()
        .map(|(v, r)| PrioStats {
            prioclass: u32::from(v >> 13),
            prio: u32::from(v & 0x1fff),
            total_latency: p.total_latency,
            lat: lat_stats(r, pcts),
        })
        .collect()
}

/// The `mixed` direction of a job: see the module doc.
fn mixed_report(rec: &JobRecorder, times: &JobTimes, pcts: &PercentileList) -> DirReport {
    let mut all = rec.dirs[0].clone();
    let (mut bw, mut iops) = (*rec.bw.stats(0), *rec.iops.stats(0));
    for d in 1..3 {
        all.merge(&rec.dirs[d]);
        bw.merge_sum(rec.bw.stats(d));
        iops.merge_sum(rec.iops.stats(d));
    }
    let runtime_ms = times.runtime_ms.iter().copied().max().unwrap_or(0);
    dir_report(&all, &bw, &iops, runtime_ms, pcts)
}

/// fio's "Run status group" numbers for every group in `jobs` (in increasing group id),
/// and each job's share of its group's bandwidth (`bw_samples.agg_pct`).
pub fn group_reports(jobs: &mut [JobReport]) -> Vec<GroupReport> {
    let mut groups: BTreeMap<u32, GroupReport> = BTreeMap::new();
    for job in jobs.iter() {
        let g = groups.entry(job.groupid).or_insert_with(|| GroupReport {
            groupid: job.groupid,
            dirs: Default::default(),
            unified_rw: job.unified_rw,
            mixed: job.unified_rw.mixed().then(GroupDir::default),
        });
        for (gd, jd) in g.dirs.iter_mut().zip(job.dirs.iter()) {
            add_to_group(gd, jd);
        }
        if let Some(gm) = &mut g.mixed {
            match &job.mixed {
                Some(jm) if !job.unified_rw.directions() => add_to_group(gm, jm),
                _ => job.dirs.iter().for_each(|jd| add_to_group(gm, jd)),
            }
        }
    }
    for g in groups.values_mut() {
        for gd in g.dirs.iter_mut().chain(g.mixed.as_mut()).filter(|gd| gd.max_run_ms > 0) {
            let agg = u128::from(gd.io_bytes) * 1000 / u128::from(gd.max_run_ms);
            gd.agg_bw = u64::try_from(agg).unwrap_or(u64::MAX);
        }
    }
    for job in jobs.iter_mut() {
        let Some(g) = groups.get(&job.groupid) else { continue };
        for (jd, gd) in job.dirs.iter_mut().zip(g.dirs.iter()) {
            jd.bw_samples.agg_pct = share_of_group(&jd.bw_samples, gd);
            jd.bw_samples.agg_pct_terse = terse_share_of_group(&jd.bw_samples, gd);
        }
        if let Some(jm) = &mut job.mixed {
            let gm = g.mixed.clone().unwrap_or_default();
            jm.bw_samples.agg_pct = share_of_group(&jm.bw_samples, &gm);
            jm.bw_samples.agg_pct_terse = terse_share_of_group(&jm.bw_samples, &gm);
        }
    }
    groups.into_values().collect()
}

/// Counts one job direction into a group direction, unless it did not run.
fn add_to_group(gd: &mut GroupDir, jd: &DirReport) {
    if jd.runtime_ms == 0 {
        return;
    }
    let first = gd.max_run_ms == 0;
    if first || jd.runtime_ms < gd.min_run_ms {
        gd.min_run_ms = jd.runtime_ms;
    }
    gd.max_run_ms = gd.max_run_ms.max(jd.runtime_ms);
    if first || jd.bw_bytes < gd.min_bw {
        gd.min_bw = jd.bw_bytes;
    }
    gd.max_bw = gd.max_bw.max(jd.bw_bytes);
    gd.io_bytes += jd.io_bytes;
}

/// fio's `per=`: see the module doc.
fn share_of_group(bw: &SampleStats, group: &GroupDir) -> f64 {
    if bw.samples == 0 {
        return 0.0;
    }
    if group.agg_bw <= 1024 {
        return 100.0;
    }
    let mean = bw.mean.trunc();
    (mean * 100.0 / (group.agg_bw as f64 / 1024.0)).min(100.0)
}

/// The same share as fio's terse format computes it: see the module doc.
fn terse_share_of_group(bw: &SampleStats, group: &GroupDir) -> f64 {
    if bw.samples == 0 {
        return 0.0;
    }
    let kib = group.agg_bw / 1024;
    if kib == 0 {
        return 100.0;
    }
    (bw.mean * 100.0 / kib as f64).min(100.0)
}

#[cfg(test)]
mod prio_tests;
#[cfg(test)]
mod tests;
