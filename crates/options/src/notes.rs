//! [`Note`]: what iomark read of the job files as fio 3.33 reads it although it is
//! malformed, and says so: a value whose leading part fio takes (`filesize=65536)`), a
//! section header fio reads its own way (`[job` without its `]`).
//!
//! A note names the place (file and line, or command-line argument), the job when the line
//! belongs to one, the option, what fio ignores and what iomark used. `--warnings-fatal`
//! (fio's flag: "parser warnings are fatal") turns every note into the refusal iomark
//! would give without fio's leniency, with exit code 2.

use crate::error::{ErrorKind, ParseError, Place};
use std::fmt;

/// A malformed piece of a job file or command line that iomark read as fio 3.33 does.
#[derive(Debug, Clone, PartialEq)]
pub struct Note {
    /// Where it was written.
    pub place: Place,
    /// The job (section) it belongs to; `None` for a global option.
    pub job: Option<String>,
    /// The option concerned, if any.
    pub option: Option<String>,
    /// What fio 3.33 ignores, and what iomark used.
    pub text: String,
    /// The refusal that `--warnings-fatal` gives instead.
    pub fatal: ErrorKind,
}

impl Note {
    /// The refusal of `--warnings-fatal`: the message iomark gives without fio's leniency.
    pub fn into_error(self) -> ParseError {
        let mut e = ParseError::new(self.place, self.fatal);
        e.job = self.job;
        e.option = self.option;
        e
    }
}

impl fmt::Display for Note {
    /// `job 'j' (a.fio:3): option 'filesize': '65536)' is read as fio 3.33 reads it, …`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.job {
            Some(job) => write!(f, "job '{job}' ({}): ", self.place)?,
            None => write!(f, "{}: ", self.place)?,
        }
        if let Some(option) = &self.option {
            write!(f, "option '{option}': ")?;
        }
        f.write_str(&self.text)
    }
}
