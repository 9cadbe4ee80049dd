//! The sweep's text outputs: the table printed as the points run, the summary of the fits
//! after them, and the CSV of every run.

use crate::doc::{PointRun, Series, SweepDoc, KNEE_GAIN};
use crate::fit::{sig, Verdict, MIN_R2};

/// The table's columns after the point's label.
const COLUMNS: [(&str, usize); 11] = [
    ("run", 3),
    ("IOPS", 10),
    ("MB/s", 9),
    ("lat us", 9),
    ("p50 us", 9),
    ("p99 us", 9),
    ("p99.9 us", 9),
    ("cpu us/io", 9),
    ("calls/io", 8),
    ("ctx/io", 7),
    ("little", 6),
];

/// The terminal table; `width` is the widest point label.
#[derive(Debug, Clone, Copy)]
pub struct Table {
    width: usize,
}

fn us(ns: Option<u64>) -> String {
    ns.map_or_else(|| "-".into(), |v| format!("{:.1}", v as f64 / 1e3))
}

impl Table {
    /// A table for points whose labels are at most `width` wide.
    pub fn new(width: usize) -> Self {
        Table { width: width.max(5) }
    }

    /// The header line.
    pub fn header(&self) -> String {
        let mut line = format!("{:<w$}", "point", w = self.width);
        for (name, w) in COLUMNS {
            line.push_str(&format!(" {name:>w$}"));
        }
        line
    }

    /// The line of one run.
    pub fn row(&self, run: &PointRun) -> String {
        let m = &run.metrics;
        let mut label = run.point.label();
        if let Some(f) = run.fraction {
            label = format!("{label} {f}%");
        }
        let cells = [
            run.repeat.to_string(),
            format!("{:.0}", m.iops),
            format!("{:.1}", m.bw_bytes / 1e6),
            format!("{:.1}", m.lat_mean_ns / 1e3),
            us(m.lat_p50_ns),
            us(m.lat_p99_ns),
            us(m.lat_p999_ns),
            format!("{:.2}", m.cpu_ns_per_io / 1e3),
            m.syscalls_per_io.map_or_else(|| "-".into(), |c| format!("{c:.2}")),
            format!("{:.3}", m.ctx_per_io),
            format!("{:.2}", m.little),
        ];
        let mut line = format!("{label:<w$}", w = self.width);
        for (cell, (_, w)) in cells.iter().zip(COLUMNS) {
            line.push_str(&format!(" {cell:>w$}"));
        }
        line
    }
}

/// The width of the widest label among the points of `doc`'s grid, with room for a curve's
/// fraction.
pub fn label_width(doc: &SweepDoc) -> usize {
    let extra = if doc.mode == crate::doc::Mode::Curve { 5 } else { 0 };
    doc.grid.points().iter().map(|p| p.label().len()).max().unwrap_or(1) + extra
}

/// The summary of the series: each fit's parameters with their intervals, or why the model
/// does not fit; the knee; and, in curve mode, the rate each curve reached.
pub fn summary(doc: &SweepDoc) -> String {
    let mut out = String::new();
    let pct = doc.confidence * 100.0;
    for s in &doc.series {
        out.push_str(&series_summary(s, pct));
    }
    out
}

fn series_summary(s: &Series, pct: f64) -> String {
    let mut out = String::new();
    let Some(fit) = &s.fit else {
        let max = s.points.iter().map(|p| p.x).fold(0.0, f64::max);
        return format!("{}: curve of response time against rate, up to {max:.0} IOPS\n", s.label);
    };
    let model = match fit.model {
        crate::fit::ModelKind::Queue => "queue model (seed 003) over iodepth",
        crate::fit::ModelKind::Usl => "Universal Scalability Law over numjobs",
    };
    let weights = if fit.weighted { "weighted by each point's spread" } else { "unweighted" };
    out.push_str(&format!("{}: {model}, {} points, {weights}\n", s.label, fit.points));
    match &fit.verdict {
        Verdict::Fits => {
            let params: Vec<String> =
                fit.params.iter().map(|p| format!("{} {}", p.name, p.show())).collect();
            out.push_str(&format!("  {} ({pct}% confidence)\n", params.join("   ")));
            let r2 = fit.r2.unwrap_or(0.0);
            let mut line = format!("  R² {r2:.4}, χ²/dof {}", sig(fit.chi2_dof.unwrap_or(0.0)));
            if let Some(p) = fit.chi2_p {
                line.push_str(&format!(" (p = {})", sig(p)));
            }
            if r2 < MIN_R2 {
                line.push_str(" (R² is low, but the points vary little beyond their spread)");
            }
            if let Some(p) = &fit.peak {
                line.push_str(&format!("; IOPS peak at {} {}", s.x, p.show()));
            }
            out.push_str(&line);
            out.push('\n');
        }
        Verdict::DoesNotFit(why) => {
            out.push_str(&format!("  the model does not fit: {why}; no parameters reported\n"));
        }
    }
    match s.knee {
        Some(k) if s.x == "iodepth" => out.push_str(&format!(
            "  knee at iodepth {k}: the next depth buys less than {}% more IOPS while latency grows\n",
            KNEE_GAIN * 100.0
        )),
        None if s.x == "iodepth" => out.push_str("  no knee: every step of depth still paid\n"),
        _ => {}
    }
    out
}

/// A CSV field, quoted when it needs to be.
fn field(v: &str) -> String {
    if v.contains([',', '"', '\n']) {
        format!("\"{}\"", v.replace('"', "\"\""))
    } else {
        v.to_string()
    }
}

/// The CSV of every run: the point's options, then the figures (latencies in ns).
pub fn csv(doc: &SweepDoc) -> String {
    let options: Vec<&str> = doc.grid.axes.iter().map(|a| a.option.as_str()).collect();
    let mut out = String::new();
    let mut head: Vec<String> = options.iter().map(|o| field(o)).collect();
    head.extend(
        [
            "repeat",
            "fraction",
            "rate_iops",
            "depth",
            "iops",
            "bw_bytes",
            "ios",
            "lat_mean_ns",
            "lat_p50_ns",
            "lat_p99_ns",
            "lat_p999_ns",
            "cpu_ns_per_io",
            "syscalls_per_io",
            "ctx_per_io",
            "little",
        ]
        .map(String::from),
    );
    out.push_str(&head.join(","));
    out.push('\n');
    let opt = |v: Option<String>| v.unwrap_or_default();
    for run in &doc.runs {
        let m = &run.metrics;
        let mut row: Vec<String> =
            options.iter().map(|o| field(run.point.get(o).unwrap_or(""))).collect();
        row.extend([
            run.repeat.to_string(),
            opt(run.fraction.map(|f| f.to_string())),
            opt(run.rate_iops.map(|r| r.to_string())),
            run.depth.to_string(),
            format!("{:.3}", m.iops),
            format!("{:.0}", m.bw_bytes),
            m.ios.to_string(),
            format!("{:.1}", m.lat_mean_ns),
            opt(m.lat_p50_ns.map(|v| v.to_string())),
            opt(m.lat_p99_ns.map(|v| v.to_string())),
            opt(m.lat_p999_ns.map(|v| v.to_string())),
            format!("{:.1}", m.cpu_ns_per_io),
            opt(m.syscalls_per_io.map(|v| format!("{v:.4}"))),
            format!("{:.4}", m.ctx_per_io),
            format!("{:.4}", m.little),
        ]);
        out.push_str(&row.join(","));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests;
