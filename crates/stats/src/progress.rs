//! Snapshots of a run's live progress: what every job has done so far, as plain data.
//!
//! The runner's job threads publish their counters while they run and the runner reads them
//! into a [`Sample`] whenever asked; whatever shows the progress (fio's ETA line in the report
//! crate, the `--bandwidth-log` rows, later a live page) reads only these types. A [`JobShape`]
//! holds the little of a job's plan that such a display needs (its state letter, its time
//! limit, its planned bytes); the runner makes one per job when the run starts.

/// Where a job is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum JobState {
    /// Not started yet (waiting for its wave or `wait_for`).
    Pending = 0,
    /// Running, inside `ramp_time`.
    Ramp = 1,
    /// Running.
    Running = 2,
    /// Syncing its files at the end.
    Fsync = 3,
    /// Finished.
    Done = 4,
}

impl JobState {
    /// The state stored as `state as u8`; an unknown byte reads as [`JobState::Pending`].
    pub fn from_u8(v: u8) -> JobState {
        match v {
            1 => JobState::Ramp,
            2 => JobState::Running,
            3 => JobState::Fsync,
            4 => JobState::Done,
            _ => JobState::Pending,
        }
    }
}

/// What a progress display needs to know of a job's plan.
#[derive(Debug, Clone, PartialEq)]
pub struct JobShape {
    /// The state letter while running (`R`, `r`, `W`, `w`, `M`, `m`, `D`, `d`).
    pub letter: char,
    /// startdelay + ramp_time + runtime in seconds, for a job with a time limit.
    pub time_limit_s: Option<u64>,
    /// Whether the job runs until its time limit whatever its bytes (`time_based`).
    pub time_based: bool,
    /// Bytes the job plans to move (`io_size` × `loops`).
    pub planned_bytes: u64,
}

/// One job's counters at one moment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JobSample {
    /// Its state.
    pub state: JobState,
    /// Its open files.
    pub files: u32,
    /// When it started, ms after the epoch.
    pub started_ms: Option<u64>,
    /// Bytes done per direction.
    pub bytes: [u64; 3],
    /// I/Os done per direction.
    pub ios: [u64; 3],
}

/// All jobs' counters at one moment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sample {
    /// When, ms after the epoch.
    pub now_ms: u64,
    /// One per job.
    pub jobs: Vec<JobSample>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_state_reads_back_from_its_byte() {
        for state in
            [JobState::Pending, JobState::Ramp, JobState::Running, JobState::Fsync, JobState::Done]
        {
            assert_eq!(JobState::from_u8(state as u8), state);
        }
        assert_eq!(JobState::from_u8(200), JobState::Pending);
    }
}
