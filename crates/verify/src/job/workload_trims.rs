//! The trims of the workload itself (`rw=trimwrite`, `randtrimwrite`): each block is
//! trimmed, then written again. A trim changes its place as a write does: an older write
//! of that place no longer holds (the block reads back as zeros until the rewrite), so
//! checking it would report a failure that is none.
//!
//! So a workload trim is handled as a write that leaves nothing to verify: when it is
//! issued it becomes the newest change of its grains in the `verify_backlog` table (a
//! backlog read then drops every older write it overlaps, even while the trim is in
//! flight), and when it completes it is logged (as [`Trimmed::Workload`]), where it hides
//! the older writes it overlaps from the verify phase and from `trim_percentage`'s trims,
//! and where the backlog, reaching it, forgets its grains. The rewrite that follows is
//! logged and verified as any write. A trim's place that nothing rewrote (the job stopped
//! between the trim and its write) is not read back at all.
//!
//! Trims are numbered apart from writes (from [`FIRST_TRIM`]), so that the write numbers
//! stamped in the blocks stay those of the writes alone. `trim_percentage`'s own trims
//! are not the workload's: the unit that issues one was told so by
//! [`JobVerify::next_trim`].

use super::{JobVerify, Trimmed, Written};

/// The number of the workload's first trim; writes are numbered from 0.
const FIRST_TRIM: u64 = 1 << 62;

impl JobVerify {
    /// Unit `unit` issues a trim of `len` bytes at `offset` of `file`: one of
    /// `trim_percentage` (drawn last by [`JobVerify::next_trim`], now marked in the log),
    /// or else the workload's own, which now supersedes what it overlaps. Under
    /// `verify_only` nothing is issued: the workload's trim is logged at once, as its
    /// writes are.
    #[inline]
    pub fn bind_trim(&mut self, unit: u32, file: usize, offset: u64, len: usize) {
        if let Some(at) = self.trim_drawn.take() {
            self.mark_trimmed(at);
            return;
        }
        let numberio = FIRST_TRIM + self.workload_trims;
        self.workload_trims += 1;
        let (file, len, trimmed) = (file as u32, len as u32, Trimmed::Workload);
        let t = Written { file, len, offset, numberio, trimmed };
        if self.plan.verify_only {
            // The trim before write number `limit` may or may not have been issued by the
            // run that saved the state: logging it verifies less, never wrongly.
            if self.limit.is_none_or(|l| self.issued <= l) {
                self.log.push(t);
            }
            return;
        }
        if let Some(newest) = &mut self.newest {
            newest.issued(&t);
        }
        self.units[unit as usize] = Some(t);
    }

    /// The trim in unit `unit` completed: a workload trim is logged.
    #[inline]
    pub fn trimmed(&mut self, unit: u32) {
        if let Some(t) = self.units[unit as usize].take() {
            self.log.push(t);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::newest_wins;
    use super::super::written::tests::w;
    use super::*;

    #[test]
    fn a_workload_trim_hides_older_writes_until_the_rewrite() {
        let trim = |offset, n| Written { trimmed: Trimmed::Workload, ..w(offset, 4096, n) };
        // Written, trimmed, written again: the rewrite is read back.
        let log = [w(0, 4096, 0), trim(0, FIRST_TRIM), w(0, 4096, 1)];
        assert_eq!(newest_wins(&log, 0, false), vec![w(0, 4096, 1)]);
        // Trimmed last (the job stopped before the rewrite): nothing is read back there,
        // and a partly trimmed write is dropped too.
        let log =
            [w(0, 4096, 0), w(4096, 8192, 1), trim(0, FIRST_TRIM), trim(8192, FIRST_TRIM + 1)];
        assert_eq!(newest_wins(&log, 0, false), vec![]);
    }
}
