//! Runs planned jobs ([`iomark_plan::JobPlan`]): file layout, the job threads with the
//! submit/reap loop and all timing in one place, the features that act as a job runs
//! (rates, think time, verification, logs, replays…), groups, stonewall, ramp, runtime and
//! signals, and what the jobs of a run share while they run ([`links`]).
//!
//! Owns every clock read on the I/O path. Each feature's run-time takes the sub-plan it
//! needs (`&plan.files`, `&plan.pacing`), never the whole plan; only a job thread's entry
//! ([`job::run`]), the run's orchestration and the report building do.
#![forbid(unsafe_code)]

pub mod clock;
pub mod cmdprio;
pub mod disk;
pub mod errors;
pub mod exec;
pub mod files;
pub mod flow;
pub mod hints;
pub mod iosched;
pub mod job;
pub mod links;
pub mod lockfile;
pub mod logs;
pub mod outcome;
pub mod pace;
pub mod placement;
pub mod progress;
pub mod replay;
pub mod run;
pub mod safety;
pub mod schedule;
pub mod status;
pub mod steady;
pub mod target;
pub mod think;
pub mod verify;

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
