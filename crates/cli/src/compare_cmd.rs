//! `iomark compare A B`: two runs compared figure by figure (IOPS, bandwidth, mean total
//! latency, p99 of the completion and of the total latency, of each job's directions), each as the ratio B/A with a confidence interval and a
//! verdict ([`iomark_sweep::compare`]), as hyperfine compares two commands.
//!
//! A and B are JSON files (fio's or iomark's `json`/`json+`; a file holding several
//! documents, one after another, is that many rounds), or option sets such as
//! `'ioengine=libaio iodepth=8'`, run in turn `--rounds` times (ABBA order, so that a drift
//! of the machine weighs on both alike) with the job options after `--` in common, through
//! the same plan and runner as any run. With rounds, each figure's samples are the rounds';
//! with one document per side, IOPS and bandwidth take the run's per-second samples and the
//! mean latency its per-I/O ones (narrower than the truth: see docs/sweep.md), and a
//! percentile has none. Its flags are rows of the flag table
//! ([`iomark_options::flags::COMPARE`]).

use crate::sweep_cmd::{args, with_lines};
use iomark_options::flags::COMPARE;
use iomark_stats::report::{DirReport, RunReport, DIRECTIONS};
use iomark_sweep::compare::{ratio, Better, Compared as Row};
use iomark_sweep::measure::percentile_of;
use iomark_sweep::numeric::Summary;
use std::ffi::OsString;
use std::process::ExitCode;
use std::sync::atomic::Ordering;

