//! A whole run: plans for every clone of every job, file layout, the waves of job threads,
//! and the one [`RunReport`] at the end (and interim ones on request, [`interim_report`]).
//!
//! A stop request (Ctrl-C) ends the layout of a file, the jobs' `startdelay` and their I/O
//! loops, and no job starts after it; the report then shows what was done, the jobs that
//! never started with nothing.

mod checks;
mod child;
mod error;
pub(crate) mod process;
pub(crate) mod report;
pub(crate) mod schedule;
mod thread;
mod wire;

pub use checks::{check, Checks};
pub use child::{reply as process_reply, serve_in_process};
pub use error::{RunError, ScheduleError};
pub use process::{JobProcesses, ProcessReply};

use crate::clock::{self, JobClock};
use crate::links::progress::Progress;
use crate::links::status::StatusBoard;
use crate::links::RunLinks;
use crate::outcome::JobOutcome;
use iomark_options::JobSpec;
use iomark_plan::layout::FileKind;
use iomark_plan::timing::ClockSource;
use iomark_plan::JobPlan;
use iomark_stats::report::RunReport;
use iomark_stats::Notes;
use iomark_workload::BufferFiller;
use report::report;
pub use report::{ctime, header, RawJob, FIO_COMPAT};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use thread::{job_thread, not_started};

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
    /// The notes of the stages before the run (what the job files say that was read
    /// leniently, the command line's): the report's notes begin with them, then come the
    /// plans' ([`iomark_plan::notes`]) and the jobs' own.
    pub notes: Notes,
    /// The run's block-layer tracing, for the jobs that ask for the split
    /// (`block_latency`, or every job with [`RunOptions::block_latency_all`]).
    pub block_tracing: Option<Arc<dyn iomark_stats::block::BlockTracing>>,
    /// `--block-latency`: every job asks for the split.
    pub block_latency_all: bool,
    /// How to start a job process, for the jobs that run in one (see [`JobProcesses`]); without
    /// it such a job fails.
    pub processes: Option<Arc<dyn JobProcesses>>,
    /// `--job-processes`: fio's process model, every job without `thread` in a child
    /// process.
    pub fio_processes: bool,
}

/// Refuses a job that would write to a block device in use (see `crate::system::safety`).
fn check_devices(plan: &JobPlan) -> Result<(), RunError> {
    if !plan.writes() || plan.files.allow_mounted_write {
        return Ok(());
    }
    for file in &plan.files.list {
        if !matches!(file.kind, FileKind::BlockDevice(_)) {
            continue;
        }
        if let Some(why) = crate::system::safety::device_in_use(&file.path) {
            let (job, path) = (plan.job.name.clone(), file.path.clone());
            return Err(ScheduleError::DeviceInUse { job, path, why }.into());
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
    starting: impl FnMut(&[JobPlan]),
) -> Result<RunReport, RunError> {
    let outcomes = run_outcomes(plans, options, stop, starting)?;
    let mut report = reduce(plans, outcomes, options.fake_clock_step_ns.is_some()).0;
    // The notes of the stages before the run, then the plans', then the jobs' own.
    let mut notes = options.notes.clone();
    notes.extend(iomark_plan::notes(plans).iter());
    notes.extend(report.notes.iter());
    report.notes = notes;
    Ok(report)
}

/// What a run leaves before its reduction: every job's outcome in the order of the plans,
/// when the run started, and the disks under the jobs. The MPI launch gathers these from
/// every rank and merges them job by job before reducing once.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct RunOutcomes {
    /// One per plan, in order.
    pub outcomes: Vec<JobOutcome>,
    /// When the run started, in milliseconds since the epoch (0 under the fake clock).
    pub start_ms: u64,
    /// The disks' statistics.
    pub disks: Vec<iomark_stats::report::DiskReport>,
    /// How many runs these outcomes merge (MPI ranks), each job standing for that many;
    /// 1 for one run.
    pub copies: u32,
}

/// Reduces a run's outcomes into its report ([`run`] is [`run_outcomes`] then this), with
/// what each of the report's jobs was reduced from, in the same order.
pub fn reduce(plans: &[JobPlan], outcomes: RunOutcomes, fake: bool) -> (RunReport, Vec<RawJob>) {
    let groups = schedule::group_ids(plans);
    let (start, copies) = (outcomes.start_ms, outcomes.copies);
    let (mut report, raw) = report(plans, &groups, outcomes.outcomes, (start, copies), fake);
    report.disks = outcomes.disks;
    (report, raw)
}

/// Runs `plans` as [`run`] does, and returns their outcomes unreduced.
pub fn run_outcomes(
    plans: &[JobPlan],
    options: &RunOptions,
    stop: &AtomicBool,
    mut starting: impl FnMut(&[JobPlan]),
) -> Result<RunOutcomes, RunError> {
    let groups = schedule::group_ids(plans);
    check(plans, options.readonly, Checks::BeforeLayout)?;
    // Files of `create_on_open` jobs are laid out by the job itself, when it starts.
    let mut fillers = crate::files::lay_out_all(plans, options.readonly, stop)
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
    let disks = crate::system::disk::DiskWatch::start(
        plans.iter().filter(|p| p.report.disk_util && !fake).map(|p| &p.files),
    );
    let run_start_ms = clock::wall_ms(options.fake_clock_step_ns.is_some());
    board.begin(plans.len(), disks, run_start_ms);
    let mut links = RunLinks::new(plans, groups.clone(), &schedule::waves(plans), false)?;
    links.block = options.block_tracing.clone().map(|t| (t, options.block_latency_all));
    let waves =
        run_waves(plans, (options, &mut fillers), stop, &links, progress, board, &mut starting);
    let (outcomes, disks) = board.end();
    waves?;
    let outcomes = plans
        .iter()
        .zip(outcomes)
        .map(|(p, o)| o.map_or_else(|| not_started(p), Ok))
        .collect::<Result<_, _>>()?;
    let disks = disks.map(crate::system::disk::DiskWatch::finish).unwrap_or_default();
    Ok(RunOutcomes { outcomes, start_ms: run_start_ms, disks, copies: 1 })
}

/// The report so far of the run under way whose jobs answer on `board`: finished jobs as
/// they ended, running ones as they stand (see [`StatusBoard`]), the others with nothing
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
    let (mut report, _) = report(plans, &groups, outcomes, (collected.start_ms, 1), fake);
    report.disks = if fake { Vec::new() } else { collected.disks };
    Some(report)
}

