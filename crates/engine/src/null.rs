//! The `null` engine: every I/O completes without touching a file, so a job on it measures
//! iomark's own overhead.
//!
//! At `iodepth=1` it is synchronous: `queue` completes the unit. At a greater depth it behaves
//! as fio's null engine does: units queue up, `commit` completes all of them at once, and
//! `queue` answers `Busy` until those completions are reaped, so the depth a job reaches is its
//! submit batch (`iodepth_batch_submit`).
//!
//! For tests only, the hidden environment variable `IOMARK_TEST_NULL_STALL=N:USEC` makes the
//! engine stall once: the `N`th I/O it is handed (counting from 1) takes `USEC`
//! microseconds, as a device that hangs for a moment would. The coordinated-omission test
//! of rate-limited jobs uses it; nothing else should.

use crate::interface::{Engine, Queued};
use crate::unit::IoUnit;
use std::time::Duration;

/// The test-only stall (see the module doc).
const STALL_ENV: &str = "IOMARK_TEST_NULL_STALL";

/// What [`Engine::queue`] does, decided once: one test per I/O.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Neither queues nor stalls: `queue` completes the unit and returns, with nothing
    /// else to test (a call that saves no registers).
    #[default]
    Plain,
    /// Queues (iodepth above 1) and does not stall.
    Queues,
    /// Stalls once (tests only), queueing or not.
    Stalls,
}

/// Completes every I/O with its full length.
#[derive(Debug, Default)]
pub struct NullEngine {
    /// Whether the engine queues (iodepth above 1).
    queues: bool,
    /// What `queue` does.
    mode: Mode,
    /// Units queued since the last commit.
    pending: Vec<u32>,
    /// Units committed and not yet reaped.
    ready: Vec<u32>,
    /// The test-only stall: at which I/O, and for how long.
    stall: Option<(u64, Duration)>,
    /// I/Os handed to the engine so far (counted only with a stall).
    handed: u64,
}

impl NullEngine {
    /// A null engine for a job of depth `iodepth`.
    pub fn new(iodepth: u32) -> Self {
        let depth = iodepth as usize;
        let stall = std::env::var(STALL_ENV).ok().and_then(|v| parse_stall(&v));
        NullEngine {
            queues: iodepth > 1,
            mode: match (stall.is_some(), iodepth > 1) {
                (true, _) => Mode::Stalls,
                (false, true) => Mode::Queues,
                (false, false) => Mode::Plain,
            },
            pending: Vec::with_capacity(depth),
            ready: Vec::with_capacity(depth),
            stall,
            handed: 0,
        }
    }

    /// [`Engine::queue`] of an engine that stalls (tests only).
    #[cold]
    #[inline(never)]
    fn queue_stalling(&mut self, unit: &mut IoUnit) -> Queued {
        self.count_and_stall();
        if !self.queues {
            return Queued::Completed;
        }
        self.enqueue(unit)
    }

    /// The unit queued; `Busy` while completions wait.
    #[inline(always)]
    fn enqueue(&mut self, unit: &IoUnit) -> Queued {
        if !self.ready.is_empty() || self.pending.len() == self.pending.capacity() {
            return Queued::Busy;
        }
        self.pending.push(unit.index);
        Queued::Queued
    }

    /// Counts an I/O handed over and stalls if it is the one the test asked for.
    #[cold]
    fn count_and_stall(&mut self) {
        self.handed += 1;
        if let Some((at, how_long)) = self.stall {
            if self.handed == at {
                std::thread::sleep(how_long);
            }
        }
    }
}

/// `N:USEC` of [`STALL_ENV`].
fn parse_stall(text: &str) -> Option<(u64, Duration)> {
    let (at, us) = text.split_once(':')?;
    Some((at.trim().parse().ok()?, Duration::from_micros(us.trim().parse().ok()?)))
}

impl Engine for NullEngine {
    fn name(&self) -> &'static str {
        "null"
    }

    fn is_sync(&self) -> bool {
        !self.queues
    }

    fn counts_batches(&self) -> bool {
        self.queues
    }

    fn syscalls(&self) -> Option<u64> {
        Some(0)
    }

    fn queue(&mut self, unit: &mut IoUnit) -> Queued {
        unit.result = unit.len as i64;
        match self.mode {
            Mode::Plain => Queued::Completed,
            Mode::Queues => self.enqueue(unit),
            Mode::Stalls => self.queue_stalling(unit),
        }
    }

    fn commit(&mut self) -> std::io::Result<usize> {
        let n = self.pending.len();
        self.ready.append(&mut self.pending);
        Ok(n)
    }

    fn reap(
        &mut self,
        _units: &mut [IoUnit],
        _min: usize,
        max: usize,
        done: &mut Vec<u32>,
    ) -> std::io::Result<usize> {
        let n = max.min(self.ready.len());
        done.extend(self.ready.drain(..n));
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(index: u32) -> IoUnit {
        let mut u = IoUnit::new(index, 4096, 4096).unwrap();
        u.len = 4096;
        u
    }

    #[test]
    fn the_test_stall_is_read_as_count_and_microseconds() {
        assert_eq!(parse_stall("3:1500"), Some((3, Duration::from_micros(1500))));
        assert_eq!(parse_stall("3"), None);
        assert_eq!(parse_stall("x:1"), None);
    }

    #[test]
    fn depth_one_completes_in_queue() {
        let mut e = NullEngine::new(1);
        assert!(e.is_sync());
        assert_eq!(e.queue(&mut unit(0)), Queued::Completed);
    }

    #[test]
    fn deeper_queues_until_commit_and_is_busy_until_reaped() {
        let mut e = NullEngine::new(4);
        let mut units: Vec<IoUnit> = (0..4).map(unit).collect();
        assert_eq!(e.queue(&mut units[0]), Queued::Queued);
        assert_eq!(e.queue(&mut units[1]), Queued::Queued);
        assert_eq!(e.commit().unwrap(), 2);
        assert_eq!(e.queue(&mut units[2]), Queued::Busy);
        let mut done = Vec::with_capacity(4);
        assert_eq!(e.reap(&mut units, 1, 1, &mut done).unwrap(), 1);
        assert_eq!(e.reap(&mut units, 1, 4, &mut done).unwrap(), 1);
        assert_eq!(done, vec![0, 1]);
        assert_eq!(units[1].result, 4096);
        assert_eq!(e.queue(&mut units[2]), Queued::Queued);
    }
}
