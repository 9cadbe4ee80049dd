//! The block-layer split of a job (`--block-latency`): one row per run and direction with
//! each segment's mean, median and 99th percentile, then the counts.

use super::tables::{at, ns};
use crate::charts::DIRS;
use crate::model::{Page, Section};
use crate::svg::escape;
use std::fmt::Write as _;

/// The job's split, when a run of it has one.
pub(super) fn table(out: &mut String, page: &Page, s: &Section) {
    let runs = || page.runs.iter().zip(&s.at).filter_map(|(r, j)| Some((r, j.as_ref()?)));
    if !runs().any(|(r, &j)| r.report.jobs[j].block_latency.is_some()) {
        return;
    }
    out.push_str(
        "<table class=\"summary block\"><tr><th>run</th><th>dir</th><th>segment</th>\
         <th>mean</th><th>p50</th><th>p99</th><th>max</th></tr>",
    );
    for (run, &j) in runs() {
        let Some(b) = &run.report.jobs[j].block_latency else { continue };
        for (d, dir) in b.dirs.iter().enumerate() {
            let Some(dir) = dir else { continue };
            for (seg, stats) in dir.segments() {
                let _ = write!(
                    out,
                    "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>\
                     <td>{}</td></tr>",
                    escape(&run.label),
                    DIRS[d],
                    seg.name(),
                    ns(Some(stats.mean)),
                    ns(at(stats, 50.0).map(|v| v as f64)),
                    ns(at(stats, 99.0).map(|v| v as f64)),
                    ns(Some(stats.max as f64)),
                );
            }
        }
        let c = &b.counts;
        let _ = write!(
            out,
            "<tr><td>{}</td><td colspan=\"6\">I/Os {}: matched {}, unmatched {}, cache hits {}, \
             merged {}, split {}, records {}, lost {}{}</td></tr>",
            escape(&run.label),
            c.ios,
            c.matched,
            c.unmatched,
            c.cache_hits,
            c.merged,
            c.split,
            c.records,
            c.lost_records,
            b.notes.iter().map(|n| format!("; {}", escape(n))).collect::<String>(),
        );
    }
    out.push_str("</table>");
}
