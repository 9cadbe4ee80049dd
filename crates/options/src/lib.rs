//! Everything iomark reads from its user, and nothing else: the option table, the table of
//! program flags, the value grammar, fio's job-file and command-line grammars, the typed
//! keys that read a job's options, and the validated [`JobSpec`]s they produce. What the
//! tables print for people and shells (help texts, the man page, completions, generated
//! docs) is the `iomark-manual` crate's.
//!
//! Parsing is the first of two stages: a `JobSpec` is what the user wrote, checked value by
//! value, with no system calls. Resolving files, sizes, seeds and engines, and rules that
//! involve several options, belong to the plan (`iomark-plan`).
#![forbid(unsafe_code)]

pub mod assemble;
pub mod audit;
pub mod cmdline;
pub mod compat;
pub mod debug;
pub mod error;
pub mod flags;
pub mod jobfile;
pub mod keys;
pub mod kind;
pub mod notes;
pub mod profile;
pub mod showcmd;
pub mod spec;
pub mod suggest;
pub mod table;
pub mod value;

pub use error::{ErrorKind, ParseError, Place};
pub use notes::Note;
pub use spec::{notes_of, JobSpec};

/// Parses a command line and every job file it names into the jobs to run. Malformed
/// values that fio 3.33 runs are read as fio reads them, each with a [`Note`]
/// ([`notes_of`]); with `--warnings-fatal` the first of them is refused instead.
pub fn parse_jobs(
    cmd: &cmdline::CommandLine,
    loader: &dyn jobfile::Loader,
) -> Result<Vec<JobSpec>, ParseError> {
    let jobs = assemble::build(&cmd.sources(loader)?)?;
    if cmd.program.warnings_fatal {
        if let Some(note) = notes_of(&jobs).into_iter().next() {
            return Err(note.into_error());
        }
    }
    Ok(jobs)
}
