//! The figures of one point of a sweep, read from its run's [`RunReport`].
//!
//! A point's report has one job per reporting group (the sweep runs its jobs with
//! `group_reporting`). IOPS and bandwidth are summed over the jobs and directions; the mean
//! latency (fio's `lat`, submission to completion) is weighted by each direction's I/Os;
//! the percentiles (p50, p99, p99.9 of `lat`) are those of the direction with the most
//! I/Os of the first job that did any. CPU time, context switches and system calls per I/O
//! come from the jobs' own counters after `ramp_time` ([`JobCounters`]). Little's law says
//! that a queue kept full holds `IOPS × mean latency` I/Os in flight; `little` is that over
//! the depth the job asked for (`iodepth × numjobs`), near 1 when the depth is reached and
//! well below when the engine does not keep it (a synchronous engine, buffered libaio).
//!
//! [`JobCounters`]: iomark_stats::report::JobCounters

use iomark_stats::report::{DirReport, LatStats, RunReport};
use serde::{Deserialize, Serialize};

/// What one run of a point measured.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Metrics {
    /// I/Os per second.
    pub iops: f64,
    /// Bytes per second.
    pub bw_bytes: f64,
    /// I/Os completed.
    pub ios: u64,
    /// Mean total latency, nanoseconds.
    pub lat_mean_ns: f64,
    /// Median total latency, nanoseconds.
    pub lat_p50_ns: Option<u64>,
    /// 99th percentile, nanoseconds.
    pub lat_p99_ns: Option<u64>,
    /// 99.9th percentile, nanoseconds.
    pub lat_p999_ns: Option<u64>,
    /// CPU time per I/O, nanoseconds (0 under the fake clock).
    pub cpu_ns_per_io: f64,
    /// System calls per I/O, when the engine counts them.
    pub syscalls_per_io: Option<f64>,
    /// Context switches per I/O (0 under the fake clock).
    pub ctx_per_io: f64,
    /// IOPS × mean latency ÷ depth (Little's law; near 1 for a full queue).
    pub little: f64,
    /// The standard deviation of the per-second IOPS samples, when there were two or more.
    pub iops_sample_sd: Option<f64>,
    /// How many per-second IOPS samples.
    pub iops_samples: u64,
}

/// A latency percentile of `dir`'s total latency (or completion latency, when the total has
/// none), in nanoseconds.
pub fn percentile(dir: &DirReport, p: f64) -> Option<u64> {
    percentile_of(&dir.lat, p).or_else(|| percentile_of(&dir.clat, p))
}

/// The percentile `p` of one latency, in nanoseconds, when it was reported.
pub fn percentile_of(lat: &LatStats, p: f64) -> Option<u64> {
    let v = lat.percentiles.as_ref()?;
    v.iter().find(|(q, _)| (q - p).abs() < 1e-9).map(|(_, ns)| *ns)
}

/// The figures of `report`, for a point whose jobs asked for `depth` I/Os in flight in all.
pub fn metrics(report: &RunReport, depth: f64) -> Metrics {
    let mut m = Metrics::default();
    let (mut lat_sum, mut lat_n, mut var_sum) = (0.0, 0u64, 0.0);
    let (mut cpu_ns, mut ctx, mut calls) = (0u64, 0u64, Some(0u64));
    let mut samples = u64::MAX;
    for job in &report.jobs {
        for d in job.dirs.iter().filter(|d| d.total_ios > 0) {
            m.iops += d.iops;
            m.bw_bytes += d.bw_bytes as f64;
            m.ios += d.total_ios;
            let lat = if d.lat.n > 0 { &d.lat } else { &d.clat };
            lat_sum += lat.mean * lat.n as f64;
            lat_n += lat.n;
            var_sum += d.iops_samples.stddev.powi(2);
            samples = samples.min(d.iops_samples.samples);
        }
        cpu_ns += job.counters.cpu_ns;
        ctx += job.counters.ctx;
        calls = calls.zip(job.counters.syscalls).map(|(a, b)| a + b);
    }
    if let Some(d) = report
        .jobs
        .iter()
        .find_map(|j| j.dirs.iter().filter(|d| d.total_ios > 0).max_by_key(|d| d.total_ios))
    {
        m.lat_p50_ns = percentile(d, 50.0);
        m.lat_p99_ns = percentile(d, 99.0);
        m.lat_p999_ns = percentile(d, 99.9);
    }
    if lat_n > 0 {
        m.lat_mean_ns = lat_sum / lat_n as f64;
    }
    if m.ios > 0 {
        let ios = m.ios as f64;
        m.cpu_ns_per_io = cpu_ns as f64 / ios;
        m.ctx_per_io = ctx as f64 / ios;
        m.syscalls_per_io = calls.map(|c| c as f64 / ios);
    }
    if depth > 0.0 {
        m.little = m.iops * m.lat_mean_ns * 1e-9 / depth;
    }
    m.iops_samples = if samples == u64::MAX { 0 } else { samples };
    m.iops_sample_sd = (m.iops_samples >= 2).then(|| var_sum.sqrt());
    m
}
