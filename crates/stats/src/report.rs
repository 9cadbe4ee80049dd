//! [`RunReport`]: the immutable result of a run, and the one thing printers read.
//!
//! Everything here is already reduced: means, deviations, percentiles, shares. Units are
//! fio's units for the same numbers (nanoseconds for latencies, bytes and bytes per second
//! for sizes and bandwidth, KiB/s for bandwidth samples, milliseconds for runtimes), so a
//! printer only formats. The normal, terse, JSON and HTML printers, the dashboard and the MPI
//! gather all consume this type.

use crate::act::{ActCounts, ActReport};
use serde::{Deserialize, Serialize};

/// The version of the `RunReport` layout; raised on any incompatible change.
pub const REPORT_VERSION: u32 = 1;

/// The result of a whole run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunReport {
    /// [`REPORT_VERSION`] at the time the report was made.
    pub version: u32,
    /// iomark's version (`0.1.0`).
    pub iomark_version: String,
    /// The fio release whose formats the report follows (`fio-3.33`).
    pub fio_compat: String,
    /// When the run ended, in seconds since the Unix epoch.
    pub timestamp: u64,
    /// The same in milliseconds.
    pub timestamp_ms: u64,
    /// The same as local time, in `ctime` layout without the newline.
    pub time: String,
    /// The options common to all jobs (fio's "global options"), as written.
    pub global_options: Vec<(String, String)>,
    /// Every job, or every group of jobs under `group_reporting`, in order.
    pub jobs: Vec<JobReport>,
    /// Every reporting group, in order.
    pub groups: Vec<GroupReport>,
    /// The disks under the jobs' files.
    pub disks: Vec<DiskReport>,
    /// The run's notes, each once, in the order they arose: what the job files say that
    /// iomark read as fio 3.33 does although it is malformed, what the plans say (a queue
    /// depth capped at 1), what the jobs said as they ran (an engine that completed
    /// inline, a registration that fell back). No note is an error. iomark's addition:
    /// printed as `note: …` lines before a text report, and as `"iomark notes"` in JSON.
    #[serde(default)]
    pub notes: crate::Notes,
    /// Under MPI, each rank's own jobs (the per-rank breakdown of the merged `jobs`), in
    /// rank order; empty otherwise.
    #[serde(default)]
    pub ranks: Vec<RankReport>,
    /// Under `--client`, each server's own jobs and groups, in the order of the hosts;
    /// `jobs` and `groups` then hold the merge of all of them ("All clients"). Empty
    /// otherwise.
    #[serde(default)]
    pub clients: Vec<ClientReport>,
    /// `--idle-prof`: how idle the CPUs were while the jobs ran, if asked.
    #[serde(default)]
    pub cpu_idleness: Option<IdleReport>,
    /// `--profile=act`: the latency table per slice and the verdict.
    #[serde(default)]
    pub act: Option<ActReport>,
}

impl RunReport {
    /// The I/Os of every job (reads, writes and trims) by `--profile=act`'s latency bands,
    /// as their completion latency histograms hold them.
    pub fn act_counts(&self) -> ActCounts {
        let dirs = self.jobs.iter().flat_map(|j| &j.dirs);
        ActCounts::of_clats(dirs.map(|d| (d.clat.n, d.clat.bins.as_deref().unwrap_or_default())))
    }
}

/// What `--idle-prof` measured: the CPUs' idleness during the run (the share of the
/// time an idle-priority spinner pinned to each CPU could run), and the unit of work its
/// calibration timed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IdleReport {
    /// The whole system's idleness, in percent (the mean of the CPUs').
    pub system: f64,
    /// Each CPU's idleness in percent, in CPU order (`--idle-prof=percpu`; empty for
    /// `system`).
    pub percpu: Vec<f64>,
    /// The mean time of one unit of work, in microseconds.
    pub unit_mean_us: f64,
    /// Its standard deviation, in microseconds.
    pub unit_stddev_us: f64,
}

