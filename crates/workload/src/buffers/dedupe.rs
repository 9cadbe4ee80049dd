//! fio 3.33's deduplicated buffers (`dedupe_percentage`): which state of the buffer stream
//! each generated buffer's data comes from. Fitted to the files fio 3.33 writes (every
//! block's data gives away the draws of the buffer stream it came from):
//!
//! - each fill draws a percentage from the job's dedupe stream (stream 14) and is a
//!   *duplicate* when it is at most `dedupe_percentage`, else *unique*. Every fill draws,
//!   the units' first fills included, but for the very first fill of mode `repeat`, which
//!   is unique without a draw;
//! - a unique buffer takes the buffer stream where it stands (and moves it on); in mode
//!   `repeat` a duplicate puts the stream back where the last unique buffer started and
//!   takes it from there (so it repeats that buffer, as far as both go: `bsrange=4k-16k`
//!   repeats a 4k buffer in a 12k one and goes on after it); in mode `working_set` a
//!   duplicate is
//!   working-set buffer ⌊N × f⌋ for the next fraction f of the job's working-set stream
//!   (stream 20), buffer `i` being the `i`-th buffer of the job's smallest write size the
//!   stream would give from the job's start (the working set is the first N such buffers,
//!   whether or not they were written yet).
//!
//! With `dedupe_global` the working set starts from one state shared by every job (fio
//! 3.33 shares it too; iomark's start is its own).

use super::{Dedupe, DedupeMode};
use crate::seeds::{FioSeeds, FioStream};
use crate::taus::FioRng;

/// The start of the working set of jobs with `dedupe_global`.
const GLOBAL_WORKING_SET: u64 = 0x676c_6f62_616c_2d77;

/// The deduplication state of one job.
#[derive(Debug, Clone)]
pub(super) struct FioDedupe {
    percentage: u32,
    /// Stream 14: the duplicate-or-unique draws.
    decide: FioRng,
    /// Stream 20: which working-set buffer a duplicate is.
    pick: FioRng,
    /// No fill yet.
    first: bool,
    how: How,
}

#[derive(Debug, Clone)]
enum How {
    /// The buffer stream's state before the last unique fill.
    Repeat { prev: Option<FioRng> },
    /// The first `buffers` states of the buffer stream, made at the first fill (from
    /// `start`, one buffer of `draws` draws after the other).
    WorkingSet { buffers: u64, draws: u64, start: FioRng, set: Box<[FioRng]> },
}

impl FioDedupe {
    /// The state of a job deduplicating as `dedupe` says, drawing from `seeds`; `buffer` is
    /// its buffer stream as it starts; a buffer of `len` bytes takes `draws(len)` draws.
    pub(super) fn new(
        dedupe: &Dedupe,
        seeds: &FioSeeds,
        buffer: &FioRng,
        draws: impl Fn(u64) -> u64,
    ) -> FioDedupe {
        let how = match dedupe.mode {
            DedupeMode::Repeat => How::Repeat { prev: None },
            DedupeMode::WorkingSet { buffers, block } => How::WorkingSet {
                buffers: buffers.max(1),
                draws: draws(block),
                start: if dedupe.global {
                    FioRng::new(GLOBAL_WORKING_SET, false)
                } else {
                    buffer.clone()
                },
                set: Box::new([]),
            },
        };
        FioDedupe {
            percentage: dedupe.percentage,
            decide: seeds.rng(FioStream::Dedupe),
            pick: seeds.rng(FioStream::DedupeSet),
            first: true,
            how,
        }
    }

    /// Where the next fill's data comes from: `None` for the buffer stream `now` (a
    /// unique buffer, or in mode `repeat` a duplicate, for which `now` is put back), else
    /// the state to generate a working-set duplicate from.
    pub(super) fn source(&mut self, now: &mut FioRng) -> Option<FioRng> {
        let first = std::mem::replace(&mut self.first, false);
        if let How::WorkingSet { buffers, draws, start, set } = &mut self.how {
            if set.is_empty() {
                *set = working_set(start, *buffers, *draws);
            }
        }
        let duplicate = match &self.how {
            How::Repeat { .. } if first => false,
            _ => self.decide.percent() <= self.percentage,
        };
        match &mut self.how {
            How::Repeat { prev } => {
                match prev {
                    Some(p) if duplicate => now.clone_from(p),
                    _ => *prev = Some(now.clone()),
                }
                None
            }
            How::WorkingSet { set, .. } => duplicate.then(|| {
                let i = self.pick.below(set.len() as u64) as usize;
                set[i].clone()
            }),
        }
    }
}

/// The states of the first `buffers` buffers of the stream from `start`, each `draws`
/// draws after the one before.
fn working_set(start: &FioRng, buffers: u64, draws: u64) -> Box<[FioRng]> {
    let mut s = start.clone();
    (0..buffers)
        .map(|_| {
            let here = s.clone();
            for _ in 0..draws {
                s.next_raw();
            }
            here
        })
        .collect()
}
