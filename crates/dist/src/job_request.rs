//! What a job process is told, whoever started the run it belongs to: how to plan that
//! run again ([`Source`]: the command line of `iomark` or of an MPI rank, or the job files
//! and options a client sent to `iomark --server`), which of its jobs to run, with the
//! parent's seeds and, for a server's job, the parent's log paths. The cli reads it in its
//! hidden job-process mode ([`MODE`]); the server starts its clients' job processes with
//! [`ClientProcesses`].

use iomark_options::cmdline::ProgramOptions;
use iomark_options::jobfile::Loader;
use iomark_plan::logs::LogPlan;
use iomark_plan::{JobPlan, Seeds};
use iomark_runner::JobProcesses;
use std::ffi::OsString;
use std::path::PathBuf;
use std::process::Command;

/// The hidden first argument of a job process.
pub const MODE: &str = "--internal-job-process";

/// How the job process plans the run its job belongs to.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub enum Source {
    /// The parent's command line (without the program name), read in the same directory
    /// and environment.
    Args(Vec<OsString>),
    /// What a client of the server sent.
    Client(ClientJobs),
}

/// The job files and options a client sent to the server, as the server planned them.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct ClientJobs {
    /// Its command-line options (`JOBLINE`), the program's name left out.
    pub args: Vec<String>,
    /// Its job files, by the names the server gave them, and their text.
    pub files: Vec<(PathBuf, Vec<u8>)>,
    /// What goes before the names of its files (`unique_filename`).
    pub prefix: String,
}

/// What a job process reads first on its standard input.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct ProcessRequest {
    /// How to plan the run.
    pub source: Source,
    /// Which job of the run, in plan order.
    pub index: usize,
    /// Its seeds, as the parent planned them (`randrepeat=0` draws anew in every
    /// process).
    pub seeds: Seeds,
    /// Its logs, where the parent moved them (the server keeps its clients' logs in a
    /// directory of its own).
    pub logs: Option<LogPlan>,
}

impl ProcessRequest {
    /// The request for job `index` of a run planned from `source`, planned as `plan`.
    pub fn new(source: Source, index: usize, plan: &JobPlan) -> ProcessRequest {
        ProcessRequest { source, index, seeds: plan.seeds, logs: Some(plan.logs.clone()) }
    }

    /// The request as the child reads it: one line of JSON.
    pub fn to_line(&self) -> Vec<u8> {
        serde_json::to_vec(self).unwrap_or_default()
    }
}

/// A job process: iomark's own program again, in the hidden mode [`MODE`].
pub fn command() -> Command {
    let mut command = Command::new("/proc/self/exe");
    command.arg(MODE);
    command
}

impl ClientJobs {
    /// The program options and plans of these jobs, as the server planned them, reading
    /// what the job files include through `local`.
    pub fn plans(&self, local: &dyn Loader) -> Result<(ProgramOptions, Vec<JobPlan>), String> {
        crate::proto::server::plans_of(&self.args, &self.files, &self.prefix, local)
    }
}

/// Starts the job processes of a client's run on the server.
#[derive(Debug)]
pub struct ClientProcesses(pub ClientJobs);

impl JobProcesses for ClientProcesses {
    fn command(&self) -> Command {
        command()
    }

    fn request(&self, index: usize, plan: &JobPlan) -> Vec<u8> {
        ProcessRequest::new(Source::Client(self.0.clone()), index, plan).to_line()
    }
}
