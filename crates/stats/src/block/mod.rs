//! Block-layer latency (`--block-latency`, `block_latency=1`): what the runner hands to a
//! tracer and what the tracer hands back.
//!
//! The runner knows nothing of tracing. When a job asks for the split, it opens an
//! [`IoTraceSink`] through the run's [`BlockTracing`] (made by the cli, implemented by the
//! `iomark-blklat` crate), hands it every completed data I/O as an [`IoTrace`] (times on the
//! job's clock, in buffers filled without allocating), and at the end gets back a
//! [`BlockRecorder`]: each I/O's completion latency split into four [`Segment`]s, per
//! direction, with the counts of what could and could not be matched. The reduction
//! ([`BlockRecorder::report`]) gives the report's [`BlockLatencyReport`].

mod report;

pub use report::{BlockDirReport, BlockLatencyReport};

use crate::recorder::LatRecorder;
use iomark_core::Ddir;
use serde::{Deserialize, Serialize};

/// One completed data I/O as the runner saw it, on the job's clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IoTrace {
    /// Read, write or trim.
    pub dir: Ddir,
    /// The index of the file in the job's file list.
    pub file: u32,
    /// The offset in the file, in bytes.
    pub offset: u64,
    /// The length, in bytes.
    pub len: u32,
    /// When it started (the start of its lat: for a synchronous engine's read, also the
    /// start of its clat; an asynchronous engine's submission takes it through the block
    /// layer before its clat starts), job clock nanoseconds.
    pub start_ns: u64,
    /// When it was seen complete (the end of its clat), job clock nanoseconds.
    pub done_ns: u64,
}

/// Where one job's [`IoTrace`]s go. Called on the job thread, outside the I/O path's
/// common case (once per full buffer).
pub trait IoTraceSink: Send {
    /// Takes the I/Os in `ios` (leaving it empty, its capacity kept); `now_ns` is the job
    /// clock read just before the call, which the sink pairs with its own clock to map
    /// the job's clock onto the tracer's. Called once with no I/O at the job's start.
    fn take(&mut self, ios: &mut Vec<IoTrace>, now_ns: u64);
    /// The split of the I/Os handed over so far, for an interim report (`None`: the sink
    /// keeps none). Called on the job thread, rarely (once per report).
    fn snapshot(&mut self) -> Option<BlockRecorder> {
        None
    }
    /// The job ended at `now_ns` (the last [`IoTraceSink::take`] came before): the split
    /// of every I/O handed over.
    fn finish(self: Box<Self>, now_ns: u64) -> BlockRecorder;
}

/// A run's block-layer tracing, shared by its jobs.
pub trait BlockTracing: Send + Sync + std::fmt::Debug {
    /// A sink for `job`; `Err` says why the job's I/O cannot be followed (the run goes on
    /// without the split).
    fn open(&self, job: TracedJob<'_>) -> Result<Box<dyn IoTraceSink>, String>;
}

/// What a tracer is told of a job that asks for the split.
#[derive(Debug)]
pub struct TracedJob<'a> {
    /// The job's name.
    pub name: &'a str,
    /// Its files, in the job's order ([`IoTrace::file`] indexes them).
    pub files: &'a [&'a std::fs::File],
    /// The job's clock is `CLOCK_MONOTONIC` from some origin (one offset maps it onto the
    /// tracer's); else it is another (the TSC: mapped between pairs of readings).
    pub monotonic: bool,
    /// Where each matched I/O's segments go, if the job logs every I/O's latency.
    pub log: Option<BlockLog>,
}

/// The per-I/O segment logs of a job that keeps a latency log row per I/O
/// (`write_lat_log` with `log_avg_msec=0`): one log per segment, in fio's latency-log
/// layout (`time, value, direction, block size, [offset, ]priority`), named
/// `PREFIX-blk-SEGMENT_lat.N.log` so that fio's log readers take each for a latency log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockLog {
    /// The four logs, in [`Segment::ALL`]'s order.
    pub paths: [std::path::PathBuf; 4],
    /// `per_job_logs=0`: the jobs add their rows to one file (opened for appending).
    pub append: bool,
    /// `log_offset`: an offset column.
    pub offset: bool,
    /// The job-clock reading the rows' times count from (the job's start, after its
    /// `ramp_time`); I/Os completed before it are not logged.
    pub from_ns: u64,
}

/// The four parts of an I/O's latency from its start (fio's lat: its clat for a
/// synchronous engine's read), in the order they happen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Segment {
    /// From the I/O's start to the block layer's first sight of its bio (btt's Q): system
    /// call, file system, page cache.
    Pre = 0,
    /// From Q to the request's issue to the driver (btt's Q2D: getting a request,
    /// plugging, the I/O scheduler's queue between insert and dispatch).
    Queue = 1,
    /// From the issue to the driver to the request's completion (btt's D2C).
    Device = 2,
    /// From the request's completion to iomark seeing the I/O complete (interrupt,
    /// wake-up, reaping).
    Completion = 3,
}

