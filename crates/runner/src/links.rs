//! What the jobs of a run share while they run: the file locks of `lockfile`
//! ([`crate::lockfile`]). [`RunLinks`] is made once per run; each job gets its
//! [`JobLinks`].

use crate::lockfile::{FileLocks, JobLocks};
use crate::plan::JobPlan;

/// What the jobs of one run share.
#[derive(Debug)]
pub struct RunLinks {
    locks: FileLocks,
}

impl RunLinks {
    /// The links of a run of `plans`.
    pub fn new(plans: &[JobPlan]) -> RunLinks {
        RunLinks { locks: FileLocks::new(plans) }
    }

    /// What job `plan` takes part in.
    pub fn job(&self, plan: &JobPlan) -> JobLinks {
        JobLinks { locks: self.locks.for_job(plan) }
    }
}

/// What one job shares with the others.
#[derive(Debug)]
pub struct JobLinks {
    /// Its file locks, when it sets `lockfile`.
    pub locks: Option<JobLocks>,
}
