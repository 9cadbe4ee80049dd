//! Which job a plan is and when it runs: its name and numbers ([`JobId`]), fio's
//! `stonewall`, `new_group`, `wait_for` and the rules for ending other jobs (`exitall`,
//! `exitall_on_error`, `exit_what`) ([`SchedulePlan`]), and the commands it runs around its
//! I/O ([`ExecPlan`]). The runner's `schedule` and `links` act on them.

use iomark_options::keys;
use iomark_options::JobSpec;

/// Which job a plan is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JobId {
    /// The job's name.
    pub name: String,
    /// The job's `description`.
    pub description: Option<String>,
    /// The clone's number among `numjobs` copies, from 0.
    pub jobnum: u64,
    /// The job's position among all running jobs (fio's thread number, from 0); seeds
    /// each job's random streams differently.
    pub thread_number: u64,
}

/// fio's `exit_what`: which jobs a job's end stops.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitWhat {
    /// `group` (the default): the jobs of its reporting group.
    Group,
    /// `stonewall`: the jobs of its wave.
    Stonewall,
    /// `all`: every job, and no later one starts.
    All,
}

/// When a job runs, and which jobs its end stops.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchedulePlan {
    /// Whether the job waits for all earlier jobs (`stonewall`).
    pub stonewall: bool,
    /// Whether the job opens a new reporting group (`new_group`, or `stonewall`).
    pub new_group: bool,
    /// The job this one waits for (`wait_for`).
    pub wait_for: Option<String>,
    /// `exitall`: when a job ends, stop others (see the runner's links).
    pub exitall: bool,
    /// `exitall_on_error`: when this job ends with an error, stop others.
    pub exitall_on_error: bool,
    /// `exit_what`: which jobs this job's end stops.
    pub exit_what: ExitWhat,
}

impl SchedulePlan {
    /// The scheduling options of `spec`.
    pub fn of(spec: &JobSpec) -> SchedulePlan {
        SchedulePlan {
            stonewall: spec.stonewall(),
            new_group: spec.stonewall() || spec.flag(keys::NEW_GROUP),
            wait_for: spec.get(keys::WAIT_FOR),
            exitall: spec.flag(keys::EXITALL),
            exitall_on_error: spec.flag(keys::EXITALL_ON_ERROR),
            exit_what: match spec.get(keys::EXIT_WHAT).map(|c| c.name) {
                Some("stonewall") => ExitWhat::Stonewall,
                Some("all") => ExitWhat::All,
                _ => ExitWhat::Group,
            },
        }
    }
}

/// The commands a job runs around its I/O.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExecPlan {
    /// The command to run before the job's I/O (`exec_prerun`).
    pub prerun: Option<String>,
    /// The command to run after it (`exec_postrun`).
    pub postrun: Option<String>,
}

impl ExecPlan {
    /// The `exec_prerun` and `exec_postrun` of `spec`; blank commands are none.
    pub fn of(spec: &JobSpec) -> ExecPlan {
        let command = |c: Option<String>| c.filter(|c| !c.trim().is_empty());
        ExecPlan {
            prerun: command(spec.get(keys::EXEC_PRERUN)),
            postrun: command(spec.get(keys::EXEC_POSTRUN)),
        }
    }
}
