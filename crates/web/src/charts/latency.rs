//! Latency histograms and percentile curves (log axes) for slat, clat and lat of each
//! direction, each I/O priority and the latency corrected for coordinated omission; and
//! fio's coarse latency buckets when a report has no histogram bins (plain fio JSON).

use super::{Overlay, DIRS};
use crate::decimate::log_bins;
use crate::svg::{color, Axis, Chart, Scale, Style, Unit};
use iomark_stats::report::{DirReport, JobReport, LatStats};

/// Bins per decade of the histograms drawn.
const PER_DECADE: u32 = 20;

/// The latencies of one direction worth drawing: `(name, stats)`.
fn kinds(dir: &DirReport) -> Vec<(String, &LatStats)> {
    let mut out: Vec<(String, &LatStats)> = Vec::new();
    for (name, stats) in [("slat", &dir.slat), ("clat", &dir.clat), ("lat", &dir.lat)] {
        if stats.n > 0 {
            out.push((name.to_string(), stats));
        }
    }
    if let Some(c) = dir.lat_corrected.as_ref().filter(|c| c.n > 0) {
        out.push(("corrected lat".into(), c));
    }
    for p in dir.prios.iter().filter(|p| p.lat.n > 0) {
        let which = if p.total_latency { "lat" } else { "clat" };
        out.push((format!("{which} prio {}/{}", p.prioclass, p.prio), &p.lat));
    }
    out
}

/// Each run's latencies of direction `d`, with the series' names and colours.
fn series<'a>(o: &'a Overlay<'a>, d: usize) -> Vec<(String, &'static str, &'a LatStats)> {
    let mut out = Vec::new();
    let mut k = 0;
    for (_, label, job) in &o.jobs {
        for (name, stats) in kinds(&job.dirs[d]) {
            out.push((format!("{label}{name}"), color(k), stats));
            k += 1;
        }
    }
    out
}

/// The histogram of each latency of direction `d` (share of I/Os per bin, log x).
pub(super) fn histogram(o: &Overlay<'_>, id: &str, d: usize) -> Option<Chart> {
    let mut chart = Chart::new(
        &format!("{id}-{}-latency-histogram", DIRS[d]),
        &format!("{} latency histogram", DIRS[d]),
        Axis::new("latency", Scale::Log, Unit::Nanos),
        Axis::new("share of I/Os", Scale::Linear, Unit::Percent),
    );
    for (name, c, stats) in series(o, d) {
        let Some(bins) = &stats.bins else { continue };
        let n: u64 = bins.iter().map(|b| b.1).sum();
        let points = log_bins(bins, PER_DECADE)
            .into_iter()
            .map(|(v, count)| (v, count as f64 * 100.0 / n.max(1) as f64))
            .collect();
        chart = chart.with(&name, c, Style::Line, points);
    }
    Some(chart)
}

/// The percentile curve of each latency of direction `d`: every rank from the histogram's
/// bins where there are some, else the reported percentiles.
pub(super) fn percentiles(o: &Overlay<'_>, id: &str, d: usize) -> Option<Chart> {
    let mut chart = Chart::new(
        &format!("{id}-{}-latency-percentiles", DIRS[d]),
        &format!("{} latency percentiles", DIRS[d]),
        Axis::new("percentile", Scale::Percentile, Unit::Percent),
        Axis::new("latency", Scale::Log, Unit::Nanos),
    );
    for (name, c, stats) in series(o, d) {
        let points = match (&stats.bins, &stats.percentiles) {
            (Some(bins), _) => curve(bins),
            (None, Some(list)) => list.iter().map(|&(p, v)| (p, v as f64)).collect(),
            (None, None) => continue,
        };
        chart = chart.with(&name, c, Style::Line, points);
    }
    Some(chart)
}

/// `(percentile, value)` at every bin, thinned to about 800 steps along the percentile
/// axis; the first and last (the smallest and largest values) always kept.
fn curve(bins: &[(u64, u64)]) -> Vec<(f64, f64)> {
    let n: u64 = bins.iter().map(|b| b.1).sum();
    if n == 0 {
        return Vec::new();
    }
    let scale = Scale::Percentile;
    let step = 7.0 / 800.0;
    let mut out: Vec<(f64, f64)> = Vec::new();
    let mut cumulative = 0u64;
    let mut last_t = f64::NEG_INFINITY;
    for (i, &(value, count)) in bins.iter().enumerate() {
        let before = cumulative as f64 * 100.0 / n as f64;
        cumulative += count;
        // The largest value stands at the rank of the last I/O, 1 − 1/N, rather than at
        // 100 % (which the axis cannot reach).
        let p = if cumulative == n && n > 1 {
            100.0 * (1.0 - 1.0 / n as f64)
        } else {
            cumulative as f64 * 100.0 / n as f64
        };
        let t = scale.at(p).unwrap_or(0.0);
        if i == 0 {
            out.push((before, value as f64));
        }
        if t - last_t >= step || i + 1 == bins.len() {
            out.push((p, value as f64));
            last_t = t;
        }
    }
    out
}

/// fio's latency buckets (clat, all directions: 2 ns … ≥2 s) as bars, for reports without
/// histogram bins.
pub(super) fn buckets(o: &Overlay<'_>, id: &str) -> Option<Chart> {
    let has_bins =
        |j: &JobReport| j.dirs.iter().any(|d| kinds(d).iter().any(|k| k.1.bins.is_some()));
    if o.jobs.iter().all(|(_, _, j)| has_bins(j)) {
        return None;
    }
    let mut chart = Chart::new(
        &format!("{id}-latency-buckets"),
        "completion latency (fio's buckets, all directions)",
        Axis::new("at most", Scale::Linear, Unit::Count),
        Axis::new("share of I/Os", Scale::Linear, Unit::Percent),
    );
    let ns = ["2ns", "4", "10", "20", "50", "100", "250", "500", "750", "1000"];
    let us = ["2µs", "4", "10", "20", "50", "100", "250", "500", "750", "1000"];
    let ms = ["2ms", "4", "10", "20", "50", "100", "250", "500", "750", "1000", "2000", ">2s"];
    chart.categories = ns.iter().chain(&us).chain(&ms).map(|s| s.to_string()).collect();
    for (k, (_, label, job)) in o.jobs.iter().enumerate() {
        let shares = job.latency_ns.iter().chain(&job.latency_us).chain(&job.latency_ms);
        let points = shares.enumerate().map(|(i, &s)| (i as f64, s)).collect();
        chart = chart.with(&format!("{label}clat"), color(k), Style::Bars, points);
    }
    Some(chart)
}
