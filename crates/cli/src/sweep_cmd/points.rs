//! Running the points of a sweep: each point (once per round of `--repeat`, and in curve
//! mode at each fraction of its maximum rate) as an ordinary run, its line printed as soon
//! as it ends, the stop rule applied per series; then the fits and the outputs.

use super::{new_doc, with_lines, Settings};
use iomark_options::assemble::{self, Sources};
use iomark_options::JobSpec;
use iomark_sweep::curve;
use iomark_sweep::doc::{PointRun, SweepDoc};
use iomark_sweep::grid::Point;
use iomark_sweep::measure;
use iomark_sweep::table::{self, Table};
use std::io::Write;
use std::process::ExitCode;
use std::sync::atomic::Ordering;

/// What every point's jobs get besides the point's own values.
const FORCED: [(&str, Option<&str>); 3] = [
    ("group_reporting", None),
    ("lat_percentiles", Some("1")),
    ("percentile_list", Some("50:99:99.9")),
];

/// The jobs of `point` (at `rate_iops` per job in curve mode).
fn specs(
    settings: &Settings,
    base: &Sources,
    point: &Point,
    rate: Option<u64>,
) -> Result<Vec<JobSpec>, String> {
    let mut extra: Vec<(String, Option<String>)> = settings
        .fixed
        .iter()
        .chain(&point.values)
        .map(|(k, v)| (k.clone(), Some(v.clone())))
        .collect();
    extra.extend(FORCED.iter().map(|(k, v)| (k.to_string(), v.map(String::from))));
    if let Some(r) = rate {
        extra.push(("rate_iops".into(), Some(r.to_string())));
    }
    let specs = assemble::build(&with_lines(base, &extra)).map_err(|e| e.to_string())?;
    Ok(specs)
}

/// One run of a point.
struct Runner<'a> {
    settings: &'a Settings,
    table: Table,
    out: Option<std::io::StdoutLock<'static>>,
    failed: bool,
    /// The notes so far (the sweep's own, then the runs'), each once.
    notes: iomark_stats::notes::Notes,
}

impl Runner<'_> {
    /// Runs `specs` once as run `repeat` of `point`, prints its line and returns it.
    fn once(
        &mut self,
        specs: &[JobSpec],
        point: &Point,
        repeat: u32,
        curve: (Option<f64>, Option<u64>),
    ) -> Result<Option<PointRun>, String> {
        let control = &crate::CONTROL;
        if control.stop.load(Ordering::Relaxed) {
            return Ok(None);
        }
        let plans = iomark_runner::plans(specs).map_err(|e| e.to_string())?;
        let depth: f64 = plans.iter().map(|p| f64::from(p.engine.iodepth)).sum();
        let options = crate::execute::run_options();
        let report = iomark_runner::run(&plans, &options, &control.stop, |_| {})
            .map_err(|e| format!("{}: {e}", point.label()))?;
        for job in report.jobs.iter().filter(|j| j.error != 0) {
            self.failed = true;
            eprintln!("iomark sweep: {}: job '{}': {}", point.label(), job.name, job.error_text);
        }
        // A run's notes not seen before are printed as they arise, before its row.
        for note in report.notes.iter() {
            if !self.notes.iter().any(|n| n == note) {
                self.notes.add(note);
                if let Some(out) = &mut self.out {
                    let _ = writeln!(out, "note: {note}");
                }
            }
        }
        let doc = iomark_report::json(&report);
        let run = PointRun {
            point: point.clone(),
            repeat,
            fraction: curve.0,
            rate_iops: curve.1,
            depth,
            metrics: measure::metrics(&report, depth),
            report: serde_json::from_str(&doc).unwrap_or(serde_json::Value::Null),
        };
        if let Some(out) = &mut self.out {
            let _ = writeln!(out, "{}", self.table.row(&run)).and_then(|()| out.flush());
        }
        Ok(Some(run))
    }

    /// Whether `run` passed the stop rule.
    fn passed(&self, run: &PointRun) -> bool {
        self.settings.stop.is_some_and(|s| s.passed(&run.metrics))
    }

    /// Prints that the series `key` stopped, and why.
    fn say_stopped(&mut self, key: &str) {
        if let (Some(out), Some(stop)) = (&mut self.out, &self.settings.stop) {
            let _ = writeln!(out, "# {key}: stopped, {}", stop.describe());
        }
    }
}

