//! `mpirun -np N iomark job.fio` (and `srun`): every rank runs the jobs in step with the
//! others, and rank 0 prints one report, every job merged across the ranks
//! ([`iomark_dist::ranks`]). The other ranks print nothing. Built with the `mpi` feature;
//! without it a launch of more than one rank is refused (each rank would report alone).
//!
//! Interim reports, the ETA line, the HTML report and the live page follow one process's
//! jobs and are not offered across ranks.

use crate::execute::{Failure, Outcome};
use iomark_dist::Launcher;
use iomark_options::cmdline::ProgramOptions;
use iomark_options::JobSpec;
use std::io::Write;

/// Refuses what a run across ranks does not offer, and a launch this build cannot join.
pub fn check(launch: &Launcher, program: &ProgramOptions) -> Result<(), Failure> {
    if !cfg!(feature = "mpi") {
        return Err(Failure::Config(format!(
            "{} started this process as rank {} of {}, but this iomark was built without \
             MPI (build it with `cargo build --release --features mpi`)",
            launch.name, launch.rank, launch.size
        )));
    }
    let f = &program.formats;
    let refused = [
        (program.status_interval.is_some(), "--status-interval"),
        (f.html || program.html.is_some(), "the HTML report"),
        (f.json_stream, "--output-format=json-stream"),
        (program.web.is_some(), "the live page"),
        (program.bandwidth_log, "--bandwidth-log"),
    ];
    match refused.iter().find(|r| r.0) {
        Some((_, what)) => Err(Failure::Config(format!("{what} is not available under MPI"))),
        None => Ok(()),
    }
}

/// Runs `jobs` on every rank; rank 0 writes the start lines and the merged reports to
/// `out`. A rank whose run fails ends the whole launch (`MPI_Abort`) after its message.
#[cfg(feature = "mpi")]
pub fn execute(
    jobs: &[JobSpec],
    program: &ProgramOptions,
    stop: &std::sync::atomic::AtomicBool,
    out: &mut dyn Write,
) -> Result<Outcome, Failure> {
    use crate::execute::{print_options, write_reports, write_start_lines};
    use iomark_dist::mpi::MpiRanks;
    use iomark_dist::Ranks;
    let ranks = MpiRanks::init().map_err(|e| Failure::Run(e.to_string()))?;
    let plans = iomark_runner::plans(jobs).map_err(|e| Failure::Config(e.to_string()))?;
    let print = print_options(jobs);
    let root = ranks.rank() == 0;
    if root && program.formats.normal {
        let groups = iomark_runner::group_ids(&plans);
        write_start_lines(out, &plans, &groups, &print)?;
        writeln!(out, "iomark-{} ({})", env!("CARGO_PKG_VERSION"), iomark_runner::FIO_COMPAT)?;
        let (n, size) = (plans.len(), ranks.size());
        writeln!(out, "Starting {n} process{} on each of {size} ranks", plural(n))?;
        out.flush()?;
    }
    let options = iomark_runner::RunOptions {
        block_tracing: crate::execute::block_tracing(program, &plans)?,
        block_latency_all: program.block_latency,
        processes: Some(std::sync::Arc::new(crate::job_process::ReExec)),
        fio_processes: program.job_processes,
        ..crate::execute::run_options()
    };
    let host = iomark_dist::hostname();
    let report = match iomark_dist::run_ranks(&ranks, &host, &plans, &options, stop, |_| {}) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("iomark: rank {}: {e}", ranks.rank());
            ranks.abort(1)
        }
    };
    let Some(report) = report else {
        return Ok(Outcome::Ok);
    };
    write_reports(out, &report, program, &print)?;
    let failed =
        report.jobs.iter().any(|j| j.error != 0 && j.errors.as_ref().is_none_or(|e| e.fatal));
    Ok(if failed { Outcome::JobFailed } else { Outcome::Ok })
}

/// Without MPI there is nothing to run ([`check`] refused it).
#[cfg(not(feature = "mpi"))]
pub fn execute(
    _: &[JobSpec],
    _: &ProgramOptions,
    _: &std::sync::atomic::AtomicBool,
    _: &mut dyn Write,
) -> Result<Outcome, Failure> {
    Err(Failure::Config("this iomark was built without MPI".into()))
}

#[cfg(feature = "mpi")]
fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "es"
    }
}
