//! Job processes from the binary's side: how a run starts one ([`ReExec`], iomark's own
//! program again, `/proc/self/exe`, in the hidden mode [`MODE`]) and what that mode does
//! ([`main`]): it reads its request ([`ProcessRequest`]) on standard input, plans the same
//! run (from the same command line, in the same directory and environment, or from what a
//! client sent to the server), gives the job the parent's seeds (which `randrepeat=0`
//! draws anew in every process) and logs, runs that one job (with a block tracer of its
//! own when it asks for the split) and writes its outcome as JSON on standard output,
//! talking with its parent meanwhile (see `iomark_runner::JobProcesses`).

use iomark_dist::job_request::{ProcessRequest, Source};
use iomark_options::cmdline;
use iomark_plan::JobPlan;
use iomark_runner::{JobProcesses, ProcessReply};
use std::io::BufRead;
use std::process::{Command, ExitCode};

pub use iomark_dist::job_request::MODE;

/// Starts job processes as iomark again, with the command line this process was given.
#[derive(Debug)]
pub struct ReExec;

impl JobProcesses for ReExec {
    fn command(&self) -> Command {
        iomark_dist::job_request::command()
    }

    fn request(&self, index: usize, plan: &JobPlan) -> Vec<u8> {
        let args = std::env::args_os().skip(1).collect();
        ProcessRequest::new(Source::Args(args), index, plan).to_line()
    }
}

/// The job process's `main`: exit code 0 once its reply is written (the reply tells how
/// the job went), 2 for a request it cannot read.
/// `options` are the run options of the environment (the fake clock's).
pub fn main(
    stop: &'static std::sync::atomic::AtomicBool,
    options: iomark_runner::RunOptions,
) -> ExitCode {
    // The request is the first line; the parent's requests while the job runs follow.
    let mut input = std::io::BufReader::new(std::io::stdin());
    let mut line = Vec::new();
    let request = input
        .read_until(b'\n', &mut line)
        .map_err(|e| e.to_string())
        .and_then(|_| serde_json::from_slice::<ProcessRequest>(&line).map_err(|e| e.to_string()));
    let request = match request {
        Ok(r) => r,
        Err(e) => {
            eprintln!("iomark: {MODE}: bad request: {e}");
            return ExitCode::from(2);
        }
    };
    let planned = match &request.source {
        Source::Args(args) => plan(args),
        Source::Client(jobs) => jobs.plans(&crate::loader::FsLoader),
    };
    let reply: ProcessReply =
        planned.map_err(|e| (libc::EINVAL, e)).and_then(|(program, mut plans)| {
            let plan = plans.get_mut(request.index).ok_or((libc::EINVAL, "no such job".into()))?;
            plan.seeds = request.seeds;
            if let Some(logs) = request.logs {
                plan.logs = logs;
            }
            // Its own block tracer, for a job that asks for the split.
            let block_tracing = crate::run_setup::block_tracing(&program, &plans)
                .map_err(|_| (libc::EINVAL, "block latency is not available".to_string()))?;
            let options = iomark_runner::RunOptions {
                readonly: program.readonly,
                block_tracing,
                block_latency_all: program.block_latency,
                ..options
            };
            iomark_runner::serve_in_process(&plans, request.index, &options, stop, Box::new(input))
        });
    match iomark_runner::process_reply(reply) {
        Ok(()) => ExitCode::SUCCESS,
        _ => ExitCode::from(1),
    }
}

/// The program options and plans of the command line `args`, as the parent made them.
fn plan(args: &[std::ffi::OsString]) -> Result<(cmdline::ProgramOptions, Vec<JobPlan>), String> {
    let cmd = cmdline::parse(args.iter().cloned()).map_err(|e| e.to_string())?;
    let jobs = crate::jobs_of(&cmd).map_err(|e| e.to_string())?;
    let plans = crate::plans_of(&jobs, &cmd.program).map_err(|e| e.to_string())?;
    Ok((cmd.program, plans))
}
