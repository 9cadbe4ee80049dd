//! One job file on every rank of an MPI launch, and one merged report on rank 0.
//!
//! Every rank lays out its files, then waits at a barrier before each wave of jobs (the
//! first, and each `stonewall`), so all ranks start their I/O together and no rank's
//! next wave starts before every rank has finished the one before. At the end each rank
//! sends its outcomes unreduced (every histogram bucket it used, exact sums) to rank 0,
//! which merges them job by job through the stats crate and reduces once: I/O counts,
//! bytes, histograms and so percentiles, minima and maxima are exactly those of all ranks
//! together, and each direction's runtime is IOR's common wall time, from the earliest
//! start on any rank to the latest end, so bandwidth and IOPS are the total over it.
//! Beside the merged jobs the report keeps each rank's own (`RunReport::ranks`).
//!
//! The MPI calls are behind [`Ranks`] (`crate::mpi` with the `mpi` feature; threads in
//! the tests), so the merge is tested without an MPI library.

use iomark_plan::JobPlan;
use iomark_runner::{reduce, run_outcomes, RunError, RunOptions, RunOutcomes};
use iomark_stats::report::{RankReport, RunReport};
use serde::{Deserialize, Serialize};
use std::sync::atomic::AtomicBool;

/// The collective operations a launch of many ranks offers.
pub trait Ranks {
    /// This process's rank, from 0.
    fn rank(&self) -> u32;
    /// How many ranks there are.
    fn size(&self) -> u32;
    /// Waits until every rank has called it.
    fn barrier(&self) -> Result<(), DistError>;
    /// Every rank's `bytes`, in rank order, at rank 0 (`None` on the other ranks).
    fn gather(&self, bytes: &[u8]) -> Result<Option<Vec<Vec<u8>>>, DistError>;
}

/// Why a run across ranks failed.
#[derive(Debug, thiserror::Error)]
pub enum DistError {
    /// This rank's own run failed.
    #[error(transparent)]
    Run(#[from] RunError),
    /// A collective operation failed.
    #[error("MPI: {0}")]
    Mpi(String),
    /// What a rank sent could not be read.
    #[error("rank {rank}: its outcomes cannot be read: {source}")]
    Decode {
        /// The rank.
        rank: u32,
        /// Why.
        source: serde_json::Error,
    },
}

/// What one rank sends to rank 0.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RankPart {
    /// The rank.
    pub rank: u32,
    /// The host it ran on.
    pub hostname: String,
    /// Its run, unreduced.
    pub outcomes: RunOutcomes,
}

/// Runs `plans` on this rank, in step with the others (see the module doc), calling
/// `starting` as each wave starts; returns the merged report on rank 0, `None` elsewhere.
pub fn run_ranks(
    ranks: &dyn Ranks,
    hostname: &str,
    plans: &[JobPlan],
    options: &RunOptions,
    stop: &AtomicBool,
    mut starting: impl FnMut(&[JobPlan]),
) -> Result<Option<RunReport>, DistError> {
    let mut failed = None;
    let outcomes = run_outcomes(plans, options, stop, |wave| {
        if failed.is_none() {
            failed = ranks.barrier().err();
        }
        starting(wave);
    })?;
    if let Some(e) = failed {
        return Err(e);
    }
    let part = RankPart { rank: ranks.rank(), hostname: hostname.to_string(), outcomes };
    let bytes = serde_json::to_vec(&part).map_err(|e| DistError::Mpi(e.to_string()))?;
    let Some(all) = ranks.gather(&bytes)? else {
        return Ok(None);
    };
    let parts = all
        .iter()
        .enumerate()
        .map(|(rank, b)| {
            serde_json::from_slice(b)
                .map_err(|source| DistError::Decode { rank: rank as u32, source })
        })
        .collect::<Result<Vec<RankPart>, _>>()?;
    merge_parts(plans, parts, options.fake_clock_step_ns.is_some())
        .map(Some)
        .ok_or_else(|| DistError::Mpi("no rank sent its outcomes".into()))
}

/// The report of all ranks' `parts` of a run of `plans`: every job merged across the
/// ranks, and each rank's own jobs beside; `None` without parts.
pub fn merge_parts(plans: &[JobPlan], parts: Vec<RankPart>, fake: bool) -> Option<RunReport> {
    let ranks: Vec<RankReport> = parts
        .iter()
        .map(|p| RankReport {
            rank: p.rank,
            hostname: p.hostname.clone(),
            jobs: reduce(plans, p.outcomes.clone(), fake).0.jobs,
        })
        .collect();
    let mut parts = parts.into_iter().map(|p| p.outcomes);
    let mut merged = parts.next()?;
    for part in parts {
        merge_outcomes(&mut merged, part);
    }
    let (mut report, _) = reduce(plans, merged, fake);
    report.ranks = ranks;
    Some(report)
}

/// Adds `other`, the same plans run on another rank, to `run`, job by job.
pub fn merge_outcomes(run: &mut RunOutcomes, other: RunOutcomes) {
    for (job, theirs) in run.outcomes.iter_mut().zip(other.outcomes) {
        job.recorder.merge(&theirs.recorder);
        match (&mut job.block, theirs.block) {
            (Some(mine), Some(theirs)) => mine.merge(&theirs),
            (mine @ None, theirs) => *mine = theirs,
            (Some(_), None) => {}
        }
        job.times.merge_spans(job.start_wall_ms, &theirs.times, theirs.start_wall_ms);
        job.start_wall_ms = job.start_wall_ms.min(theirs.start_wall_ms);
        if job.error == 0 {
            job.error = theirs.error;
            job.error_text = theirs.error_text;
        }
        for note in theirs.notes {
            if !job.notes.contains(&note) {
                job.notes.push(note);
            }
        }
    }
    run.start_ms = run.start_ms.min(other.start_ms);
    run.copies += other.copies;
}

#[cfg(test)]
mod tests;
