//! The HTML report of a sweep (`iomark sweep --html=FILE`, and `iomark report` of a
//! sweep's JSON): IOPS and latency against depth (and against the number of jobs), each
//! series' measured points with its fitted curve drawn through them and its knee marked,
//! several engines overlaid; in curve mode, response time against the rate reached; then
//! the fits with their intervals, and every run's figures. One self-contained page, as
//! [`crate::html`]'s.

use crate::html::{CHART_SIZE, CSS};
use crate::svg::{color, escape, Axis, Chart, Scale, Style, Unit};
use iomark_sweep::doc::{Mode, Series, SweepDoc};
use iomark_sweep::fit::{sig, Verdict};
use std::fmt::Write as _;

/// The charts of the sweep, in the order shown.
pub fn charts(doc: &SweepDoc) -> Vec<Chart> {
    let mut out = Vec::new();
    match doc.mode {
        Mode::Grid => {
            for x in ["iodepth", "numjobs"] {
                let series: Vec<&Series> = doc.series.iter().filter(|s| s.x == x).collect();
                if !series.is_empty() {
                    out.push(iops_chart(x, &series));
                    out.push(latency_chart(x, &series));
                }
            }
        }
        Mode::Curve => out.push(curve_chart(&doc.series.iter().collect::<Vec<_>>())),
    }
    out.retain(|c| !c.is_empty());
    out
}

/// IOPS against `x`: the points, the fitted curve, the knee.
fn iops_chart(x: &str, series: &[&Series]) -> Chart {
    let mut chart = Chart::new(
        &format!("sweep-iops-{x}"),
        &format!("IOPS against {x} (points measured, lines fitted)"),
        Axis::new(x, Scale::Log, Unit::Count),
        Axis::new("IOPS", Scale::Linear, Unit::Count),
    );
    let top = series.iter().flat_map(|s| &s.points).map(|p| p.iops.mean).fold(0.0, f64::max);
    for (i, s) in series.iter().enumerate() {
        let c = color(i);
        let pts: Vec<(f64, f64)> = s.points.iter().map(|p| (p.x, p.iops.mean)).collect();
        chart = chart.with(&s.label, c, Style::Points, pts);
        if let Some(fit) = s.fit.as_ref().filter(|f| f.fits()) {
            let name = format!("{} fit", s.label);
            chart = chart.with(&name, c, Style::Line, fit.curve.clone());
        }
        if let Some(k) = s.knee {
            let name = format!("{} knee ({x} {k})", s.label);
            chart = chart.with(&name, c, Style::Line, vec![(k, 0.0), (k, top)]);
        }
    }
    chart
}

/// Mean and p99 latency against `x`.
fn latency_chart(x: &str, series: &[&Series]) -> Chart {
    let chart = Chart::new(
        &format!("sweep-latency-{x}"),
        &format!("Latency against {x} (mean: line, p99: dots)"),
        Axis::new(x, Scale::Log, Unit::Count),
        Axis::new("latency", Scale::Log, Unit::Nanos),
    );
    latencies(chart, series)
}

/// Response time against the rate reached.
fn curve_chart(series: &[&Series]) -> Chart {
    let chart = Chart::new(
        "sweep-curve",
        "Response time against rate (mean: line, p99: dots)",
        Axis::new("IOPS reached", Scale::Linear, Unit::Count),
        Axis::new("latency", Scale::Log, Unit::Nanos),
    );
    latencies(chart, series)
}

/// `chart` with each series' mean latency (a line) and p99 (dots) against its x.
fn latencies(mut chart: Chart, series: &[&Series]) -> Chart {
    for (i, s) in series.iter().enumerate() {
        let mean: Vec<(f64, f64)> = s.points.iter().map(|p| (p.x, p.lat_mean_ns.mean)).collect();
        let p99: Vec<(f64, f64)> =
            s.points.iter().filter_map(|p| p.lat_p99_ns.map(|v| (p.x, v))).collect();
        chart = chart.with(&format!("{} mean", s.label), color(i), Style::Line, mean).with(
            &format!("{} p99", s.label),
            color(i),
            Style::Points,
            p99,
        );
    }
    chart
}

