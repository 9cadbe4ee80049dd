//! The sweep's document: every run of every point (its figures and its full report in
//! fio's JSON format), and the series made of them with their fits. It is what
//! `--json=FILE` writes, what the table and the CSV are printed from, and what the HTML
//! report draws.
//!
//! A series is the points that differ only in the value of its x option: `iodepth` (seed
//! 003's queue model is fitted), `numjobs` (the Universal Scalability Law), or, in curve
//! mode, the rate (no model: response time against the rate reached). A point run several
//! times (`--repeat`) is one point of its series: the mean of its runs, with the standard
//! error of that mean as its spread; a point run once takes its spread from its per-second
//! IOPS samples.

use crate::fit::{self, Fit, ModelKind, Observation};
use crate::grid::{Grid, Point};
use crate::measure::Metrics;
use crate::numeric::Summary;
use serde::{Deserialize, Serialize};

/// The version of the document's layout.
pub const DOC_VERSION: u32 = 1;

/// The share of IOPS that one more step of depth must buy for the knee not to be there.
pub const KNEE_GAIN: f64 = 0.05;

/// What the sweep varies along its series.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// A grid of options (series over iodepth and numjobs).
    Grid,
    /// vdbench's curve: each point at fractions of its maximum rate.
    Curve,
}

/// One run of one point.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PointRun {
    /// The point.
    pub point: Point,
    /// Which run of it (1 for the first).
    pub repeat: u32,
    /// In curve mode, the fraction of the maximum rate in percent (`None` for the run flat
    /// out that found the maximum).
    pub fraction: Option<f64>,
    /// In curve mode, the `rate_iops` each job was given.
    pub rate_iops: Option<u64>,
    /// The I/Os in flight the jobs asked for in all (`iodepth × numjobs`, summed over jobs).
    pub depth: f64,
    /// What it measured.
    pub metrics: Metrics,
    /// Its report, as fio's JSON document.
    pub report: serde_json::Value,
}

/// One x value of a series, over its runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SeriesPoint {
    /// The x value (depth, jobs, or in curve mode the IOPS reached).
    pub x: f64,
    /// IOPS over the runs.
    pub iops: Summary,
    /// Mean latency (ns) over the runs.
    pub lat_mean_ns: Summary,
    /// The spread used for the fit: the standard error of the IOPS.
    pub se: Option<f64>,
    /// The mean of the runs' p99 latency, ns, when measured.
    pub lat_p99_ns: Option<f64>,
}

/// A series and what was fitted to it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Series {
    /// The other options' values (`ioengine=libaio bs=4k`).
    pub label: String,
    /// What varies along it: `iodepth`, `numjobs` or `rate`.
    pub x: String,
    /// Its points, in increasing x.
    pub points: Vec<SeriesPoint>,
    /// The model fitted (over iodepth and numjobs).
    pub fit: Option<Fit>,
    /// Over iodepth: the first depth after which the next buys less than 5% more IOPS
    /// while the mean latency grows.
    pub knee: Option<f64>,
}

/// A whole sweep.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SweepDoc {
    /// [`DOC_VERSION`].
    #[serde(rename = "iomark sweep")]
    pub format: u32,
    /// iomark's version.
    #[serde(rename = "iomark version")]
    pub iomark_version: String,
    /// Grid or curve.
    pub mode: Mode,
    /// The axes.
    pub grid: Grid,
    /// Runs of each point.
    pub repeat: u32,
    /// The confidence level of every interval.
    pub confidence: f64,
    /// The stop rule, if any, as text.
    pub stop_at_latency: Option<String>,
    /// Every run, in the order they ran.
    pub runs: Vec<PointRun>,
    /// The series, with their fits.
    pub series: Vec<Series>,
    /// Notes on the sweep (a run that goes on without something), printed as `note: …`
    /// lines before the table; absent when there are none.
    #[serde(rename = "iomark notes", default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

