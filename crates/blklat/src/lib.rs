//! Each I/O's completion latency split at the block layer (`--block-latency`).
//!
//! While a job runs, [`BlockTracer`] follows the kernel's block tracepoints
//! (`block_bio_queue`, `block_rq_insert`, `block_rq_issue`, `block_rq_complete`) for the
//! disks under the job's files: by BPF programs written at run time (`bpf`: they keep
//! each request's times in the kernel and write one record per request into a BPF ring
//! buffer, stamped on `CLOCK_MONOTONIC`), or where BPF is refused through a tracefs
//! instance of the job's own with one ring per CPU, every record stamped with the TSC
//! (where the kernel keeps time by it) or `CLOCK_MONOTONIC`, and put on `CLOCK_MONOTONIC`
//! as it is read. No BPF compiler, no external tool. The job
//! hands over its completed I/Os ([`iomark_stats::block::IoTrace`], on its own clock); a
//! thread per job reads the rings, maps the job's clock onto `CLOCK_MONOTONIC` from pairs
//! of readings taken at each hand-over, places each I/O on its disk (a block device's
//! offset, a file's extents through `FIEMAP`), and matches it to its bios and requests
//! (`matcher`). The result is a [`iomark_stats::block::BlockRecorder`].
//!
//! Needs root (BPF programs, or the trace instance made in tracefs). tracefs is mounted (and unmounted
//! after) when it is not, and the report says so.
//!
//! `unsafe`: the design keeps `unsafe` to the engine crate; this crate holds the few blocks
//! `sys.rs` needs (`FIEMAP`, `clock_gettime`, `sysconf`) and those of `bpf/kernel.rs`
//! (`bpf()`, `perf_event_open`, the ring buffer's mapping), each with a `// SAFETY:` line;
//! every other file forbids it.

mod bpf;
pub mod matcher;
mod page;
mod ring;
mod seglog;
mod session;
pub mod sys;
pub mod tracefs;

use iomark_stats::block::{BlockTracing, IoTraceSink, TracedJob};
use std::sync::Mutex;
use tracefs::{Layout, TraceFs};

/// Why block-layer tracing cannot run.
#[derive(Debug, thiserror::Error)]
pub enum BlkError {
    /// tracefs is not mounted and could not be mounted.
    #[error("tracefs is not available (not mounted, and mounting it failed: root is needed)")]
    NoTraceFs,
    /// A block event is missing or unreadable.
    #[error("the kernel's {event} tracepoint: {why}")]
    Event {
        /// The event's name.
        event: &'static str,
        /// What went wrong.
        why: String,
    },
    /// The trace instance or a ring refused.
    #[error("a trace instance for the block tracepoints: {0} (root is needed)")]
    Open(std::io::Error),
    /// The BPF path was refused (the trace instance is used instead).
    #[error("BPF: {0}")]
    Bpf(String),
    /// A file of the job could not be placed on a device.
    #[error("{0}")]
    Place(String),
}

/// The run's tracer: tracefs and the events' layouts, shared by the jobs.
#[derive(Debug)]
pub struct BlockTracer {
    layouts: [Layout; 4],
    root: std::path::PathBuf,
    /// A note for every job (tracefs mounted for the run), taken by the first.
    note: Mutex<Option<String>>,
    _tracefs: TraceFs,
}

impl BlockTracer {
    /// The tracer, or why there is none.
    pub fn new() -> Result<BlockTracer, BlkError> {
        let (tracefs, note) = TraceFs::find_or_mount()?;
        let layouts = tracefs.layouts()?;
        let root = tracefs.root().to_path_buf();
        Ok(BlockTracer { layouts, root, note: Mutex::new(note), _tracefs: tracefs })
    }
}

impl BlockTracing for BlockTracer {
    fn open(&self, job: TracedJob<'_>) -> Result<Box<dyn IoTraceSink>, String> {
        let note = self.note.lock().ok().and_then(|n| n.clone());
        let name = job.name;
        session::Session::start(&self.root, &self.layouts, job, note)
            .map(|s| Box::new(s) as Box<dyn IoTraceSink>)
            .map_err(|e| {
                format!("block latency for job '{name}': {e}; the job runs without the split")
            })
    }
}

/// Tracing that cannot run: every job is told why (the run goes on without the split).
#[derive(Debug)]
pub struct Unavailable(pub String);

impl BlockTracing for Unavailable {
    fn open(&self, _: TracedJob<'_>) -> Result<Box<dyn IoTraceSink>, String> {
        Err(self.0.clone())
    }
}

/// The run's tracer, or the note that says why there is none (for [`Unavailable`]).
pub fn for_run() -> Result<BlockTracer, String> {
    BlockTracer::new().map_err(|e| {
        format!("block latency is not available: {e}; the run goes on without the split")
    })
}
