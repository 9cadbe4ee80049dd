//! What shows a run beyond fio's formats: `--output-format=json-stream`, the HTML report
//! (`--output-format=html`, `--html=FILE`) and the live page (`--web`), all fed by the
//! per-interval figures ([`iomark_stats::interval`]) that the status machinery takes every
//! interval ([`crate::status::Tick::Interval`]); the job threads do no extra work for them.
//!
//! The HTML report's per-I/O timeline comes from the per-I/O latency logs the jobs wrote
//! (`write_lat_log` with `log_avg_msec=0`), read back when the run is over.

use crate::run_setup::Failure;
use iomark_options::cmdline::ProgramOptions;
use iomark_plan::JobPlan;
use iomark_report::json_stream;
use iomark_runner::Progress;
use iomark_stats::interval::{IntervalTracker, PlanSlot, RunEvent};
use iomark_stats::progress::{JobShape, JobState, Sample};
use iomark_stats::report::RunReport;
use iomark_web::live::{self, Live};
use iomark_web::model::{Page, Run};
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

/// The interval of the figures when `--status-interval` does not give one.
pub const DEFAULT_INTERVAL: Duration = Duration::from_millis(500);

/// The stream, the HTML report and the live page of one run, as asked for.
pub struct Pictures {
    tracker: IntervalTracker,
    shapes: Vec<JobShape>,
    run: Run,
    stream: bool,
    live: Option<Live>,
    /// Whether the HTML report goes to the report's output (html alone).
    html_to_out: bool,
    html_file: Option<PathBuf>,
    title: String,
}

/// Checks that the formats asked for can share the output: json-stream alone (the HTML
/// report aside, in its own file), the HTML report alone unless it has `--html=FILE`.
pub fn check_formats(p: &ProgramOptions) -> Result<(), Failure> {
    let f = &p.formats;
    let fio = f.normal || f.terse || f.json || f.json_plus;
    if f.json_stream && fio {
        return Err(Failure::Config(
            "--output-format: json-stream stands alone on its output (one JSON object per line); \
             it cannot share it with normal, terse, json or json+"
                .into(),
        ));
    }
    if f.html && (fio || f.json_stream) && p.html.is_none() {
        return Err(Failure::Config(
            "--output-format: html beside other formats needs --html=FILE for the HTML report"
                .into(),
        ));
    }
    Ok(())
}

impl Pictures {
    /// The pictures `program` asks for, if any: starts the live page (and says where it
    /// is, on standard output) and readies the rest.
    pub fn start(
        plans: &[JobPlan],
        program: &ProgramOptions,
        progress: &Progress,
        out: &mut dyn Write,
    ) -> Result<Option<Pictures>, Failure> {
        let f = &program.formats;
        if !(f.html || f.json_stream || program.html.is_some() || program.web.is_some()) {
            return Ok(None);
        }
        check_formats(program)?;
        let mut names: Vec<&str> = Vec::new();
        for plan in plans {
            if !names.contains(&plan.job.name.as_str()) {
                names.push(&plan.job.name);
            }
        }
        let more = if names.len() > 3 { ", …" } else { "" };
        let title = format!("iomark: {}{more}", names[..names.len().min(3)].join(", "));
        let groups = iomark_runner::group_ids(plans);
        let slots = plans
            .iter()
            .zip(&groups)
            .map(|(p, &groupid)| PlanSlot {
                name: p.job.name.clone(),
                groupid,
                group_reporting: p.report.group_reporting,
            })
            .collect();
        let live = match &program.web {
            Some(spec) => {
                let addr = live::address(spec).map_err(|e| Failure::Config(e.to_string()))?;
                let live = Live::start(addr, &title).map_err(|e| Failure::Run(e.to_string()))?;
                if f.json_stream {
                    writeln!(out, "{{\"event\":\"live\",\"url\":\"{}\"}}", live.url())?;
                    out.flush()?;
                } else {
                    let mut stdout = std::io::stdout();
                    writeln!(stdout, "iomark: live view at {}", live.url())?;
                    stdout.flush()?;
                }
                Some(live)
            }
            None => None,
        };
        Ok(Some(Pictures {
            tracker: IntervalTracker::new(slots),
            shapes: progress.shapes().to_vec(),
            run: Run::new("iomark", iomark_web::input::empty_report()),
            stream: f.json_stream,
            live,
            html_to_out: f.html && program.html.is_none(),
            html_file: program.html.clone(),
            title,
        }))
    }

