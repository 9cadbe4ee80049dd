//! I/O depth, submit and complete distributions: fio's `IO depths`, `submit` and
//! `complete` lines, as bars, one series per run.

use super::Overlay;
use crate::svg::{color, Axis, Chart, Scale, Style, Unit};
use iomark_stats::report::JobReport;

/// One distribution: its name, title, categories and where a report keeps it.
type Distribution =
    (&'static str, &'static str, &'static [&'static str; 7], fn(&JobReport) -> &[f64; 7]);

/// The three distributions of the job in every run.
pub(super) fn depths(o: &Overlay<'_>, id: &str) -> Vec<Chart> {
    const DEPTH: [&str; 7] = ["1", "2", "4", "8", "16", "32", ">=64"];
    const BATCH: [&str; 7] = ["0", "1-4", "5-8", "9-16", "17-32", "33-64", ">64"];
    let pick: [Distribution; 3] = [
        ("depth", "I/O depth (share of I/Os issued at it)", &DEPTH, |j| &j.iodepth_level),
        ("submit", "I/Os per submit call", &BATCH, |j| &j.iodepth_submit),
        ("complete", "I/Os per reap call", &BATCH, |j| &j.iodepth_complete),
    ];
    pick.iter()
        .map(|(name, title, cats, field)| {
            let mut chart = Chart::new(
                &format!("{id}-{name}-distribution"),
                title,
                Axis::new(name, Scale::Linear, Unit::Count),
                Axis::new("share", Scale::Linear, Unit::Percent),
            );
            chart.categories = cats.iter().map(|s| s.to_string()).collect();
            for (k, (_, label, job)) in o.jobs.iter().enumerate() {
                let shares = field(job);
                if shares.iter().all(|&s| s == 0.0) {
                    continue;
                }
                let points = shares.iter().enumerate().map(|(i, &s)| (i as f64, s)).collect();
                let name = if label.is_empty() {
                    "share".to_string()
                } else {
                    label.trim_end_matches(": ").to_string()
                };
                chart = chart.with(&name, color(k), Style::Bars, points);
            }
            chart
        })
        .collect()
}
