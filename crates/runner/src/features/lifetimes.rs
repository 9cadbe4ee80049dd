//! `block_error_percentiles` while a job runs: the state and trim count of every
//! trim-sized block of its files, updated as its trims complete or fail, and counted into
//! the recorder's [`BlockStates`] when it ends. As in fio 3.33 only trims are recorded
//! (docs/running.md).

use iomark_plan::JobPlan;
use iomark_stats::lifetimes::{BlockState, BlockStates};

/// One block: its state in the top bits, its trims below.
type Cell = u32;
const TRIM_BITS: u32 = 28;
const TRIM_MASK: Cell = (1 << TRIM_BITS) - 1;

/// The blocks of a job's files.
pub(crate) struct Lifetimes {
    /// The trim block size: the smallest size of the job's trims.
    bs: u64,
    /// Per file, its blocks.
    files: Vec<Vec<Cell>>,
}

impl Lifetimes {
    /// The blocks of `plan`'s files, all never trimmed, if the job asks for them.
    pub(crate) fn of(plan: &JobPlan) -> Option<Box<Lifetimes>> {
        if !plan.report.block_error_hist {
            return None;
        }
        let bs = plan.workload.block_size_ranges()[2].0.max(1);
        let files = plan
            .files
            .list
            .iter()
            .map(|f| vec![0; usize::try_from(f.needed_size().div_ceil(bs)).unwrap_or(0)])
            .collect();
        Some(Box::new(Lifetimes { bs, files }))
    }

    /// A trim of `len` bytes at `offset` of file `file` completed (`ok`) or failed: each
    /// block it covers is trimmed once more, or failed.
    pub(crate) fn trimmed(&mut self, file: u32, offset: u64, len: u64, ok: bool) {
        let Some(blocks) = self.files.get_mut(file as usize) else { return };
        let first = offset / self.bs;
        let end = offset.saturating_add(len.max(1)).div_ceil(self.bs);
        for i in first..end {
            let Some(cell) = usize::try_from(i).ok().and_then(|i| blocks.get_mut(i)) else {
                break;
            };
            let trims = *cell & TRIM_MASK;
            *cell = if ok {
                pack(BlockState::Trimmed, (trims + 1).min(TRIM_MASK))
            } else {
                pack(BlockState::TrimFailure, trims)
            };
        }
    }

    /// Every block counted by state and trims.
    pub(crate) fn states(&self) -> BlockStates {
        let mut cells: Vec<Cell> = self.files.iter().flatten().copied().collect();
        cells.sort_unstable();
        let mut out = BlockStates::default();
        for run in cells.chunk_by(|a, b| a == b) {
            let state = BlockState::ALL[(run[0] >> TRIM_BITS) as usize];
            out.add(state, run[0] & TRIM_MASK, run.len() as u64);
        }
        out
    }
}

fn pack(state: BlockState, trims: u32) -> Cell {
    let index = BlockState::ALL.iter().position(|s| *s == state).unwrap_or(0) as Cell;
    (index << TRIM_BITS) | trims
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trims_count_per_block_and_failures_stick_the_state() {
        let mut l = Lifetimes { bs: 4096, files: vec![vec![0; 4]] };
        l.trimmed(0, 0, 8192, true);
        l.trimmed(0, 0, 4096, true);
        l.trimmed(0, 4096, 4096, false);
        let mut want = BlockStates::default();
        want.add(BlockState::Trimmed, 2, 1);
        want.add(BlockState::TrimFailure, 1, 1);
        want.add(BlockState::Unwritten, 0, 2);
        assert_eq!(l.states(), want);
    }
}
