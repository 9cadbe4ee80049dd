//! `iomark --client=HOST [job.fio] …`: runs job files and command-line jobs on fio 3.33
//! servers or iomark's ([`iomark_dist::proto::client`]), all at once, and prints fio's
//! client reports: each server's text as it comes (`<host> …`), then each server's jobs
//! and, under `group_reporting`, "All clients" ([`iomark_dist::clients`]). The servers'
//! log files are written here as `NAME.HOST`; a trigger (`--trigger-file`,
//! `--trigger-timeout`) goes to every server, whose jobs' write states are saved here as
//! `HOST-JOB-N-verify.state` before `--trigger` runs; a server whose job loads its verify
//! state (`verify_state_load`) is sent the state file it asks for, and nothing else. A server that cannot be reached or
//! fails is reported on standard error and the others are still printed (exit code 1).

use crate::execute::{print_options, write_reports};
use iomark_dist::clients;
use iomark_dist::proto::client::{run_host, Host, HostRun, JobFiles, Listener, Remote};
use iomark_dist::proto::trigger;
use iomark_options::cmdline::{CommandLine, OutputFormats, ProgramOptions};
use iomark_options::jobfile::RawLine;
use iomark_report::client_disk_line;
use iomark_stats::report::RunReport;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{mpsc, Mutex};
use std::time::{Duration, Instant};

/// Why the client could not start.
pub enum Failure {
    /// Bad usage (exit code 2).
    Usage(String),
    /// Writing the output failed.
    Output(std::io::Error),
}

impl From<std::io::Error> for Failure {
    fn from(e: std::io::Error) -> Self {
        Failure::Output(e)
    }
}

/// A host, the job files to send it and the ones it reads itself (`--remote-config`).
type HostJobs = (Host, Vec<PathBuf>, Vec<String>);

/// Each host and the job files it runs, from the command line.
fn hosts(cmd: &CommandLine, line_jobs: bool) -> Result<Vec<HostJobs>, Failure> {
    let clients = &cmd.program.clients;
    let before: Vec<PathBuf> =
        cmd.files[..clients.first().map_or(0, |c| c.first_file.min(cmd.files.len()))].to_vec();
    let mut out = Vec::new();
    for (i, c) in clients.iter().enumerate() {
        let end = clients.get(i + 1).map_or(cmd.files.len(), |n| n.first_file.min(cmd.files.len()));
        let mut files = cmd.files[c.first_file.min(end)..end].to_vec();
        if files.is_empty() && c.remote.is_empty() {
            files = before.clone();
        }
        let names: Vec<String> = match Path::new(&c.host).is_file() {
            // A file of hosts, one a line.
            true => std::fs::read_to_string(&c.host)
                .map_err(|e| Failure::Usage(format!("--client={}: {e}", c.host)))?
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty() && !l.starts_with('#'))
                .map(str::to_string)
                .collect(),
            false => vec![c.host.clone()],
        };
        for name in names {
            let host =
                Host::parse(&name).map_err(|e| Failure::Usage(format!("--client={name}: {e}")))?;
            if files.is_empty() && c.remote.is_empty() && !line_jobs {
                return Err(Failure::Usage(format!("--client={name}: no job file to run")));
            }
            out.push((host, files.clone(), c.remote.clone()));
        }
    }
    Ok(out)
}

/// The arguments of the servers' `JOBLINE`: the program flags fio's client sends, then
/// the job options of the command line (which fio 3.33's client keeps to itself).
fn job_line(cmd: &CommandLine) -> Vec<String> {
    let arg = |l: &RawLine| match &l.value {
        Some(v) => format!("--{}={v}", l.key),
        None => format!("--{}", l.key),
    };
    let mut args = cmd.program.remote_args.clone();
    args.extend(cmd.globals.iter().map(arg));
    args.extend(cmd.jobs.iter().flat_map(|j| j.lines.iter().map(arg)));
    args
}

/// What one host's thread does with what its server sends.
struct Hears<'a> {
    host: &'a str,
    tx: mpsc::Sender<String>,
    remotes: &'a Mutex<Vec<Remote>>,
    program: &'a ProgramOptions,
}

impl Hears<'_> {
    fn error(&self, what: &str) {
        let _ = self.tx.send(format!("\0iomark: client {}: {what}", self.host));
    }
}

impl Listener for Hears<'_> {
    fn text(&mut self, server: &str, text: &str) {
        for line in text.lines() {
            let _ = self.tx.send(format!("<{server}> {line}"));
        }
    }
    fn log(&mut self, name: &str, text: &str) {
        let path = format!("{name}.{}", self.host);
        if let Err(e) = std::fs::write(&path, text) {
            self.error(&format!("log '{path}': {e}"));
        }
    }
    fn states(&mut self, payload: &[u8]) {
        let dir = self.program.aux_path.clone().unwrap_or_default();
        for (name, bytes) in trigger::state_files(self.host, payload) {
            if let Err(e) = std::fs::write(dir.join(&name), bytes) {
                self.error(&format!("'{name}': {e}"));
            }
        }
        if let Some(command) = &self.program.trigger {
            match std::process::Command::new("sh").arg("-c").arg(command).status() {
                Ok(s) if s.success() => {}
                Ok(s) => self.error(&format!("--trigger '{command}': {s}")),
                Err(e) => self.error(&format!("--trigger '{command}': {e}")),
            }
        }
    }
    fn file(&mut self, name: &str) -> Result<Vec<u8>, i32> {
        if !trigger::may_send(name) {
            self.error(&format!("the server asked for '{name}', which is not a verify state"));
            return Err(libc::EACCES);
        }
        let dir = self.program.aux_path.clone().unwrap_or_default();
        std::fs::read(dir.join(name)).map_err(|e| e.raw_os_error().unwrap_or(2))
    }
    fn probed(&mut self, line: &str) {
        if self.program.formats.normal {
            let _ = self.tx.send(line.to_string());
        }
    }
    fn failed(&mut self, what: &str) {
        self.error(what);
    }
    fn connected(&mut self, remote: Remote) {
        self.remotes.lock().unwrap_or_else(|e| e.into_inner()).push(remote);
    }
}

