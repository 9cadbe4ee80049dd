//! The tables of the page: a job's summary per run and direction, the differences between
//! runs, the groups, the disks, and a job's options with its fio command line.

use crate::charts::DIRS;
use crate::model::{Page, Section};
use crate::svg::{escape, Unit};
use iomark_options::showcmd::quote;
use iomark_stats::report::{DirReport, JobReport, LatStats, RunReport};
use std::fmt::Write as _;

/// `stats`' value at percentile `p`, if reported.
pub(super) fn at(stats: &LatStats, p: f64) -> Option<u64> {
    stats.percentiles.as_ref()?.iter().find(|(q, _)| (q - p).abs() < 1e-9).map(|&(_, v)| v)
}

pub(super) fn ns(v: Option<f64>) -> String {
    v.map_or_else(|| "–".into(), |v| Unit::Nanos.format(v))
}

/// The completion latency, or the total latency when there is no clat.
fn main_lat(d: &DirReport) -> (&'static str, &LatStats) {
    if d.clat.n > 0 {
        ("clat", &d.clat)
    } else {
        ("lat", &d.lat)
    }
}

/// A job's summary: one row per run and direction that moved data.
pub(super) fn summary(out: &mut String, page: &Page, s: &Section) {
    out.push_str(
        "<table class=\"summary\"><tr><th>run</th><th>dir</th><th>IOPS</th><th>bandwidth</th>\
         <th>I/O</th><th>runtime</th><th>latency</th><th>mean</th><th>p50</th><th>p99</th>\
         <th>p99.9</th><th>max</th><th>lat mean</th><th>slat mean</th></tr>",
    );
    for (run, at_j) in page.runs.iter().zip(&s.at) {
        let Some(j) = at_j else { continue };
        let job = &run.report.jobs[*j];
        for (d, dir) in job.dirs.iter().enumerate().filter(|(_, d)| d.total_ios > 0) {
            let (kind, lat) = main_lat(dir);
            let _ = write!(
                out,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{} ms</td>\
                 <td>{kind}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>\
                 <td>{}</td><td>{}</td></tr>",
                escape(&run.label),
                DIRS[d],
                Unit::Count.format(dir.iops),
                Unit::BytesPerSec.format(dir.bw_bytes as f64),
                Unit::Bytes.format(dir.io_bytes as f64),
                dir.runtime_ms,
                ns(Some(lat.mean)),
                ns(at(lat, 50.0).map(|v| v as f64)),
                ns(at(lat, 99.0).map(|v| v as f64)),
                ns(at(lat, 99.9).map(|v| v as f64)),
                ns(Some(lat.max as f64)),
                ns((dir.lat.n > 0).then_some(dir.lat.mean)),
                ns((dir.slat.n > 0).then_some(dir.slat.mean)),
            );
        }
    }
    out.push_str("</table>");
    out.push_str("<table class=\"summary\"><tr><th>run</th><th>usr CPU</th><th>sys CPU</th><th>ctx</th><th>engine</th><th>iodepth</th><th>rw</th><th>notes</th></tr>");
    for (run, at_j) in page.runs.iter().zip(&s.at) {
        let Some(j) = at_j else { continue };
        let job = &run.report.jobs[*j];
        let _ = write!(
            out,
            "<tr><td>{}</td><td>{:.2}%</td><td>{:.2}%</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(&run.label),
            job.usr_cpu,
            job.sys_cpu,
            job.ctx,
            escape(&job.header.ioengine),
            job.header.iodepth,
            escape(&job.header.rw),
            escape(&job.notes.join("; ")),
        );
    }
    out.push_str("</table>");
}

/// The job's fio command line (the run's global options, then its own) and its options.
pub(super) fn options(out: &mut String, report: &RunReport, job: &JobReport) {
    let word = |(k, v): &(String, String)| {
        if v.is_empty() {
            quote(&format!("--{k}"))
        } else {
            quote(&format!("--{k}={v}"))
        }
    };
    let mut words = vec!["fio".to_string()];
    words.extend(report.global_options.iter().map(word));
    words.push(quote(&format!("--name={}", job.name)));
    words.extend(job.options.iter().filter(|(k, _)| k != "name").map(word));
    let _ = write!(out, "<pre class=\"cmd\">{}</pre>", escape(&words.join(" ")));
    if job.options.is_empty() && report.global_options.is_empty() {
        return;
    }
    out.push_str("<details><summary>options</summary><table class=\"options\">");
    for (scope, list) in [("global", &report.global_options), ("job", &job.options)] {
        for (k, v) in list {
            let _ = write!(
                out,
                "<tr><td>{scope}</td><td>{}</td><td>{}</td></tr>",
                escape(k),
                escape(v)
            );
        }
    }
    out.push_str("</table></details>");
}

