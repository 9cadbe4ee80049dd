//! `trim_percentage`, `trim_backlog`, `trim_backlog_batch` and `trim_verify_zero`: a
//! verifying job trims some of the blocks it wrote, and then verifies them as zeros.
//!
//! The rules are fio 3.33's, read off its `--write_iolog` and its JSON (docs/verify.md has
//! the runs they were measured with):
//!
//! - every write logged for verification is chosen for trimming by a percentage draw
//!   (1..=100, chosen when at most `trim_percentage`) of the job's fio stream 8, one draw
//!   per logged write, in the order they are logged, as fio 3.33 chooses them (its
//!   `rw=trimwrite size=256k trim_percentage=50 trim_backlog=1` trims blocks 0, 1, 3, 4,
//!   7, 16…);
//! - the chosen writes wait in a list, oldest first. Before the job asks its workload for
//!   the next I/O (after any `verify_backlog` reads, which go first), it trims the oldest
//!   one when a batch is under way (one trim less left in it), or else when the count of
//!   logged writes not yet verified is a multiple of `trim_backlog` (a batch of
//!   `trim_backlog_batch` begins; that first trim does not count against the batch, so a
//!   batch trims one block more than its size when that many wait). A batch does not
//!   begin right after a `verify_backlog` read, only after the next I/O (fio 3.33 with
//!   `verify_backlog_batch` below `verify_backlog`, where the reads leave a multiple
//!   waiting: `W4 R0 R1 T5 T4 W5`, the workload's trim of block 5 first);
//! - with `trim_verify_zero=1` (the default) a trimmed write is still verified, as zeros;
//!   with 0 it leaves the writes to verify (and so no longer counts in that count);
//! - a chosen write that `verify_backlog` verified, or that a newer write overwrote,
//!   before its turn is not trimmed, and
//!   chosen writes still waiting when the job's writes end are not trimmed either (fio
//!   3.33 then prints `N trim entries leaked?`; iomark says nothing).
//!
//! A trim is issued as an I/O of the job (counted in its trim statistics); the blocks a
//! trim zeroes are known from the time of the trim, so a write that a later trim of an
//! older write destroyed is expected as zeros, and a write newer than a trim as data.
//!
//! Nothing here allocates while the job runs: the list of chosen writes is reserved with
//! the log of writes, and only grows when the log does.

use crate::plan::TrimPlan;
use iomark_workload::{FioRng, FioStream};

/// What a trim did to a logged write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Trimmed {
    /// Not trimmed.
    #[default]
    No,
    /// Trimmed when the log held this many writes; verified as zeros.
    Zeros(u32),
    /// Trimmed when the log held this many writes; not verified (`trim_verify_zero=0`).
    Unchecked(u32),
    /// Not a write: a trim of the workload's own (`trimwrite`), logged when it completed
    /// (see `workload_trims`). It changed its place as a write does; nothing is read back
    /// for it.
    Workload,
}

impl Trimmed {
    /// Whether the write is still to be read back.
    #[inline]
    pub fn verified(self) -> bool {
        !matches!(self, Trimmed::Unchecked(_) | Trimmed::Workload)
    }

    /// When the block last changed, for the write at log position `at`: the write (or the
    /// workload's trim) itself (`2 × at`), or its trim, after the writes logged before it (`2 × n − 1`).
    pub(super) fn changed_at(self, at: usize) -> u64 {
        match self {
            Trimmed::No | Trimmed::Workload => 2 * at as u64,
            Trimmed::Zeros(n) | Trimmed::Unchecked(n) => (2 * u64::from(n)).saturating_sub(1),
        }
    }
}

/// The trimming state of a running job.
pub(super) struct Trims {
    plan: TrimPlan,
    rng: FioRng,
    /// Log positions of the chosen writes, oldest first; `head` is the next to trim.
    chosen: Vec<usize>,
    head: usize,
    /// Trims left in the batch under way.
    batch_left: u64,
}

/// The list of chosen writes is compacted (moved to its start) past this many done ones.
const COMPACT_AFTER: usize = 4096;

impl Trims {
    /// The state for `plan`, with room for `reserve` logged writes.
    pub(super) fn new(plan: TrimPlan, reserve: usize) -> Trims {
        let room = reserve / 100 * plan.percentage as usize + 64;
        Trims {
            plan,
            rng: plan.seeds.rng(FioStream::TrimPick),
            chosen: Vec::with_capacity(room.min(reserve + 64)),
            head: 0,
            batch_left: 0,
        }
    }

    /// Whether trimmed writes are verified as zeros.
    #[inline]
    pub(super) fn verify_zero(&self) -> bool {
        self.plan.verify_zero
    }

    /// The write at log position `at` was logged: choose it, or not.
    #[inline]
    pub(super) fn logged(&mut self, at: usize) {
        if self.rng.percent() <= self.plan.percentage {
            self.chosen.push(at);
        }
    }

    /// The log starts over: every chosen write was verified.
    pub(super) fn clear(&mut self) {
        self.chosen.clear();
        self.head = 0;
    }

    /// A new pass starts: nothing chosen, no batch under way.
    pub(super) fn reset(&mut self) {
        self.clear();
        self.batch_left = 0;
    }

