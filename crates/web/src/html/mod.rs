//! The HTML report: one self-contained file (inline CSS and a few lines of inline JS, the
//! charts as inline SVG, no request to any address), that opens from `file://` offline.
//!
//! Its parts: a header naming the runs; with several runs, a table of their differences;
//! the run's groups and disks and its totals over time; then each job (each group under
//! `group_reporting`), across the runs overlaid: its summary table, its fio command line
//! and options, and its charts (see [`crate::charts`]).

mod block;
mod tables;

use crate::charts::{section_charts, total_charts};
use crate::model::Page;
use crate::svg::{escape, Chart};
use std::fmt::Write as _;

/// The size of the charts in the page, in pixels.
pub const CHART_SIZE: (u32, u32) = (620, 300);

/// The page's style.
pub const CSS: &str = "\
body{font-family:DejaVu Sans,Helvetica,Arial,sans-serif;margin:0 auto;max-width:1300px;padding:0 16px;color:#222}\
h1{font-size:22px;margin:16px 0 4px}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid #ccc}\
table{border-collapse:collapse;margin:8px 0;font-size:13px}td,th{border:1px solid #ddd;padding:3px 7px;text-align:right}\
th{background:#f3f3f3}td:first-child,th:first-child{text-align:left}\
.charts{display:flex;flex-wrap:wrap;gap:10px}.charts svg{border:1px solid #eee;max-width:100%;height:auto;cursor:zoom-in}\
.charts svg.big{width:100%;cursor:zoom-out}pre.cmd{background:#f6f6f6;padding:6px;white-space:pre-wrap;word-break:break-all;font-size:12px}\
td.up{color:#1a7f37}td.down{color:#b42318}td.same{color:#666}.meta{color:#555;font-size:13px}\
nav a{margin-right:10px;font-size:13px}";

/// A few lines of JS: a click on a chart enlarges it, another shrinks it back.
const JS: &str = "document.querySelectorAll('.charts svg').forEach(function(s){\
s.addEventListener('click',function(){s.classList.toggle('big');});});";

/// The whole page.
pub fn page(page: &Page) -> String {
    let mut out = String::with_capacity(1 << 20);
    let _ = write!(
        out,
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <link rel=\"icon\" href=\"data:,\"><title>{}</title><style>{CSS}</style></head><body>",
        escape(&page.title)
    );
    body(&mut out, page);
    let _ = writeln!(out, "<script>{JS}</script></body></html>");
    out
}

/// The page's body without its script: header, tables and charts.
pub fn body(out: &mut String, page: &Page) {
    let _ = write!(out, "<header><h1>{}</h1><p class=\"meta\">", escape(&page.title));
    for run in &page.runs {
        let r = &run.report;
        let _ = write!(
            out,
            "<b>{}</b>: {} job report(s), ended {} (iomark {}, {})<br>",
            escape(&run.label),
            r.jobs.len(),
            escape(&r.time),
            escape(&r.iomark_version),
            escape(&r.fio_compat)
        );
    }
    out.push_str("</p><nav>");
    let sections = page.sections();
    if page.runs.len() > 1 {
        out.push_str("<a href=\"#differences\">differences</a>");
    }
    out.push_str("<a href=\"#run\">run</a>");
    for (k, s) in sections.iter().enumerate() {
        let _ = write!(out, "<a href=\"#job{k}\">{}</a>", escape(&s.name));
    }
    out.push_str("</nav></header>");
    if page.runs.len() > 1 {
        out.push_str("<section id=\"differences\"><h2>Differences</h2>");
        tables::differences(out, page);
        out.push_str("</section>");
    }
    out.push_str("<section id=\"run\"><h2>Run</h2>");
    tables::groups_and_disks(out, page);
    charts(out, &total_charts(page));
    out.push_str("</section>");
    for (k, s) in sections.iter().enumerate() {
        let _ = write!(out, "<section id=\"job{k}\"><h2>job {}</h2>", escape(&s.name));
        tables::summary(out, page, s);
        block::table(out, page, s);
        for (run, at) in page.runs.iter().zip(&s.at) {
            if let Some(j) = at {
                if page.runs.len() > 1 {
                    let _ = write!(out, "<p class=\"meta\">{}</p>", escape(&run.label));
                }
                tables::options(out, &run.report, &run.report.jobs[*j]);
            }
        }
        charts(out, &section_charts(page, s, k));
        out.push_str("</section>");
    }
}

/// A block of charts.
fn charts(out: &mut String, charts: &[Chart]) {
    out.push_str("<div class=\"charts\">");
    for c in charts {
        out.push_str(&c.to_svg(CHART_SIZE.0, CHART_SIZE.1));
    }
    out.push_str("</div>");
}
