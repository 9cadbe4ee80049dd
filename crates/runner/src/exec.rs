//! `exec_prerun` and `exec_postrun`: a command run before and after a job's I/O.
//!
//! As in fio 3.33: the command runs through the shell (`sh -c`) from the job's thread, so it
//! has the job's CPU affinity and priorities; its standard output and standard error go to
//! `JOBNAME.prerun.txt` (`JOBNAME.postrun.txt`) in the current directory, made anew by each
//! run and each clone, and `JOBNAME : Saving output of prerun in JOBNAME.prerun.txt` goes to
//! standard error. The job's files are laid out before the pre-run command. When the
//! pre-run command fails (a non-zero exit), the job does no I/O and its post-run command
//! does not run; the run goes on and the job is reported with nothing done. iomark says so
//! on standard error, where fio says nothing.
//!
//! fio appends the redirection to the command as written, so that only the last command of
//! `a; b` goes to the file; iomark redirects the whole command.

use std::fs::File;
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

/// Runs `command` of job `job` for `stage`; returns whether it exited with status 0. Only a
/// command that cannot be started at all (no shell, no output file) is an error.
pub fn run(job: &str, stage: Stage, command: &str) -> Result<bool, String> {
    let what = stage.name();
    let path = format!("{job}.{what}.txt");
    eprintln!("{job} : Saving output of {what} in {path}");
    let out = File::create(&path).map_err(|e| format!("exec_{what}: cannot create {path}: {e}"))?;
    let err = out.try_clone().map_err(|e| format!("exec_{what}: {path}: {e}"))?;
    let status = Command::new("sh")
        .arg("-c")
        .arg(command)
        .stdin(Stdio::null())
        .stdout(out)
        .stderr(err)
        .status()
        .map_err(|e| format!("exec_{what}: cannot run sh -c '{command}': {e}"))?;
    if !status.success() {
        let how = match status.code() {
            Some(code) => format!("exit status {code}"),
            None => "killed by a signal".to_string(),
        };
        let then = match stage {
            Stage::Prerun => "; the job does no I/O, as in fio",
            Stage::Postrun => "",
        };
        eprintln!("iomark: job '{job}': exec_{what} '{command}' failed ({how}){then}");
    }
    Ok(status.success())
}
