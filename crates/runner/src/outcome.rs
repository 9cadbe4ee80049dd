//! What a job hands back for the report: its outcome ([`JobOutcome`]), and the words of an
//! errno in it ([`errno_text`]). The job loop makes it (why a job could not run at all is
//! `crate::job::JobError`); the status board and the run's report read it.

use iomark_stats::recorder::JobRecorder;
use iomark_stats::reduce::JobTimes;

/// What a finished job hands back for the report (or a running one, for an interim report).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct JobOutcome {
    /// Everything recorded.
    pub recorder: JobRecorder,
    /// Runtimes and CPU usage.
    pub times: JobTimes,
    /// The first error (an errno), 0 if none.
    pub error: i32,
    /// What the error was doing, empty if none.
    pub error_text: String,
    /// What the job noted as it ran and that is no error (the engine on how it behaved, a
    /// replay that ended early, its clock, its scheduler, its memory lock, its commands).
    pub notes: Vec<String>,
    /// The job thread's id.
    pub pid: u32,
    /// Wall-clock start, ms since the epoch (0 under the fake clock).
    pub start_wall_ms: u64,
    /// The queue depth the job ended at: `iodepth`, or the one its latency target found.
    pub latency_depth: u32,
    /// What the steady-state watch found, if the job had one.
    pub steadystate: Option<iomark_stats::report::SteadyReport>,
    /// Each I/O's latency split at the block layer, if the job asked for it (carried
    /// between MPI ranks and merged on rank 0).
    #[serde(default)]
    pub block: Option<iomark_stats::block::BlockRecorder>,
}

/// What the operating system calls error `errno` (`No space left on device`; `Success`
/// for 0), as fio prints it.
pub fn errno_text(errno: i32) -> String {
    if errno == 0 {
        return "Success".into();
    }
    let text = std::io::Error::from_raw_os_error(errno).to_string();
    match text.rfind(" (os error ") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}
