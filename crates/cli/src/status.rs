//! Interim reports while the jobs run, as fio 3.33 prints them: every `--status-interval`
//! and at each SIGUSR1, the whole report so far (cumulative since the start, each job as it
//! stands, finished jobs as they ended) in the output formats asked for; in JSON one whole
//! document each time. The final report follows as usual.
//!
//! The jobs run on a thread of their own; this thread waits for the interval, a SIGUSR1 or
//! the end of the run, and asks the jobs for a copy of their recording
//! ([`iomark_runner::StatusBoard`]) only then.

use crate::signals::{Control, Woken};
use iomark_plan::JobPlan;
use iomark_runner::error::ScheduleError;
use iomark_runner::{self as run, RunError, RunOptions, StatusBoard};
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

/// Runs `plans` and hands every interim report (every `interval`, and at each SIGUSR1) to
/// `interim` while they run; returns the run's result. When `interim` fails (the output is
/// gone), the run is stopped and the error returned after it.
pub fn run_reporting(
    plans: &[JobPlan],
    options: RunOptions,
    control: &'static Control,
    interval: Option<Duration>,
    mut interim: impl FnMut(&RunReport) -> std::io::Result<()>,
) -> std::io::Result<Result<RunReport, RunError>> {
    let board = Arc::new(StatusBoard::new());
    let fake = options.fake_clock_step_ns.is_some();
    let options = RunOptions { status: Some(Arc::clone(&board)), ..options };
    control.set_running(true);
    let mut printed = Ok(());
    let result = std::thread::scope(|scope| {
        let runner = scope.spawn(|| {
            let _over = Over(control);
            run::run(plans, &options, &control.stop, |_| {})
        });
        let mut seen = control.usr1_seen();
        let mut next = interval.map(|i| Instant::now() + i);
        loop {
            match control.wait(&mut seen, next) {
                Woken::Over => break,
                Woken::Usr1 => {}
                Woken::Tick => {
                    // The next tick on the interval's grid, skipping any missed.
                    if let (Some(n), Some(i)) = (next.as_mut(), interval) {
                        let now = Instant::now();
                        while *n <= now {
                            *n += i;
                        }
                    }
                }
            }
            if printed.is_err() {
                continue;
            }
            if let Some(report) = run::interim_report(plans, &board, fake) {
                printed = interim(&report);
                if printed.is_err() {
                    control.stop.store(true, std::sync::atomic::Ordering::SeqCst);
                }
            }
        }
        runner.join().unwrap_or_else(|_| Err(ScheduleError::Panicked.into()))
    });
    printed.map(|()| result)
}
