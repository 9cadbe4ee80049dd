//! What `iomark report FILE...` reads: fio's or iomark's JSON (`json`, `json+`, and
//! iomark's `json-stream`, whose interval lines give the charts over time) and fio's log
//! files, gathered into the runs of a [`Page`].
//!
//! Each JSON file is a run, labelled with its file name; the log files that follow it on
//! the command line belong to it (logs before any JSON file make a run of their own). A
//! directory is a run of its own: its JSON file and its logs, labelled with its name.
//! Text before the JSON document (fio's notes, a normal report printed first) is skipped.

pub mod fio_json;
pub mod logs;

use crate::model::{Page, Run};
use iomark_stats::interval::RunEvent;
use iomark_stats::report::{JobReport, RunReport, REPORT_VERSION};
use std::path::{Path, PathBuf};

/// Why an input could not be read.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// A file or directory could not be read.
    #[error("{path}: {source}")]
    Read {
        /// The file.
        path: String,
        /// The error.
        source: std::io::Error,
    },
    /// A file holds no JSON document where one was expected.
    #[error("{path}: no JSON report in it ({why})")]
    Json {
        /// The file.
        path: String,
        /// What the parser said.
        why: String,
    },
    /// A log file could not be read.
    #[error(transparent)]
    Log(#[from] logs::LogError),
    /// Nothing to show.
    #[error("no JSON report and no log file among the inputs")]
    Nothing,
}

/// A report with no job, for runs made of logs only.
pub fn empty_report() -> RunReport {
    RunReport {
        version: REPORT_VERSION,
        iomark_version: String::new(),
        fio_compat: String::new(),
        timestamp: 0,
        timestamp_ms: 0,
        time: String::new(),
        global_options: Vec::new(),
        jobs: Vec::new(),
        groups: Vec::new(),
        disks: Vec::new(),
        notes: Default::default(),
        ranks: Vec::new(),
        clients: Vec::new(),
        cpu_idleness: None,
        act: None,
    }
}

/// The page of `inputs` (see the module doc), titled `title`.
pub fn read(inputs: &[PathBuf], title: &str) -> Result<Page, InputError> {
    let mut runs: Vec<Run> = Vec::new();
    let mut loose: Option<Run> = None;
    for path in inputs {
        let read_err = |source| InputError::Read { path: path.display().to_string(), source };
        if path.is_dir() {
            let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
                .map_err(read_err)?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .collect();
            entries.sort();
            let label = path
                .file_name()
                .map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
            let mut run = Run::new(&label, empty_report());
            for e in entries.iter().filter(|e| e.extension().is_some_and(|x| x == "json")) {
                let label = run.label.clone();
                run = read_json(e)?;
                run.label = label;
            }
            for e in entries.iter().filter(|e| logs::name_of(e).is_ok()) {
                logs::read_into(&mut run, e)?;
            }
            runs.push(finish(run));
        } else if logs::name_of(path).is_ok() {
            let run = match runs.last_mut() {
                Some(run) => run,
                None => loose.get_or_insert_with(|| Run::new("logs", empty_report())),
            };
            logs::read_into(run, path)?;
        } else {
            runs.push(read_json(path)?);
        }
    }
    runs.extend(loose);
    if runs.is_empty() {
        return Err(InputError::Nothing);
    }
    let runs = runs.into_iter().map(finish).collect();
    Ok(Page { title: title.to_string(), runs })
}

/// A JSON file: a report, or a json-stream (events, then the report on its last line).
fn read_json(path: &Path) -> Result<Run, InputError> {
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path)
        .map_err(|source| InputError::Read { path: shown.clone(), source })?;
    let label =
        path.file_stem().map_or_else(|| shown.clone(), |s| s.to_string_lossy().into_owned());
    let bad = |why: String| InputError::Json { path: shown.clone(), why };
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let first: Option<serde_json::Value> = lines.first().and_then(|l| serde_json::from_str(l).ok());
    if first.as_ref().is_some_and(|v| v.get("event").is_some()) {
        // json-stream: every line an event, the last the report.
        let last = lines.last().copied().unwrap_or_default();
        let doc: serde_json::Value = serde_json::from_str(last).map_err(|e| bad(e.to_string()))?;
        let mut run = Run::new(&label, fio_json::report(&doc));
        for line in &lines[..lines.len() - 1] {
            if let Ok(RunEvent::Interval(e)) = serde_json::from_str::<RunEvent>(line) {
                run.add_interval(&e);
            }
        }
        return Ok(run);
    }
    // The document starts at the first line that opens an object.
    let start = text.find("\n{").map(|i| i + 1).filter(|_| !text.starts_with('{')).unwrap_or(0);
    let mut stream =
        serde_json::Deserializer::from_str(&text[start..]).into_iter::<serde_json::Value>();
    let doc = match stream.next() {
        Some(Ok(doc)) => doc,
        Some(Err(e)) => return Err(bad(e.to_string())),
        None => return Err(bad("empty".into())),
    };
    if doc.get("jobs").is_none() {
        return Err(bad("no \"jobs\" in the document".into()));
    }
    Ok(Run::new(&label, fio_json::report(&doc)))
}

/// A run made of logs only gets a job per log prefix, so that its charts have a place.
fn finish(mut run: Run) -> Run {
    let mut names: Vec<String> = run.curves.iter().map(|c| c.job.clone()).collect();
    names.extend(run.traces.iter().map(|t| t.job.clone()));
    names.dedup();
    for name in names {
        if name != "all" && !run.report.jobs.iter().any(|j| j.name == name) {
            let job = JobReport {
                name,
                ..fio_json::report(&serde_json::json!({"jobs": [{}]})).jobs.remove(0)
            };
            run.report.jobs.push(job);
        }
    }
    run
}
