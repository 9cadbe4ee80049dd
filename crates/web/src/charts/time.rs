//! Figures over time (IOPS, bandwidth, latency percentiles per interval), for a job and for
//! the run's total, and the per-I/O timeline of seed 002: when each I/O was submitted and
//! when it completed, against its number, and its latency.

use super::{Overlay, DIRS};
use crate::decimate::min_max;
use crate::model::{Metric, Page};
use crate::svg::{color, Axis, Chart, Scale, Style, Unit};

/// Columns a chart over time or over I/O numbers is decimated to (about its pixel width).
const COLUMNS: usize = 1200;

/// The colours of seed 002's timeline: red submissions, black completions.
const SUBMIT: &str = "#d62728";
const COMPLETE: &str = "#000000";

/// IOPS, bandwidth and latency over time of the job called `name` in every run.
pub(super) fn over_time(o: &Overlay<'_>, name: &str, id: &str) -> Vec<Chart> {
    let runs: Vec<(&crate::model::Run, &str)> =
        o.jobs.iter().map(|(run, label, _)| (*run, label.as_str())).collect();
    charts_over_time(&runs, name, id)
}

/// The run's total (all jobs) over time, from its intervals.
pub fn total_charts(page: &Page) -> Vec<Chart> {
    let several = page.runs.len() > 1;
    let labels: Vec<String> = page
        .runs
        .iter()
        .map(|r| if several { format!("{}: ", r.label) } else { String::new() })
        .collect();
    let runs: Vec<(&crate::model::Run, &str)> =
        page.runs.iter().zip(&labels).map(|(r, l)| (r, l.as_str())).collect();
    let mut charts = charts_over_time(&runs, "all", "total");
    for c in &mut charts {
        c.title = format!("all jobs: {}", c.title);
    }
    charts.retain(|c| !c.is_empty());
    charts
}

fn charts_over_time(runs: &[(&crate::model::Run, &str)], name: &str, id: &str) -> Vec<Chart> {
    let time = || Axis::new("time", Scale::Linear, Unit::Seconds);
    let mut iops = Chart::new(
        &format!("{id}-iops"),
        "IOPS over time",
        time(),
        Axis::new("IOPS", Scale::Linear, Unit::Count),
    );
    let mut bw = Chart::new(
        &format!("{id}-bandwidth"),
        "bandwidth over time",
        time(),
        Axis::new("bandwidth", Scale::Linear, Unit::BytesPerSec),
    );
    let mut lat: Vec<Chart> = Vec::new();
    let mut k = 0;
    for (run, label) in runs {
        for curve in run.curves.iter().filter(|c| c.job == name) {
            let points = min_max(&curve.points, COLUMNS);
            let dir = DIRS[curve.dir];
            match curve.metric {
                Metric::Iops => {
                    iops = iops.with(
                        &format!("{label}{dir}"),
                        color(k + curve.dir),
                        Style::Line,
                        points,
                    )
                }
                Metric::Bandwidth => {
                    bw =
                        bw.with(&format!("{label}{dir}"), color(k + curve.dir), Style::Line, points)
                }
                Metric::Latency(which) => {
                    let chart_id = format!("{id}-{dir}-latency-over-time");
                    let at = match lat.iter().position(|c| c.id == chart_id) {
                        Some(at) => at,
                        None => {
                            lat.push(Chart::new(
                                &chart_id,
                                &format!("{dir} latency over time"),
                                time(),
                                Axis::new("latency", Scale::Log, Unit::Nanos),
                            ));
                            lat.len() - 1
                        }
                    };
                    let n = lat[at].series.len();
                    let chart = std::mem::replace(&mut lat[at], Chart::new("", "", time(), time()));
                    lat[at] = chart.with(&format!("{label}{which}"), color(n), Style::Line, points);
                }
            }
        }
        k += 3;
    }
    let mut out = vec![iops, bw];
    out.extend(lat);
    out
}

/// Seed 002's pictures for each run that kept per-I/O times of the job called `name`.
pub(super) fn timelines(o: &Overlay<'_>, name: &str, id: &str) -> Vec<Chart> {
    let mut out = Vec::new();
    for (r, (run, label, _)) in o.jobs.iter().enumerate() {
        for (t, trace) in run.traces.iter().filter(|t| t.job == name).enumerate() {
            if trace.ios.is_empty() {
                continue;
            }
            let origin = trace.ios.iter().map(|io| io.submit_ns).min().unwrap_or(0);
            let ms = |ns: u64| ns.saturating_sub(origin) as f64 / 1e6;
            let submit: Vec<(f64, f64)> =
                trace.ios.iter().enumerate().map(|(i, io)| (i as f64, ms(io.submit_ns))).collect();
            let complete: Vec<(f64, f64)> = trace
                .ios
                .iter()
                .enumerate()
                .map(|(i, io)| (i as f64, ms(io.complete_ns)))
                .collect();
            let latency: Vec<(f64, f64)> = trace
                .ios
                .iter()
                .enumerate()
                .map(|(i, io)| (i as f64, io.complete_ns.saturating_sub(io.submit_ns) as f64))
                .collect();
            let note = match trace.resolution_ns {
                0 | 1 => String::new(),
                r => format!(" (times to {})", Unit::Nanos.format(r as f64)),
            };
            let suffix = if t == 0 { String::new() } else { format!("-{t}") };
            let number =
                || Axis::new("I/O number (in order of submission)", Scale::Linear, Unit::Count);
            out.push(
                Chart::new(
                    &format!("{id}-run{r}{suffix}-io-timeline"),
                    &format!("{label}submission and completion of each I/O{note}"),
                    number(),
                    Axis::new("time since the first I/O", Scale::Linear, Unit::Millis),
                )
                .with("submitted", SUBMIT, Style::Points, min_max(&submit, COLUMNS))
                .with(
                    "completed",
                    COMPLETE,
                    Style::Points,
                    min_max(&complete, COLUMNS),
                ),
            );
            out.push(
                Chart::new(
                    &format!("{id}-run{r}{suffix}-io-latency"),
                    &format!("{label}latency of each I/O"),
                    number(),
                    Axis::new("latency", Scale::Linear, Unit::Nanos),
                )
                .with(
                    "latency",
                    color(0),
                    Style::Points,
                    min_max(&latency, COLUMNS),
                ),
            );
        }
    }
    out
}
