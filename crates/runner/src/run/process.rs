//! Job processes: a job run in a child process of iomark instead of a thread, when it
//! needs a process of its own (`cgroup`, `uid`, `gid`) or the run asks for fio's process
//! model (`--job-processes`, for jobs without `thread`).
//!
//! The child is iomark itself, started by the front end's [`JobProcesses`] (the cli
//! re-executes its own program in a hidden mode). The parent's job thread starts it with
//! its standard input and output on pipes, places it in its control group
//! (`crate::system::cgroup`), then writes the front end's request (which job, with which
//! seeds) as the first line; the child plans the same run, takes its ids (`gid`, `uid`),
//! and runs that one job as a job thread would ([`super::child`]). While it runs, the two
//! talk in lines ([`super::wire`]): the child sends its progress counters, which the
//! parent shows as the job's (the ETA line, the live page, the server's progress), and the
//! parent passes on the run's interim report requests (`--status-interval`, SIGUSR1), which
//! the child answers with its outcome so far; at its end the child sends its outcome. The
//! parent waits for the child, removes the group, and the outcome joins the others:
//! reports, groups, `stonewall` and `wait_for` treat it as any job's. A child that dies
//! without an outcome (a signal, an exit) is reported as that job's failure with `EINTR`
//! and the reason, and the run goes on.
//!
//! The parent lays out the job's files before, as fio does; the child's write buffers then
//! start their stream anew instead of going on from the layout's. A stop of the run (a
//! signal, a trigger) or of the job (another job's `exitall`) reaches the child as
//! SIGTERM, which stops its job as it stops a run; its own end stops the others as any
//! job's does.

use super::thread::not_started;
use super::wire::{self, FromChild, ToChild};
use crate::job::{JobError, JobOutcome};
use crate::links::progress::{JobProgress, JobState};
use crate::links::status::JobSlot;
use crate::links::RunLinks;
use iomark_plan::JobPlan;
use std::io::{BufRead, Write};
use std::os::unix::process::ExitStatusExt;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};

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

pub use super::wire::ProcessReply;