/// The clock of job `plan` in a run with `options`, and a note on it if there is one.
fn job_clock(plan: &JobPlan, options: &RunOptions) -> (JobClock, Option<String>) {
    let traced =
        options.block_tracing.is_some() && (options.block_latency_all || plan.report.block_latency);
    match options.fake_clock_step_ns {
        Some(step) => (JobClock::fake(step), None),
        // The block tracer stamps on CLOCK_MONOTONIC: so does a traced job, unless it asks
        // for another clock.
        None if traced && plan.timing.clock == ClockSource::Default => {
            (JobClock::monotonic(), None)
        }
        None => JobClock::of(&plan.timing),
    }
}

/// The waves of job threads, one after the other; none starts after a stop. Each job leaves
/// its outcome on `board`.
fn run_waves(
    plans: &[JobPlan],
    (options, fillers): (&RunOptions, &mut [Option<BufferFiller>]),
    stop: &AtomicBool,
    links: &RunLinks,
    progress: &Progress,
    board: &StatusBoard,
    starting: &mut impl FnMut(&[JobPlan]),
) -> Result<(), RunError> {
    for wave in schedule::waves(plans) {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let waits = schedule::waits(plans, wave.clone())?;
        starting(&plans[wave.clone()]);
        let done: Arc<Vec<(Mutex<bool>, Condvar)>> =
            Arc::new(wave.clone().map(|_| (Mutex::new(false), Condvar::new())).collect());
        let results = std::thread::scope(|scope| {
            // Threads are joined as they finish, oldest first, while later ones are still
            // being started: a finished thread's stack goes back to the C library (which
            // hands it to the next thread) instead of staying mapped until the wave ends,
            // which keeps thousands of short jobs from holding thousands of stacks at once.
            let mut results = Vec::with_capacity(wave.len());
            let mut handles = std::collections::VecDeque::new();
            for (k, i) in wave.clone().enumerate() {
                let plan = &plans[i];
                let job_progress = progress.job(i);
                let waits: Vec<usize> = waits[k].iter().map(|j| j - wave.start).collect();
                let done = Arc::clone(&done);
                let slot = board.slot(i);
                let filler = fillers[i].take();
                let (clock, clock_note) = job_clock(plan, options);
                handles.push_back(scope.spawn(move || {
                    for w in waits {
                        let (lock, cv) = &done[w];
                        let mut finished = lock.lock().unwrap_or_else(|e| e.into_inner());
                        while !*finished {
                            finished = cv.wait(finished).unwrap_or_else(|e| e.into_inner());
                        }
                    }
                    let result = if process::in_process(plan, options.fio_processes) {
                        let processes = options.processes.as_deref();
                        let shared = (links, job_progress);
                        process::process_job((plan, i), processes, stop, shared, slot)
                    } else {
                        job_thread(
                            plan,
                            (options.readonly, filler),
                            (clock, clock_note),
                            stop,
                            (links, i),
                            job_progress,
                            slot,
                        )
                    };
                    let (lock, cv) = &done[k];
                    *lock.lock().unwrap_or_else(|e| e.into_inner()) = true;
                    cv.notify_all();
                    result
                }));
                while handles.front().is_some_and(|h| h.is_finished()) {
                    results.extend(handles.pop_front().map(|h| h.join()));
                }
            }
            results.extend(handles.into_iter().map(|h| h.join()));
            results
        });
        for (i, result) in wave.zip(results) {
            let job = || plans[i].job.name.clone();
            result.map_err(|_| ScheduleError::JobPanicked { job: job() })??;
        }
    }
    Ok(())
}
