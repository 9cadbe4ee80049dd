//! Job processes: a job run in a child process of iomark instead of a thread, when it
//! needs a process of its own (`cgroup`, `uid`, `gid`) or the run asks for fio's process
//! model (`--job-processes`, for jobs without `thread`).
//!
//! The child is iomark itself, started by the front end's [`JobProcesses`] (the cli
//! re-executes its own program in a hidden mode). The parent's job thread starts it with
//! its standard input and output on pipes, places it in its control group
//! (`crate::system::cgroup`), then writes the front end's request (which job, with which
//! seeds) and closes the pipe; the child plans the same run, takes its ids (`gid`, `uid`),
//! runs that one job as a job thread would ([`run_in_process`]) and writes its outcome as
//! JSON ([`ProcessReply`]) on its standard output. The parent reads it, waits for the
//! child, removes the group, and the outcome joins the others: reports, groups, `stonewall`
//! and `wait_for` treat it as any job's. A child that dies without an outcome (a signal, an
//! exit) is reported as that job's failure with `EINTR` and the reason, and the run goes on.
//!
//! The parent lays out the job's files before, as fio does; the child's write buffers then
//! start their stream anew instead of going on from the layout's. What a child job does not
//! share with the rest of the run: the live progress and interim reports (they show the job
//! as not started until it ends), the block-latency split, and file locks and flows with
//! other jobs. A stop of the run (a signal, a trigger) or of the job (another job's
//! `exitall`) reaches the child as SIGTERM, which stops its job as it stops a run; its own
//! end stops the others as any job's does.

use super::thread::not_started;
use crate::clock::JobClock;
use crate::job::{JobError, JobOutcome};
use crate::links::status::JobSlot;
use crate::links::RunLinks;
use iomark_plan::JobPlan;
use std::io::{Read, Write};
use std::os::unix::process::ExitStatusExt;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};

/// How a run starts a job process: the front end knows how to start iomark again and what
/// the child needs to plan the same run.
pub trait JobProcesses: Send + Sync + std::fmt::Debug {
    /// The command of a child that reads its request on standard input and writes its
    /// [`ProcessReply`] as JSON on standard output.
    fn command(&self) -> Command;
    /// The request for job `index` of the run (planned as `plan`): what the child reads
    /// before it starts.
    fn request(&self, index: usize, plan: &JobPlan) -> Vec<u8>;
}

/// What a job process writes back: the job's outcome, or why it could not run at all (an
/// errno and the message), which the parent reports as the job's failure.
pub type ProcessReply = Result<JobOutcome, (i32, String)>;

/// The errno and message of a job that could not run at all: the first system error among
/// its causes (`EINVAL` when none is one).
fn job_error(e: &JobError) -> (i32, String) {
    let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(&e.source);
    let mut errno = libc::EINVAL;
    while let Some(c) = cause {
        if let Some(code) = c.downcast_ref::<std::io::Error>().and_then(|io| io.raw_os_error()) {
            errno = code;
            break;
        }
        cause = c.source();
    }
    (errno, e.source.to_string())
}

/// Whether job `plan` runs in a child process: it needs one, or `fio_model` (fio's process
/// model) holds and the job does not ask for a thread.
pub(crate) fn in_process(plan: &JobPlan, fio_model: bool) -> bool {
    plan.placement.process.needs_process() || (fio_model && !plan.report.thread)
}

/// The job thread of job `i` that runs it in a child process started by `processes`: its
/// outcome goes to `slot`, as a job thread's does.
pub(super) fn process_job(
    (plan, i): (&JobPlan, usize),
    processes: Option<&dyn JobProcesses>,
    stop: &AtomicBool,
    links: &RunLinks,
    slot: JobSlot<'_>,
) -> Result<(), JobError> {
    if stop.load(Ordering::Relaxed) || plan.files.create_only || links.stopped(i) {
        return Ok(());
    }
    let outcome = match processes {
        Some(p) => run_child(plan, i, p, (stop, links))?,
        None => failed(plan, libc::ENOSYS, "cannot start a job process here".into())?,
    };
    links.job_ended(i, &plan.schedule, outcome.error != 0);
    slot.done(outcome);
    Ok(())
}

/// The outcome of job `plan`, which failed with `errno` and `text` before any I/O; the
/// line is also written on standard error, as fio writes its own.
fn failed(plan: &JobPlan, errno: i32, text: String) -> Result<JobOutcome, JobError> {
    eprintln!("iomark: job '{}': {text}", plan.job.name);
    let mut outcome = not_started(plan)?;
    (outcome.error, outcome.error_text) = (errno, text);
    Ok(outcome)
}