/// The whole page.
pub fn page(doc: &SweepDoc) -> String {
    let mut out = String::with_capacity(1 << 18);
    let axes: Vec<String> =
        doc.grid.axes.iter().map(|a| format!("{}={}", a.option, a.values.join(","))).collect();
    let title =
        format!("iomark sweep: {}", if axes.is_empty() { "-".into() } else { axes.join(" ") });
    let _ = write!(
        out,
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <link rel=\"icon\" href=\"data:,\"><title>{t}</title><style>{CSS}</style></head><body>\
         <header><h1>{t}</h1><p class=\"meta\">{} runs, {} per point, iomark {}; intervals at {}% \
         confidence{}</p></header>",
        doc.runs.len(),
        doc.repeat,
        escape(&doc.iomark_version),
        doc.confidence * 100.0,
        doc.stop_at_latency
            .as_ref()
            .map(|s| format!("; stop when {}", escape(s)))
            .unwrap_or_default(),
        t = escape(&title),
    );
    if !doc.notes.is_empty() {
        out.push_str("<ul class=\"notes\">");
        for note in &doc.notes {
            let _ = write!(out, "<li>note: {}</li>", escape(note));
        }
        out.push_str("</ul>");
    }
    out.push_str("<h2>Charts</h2><div class=\"charts\">");
    for chart in charts(doc) {
        out.push_str(&chart.to_svg(CHART_SIZE.0, CHART_SIZE.1));
    }
    out.push_str("</div>");
    fits(&mut out, doc);
    runs(&mut out, doc);
    out.push_str("</body></html>\n");
    out
}

/// The table of the fits.
fn fits(out: &mut String, doc: &SweepDoc) {
    let fitted: Vec<&Series> = doc.series.iter().filter(|s| s.fit.is_some()).collect();
    if fitted.is_empty() {
        return;
    }
    out.push_str(
        "<h2>Fits</h2><table><tr><th>series</th><th>model</th><th>points</th>\
         <th>parameters (interval)</th><th>R²</th><th>χ²/dof (p)</th><th>peak</th><th>knee</th></tr>",
    );
    for s in fitted {
        let Some(fit) = &s.fit else { continue };
        let model = match fit.model {
            iomark_sweep::fit::ModelKind::Queue => "queue (seed 003)",
            iomark_sweep::fit::ModelKind::Usl => "USL",
        };
        let params = match &fit.verdict {
            Verdict::Fits => fit
                .params
                .iter()
                .map(|p| format!("{} {}", p.name, escape(&p.show())))
                .collect::<Vec<_>>()
                .join("<br>"),
            Verdict::DoesNotFit(why) => format!("does not fit: {}", escape(why)),
        };
        let _ = write!(
            out,
            "<tr><td>{}</td><td>{model}</td><td>{}</td><td>{params}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(&s.label),
            fit.points,
            fit.r2.map_or("-".into(), |r| format!("{r:.4}")),
            match (fit.chi2_dof, fit.chi2_p) {
                (Some(c), Some(p)) => format!("{} ({})", sig(c), sig(p)),
                (Some(c), None) => sig(c),
                _ => "-".into(),
            },
            fit.peak.as_ref().map_or("-".into(), |p| escape(&p.show())),
            s.knee.map_or("-".into(), |k| k.to_string()),
        );
    }
    out.push_str("</table>");
}

/// The table of every run.
fn runs(out: &mut String, doc: &SweepDoc) {
    out.push_str(
        "<h2>Runs</h2><table><tr><th>point</th><th>run</th><th>rate</th><th>IOPS</th><th>MB/s</th>\
         <th>lat µs</th><th>p99 µs</th><th>cpu µs/io</th><th>calls/io</th><th>ctx/io</th>\
         <th>Little</th></tr>",
    );
    for r in &doc.runs {
        let m = &r.metrics;
        let _ = write!(
            out,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{:.0}</td><td>{:.1}</td><td>{:.1}</td>\
             <td>{}</td><td>{:.2}</td><td>{}</td><td>{:.3}</td><td>{:.2}</td></tr>",
            escape(&r.point.label()),
            r.repeat,
            match (doc.mode, r.fraction) {
                (_, Some(f)) => format!("{f}%"),
                (Mode::Curve, None) => "max".into(),
                (Mode::Grid, None) => "-".into(),
            },
            m.iops,
            m.bw_bytes / 1e6,
            m.lat_mean_ns / 1e3,
            m.lat_p99_ns.map_or("-".into(), |v| format!("{:.1}", v as f64 / 1e3)),
            m.cpu_ns_per_io / 1e3,
            m.syscalls_per_io.map_or("-".into(), |c| format!("{c:.2}")),
            m.ctx_per_io,
            m.little,
        );
    }
    out.push_str("</table>");
}
