//! The `null` engine: every I/O completes without touching a file, so a job on it measures
//! iomark's own overhead.
//!
//! At `iodepth=1` it is synchronous: `queue` completes the unit. At a greater depth it behaves
//! as fio's null engine does: units queue up, `commit` completes all of them at once, and
//! `queue` answers `Busy` until those completions are reaped, so the depth a job reaches is its
//! submit batch (`iodepth_batch_submit`).

use crate::unit::IoUnit;
use crate::{Engine, Queued};

/// Completes every I/O with its full length.
#[derive(Debug, Default)]
pub struct NullEngine {
    /// Whether the engine queues (iodepth above 1).
    queues: bool,
    /// Units queued since the last commit.
    pending: Vec<u32>,
    /// Units committed and not yet reaped.
    ready: Vec<u32>,
}

impl NullEngine {
    /// A null engine for a job of depth `iodepth`.
    pub fn new(iodepth: u32) -> Self {
        let depth = iodepth as usize;
        NullEngine {
            queues: iodepth > 1,
            pending: Vec::with_capacity(depth),
            ready: Vec::with_capacity(depth),
        }
    }
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

    fn queue(&mut self, unit: &mut IoUnit) -> Queued {
        unit.result = unit.len as i64;
        if !self.queues {
            return Queued::Completed;
        }
        if !self.ready.is_empty() || self.pending.len() == self.pending.capacity() {
            return Queued::Busy;
        }
        self.pending.push(unit.index);
        Queued::Queued
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
