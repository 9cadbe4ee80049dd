//! What a page shows: one or more [`Run`]s (several overlay, A/B), each a report with the
//! figures it has over time ([`Curve`]s, from interval events or from bandwidth, IOPS and
//! latency logs) and the per-I/O times of its jobs ([`IoTrace`]s, from per-I/O latency
//! logs).

use iomark_stats::interval::IntervalEvent;
use iomark_stats::report::RunReport;

/// Points a curve keeps before every two neighbours are merged into one.
const CURVE_LIMIT: usize = 100_000;

/// What a curve measures over time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Metric {
    /// I/Os per second.
    Iops,
    /// Bytes per second.
    Bandwidth,
    /// A latency in nanoseconds: `name` says which (`clat p99`, `lat mean`…).
    Latency(&'static str),
}

/// One figure of one job and direction over time.
#[derive(Debug, Clone, PartialEq)]
pub struct Curve {
    /// The job's name (`all` for the run's total).
    pub job: String,
    /// 0 read, 1 write, 2 trim.
    pub dir: usize,
    /// What it measures.
    pub metric: Metric,
    /// `(seconds since the start, value)`.
    pub points: Vec<(f64, f64)>,
}

impl Curve {
    /// Adds a point; past 100 000 points, neighbours merge two by two (a rate's
    /// mean, a latency's largest), so that an endless run stays bounded in memory.
    pub fn push(&mut self, t_s: f64, v: f64) {
        self.points.push((t_s, v));
        if self.points.len() > CURVE_LIMIT {
            let latency = matches!(self.metric, Metric::Latency(_));
            self.points = self
                .points
                .chunks(2)
                .map(|c| match c {
                    [a, b] if latency => (b.0, a.1.max(b.1)),
                    [a, b] => (b.0, (a.1 + b.1) / 2.0),
                    [a] => *a,
                    _ => unreachable!("chunks of two"),
                })
                .collect();
        }
    }
}

/// One I/O of a per-I/O trace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TracedIo {
    /// When it was submitted (started), ns since the log's origin.
    pub submit_ns: u64,
    /// When it completed, ns since the log's origin.
    pub complete_ns: u64,
    /// 0 read, 1 write, 2 trim.
    pub dir: u8,
    /// Its offset, when logged (`log_offset`).
    pub offset: u64,
}

/// The I/Os of one job, each with its submission and completion time.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct IoTrace {
    /// The job's name (the log's prefix).
    pub job: String,
    /// The I/Os, in order of submission.
    pub ios: Vec<TracedIo>,
    /// The resolution of the times, in ns (fio's logs: 1 ms).
    pub resolution_ns: u64,
}

/// One run on the page.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    /// Its name on the page (the input file, or `iomark`).
    pub label: String,
    /// Its report.
    pub report: RunReport,
    /// Its figures over time.
    pub curves: Vec<Curve>,
    /// Its per-I/O traces.
    pub traces: Vec<IoTrace>,
}

impl Run {
    /// A run with its report only.
    pub fn new(label: &str, report: RunReport) -> Self {
        Run { label: label.to_string(), report, curves: Vec::new(), traces: Vec::new() }
    }

    /// The curve of `job`, `dir` and `metric`, made if new.
    pub fn curve(&mut self, job: &str, dir: usize, metric: Metric) -> &mut Curve {
        let at =
            self.curves.iter().position(|c| c.job == job && c.dir == dir && c.metric == metric);
        let at = at.unwrap_or_else(|| {
            let points = Vec::new();
            self.curves.push(Curve { job: job.to_string(), dir, metric, points });
            self.curves.len() - 1
        });
        &mut self.curves[at]
    }

    /// Adds an interval's figures to the curves: IOPS, bandwidth and latency percentiles
    /// of every job and of the total, for each direction that moved. Intervals of a ramp
    /// are left out.
    pub fn add_interval(&mut self, e: &IntervalEvent) {
        let t = e.t_ms as f64 / 1000.0;
        for job in e.jobs.iter().chain(std::iter::once(&e.total)) {
            if !job.measured {
                continue;
            }
            for (d, dir) in job.dirs.iter().enumerate() {
                if dir.ios == 0 && !self.curves.iter().any(|c| c.job == job.name && c.dir == d) {
                    continue;
                }
                self.curve(&job.name, d, Metric::Iops).push(t, dir.iops);
                self.curve(&job.name, d, Metric::Bandwidth).push(t, dir.bw_bytes as f64);
                let Some(lat) = &dir.lat else { continue };
                for &(p, ns) in &lat.percentiles {
                    if let Some(name) = percentile_name(p) {
                        self.curve(&job.name, d, Metric::Latency(name)).push(t, ns as f64);
                    }
                }
                self.curve(&job.name, d, Metric::Latency("mean")).push(t, lat.mean);
            }
        }
    }
}

/// The names of the interval percentiles drawn over time.
fn percentile_name(p: f64) -> Option<&'static str> {
    [(50.0, "p50"), (99.0, "p99"), (99.9, "p99.9"), (100.0, "max")]
        .into_iter()
        .find(|(q, _)| (q - p).abs() < 1e-9)
        .map(|(_, name)| name)
}

/// A page: its title and its runs (the first is the reference of the differences).
#[derive(Debug, Clone, PartialEq)]
pub struct Page {
    /// The title.
    pub title: String,
    /// The runs, overlaid.
    pub runs: Vec<Run>,
}

/// A job as the page shows it across runs: its name, and its report in each run.
#[derive(Debug, Clone, PartialEq)]
pub struct Section {
    /// The job's name.
    pub name: String,
    /// Its index in each run's report, if that run has it.
    pub at: Vec<Option<usize>>,
}

impl Page {
    /// The jobs of all runs, matched by name and by their order among namesakes, in order
    /// of first appearance.
    pub fn sections(&self) -> Vec<Section> {
        let mut out: Vec<(String, usize, Section)> = Vec::new();
        for (r, run) in self.runs.iter().enumerate() {
            let mut seen: Vec<&str> = Vec::new();
            for (j, job) in run.report.jobs.iter().enumerate() {
                let nth = seen.iter().filter(|n| **n == job.name).count();
                seen.push(&job.name);
                let place = out.iter_mut().find(|(name, k, _)| *name == job.name && *k == nth);
                let section = match place {
                    Some((_, _, s)) => s,
                    None => {
                        let at = vec![None; self.runs.len()];
                        out.push((job.name.clone(), nth, Section { name: job.name.clone(), at }));
                        &mut out.last_mut().expect("just pushed").2
                    }
                };
                section.at[r] = Some(j);
            }
        }
        out.into_iter().map(|(_, _, s)| s).collect()
    }
}
