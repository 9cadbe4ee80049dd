//! Why a run could not be done ([`RunError`]), and which scheduling rule a run broke
//! ([`ScheduleError`]). The cli maps them to exit codes: 2 for a configuration that cannot
//! run (the plan, the schedule), 1 for a failure at run time (a file, a job).

use crate::files::FileError;
use crate::job::JobError;
use iomark_plan::PlanError;
use std::path::PathBuf;

/// Why a run could not be done.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// A configuration that cannot run (exit code 2).
    #[error(transparent)]
    Plan(#[from] PlanError),
    /// Scheduling options that do not fit together, or a job that must not run (exit
    /// code 2).
    #[error(transparent)]
    Schedule(#[from] ScheduleError),
    /// Preparing a file failed (exit code 1).
    #[error("job '{job}': {source}")]
    Layout {
        /// The job.
        job: String,
        /// What failed.
        source: FileError,
    },
    /// A job could not start (exit code 1).
    #[error(transparent)]
    Job(#[from] JobError),
    /// The memory the run's flows and file locks share could not be made (exit code 1).
    #[error("cannot map the memory that flows and file locks share: {0}")]
    SharedMemory(std::io::Error),
}

/// A job that the run's schedule cannot start.
#[derive(Debug, thiserror::Error)]
pub enum ScheduleError {
    /// `wait_for` names no earlier job of the same wave (or of an earlier one).
    #[error("job '{job}': option 'wait_for': no earlier job '{target}' runs with it")]
    WaitFor {
        /// The waiting job.
        job: String,
        /// The job it names.
        target: String,
    },
    /// The job would write to a block device in use (DESIGN.md's safety rule).
    #[error(
        "job '{job}': refusing to write to {}: {why} (set allow_mounted_write=1 to write \
         anyway)",
        path.display()
    )]
    DeviceInUse {
        /// The job.
        job: String,
        /// The device.
        path: PathBuf,
        /// What uses it (mounted, swap, held by another device).
        why: String,
    },
    /// A job's thread panicked.
    #[error("job '{job}': its thread panicked")]
    JobPanicked {
        /// The job.
        job: String,
    },
    /// The thread that runs the jobs panicked.
    #[error("a job thread panicked")]
    Panicked,
}