/// One server's part of a run driven by `--client`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClientReport {
    /// The host as `--client` named it.
    pub hostname: String,
    /// Its port (0 for a Unix socket).
    pub port: u16,
    /// Its jobs (or groups).
    pub jobs: Vec<JobReport>,
    /// Its reporting groups.
    pub groups: Vec<GroupReport>,
    /// The disks under its jobs' files, as it reported them (`DISK_UTIL`).
    #[serde(default)]
    pub disks: Vec<DiskReport>,
}

/// One MPI rank's part of a merged run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RankReport {
    /// The rank, from 0.
    pub rank: u32,
    /// The host it ran on.
    pub hostname: String,
    /// Its jobs (or groups), reduced from its own recordings alone.
    pub jobs: Vec<JobReport>,
}

/// Reads, writes, trims: the order of every per-direction array.
pub const DIRECTIONS: [&str; 3] = ["read", "write", "trim"];

/// One job (or one reporting group's merged jobs).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JobReport {
    /// The job's name.
    pub name: String,
    /// The job's `description`, if any.
    pub description: Option<String>,
    /// The reporting group.
    pub groupid: u32,
    /// How many jobs this report covers (more than 1 under `group_reporting`).
    pub jobs: u32,
    /// The first error the job met (an errno), 0 if none.
    pub error: i32,
    /// What that error means, empty if none.
    pub error_text: String,
    /// What the engine said about how it behaved, such as libaio completing buffered I/O
    /// inline; iomark's addition, in JSON as "iomark notes" when there are any.
    pub notes: Vec<String>,
    /// The thread id of the job (fio shows a pid).
    pub pid: u32,
    /// When the job started, as local time in `ctime` layout.
    pub start_time: String,
    /// Seconds from the start of the run to the end of the job.
    pub elapsed_s: u64,
    /// The job's own options as written, in order (fio's "job options").
    pub options: Vec<(String, String)>,
    /// What fio's header line shows: rw, block sizes, engine, depth.
    pub header: JobHeader,
    /// Reads, writes and trims.
    pub dirs: [DirReport; 3],
    /// fio's `unified_rw_reporting`: whether the directions, their sum ([`mixed`]), or
    /// both are reported.
    ///
    /// [`mixed`]: JobReport::mixed
    #[serde(default)]
    pub unified_rw: UnifiedRw,
    /// The three directions as one (fio's `mixed`), when [`unified_rw`] asks for it: bytes
    /// and I/Os summed, latency histograms and moments merged exactly, bandwidth and IOPS
    /// samples summed by fio's rule, the longest direction's runtime.
    ///
    /// [`unified_rw`]: JobReport::unified_rw
    #[serde(default)]
    pub mixed: Option<DirReport>,
    /// `fsync`/`fdatasync` calls and their latency.
    pub sync: SyncReport,
    /// Time the job spent doing I/O, in milliseconds.
    pub runtime_ms: u64,
    /// User CPU time as a share of the runtime, in percent.
    pub usr_cpu: f64,
    /// System CPU time as a share of the runtime, in percent.
    pub sys_cpu: f64,
    /// Context switches.
    pub ctx: u64,
    /// Major page faults.
    pub majf: u64,
    /// Minor page faults.
    pub minf: u64,
    /// Share of I/Os issued at depth 1, 2, 4, 8, 16, 32, >=64, in percent.
    pub iodepth_level: [f64; 7],
    /// Share of submissions of 0, 1-4, 5-8, 9-16, 17-32, 33-64, >64 I/Os, in percent.
    pub iodepth_submit: [f64; 7],
    /// Share of reaps of 0, 1-4, 5-8, 9-16, 17-32, 33-64, >64 I/Os, in percent.
    pub iodepth_complete: [f64; 7],
    /// Share of I/Os whose latency is at most 2, 4, 10, 20, 50, 100, 250, 500, 750, 1000 ns.
    pub latency_ns: [f64; 10],
    /// The same in microseconds.
    pub latency_us: [f64; 10],
    /// The same in milliseconds, then 2000 and >=2000.
    pub latency_ms: [f64; 12],
    /// The first microsecond bucket as fio's terse format shows it (`<=2` µs): the share
    /// of I/Os under 2 µs, that is `latency_us[0]` (floored for display) plus the whole
    /// nanosecond row *unfloored* — fio 3.33's arithmetic, which can exceed 100.
    #[serde(default)]
    pub terse_latency_2us: f64,
    /// The percentiles reported for clat or lat (fio's `percentile_list`, in increasing
    /// order); empty when `clat_percentiles` and `lat_percentiles` are both off. fio's terse
    /// format lists them for every direction, with the value 0 where there were no samples.
    #[serde(default)]
    pub percentile_list: Vec<f64>,
    /// fio's `latency_depth`, `latency_target`, `latency_percentile`, `latency_window`.
    pub latency_target: LatencyTarget,
    /// fio's steady-state results, when the job watched for steady state (`ss_dur`).
    #[serde(default)]
    pub steadystate: Option<SteadyReport>,
    /// The error count, when `continue_on_error` or `ignore_error` let the job go on past
    /// errors (fio then reports `total_err` and `first_error`).
    #[serde(default)]
    pub errors: Option<ErrorReport>,
    /// The job's own counters over the measured part of the run (after `ramp_time`):
    /// iomark's addition, which `iomark sweep` reads; fio's formats do not print it.
    #[serde(default)]
    pub counters: JobCounters,
    /// Each I/O's completion latency split at the block layer, when the job asked for it
    /// (`--block-latency`, `block_latency=1`); iomark's addition.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub block_latency: Option<crate::block::BlockLatencyReport>,
    /// fio's block lifetime percentiles and blocks per state, when the job set
    /// `block_error_percentiles`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub block_lifetimes: Option<crate::lifetimes::BlockLifetimes>,
}

