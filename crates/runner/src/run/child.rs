//! A job process's side of its job ([`serve_in_process`]): it takes its ids, runs its one
//! job as a job thread would, and talks with its parent meanwhile ([`super::wire`]): its
//! progress a few times a second, an answer to each interim report request, and its
//! outcome at the end.

use super::process::{failed, job_error, ProcessReply};
use super::thread::not_started;
use super::wire::{self, FromChild, ProgressNow, ToChild};
use crate::links::progress::Progress;
use crate::links::status::StatusBoard;
use crate::links::RunLinks;
use iomark_plan::JobPlan;
use std::io::BufRead;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Arc;
use std::time::Duration;

/// How often a job process sends its progress counters, when they changed.
const PROGRESS_EVERY: Duration = Duration::from_millis(100);

/// Writes `message` on standard output (a whole line under its lock, so that it never
/// mixes with what a job prints there); a parent gone is no reason to stop the job.
fn tell(message: &FromChild) {
    let _ = wire::send(&mut std::io::stdout().lock(), message);
}

/// The job process's end: writes `reply`, its outcome or why it could not run, for the
/// parent.
pub fn reply(reply: ProcessReply) -> std::io::Result<()> {
    wire::send(&mut std::io::stdout().lock(), &FromChild::Done(Box::new(reply)))
}

/// In the child: runs job `index` of `plans` as its job thread would, after taking its ids
/// (`gid`, then `uid`); the files are the parent's, laid out already. Meanwhile it reads
/// the parent's requests from `input` (the rest of its standard input) and answers them,
/// and sends its progress. A job that cannot take its ids fails before any I/O with the
/// system's error, as fio's does. The outcome is then [`reply`]'s to send.
pub fn serve_in_process(
    plans: &[JobPlan],
    index: usize,
    options: &super::RunOptions,
    stop: &AtomicBool,
    input: Box<dyn BufRead + Send>,
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
    let mut links = RunLinks::new(plans, groups, &super::schedule::waves(plans), true)
        .map_err(|e| (libc::ENOMEM, e.to_string()))?;
    links.block = options.block_tracing.clone().map(|t| (t, options.block_latency_all));
    let board = Arc::new(StatusBoard::new());
    let fake = options.fake_clock_step_ns.is_some();
    let disks = crate::system::disk::DiskWatch::start(std::iter::empty());
    board.begin(plans.len(), disks, crate::clock::wall_ms(fake));
    answer_requests(input, Arc::clone(&board), plan.clone(), index);
    let progress = Progress::new(plans);
    let (clock, note) = super::job_clock(plan, options);
    let slot = board.slot(index);
    let (ended, end) = mpsc::channel::<()>();
    let ran = std::thread::scope(|scope| {
        let counters = progress.job(index);
        scope.spawn(move || {
            let mut last = None;
            loop {
                let now = ProgressNow::of(counters);
                if last != Some(now) {
                    tell(&FromChild::Progress(now));
                    last = Some(now);
                }
                match end.recv_timeout(PROGRESS_EVERY) {
                    Err(RecvTimeoutError::Timeout) => {}
                    _ => return,
                }
            }
        });
        let readonly = options.readonly;
        let ran = super::thread::job_thread(
            plan,
            (readonly, None),
            (clock, note),
            stop,
            (&links, index),
            counters,
            slot,
        );
        drop(ended);
        ran
    });
    tell(&FromChild::Progress(ProgressNow::of(progress.job(index))));
    ran.map_err(|e| job_error(&e))?;
    let outcome = board.end().0.into_iter().nth(index).flatten();
    outcome.map_or_else(|| not_started(plan), Ok).map_err(|e| job_error(&e))
}

/// Answers the parent's requests read from `input`, on a thread of its own for as long as
/// the process lives (it ends with the process, or when the parent closes the pipe): each
/// interim report request with job `index`'s outcome so far from `board` (nothing done
/// before the job starts); none once the job has ended (its outcome follows).
fn answer_requests(
    input: Box<dyn BufRead + Send>,
    board: Arc<StatusBoard>,
    plan: JobPlan,
    index: usize,
) {
    std::thread::spawn(move || {
        for line in input.lines() {
            let Ok(line) = line else { return };
            let Ok(ToChild::Status(n)) = serde_json::from_str(&line) else { continue };
            let Some(collected) = board.collect() else { continue };
            let outcome = collected.outcomes.into_iter().nth(index).flatten();
            let Some(outcome) = outcome.map_or_else(|| not_started(&plan).ok(), Some) else {
                continue;
            };
            tell(&FromChild::Status(n, Box::new(outcome)));
        }
    });
}
