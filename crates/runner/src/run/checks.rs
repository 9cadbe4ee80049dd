//! The checks a run makes before its first I/O that need no I/O, in one place: the schedule
//! (`wait_for` names an earlier job), the files' layouts (what the layout would refuse, a
//! file to create in no directory), and, for `--parse-only`, each job's engine made with
//! its options and dropped. A run makes them before it lays out any file, `--parse-only`
//! makes them and stops; neither creates, writes or lays out a file here.

use super::{schedule, RunError};
use crate::job::JobError;
use iomark_plan::JobPlan;

/// How far [`check`] goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Checks {
    /// The schedule and the layouts: what a run checks before it lays out its files.
    BeforeLayout,
    /// Those, and each job's engine made with its options (`--parse-only`, which then stops
    /// where a run would start its jobs).
    BeforeFirstIo,
}

/// Checks `plans` as a run does before its first I/O (`readonly` is `--readonly`), without
/// creating or writing a file; the error is the one the run would give.
pub fn check(plans: &[JobPlan], readonly: bool, how: Checks) -> Result<(), RunError> {
    for wave in schedule::waves(plans) {
        schedule::waits(plans, wave)?;
    }
    crate::files::check_layouts(plans, readonly)
        .map_err(|(job, source)| RunError::Layout { job, source })?;
    if how == Checks::BeforeFirstIo {
        for plan in plans {
            iomark_engine::create(plan.engine.created(), &plan.engine.options)
                .map_err(JobError::of(&plan.job.name))?;
        }
    }
    Ok(())
}
