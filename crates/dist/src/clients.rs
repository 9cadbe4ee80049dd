//! The report of a run on many servers (`--client`): each server's jobs and groups as it
//! reported them, and, as fio 3.33 prints it under `group_reporting`, "All clients":
//! every server's recording of a group merged exactly (fio's histogram bins added bin for
//! bin, counts and sums added, the longest runtime), then reduced once.

use crate::proto::client::{Addr, Host, HostRun};
use crate::proto::decode::RemoteJob;
use iomark_stats::reduce::{group_reports, job_report};
use iomark_stats::report::{ClientReport, JobReport, RunReport, REPORT_VERSION};

/// The name of the merged entry, as fio prints it.
pub const ALL_CLIENTS: &str = "All clients";

fn reduce(job: &RemoteJob) -> JobReport {
    job_report(&job.recorder, job.meta.clone(), &job.times, &job.pcts)
}

/// Whether fio would print "All clients" for these runs: more than one server, jobs
/// reported as groups.
fn merged(runs: &[(Host, HostRun)]) -> bool {
    let grouped = |j: &RemoteJob| {
        j.meta.jobs > 1 || j.meta.options.iter().any(|(k, v)| k == "group_reporting" && v != "0")
    };
    runs.len() > 1 && runs.iter().any(|(_, r)| r.jobs.iter().any(grouped))
}

/// The report of `runs` (each server and what it ran), ended at `end_ms` (wall clock).
pub fn report(runs: &[(Host, HostRun)], end_ms: u64) -> RunReport {
    let clients = runs
        .iter()
        .map(|(host, run)| {
            let mut jobs: Vec<JobReport> = run.jobs.iter().map(reduce).collect();
            let groups = group_reports(&mut jobs);
            let port = match &host.addr {
                Addr::Tcp(_, port) => *port,
                Addr::Unix(_) => 0,
            };
            ClientReport {
                hostname: host.name.clone(),
                port,
                jobs,
                groups,
                disks: run.disks.clone(),
            }
        })
        .collect();
    let mut all: Vec<RemoteJob> = Vec::new();
    if merged(runs) {
        for job in runs.iter().flat_map(|(_, r)| &r.jobs) {
            match all.iter_mut().find(|a| a.meta.groupid == job.meta.groupid) {
                Some(a) => {
                    a.recorder.merge(&job.recorder);
                    a.times.merge_group(&job.times);
                    a.meta.jobs += job.meta.jobs;
                    if a.meta.error == 0 {
                        a.meta.error = job.meta.error;
                    }
                }
                None => {
                    let mut first = job.clone();
                    first.meta.name = ALL_CLIENTS.to_string();
                    first.meta.options.clear();
                    all.push(first);
                }
            }
        }
    }
    let mut jobs: Vec<JobReport> = all.iter().map(reduce).collect();
    let groups = group_reports(&mut jobs);
    RunReport {
        version: REPORT_VERSION,
        iomark_version: env!("CARGO_PKG_VERSION").to_string(),
        fio_compat: iomark_runner::FIO_COMPAT.to_string(),
        timestamp: end_ms / 1000,
        timestamp_ms: end_ms,
        time: iomark_runner::ctime(end_ms),
        global_options: Vec::new(),
        jobs,
        groups,
        disks: Vec::new(),
        ranks: Vec::new(),
        clients,
        notes: Default::default(),
        cpu_idleness: None,
        act: None,
    }
}

/// The report of one server alone, its disks included (for the printers that show one
/// server at a time), or of the merge when `client` is `None` (no disks, as fio's).
pub fn part(report: &RunReport, client: Option<usize>) -> RunReport {
    let (jobs, groups, disks) = match client.and_then(|i| report.clients.get(i)) {
        Some(c) => (c.jobs.clone(), c.groups.clone(), c.disks.clone()),
        None => (report.jobs.clone(), report.groups.clone(), Vec::new()),
    };
    RunReport { jobs, groups, disks, clients: Vec::new(), ..report.clone() }
}
