//! Running parsed jobs and printing what fio prints: the start lines, then the reports in
//! the formats asked for.

use crate::pictures::{Pictures, DEFAULT_INTERVAL};
use crate::signals::Control;
use crate::status::Tick;
use iomark_options::cmdline::Eta;
use iomark_options::cmdline::ProgramOptions;
use iomark_options::profile::ACT_SLICE;
use iomark_options::{keys, JobSpec};
use iomark_plan::JobPlan;
use iomark_report::eta::{EtaLine, NumberFormat};
use iomark_report::{PrintOptions, TerseVersion};
use iomark_runner::{self as run, AggBandwidthLog, Progress, RunError, RunOptions, Watch};
use iomark_stats::act::{ActCounts, ActReport};
use iomark_stats::report::RunReport;
use iomark_stats::Notes;
use std::io::{IsTerminal, Write};
use std::ops::ControlFlow;
use std::os::fd::AsFd;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

pub(crate) use crate::run_setup::{block_tracing, run_options, Failure, Outcome};

/// Runs `plans` (those of `jobs`) and writes the reports to `out` (the terminal, or
/// `--output`): the interim ones (`--status-interval`, SIGUSR1) while they run, then the
/// final one, which carries `notes` (the notes of the stages before the run) first among
/// its notes.
pub fn execute(
    (jobs, plans): (&[JobSpec], &[JobPlan]),
    program: &ProgramOptions,
    (control, notes): (&'static Control, Notes),
    out: &mut dyn Write,
) -> Result<(RunReport, Outcome), Failure> {
    let eta_interval = eta_interval(program)?;
    let status_interval = status_interval(program)?;
    let print = print_options(jobs);
    let block_tracing = block_tracing(program, plans)?;
    // The live page's address comes first, before fio's start lines.
    let progress = Arc::new(Progress::new(plans));
    let mut pictures = Pictures::start(plans, program, &progress, out)?;
    let normal = program.formats.normal;
    let groups = iomark_runner::group_ids(plans);
    if normal {
        write_start_lines(out, plans, &groups, &print)?;
        // fio 3.33 prints its version here, except for a profile's jobs.
        if program.profile.is_none() {
            writeln!(out, "iomark-{} ({})", env!("CARGO_PKG_VERSION"), run::FIO_COMPAT)?;
        }
        let n = plans.len();
        let noun = match (plans.iter().any(|p| p.report.thread), n == 1) {
            (true, true) => "thread",
            (true, false) => "threads",
            (false, true) => "process",
            (false, false) => "processes",
        };
        writeln!(out, "Starting {n} {noun}")?;
        out.flush()?;
    }
    // Interim reports in fio's formats; the pictures' figures every interval.
    let f = &program.formats;
    let status = status_interval.filter(|_| f.normal || f.terse || f.json || f.json_plus);
    // --profile=act: the recording so far at the end of each slice, for its table.
    let mut act = program.act.as_ref().map(|setup| ActSlices::new(setup.slices));
    let interval = match (&pictures, &act) {
        (Some(_), _) => Some(status_interval.unwrap_or(DEFAULT_INTERVAL)),
        (None, act) => act.as_ref().map(|_| ACT_SLICE),
    };
    let options = RunOptions {
        readonly: program.readonly,
        progress: Some(Arc::clone(&progress)),
        block_latency_all: program.block_latency,
        notes,
        block_tracing,
        processes: Some(Arc::new(crate::job_process::ReExec)),
        fio_processes: program.job_processes,
        ..run_options()
    };
    // fio's --bandwidth-log: rows only while the ETA line is shown (docs/logs.md).
    let agg = match program.bandwidth_log {
        true => Some(AggBandwidthLog::create(Path::new(".")).map_err(Failure::Run)?),
        false => None,
    };
    let eta = start_eta(program, &progress, eta_interval, options.fake_clock_step_ns.is_some())?;
    let agg = agg.filter(|_| eta.is_some()).map(|a| a.spawn(Arc::clone(&progress), eta_interval));
    // --idle-prof: the unit of work timed, then a spinner per CPU while the jobs run.
    let idle = program.idle_prof.map(|how| {
        let percpu = how == iomark_options::cmdline::IdleProf::Percpu;
        (iomark_runner::IdleProfiler::calibrate().start(), percpu)
    });
    let (result, trigger_note) = std::thread::scope(|scope| {
        // --trigger-file, --trigger-timeout: a watcher beside the run.
        let watcher = crate::trigger::Trigger::of(program)
            .map(|trigger| scope.spawn(move || trigger.watch(control)));
        let result =
            crate::status::run_reporting(plans, options, control, (status, interval), |tick| {
                if let (Tick::Interval(r, _), Some(act)) = (&tick, &mut act) {
                    act.tick(r);
                }
                match (tick, &mut pictures) {
                    (Tick::Interim(r), _) => write_reports(out, r, program, &print),
                    (Tick::Interval(r, before), Some(p)) => p.interval(out, r, before),
                    (Tick::Interval(..), None) => Ok(()),
                }
            });
        (result, watcher.and_then(|w| w.join().ok().flatten()))
    });
    let result = result?;
    if let Some(eta) = eta {
        let _ = eta.stop();
    }
    // A log that could not be written is an error of the run (stderr, exit code 1).
    let log_failed = match agg.map(|a| a.stop()) {
        Some(Err(e)) => {
            eprintln!("iomark: --bandwidth-log: {e}");
            true
        }
        _ => false,
    };
    let cpu_idleness = idle.map(|(spinners, percpu)| spinners.finish(percpu));
    let mut report = result.map_err(|e| match e {
        RunError::Plan(_) | RunError::Schedule(_) => Failure::Config(e.to_string()),
        RunError::Layout { .. } | RunError::Job(_) | RunError::SharedMemory(_) => {
            Failure::Run(e.to_string())
        }
    })?;
    report.cpu_idleness = cpu_idleness;
    if let (Some(setup), Some(act)) = (&program.act, act) {
        report.act = Some(act.judge(&report, setup.prep));
        // fio 3.33 echoes the profile's options first among the global options.
        report.global_options.splice(0..0, setup.echo.iter().cloned());
    }
    if let Some(note) = trigger_note {
        report.notes.add(note);
    }
    write_reports(out, &report, program, &print)?;
    if let Some(p) = pictures {
        p.finish(out, &report, plans, progress.sample().now_ms)?;
    }
    // An error a job went on past (continue_on_error) is reported but is no failure.
    let mut failed =
        report.jobs.iter().any(|j| j.error != 0 && j.errors.as_ref().is_none_or(|e| e.fatal));
    // --warnings-fatal: a job that asked for the split and ran without it fails the run.
    if program.warnings_fatal {
        let blocks = report.jobs.iter().filter_map(|j| j.block_latency.as_ref());
        for b in blocks.filter(|b| b.unavailable) {
            eprintln!("iomark: {} (--warnings-fatal)", b.notes.first().map_or("", String::as_str));
            failed = true;
        }
    }
    Ok((report, if failed || log_failed { Outcome::JobFailed } else { Outcome::Ok }))
}

/// The recordings of an act run at the end of each of its slices (an hour, as in ACT and
/// fio 3.33, whose run of 3700 s printed two rows). fio also ends a job over the first
/// limit at the end of its hour; iomark runs on and judges every hour in the table
/// (docs/workloads.md).
struct ActSlices {
    start: Instant,
    slices: usize,
    marks: Vec<ActCounts>,
}

impl ActSlices {
    fn new(slices: usize) -> Self {
        ActSlices { start: Instant::now(), slices, marks: Vec::new() }
    }

    /// Takes the recording `report` as the end of a slice if a slice has ended since the
    /// last one taken (the last slice ends with the run).
    fn tick(&mut self, report: &RunReport) {
        let ended = (self.start.elapsed().as_secs() / ACT_SLICE.as_secs()) as usize;
        if ended > self.marks.len() && self.marks.len() + 1 < self.slices {
            self.marks.push(report.act_counts());
        }
    }

    /// The table and verdict, the last slice reached ending with the `report` of the whole
    /// run, one row per slice of `test-duration` (zeros where the run did not reach); a
    /// preparation's (`prep`) I/Os are not counted.
    fn judge(self, report: &RunReport, prep: bool) -> ActReport {
        let mut before = ActCounts::default();
        let mut slices = Vec::new();
        for mark in self.marks.into_iter().chain([report.act_counts()]) {
            slices.push(if prep { ActCounts::default() } else { mark.since(before) });
            before = mark;
        }
        slices.resize(self.slices, ActCounts::default());
        ActReport::judge(&slices)
    }
}

/// `--eta-interval`, 1 s by default; fio refuses less than 250 ms.
fn eta_interval(program: &ProgramOptions) -> Result<Duration, Failure> {
    let interval = program.eta_interval.unwrap_or(Duration::from_secs(1));
    if interval < Duration::from_millis(250) {
        return Err(Failure::Config("--eta-interval: too short (250msec min)".into()));
    }
    Ok(interval)
}

/// `--status-interval`, if given; fio refuses less than 1 ms.
pub fn status_interval(program: &ProgramOptions) -> Result<Option<Duration>, Failure> {
    match program.status_interval {
        Some(t) if t < Duration::from_millis(1) => {
            Err(Failure::Config("--status-interval: too small (1msec min)".into()))
        }
        t => Ok(t),
    }
}

/// Starts the ETA line on standard output, as fio does: only with the normal format, and
/// with `--eta=auto` only when standard output is a terminal; never under the fake clock.
fn start_eta(
    program: &ProgramOptions,
    progress: &Arc<Progress>,
    interval: Duration,
    fake: bool,
) -> Result<Option<Watch<()>>, Failure> {
    let stdout = std::io::stdout();
    let wanted = match program.eta {
        Eta::Always => true,
        Eta::Never => false,
        Eta::Auto => stdout.is_terminal(),
    };
    if !wanted || !program.formats.normal || fake {
        return Ok(None);
    }
    // The report holds the stdout lock; the ETA thread writes through its own descriptor.
    let mut out = std::fs::File::from(stdout.as_fd().try_clone_to_owned()?);
    let shapes = progress.shapes().to_vec();
    let mut line = EtaLine::new(shapes, NumberFormat::FIO, program.eta_newline);
    Ok(Some(progress.watch(interval, move |sample| match line.update(sample) {
        // A terminal that went away is no reason to stop the jobs.
        Some(text) if out.write_all(text.as_bytes()).and_then(|()| out.flush()).is_err() => {
            ControlFlow::Break(())
        }
        _ => ControlFlow::Continue(()),
    })))
}

/// The reports in fio's formats asked for, each once, in fio 3.33's order whatever the order
/// of `--output-format`'s list: the terse lines, then the JSON document, then an empty line
/// and the normal report. The run's notes come before the first text report (the terse
/// lines or the normal report), as fio prints its notes before its report; the JSON
/// document carries them itself, so that JSON alone stays one document. (iomark's html and
/// json-stream are [`Pictures`]'.)
pub fn write_reports(
    out: &mut dyn Write,
    report: &RunReport,
    program: &ProgramOptions,
    print: &PrintOptions,
) -> std::io::Result<()> {
    let f = &program.formats;
    if f.terse || f.normal {
        out.write_all(iomark_report::notes(report).as_bytes())?;
        // fio 3.33 prints act's table and verdict before its reports.
        if let Some(act) = &report.act {
            out.write_all(iomark_report::act(act).as_bytes())?;
        }
    }
    if f.terse {
        let version = program.terse_version.and_then(TerseVersion::new).unwrap_or_default();
        out.write_all(iomark_report::terse(report, version).as_bytes())?;
    }
    if f.json || f.json_plus {
        // fio: one document (json+ when both are asked), its closing brace, one blank line,
        // then the normal report.
        let doc = if f.json_plus {
            iomark_report::json_plus(report)
        } else {
            iomark_report::json(report)
        };
        out.write_all(doc.as_bytes())?;
    }
    if f.normal {
        writeln!(out)?;
        out.write_all(iomark_report::normal(report, print).as_bytes())?;
    }
    out.flush()
}

/// fio's start lines: one per job section, `...` for its further clones.
pub fn write_start_lines(
    out: &mut dyn Write,
    plans: &[JobPlan],
    groups: &[u32],
    print: &PrintOptions,
) -> std::io::Result<()> {
    for (plan, &group) in plans.iter().zip(groups) {
        if plan.job.jobnum > 0 {
            if plan.job.jobnum == 1 {
                writeln!(out, "...")?;
            }
            continue;
        }
        if plan.engine.name == "cpuio" {
            // fio's cpuio engine says what it burns instead of the usual line.
            let o = &plan.engine.options;
            let mode = if o.cpu_qsort { "qsort" } else { "noop" };
            let (load, cycle) = (o.cpu_load, o.cpu_chunk_us);
            let name = &plan.job.name;
            writeln!(out, "{name} ({mode}): ioengine=cpuio, cpuload={load}, cpucycle={cycle}")?;
            continue;
        }
        if let Some(exec) = &plan.engine.options.exec {
            // fio's exec engine names its program instead of the usual line.
            let (name, program) = (&plan.job.name, &exec.program);
            writeln!(out, "{name} : program={program}, arguments={}", exec.args.join(" "))?;
            continue;
        }
        let header = run::header(plan);
        writeln!(out, "{}", iomark_report::start_line(&plan.job.name, group, &header, print))?;
    }
    Ok(())
}

/// The print options of the run: `kb_base`, `unit_base` and `significant_figures` of the
/// first job.
pub fn print_options(jobs: &[JobSpec]) -> PrintOptions {
    let mut print = PrintOptions::default();
    if let Some(job) = jobs.first() {
        print.kb_base = job.ctx().kb_base;
        if let Some(unit_base) = job.given(keys::UNIT_BASE) {
            print.unit_base = unit_base.name.parse().unwrap_or(0);
        }
        if let Some(figures) = job.given(keys::SIGNIFICANT_FIGURES) {
            print.sig_figs = usize::try_from(figures).unwrap_or(print.sig_figs);
        }
    }
    print
}