/// Runs every point of `settings`' grid over the jobs of `base`, and writes the outputs.
pub fn run(settings: &Settings, base: &Sources) -> Result<ExitCode, String> {
    let points = settings.grid.points();
    // Every point's jobs are checked before the first one runs.
    let all: Vec<Vec<JobSpec>> =
        points.iter().map(|p| specs(settings, base, p, None)).collect::<Result<_, _>>()?;
    let mut doc = new_doc(settings);
    if let Err(e) = crate::CONTROL.install() {
        doc.notes.push(format!("cannot take signals (Ctrl-C will end the run at once): {e}"));
    }
    let mut runner = Runner {
        settings,
        table: Table::new(table::label_width(&doc)),
        out: (!settings.stdout_taken()).then(|| std::io::stdout().lock()),
        failed: false,
        notes: doc.notes.iter().cloned().collect(),
    };
    if let Some(out) = &mut runner.out {
        for note in &doc.notes {
            let _ = writeln!(out, "note: {note}");
        }
        let _ = writeln!(out, "{}", runner.table.header());
    }
    match &settings.curve {
        None => doc.runs = grid(&mut runner, &points, &all)?,
        Some(fractions) => {
            for (point, specs) in points.iter().zip(&all) {
                doc.runs.extend(curve_point(&mut runner, base, specs, point, fractions)?);
            }
        }
    }
    doc.notes = runner.notes.iter().map(String::from).collect();
    doc.analyse();
    if let Some(out) = &mut runner.out {
        let _ = writeln!(out);
        let _ = write!(out, "{}", table::summary(&doc));
        let _ = out.flush();
    }
    drop(runner.out.take());
    let written = write_outputs(settings, &doc);
    if crate::CONTROL.stopped_by().is_some() {
        return Ok(ExitCode::from(crate::signals::STOPPED_EXIT));
    }
    if let Err(m) = written {
        eprintln!("iomark sweep: {m}");
        return Ok(ExitCode::from(1));
    }
    Ok(if runner.failed { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// The runs of a grid: every point once per round, `--repeat` rounds, so that a drift of
/// the machine during the sweep shows in each point's spread (which weighs the fit) rather
/// than as a difference between points. A run past the stop rule ends its series: the
/// series' later points (its deeper ones, when depth is swept) run no more, in this round
/// or the next.
fn grid(
    runner: &mut Runner<'_>,
    points: &[Point],
    all: &[Vec<JobSpec>],
) -> Result<Vec<PointRun>, String> {
    let along = runner.settings.grid.varies("iodepth").then_some("iodepth");
    // (series, the index of the point that stopped it)
    let mut stopped: Vec<(String, usize)> = Vec::new();
    let mut runs = Vec::new();
    for r in 1..=runner.settings.repeat {
        for (i, (point, specs)) in points.iter().zip(all).enumerate() {
            let key = along.map_or_else(|| point.label(), |x| point.series_label(x));
            if stopped.iter().any(|(k, at)| *k == key && i > *at) {
                continue;
            }
            let Some(run) = runner.once(specs, point, r, (None, None))? else { continue };
            if runner.passed(&run) && !stopped.iter().any(|(k, _)| *k == key) {
                runner.say_stopped(&key);
                stopped.push((key, i));
            }
            runs.push(run);
        }
    }
    Ok(runs)
}

/// The runs of one point in curve mode: flat out, then at each fraction of the maximum
/// found, until the stop rule fires.
fn curve_point(
    runner: &mut Runner<'_>,
    base: &Sources,
    specs: &[JobSpec],
    point: &Point,
    fractions: &[f64],
) -> Result<Vec<PointRun>, String> {
    let mut runs = Vec::new();
    for r in 1..=runner.settings.repeat {
        runs.extend(runner.once(specs, point, r, (None, None))?);
    }
    if runs.is_empty() {
        return Ok(runs);
    }
    let max = runs.iter().map(|r| r.metrics.iops).sum::<f64>() / runs.len() as f64;
    let clones = iomark_options::spec::clones(specs).count() as u64;
    for &f in fractions {
        let rate = curve::rate_per_job(max, f, clones);
        let specs = self::specs(runner.settings, base, point, Some(rate))?;
        let mut passed = false;
        for r in 1..=runner.settings.repeat {
            if let Some(run) = runner.once(&specs, point, r, (Some(f), Some(rate)))? {
                passed |= runner.passed(&run);
                runs.push(run);
            }
        }
        if passed {
            runner.say_stopped(&point.label());
            break;
        }
    }
    Ok(runs)
}

/// Writes `--json`, `--csv` and `--html`.
fn write_outputs(settings: &Settings, doc: &SweepDoc) -> Result<(), String> {
    let outputs: [(&Option<String>, &dyn Fn() -> String); 3] = [
        (&settings.json, &|| serde_json::to_string_pretty(doc).unwrap_or_default() + "\n"),
        (&settings.csv, &|| table::csv(doc)),
        (&settings.html, &|| iomark_web::sweep::page(doc)),
    ];
    for (path, make) in outputs {
        let Some(path) = path else { continue };
        let text = make();
        let result = if path == "-" {
            std::io::stdout().write_all(text.as_bytes()).and_then(|()| std::io::stdout().flush())
        } else {
            std::fs::write(path, text)
        };
        result.map_err(|e| format!("{path}: {e}"))?;
    }
    Ok(())
}
