//! Runs planned jobs ([`iomark_plan::JobPlan`]): file layout, the job threads with the
//! submit/reap loop and all timing in one place, the features that act as a job runs
//! (rates, think time, verification, logs, replays…), groups, stonewall, ramp, runtime and
//! signals, and what the jobs of a run share while they run.
//!
//! Owns every clock read on the I/O path. Each feature's run-time takes the sub-plan it
//! needs (`&plan.files`, `&plan.pacing`), never the whole plan; only a job thread's entry,
//! the run's orchestration and the report building do.
//!
//! The modules, from the top down (each imports only those below it):
//!
//! - `run`: a whole run: the plans checked (also without running, [`check`]), the files
//!   laid out, the waves of job threads, the one report at the end ([`run()`],
//!   [`interim_report`]);
//! - `job`: one job thread and its submit/reap loop;
//! - `logs`: the log files a job writes (on a log thread of its own), `--bandwidth-log`
//!   ([`AggBandwidthLog`]) and `--inflate-log` ([`inflate`]);
//! - `links`: what the jobs of a run share while they run: `exitall`, flows, file locks,
//!   the status board ([`StatusBoard`]) and the progress counters ([`Progress`]);
//! - `features`: each feature's run-time (rates, think time, latency targets, steady
//!   state, per-I/O priorities, replays, the verify helpers' host);
//! - `system`: what a job asks of the operating system around its I/O (placement, I/O
//!   scheduler, write hints, disk statistics, the device safety rule, `exec_*` commands);
//! - `files`, `clock`, `request`, `outcome`: a job's files, its clock, one I/O, what it
//!   hands back.
#![forbid(unsafe_code)]

mod clock;
mod features;
mod files;
mod job;
mod links;
mod logs;
mod outcome;
mod request;
mod run;
mod system;

pub use clock::start_calibration;
pub use files::write_out;
pub use links::progress::{Progress, Watch};
pub use links::status::StatusBoard;
pub use logs::agg::{AggBandwidthLog, AggBandwidthThread};
pub use logs::{hist_text, inflate, records_text, InflateError};
pub use outcome::JobOutcome;
pub use run::schedule::group_ids;
pub use run::{
    check, ctime, header, interim_report, plans, process_reply, reduce, run, run_outcomes,
    serve_in_process, Checks, JobProcesses, ProcessReply, RawJob, RunError, RunOptions,
    RunOutcomes, FIO_COMPAT,
};
pub use system::idle::{IdleProfiler, Spinners};
pub use system::safety::device_in_use;

/// The causes inside a [`RunError`], for callers that look past its message.
pub mod error {
    pub use crate::files::{FileAction, FileError};
    pub use crate::job::{JobError, JobFailure};
    pub use crate::logs::LogError;
    pub use crate::run::ScheduleError;
    pub use crate::system::exec::{ExecError, Stage};
    pub use crate::system::iosched::{IoSchedulerError, SwitchFailure};
    pub use crate::system::placement::PlacementError;
}

/// The one job of a command line `--name=j --ARG…` (for tests); `Err` for a bad value.
#[cfg(test)]
pub(crate) mod testing {
    use iomark_options::JobSpec;

    /// The job of `--name=j` and `args`, each written `option=value`.
    pub(crate) fn spec(args: &[&str]) -> Result<JobSpec, String> {
        let mut argv = vec!["--name=j".to_string()];
        argv.extend(args.iter().map(|a| format!("--{a}")));
        let cmd = iomark_options::cmdline::parse(argv).map_err(|e| e.to_string())?;
        let sources =
            iomark_options::assemble::Sources { cli_jobs: cmd.jobs, ..Default::default() };
        let mut specs = iomark_options::assemble::build(&sources).map_err(|e| e.to_string())?;
        Ok(specs.remove(0))
    }
}