/// What a job counted over the measured part of its run (after `ramp_time`), summed over
/// the jobs of a group under `group_reporting`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct JobCounters {
    /// User and system CPU time of the job's thread (and of its engine's worker threads,
    /// whose whole life counts), in nanoseconds; 0 under the fake clock.
    pub cpu_ns: u64,
    /// Context switches of the job's thread; 0 under the fake clock.
    pub ctx: u64,
    /// System calls the engine made for I/O (see the engine's `syscalls`); `None` when the
    /// engine does not count them.
    pub syscalls: Option<u64>,
}

impl JobCounters {
    /// The counters of two jobs together.
    pub fn plus(self, other: JobCounters) -> JobCounters {
        JobCounters {
            cpu_ns: self.cpu_ns + other.cpu_ns,
            ctx: self.ctx + other.ctx,
            syscalls: self.syscalls.zip(other.syscalls).map(|(a, b)| a + b),
        }
    }
}

/// A job's failed I/Os, reported when it may go on past errors.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ErrorReport {
    /// Failed I/Os (fio's `total_err`).
    pub total_err: u64,
    /// The errno of the first (fio's `first_error`), 0 if none.
    pub first_error: i32,
    /// What that errno means (`No space left on device`; `Success` for 0).
    pub first_error_text: String,
    /// Whether an error ended the job; only then does iomark exit with status 1.
    pub fatal: bool,
}

/// fio's `unified_rw_reporting`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum UnifiedRw {
    /// `none` (`0`, the default): reads, writes and trims apart.
    #[default]
    None,
    /// `mixed` (`1`): the three directions as one, `mixed`, and nothing per direction.
    Mixed,
    /// `both` (`2`): each direction, then `mixed`.
    Both,
}

impl UnifiedRw {
    /// Whether reads, writes and trims are reported apart.
    pub fn directions(self) -> bool {
        self != UnifiedRw::Mixed
    }

    /// Whether the `mixed` sum is reported.
    pub fn mixed(self) -> bool {
        self != UnifiedRw::None
    }
}

/// What fio prints on a job's first line: `rw=randrw, bs=(R) 4096B-4096B, …`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct JobHeader {
    /// The `rw` value, as fio names it.
    pub rw: String,
    /// Smallest and largest block size per direction, in bytes.
    pub bs: [(u64, u64); 3],
    /// The engine's name.
    pub ioengine: String,
    /// The queue depth.
    pub iodepth: u32,
}