    fn write_events(&self, out: &mut dyn Write, events: &[RunEvent]) -> std::io::Result<()> {
        if self.stream {
            for e in events {
                out.write_all(json_stream::event_line(e).as_bytes())?;
            }
            out.flush()?;
        }
        Ok(())
    }

    /// One interval: `report` is the run so far, `before` the jobs' progress just before it.
    pub fn interval(
        &mut self,
        out: &mut dyn Write,
        report: &RunReport,
        before: Sample,
    ) -> std::io::Result<()> {
        let states: Vec<JobState> = before.jobs.iter().map(|j| j.state).collect();
        let eta = iomark_report::eta::run_eta_s(&before, &self.shapes);
        let mut events = self.tracker.job_events(before.now_ms, &states);
        let interval = self.tracker.interval(before.now_ms, report, &states, eta);
        self.run.add_interval(&interval);
        if let Some(live) = &self.live {
            live.update(&interval, report);
        }
        events.push(RunEvent::Interval(Box::new(interval)));
        self.write_events(out, &events)
    }

    /// The end of the run at `now_ms`: the last interval and the jobs' ends, the final
    /// report's line, the HTML report, and the live page's turn into it.
    pub fn finish(
        mut self,
        out: &mut dyn Write,
        report: &RunReport,
        plans: &[JobPlan],
        now_ms: u64,
    ) -> std::io::Result<()> {
        let done = vec![JobState::Done; plans.len()];
        let mut events = self.tracker.job_events(now_ms, &done);
        let last = self.tracker.last(now_ms, report);
        self.run.add_interval(&last);
        events.push(RunEvent::Interval(Box::new(last)));
        self.write_events(out, &events)?;
        if self.stream {
            out.write_all(json_stream::report_line(report, false).as_bytes())?;
            out.flush()?;
        }
        if !(self.html_to_out || self.html_file.is_some() || self.live.is_some()) {
            return Ok(());
        }
        self.run.report = report.clone();
        for (job, path) in per_io_logs(plans) {
            // A log that cannot be read leaves the timeline out; the run itself is fine.
            let _ = read_job_log(&mut self.run, &job, &path);
        }
        let page = Page { title: self.title.clone(), runs: vec![self.run] };
        let html = iomark_web::html::page(&page);
        if let Some(path) = &self.html_file {
            std::fs::write(path, &html).map_err(|e| {
                std::io::Error::new(e.kind(), format!("--html '{}': {e}", path.display()))
            })?;
        }
        if self.html_to_out {
            out.write_all(html.as_bytes())?;
            out.flush()?;
        }
        if let Some(live) = self.live.take() {
            live.finish(html);
        }
        Ok(())
    }
}

/// The per-I/O latency logs of the jobs (`write_lat_log` without `log_avg_msec`), each
/// with its job's name (the log's prefix need not be the name): the `clat` log, then the
/// `lat` log, whose trace wins.
fn per_io_logs(plans: &[JobPlan]) -> Vec<(String, PathBuf)> {
    let mut out: Vec<(String, PathBuf)> = Vec::new();
    for plan in plans {
        let logs = &plan.logs;
        if let (Some(prefix), 0) = (&logs.lat, logs.avg_ms) {
            for suffix in ["clat", "lat"] {
                let path = logs.path(prefix, suffix);
                if path.exists() && !out.iter().any(|(_, p)| *p == path) {
                    out.push((plan.job.name.clone(), path));
                }
            }
        }
    }
    out
}

/// Reads one of `job`'s per-I/O latency logs into `run`, inflating it first when it is
/// stored compressed (`log_store_compressed`, a `.fz` file).
fn read_job_log(run: &mut Run, job: &str, path: &std::path::Path) -> Result<(), String> {
    use iomark_web::input::logs;
    let shown = path.display().to_string();
    let text = if shown.ends_with(".fz") {
        let file = std::fs::File::open(path).map_err(|e| format!("{shown}: {e}"))?;
        let mut text = Vec::new();
        iomark_runner::inflate(&mut std::io::BufReader::new(file), &mut text)
            .map_err(|e| format!("{shown}: {e}"))?;
        String::from_utf8(text).map_err(|e| format!("{shown}: {e}"))?
    } else {
        std::fs::read_to_string(path).map_err(|e| format!("{shown}: {e}"))?
    };
    let name = shown.trim_end_matches(".fz");
    let (_, kind) = logs::name_of(std::path::Path::new(name)).map_err(|e| e.to_string())?;
    logs::add_rows(run, job, kind, &logs::rows(&text, &shown).map_err(|e| e.to_string())?);
    Ok(())
}
