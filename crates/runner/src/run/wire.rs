//! The conversation between a job process and its parent, one JSON message a line.
//!
//! The parent writes the front end's request as the first line of the child's standard
//! input, then a [`ToChild`] line whenever it needs something while the job runs (an
//! interim report). The child writes [`FromChild`] lines on its standard output, each
//! behind [`TAG`]: its progress now and then, its answers, and at the end its outcome.
//! Anything else the child writes there (a job's own text, such as the net engine's
//! listener line) is not a message: the parent passes it on to its own standard output,
//! where a job thread would have written it.

use crate::links::progress::{JobProgress, JobState};
use crate::outcome::JobOutcome;
use std::io::Write;

/// What a job process writes back: the job's outcome, or why it could not run at all (an
/// errno and the message), which the parent reports as the job's failure.
pub type ProcessReply = Result<JobOutcome, (i32, String)>;

/// What begins each message line of the child.
pub(crate) const TAG: &[u8] = b"\x1eiomark-job-process ";

/// What the parent asks of a running job process.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub(crate) enum ToChild {
    /// Interim report request `n` of the run's status board: answer with the job's outcome
    /// so far.
    Status(u64),
}

/// What a job process tells its parent.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub(crate) enum FromChild {
    /// The job's progress counters now.
    Progress(ProgressNow),
    /// The answer to interim report request `n`: the job's outcome so far.
    Status(u64, Box<JobOutcome>),
    /// The job's end: its outcome, or why it could not run.
    Done(Box<ProcessReply>),
}

/// One job's progress counters, as its process publishes them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct ProgressNow {
    /// Its state ([`JobState`] as a byte).
    state: u8,
    /// Its open files.
    files: u32,
    /// Bytes done per direction.
    bytes: [u64; 3],
    /// I/Os done per direction.
    ios: [u64; 3],
}

impl ProgressNow {
    /// What `progress` holds now.
    pub(crate) fn of(progress: &JobProgress) -> ProgressNow {
        let s = progress.read();
        ProgressNow { state: s.state as u8, files: s.files, bytes: s.bytes, ios: s.ios }
    }

    /// Shows this in the parent's counters of the job, `progress`: the job starts there
    /// when it started in its process.
    pub(crate) fn apply(&self, progress: &JobProgress) {
        let state = JobState::from_u8(self.state);
        if state != JobState::Pending && progress.read().started_ms.is_none() {
            progress.start(self.files, state == JobState::Ramp);
        }
        progress.set_state(state);
        progress.publish(&self.bytes, &self.ios);
    }
}

/// Writes `message` as one line behind [`TAG`] to `out`, and flushes it.
pub(crate) fn send<M: serde::Serialize>(out: &mut dyn Write, message: &M) -> std::io::Result<()> {
    let mut line = TAG.to_vec();
    serde_json::to_writer(&mut line, message)?;
    line.push(b'\n');
    out.write_all(&line)?;
    out.flush()
}

/// The message of a line of the child's output (without its newline), or `None` for a
/// line that is not one.
pub(crate) fn message(line: &[u8]) -> Option<FromChild> {
    serde_json::from_slice(line.strip_prefix(TAG)?).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_goes_through_and_other_lines_are_not_messages() {
        let mut out = Vec::new();
        send(&mut out, &FromChild::Done(Box::new(Err((5, "no".into()))))).unwrap();
        assert_eq!(out.last(), Some(&b'\n'));
        let line = &out[..out.len() - 1];
        assert!(matches!(message(line), Some(FromChild::Done(r)) if r.as_ref().is_err()));
        assert!(message(b"listening on 127.0.0.1").is_none());
    }

    #[test]
    fn progress_starts_the_parents_counters_once() {
        let epoch = std::time::Instant::now();
        let child = JobProgress::new(epoch);
        let parent = JobProgress::new(epoch);
        ProgressNow::of(&child).apply(&parent);
        assert_eq!(parent.read().started_ms, None, "a pending job has not started");
        child.start(2, false);
        child.publish(&[4096, 0, 0], &[1, 0, 0]);
        ProgressNow::of(&child).apply(&parent);
        let seen = parent.read();
        assert_eq!((seen.state, seen.files, seen.ios), (JobState::Running, 2, [1, 0, 0]));
        assert!(seen.started_ms.is_some());
    }
}
