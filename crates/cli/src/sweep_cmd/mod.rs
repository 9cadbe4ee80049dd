//! `iomark sweep`: one job (job options, a job file, or both) run over a grid of options,
//! a line per point printed as it goes, then seed 003's queue model and the Universal
//! Scalability Law fitted to the series, and the outputs asked for (JSON, CSV, HTML).
//!
//! Each point is an ordinary run: the job's sections get the point's values (and what the
//! sweep needs: `group_reporting`, `lat_percentiles=1`, `percentile_list=50:99:99.9`, in
//! curve mode `rate_iops`) after their own lines, then go through the same assembly, plan
//! and runner as `iomark JOB` (no child process). Options the job does not give take the
//! sweep's defaults, `time_based` and `runtime=5s`. The sweep's own flags are rows of the
//! flag table ([`iomark_options::flags::SWEEP`]); see docs/sweep.md.
//!
//! Exit codes: 0 success, 1 a point's job failed or an output could not be written, 2 bad
//! usage, 128 stopped by a signal (after writing what was measured).

pub mod args;
mod points;

use crate::loader::FsLoader;
use iomark_options::assemble::Sources;
use iomark_options::flags::SWEEP;
use iomark_options::jobfile::{RawLine, RawSection};
use iomark_options::{cmdline, Place};
use iomark_sweep::curve::{self, StopRule};
use iomark_sweep::doc::{Mode, SweepDoc};
use iomark_sweep::grid::{Axis, Grid};
use std::ffi::OsString;
use std::process::ExitCode;

/// What the sweep's own flags asked for.
pub struct Settings {
    /// The grid: the options given more than one value.
    pub grid: Grid,
    /// The options given one value: every point's jobs get them, and no label shows them.
    pub fixed: Vec<(String, String)>,
    /// Runs per point.
    pub repeat: u32,
    /// In curve mode, the fractions of the maximum rate (percent).
    pub curve: Option<Vec<f64>>,
    /// `--stop-at-latency`.
    pub stop: Option<StopRule>,
    /// `--json`, `--csv`, `--html`: where each goes (`-` standard output).
    pub json: Option<String>,
    /// See `json`.
    pub csv: Option<String>,
    /// See `json`.
    pub html: Option<String>,
}

impl Settings {
    /// Whether one of the documents takes standard output (the table then stays quiet).
    pub fn stdout_taken(&self) -> bool {
        [&self.json, &self.csv, &self.html].iter().any(|o| o.as_deref() == Some("-"))
    }
}