/// The figures compared between runs, per section and direction: each run's value and
/// its difference from the first run's, in percent.
pub(super) fn differences(out: &mut String, page: &Page) {
    type Figure = (&'static str, Unit, fn(&JobReport, usize) -> Option<f64>);
    let figures: [Figure; 7] = [
        ("IOPS", Unit::Count, |j, d| Some(j.dirs[d].iops)),
        ("bandwidth", Unit::BytesPerSec, |j, d| Some(j.dirs[d].bw_bytes as f64)),
        ("latency mean", Unit::Nanos, |j, d| Some(main_lat(&j.dirs[d]).1.mean)),
        ("latency p50", Unit::Nanos, |j, d| at(main_lat(&j.dirs[d]).1, 50.0).map(|v| v as f64)),
        ("latency p99", Unit::Nanos, |j, d| at(main_lat(&j.dirs[d]).1, 99.0).map(|v| v as f64)),
        ("latency p99.9", Unit::Nanos, |j, d| at(main_lat(&j.dirs[d]).1, 99.9).map(|v| v as f64)),
        ("latency max", Unit::Nanos, |j, d| Some(main_lat(&j.dirs[d]).1.max as f64)),
    ];
    out.push_str("<table class=\"diff\"><tr><th>job</th><th>dir</th><th>figure</th>");
    for run in &page.runs {
        let _ = write!(out, "<th>{}</th>", escape(&run.label));
    }
    for run in &page.runs[1..] {
        let _ = write!(out, "<th>Δ {}</th>", escape(&run.label));
    }
    out.push_str("</tr>");
    for s in page.sections() {
        let jobs: Vec<Option<&JobReport>> =
            page.runs.iter().zip(&s.at).map(|(r, at)| at.map(|j| &r.report.jobs[j])).collect();
        for (d, dir_name) in DIRS.iter().enumerate() {
            if !jobs.iter().flatten().any(|j| j.dirs[d].total_ios > 0) {
                continue;
            }
            for (name, unit, get) in &figures {
                let values: Vec<Option<f64>> =
                    jobs.iter().map(|j| j.and_then(|j| get(j, d))).collect();
                let _ = write!(
                    out,
                    "<tr><td>{}</td><td>{}</td><td>{name}</td>",
                    escape(&s.name),
                    dir_name
                );
                for v in &values {
                    let _ = write!(
                        out,
                        "<td>{}</td>",
                        v.map_or_else(|| "–".into(), |v| unit.format(v))
                    );
                }
                for v in &values[1..] {
                    let delta = match (values[0], v) {
                        (Some(a), Some(b)) if a != 0.0 => {
                            let pct = (b - a) / a * 100.0;
                            let class = if pct.abs() < 5.0 {
                                "same"
                            } else if pct > 0.0 {
                                "up"
                            } else {
                                "down"
                            };
                            format!("<td class=\"{class}\">{pct:+.1}%</td>")
                        }
                        _ => "<td>–</td>".into(),
                    };
                    out.push_str(&delta);
                }
                out.push_str("</tr>");
            }
        }
    }
    out.push_str("</table>");
}

/// Each run's groups (fio's `Run status group` lines) and disks.
pub(super) fn groups_and_disks(out: &mut String, page: &Page) {
    out.push_str(
        "<table class=\"summary\"><tr><th>run</th><th>group</th><th>dir</th><th>bandwidth</th>\
         <th>min–max bandwidth</th><th>I/O</th><th>runtime</th></tr>",
    );
    for run in &page.runs {
        for g in &run.report.groups {
            for (d, dir) in g.dirs.iter().enumerate().filter(|(_, d)| d.io_bytes > 0) {
                let bw = |v: u64| Unit::BytesPerSec.format(v as f64);
                let _ = write!(
                    out,
                    "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}–{}</td><td>{}</td>\
                     <td>{}–{} ms</td></tr>",
                    escape(&run.label),
                    g.groupid,
                    DIRS[d],
                    bw(dir.agg_bw),
                    bw(dir.min_bw),
                    bw(dir.max_bw),
                    Unit::Bytes.format(dir.io_bytes as f64),
                    dir.min_run_ms,
                    dir.max_run_ms
                );
            }
        }
    }
    out.push_str("</table>");
    if page.runs.iter().all(|r| r.report.disks.is_empty()) {
        return;
    }
    out.push_str(
        "<table class=\"summary\"><tr><th>run</th><th>disk</th><th>ios r/w</th><th>merges r/w</th>\
         <th>ticks r/w</th><th>in_queue</th><th>util</th></tr>",
    );
    for run in &page.runs {
        for disk in &run.report.disks {
            let _ = write!(
                out,
                "<tr><td>{}</td><td>{}</td><td>{}/{}</td><td>{}/{}</td><td>{}/{}</td><td>{}</td><td>{:.2}%</td></tr>",
                escape(&run.label),
                escape(&disk.name),
                disk.ios[0],
                disk.ios[1],
                disk.merges[0],
                disk.merges[1],
                disk.ticks[0],
                disk.ticks[1],
                disk.in_queue,
                disk.util
            );
        }
    }
    out.push_str("</table>");
}
