//! A whole run: plans for every clone of every job, file layout, the waves of job threads,
//! and the one [`RunReport`] at the end (and interim ones on request, [`interim_report`]).
//!
//! A stop request (Ctrl-C) ends the layout of a file, the jobs' `startdelay` and their I/O
//! loops, and no job starts after it; the report then shows what was done, the jobs that
//! never started with nothing.

use crate::clock::{self, JobClock};
use crate::exec::Stage;
use crate::job::{self, JobOutcome};
use crate::progress::Progress;
use crate::schedule;
use crate::status::StatusBoard;
use iomark_options::JobSpec;
use iomark_plan::layout::FileKind;
use iomark_plan::{JobPlan, PlanError};
use iomark_stats::reduce::{self, JobMeta, JobTimes, PercentileList};
use iomark_stats::report::{
    ErrorReport, JobHeader, JobReport, LatencyTarget, RunReport, REPORT_VERSION,
};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};

/// The fio release whose formats the report follows.
pub const FIO_COMPAT: &str = "fio-3.33";

/// How to run.
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    /// Use the fake clock moving this many nanoseconds per read (golden tests).
    pub fake_clock_step_ns: Option<u64>,
    /// `--readonly`: never create, extend or write a file.
    pub readonly: bool,
    /// Where the jobs publish their progress (for the ETA line), if anywhere.
    pub progress: Option<Arc<Progress>>,
    /// Where the jobs answer requests for interim reports, if anywhere.
    pub status: Option<Arc<StatusBoard>>,
}