/// How often the trigger file is looked for, as fio.
const TRIGGER_POLL: Duration = Duration::from_millis(250);

/// Watches for the trigger (`--trigger-file`, `--trigger-timeout`) until `done` hangs
/// up; when it fires, every server connected is sent `--trigger-remote`'s command.
fn watch(program: &ProgramOptions, remotes: &Mutex<Vec<Remote>>, done: &mpsc::Receiver<()>) {
    let deadline = program.trigger_timeout.map(|t| Instant::now() + t);
    let file = program.trigger_file.as_ref();
    if deadline.is_none() && file.is_none() {
        return;
    }
    loop {
        if file.is_some_and(|f| std::fs::remove_file(f).is_ok())
            || deadline.is_some_and(|d| Instant::now() >= d)
        {
            let command = program.trigger_remote.clone().unwrap_or_default();
            for remote in remotes.lock().unwrap_or_else(|e| e.into_inner()).iter() {
                let _ = remote.trigger(&command);
            }
            return;
        }
        let next = Instant::now() + TRIGGER_POLL;
        let until = deadline.map_or(next, |d| d.min(next));
        match done.recv_timeout(until.saturating_duration_since(Instant::now())) {
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            _ => return,
        }
    }
}

/// Runs the jobs on every host and writes the reports to `out`.
pub fn main(cmd: &CommandLine, out: &mut dyn Write) -> Result<ExitCode, Failure> {
    let args = job_line(cmd);
    let hosts = hosts(cmd, !cmd.jobs.is_empty())?;
    let mut work = Vec::new();
    for (host, files, remote) in hosts {
        let mut local = Vec::new();
        for f in &files {
            let bytes = std::fs::read(f)
                .map_err(|e| Failure::Usage(format!("job file '{}': {e}", f.display())))?;
            local.push((f.display().to_string(), bytes));
        }
        work.push((host, JobFiles { args: args.clone(), local, remote }));
    }
    let remotes = Mutex::new(Vec::new());
    let (done_tx, done_rx) = mpsc::channel::<()>();
    let mut errors = Vec::new();
    let (tx, rx) = mpsc::channel::<String>();
    let program = &cmd.program;
    let results: Vec<(Host, Result<HostRun, String>)> = std::thread::scope(|s| {
        let remotes = &remotes;
        s.spawn(move || watch(program, remotes, &done_rx));
        let handles: Vec<_> = work
            .iter()
            .map(|(host, files)| {
                let tx = tx.clone();
                s.spawn(move || {
                    let mut hears = Hears { host: &host.name, tx, remotes, program };
                    run_host(host, files, &mut hears).map_err(|e| e.to_string())
                })
            })
            .collect();
        drop(tx);
        // The servers' text, as it comes; errors (marked with a NUL) at the end.
        for line in rx {
            match line.strip_prefix('\0') {
                Some(e) => errors.push(e.to_string()),
                None => {
                    let _ = writeln!(out, "{line}");
                }
            }
        }
        drop(done_tx);
        work.iter()
            .zip(handles)
            .map(|((host, _), h)| {
                (host.clone(), h.join().unwrap_or_else(|_| Err("client thread failed".into())))
            })
            .collect()
    });
    let mut failed = !errors.is_empty();
    for e in &errors {
        eprintln!("{e}");
    }
    let mut runs = Vec::new();
    for (host, result) in results {
        match result {
            Ok(run) => {
                failed |= run.error != 0;
                runs.push((host, run));
            }
            Err(e) => {
                failed = true;
                eprintln!("iomark: client {}: {e}", host.name);
            }
        }
    }
    let end_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64);
    let report = clients::report(&runs, end_ms);
    let program = &cmd.program;
    let print = print_options(&[]);
    let f = &program.formats;
    let only = |formats: OutputFormats| ProgramOptions { formats, ..program.clone() };
    if f.json || f.json_plus {
        let json = OutputFormats { json: f.json, json_plus: f.json_plus, ..OutputFormats::NONE };
        write_reports(out, &report, &only(json), &print)?;
    }
    if f.normal || f.terse {
        let text = only(OutputFormats { normal: f.normal, terse: f.terse, ..OutputFormats::NONE });
        for i in 0..report.clients.len() {
            let part = clients::part(&report, Some(i));
            if f.normal {
                write_reports(
                    out,
                    &part,
                    &only(OutputFormats { normal: true, ..OutputFormats::NONE }),
                    &print,
                )?;
            }
            // fio's client prints a server's disks in terse output on lines of their own.
            if f.terse {
                let jobs = RunReport { disks: Vec::new(), ..part.clone() };
                write_reports(
                    out,
                    &jobs,
                    &only(OutputFormats { terse: true, ..OutputFormats::NONE }),
                    &print,
                )?;
                if program.terse_version.unwrap_or(3) >= 3 {
                    part.disks
                        .iter()
                        .try_for_each(|d| out.write_all(client_disk_line(d).as_bytes()))?;
                }
            }
        }
        if !report.jobs.is_empty() {
            write_reports(out, &clients::part(&report, None), &text, &print)?;
        }
    }
    out.flush()?;
    Ok(if failed { ExitCode::from(1) } else { ExitCode::SUCCESS })
}