impl SweepDoc {
    /// An empty sweep over `grid`.
    pub fn new(mode: Mode, grid: Grid, repeat: u32, version: &str) -> Self {
        SweepDoc {
            format: DOC_VERSION,
            iomark_version: version.to_string(),
            mode,
            grid,
            repeat,
            confidence: 0.95,
            stop_at_latency: None,
            runs: Vec::new(),
            series: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// Makes the series from the runs and fits them (see the module doc).
    pub fn analyse(&mut self) {
        self.series = match self.mode {
            Mode::Grid => ["iodepth", "numjobs"]
                .iter()
                .filter(|x| self.grid.varies(x))
                .flat_map(|x| self.series_along(x))
                .collect(),
            Mode::Curve => self.curves(),
        };
    }

    /// The series along the option `x`, fitted.
    fn series_along(&self, x: &str) -> Vec<Series> {
        let mut out: Vec<Series> = Vec::new();
        let mut groups: Vec<(String, Vec<XRuns<'_>>)> = Vec::new();
        for run in &self.runs {
            let Some(value) = run.point.get(x).and_then(|v| v.parse::<f64>().ok()) else {
                continue;
            };
            let label = run.point.series_label(x);
            let at = match groups.iter().position(|(l, _)| *l == label) {
                Some(i) => i,
                None => {
                    groups.push((label, Vec::new()));
                    groups.len() - 1
                }
            };
            let xs = &mut groups[at].1;
            match xs.iter_mut().find(|(v, _)| *v == value) {
                Some((_, runs)) => runs.push(run),
                None => xs.push((value, vec![run])),
            }
        }
        for (label, mut xs) in groups {
            xs.sort_by(|a, b| a.0.total_cmp(&b.0));
            let points: Vec<SeriesPoint> =
                xs.iter().map(|(v, runs)| series_point(*v, runs)).collect();
            let obs: Vec<Observation> =
                points.iter().map(|p| Observation { x: p.x, y: p.iops.mean, se: p.se }).collect();
            let kind = if x == "iodepth" { ModelKind::Queue } else { ModelKind::Usl };
            let knee = (x == "iodepth")
                .then(|| {
                    let pts: Vec<(f64, f64, f64)> =
                        points.iter().map(|p| (p.x, p.iops.mean, p.lat_mean_ns.mean)).collect();
                    fit::knee(&pts, KNEE_GAIN)
                })
                .flatten();
            let fit = Some(fit::fit(kind, &obs, self.confidence));
            out.push(Series { label, x: x.to_string(), points, fit, knee });
        }
        out
    }

    /// In curve mode, one series per point: latency against the IOPS reached.
    fn curves(&self) -> Vec<Series> {
        let mut out: Vec<Series> = Vec::new();
        for run in &self.runs {
            let label = run.point.label();
            let at = match out.iter().position(|s| s.label == label) {
                Some(i) => i,
                None => {
                    out.push(Series {
                        label,
                        x: "rate".into(),
                        points: Vec::new(),
                        fit: None,
                        knee: None,
                    });
                    out.len() - 1
                }
            };
            let p = series_point(run.metrics.iops, &[run]);
            out[at].points.push(p);
        }
        for s in &mut out {
            s.points.sort_by(|a, b| a.x.total_cmp(&b.x));
        }
        out
    }
}

/// An x value of a series and its runs.
type XRuns<'a> = (f64, Vec<&'a PointRun>);

/// One x value from its runs.
fn series_point(x: f64, runs: &[&PointRun]) -> SeriesPoint {
    let iops: Vec<f64> = runs.iter().map(|r| r.metrics.iops).collect();
    let lat: Vec<f64> = runs.iter().map(|r| r.metrics.lat_mean_ns).collect();
    let iops = Summary::of(&iops).unwrap_or(Summary { mean: 0.0, sd: 0.0, n: 0 });
    let se = match runs {
        [one] => {
            let m = &one.metrics;
            m.iops_sample_sd.filter(|sd| *sd > 0.0).map(|sd| sd / (m.iops_samples as f64).sqrt())
        }
        _ => iops.se(),
    };
    let p99: Vec<f64> =
        runs.iter().filter_map(|r| r.metrics.lat_p99_ns.map(|v| v as f64)).collect();
    SeriesPoint {
        x,
        iops,
        lat_mean_ns: Summary::of(&lat).unwrap_or(Summary { mean: 0.0, sd: 0.0, n: 0 }),
        se,
        lat_p99_ns: Summary::of(&p99).map(|s| s.mean),
    }
}
