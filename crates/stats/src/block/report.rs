//! The report's view of a job's block-layer split ([`BlockLatencyReport`]): each segment's
//! statistics with fio's percentile layout, per direction, and the counts.

use super::{BlockCounts, BlockRecorder, ClockMap, Segment};
use crate::reduce::{lat_stats, PercentileList};
use crate::report::LatStats;
use serde::{Deserialize, Serialize};

/// One direction's four segments.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BlockDirReport {
    /// Issue to the bio's queueing (btt's Q).
    pub pre: LatStats,
    /// Q to the request's issue to the driver (btt's Q2D).
    pub queue: LatStats,
    /// Issue to the driver to completion (btt's D2C).
    pub device: LatStats,
    /// Completion to iomark seeing it.
    pub completion: LatStats,
}

impl BlockDirReport {
    /// The four, in [`Segment::ALL`]'s order.
    pub fn segments(&self) -> [(Segment, &LatStats); 4] {
        [
            (Segment::Pre, &self.pre),
            (Segment::Queue, &self.queue),
            (Segment::Device, &self.device),
            (Segment::Completion, &self.completion),
        ]
    }
}

/// A job's block-layer split, as reported (JSON: the job's `block_latency` object).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BlockLatencyReport {
    /// Reads, writes, trims: `None` for a direction with no matched I/O.
    pub dirs: [Option<BlockDirReport>; 3],
    /// What could be matched.
    pub counts: BlockCounts,
    /// How the job's clock was mapped onto the tracer's.
    pub clock: ClockMap,
    /// What the tracer had to say.
    pub notes: Vec<String>,
    /// The job asked for the split and could not have it (the first note says why).
    #[serde(default)]
    pub unavailable: bool,
}

impl BlockRecorder {
    /// The report of this recorder, with the percentiles `pcts`.
    pub fn report(&self, pcts: &PercentileList) -> BlockLatencyReport {
        let dirs = std::array::from_fn(|d| {
            let segs = &self.dirs[d];
            (segs[0].moments.count() > 0).then(|| BlockDirReport {
                pre: lat_stats(&segs[0], pcts),
                queue: lat_stats(&segs[1], pcts),
                device: lat_stats(&segs[2], pcts),
                completion: lat_stats(&segs[3], pcts),
            })
        });
        BlockLatencyReport {
            dirs,
            counts: self.counts,
            clock: self.clock,
            notes: self.notes.clone(),
            unavailable: self.unavailable,
        }
    }
}