/// One direction of a job.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct DirReport {
    /// Bytes transferred.
    pub io_bytes: u64,
    /// Bandwidth in bytes per second (io_bytes over runtime).
    pub bw_bytes: u64,
    /// I/Os per second.
    pub iops: f64,
    /// Time spent in this direction, in milliseconds.
    pub runtime_ms: u64,
    /// I/Os completed.
    pub total_ios: u64,
    /// I/Os that transferred less than asked.
    pub short_ios: u64,
    /// I/Os dropped.
    pub drop_ios: u64,
    /// Submission latency.
    pub slat: LatStats,
    /// Completion latency.
    pub clat: LatStats,
    /// Total latency.
    pub lat: LatStats,
    /// Total latency corrected for coordinated omission: from each I/O's intended start
    /// (its due time under the rate limit) to its completion; only for rate-limited jobs.
    /// iomark's addition: JSON `lat_ns_corrected`, and a `corrected lat` line in the normal
    /// report.
    #[serde(default)]
    pub lat_corrected: Option<LatStats>,
    /// Bandwidth samples, in KiB/s.
    pub bw_samples: SampleStats,
    /// IOPS samples.
    pub iops_samples: SampleStats,
    /// The latency of each I/O priority, when the direction's I/Os had more than one
    /// (fio's `prios`, with `cmdprio_*`); empty otherwise.
    #[serde(default)]
    pub prios: Vec<PrioStats>,
}

/// The latency of the I/Os of one priority.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct PrioStats {
    /// The priority class (`prioclass`; 0 for none).
    pub prioclass: u32,
    /// The priority level (`prio`).
    pub prio: u32,
    /// Whether `lat` is the total latency (`lat_percentiles`) rather than the completion
    /// latency (fio's `lat_ns` or `clat_ns` key).
    pub total_latency: bool,
    /// The latency.
    pub lat: LatStats,
}

/// Latency statistics in nanoseconds.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct LatStats {
    /// Number of samples.
    pub n: u64,
    /// Smallest sample.
    pub min: u64,
    /// Largest sample.
    pub max: u64,
    /// Mean.
    pub mean: f64,
    /// Sample standard deviation.
    pub stddev: f64,
    /// `(percentile, value)` pairs when percentiles are reported for this latency.
    pub percentiles: Option<Vec<(f64, u64)>>,
    /// `(bucket value, count)` pairs of the histogram, for json+.
    pub bins: Option<Vec<(u64, u64)>>,
}

/// Statistics of periodic samples (bandwidth or IOPS).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct SampleStats {
    /// Smallest sample.
    pub min: u64,
    /// Largest sample.
    pub max: u64,
    /// This job's share of its group's total, in percent.
    pub agg_pct: f64,
    /// The same share as fio's terse format computes it (see `reduce`); 0 for IOPS.
    #[serde(default)]
    pub agg_pct_terse: f64,
    /// Mean.
    pub mean: f64,
    /// Sample standard deviation.
    pub stddev: f64,
    /// Number of samples.
    pub samples: u64,
}

/// `fsync`/`fdatasync` calls.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct SyncReport {
    /// Calls made.
    pub total_ios: u64,
    /// Their latency.
    pub lat: LatStats,
}

/// fio's latency-target search results (all zero unless `latency_target` is set).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct LatencyTarget {
    /// The depth found.
    pub depth: u32,
    /// The target, in nanoseconds (fio 3.33 prints it so, though it reads microseconds).
    pub target: u64,
    /// The percentile, in percent.
    pub percentile: f64,
    /// The window, in microseconds (as fio 3.33 prints it).
    pub window: u64,
}

/// What a job's steady-state watch found (fio's `steadystate` object).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct SteadyReport {
    /// The criterion and its limit as fio shows them: `iops_slope:5.000000%`.
    pub ss: String,
    /// The criterion's name in the normal report: `iops slope`, `bw mean dev`, ….
    pub criterion_name: String,
    /// Whether the limit (and so [`criterion`](SteadyReport::criterion)) is a percentage.
    pub percent: bool,
    /// The window, in seconds.
    pub duration_s: u64,
    /// Whether steady state was reached (the job then ended).
    pub attained: bool,
    /// The judged value of the last full window: the slope or the largest deviation,
    /// as a percentage of the mean when the limit is one; 0 when no window filled.
    pub criterion: f64,
    /// The largest distance of a sample from the window's mean (deviation criteria).
    pub max_deviation: f64,
    /// The least-squares slope of the samples, per second (slope criteria).
    pub slope: f64,
    /// The window's mean bandwidth, bytes per second.
    pub bw_mean: u64,
    /// The window's mean IOPS.
    pub iops_mean: u64,
    /// The IOPS samples, oldest first (zeros for samples never taken).
    pub iops: Vec<u64>,
    /// The bandwidth samples in bytes per second, oldest first.
    pub bw: Vec<u64>,
}

