//! fio's `block_error_percentiles`: every trim-sized block of a job's files ends the run in
//! one state (never trimmed, trimmed, written, a trim failed, a write failed) after some
//! number of trims. [`BlockStates`] counts the blocks per (state, trims), exactly, so that
//! the jobs of a group merge; [`BlockStates::report`] turns the counts into fio's
//! "block lifetime percentiles" ([`BlockLifetimes`]).
//!
//! The order is fio 3.33's: blocks sort by category (never trimmed first, then trimmed or
//! written, then failed), then by trims, then by state; the percentile P is the trims of
//! the block at position `P × (blocks − unwritten) / 100 + unwritten` of that order.

use crate::percentile_list::PercentileList;
use serde::{Deserialize, Serialize};

/// The state a block ends in, in fio's order (which is also its report's).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum BlockState {
    /// Never trimmed (fio: "unwritten").
    Unwritten,
    /// Its last trim succeeded.
    Trimmed,
    /// Written after its trims (fio 3.33 never records writes: see docs/running.md).
    Written,
    /// Its last trim failed.
    TrimFailure,
    /// A write to it failed (never recorded, as in fio 3.33).
    WriteFailure,
}

impl BlockState {
    /// Every state, in the report's order.
    pub const ALL: [BlockState; 5] = [
        BlockState::Unwritten,
        BlockState::Trimmed,
        BlockState::Written,
        BlockState::TrimFailure,
        BlockState::WriteFailure,
    ];

    /// fio's name of the state.
    pub fn name(self) -> &'static str {
        match self {
            BlockState::Unwritten => "unwritten",
            BlockState::Trimmed => "trimmed",
            BlockState::Written => "written",
            BlockState::TrimFailure => "trim failure",
            BlockState::WriteFailure => "write failure",
        }
    }

    /// Where the state sorts: never trimmed, then in use, then failed.
    fn category(self) -> u8 {
        match self {
            BlockState::Unwritten => 0,
            BlockState::Trimmed | BlockState::Written => 1,
            BlockState::TrimFailure | BlockState::WriteFailure => 2,
        }
    }
}

/// How many blocks ended in each (state, trims): one job's, or a group's merged.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlockStates {
    /// `(state, trims, blocks)`, in fio's sort order, each pair once.
    counts: Vec<(BlockState, u32, u64)>,
}

impl BlockStates {
    /// Counts `blocks` more blocks in `state` after `trims` trims.
    pub fn add(&mut self, state: BlockState, trims: u32, blocks: u64) {
        if blocks == 0 {
            return;
        }
        let key = |&(s, t, _): &(BlockState, u32, u64)| (s.category(), t, s);
        let probe = (state, trims, 0);
        match self.counts.binary_search_by_key(&key(&probe), key) {
            Ok(i) => self.counts[i].2 += blocks,
            Err(i) => self.counts.insert(i, (state, trims, blocks)),
        }
    }

    /// Adds another job's blocks (`group_reporting`).
    pub fn merge(&mut self, other: &BlockStates) {
        for &(state, trims, blocks) in &other.counts {
            self.add(state, trims, blocks);
        }
    }

    /// All blocks counted.
    pub fn blocks(&self) -> u64 {
        self.counts.iter().map(|c| c.2).sum()
    }

    /// fio's block lifetime percentiles at the points of `pcts`, and the blocks per state.
    /// When no block was ever trimmed fio 3.33 computes neither: it prints no percentile
    /// and states it never counted (mostly 0s); this gives no percentile and 0s.
    pub fn report(&self, pcts: &PercentileList) -> BlockLifetimes {
        let total = self.blocks();
        let unwritten: u64 =
            self.counts.iter().filter(|c| c.0 == BlockState::Unwritten).map(|c| c.2).sum();
        if total == unwritten {
            return BlockLifetimes { percentiles: Vec::new(), states: [0; 5] };
        }
        let mut sorted: Vec<f64> = pcts.values().to_vec();
        sorted.sort_by(f64::total_cmp);
        let percentiles = sorted
            .into_iter()
            .map(|p| {
                let at = (p * (total - unwritten) as f64 / 100.0) as u64 + unwritten;
                (p, self.trims_at(at.min(total - 1)))
            })
            .collect();
        let states = BlockState::ALL
            .map(|s| self.counts.iter().filter(|c| c.0 == s).map(|c| c.2).sum::<u64>());
        BlockLifetimes { percentiles, states }
    }

    /// The trims of the block at position `at` of the sorted blocks.
    fn trims_at(&self, at: u64) -> u32 {
        let mut seen = 0;
        for &(_, trims, blocks) in &self.counts {
            seen += blocks;
            if at < seen {
                return trims;
            }
        }
        0
    }
}

/// What the normal report prints under "block lifetime percentiles".
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct BlockLifetimes {
    /// `(percentile, trims)`, in increasing percentile; empty when no block was trimmed.
    pub percentiles: Vec<(f64, u32)>,
    /// Blocks per state, in [`BlockState::ALL`]'s order.
    pub states: [u64; 5],
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pcts(list: &[f64]) -> PercentileList {
        PercentileList::new(list).expect("list")
    }

    #[test]
    fn percentiles_skip_the_never_trimmed_blocks() {
        let mut b = BlockStates::default();
        b.add(BlockState::Unwritten, 0, 6);
        b.add(BlockState::Trimmed, 1, 2);
        b.add(BlockState::TrimFailure, 1, 1);
        b.add(BlockState::Trimmed, 3, 1);
        // Sorted: 6 unwritten, trimmed 1, trimmed 1, trimmed 3, trim failure 1.
        let r = b.report(&pcts(&[50.0, 1.0, 99.0, 75.0]));
        assert_eq!(r.percentiles, [(1.0, 1), (50.0, 3), (75.0, 1), (99.0, 1)]);
        assert_eq!(r.states, [6, 3, 0, 1, 0]);
    }

    #[test]
    fn no_trim_reports_nothing_and_merges_add() {
        let mut a = BlockStates::default();
        a.add(BlockState::Unwritten, 0, 4);
        assert_eq!(a.report(&pcts(&[50.0])), BlockLifetimes::default());
        let mut b = BlockStates::default();
        b.add(BlockState::Trimmed, 2, 4);
        a.merge(&b);
        assert_eq!(a.blocks(), 8);
        assert_eq!(a.report(&pcts(&[50.0])).percentiles, [(50.0, 2)]);
    }
}