/// Runs `iomark compare` with the arguments after its name.
pub fn main(args: &[OsString]) -> ExitCode {
    let args: Vec<String> = args.iter().map(|a| a.to_string_lossy().into_owned()).collect();
    match run(&args) {
        Ok(code) => code,
        Err(m) => {
            eprintln!("iomark compare: {m}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &[String]) -> Result<ExitCode, String> {
    let (mine, common) = match args.iter().position(|a| a == "--") {
        Some(i) => (&args[..i], &args[i + 1..]),
        None => (args, &[][..]),
    };
    let split = args::split(&COMPARE, mine)?;
    if split.has('h') {
        print!("{}", iomark_manual::help::subcommand(&COMPARE));
        return Ok(ExitCode::SUCCESS);
    }
    let [a, b] = split.rest.as_slice() else {
        return Err(format!("two runs to compare, A and B, not {} (see -h)", split.rest.len()));
    };
    let number = |c, default: f64| -> Result<f64, String> {
        split
            .last(c)
            .map_or(Ok(default), |v| v.parse().map_err(|_| format!("-{c}: '{v}' is not a number")))
    };
    let rounds = number('r', 5.0)?;
    let confidence = number('p', 95.0)? / 100.0;
    if rounds < 1.0 || rounds.fract() != 0.0 || !(0.5..1.0).contains(&confidence) {
        return Err("--rounds must be a whole number >= 1, --confidence within [50, 100)".into());
    }
    let files = std::path::Path::new(a).is_file() && std::path::Path::new(b).is_file();
    let mut notes = Vec::new();
    let (ra, rb) = if files {
        (read(a, &mut notes)?, read(b, &mut notes)?)
    } else {
        run_rounds(a, b, common, rounds as u32, &mut notes)?
    };
    let rows = compare(&ra, &rb, confidence);
    if split.last('J') != Some("-") {
        // The notes before the table, as a run's before its report (with `--json=-` the
        // document alone is on standard output, the notes in it).
        let notes: String = notes.iter().map(|n| format!("note: {n}\n")).collect();
        print!("{notes}{}", table(a, b, &ra, &rb, &rows, confidence));
    }
    if let Some(path) = split.last('J') {
        let mut doc = serde_json::json!({ "rows": rows });
        if !notes.is_empty() {
            doc["iomark notes"] = serde_json::json!(notes);
        }
        let text = serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n";
        let written = if path == "-" {
            use std::io::Write;
            std::io::stdout().write_all(text.as_bytes())
        } else {
            std::fs::write(path, text)
        };
        if let Err(e) = written {
            eprintln!("iomark compare: {path}: {e}");
            return Ok(ExitCode::from(1));
        }
    }
    if crate::CONTROL.stopped_by().is_some() {
        return Ok(ExitCode::from(crate::signals::STOPPED_EXIT));
    }
    Ok(ExitCode::SUCCESS)
}

/// Every JSON document in the file `path`, as reports (text before the first `{` and
/// between documents is skipped, as fio's notes are); an iomark document's `"iomark
/// notes"` go to `notes`, each once.
fn read(path: &str, notes: &mut Vec<String>) -> Result<Vec<RunReport>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let mut out = Vec::new();
    let mut rest = text.as_str();
    while let Some(start) = rest.find('{') {
        let mut stream =
            serde_json::Deserializer::from_str(&rest[start..]).into_iter::<serde_json::Value>();
        match stream.next() {
            Some(Ok(doc)) if doc.get("jobs").is_some() => {
                let theirs = doc["iomark notes"].as_array().into_iter().flatten();
                for note in theirs.filter_map(serde_json::Value::as_str) {
                    if !notes.iter().any(|n| n == note) {
                        notes.push(note.to_string());
                    }
                }
                out.push(iomark_web::input::fio_json::report(&doc));
                rest = &rest[start + stream.byte_offset()..];
            }
            Some(Ok(_)) => rest = &rest[start + stream.byte_offset()..],
            _ => rest = &rest[start + 1..],
        }
    }
    if out.is_empty() {
        return Err(format!("{path}: no JSON report of fio or iomark in it"));
    }
    Ok(out)
}

/// Runs the option sets `a` and `b` over the `common` job options, `rounds` times each;
/// what the runs went on without, and the runs' own notes, go to `notes`, each once.
fn run_rounds(
    a: &str,
    b: &str,
    common: &[String],
    rounds: u32,
    notes: &mut Vec<String>,
) -> Result<(Vec<RunReport>, Vec<RunReport>), String> {
    let cmd = iomark_options::cmdline::parse(common.iter()).map_err(|e| e.to_string())?;
    let base = crate::sweep_cmd::base_sources(&cmd)?;
    let set = |text: &str| -> Vec<(String, Option<String>)> {
        let mut lines: Vec<(String, Option<String>)> = text
            .split_whitespace()
            .map(|t| t.trim_start_matches('-'))
            .map(|t| match t.split_once('=') {
                Some((k, v)) => (k.to_string(), Some(v.to_string())),
                None => (t.to_string(), None),
            })
            .collect();
        lines.push(("group_reporting".into(), None));
        lines
    };
    let specs = |text: &str| {
        iomark_options::assemble::build(&with_lines(&base, &set(text)))
            .map_err(|e| format!("'{text}': {e}"))
    };
    let sides = [specs(a)?, specs(b)?];
    if let Err(e) = crate::CONTROL.install() {
        notes.push(format!("cannot take signals (Ctrl-C will end the run at once): {e}"));
    }
    let mut out: [Vec<RunReport>; 2] = [Vec::new(), Vec::new()];
    let options = crate::execute::run_options();
    for round in 0..rounds {
        // ABBA: A first in even rounds, B first in odd ones.
        let order = if round % 2 == 0 { [0, 1] } else { [1, 0] };
        for side in order {
            if crate::CONTROL.stop.load(Ordering::Relaxed) {
                break;
            }
            let plans = iomark_runner::plans(&sides[side]).map_err(|e| e.to_string())?;
            let report = iomark_runner::run(&plans, &options, &crate::CONTROL.stop, |_| {})
                .map_err(|e| e.to_string())?;
            for note in report.notes.iter() {
                if !notes.iter().any(|n| n == note) {
                    notes.push(note.to_string());
                }
            }
            out[side].push(report);
        }
    }
    let [ra, rb] = out;
    if ra.is_empty() || rb.is_empty() {
        return Err("stopped before both sides ran".into());
    }
    Ok((ra, rb))
}

/// The figures of one direction: name, which way is faster, its value, and the summary of
/// its samples within one run (per second, per I/O), if it has one.
type Figure =
    (&'static str, Better, fn(&DirReport) -> Option<f64>, fn(&DirReport) -> Option<Summary>);

const FIGURES: [Figure; 5] = [
    (
        "IOPS",
        Better::Higher,
        |d| Some(d.iops),
        |d| Some(Summary { mean: d.iops, sd: d.iops_samples.stddev, n: d.iops_samples.samples }),
    ),
    (
        "MB/s",
        Better::Higher,
        |d| Some(d.bw_bytes as f64 / 1e6),
        |d| {
            let (s, n) = (&d.bw_samples, d.bw_samples.samples);
            Some(Summary { mean: d.bw_bytes as f64 / 1e6, sd: s.stddev * 1024.0 / 1e6, n })
        },
    ),
    (
        "lat mean us",
        Better::Lower,
        |d| Some(lat(d).mean / 1e3),
        |d| {
            let l = lat(d);
            Some(Summary { mean: l.mean / 1e3, sd: l.stddev / 1e3, n: l.n })
        },
    ),
    // fio reports completion latency percentiles unless told not to, and total latency
    // ones when told to (`lat_percentiles`): a row for each that both sides have.
    ("clat p99 us", Better::Lower, |d| p99(&d.clat), |_| None),
    ("lat p99 us", Better::Lower, |d| p99(&d.lat), |_| None),
];

/// The 99th percentile of `lat` in microseconds, when it was reported.
fn p99(lat: &iomark_stats::report::LatStats) -> Option<f64> {
    percentile_of(lat, 99.0).map(|v| v as f64 / 1e3)
}

/// The total latency, or the completion latency when the total was not kept.
fn lat(d: &DirReport) -> &iomark_stats::report::LatStats {
    if d.lat.n > 0 {
        &d.lat
    } else {
        &d.clat
    }
}

/// Every figure of every job (paired by position) and direction that either side did.
fn compare(a: &[RunReport], b: &[RunReport], confidence: f64) -> Vec<Row> {
    let mut rows = Vec::new();
    let jobs = a[0].jobs.len().min(b[0].jobs.len());
    for j in 0..jobs {
        for (d, dir) in DIRECTIONS.iter().enumerate() {
            let did = |r: &[RunReport]| {
                r.iter().any(|r| r.jobs.get(j).is_some_and(|x| x.dirs[d].total_ios > 0))
            };
            if !did(a) && !did(b) {
                continue;
            }
            for (figure, better, value, within) in FIGURES {
                let side = |r: &[RunReport]| -> Option<Summary> {
                    let dirs: Vec<&DirReport> =
                        r.iter().filter_map(|x| x.jobs.get(j)).map(|x| &x.dirs[d]).collect();
                    match dirs.as_slice() {
                        [one] => within(one)
                            .or_else(|| value(one).map(|v| Summary { mean: v, sd: 0.0, n: 1 })),
                        many => {
                            Summary::of(&many.iter().filter_map(|x| value(x)).collect::<Vec<_>>())
                        }
                    }
                };
                let (Some(sa), Some(sb)) = (side(a), side(b)) else { continue };
                let name = if a[0].jobs[j].name == b[0].jobs[j].name {
                    a[0].jobs[j].name.clone()
                } else {
                    format!("{}/{}", a[0].jobs[j].name, b[0].jobs[j].name)
                };
                let ratio = ratio(sa, sb, better, confidence);
                rows.push(Row {
                    job: name,
                    dir: dir.to_string(),
                    figure: figure.to_string(),
                    a: sa,
                    b: sb,
                    ratio,
                });
            }
        }
    }
    rows
}

/// `12345 ± 67 (n)`.
fn show(s: &Summary) -> String {
    let digits = if s.mean.abs() >= 100.0 { 0 } else { 2 };
    format!("{:.digits$} ± {:.digits$} ({})", s.mean, s.sd, s.n)
}

/// The comparison as a table.
fn table(
    a: &str,
    b: &str,
    ra: &[RunReport],
    rb: &[RunReport],
    rows: &[Row],
    confidence: f64,
) -> String {
    let basis = |r: &[RunReport]| {
        if r.len() > 1 {
            format!("{} rounds", r.len())
        } else {
            "one run: samples within it".into()
        }
    };
    let mut out = format!("A: {a} ({})\nB: {b} ({})\n\n", basis(ra), basis(rb));
    out.push_str(&format!(
        "{:<24} {:<28} {:<28} {:>7}  {:<20} {}\n",
        "job dir figure",
        "A mean ± sd (n)",
        "B mean ± sd (n)",
        "B/A",
        format!("{}% interval", confidence * 100.0),
        "verdict"
    ));
    for r in rows {
        let ci = r.ratio.ci.map_or("-".into(), |(lo, hi)| format!("[{lo:.3}, {hi:.3}]"));
        out.push_str(&format!(
            "{:<24} {:<28} {:<28} {:>7.3}  {:<20} {}\n",
            format!("{} {} {}", r.job, r.dir, r.figure),
            show(&r.a),
            show(&r.b),
            r.ratio.ratio,
            ci,
            r.ratio.verdict.text()
        ));
    }
    out
}
