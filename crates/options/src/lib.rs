//! Everything iomark reads from its user, and nothing else: the option table, the table of
//! program flags (and the help, man page and completions printed from them), the value
//! grammar, fio's job-file and command-line grammars, and the validated [`JobSpec`]s they
//! produce.
//!
//! Parsing is the first of two stages: a `JobSpec` is what the user wrote, checked value by
//! value, with no system calls. Resolving files, sizes, seeds and engines, and rules that
//! involve several options, belong to the runner's plan.
#![forbid(unsafe_code)]

pub mod assemble;
pub mod cmdline;
pub mod compat;
pub mod debug;
pub mod docs;
pub mod error;
pub mod flags;
pub mod help;
pub mod jobfile;
pub mod keys;
pub mod kind;
pub mod showcmd;
pub mod spec;
pub mod suggest;
pub mod table;
pub mod value;

pub use error::{ErrorKind, ParseError, Place};
pub use spec::JobSpec;

/// Parses a command line and every job file it names into the jobs to run.
pub fn parse_jobs(
    cmd: &cmdline::CommandLine,
    loader: &dyn jobfile::Loader,
) -> Result<Vec<JobSpec>, ParseError> {
    assemble::build(&cmd.sources(loader)?)
}
