//! What a run is set up with before any job runs, below both the run itself
//! ([`crate::execute`]) and the job processes and pictures it starts: how a run ends
//! ([`Outcome`], [`Failure`]), its options ([`run_options`]) and its block-layer tracer
//! ([`block_tracing`]).

use iomark_options::cmdline::ProgramOptions;
use iomark_plan::JobPlan;
use iomark_runner::RunOptions;
use std::sync::Arc;

/// How a run ended, for the exit code.
pub enum Outcome {
    /// Every job ran without error.
    Ok,
    /// A job failed (exit code 1).
    JobFailed,
}

/// Why running stopped before any report.
pub enum Failure {
    /// A configuration error: exit code 2.
    Config(String),
    /// A run-time error: exit code 1.
    Run(String),
    /// Writing the output failed.
    Output(std::io::Error),
}

impl From<std::io::Error> for Failure {
    fn from(e: std::io::Error) -> Self {
        Failure::Output(e)
    }
}

/// The run's block-layer tracer when a job asks for the split (`--block-latency`,
/// `block_latency=1`); where there can be none, one that tells each job why, or, with
/// `--warnings-fatal`, the run's failure before it starts.
pub(crate) fn block_tracing(
    program: &ProgramOptions,
    plans: &[JobPlan],
) -> Result<Option<Arc<dyn iomark_stats::block::BlockTracing>>, Failure> {
    if !program.block_latency && !plans.iter().any(|p| p.report.block_latency) {
        return Ok(None);
    }
    let tracing = match run_options().fake_clock_step_ns {
        Some(_) => Err("block latency is not available under the fake clock".to_string()),
        None => iomark_blklat::for_run(),
    };
    Ok(Some(match tracing {
        Ok(t) => Arc::new(t),
        Err(note) if program.warnings_fatal => {
            return Err(Failure::Run(format!("{note} (--warnings-fatal)")))
        }
        Err(note) => Arc::new(iomark_blklat::Unavailable(note)),
    }))
}

/// The run options; the hidden `IOMARK_FAKE_CLOCK_NS` environment variable selects the fake
/// clock (moving that many nanoseconds per read), which makes reports byte-stable for the
/// golden tests.
pub fn run_options() -> RunOptions {
    let step = std::env::var("IOMARK_FAKE_CLOCK_NS").ok().and_then(|v| v.parse().ok());
    RunOptions { fake_clock_step_ns: step, ..RunOptions::default() }
}