/// One reporting group's totals (fio's `Run status group` lines).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GroupReport {
    /// The group's number.
    pub groupid: u32,
    /// Per direction.
    pub dirs: [GroupDir; 3],
    /// The group's `unified_rw_reporting` (its first job's): which of [`dirs`] and
    /// [`mixed`] are reported.
    ///
    /// [`dirs`]: GroupReport::dirs
    /// [`mixed`]: GroupReport::mixed
    #[serde(default)]
    pub unified_rw: UnifiedRw,
    /// The `MIXED` line, when [`unified_rw`](GroupReport::unified_rw) asks for it.
    #[serde(default)]
    pub mixed: Option<GroupDir>,
}

/// One direction of a group.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct GroupDir {
    /// Bytes transferred by all jobs.
    pub io_bytes: u64,
    /// Aggregate bandwidth in bytes per second (all bytes over the longest runtime).
    pub agg_bw: u64,
    /// The slowest job's bandwidth, bytes per second.
    pub min_bw: u64,
    /// The fastest job's bandwidth, bytes per second.
    pub max_bw: u64,
    /// The shortest job runtime, milliseconds.
    pub min_run_ms: u64,
    /// The longest job runtime, milliseconds.
    pub max_run_ms: u64,
}

/// One disk's statistics over the run, from `/sys/block/*/stat`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct DiskReport {
    /// The device name (`sda`, `loop0`, `dm-0`).
    pub name: String,
    /// Reads and writes completed.
    pub ios: [u64; 2],
    /// Reads and writes merged.
    pub merges: [u64; 2],
    /// Milliseconds spent reading and writing.
    pub ticks: [u64; 2],
    /// Milliseconds weighted by queue length.
    pub in_queue: u64,
    /// Share of the run the device was busy, in percent.
    pub util: f64,
    /// Sectors read and written (not printed; carried to fio's clients).
    #[serde(default)]
    pub sectors: [u64; 2],
    /// Milliseconds the device was busy (`util`'s numerator).
    #[serde(default)]
    pub io_ticks: u64,
    /// Milliseconds between the two readings (`util`'s denominator).
    #[serde(default)]
    pub wall_ms: u64,
    /// For a device built on others (dm, md): its members' figures, as fio's `aggr*`.
    pub aggr: Option<DiskAggr>,
}

/// The members of a dm or md device, summed up as fio does: each count is the members'
/// total divided by their number (integer division), and `util` is the busiest member's.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct DiskAggr {
    /// Reads and writes completed, per member.
    pub ios: [u64; 2],
    /// Reads and writes merged, per member.
    pub merges: [u64; 2],
    /// Milliseconds spent reading and writing, per member.
    pub ticks: [u64; 2],
    /// Milliseconds weighted by queue length, per member.
    pub in_queue: u64,
    /// The busiest member's utilisation, in percent.
    pub util: f64,
}

impl DiskAggr {
    /// The aggregate of `members`; `None` for none.
    pub fn of(members: &[&DiskReport]) -> Option<DiskAggr> {
        let n = members.len() as u64;
        if n == 0 {
            return None;
        }
        let sum = |f: &dyn Fn(&DiskReport) -> u64| members.iter().map(|m| f(m)).sum::<u64>() / n;
        Some(DiskAggr {
            ios: [sum(&|m| m.ios[0]), sum(&|m| m.ios[1])],
            merges: [sum(&|m| m.merges[0]), sum(&|m| m.merges[1])],
            ticks: [sum(&|m| m.ticks[0]), sum(&|m| m.ticks[1])],
            in_queue: sum(&|m| m.in_queue),
            util: members.iter().map(|m| m.util).fold(0.0, f64::max).min(100.0),
        })
    }
}
