//! iomark's block-layer split in the normal report (`--block-latency`): after a
//! direction's latencies, one line per segment and its percentile block; after the
//! directions, the job's counts.
//!
//! ```text
//!   blk pre (usec): min=2, max=31, avg= 3.12, stdev= 0.90
//!   ...
//!   block latency: ios=1000, matched=1000, unmatched=0, cache hits=0, merged=0, split=0, …
//! ```

use super::percentiles::write_percentiles;
use super::write_lat_line;
use iomark_stats::block::BlockLatencyReport;
use std::fmt::Write as _;

/// The segments of direction `name` (`read`, `write`, `trim`), if the job has them.
pub(super) fn write_dir(out: &mut String, name: &str, block: Option<&BlockLatencyReport>) {
    let d = super::DIR_NAMES.iter().position(|n| *n == name);
    let Some(dir) = block.zip(d).and_then(|(b, d)| b.dirs[d].as_ref()) else {
        return;
    };
    let labels = dir.segments().map(|(s, stats)| (format!("blk {}", s.name()), stats));
    for (label, stats) in &labels {
        write_lat_line(out, label, stats);
    }
    for (label, stats) in &labels {
        write_percentiles(out, label, stats);
    }
}

/// The job's counts, if it asked for the split.
pub(super) fn write_counts(out: &mut String, block: Option<&BlockLatencyReport>) {
    let Some(b) = block else { return };
    let c = &b.counts;
    let _ = writeln!(
        out,
        "  block latency: ios={}, matched={}, unmatched={}, cache hits={}, merged={}, split={}, \
         inserted={}, records={}, lost={}, reordered={} (max {} ns), clock points={} \
         (max {:.1} ppm)",
        c.ios,
        c.matched,
        c.unmatched,
        c.cache_hits,
        c.merged,
        c.split,
        c.inserted,
        c.records,
        c.lost_records,
        c.reordered,
        c.reorder_max_ns,
        b.clock.points,
        b.clock.max_rate_ppm
    );
}
