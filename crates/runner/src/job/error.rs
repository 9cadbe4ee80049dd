//! Why a job could not run at all ([`JobError`]): the job's name and the cause
//! ([`JobFailure`]), each cause the typed error of the step that failed. A job that ran
//! and failed is no such error: its errno and text are in its outcome, and in the report.

use crate::files::FileError;
use crate::logs::LogError;
use crate::system::exec::ExecError;
use crate::system::iosched::IoSchedulerError;
use crate::system::placement::PlacementError;
use iomark_engine::mem::MemError;
use iomark_engine::EngineError;
use iomark_stats::SamplerError;
use iomark_workload::ConfigError;

/// Why a job could not run at all: `job 'NAME': CAUSE`.
#[derive(Debug, thiserror::Error)]
#[error("job '{job}': {source}")]
pub struct JobError {
    /// The job's name.
    pub job: String,
    /// What kept it from running.
    pub source: JobFailure,
}

impl JobError {
    /// The error of job `job` for `cause`, for `map_err`.
    pub(crate) fn of<E: Into<JobFailure>>(job: &str) -> impl Fn(E) -> JobError + '_ {
        move |cause| JobError { job: job.to_string(), source: cause.into() }
    }
}

/// What kept a job from running.
#[derive(Debug, thiserror::Error)]
pub enum JobFailure {
    /// Laying out, opening or removing one of its files failed.
    #[error(transparent)]
    File(#[from] FileError),
    /// Its engine could not be made or set up.
    #[error(transparent)]
    Engine(#[from] EngineError),
    /// Its workload could not be built.
    #[error(transparent)]
    Workload(#[from] ConfigError),
    /// Its I/O buffers could not be made (`mem`).
    #[error("option 'mem': {0}")]
    Buffers(#[source] MemError),
    /// Its statistics could not be set up.
    #[error(transparent)]
    Recorder(#[from] SamplerError),
    /// One of its log files could not be created.
    #[error(transparent)]
    Log(#[from] LogError),
    /// Its verification could not start (the verify crate's message).
    #[error("{0}")]
    Verify(String),
    /// The log it replays could not be read again (`read_iolog_chunked`; the plan crate's
    /// message).
    #[error("{0}")]
    Replay(String),
    /// Its placement (CPU affinity, memory policy, nice value, I/O priority) was refused.
    #[error(transparent)]
    Placement(#[from] PlacementError),
    /// The I/O scheduler of one of its disks could not be switched (`ioscheduler`).
    #[error(transparent)]
    IoScheduler(#[from] IoSchedulerError),
    /// Its `exec_prerun` or `exec_postrun` command could not be started.
    #[error(transparent)]
    Exec(#[from] ExecError),
}