/// Starts, places, instructs and waits for the child of job `i`, and reads its outcome.
fn run_child(
    plan: &JobPlan,
    i: usize,
    processes: &dyn JobProcesses,
    (stop, links): (&AtomicBool, &RunLinks),
) -> Result<JobOutcome, JobError> {
    let mut command = processes.command();
    command.stdin(Stdio::piped()).stdout(Stdio::piped());
    let mut child = match command.spawn() {
        Ok(child) => child,
        Err(e) => {
            let errno = e.raw_os_error().unwrap_or(libc::EIO);
            return failed(plan, errno, format!("cannot start its process: {e}"));
        }
    };
    let pid = child.id();
    let group = match &plan.placement.process.cgroup {
        Some(cgroup) => match links.cgroups.enter(cgroup, pid) {
            Ok(dir) => Some(dir),
            Err(e) => {
                // The child has read nothing yet: it ends on the closed pipe.
                drop(child.stdin.take());
                let _ = child.kill();
                let _ = child.wait();
                return failed(plan, e.errno(), e.to_string());
            }
        },
        None => None,
    };
    if let Some(mut stdin) = child.stdin.take() {
        // A child that died at once is reported below, from its status.
        let _ = stdin.write_all(&processes.request(i, plan));
    }
    let mut reply = Vec::new();
    let ended = AtomicBool::new(false);
    let (status, stopped) = std::thread::scope(|scope| {
        let watch = scope.spawn(|| forward_stop(pid, (stop, &ended), || links.stopped(i)));
        if let Some(mut stdout) = child.stdout.take() {
            let _ = stdout.read_to_end(&mut reply);
        }
        let status = child.wait();
        ended.store(true, Ordering::Relaxed);
        (status, watch.join().unwrap_or(false))
    });
    if let Some(dir) = &group {
        links.cgroups.leave(dir);
    }
    let reply: Option<ProcessReply> = serde_json::from_slice(&reply).ok();
    match (reply, status) {
        (Some(Ok(outcome)), _) => Ok(outcome),
        (Some(Err((errno, why))), _) => failed(plan, errno, why),
        // Stopped before it could take the signal as a stop: it did nothing.
        (None, Ok(status)) if stopped && status.signal() == Some(libc::SIGTERM) => {
            not_started(plan)
        }
        (None, Ok(status)) => {
            let how = match status.signal() {
                Some(signal) => format!("killed by signal {signal}"),
                None => format!("ended with {status} before its report"),
            };
            failed(plan, libc::EINTR, format!("its process {pid} was {how}"))
        }
        (None, Err(e)) => failed(plan, libc::ECHILD, format!("its process {pid} was lost: {e}")),
    }
}

/// How often the parent looks whether a running job process is to stop.
const STOP_CHECK: std::time::Duration = std::time::Duration::from_millis(20);

/// Until `ended`, looks every [`STOP_CHECK`] whether the run stops (`stop`: a signal, a
/// trigger) or the job is stopped (`stopped`: another job's `exitall`), and then sends the
/// job's process SIGTERM once: it stops its job as a stopped run does, and reports it.
/// Whether it sent it.
fn forward_stop(
    pid: u32,
    (stop, ended): (&AtomicBool, &AtomicBool),
    stopped: impl Fn() -> bool,
) -> bool {
    while !ended.load(Ordering::Relaxed) {
        if stop.load(Ordering::Relaxed) || stopped() {
            return iomark_engine::thread::signal(pid, libc::SIGTERM).is_ok();
        }
        std::thread::sleep(STOP_CHECK);
    }
    false
}

/// In the child: runs job `index` of `plans` as its job thread would, after taking its ids
/// (`gid`, then `uid`); the files are the parent's, laid out already. A job that cannot
/// take its ids fails before any I/O with the system's error, as fio's does.
pub fn run_in_process(
    plans: &[JobPlan],
    index: usize,
    options: &super::RunOptions,
    stop: &AtomicBool,
) -> ProcessReply {
    let plan =
        plans.get(index).ok_or_else(|| (libc::EINVAL, format!("the run has no job {index}")))?;
    let process = &plan.placement.process;
    if let Err(e) = iomark_engine::thread::set_ids(process.uid, process.gid) {
        let errno = e.raw_os_error().unwrap_or(libc::EPERM);
        let what = if process.uid.is_some() { "setuid" } else { "setgid" };
        let text = format!("{what}: {}", crate::job::errno_text(errno));
        return failed(plan, errno, text).map_err(|e| job_error(&e));
    }
    let groups = super::schedule::group_ids(plans);
    let links = RunLinks::new(plans, groups, &super::schedule::waves(plans));
    let board = crate::links::status::StatusBoard::new();
    let fake = options.fake_clock_step_ns.is_some();
    let disks = crate::system::disk::DiskWatch::start(std::iter::empty());
    board.begin(plans.len(), disks, crate::clock::wall_ms(fake));
    let progress = crate::links::progress::Progress::new(plans);
    let clock = match options.fake_clock_step_ns {
        Some(step) => (JobClock::fake(step), None),
        None => JobClock::of(&plan.timing),
    };
    let slot = board.slot(index);
    super::thread::job_thread(
        plan,
        (options.readonly, None),
        clock,
        stop,
        (&links, index),
        progress.job(index),
        slot,
    )
    .map_err(|e| job_error(&e))?;
    let outcome = board.end().0.into_iter().nth(index).flatten();
    outcome.map_or_else(|| not_started(plan), Ok).map_err(|e| job_error(&e))
}