    /// The log position of the write to trim now, if one is due; `pending` is the count
    /// of logged writes not yet verified, every write logged below position
    /// `verified_below` is verified already, and `superseded` says whether a newer write
    /// has overwritten the one at a position (such writes are passed over). A batch
    /// begins only if `may_begin` (not right after a `verify_backlog` read).
    #[inline]
    pub(super) fn next(
        &mut self,
        pending: u64,
        verified_below: usize,
        may_begin: bool,
        superseded: impl Fn(usize) -> bool,
    ) -> Option<usize> {
        while self.chosen.get(self.head).is_some_and(|&at| at < verified_below || superseded(at)) {
            self.head += 1;
        }
        let &at = self.chosen.get(self.head)?;
        if self.batch_left > 0 {
            self.batch_left -= 1;
        } else if may_begin && pending % self.plan.backlog == 0 {
            self.batch_left = self.plan.batch;
        } else {
            return None;
        }
        self.head += 1;
        if self.head == self.chosen.len() {
            self.clear();
        } else if self.head >= COMPACT_AFTER && self.head * 2 >= self.chosen.len() {
            // Moves the waiting ones to the start; no allocation.
            self.chosen.drain(..self.head);
            self.head = 0;
        }
        Some(at)
    }
}

/// The offset in `buf` of its first byte that is not zero, if any.
pub(super) fn first_nonzero(buf: &[u8]) -> Option<usize> {
    let mut base = 0;
    for chunk in buf.chunks(64) {
        // OR-ing a whole chunk lets the compiler use wide loads.
        if chunk.iter().fold(0u8, |a, &b| a | b) != 0 {
            return chunk.iter().position(|&b| b != 0).map(|i| base + i);
        }
        base += chunk.len();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trims(backlog: u64, batch: u64) -> Trims {
        let seeds = Default::default();
        let plan = TrimPlan { percentage: 100, backlog, batch, verify_zero: true, seeds };
        Trims::new(plan, 64)
    }

    /// Writes 0..16 with trims drawn after each, as the job loop does: the trims in order,
    /// with the count of writes done before each.
    fn run(backlog: u64, batch: u64) -> Vec<(usize, usize)> {
        let mut t = trims(backlog, batch);
        let mut out = Vec::new();
        for w in 0..16 {
            t.logged(w);
            while let Some(at) = t.next(w as u64 + 1, 0, true, |_| false) {
                out.push((w + 1, at));
            }
        }
        out
    }

    #[test]
    fn batches_follow_fio_3_33() {
        // trim_backlog=4 with batch 4 (the default), 1, 2 and 3, as fio 3.33's write_iolog
        // of rw=trimwrite, bs=4k, size=64k, trim_percentage=100 shows them.
        let b4 = [(4, 0), (4, 1), (4, 2), (4, 3), (5, 4), (8, 5), (8, 6), (8, 7), (9, 8)];
        assert_eq!(run(4, 4)[..9], b4);
        assert_eq!(run(4, 4).len(), 16);
        let b1: Vec<_> = (0..16).map(|w| (w / 4 * 4 + 4, w)).collect();
        assert_eq!(run(4, 1), b1);
        assert_eq!(run(4, 3), b1);
        let b2 = [(4, 0), (4, 1), (4, 2), (4, 3), (5, 4), (6, 5), (8, 6), (8, 7), (9, 8)];
        assert_eq!(run(4, 2)[..9], b2);
        assert_eq!(run(4, 2)[9..12], [(12, 9), (12, 10), (12, 11)]);
    }

    #[test]
    fn verified_writes_are_not_trimmed() {
        let mut t = trims(2, 2);
        t.logged(0);
        t.logged(1);
        assert_eq!(t.next(2, 1, true, |_| false), Some(1));
        assert_eq!(t.next(2, 1, true, |_| false), None);
        t.logged(2);
        t.logged(3);
        assert_eq!(t.next(4, 0, true, |at| at == 2), Some(3));
    }

    #[test]
    fn a_batch_begins_only_when_it_may_but_goes_on_anyway() {
        let mut t = trims(2, 1);
        (0..4).for_each(|at| t.logged(at));
        // Right after a verify_backlog read: not begun.
        assert_eq!(t.next(2, 0, false, |_| false), None);
        assert_eq!(t.next(2, 0, true, |_| false), Some(0));
        assert_eq!(t.next(3, 0, false, |_| false), Some(1));
        assert_eq!(t.next(4, 0, false, |_| false), None);
    }

    #[test]
    fn the_first_non_zero_byte_is_found_anywhere() {
        let mut buf = vec![0u8; 4096];
        assert_eq!(first_nonzero(&buf), None);
        for at in [0, 1, 63, 64, 100, 4095] {
            buf[at] = 1;
            assert_eq!(first_nonzero(&buf), Some(at));
            buf[at] = 0;
        }
    }

    #[test]
    fn a_trim_changes_the_block_after_the_writes_before_it() {
        assert_eq!(Trimmed::No.changed_at(3), 6);
        assert_eq!(Trimmed::Zeros(4).changed_at(3), 7);
        assert!(Trimmed::Zeros(4).changed_at(3) < Trimmed::No.changed_at(4));
        assert!(!Trimmed::Unchecked(4).verified());
    }
}