/// Why a run could not be done.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// A configuration that cannot run (exit code 2).
    #[error(transparent)]
    Plan(#[from] PlanError),
    /// Scheduling options that do not fit together (exit code 2).
    #[error("{0}")]
    Schedule(String),
    /// Preparing a file failed (exit code 1).
    #[error("job '{job}': {source}")]
    Layout {
        /// The job.
        job: String,
        /// What failed.
        source: crate::files::FileError,
    },
    /// A job could not start (exit code 1).
    #[error(transparent)]
    Job(#[from] job::JobError),
}

/// Refuses a job that would write to a block device in use (see [`crate::safety`]).
fn check_devices(plan: &JobPlan) -> Result<(), RunError> {
    if !plan.writes() || plan.files.allow_mounted_write {
        return Ok(());
    }
    for file in &plan.files.list {
        if !matches!(file.kind, FileKind::BlockDevice(_)) {
            continue;
        }
        if let Some(why) = crate::safety::device_in_use(&file.path) {
            return Err(RunError::Schedule(format!(
                "job '{}': refusing to write to {}: {why} (set allow_mounted_write=1 to \
                 write anyway)",
                plan.job.name,
                file.path.display()
            )));
        }
    }
    Ok(())
}

/// The plans of every clone of every job, in order ([`iomark_plan::plans`]); refuses writes
/// to block devices in use.
pub fn plans(specs: &[JobSpec]) -> Result<Vec<JobPlan>, RunError> {
    let mut plans = Vec::new();
    for plan in iomark_plan::plans(specs) {
        let plan = plan?;
        check_devices(&plan)?;
        plans.push(plan);
    }
    Ok(plans)
}

/// Runs `plans` to the end (or until `stop`), calling `starting` as each wave starts, and
/// reduces everything into the run's report. Jobs that never started (stopped first) are in
/// the report with nothing done.
pub fn run(
    plans: &[JobPlan],
    options: &RunOptions,
    stop: &AtomicBool,
    mut starting: impl FnMut(&[JobPlan]),
) -> Result<RunReport, RunError> {
    let groups = schedule::group_ids(plans);
    // Files of `create_on_open` jobs are laid out by the job itself, when it starts.
    crate::files::lay_out_all(plans, options.readonly, stop)
        .map_err(|(job, source)| RunError::Layout { job, source })?;
    let local_board;
    let board = match &options.status {
        Some(b) => b.as_ref(),
        None => {
            local_board = StatusBoard::new();
            &local_board
        }
    };
    let local;
    let progress = match &options.progress {
        Some(p) => p.as_ref(),
        None => {
            local = Progress::new(plans);
            &local
        }
    };
    // Under the fake clock nothing measured from the system enters the report.
    let fake = options.fake_clock_step_ns.is_some();
    let disks = crate::disk::DiskWatch::start(
        plans.iter().filter(|p| p.report.disk_util && !fake).map(|p| &p.files),
    );
    let run_start_ms = clock::wall_ms(options.fake_clock_step_ns.is_some());
    board.begin(plans.len(), disks, run_start_ms);
    let links = crate::links::RunLinks::new(plans);
    let waves = run_waves(plans, options, stop, &links, progress, board, &mut starting);
    let (outcomes, disks) = board.end();
    waves?;
    let outcomes = plans
        .iter()
        .zip(outcomes)
        .map(|(p, o)| o.map_or_else(|| not_started(p), Ok))
        .collect::<Result<_, _>>()?;
    let disks = disks.map(crate::disk::DiskWatch::finish).unwrap_or_default();
    let mut report = report(plans, &groups, outcomes, run_start_ms, fake);
    report.disks = disks;
    Ok(report)
}

/// The report so far of the run under way whose jobs answer on `board`: finished jobs as
/// they ended, running ones as they stand (see [`crate::status`]), the others with nothing
/// done. `None` when no run is under way.
pub fn interim_report(plans: &[JobPlan], board: &StatusBoard, fake: bool) -> Option<RunReport> {
    let collected = board.collect()?;
    let outcomes = plans
        .iter()
        .zip(collected.outcomes)
        .map(|(p, o)| o.map_or_else(|| not_started(p), Ok))
        .collect::<Result<_, _>>()
        .ok()?;
    let groups = schedule::group_ids(plans);
    let mut report = report(plans, &groups, outcomes, collected.start_ms, fake);
    report.disks = if fake { Vec::new() } else { collected.disks };
    Some(report)
}

/// A job that did nothing: never started, or stopped before it did.
fn not_started(plan: &JobPlan) -> Result<JobOutcome, RunError> {
    let sync = plan.engine.sync();
    let recorder = iomark_stats::recorder::JobRecorder::new(job::recorder_config(plan, sync), 0)
        .map_err(|e| job::JobError { job: plan.job.name.clone(), message: e.to_string() })?;
    Ok(JobOutcome {
        recorder,
        times: JobTimes::default(),
        error: 0,
        error_text: String::new(),
        notes: Vec::new(),
        pid: 0,
        start_wall_ms: 0,
        latency_depth: plan.engine.iodepth,
        steadystate: None,
    })
}

/// The waves of job threads, one after the other; none starts after a stop. Each job leaves
/// its outcome on `board`.
fn run_waves(
    plans: &[JobPlan],
    options: &RunOptions,
    stop: &AtomicBool,
    links: &crate::links::RunLinks,
    progress: &Progress,
    board: &StatusBoard,
    starting: &mut impl FnMut(&[JobPlan]),
) -> Result<(), RunError> {
    for wave in schedule::waves(plans) {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let waits = schedule::waits(plans, wave.clone()).map_err(RunError::Schedule)?;
        starting(&plans[wave.clone()]);
        let done: Arc<Vec<(Mutex<bool>, Condvar)>> =
            Arc::new(wave.clone().map(|_| (Mutex::new(false), Condvar::new())).collect());
        let results = std::thread::scope(|scope| {
            let mut handles = Vec::new();
            for (k, i) in wave.clone().enumerate() {
                let plan = &plans[i];
                let job_progress = progress.job(i);
                let waits: Vec<usize> = waits[k].iter().map(|j| j - wave.start).collect();
                let done = Arc::clone(&done);
                let slot = board.slot(i);
                let (clock, clock_note) = match options.fake_clock_step_ns {
                    Some(step) => (JobClock::fake(step), None),
                    None => JobClock::of(&plan.timing),
                };
                handles.push(scope.spawn(move || {
                    for w in waits {
                        let (lock, cv) = &done[w];
                        let mut finished = lock.lock().unwrap_or_else(|e| e.into_inner());
                        while !*finished {
                            finished = cv.wait(finished).unwrap_or_else(|e| e.into_inner());
                        }
                    }
                    let result = job_thread(
                        plan,
                        options,
                        (clock, clock_note),
                        stop,
                        (links, i),
                        job_progress,
                        slot,
                    );
                    let (lock, cv) = &done[k];
                    *lock.lock().unwrap_or_else(|e| e.into_inner()) = true;
                    cv.notify_all();
                    result
                }));
            }
            handles.into_iter().map(|h| h.join()).collect::<Vec<_>>()
        });
        for (i, result) in wave.zip(results) {
            result.map_err(|_| {
                RunError::Schedule(format!("job '{}': its thread panicked", plans[i].job.name))
            })??;
        }
    }
    Ok(())
}

/// One job's thread once the jobs it waits for are done: its placement (affinity,
/// priorities), the layout of a `create_on_open` job's files, `ioscheduler`,
/// `exec_prerun`, the job and
/// `exec_postrun`; the outcome goes to `slot`. A job stopped before it began, or whose
/// `exec_prerun` failed, stays out (reported with nothing done).
fn job_thread(
    plan: &JobPlan,
    options: &RunOptions,
    (clock, clock_note): (JobClock, Option<String>),
    stop: &AtomicBool,
    (links, i): (&crate::links::RunLinks, usize),
    progress: &crate::progress::JobProgress,
    mut slot: crate::status::JobSlot<'_>,
) -> Result<(), job::JobError> {
    let name = &plan.job.name;
    let fail = |message: String| job::JobError { job: name.clone(), message };
    crate::placement::apply(&plan.placement, plan.job.thread_number).map_err(fail)?;
    if plan.files.create_on_open {
        crate::files::lay_out(&plan.files, options.readonly, stop)
            .map_err(|e| fail(e.to_string()))?;
    }
    // Stopped, stopped by another job's end (`exitall`) before it began, or `create_only`
    // (the files are laid out, and that is all).
    if stop.load(Ordering::Relaxed) || plan.files.create_only || links.stopped(i) {
        return Ok(());
    }
    let ioscheduler = plan.placement.ioscheduler.as_deref();
    crate::iosched::apply(name, ioscheduler, &plan.files).map_err(fail)?;
    if let Err((errno, text)) = crate::hints::apply(&plan.files) {
        // The job fails before any I/O, and is reported so, as in fio 3.33.
        let mut outcome = not_started(plan).map_err(|e| fail(e.to_string()))?;
        (outcome.error, outcome.error_text) = (errno, text);
        links.job_ended(i, &plan.schedule, true);
        slot.done(outcome);
        return Ok(());
    }
    if let Some(command) = &plan.hooks.prerun {
        if !crate::exec::run(name, Stage::Prerun, command).map_err(fail)? {
            return Ok(());
        }
    }
    let locked = lock_memory(plan);
    let result = job::run(plan, clock, stop, links.job(i, plan), progress, &mut slot);
    drop(locked);
    let errored = result.as_ref().map_or(true, |o| o.error != 0);
    links.job_ended(i, &plan.schedule, errored);
    let mut outcome = result?;
    outcome.notes.extend(clock_note);
    slot.done(outcome);
    if let Some(command) = &plan.hooks.postrun {
        crate::exec::run(name, Stage::Postrun, command).map_err(fail)?;
    }
    Ok(())
}

/// `lockmem`: the memory locked for the job's duration, if it asks for some and the kernel
/// grants it; otherwise the job runs anyway, after a message, as in fio 3.33 (see
/// [`iomark_engine::locked`]).
fn lock_memory(plan: &JobPlan) -> Option<iomark_engine::locked::LockedMemory> {
    let (lockmem, name) = (plan.placement.lockmem, &plan.job.name);
    if lockmem == 0 {
        return None;
    }
    let limit = iomark_engine::locked::limit();
    if lockmem > limit {
        eprintln!("iomark: job '{name}': limiting mlocked memory to {}MiB", limit >> 20);
    }
    iomark_engine::locked::LockedMemory::lock(lockmem.min(limit))
        .map_err(|e| eprintln!("iomark: job '{name}': mlock: {e}"))
        .ok()
}

/// Reduces the outcomes: one report per job, or per group where `group_reporting` is set.
fn report(
    plans: &[JobPlan],
    groups: &[u32],
    outcomes: Vec<JobOutcome>,
    run_start_ms: u64,
    fake: bool,
) -> RunReport {
    let mut jobs: Vec<JobReport> = Vec::new();
    // Under group_reporting, the group's first job stands for the group: its outcome
    // absorbs the others' recordings and times.
    let mut merged: Vec<(u32, usize, JobOutcome, u32)> = Vec::new();
    for (i, mut outcome) in outcomes.into_iter().enumerate() {
        let plan = &plans[i];
        if !plan.report.report_stats {
            // stats=0: fio 3.33 reports the job (and its error) with nothing measured.
            outcome.recorder.clear(0);
            outcome.times = JobTimes::default();
        }
        if plan.report.group_reporting {
            if let Some(m) = merged.iter_mut().find(|m| m.0 == groups[i]) {
                m.2.recorder.merge(&outcome.recorder);
                m.2.times = add_times(&m.2.times, &outcome.times);
                if m.2.error == 0 {
                    m.2.error = outcome.error;
                    m.2.error_text = outcome.error_text;
                }
                for note in outcome.notes {
                    if !m.2.notes.contains(&note) {
                        m.2.notes.push(note);
                    }
                }
                m.3 += 1;
                continue;
            }
            merged.push((groups[i], i, outcome, 1));
            continue;
        }
        let pcts = percentiles(plan);
        let meta = meta(plan, groups[i], 1, &outcome, run_start_ms, fake);
        jobs.push(reduce::job_report(&outcome.recorder, meta, &outcome.times, &pcts));
    }
    for (group, first, outcome, count) in merged {
        let plan = &plans[first];
        let pcts = percentiles(plan);
        let meta = meta(plan, group, count, &outcome, run_start_ms, fake);
        jobs.push(reduce::job_report(&outcome.recorder, meta, &outcome.times, &pcts));
    }
    jobs.sort_by_key(|j| j.groupid);
    let groups = reduce::group_reports(&mut jobs);
    let end_ms = clock::wall_ms(fake);
    RunReport {
        version: REPORT_VERSION,
        iomark_version: env!("CARGO_PKG_VERSION").to_string(),
        fio_compat: FIO_COMPAT.to_string(),
        timestamp: end_ms / 1000,
        timestamp_ms: end_ms,
        time: ctime(end_ms),
        global_options: plans.first().map(|p| p.report.globals_echo.clone()).unwrap_or_default(),
        jobs,
        groups,
        disks: Vec::new(),
    }
}

fn percentiles(plan: &JobPlan) -> PercentileList {
    PercentileList::new(&plan.report.stats.percentile_list).unwrap_or_default()
}

fn add_times(a: &JobTimes, b: &JobTimes) -> JobTimes {
    JobTimes {
        runtime_ms: [0, 1, 2].map(|d| a.runtime_ms[d].max(b.runtime_ms[d])),
        total_run_ms: a.total_run_ms + b.total_run_ms,
        usr_ns: a.usr_ns + b.usr_ns,
        sys_ns: a.sys_ns + b.sys_ns,
        ctx: a.ctx + b.ctx,
        majf: a.majf + b.majf,
        minf: a.minf + b.minf,
    }
}

fn meta(
    plan: &JobPlan,
    groupid: u32,
    jobs: u32,
    outcome: &JobOutcome,
    run_start_ms: u64,
    fake: bool,
) -> JobMeta {
    let end_ms = clock::wall_ms(fake);
    let latency = &plan.pacing.latency;
    // A job that went on past errors reports its first one (fio's `error`).
    let counts = outcome.recorder.errors;
    let errors = plan.errors.counts_errors().then(|| ErrorReport {
        total_err: counts.total,
        first_error: counts.first,
        first_error_text: crate::errors::errno_text(counts.first),
        fatal: outcome.error != 0,
    });
    JobMeta {
        name: plan.job.name.clone(),
        description: plan.job.description.clone(),
        groupid,
        jobs,
        error: if outcome.error != 0 { outcome.error } else { counts.first },
        error_text: outcome.error_text.clone(),
        errors,
        notes: outcome.notes.clone(),
        pid: outcome.pid,
        start_time: ctime(outcome.start_wall_ms),
        elapsed_s: end_ms.saturating_sub(run_start_ms).div_ceil(1000),
        options: plan.report.options_echo.clone(),
        header: header(plan),
        latency_target: LatencyTarget {
            depth: outcome.latency_depth,
            target: latency.target_ns,
            percentile: latency.percentile,
            window: latency.window_ns / 1000,
        },
        unified_rw: plan.report.stats.unified_rw,
        steadystate: outcome.steadystate.clone(),
    }
}

/// What fio's start line (and the report) says of job `plan`: its pattern, block sizes,
/// engine and depth.
pub fn header(plan: &JobPlan) -> JobHeader {
    JobHeader {
        rw: plan.workload.rw.name().to_string(),
        bs: plan.workload.block_size_ranges(),
        ioengine: plan.engine.name.clone(),
        iodepth: plan.engine.iodepth,
    }
}

/// Wall-clock milliseconds as `ctime(3)` writes them (UTC), without the newline:
/// `Sun Nov 22 02:41:06 2026`.
pub fn ctime(ms: u64) -> String {
    const DAYS: [&str; 7] = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"];
    const MONTHS: [&str; 12] =
        ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
    let secs = ms / 1000;
    let days = secs / 86_400;
    let (h, m, s) = ((secs / 3600) % 24, (secs / 60) % 60, secs % 60);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{} {} {:2} {:02}:{:02}:{:02} {}",
        DAYS[(days % 7) as usize],
        MONTHS[(month - 1) as usize],
        day,
        h,
        m,
        s,
        year
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn ctime_matches_the_c_library_layout() {
        assert_eq!(super::ctime(0), "Thu Jan  1 00:00:00 1970");
        assert_eq!(super::ctime(1_795_315_266_361), "Sun Nov 22 02:41:06 2026");
    }
}
