//! The `iomark` binary: reads fio's command line and job files, and runs or shows the jobs.
//!
//! Exit codes: 0 success; 1 a job or verification failed; 2 bad usage or configuration
//! (every parse error), with one message on standard error naming the place, the job, the
//! option and the value; 128 a run stopped by SIGINT or SIGTERM (after its report, as fio
//! 3.33), 128 + the signal's number when a second one ends it at once (see [`signals`]).
#![forbid(unsafe_code)]

mod client;
mod compare_cmd;
mod execute;
mod fuse_export;
mod genzipf;
mod job_process;
mod loader;
mod pictures;
mod ranks;
mod report_cmd;
mod run_setup;
mod selftest;
mod serve;
mod signals;
mod status;
mod suite;
mod sweep_cmd;
mod trigger;

use iomark_manual::{cmdhelp, complete, help, man};
use iomark_options::{cmdline, debug, keys, showcmd, spec, JobSpec, ParseError};
use iomark_stats::Notes;
use std::io::Write;
use std::process::ExitCode;

/// Ctrl-C, SIGTERM and SIGUSR1 (see [`signals`]).
static CONTROL: signals::Control = signals::Control::new();

/// The fio release whose options, formats and behaviour iomark follows.
pub const FIO_COMPAT: &str = "fio-3.33";

