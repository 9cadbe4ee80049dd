//! The plan: one running copy of a job, with every option resolved to what the job thread
//! needs — engine, depth, block sizes, files and their regions, limits, sync and stats
//! settings.
//!
//! This is the second parsing stage of STYLE.md: the `JobSpec` holds what the user wrote,
//! the plan resolves it (looking at the files on disk) and checks rules that involve several
//! options. Errors name the job and the option, and make iomark exit with code 2.

use crate::get;
use crate::layout::{self, FileKind, FilePlan};
use crate::timing::flag_after_gtod_reduce;
use iomark_engine::file::Prealloc;
use iomark_engine::EngineOptions;
use iomark_options::value::{SplitEntry, Value};
use iomark_options::JobSpec;
use iomark_stats::report::UnifiedRw;
use std::time::Duration;

/// A configuration that cannot run, with the job it concerns.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("job '{job}': {message}")]
pub struct PlanError {
    /// The job's name.
    pub job: String,
    /// What is wrong, naming the option.
    pub message: String,
}

/// How a job submits and reaps, with fio's defaults filled in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Batching {
    /// Submit once this many units are queued (`iodepth_batch_submit`; 0 means `iodepth`;
    /// a full queue is submitted anyway).
    pub submit: u32,
    /// Wait for at least this many completions when the queue is full
    /// (`iodepth_batch_complete_min`; 0: wait for one whenever any I/O is in flight, as
    /// fio 3.33 does).
    pub complete_min: u32,
    /// Take at most this many completions at once (`iodepth_batch_complete_max`, default
    /// `complete_min`, at least 1).
    pub complete_max: u32,
    /// Once the queue is full, reap until at most this many I/Os are in flight
    /// (`iodepth_low`, default `iodepth`).
    pub low: u32,
}

impl Batching {
    /// The batching of a job with depth `iodepth`.
    pub fn of(spec: &JobSpec, iodepth: u32) -> Self {
        let int = |name| get::int(spec, name).map(|n| n.min(u64::from(iodepth)) as u32);
        let submit = match int("iodepth_batch").unwrap_or(1) {
            0 => iodepth,
            n => n,
        };
        let complete_min = int("iodepth_batch_complete_min").unwrap_or(1);
        let complete_max = int("iodepth_batch_complete_max").unwrap_or(0).max(complete_min).max(1);
        let low = match int("iodepth_low") {
            Some(n) if n > 0 => n,
            _ => iodepth,
        };
        Batching { submit, complete_min, complete_max, low }
    }
}

/// How writes reach the disk (`sync`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SyncMode {
    /// Buffered writes (`sync=none`, `sync=0`).
    None,
    /// `O_SYNC` (`sync=sync`, `sync=1`).
    Sync,
    /// `O_DSYNC` (`sync=dsync`).
    Dsync,
}

/// Which statistics a job keeps.
#[derive(Debug, Clone, PartialEq)]
pub struct StatsPlan {
    /// Percentiles of completion latency (`clat_percentiles`).
    pub clat_percentiles: bool,
    /// Percentiles of total latency (`lat_percentiles`).
    pub lat_percentiles: bool,
    /// Percentiles of submission latency (`slat_percentiles`).
    pub slat_percentiles: bool,
    /// Which percentiles (`percentile_list`).
    pub percentile_list: Vec<f64>,
    /// Bandwidth sample window in ms (`bwavgtime`).
    pub bw_avg_ms: u64,
    /// IOPS sample window in ms (`iopsavgtime`).
    pub iops_avg_ms: u64,
    /// How the directions are reported (`unified_rw_reporting`).
    pub unified_rw: UnifiedRw,
}

