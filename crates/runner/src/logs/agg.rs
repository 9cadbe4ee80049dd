//! `--bandwidth-log`: fio's aggregate bandwidth logs, `agg-read_bw.log`,
//! `agg-write_bw.log` and `agg-trim_bw.log`, in the current directory.
//!
//! fio 3.33 adds their rows while it computes its ETA line, so the files are created at
//! the start of the run and get rows only when the ETA line is shown (on a terminal, or
//! with `--eta=always`); otherwise they stay empty. iomark does the same: a thread beside
//! the ETA thread samples the jobs' published counters every `--eta-interval` and writes,
//! for each direction, `time, KiB/s, direction, 0, 0` with the time in milliseconds since
//! the run started and the rate of all jobs together since the previous sample.

use super::file::{LogError, LogFile};
use crate::links::progress::{Progress, Sample, Watch};
use std::ops::ControlFlow;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// The three aggregate bandwidth logs.
pub struct AggBandwidthLog {
    files: [LogFile; 3],
    /// The bytes of all jobs per direction, and when, at the previous sample.
    previous: ([u64; 3], u64),
}

impl AggBandwidthLog {
    /// Creates (or empties) the three files in `dir`; the error is [`LogError`]'s message
    /// (the cli reports it as a run-time failure).
    pub fn create(dir: &Path) -> Result<AggBandwidthLog, String> {
        let [r, w, t] = ["read", "write", "trim"].map(|d| {
            LogFile::create(dir.join(format!("agg-{d}_bw.log")), false).map_err(|e| e.to_string())
        });
        Ok(AggBandwidthLog { files: [r?, w?, t?], previous: ([0; 3], 0) })
    }

    /// Adds one row per direction for `sample`.
    pub fn record(&mut self, sample: &Sample) -> Result<(), LogError> {
        let mut bytes = [0u64; 3];
        for job in &sample.jobs {
            for (total, b) in bytes.iter_mut().zip(job.bytes) {
                *total += b;
            }
        }
        let (before, then) = self.previous;
        let ms = sample.now_ms.saturating_sub(then).max(1);
        for (d, file) in self.files.iter_mut().enumerate() {
            let kib = bytes[d].saturating_sub(before[d]) * 1000 / ms / 1024;
            file.write(&format!("{}, {kib}, {d}, 0, 0\n", sample.now_ms))?;
        }
        self.previous = (bytes, sample.now_ms);
        Ok(())
    }

    /// Starts a thread that records a sample of `progress` every `interval` until stopped
    /// (a [`Progress::watch`]); the first error ends it.
    pub fn spawn(mut self, progress: Arc<Progress>, interval: Duration) -> AggBandwidthThread {
        AggBandwidthThread(progress.watch(interval, move |sample| match self.record(&sample) {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => ControlFlow::Break(e),
        }))
    }
}

/// The running `--bandwidth-log` thread; [`AggBandwidthThread::stop`] ends it.
#[derive(Debug)]
pub struct AggBandwidthThread(Watch<LogError>);

impl AggBandwidthThread {
    /// Stops the thread; returns the first error it met writing the logs.
    pub fn stop(self) -> Result<(), LogError> {
        match self.0.stop() {
            Ok(None) => Ok(()),
            Ok(Some(e)) => Err(e),
            Err(_) => Err(LogError::Panicked("bandwidth log")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::links::progress::{JobSample, JobState};

    fn sample(now_ms: u64, bytes: [[u64; 3]; 2]) -> Sample {
        let job = |b| JobSample {
            state: JobState::Running,
            files: 1,
            started_ms: Some(0),
            bytes: b,
            ios: [0; 3],
        };
        Sample { now_ms, jobs: bytes.map(job).to_vec() }
    }

    #[test]
    fn rows_hold_the_rate_of_all_jobs_since_the_previous_sample() {
        let dir = tempfile::tempdir().expect("temporary directory");
        let mut log = AggBandwidthLog::create(dir.path()).expect("create");
        log.record(&sample(500, [[1 << 20, 0, 0], [1 << 20, 1 << 19, 0]])).expect("record");
        log.record(&sample(1500, [[3 << 20, 0, 0], [1 << 20, 1 << 19, 0]])).expect("record");
        let read = |d: &str| std::fs::read_to_string(dir.path().join(d)).expect("read");
        assert_eq!(read("agg-read_bw.log"), "500, 4096, 0, 0, 0\n1500, 2048, 0, 0, 0\n");
        assert_eq!(read("agg-write_bw.log"), "500, 1024, 1, 0, 0\n1500, 0, 1, 0, 0\n");
        assert_eq!(read("agg-trim_bw.log"), "500, 0, 2, 0, 0\n1500, 0, 2, 0, 0\n");
    }
}