impl Segment {
    /// The four, in order.
    pub const ALL: [Segment; 4] =
        [Segment::Pre, Segment::Queue, Segment::Device, Segment::Completion];

    /// The name used in the reports.
    pub fn name(self) -> &'static str {
        ["pre", "queue", "device", "completion"][self as usize]
    }
}

/// What could be matched, and how.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct BlockCounts {
    /// Data I/Os handed over.
    pub ios: u64,
    /// I/Os matched to their bios and requests (their segments are recorded).
    pub matched: u64,
    /// I/Os that should have reached the device (direct I/O) but were not seen whole.
    pub unmatched: u64,
    /// Buffered I/Os served without a block request of their own (page cache hits,
    /// writes absorbed by the page cache).
    pub cache_hits: u64,
    /// Matched I/Os whose request also carried other I/Os (merged).
    pub merged: u64,
    /// Matched I/Os that took more than one request (split).
    pub split: u64,
    /// Matched I/Os whose request went through the I/O scheduler's queue (an insert).
    pub inserted: u64,
    /// Trace records the kernel dropped because a ring was full (perf's lost records).
    pub lost_records: u64,
    /// Trace records read.
    pub records: u64,
    /// Matched I/Os whose bio was seen before their issue or whose request completed
    /// after they were seen complete (the clocks disagreed): their boundaries were moved
    /// to the I/O's own, so that the segments still add up to clat.
    #[serde(default)]
    pub reordered: u64,
    /// The most a boundary was moved, in nanoseconds.
    #[serde(default)]
    pub reorder_max_ns: u64,
}

impl BlockCounts {
    fn merge(&mut self, o: &BlockCounts) {
        self.ios += o.ios;
        self.matched += o.matched;
        self.unmatched += o.unmatched;
        self.cache_hits += o.cache_hits;
        self.merged += o.merged;
        self.split += o.split;
        self.inserted += o.inserted;
        self.lost_records += o.lost_records;
        self.records += o.records;
        self.reordered += o.reordered;
        self.reorder_max_ns = self.reorder_max_ns.max(o.reorder_max_ns);
    }
}

/// How the job's clock was mapped onto the tracer's (`CLOCK_MONOTONIC`).
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct ClockMap {
    /// Pairs of readings (job clock, `CLOCK_MONOTONIC`) the map interpolates between.
    pub points: u64,
    /// The largest difference in rate between the two clocks over any interval, in parts
    /// per million (0 when both are `CLOCK_MONOTONIC`).
    pub max_rate_ppm: f64,
}

/// One job's split latencies, by direction and segment, and the counts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BlockRecorder {
    /// Reads, writes, trims; in each the four segments in [`Segment::ALL`]'s order.
    pub dirs: [[LatRecorder; 4]; 3],
    /// What could be matched.
    pub counts: BlockCounts,
    /// How the clocks were mapped.
    pub clock: ClockMap,
    /// What the tracer has to say (why nothing was traced, what was mounted).
    pub notes: Vec<String>,
    /// The job asked for the split and could not have it (the first note says why).
    pub unavailable: bool,
}

impl Default for BlockRecorder {
    fn default() -> Self {
        BlockRecorder {
            dirs: std::array::from_fn(|_| std::array::from_fn(|_| LatRecorder::new(true))),
            counts: BlockCounts::default(),
            clock: ClockMap::default(),
            notes: Vec::new(),
            unavailable: false,
        }
    }
}

impl BlockRecorder {
    /// A recorder with nothing recorded and this note (the split was not available).
    pub fn unavailable(note: String) -> Self {
        BlockRecorder { notes: vec![note], unavailable: true, ..BlockRecorder::default() }
    }

    /// Records one matched I/O of direction `dir`: its four segments, in nanoseconds.
    pub fn record(&mut self, dir: Ddir, segments: [u64; 4]) {
        if let Some(d) = dir.data_index() {
            for (rec, ns) in self.dirs[d].iter_mut().zip(segments) {
                rec.record(ns);
            }
        }
    }

    /// Adds another job's (`group_reporting`).
    pub fn merge(&mut self, other: &BlockRecorder) {
        for (mine, theirs) in self.dirs.iter_mut().zip(&other.dirs) {
            for (m, t) in mine.iter_mut().zip(theirs) {
                m.merge(t);
            }
        }
        self.counts.merge(&other.counts);
        self.unavailable |= other.unavailable;
        self.clock.points += other.clock.points;
        self.clock.max_rate_ppm = self.clock.max_rate_ppm.max(other.clock.max_rate_ppm);
        for note in &other.notes {
            if !self.notes.contains(note) {
                self.notes.push(note.clone());
            }
        }
    }
}

#[cfg(test)]
mod tests;
