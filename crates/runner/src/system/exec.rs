//! `exec_prerun` and `exec_postrun`: a command run before and after a job's I/O.
//!
//! As in fio 3.33: the command runs through the shell (`sh -c`) from the job's thread, so it
//! has the job's CPU affinity and priorities; its standard output and standard error go to
//! `JOBNAME.prerun.txt` (`JOBNAME.postrun.txt`) in the current directory, made anew by each
//! run and each clone, and the run notes `Saving output of prerun in JOBNAME.prerun.txt` (fio
//! prints `JOBNAME : Saving output of prerun in JOBNAME.prerun.txt` on standard output). The
//! job's files are laid out before the pre-run command. When the pre-run command fails (a
//! non-zero exit), the job does no I/O and its post-run command does not run; the run goes
//! on and the job is reported with nothing done. iomark notes it, where fio says nothing.
//!
//! fio appends the redirection to the command as written, so that only the last command of
//! `a; b` goes to the file; iomark redirects the whole command.

use std::fs::File;
use std::io;
use std::process::{Command, Stdio};

/// Which of the two commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// `exec_prerun`, before the I/O.
    Prerun,
    /// `exec_postrun`, after it.
    Postrun,
}

impl Stage {
    fn name(self) -> &'static str {
        match self {
            Stage::Prerun => "prerun",
            Stage::Postrun => "postrun",
        }
    }
}

impl std::fmt::Display for Stage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a command could not be started at all.
#[derive(Debug, thiserror::Error)]
pub enum ExecError {
    /// The file for its output could not be created.
    #[error("exec_{stage}: cannot create {path}: {source}")]
    Output {
        /// Which command.
        stage: Stage,
        /// The output file.
        path: String,
        /// Why it could not be created.
        source: io::Error,
    },
    /// The output file could not be shared with its standard error.
    #[error("exec_{stage}: {path}: {source}")]
    Share {
        /// Which command.
        stage: Stage,
        /// The output file.
        path: String,
        /// Why its descriptor could not be duplicated.
        source: io::Error,
    },
    /// The shell could not be started.
    #[error("exec_{stage}: cannot run sh -c '{command}': {source}")]
    Shell {
        /// Which command.
        stage: Stage,
        /// The command.
        command: String,
        /// Why the shell did not start.
        source: io::Error,
    },
}

/// Runs `command` of job `job` for `stage`; returns whether it exited with status 0, adding
/// what it notes to `notes`. Only a command that cannot be started at all (no shell, no
/// output file) is an error.
pub fn run(
    job: &str,
    stage: Stage,
    command: &str,
    notes: &mut Vec<String>,
) -> Result<bool, ExecError> {
    let what = stage.name();
    let path = format!("{job}.{what}.txt");
    notes.push(format!("Saving output of {what} in {path}"));
    let out = match File::create(&path) {
        Ok(out) => out,
        Err(source) => return Err(ExecError::Output { stage, path, source }),
    };
    let err = match out.try_clone() {
        Ok(err) => err,
        Err(source) => return Err(ExecError::Share { stage, path, source }),
    };
    let status = Command::new("sh")
        .arg("-c")
        .arg(command)
        .stdin(Stdio::null())
        .stdout(out)
        .stderr(err)
        .status()
        .map_err(|source| ExecError::Shell { stage, command: command.to_string(), source })?;
    if !status.success() {
        let how = match status.code() {
            Some(code) => format!("exit status {code}"),
            None => "killed by a signal".to_string(),
        };
        let then = match stage {
            Stage::Prerun => "; the job does no I/O, as in fio",
            Stage::Postrun => "",
        };
        notes.push(format!("exec_{what} '{command}' failed ({how}){then}"));
    }
    Ok(status.success())
}