/// One running copy of a job.
#[derive(Debug, Clone, PartialEq)]
pub struct JobPlan {
    /// The job's name.
    pub name: String,
    /// The job's `description`.
    pub description: Option<String>,
    /// The clone's number among `numjobs` copies, from 0.
    pub jobnum: u64,
    /// Whether the job waits for all earlier jobs (`stonewall`).
    pub stonewall: bool,
    /// Whether the job opens a new reporting group (`new_group`, or `stonewall`).
    pub new_group: bool,
    /// The job this one waits for (`wait_for`).
    pub wait_for: Option<String>,
    /// Whether the job asked for thread mode (`thread`); iomark always runs jobs as
    /// threads, and this only changes fio's "Starting N processes" wording.
    pub thread: bool,
    /// Whether jobs of the group are reported together (`group_reporting`).
    pub group_reporting: bool,
    /// Whether the job's statistics are reported (`stats`, default true); without, the job
    /// is reported with nothing done, as fio 3.33 reports it.
    pub report_stats: bool,
    /// The engine's name.
    pub engine: String,
    /// The engine's own options.
    pub engine_options: EngineOptions,
    /// `io_submit_mode=offload`: the synchronous engine's calls run on a pool of `iodepth`
    /// threads (the threadpool engine), so that the job thread only generates and times.
    pub offload: bool,
    /// I/O units in flight at most (`iodepth`).
    pub iodepth: u32,
    /// How the job submits and reaps (`iodepth_batch*`, `iodepth_low`).
    pub batching: Batching,
    /// The `rw` pattern's name (`randread`) and its `:N` argument.
    pub rw: (&'static str, Option<String>),
    /// Share of reads in a mixed job, in percent.
    pub rwmixread: u32,
    /// Block size per direction.
    pub bs: [u64; 3],
    /// Block size range per direction (`bsrange`), overriding `bs`.
    pub bsrange: [Option<(u64, u64)>; 3],
    /// Block size split per direction (`bssplit`), overriding both.
    pub bssplit: [Option<Vec<SplitEntry>>; 3],
    /// Offset alignment per direction (`blockalign`), default the smallest block size.
    pub blockalign: [u64; 3],
    /// Whether `blockalign` was given (fio then turns the random map off).
    pub blockalign_given: bool,
    /// The files and the region of each this job covers.
    pub files: Vec<FilePlan>,
    /// Bytes to transfer per loop (`io_size`, default the size of the regions).
    pub io_bytes: u64,
    /// Whether `io_size` was given.
    pub io_size_given: bool,
    /// Stop after this many I/Os, 0 for no limit (`number_ios`).
    pub number_ios: u64,
    /// How many times to run the workload (`loops`).
    pub loops: u64,
    /// Stop after this long (`runtime`), if set.
    pub runtime: Option<Duration>,
    /// Keep going until `runtime` even when the I/O is done (`time_based`).
    pub time_based: bool,
    /// Run this long before measuring (`ramp_time`).
    pub ramp_time: Duration,
    /// Wait this long before starting (`startdelay`).
    pub startdelay: Duration,
    /// Open with `O_DIRECT`.
    pub direct: bool,
    /// Drop the files' cached pages before the job (`invalidate`; off with `pre_read`).
    pub invalidate: bool,
    /// Read the job's regions into the page cache before the job (`pre_read`).
    pub pre_read: bool,
    /// `fill_device` (`fill_fs`): write until the file system is full; the job then ends
    /// without an error.
    pub fill_device: bool,
    /// How the job locks the files it shares with other jobs (`lockfile`).
    pub lockfile: crate::lockfile::LockMode,
    /// `exitall`: when a job ends, stop others (see [`crate::links`]).
    pub exitall: bool,
    /// `exitall_on_error`: when this job ends with an error, stop others.
    pub exitall_on_error: bool,
    /// `exit_what`: which jobs this job's end stops.
    pub exit_what: crate::links::ExitWhat,
    /// What to tell the kernel of the job's access pattern (`fadvise_hint`), if anything.
    pub fadvise: Option<iomark_engine::file::Access>,
    /// Buffer alignment in bytes (`iomem_align`, at least the page size with `direct`).
    pub buffer_align: u64,
    /// `fsync` after this many writes, 0 for never.
    pub fsync_every: u64,
    /// `fdatasync` after this many writes, 0 for never.
    pub fdatasync_every: u64,
    /// `sync_file_range=flags:N`: sync_file_range(2) after every N writes (0 for never)
    /// with these `SYNC_FILE_RANGE_*` flags.
    pub sync_range: crate::sync_range::SyncRange,
    /// `fsync` each file when the job's writes are done (`end_fsync`).
    pub end_fsync: bool,
    /// `fsync` each file when it is closed (`fsync_on_close`).
    pub fsync_on_close: bool,
    /// How writes reach the disk (`sync`).
    pub sync_mode: SyncMode,
    /// Remove the files when the job is done (`unlink`).
    pub unlink: bool,
    /// Remove the files between loops, and open them again (`unlink_each_loop`; see
    /// [`crate::job`]).
    pub unlink_each_loop: bool,
    /// Start each regular file's region at its end (`file_append`; see
    /// [`crate::layout::append`]).
    pub file_append: bool,
    /// Lay out (write) the files before a job that writes, as before one that reads
    /// (`overwrite`).
    pub overwrite: bool,
    /// Bytes of memory to lock in RAM while the job runs (`lockmem`), 0 for none.
    pub lockmem: u64,
    /// The write life time hint of the job's files (`write_hint`, the kernel's value).
    pub write_hint: Option<u64>,
    /// How new files are preallocated (`fallocate`).
    pub prealloc: Prealloc,
    /// Create missing files (`allow_file_create`).
    pub allow_file_create: bool,
    /// Write to block devices even when they are in use (`allow_mounted_write`).
    pub allow_mounted_write: bool,
    /// Open files only when first used (`create_on_open`).
    pub create_on_open: bool,
    /// Lay out this job's files one job at a time (`create_serialize`, default true);
    /// false lays them out beside the other jobs'.
    pub create_serialize: bool,
    /// `fsync` a file after laying it out (`create_fsync`, default true).
    pub create_fsync: bool,
    /// Lay out the files and do no I/O (`create_only`).
    pub create_only: bool,
    /// Use a fixed random seed (`randrepeat`, or `allrandrepeat`).
    pub randrepeat: bool,
    /// The random seed (`randseed`).
    pub randseed: u64,
    /// Random I/O without the map that visits each block once (`norandommap`).
    pub norandommap: bool,
    /// `serialize_overlap`: an I/O waits for the in-flight I/Os it overlaps where either
    /// writes.
    pub serialize_overlap: bool,
    /// Share of random I/O per direction, in percent (`percentage_random`).
    pub percentage_random: [u32; 3],
    /// What write buffers hold and where they live (`buffer_pattern`, `zero_buffers`,
    /// `mem`…).
    pub buffers: crate::buffers::BufferPlan,
    /// Which statistics to keep.
    pub stats: StatsPlan,
    /// Report the disks under the job's files (`disk_util`).
    pub disk_util: bool,
    /// The job's own options as written, for the JSON report's "job options".
    pub options_echo: Vec<(String, String)>,
    /// The global options that reached the job, for the JSON report's "global options".
    pub globals_echo: Vec<(String, String)>,
    /// The job's position among all running jobs (fio's thread number, from 0); seeds
    /// each job's random streams differently.
    pub thread_number: u64,
    /// The log files the job writes.
    pub logs: crate::logs::LogPlan,
    /// The options only the workload reads (distributions, generator, sequencer).
    pub workload: crate::workload_config::WorkloadOptions,
    /// How the job verifies its writes (`verify` and its options), if it does.
    pub verify: Option<crate::verify::VerifyPlan>,
    /// Rate limits and minimums (`rate`, `rate_iops`, `rate_min`, …).
    pub pace: crate::pace::PacePlan,
    /// Think time (`thinktime` and its options), if any.
    pub think: Option<crate::think::ThinkPlan>,
    /// Latency limits and the latency-target search.
    pub latency: crate::target::LatencyPlan,
    /// The steady-state watch (`ss`, `ss_dur`, `ss_ramp`), if `ss_dur` is set.
    pub steady: Option<crate::steady::SteadyPlan>,
    /// The job's flow (`flow`, `flow_id`, `flow_sleep`), if its weight is set.
    pub flow: Option<crate::flow::Flow>,
    /// What the job measures and with which clock (`disable_*`, `gtod_reduce`,
    /// `clocksource`).
    pub timing: crate::timing::Timing,
    /// Where and how urgently the job's thread runs (`cpus_allowed`, `nice`, `prio`…).
    pub placement: crate::placement::Placement,
    /// What the job does when an I/O fails (`continue_on_error`, `ignore_error`,
    /// `error_dump`).
    pub errors: crate::errors::ErrorPolicy,
    /// The log the job replays instead of its own workload (`read_iolog`), if any.
    pub replay: Option<crate::replay::ReplayPlan>,
    /// Per-I/O priorities (`cmdprio_percentage`, `cmdprio_bssplit`…), if any I/O gets one.
    pub cmdprio: Option<crate::cmdprio::CmdPrio>,
    /// The I/O scheduler to switch the job's disks to (`ioscheduler`).
    pub ioscheduler: Option<String>,
    /// The command to run before the job's I/O (`exec_prerun`).
    pub exec_prerun: Option<String>,
    /// The command to run after it (`exec_postrun`).
    pub exec_postrun: Option<String>,
}

impl JobPlan {
    /// Resolves clone `jobnum` of `spec`; looks at the files on disk.
    pub fn new(spec: &JobSpec, jobnum: u64) -> Result<JobPlan, PlanError> {
        let fail = |message: String| PlanError { job: spec.name.clone(), message };
        let bs = get::sizes(spec, "bs", [4096; 3]);
        let bsrange = match spec.value("bsrange") {
            Some(Value::RangePerDir(r)) => r,
            _ => [None; 3],
        };
        let bssplit = match spec.value("bssplit") {
            Some(Value::BsSplit(s)) => s,
            _ => [None, None, None],
        };
        let min_bs = min_block_sizes(&bs, &bsrange, &bssplit);
        let blockalign = get::sizes(spec, "ba", min_bs);
        let rw = get::choice(spec, "rw").unwrap_or(("read", None));
        let rw_name = rw.0;
        let rwmixread = match (spec.value("rwmixread"), spec.value("rwmixwrite")) {
            (_, Some(Value::Int(w))) if last_set(spec, "rwmixwrite", "rwmixread") => {
                100 - w.clamp(0, 100) as u32
            }
            (Some(Value::Int(r)), _) => r.clamp(0, 100) as u32,
            _ => 50,
        };
        let direct = if last_set(spec, "buffered", "direct") {
            !get::flag(spec, "buffered")
        } else {
            get::flag(spec, "direct")
        };
        let page = iomark_engine::system::page_size();
        let align = get::int(spec, "iomem_align").unwrap_or(0);
        let buffer_align = align.max(page);
        if !buffer_align.is_power_of_two() {
            return Err(fail(format!("option 'iomem_align': {align} is not a power of two")));
        }
        let align = min_bs.iter().copied().min().unwrap_or(4096);
        let placement = crate::placement::Placement::of(spec).map_err(fail)?;
        // A replay's files and sizes are its log's (see crate::replay).
        let replay = crate::replay::ReplayPlan::of(spec, jobnum).map_err(fail)?;
        let files = match &replay {
            Some(r) => r.file_plans(bs.iter().copied().max().unwrap_or(0)).map_err(fail)?,
            None => layout::plan_files(spec, jobnum, align).map_err(fail)?,
        };
        let region_bytes: u64 = files.iter().map(|f| f.len).sum();
        // An appending job makes one pass only, as in fio 3.33 (see crate::layout::append).
        let one_pass = get::flag(spec, "file_append")
            && files.iter().any(|f| matches!(f.kind, FileKind::Regular(_) | FileKind::Missing));
        // With `filesize`, `size` is only the default of `io_size` (fio's HOWTO); it caps
        // the I/O but, unlike `io_size`, starts no further pass (fio 3.33: `filesize=16k
        // size=40k` reads 16k).
        let size_caps = match (spec.value("filesize"), get::size_or_percent(spec, "size")) {
            (Some(_), Some(iomark_options::value::SizeOrPercent::Bytes(n)))
                if spec.value("size").is_some() =>
            {
                Some(n)
            }
            _ => None,
        };
        let io_bytes = match get::size_or_percent(spec, "io_size") {
            Some(iomark_options::value::SizeOrPercent::Bytes(n))
                if spec.value("io_size").is_some() =>
            {
                n
            }
            Some(iomark_options::value::SizeOrPercent::Percent(p))
                if spec.value("io_size").is_some() =>
            {
                (region_bytes as f64 * p / 100.0) as u64
            }
            _ => size_caps.unwrap_or(region_bytes),
        };
        let io_bytes = replay.as_ref().map_or(io_bytes, |r| r.bytes());
        let io_bytes = if one_pass { io_bytes.min(region_bytes) } else { io_bytes };
        let engine = get::text(spec, "ioengine").unwrap_or_else(|| "psync".into());
        let iodepth = get::int(spec, "iodepth").unwrap_or(1).clamp(1, 65536) as u32;
        let offload = get::choice(spec, "io_submit_mode").is_some_and(|c| c.0 == "offload");
        if offload && !iomark_engine::registry::completes_in_call(&engine) {
            return Err(fail(format!(
                "option 'io_submit_mode': offload needs a synchronous engine, not \
                 ioengine={engine} (fio: it \"cannot reliably be used with async IO engines\")"
            )));
        }
        let sync_mode = match get::choice(spec, "sync").map(|c| c.0) {
            Some("sync" | "1") => SyncMode::Sync,
            Some("dsync") => SyncMode::Dsync,
            _ => SyncMode::None,
        };
        let engine_options = engine_options(spec, iodepth, direct, sync_mode != SyncMode::None);
        let prealloc = match get::choice(spec, "fallocate").map(|c| c.0) {
            Some("none" | "0") => Prealloc::None,
            Some("posix") => Prealloc::Posix,
            Some("keep") => Prealloc::KeepSize,
            Some("truncate") => Prealloc::Truncate,
            _ => Prealloc::Native,
        };
        let percentage_random = match spec.value_or_default("percentage_random") {
            Some(Value::IntPerDir(v)) => v.map(|p| p.unwrap_or(100).clamp(0, 100) as u32),
            _ => [100; 3],
        };
        let percentile_list = match spec.value_or_default("percentile_list") {
            Some(Value::Floats(v)) => v,
            _ => Vec::new(),
        };
        // The option's parser checks the count and the range 0..100; a 0 is refused here,
        // since fio 3.33 takes it for the end of the list and drops what follows.
        iomark_stats::PercentileList::new(&percentile_list).map_err(|e| {
            let list: Vec<String> = percentile_list.iter().map(f64::to_string).collect();
            fail(format!("option 'percentile_list': invalid list '{}': {e}", list.join(":")))
        })?;
        let pace = crate::pace::PacePlan::of(spec, min_bs).map_err(fail)?;
        let latency = crate::target::LatencyPlan::of(spec).map_err(fail)?;
        let steady = crate::steady::SteadyPlan::of(spec).map_err(fail)?;
        let runtime = get::time(spec, "runtime").filter(|d| !d.is_zero());
        let time_based = get::flag(spec, "time_based");
        if time_based && runtime.is_none() {
            return Err(fail("option 'time_based' needs 'runtime'".into()));
        }
        let logs = crate::logs::LogPlan::of(spec);
        logs.check().map_err(fail)?;
        crate::files::check_unlink_each_loop(spec, &engine).map_err(fail)?;
        if get::flag(spec, "fill_device")
            && !matches!(rw_name, "write" | "randwrite" | "trimwrite" | "randtrimwrite")
        {
            return Err(fail(format!(
                "option 'fill_device': iomark fills a file system only with a job that writes, \
                 not rw={rw_name} (fio 3.33 fills it first and then runs the job)"
            )));
        }
        Ok(JobPlan {
            name: spec.name.clone(),
            description: get::text(spec, "description"),
            jobnum,
            stonewall: spec.stonewall(),
            new_group: spec.stonewall() || get::flag(spec, "new_group"),
            wait_for: get::text(spec, "wait_for"),
            thread: get::flag(spec, "thread"),
            group_reporting: get::flag(spec, "group_reporting"),
            report_stats: get::flag(spec, "stats"),
            engine,
            engine_options,
            offload,
            iodepth,
            batching: Batching::of(spec, iodepth),
            rw,
            rwmixread,
            bs,
            bsrange,
            bssplit,
            blockalign,
            blockalign_given: spec.value("ba").is_some(),
            files,
            io_bytes,
            io_size_given: spec.value("io_size").is_some() && !one_pass,
            // fio 3.33 replays the whole log whatever number_ios says, and runs a
            // time-based job to its runtime (`time_based runtime=1 rate_iops=20
            // number_ios=5` issues 20 I/Os).
            number_ios: if replay.is_some() || time_based {
                0
            } else {
                get::int(spec, "number_ios").unwrap_or(0)
            },
            loops: if one_pass { 1 } else { get::int(spec, "loops").unwrap_or(1).max(1) },
            runtime,
            time_based: time_based && !one_pass,
            ramp_time: get::time(spec, "ramp_time").unwrap_or_default(),
            startdelay: get::time(spec, "startdelay").unwrap_or_default(),
            direct,
            // "pre_read … will also clear the invalidate flag" (fio's HOWTO).
            invalidate: get::flag(spec, "invalidate") && !get::flag(spec, "pre_read"),
            pre_read: get::flag(spec, "pre_read"),
            fill_device: get::flag(spec, "fill_device"),
            exitall: get::flag(spec, "exitall"),
            exitall_on_error: get::flag(spec, "exitall_on_error"),
            exit_what: match get::choice(spec, "exit_what").map(|c| c.0) {
                Some("stonewall") => crate::links::ExitWhat::Stonewall,
                Some("all") => crate::links::ExitWhat::All,
                _ => crate::links::ExitWhat::Group,
            },
            lockfile: match get::choice(spec, "lockfile").map(|c| c.0) {
                Some("exclusive") => crate::lockfile::LockMode::Exclusive,
                Some("readwrite") => crate::lockfile::LockMode::ReadWrite,
                _ => crate::lockfile::LockMode::None,
            },
            fadvise: fadvise(spec, rw_name),
            buffer_align,
            fsync_every: get::int(spec, "fsync").unwrap_or(0),
            fdatasync_every: get::int(spec, "fdatasync").unwrap_or(0),
            sync_range: crate::sync_range::SyncRange::of(spec),
            end_fsync: get::flag(spec, "end_fsync"),
            fsync_on_close: get::flag(spec, "fsync_on_close"),
            sync_mode,
            unlink: get::flag(spec, "unlink"),
            unlink_each_loop: get::flag(spec, "unlink_each_loop"),
            file_append: get::flag(spec, "file_append"),
            overwrite: get::flag(spec, "overwrite"),
            lockmem: get::int(spec, "lockmem").unwrap_or(0),
            write_hint: crate::hints::of(spec),
            prealloc,
            allow_file_create: get::flag(spec, "allow_file_create"),
            allow_mounted_write: get::flag(spec, "allow_mounted_write"),
            create_on_open: get::flag(spec, "create_on_open"),
            create_serialize: get::flag(spec, "create_serialize"),
            create_fsync: get::flag(spec, "create_fsync"),
            create_only: get::flag(spec, "create_only"),
            // fio 3.33: `allrandrepeat=1` makes every stream repeatable even with
            // `randrepeat=0` (iomark's streams all come from the one seed).
            randrepeat: get::flag(spec, "randrepeat") || get::flag(spec, "allrandrepeat"),
            randseed: get::int(spec, "randseed").unwrap_or(0x89),
            norandommap: get::flag(spec, "norandommap"),
            serialize_overlap: get::flag(spec, "serialize_overlap"),
            percentage_random,
            buffers: crate::buffers::BufferPlan::of(spec).map_err(fail)?,
            disk_util: get::flag(spec, "disk_util"),
            stats: StatsPlan {
                clat_percentiles: flag_after_gtod_reduce(spec, "clat_percentiles", false),
                lat_percentiles: flag_after_gtod_reduce(spec, "lat_percentiles", false),
                slat_percentiles: flag_after_gtod_reduce(spec, "slat_percentiles", false),
                percentile_list,
                bw_avg_ms: get::int(spec, "bwavgtime").unwrap_or(500).max(1),
                iops_avg_ms: get::int(spec, "iopsavgtime").unwrap_or(500).max(1),
                unified_rw: match get::choice(spec, "unified_rw_reporting").map(|c| c.0) {
                    Some("mixed" | "1") => UnifiedRw::Mixed,
                    Some("both" | "2") => UnifiedRw::Both,
                    _ => UnifiedRw::None,
                },
            },
            options_echo: echo(spec, false),
            globals_echo: echo(spec, true),
            thread_number: 0,
            logs,
            workload: crate::workload_config::WorkloadOptions::of(spec).map_err(fail)?,
            verify: crate::verify::VerifyPlan::of(spec, min_bs[1]).map_err(fail)?,
            pace,
            think: crate::think::ThinkPlan::of(spec),
            latency,
            steady,
            flow: crate::flow::Flow::of(spec),
            timing: crate::timing::Timing::of(spec),
            placement: placement.clone(),
            cmdprio: crate::cmdprio::CmdPrio::of(spec, placement.ioprio).map_err(fail)?,
            errors: crate::errors::ErrorPolicy::of(spec).map_err(fail)?,
            replay,
            ioscheduler: get::text(spec, "ioscheduler").filter(|s| !s.trim().is_empty()),
            exec_prerun: get::text(spec, "exec_prerun").filter(|c| !c.trim().is_empty()),
            exec_postrun: get::text(spec, "exec_postrun").filter(|c| !c.trim().is_empty()),
        })
    }

