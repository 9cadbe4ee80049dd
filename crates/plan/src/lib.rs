//! The plan: one running copy of a job, with every option resolved, as an immutable value
//! made of small typed sub-plans, one per concern: which job it is and when it runs
//! ([`schedule`]), its engine, its workload, its files and their regions, its limits,
//! syncs, buffers, pacing, verification, logs, reporting, timing, placement, error
//! policy, replay and seeds. Each is resolved once, here; the runner hands each feature the
//! sub-plan it needs (`&plan.files`, `&plan.pacing`), never the whole plan.
//!
//! This is the second parsing stage of STYLE.md: the `JobSpec` holds what the user wrote,
//! the plan resolves it (looking at the files on disk) and checks rules that involve several
//! options. Options are read only here, and only through the typed keys of
//! [`iomark_options::keys`]. Errors name the job and the option, and make iomark exit with
//! code 2.
//!
//! A plan holds no live state: what the jobs of a run share while they run (flows, `exitall`,
//! file locks) is the runner's. [`plans`] plans a whole run: the clones of every job in
//! order, each knowing its thread number, the regions of appending jobs placed after what
//! the jobs before them lay out.

#![forbid(unsafe_code)]

pub mod buffers;
pub mod cmdprio;
mod config;
pub mod cpuio;
pub mod engine;
mod error;
pub mod errors;
pub mod files;
pub mod layout;
pub mod limits;
pub mod logs;
pub mod pacing;
pub mod placement;
mod plan;
pub mod process;
pub mod replay;
pub mod report;
mod resolve;
mod run;
pub mod schedule;
pub mod sync;
pub mod timing;
mod verify;
pub mod workload;

pub use error::{OptionError, PlanError};
pub use plan::{JobPlan, Seeds};
pub use run::{plans, RunPlans};

/// The notes of a run's plans ([`JobPlan::notes`]), each line once, in job order.
pub fn notes(plans: &[JobPlan]) -> iomark_stats::Notes {
    plans.iter().flat_map(|p| p.notes.iter().cloned()).collect()
}

/// The one job of a command line `--name=j --ARG…` (for tests); `Err` for a bad value.
#[cfg(test)]
pub(crate) fn test_spec(args: &[&str]) -> Result<iomark_options::JobSpec, String> {
    let mut argv = vec!["--name=j".to_string()];
    argv.extend(args.iter().map(|a| format!("--{a}")));
    let cmd = iomark_options::cmdline::parse(argv).map_err(|e| e.to_string())?;
    let sources = iomark_options::assemble::Sources { cli_jobs: cmd.jobs, ..Default::default() };
    let mut specs = iomark_options::assemble::build(&sources).map_err(|e| e.to_string())?;
    Ok(specs.remove(0))
}
