//! Interim reports while the jobs run, as fio 3.33 prints them: every `--status-interval`
//! and at each SIGUSR1, the whole report so far (cumulative since the start, each job as it
//! stands, finished jobs as they ended) in the output formats asked for; in JSON one whole
//! document each time. The final report follows as usual.
//!
//! The same machinery takes the snapshots behind the per-interval figures (json-stream, the
//! HTML report's charts over time, the live page): every interval, the jobs' progress is
//! read, then their recording so far, and both go to the caller as a [`Tick::Interval`].
//!
//! The jobs run on a thread of their own; this thread waits for the next interval, a
//! SIGUSR1 or the end of the run, and asks the jobs for a copy of their recording
//! ([`iomark_runner::StatusBoard`]) only then.

use crate::signals::{Control, Woken};
use iomark_plan::JobPlan;
use iomark_runner::error::ScheduleError;
use iomark_runner::{self as run, RunError, RunOptions, StatusBoard};
use iomark_stats::progress::Sample;
use iomark_stats::report::RunReport;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Tells the waiting thread that the run is over, even if the run panicked.
struct Over<'a>(&'a Control);

impl Drop for Over<'_> {
    fn drop(&mut self) {
        self.0.set_running(false);
    }
}

/// What the waiting thread hands over while the jobs run.
pub enum Tick<'r> {
    /// An interim report (every `--status-interval`, and at each SIGUSR1).
    Interim(&'r RunReport),
    /// A snapshot for the per-interval figures: the report so far, and the jobs' progress
    /// read just before it was asked for.
    Interval(&'r RunReport, Sample),
}

/// The next tick of a grid of period `every` after `now`, skipping any missed.
fn advance(next: &mut Option<Instant>, every: Option<Duration>, now: Instant) {
    if let (Some(n), Some(i)) = (next.as_mut(), every) {
        while *n <= now {
            *n += i;
        }
    }
}

/// Runs `plans` and hands `tick` every interim report (every `status`, and at each
/// SIGUSR1) and every snapshot for the interval figures (every `interval`, with the jobs'
/// progress from `options.progress`) while they run; returns the run's result. When `tick`
/// fails (the output is gone), the run is stopped and the error returned after it.
pub fn run_reporting(
    plans: &[JobPlan],
    options: RunOptions,
    control: &'static Control,
    (status, interval): (Option<Duration>, Option<Duration>),
    mut tick: impl FnMut(Tick<'_>) -> std::io::Result<()>,
) -> std::io::Result<Result<RunReport, RunError>> {
    let board = Arc::new(StatusBoard::new());
    let fake = options.fake_clock_step_ns.is_some();
    let progress = options.progress.clone();
    let options = RunOptions { status: Some(Arc::clone(&board)), ..options };
    control.set_running(true);
    let mut printed = Ok(());
    let result = std::thread::scope(|scope| {
        let runner = scope.spawn(|| {
            let _over = Over(control);
            run::run(plans, &options, &control.stop, |_| {})
        });
        let mut seen = control.usr1_seen();
        let start = Instant::now();
        let mut next_status = status.map(|i| start + i);
        let mut next_interval = interval.map(|i| start + i);
        loop {
            let next = match (next_status, next_interval) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            let (interim, snapshot) = match control.wait(&mut seen, next) {
                Woken::Over => break,
                Woken::Usr1 => (true, false),
                Woken::Tick => {
                    let now = Instant::now();
                    let due = (
                        next_status.is_some_and(|n| n <= now),
                        next_interval.is_some_and(|n| n <= now),
                    );
                    advance(&mut next_status, status, now);
                    advance(&mut next_interval, interval, now);
                    due
                }
            };
            if printed.is_err() {
                continue;
            }
            if snapshot {
                let before = progress.as_ref().map(|p| p.sample());
                if let (Some(before), Some(report)) =
                    (before, run::interim_report(plans, &board, fake))
                {
                    printed = tick(Tick::Interval(&report, before));
                }
            }
            if interim && printed.is_ok() {
                if let Some(report) = run::interim_report(plans, &board, fake) {
                    printed = tick(Tick::Interim(&report));
                }
            }
            if printed.is_err() {
                control.stop.store(true, std::sync::atomic::Ordering::SeqCst);
            }
        }
        runner.join().unwrap_or_else(|_| Err(ScheduleError::Panicked.into()))
    });
    printed.map(|()| result)
}
