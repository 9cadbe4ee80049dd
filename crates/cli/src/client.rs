//! `iomark --client=HOST [job.fio] …`: runs job files on fio 3.33 servers or iomark's
//! ([`iomark_dist::proto::client`]), all at once, and prints fio's client reports: each
//! server's text as it comes (`<host> …`), then each server's jobs and, under
//! `group_reporting`, "All clients" ([`iomark_dist::clients`]). A server that cannot be
//! reached or fails is reported on standard error and the others are still printed (exit
//! code 1).

use crate::execute::{print_options, write_reports};
use iomark_dist::clients;
use iomark_dist::proto::client::{run_host, Host, HostRun, JobFiles};
use iomark_options::cmdline::{CommandLine, OutputFormats, ProgramOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::mpsc;

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
fn hosts(cmd: &CommandLine) -> Result<Vec<HostJobs>, Failure> {
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
            if files.is_empty() && c.remote.is_empty() {
                return Err(Failure::Usage(format!("--client={name}: no job file to run")));
            }
            out.push((host, files.clone(), c.remote.clone()));
        }
    }
    Ok(out)
}

/// Runs the jobs on every host and writes the reports to `out`.
pub fn main(cmd: &CommandLine, out: &mut dyn Write) -> Result<ExitCode, Failure> {
    let hosts = hosts(cmd)?;
    let mut work = Vec::new();
    for (host, files, remote) in hosts {
        let mut local = Vec::new();
        for f in &files {
            let bytes = std::fs::read(f)
                .map_err(|e| Failure::Usage(format!("job file '{}': {e}", f.display())))?;
            local.push((f.display().to_string(), bytes));
        }
        work.push((host, JobFiles { local, remote }));
    }
    let (tx, rx) = mpsc::channel::<String>();
    let results: Vec<(Host, Result<HostRun, String>)> = std::thread::scope(|s| {
        let handles: Vec<_> = work
            .iter()
            .map(|(host, files)| {
                let tx = tx.clone();
                s.spawn(move || {
                    let mut text = |server: &str, t: &str| {
                        for line in t.lines() {
                            let _ = tx.send(format!("<{server}> {line}"));
                        }
                    };
                    run_host(host, files, &mut text).map_err(|e| e.to_string())
                })
            })
            .collect();
        drop(tx);
        // The servers' text, as it comes.
        for line in rx {
            let _ = writeln!(out, "{line}");
        }
        work.iter()
            .zip(handles)
            .map(|((host, _), h)| {
                (host.clone(), h.join().unwrap_or_else(|_| Err("client thread failed".into())))
            })
            .collect()
    });
    let mut failed = false;
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
            write_reports(out, &clients::part(&report, Some(i)), &text, &print)?;
        }
        if !report.jobs.is_empty() {
            write_reports(out, &clients::part(&report, None), &text, &print)?;
        }
    }
    out.flush()?;
    Ok(if failed { ExitCode::from(1) } else { ExitCode::SUCCESS })
}