/// Runs `iomark sweep` with the arguments after its name.
pub fn main(args: &[OsString]) -> ExitCode {
    let args: Vec<String> = args.iter().map(|a| a.to_string_lossy().into_owned()).collect();
    match run(&args) {
        Ok(code) => code,
        Err(m) => {
            eprintln!("iomark sweep: {m}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &[String]) -> Result<ExitCode, String> {
    let split = args::split(&SWEEP, args)?;
    if split.has('h') {
        print!("{}", iomark_manual::help::subcommand(&SWEEP));
        return Ok(ExitCode::SUCCESS);
    }
    let settings = settings(&split)?;
    let cmd = cmdline::parse(split.rest.iter()).map_err(|e| e.to_string())?;
    let base = base_sources(&cmd)?;
    points::run(&settings, &base)
}

/// The settings of the sweep's flags.
fn settings(split: &args::Split) -> Result<Settings, String> {
    let mut axes = Vec::new();
    for (c, value) in &split.flags {
        let value = value.as_deref().unwrap_or_default();
        let axis = match c {
            'd' => Axis::parse("iodepth", value),
            'j' => Axis::parse("numjobs", value),
            'b' => Axis::parse("bs", value),
            'e' => Axis::parse("ioengine", value),
            'w' => Axis::parse("rw", value),
            's' => Axis::parse("ioscheduler", value),
            'V' => {
                let (name, list) = value
                    .split_once('=')
                    .ok_or_else(|| format!("--vary '{value}': write OPTION=V1,V2,…"))?;
                let def = iomark_options::table::find(name.trim()).ok_or_else(|| {
                    let hint = iomark_options::suggest::option(name.trim())
                        .map(|s| format!(" (did you mean '{s}'?)"))
                        .unwrap_or_default();
                    format!("--vary: no job option '{}'{hint}", name.trim())
                })?;
                Axis::parse(def.name, list)
            }
            _ => continue,
        };
        axes.push(axis.map_err(|e| e.to_string())?);
    }
    let mut grid = Grid::new(axes).map_err(|e| e.to_string())?;
    let fixed = grid
        .axes
        .iter()
        .filter(|a| a.values.len() == 1)
        .map(|a| (a.option.clone(), a.values[0].clone()))
        .collect();
    grid.axes.retain(|a| a.values.len() > 1);
    let repeat = match split.last('r') {
        Some(v) => v
            .parse::<u32>()
            .ok()
            .filter(|n| *n >= 1)
            .ok_or_else(|| format!("--repeat: '{v}' is not a number of runs (1 or more)"))?,
        None => 1,
    };
    let curve = match split.last('c') {
        Some("default") | Some("vdbench") => Some(curve::DEFAULT_FRACTIONS.to_vec()),
        Some(list) => Some(curve::fractions(list).map_err(|e| e.to_string())?),
        None => None,
    };
    let stop = split.last('l').map(StopRule::parse).transpose().map_err(|e| e.to_string())?;
    let out = |c| split.last(c).map(String::from);
    Ok(Settings { grid, fixed, repeat, curve, stop, json: out('J'), csv: out('C'), html: out('H') })
}

/// The job's sections as written, with the sweep's defaults first among the command line's
/// global options, and a job called `sweep` when only options were given.
pub fn base_sources(cmd: &cmdline::CommandLine) -> Result<Sources, String> {
    let mut sources = cmd.sources(&FsLoader).map_err(|e| e.to_string())?;
    let line = |key: &str, value: Option<&str>| RawLine {
        key: key.to_string(),
        value: value.map(String::from),
        place: Place::Implicit,
    };
    let mut globals = vec![line("time_based", None), line("runtime", Some("5s"))];
    globals.append(&mut sources.cli_globals);
    sources.cli_globals = globals;
    let has_jobs =
        !sources.cli_jobs.is_empty() || sources.files.iter().flatten().any(|s| !s.global);
    if !has_jobs {
        sources.cli_jobs.push(RawSection {
            name: "sweep".into(),
            place: Place::Implicit,
            global: false,
            header_note: None,
            lines: Vec::new(),
        });
    }
    Ok(sources)
}

/// The sources of one run: every job section gets `extra` after its own lines.
pub fn with_lines(base: &Sources, extra: &[(String, Option<String>)]) -> Sources {
    let lines: Vec<RawLine> = extra
        .iter()
        .map(|(k, v)| RawLine { key: k.clone(), value: v.clone(), place: Place::Implicit })
        .collect();
    let add = |s: &RawSection| {
        let mut s = s.clone();
        if !s.global {
            s.lines.extend(lines.iter().cloned());
        }
        s
    };
    Sources {
        cli_globals: base.cli_globals.clone(),
        cli_jobs: base.cli_jobs.iter().map(add).collect(),
        files: base.files.iter().map(|f| f.iter().map(add).collect()).collect(),
        only_sections: base.only_sections.clone(),
    }
}

/// A new document for `settings`.
pub fn new_doc(settings: &Settings) -> SweepDoc {
    let mode = if settings.curve.is_some() { Mode::Curve } else { Mode::Grid };
    let mut doc =
        SweepDoc::new(mode, settings.grid.clone(), settings.repeat, env!("CARGO_PKG_VERSION"));
    doc.stop_at_latency = settings.stop.map(|s| s.describe());
    doc
}
