//! `block_latency`: the job's side of the block-layer split ([`BlockFeed`]). It hands every
//! completed data I/O, on the job's clock, to the sink the run's tracer opened for the job
//! (`iomark_stats::block`), a full buffer at a time; what tracing is, it does not know.

use iomark_core::Ddir;
use iomark_plan::logs::LogPlan;
use iomark_stats::block::{
    BlockLog, BlockRecorder, BlockTracing, IoTrace, IoTraceSink, Segment, TracedJob,
};
use std::fs::File;

/// I/Os per buffer handed over (about 200 KiB).
const BATCH: usize = 4096;

/// One job's feed of I/Os to its block-layer sink, or why it has none.
pub(crate) struct BlockFeed {
    sink: Result<Box<dyn IoTraceSink>, String>,
    buf: Vec<IoTrace>,
}

impl BlockFeed {
    /// The feed of job `job` over `files`, from `tracing`; `now` reads the job's clock
    /// (once the sink is open, to pair it with the sink's clock), which is
    /// `CLOCK_MONOTONIC` when `monotonic` says so (else the TSC); `log`: the per-I/O
    /// segment logs, if the job keeps them.
    pub(crate) fn open(
        tracing: &dyn BlockTracing,
        (job, files): (&str, &[File]),
        (monotonic, log): (bool, Option<BlockLog>),
        now: impl FnOnce() -> u64,
    ) -> Self {
        let sink = if files.is_empty() {
            Err(format!(
                "block latency for job '{job}': the job has no file on a device (null engine); \
                 the job runs without the split"
            ))
        } else {
            let files = files.iter().collect::<Vec<_>>();
            tracing.open(TracedJob { name: job, files: &files, monotonic, log })
        };
        let mut feed = BlockFeed { sink, buf: Vec::with_capacity(BATCH) };
        if let Ok(sink) = &mut feed.sink {
            sink.take(&mut feed.buf, now());
        }
        feed
    }

    /// Takes one completed I/O; a full buffer is handed over with the I/O's completion
    /// time as the job's clock (the sink pairs it with its own clock at once; the pairs
    /// read least late set the offset between the clocks). Out of line and without the
    /// clock (see docs/block-latency.md for what the plain loop pays all the same).
    #[inline(never)]
    pub(crate) fn completed(&mut self, io: IoTrace) {
        let Ok(sink) = &mut self.sink else { return };
        let now = io.done_ns;
        self.buf.push(io);
        if self.buf.len() == self.buf.capacity() {
            sink.take(&mut self.buf, now);
        }
    }

    /// The split so far (for an interim report): the I/Os not yet handed over are handed
    /// over with `now` (the job's clock), and the sink answers once it has matched them.
    /// `None` without a sink, or from one that keeps no interim split.
    pub(crate) fn snapshot(&mut self, now: u64) -> Option<BlockRecorder> {
        let Ok(sink) = &mut self.sink else { return None };
        if !self.buf.is_empty() {
            sink.take(&mut self.buf, now);
        }
        sink.snapshot()
    }

    /// The split of every I/O handed over; `now` is the job's clock at its end.
    pub(crate) fn finish(self, now: u64) -> BlockRecorder {
        let mut buf = self.buf;
        match self.sink {
            Ok(mut sink) => {
                if !buf.is_empty() {
                    sink.take(&mut buf, now);
                }
                sink.finish(now)
            }
            Err(note) => BlockRecorder::unavailable(note),
        }
    }
}

/// The record of the I/O `dir` on file `file`, `len` bytes at `offset`, started at `start`
/// and seen complete at `done`.
#[inline(always)]
pub(crate) fn trace(dir: Ddir, file: u32, offset: u64, len: u32, start: u64, done: u64) -> IoTrace {
    IoTrace { dir, file, offset, len, start_ns: start, done_ns: done }
}

/// The per-I/O segment logs of a job whose latency log has a row per I/O (`write_lat_log`
/// with `log_avg_msec=0`), their times counting from `from_ns` (the job's clock once its
/// `ramp_time` is over); `None` for any other job.
pub(crate) fn block_log(p: &LogPlan, from_ns: u64) -> Option<BlockLog> {
    let prefix = p.lat.as_ref().filter(|_| p.avg_ms == 0)?;
    // Text, also under log_store_compressed (whose `.fz` the names leave out).
    let path = |s: Segment| {
        let name = match p.per_job {
            true => format!("{prefix}-blk-{}_lat.{}.log", s.name(), p.number),
            false => format!("{prefix}-blk-{}_lat.log", s.name()),
        };
        std::path::PathBuf::from(name)
    };
    Some(BlockLog { paths: Segment::ALL.map(path), append: !p.per_job, offset: p.offset, from_ns })
}
