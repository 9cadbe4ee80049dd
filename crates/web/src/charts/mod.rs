//! The charts of a page, built from its [`Page`]: per job (across the runs overlaid) the
//! latency histograms and percentile curves, the figures over time, the per-I/O timeline
//! and the depth distributions; for the run as a whole its totals over time.
//!
//! Every chart gets an id that is unique in the page and fit for a file name, so that
//! `iomark report --format=svg|png` writes each one as `ID.svg` or `ID.png`.

mod dist;
mod latency;
mod time;

use crate::model::{Page, Run, Section};
use crate::svg::Chart;
use iomark_stats::report::JobReport;

pub use time::total_charts;

/// The directions' names, in the order of every per-direction array.
pub const DIRS: [&str; 3] = ["read", "write", "trim"];

/// A job's report in each run of the page (with the run), for one section.
pub(crate) struct Overlay<'a> {
    /// `(run, its label when several runs overlay, the job's report)`.
    pub(crate) jobs: Vec<(&'a Run, String, &'a JobReport)>,
}

impl<'a> Overlay<'a> {
    pub(crate) fn of(page: &'a Page, section: &Section) -> Self {
        let several = page.runs.len() > 1;
        let jobs = page
            .runs
            .iter()
            .zip(&section.at)
            .filter_map(|(run, at)| {
                let label = if several { format!("{}: ", run.label) } else { String::new() };
                at.map(|j| (run, label, &run.report.jobs[j]))
            })
            .collect();
        Overlay { jobs }
    }

    /// The directions any of the runs moved data in.
    pub(crate) fn dirs(&self) -> Vec<usize> {
        (0..3).filter(|&d| self.jobs.iter().any(|(_, _, j)| j.dirs[d].total_ios > 0)).collect()
    }
}

/// The charts of section `k` of the page (a job across its runs), in the order shown.
pub fn section_charts(page: &Page, section: &Section, k: usize) -> Vec<Chart> {
    let overlay = Overlay::of(page, section);
    let id = format!("job{k}");
    let mut charts = Vec::new();
    for d in overlay.dirs() {
        charts.extend(latency::histogram(&overlay, &id, d));
        charts.extend(latency::percentiles(&overlay, &id, d));
    }
    charts.extend(latency::buckets(&overlay, &id));
    charts.extend(time::over_time(&overlay, &section.name, &id));
    charts.extend(time::timelines(&overlay, &section.name, &id));
    charts.extend(dist::depths(&overlay, &id));
    charts.retain(|c| !c.is_empty());
    charts
}

/// Every chart of the page: the run's totals, then each section's.
pub fn all_charts(page: &Page) -> Vec<Chart> {
    let mut out = total_charts(page);
    for (k, s) in page.sections().iter().enumerate() {
        out.extend(section_charts(page, s, k));
    }
    out
}