fn main() -> ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    if args.first().is_some_and(|a| a == "genzipf") {
        return genzipf::main(&args[1..]);
    }
    if args.first().is_some_and(|a| a == "report") {
        return report_cmd::main(&args[1..]);
    }
    if args.first().is_some_and(|a| a == "compare") {
        return compare_cmd::main(&args[1..]);
    }
    if args.first().is_some_and(|a| a == "sweep") {
        return sweep_cmd::main(&args[1..]);
    }
    if args.first().is_some_and(|a| a == "fuse-export") {
        return fuse_export::main(&args[1..]);
    }
    // The clock's 20 ms calibration runs on while the jobs are read and planned.
    iomark_runner::start_calibration();
    if args.first().is_some_and(|a| a == job_process::MODE) {
        // Ctrl-C reaches the job processes too, and the parent forwards its stops as
        // SIGTERM: each stops its job and reports it, leaving the words to the parent.
        CONTROL.quiet();
        let _ = CONTROL.install();
        return job_process::main(&CONTROL.stop, execute::run_options());
    }
    match run(args.into_iter()) {
        Ok(code) => code,
        Err(Failure::Usage(message)) => {
            eprintln!("iomark: {message}");
            ExitCode::from(2)
        }
        Err(Failure::Output(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(Failure::Output(e)) => {
            eprintln!("iomark: cannot write output: {e}");
            ExitCode::from(1)
        }
    }
}

/// `--inflate-log=LOG`: the compressed log's rows as text on standard output. A file that
/// cannot be read or is no compressed log is bad input (exit code 2), after the rows that
/// could be read.
fn inflate_log(path: &std::path::Path, out: &mut impl Write) -> Result<ExitCode, Failure> {
    let bad = |e: &dyn std::fmt::Display| {
        Failure::Usage(format!("--inflate-log '{}': {e}", path.display()))
    };
    let file = std::fs::File::open(path).map_err(|e| bad(&e))?;
    let mut input = std::io::BufReader::with_capacity(1 << 16, file);
    let mut text = std::io::BufWriter::new(out);
    match iomark_runner::inflate(&mut input, &mut text) {
        Ok(()) => {
            text.flush()?;
            Ok(ExitCode::SUCCESS)
        }
        Err(iomark_runner::InflateError::Write(e)) => Err(Failure::Output(e)),
        Err(e) => {
            text.flush()?;
            Err(bad(&e))
        }
    }
}

/// Why `run` stopped early.
enum Failure {
    /// Bad usage or configuration: exit code 2.
    Usage(String),
    /// Writing the output failed.
    Output(std::io::Error),
}

impl From<ParseError> for Failure {
    fn from(e: ParseError) -> Self {
        Failure::Usage(e.to_string())
    }
}

impl From<std::io::Error> for Failure {
    fn from(e: std::io::Error) -> Self {
        Failure::Output(e)
    }
}

fn run(args: impl Iterator<Item = std::ffi::OsString>) -> Result<ExitCode, Failure> {
    let cmd = cmdline::parse(args)?;
    let p = &cmd.program;
    let mut out = std::io::stdout().lock();
    if p.help {
        out.write_all(help::text().as_bytes())?;
        return Ok(ExitCode::SUCCESS);
    }
    if p.man {
        out.write_all(man::page().as_bytes())?;
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(shell) = p.completions {
        out.write_all(complete::script(shell).as_bytes())?;
        return Ok(ExitCode::SUCCESS);
    }
    if p.version {
        writeln!(out, "iomark-{} ({FIO_COMPAT} compatible)", env!("CARGO_PKG_VERSION"))?;
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(name) = &p.cmdhelp {
        let text = match (p.profile, name.as_str()) {
            (Some(profile), "" | "all") => Some(cmdhelp::profile_list(profile)),
            (Some(profile), name) => cmdhelp::profile_one(profile, name),
            (None, "" | "all") => Some(cmdhelp::cmdhelp_all()),
            (None, name) => cmdhelp::cmdhelp_one(name),
        };
        let text = text.ok_or_else(|| Failure::Usage(format!("--cmdhelp: no option '{name}'")))?;
        out.write_all(text.as_bytes())?;
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(list) = &p.crctest {
        selftest::crctest(list, &mut out).map_err(Failure::Usage)?;
        return Ok(ExitCode::SUCCESS);
    }
    if p.cpuclock_test {
        let passed = selftest::cpuclock_test(&mut out)?;
        return Ok(if passed { ExitCode::SUCCESS } else { ExitCode::from(1) });
    }
    if p.idle_prof == Some(cmdline::IdleProf::Calibrate) {
        // fio: the unit of work alone, as text whatever the output format, and no job.
        let profiler = iomark_runner::IdleProfiler::calibrate();
        out.write_all(iomark_report::cpu_idleness(&profiler.report(), false).as_bytes())?;
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(path) = &p.inflate_log {
        return inflate_log(path, &mut out);
    }
    if let Some(engine) = &p.enghelp {
        let text =
            if engine.trim().is_empty() { Some(engine_list()) } else { cmdhelp::enghelp(engine) };
        let text =
            text.ok_or_else(|| Failure::Usage(format!("--enghelp: no engine '{engine}'")))?;
        out.write_all(text.as_bytes())?;
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(file) = p.remote_without_client.first() {
        return Err(Failure::Usage(format!("--remote-config={file} needs a --client before it")));
    }
    if !p.clients.is_empty() {
        drop(out);
        let mut out = std::io::stdout().lock();
        return client::main(&cmd, &mut out).map_err(|e| match e {
            client::Failure::Usage(m) => Failure::Usage(m),
            client::Failure::Output(e) => Failure::Output(e),
        });
    }
    if let Some(arg) = &p.server {
        drop(out);
        return serve::main(arg, p).map_err(Failure::Usage);
    }
    let jobs = jobs_of(&cmd)?;
    let launch = iomark_dist::Launcher::detect().filter(|l| l.size > 1);
    check_limits(&cmd.program, &jobs)?;
    if p.debug.iter().any(|d| d == "parse" || d == "all") {
        // On standard output, in fio's layout (`parse    PID  message`), as fio prints it.
        let pid = std::process::id();
        let mut seen = Vec::new();
        for job in &jobs {
            for line in debug::describe(job, &mut seen) {
                writeln!(out, "{:<8} {pid:<5} {line}", "parse")?;
            }
        }
    }
    if p.showcmd {
        for job in &jobs {
            writeln!(out, "{}", showcmd::command_line("iomark", job))?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    // What the job files hold that iomark read as fio 3.33 does, malformed as it is.
    let mut notes: Notes = iomark_options::notes_of(&jobs).iter().map(|n| n.to_string()).collect();
    if let Some(command) = &p.trigger_remote {
        // fio 3.33 takes it and ignores it in a local run.
        notes.add(format!("--trigger-remote={command} has no effect without --client"));
    }
    // Only rank 0 of an MPI launch reports.
    let silent = launch.is_some_and(|l| l.rank != 0);
    if jobs.is_empty() && cmd.files.is_empty() {
        if p.parse_only {
            return Ok(ExitCode::SUCCESS);
        }
        install_signals(&mut notes);
        let mut out = output(p, silent)?;
        let code = suite::run(p, &cmd.globals, &CONTROL, &mut out)?;
        return Ok(stopped().unwrap_or(code));
    }
    if !p.parse_only {
        // Before the jobs are planned, as fio 3.33 merges while it reads the jobs.
        iomark_plan::replay::merge::write_all(&jobs).map_err(|e| Failure::Usage(e.to_string()))?;
    }
    if p.merge_blktrace_only {
        return Ok(ExitCode::SUCCESS);
    }
    let plans = plans_of(&jobs, p).map_err(Failure::Usage)?;
    if p.parse_only {
        // What a run checks before its first I/O, without creating or writing a file.
        iomark_runner::check(&plans, p.readonly, iomark_runner::Checks::BeforeFirstIo)
            .map_err(|e| Failure::Usage(e.to_string()))?;
        notes.extend(iomark_plan::notes(&plans).iter());
        for note in notes.iter() {
            writeln!(out, "note: {note}")?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(launch) = &launch {
        ranks::check(launch, p).map_err(|e| match e {
            execute::Failure::Config(m) | execute::Failure::Run(m) => Failure::Usage(m),
            execute::Failure::Output(e) => Failure::Output(e),
        })?;
    }
    drop(out);
    install_signals(&mut notes);
    let mut out = output(p, silent)?;
    let result = match launch {
        Some(_) => ranks::execute(&jobs, p, &CONTROL.stop, &mut out).map(|o| ((), o)),
        None => {
            execute::execute((&jobs, &plans), p, (&CONTROL, notes), &mut out).map(|(_, o)| ((), o))
        }
    };
    if let (Ok(_), Some(code)) = (&result, stopped()) {
        return Ok(code);
    }
    match result {
        Ok((_, execute::Outcome::Ok)) => Ok(ExitCode::SUCCESS),
        Ok((_, execute::Outcome::JobFailed)) => Ok(ExitCode::from(1)),
        Err(execute::Failure::Config(m)) => Err(Failure::Usage(m)),
        Err(execute::Failure::Run(m)) => {
            eprintln!("iomark: {m}");
            Ok(ExitCode::from(1))
        }
        Err(execute::Failure::Output(e)) => Err(Failure::Output(e)),
    }
}

/// The jobs of the command line `cmd`; under mpirun or srun, `$rank` and `$hostname` give
/// each rank its own files.
fn jobs_of(cmd: &cmdline::CommandLine) -> Result<Vec<JobSpec>, ParseError> {
    let mut jobs = iomark_options::parse_jobs(cmd, &loader::FsLoader)?;
    let launch = iomark_dist::Launcher::detect().filter(|l| l.size > 1);
    iomark_dist::localize(&mut jobs, launch.map_or(0, |l| l.rank), &iomark_dist::hostname());
    Ok(jobs)
}

/// The plans of `jobs` with the program options `p` that change them (`--aux-path`: where
/// the verify state files go); the message of a bad plan, or of a replayed log that writes
/// under `--readonly` (the job's `rw` does not say so: [`check_limits`] cannot see it).
fn plans_of(
    jobs: &[JobSpec],
    p: &cmdline::ProgramOptions,
) -> Result<Vec<iomark_plan::JobPlan>, String> {
    let mut plans = iomark_runner::plans(jobs).map_err(|e| e.to_string())?;
    let writes = |r: &iomark_plan::replay::ReplayPlan| r.dirs()[1] || r.dirs()[2];
    if let Some((plan, log)) = plans
        .iter()
        .filter(|_| p.readonly)
        .find_map(|plan| plan.replay.as_ref().filter(|r| writes(r)).map(|r| (plan, &r.log)))
    {
        return Err(format!(
            "job '{}': --readonly is set but its replayed log '{}' writes or trims (fio 3.33 \
             leaves those I/Os out)",
            plan.job.name,
            log.display()
        ));
    }
    for verify in plans.iter_mut().filter_map(|v| v.verify.as_mut()) {
        verify.job.state_dir.clone_from(&p.aux_path);
    }
    Ok(plans)
}

/// Takes Ctrl-C and SIGTERM; when that fails, the run goes on and says so in `notes`.
fn install_signals(notes: &mut Notes) {
    if let Err(e) = CONTROL.install() {
        notes.add(format!("cannot take signals (Ctrl-C will end the run at once): {e}"));
    }
}

/// Where the report goes: nowhere for a `silent` rank (only rank 0 of an MPI launch
/// reports), `--output`'s file, or standard output.
fn output(p: &cmdline::ProgramOptions, silent: bool) -> Result<Box<dyn Write>, Failure> {
    Ok(match &p.output {
        _ if silent => Box::new(std::io::sink()),
        Some(path) => Box::new(
            std::fs::File::create(path)
                .map_err(|e| Failure::Usage(format!("--output '{}': {e}", path.display())))?,
        ),
        None => Box::new(std::io::stdout().lock()),
    })
}

/// `--enghelp` without an engine: the engines iomark runs, from the engine registry, in
/// fio's `Available IO engines:` layout.
fn engine_list() -> String {
    let mut out = String::from("Available IO engines:\n");
    for name in iomark_engine::registry::names() {
        out.push_str(&format!("\t{name}\n"));
    }
    out
}

/// The exit code of a run that a signal stopped, if one did.
fn stopped() -> Option<ExitCode> {
    CONTROL.stopped_by().map(|_| ExitCode::from(signals::STOPPED_EXIT))
}

/// `--max-jobs` and `--readonly`, which look at all jobs at once.
fn check_limits(p: &cmdline::ProgramOptions, jobs: &[JobSpec]) -> Result<(), Failure> {
    if let Some(max) = p.max_jobs {
        let total = spec::clones(jobs).count() as u64;
        if total > max {
            return Err(Failure::Usage(format!("{total} jobs exceed --max-jobs={max}")));
        }
    }
    if p.readonly {
        if let Some(job) = jobs.iter().find(|j| j.writes()) {
            let rw = job.given(keys::RW).map(|rw| rw.to_string()).unwrap_or_default();
            return Err(Failure::Usage(format!(
                "job '{}' ({}): --readonly is set but the job writes (rw={rw})",
                job.name, job.place
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The exit statuses that `--help` and the man page list are the ones `main` returns.
    #[test]
    fn the_documented_exit_codes_are_mains() {
        let codes: Vec<&str> = iomark_options::flags::EXIT_CODES.iter().map(|s| s.code).collect();
        let stopped = signals::STOPPED_EXIT.to_string();
        assert_eq!(codes, ["0", "1", "2", stopped.as_str(), "128+N"]);
    }

    #[test]
    fn the_engine_list_is_the_manuals_list() {
        assert_eq!(Some(super::engine_list()), cmdhelp::enghelp(""));
    }
}