    /// The largest buffer any I/O of the job needs.
    pub fn max_block_size(&self) -> u64 {
        let mut max = 0;
        for d in 0..3 {
            max = max.max(self.bs[d]);
            if let Some((_, hi)) = self.bsrange[d] {
                max = max.max(hi);
            }
            if let Some(split) = &self.bssplit[d] {
                max = split.iter().map(|e| e.bs).fold(max, u64::max);
            }
        }
        self.replay.as_ref().map_or(max, |r| max.max(r.max_len()))
    }

    /// Whether the job reads.
    pub fn reads(&self) -> bool {
        match &self.replay {
            Some(r) => r.dirs()[0],
            None => matches!(self.rw.0, "read" | "randread" | "rw" | "readwrite" | "randrw"),
        }
    }

    /// Whether the job writes or trims.
    pub fn writes(&self) -> bool {
        match &self.replay {
            Some(r) => r.dirs()[1] || r.dirs()[2],
            None => !matches!(self.rw.0, "read" | "randread"),
        }
    }
}

/// The options written for the job (`global` false) or inherited from global sections
/// (`global` true), as fio echoes them in JSON: flags given bare are left out.
fn echo(spec: &JobSpec, global: bool) -> Vec<(String, String)> {
    spec.settings
        .iter()
        .filter(|s| s.global == global && s.place != iomark_options::Place::Implicit)
        .filter_map(|s| Some((s.def.name.to_string(), s.raw.clone()?)))
        .collect()
}

/// Whether `a` was assigned after `b` (or `b` never was).
pub(crate) fn last_set(spec: &JobSpec, a: &str, b: &str) -> bool {
    let pos = |n: &str| spec.settings.iter().rposition(|s| s.def.name == n);
    match (pos(a), pos(b)) {
        (Some(pa), Some(pb)) => pa > pb,
        (Some(_), None) => true,
        _ => false,
    }
}

/// The smallest block size per direction, the default `blockalign`.
fn min_block_sizes(
    bs: &[u64; 3],
    bsrange: &[Option<(u64, u64)>; 3],
    bssplit: &[Option<Vec<SplitEntry>>; 3],
) -> [u64; 3] {
    let mut out = *bs;
    for d in 0..3 {
        if let Some((lo, _)) = bsrange[d] {
            out[d] = lo;
        }
        if let Some(split) = &bssplit[d] {
            out[d] = split.iter().map(|e| e.bs).min().unwrap_or(out[d]);
        }
    }
    out
}

impl JobPlan {
    /// Whether the job's depth is capped at 1 because its engine completes every I/O inside
    /// the call that issues it (fio notes it; `io_submit_mode=offload` lifts the cap).
    pub fn depth_capped(&self) -> bool {
        self.iodepth > 1
            && !self.offload
            && iomark_engine::registry::completes_in_call(&self.engine)
    }
}

/// fio's `fadvise_hint`: `1` (the default) advises by the job's pattern, random for the
/// `rand*` modes and sequential otherwise.
fn fadvise(spec: &JobSpec, rw: &str) -> Option<iomark_engine::file::Access> {
    use iomark_engine::file::Access;
    match get::choice(spec, "fadvise_hint").map(|c| c.0) {
        Some("0") => None,
        Some("random") => Some(Access::Random),
        Some("sequential") => Some(Access::Sequential),
        _ if rw.starts_with("rand") => Some(Access::Random),
        _ => Some(Access::Sequential),
    }
}

/// The most worker threads a `threadpool` job starts by default (its `iodepth`, capped here).
pub const THREADPOOL_DEFAULT_CAP: u32 = 2000;

/// The engine options of a job, with its depth and `direct`.
fn engine_options(spec: &JobSpec, iodepth: u32, direct: bool, sync_writes: bool) -> EngineOptions {
    let int = |name| get::int(spec, name).map(|n| n.min(u64::from(u32::MAX)) as u32);
    let default_threads = iodepth.min(THREADPOOL_DEFAULT_CAP);
    let threads_max = int("threadpool_max").filter(|&n| n > 0).unwrap_or(default_threads);
    let threads_min = int("threadpool_min").unwrap_or(default_threads).clamp(1, threads_max);
    // iomark's io_uring default: buffers and files registered, unless the job says either.
    let register_by_default = spec.value("fixedbufs").is_none()
        && spec.value("registerfiles").is_none()
        && get::text(spec, "ioengine").as_deref() == Some("io_uring");
    EngineOptions {
        iodepth,
        direct,
        sync_writes,
        hipri: get::flag(spec, "hipri"),
        hipri_percentage: int("hipri_percentage").unwrap_or(100).min(100),
        nowait: get::flag(spec, "nowait"),
        uncached: int("uncached").unwrap_or(0),
        fixedbufs: get::flag(spec, "fixedbufs") || register_by_default,
        registerfiles: get::flag(spec, "registerfiles") || register_by_default,
        register_by_default,
        sqthread_poll: get::flag(spec, "sqthread_poll"),
        sqthread_poll_cpu: spec.value("sqthread_poll_cpu").and(int("sqthread_poll_cpu")),
        nonvectored: match spec.value_or_default("nonvectored") {
            Some(iomark_options::value::Value::Int(n)) => n,
            _ => -1,
        },
        force_async: int("force_async").unwrap_or(0),
        userspace_reap: get::flag(spec, "userspace_reap"),
        threads_min,
        threads_max,
    }
}