/// The errno and message of a job that could not run at all: the first system error among
/// its causes (`EINVAL` when none is one).
pub(super) fn job_error(e: &JobError) -> (i32, String) {
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
/// outcome goes to `slot`, as a job thread's does, and its progress to `progress`.
pub(super) fn process_job(
    (plan, i): (&JobPlan, usize),
    processes: Option<&dyn JobProcesses>,
    stop: &AtomicBool,
    (links, progress): (&RunLinks, &JobProgress),
    mut slot: JobSlot<'_>,
) -> Result<(), JobError> {
    if stop.load(Ordering::Relaxed) || plan.files.create_only || links.stopped(i) {
        return Ok(());
    }
    let outcome = match processes {
        Some(p) => run_child(plan, i, p, (stop, links), (progress, &mut slot))?,
        None => failed(plan, libc::ENOSYS, "cannot start a job process here".into())?,
    };
    links.job_ended(i, &plan.schedule, outcome.error != 0);
    progress.set_state(JobState::Done);
    slot.done(outcome);
    Ok(())
}

/// The outcome of job `plan`, which failed with `errno` and `text` before any I/O; the
/// line is also written on standard error, as fio writes its own.
pub(super) fn failed(plan: &JobPlan, errno: i32, text: String) -> Result<JobOutcome, JobError> {
    eprintln!("iomark: job '{}': {text}", plan.job.name);
    let mut outcome = not_started(plan)?;
    (outcome.error, outcome.error_text) = (errno, text);
    Ok(outcome)
}

/// Starts, places, instructs and waits for the child of job `i`, and reads its outcome;
/// meanwhile its progress goes to `progress` and interim report requests on `slot` go to
/// it and its answers back.
fn run_child(
    plan: &JobPlan,
    i: usize,
    processes: &dyn JobProcesses,
    (stop, links): (&AtomicBool, &RunLinks),
    (progress, slot): (&JobProgress, &mut JobSlot<'_>),
) -> Result<JobOutcome, JobError> {
    let mut command = processes.command();
    command.stdin(Stdio::piped()).stdout(Stdio::piped());
    links.pass_to(&mut command);
    let mut child = match command.spawn() {
        Ok(child) => child,
        Err(e) => {
            let errno = e.raw_os_error().unwrap_or(libc::EIO);
            return failed(plan, errno, format!("cannot start its process: {e}"));
        }
    };
    let pid = child.id();
    let (group, note) = match &plan.placement.process.cgroup {
        Some(cgroup) => match links.cgroups.enter(cgroup, pid) {
            Ok((dir, note)) => (Some(dir), note),
            Err(e) => {
                // The child has read nothing yet: it ends on the closed pipe.
                drop(child.stdin.take());
                let _ = child.kill();
                let _ = child.wait();
                return failed(plan, e.errno(), e.to_string());
            }
        },
        None => (None, None),
    };
    let mut input = child.stdin.take();
    if let Some(stdin) = &mut input {
        // A child that died at once is reported below, from its status.
        let mut request = processes.request(i, plan);
        request.push(b'\n');
        let _ = stdin.write_all(&request);
    }
    slot.start();
    let (reply, stopped, status) = std::thread::scope(|scope| {
        let (sent, messages) = mpsc::channel();
        let stdout = child.stdout.take();
        scope.spawn(move || stdout.map(|out| read_messages(out, &sent)));
        let mut talk = Talk { input, progress, slot, forwarded: 0 };
        let mut stopped = false;
        let reply = loop {
            match messages.recv_timeout(STOP_CHECK) {
                Ok(FromChild::Done(reply)) => break Some(*reply),
                Ok(message) => talk.take(message),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break None,
            }
            // A stop of the run (a signal, a trigger) or of the job (another job's
            // `exitall`) reaches the child as SIGTERM, once.
            if !stopped && (stop.load(Ordering::Relaxed) || links.stopped(i)) {
                stopped = iomark_engine::thread::signal(pid, libc::SIGTERM).is_ok();
            }
            talk.forward_request();
        };
        drop(talk.input.take());
        (reply, stopped, child.wait())
    });
    links.process_ended(i);
    if let Some(dir) = &group {
        links.cgroups.leave(dir);
    }
    match (reply, status) {
        (Some(Ok(mut outcome)), _) => {
            outcome.notes.extend(note);
            Ok(outcome)
        }
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

/// How often the parent looks whether a running job process is to stop or asked for an
/// interim report, when the child says nothing.
const STOP_CHECK: std::time::Duration = std::time::Duration::from_millis(20);

/// Reads the child's output `stdout` line by line: its messages go to `sent`, any other
/// line to this process's standard output, where a job thread would have written it.
fn read_messages(stdout: std::process::ChildStdout, sent: &mpsc::Sender<FromChild>) {
    let mut lines = std::io::BufReader::new(stdout);
    let mut line = Vec::new();
    loop {
        line.clear();
        match lines.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        let text = line.strip_suffix(b"\n").unwrap_or(&line);
        match wire::message(text) {
            Some(message) => {
                if sent.send(message).is_err() {
                    return;
                }
            }
            None => {
                let mut out = std::io::stdout().lock();
                let _ = out.write_all(&line).and_then(|()| out.flush());
            }
        }
    }
}

/// The parent's side of a running job process: what it passes between the child and the
/// rest of the run.
struct Talk<'a, 'b> {
    /// The child's standard input, for requests.
    input: Option<std::process::ChildStdin>,
    /// The job's progress counters in the parent.
    progress: &'a JobProgress,
    /// The job's slot on the run's status board.
    slot: &'a mut JobSlot<'b>,
    /// The last interim report request passed on.
    forwarded: u64,
}

impl Talk<'_, '_> {
    /// Takes a message of the child's (other than its end).
    fn take(&mut self, message: FromChild) {
        match message {
            FromChild::Progress(now) => now.apply(self.progress),
            FromChild::Status(n, outcome) => {
                self.slot.answer(n, *outcome);
            }
            FromChild::Done(_) => {}
        }
    }

    /// Passes an interim report request of the run on to the child, once.
    fn forward_request(&mut self) {
        let Some(n) = self.slot.requests().pending() else { return };
        if n == self.forwarded {
            return;
        }
        self.forwarded = n;
        let mut line = Vec::new();
        let ok = serde_json::to_writer(&mut line, &ToChild::Status(n)).is_ok();
        line.push(b'\n');
        if let Some(input) = self.input.as_mut().filter(|_| ok) {
            let _ = input.write_all(&line).and_then(|()| input.flush());
        }
    }
}
