//! The one error type of parsing, and how it names the place of a mistake.
//!
//! Every refusal says where it happened (file and line, or command-line argument), which job
//! it concerns, which option and which value: `job 'rand4k' (a.fio:12): option 'bs': invalid
//! size '4kx'`. The binary prints the message and exits with code 2.

use crate::value::ValueError;
use std::fmt;
use std::path::PathBuf;

/// Where a piece of input came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    /// A line of a job file (1-based).
    File {
        /// The file as it was named (on the command line or in an `include`).
        path: PathBuf,
        /// The line number, starting at 1.
        line: usize,
    },
    /// The command line; `arg` is the 1-based index of the argument.
    CommandLine {
        /// The argument's position after the program name, starting at 1.
        arg: usize,
    },
    /// Set by iomark itself, not written by the user (the implicit `stonewall` between job
    /// files).
    Implicit,
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::File { path, line } => write!(f, "{}:{}", path.display(), line),
            Place::CommandLine { arg } => write!(f, "command line, argument {arg}"),
            Place::Implicit => f.write_str("implicit"),
        }
    }
}

/// A refused input, with everything needed to find and fix it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// Where the mistake is.
    pub place: Place,
    /// The job (section) it belongs to, if any.
    pub job: Option<String>,
    /// The option concerned, as written, if any.
    pub option: Option<String>,
    /// What is wrong.
    pub kind: ErrorKind,
}

/// What is wrong with an input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ErrorKind {
    /// The option's value does not parse; the `ValueError` names the value.
    Value(ValueError),
    /// No option has this name; the closest name, if one is close.
    UnknownOption {
        /// A near-miss option name.
        suggestion: Option<&'static str>,
    },
    /// The option is known but iomark does not act on it yet.
    NotSupported,
    /// The option takes no value on the command line but one was given, or similar misuse.
    Usage(String),
    /// An option line before any `[section]`.
    OutsideSection {
        /// The line as written.
        line: String,
    },
    /// A `[section]` header that is not well formed.
    BadSection {
        /// The header as written.
        header: String,
    },
    /// An `include` that cannot be read.
    Include {
        /// The path as written.
        path: String,
        /// Why it cannot be read.
        reason: String,
    },
    /// A job file that cannot be read.
    JobFile {
        /// Why it cannot be read.
        reason: String,
    },
    /// The input is not text (binary data, control characters).
    NotText {
        /// What was found.
        why: String,
    },
    /// `--section` names a section that no job file has.
    NoSuchSection {
        /// The section asked for.
        name: String,
    },
    /// More jobs than `--max-jobs` allows.
    TooManyJobs {
        /// The number of jobs, clones included.
        jobs: u64,
        /// The limit.
        max: u64,
    },
}

impl ParseError {
    /// An error at `place` with no job or option attached yet.
    pub fn new(place: Place, kind: ErrorKind) -> Self {
        ParseError { place, job: None, option: None, kind }
    }

    /// Attaches the job name.
    pub fn in_job(mut self, job: impl Into<String>) -> Self {
        self.job = Some(job.into());
        self
    }

    /// Attaches the option name.
    pub fn for_option(mut self, option: impl Into<String>) -> Self {
        self.option = Some(option.into());
        self
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.job {
            Some(job) => write!(f, "job '{job}' ({}): ", self.place)?,
            None => write!(f, "{}: ", self.place)?,
        }
        if let Some(option) = &self.option {
            match &self.kind {
                ErrorKind::UnknownOption { .. } | ErrorKind::NotSupported => {}
                _ => write!(f, "option '{option}': ")?,
            }
        }
        let option = self.option.as_deref().unwrap_or("");
        match &self.kind {
            ErrorKind::Value(e) => write!(f, "{e}"),
            ErrorKind::UnknownOption { suggestion: Some(s) } => {
                write!(f, "unknown option '{option}' (did you mean '{s}'?)")
            }
            ErrorKind::UnknownOption { suggestion: None } => write!(f, "unknown option '{option}'"),
            ErrorKind::NotSupported => match crate::compat::option_reason(option) {
                Some(why) => {
                    write!(f, "option '{option}' is not supported: {why} (docs/compatibility.md)")
                }
                None => write!(f, "option '{option}' is not supported yet"),
            },
            ErrorKind::Usage(msg) => f.write_str(msg),
            ErrorKind::OutsideSection { line } => {
                write!(f, "option '{line}' outside of a [job] section")
            }
            ErrorKind::BadSection { header } => write!(f, "bad section header '{header}'"),
            ErrorKind::Include { path, reason } => write!(f, "include '{path}': {reason}"),
            ErrorKind::JobFile { reason } => write!(f, "cannot read job file: {reason}"),
            ErrorKind::NotText { why } => write!(f, "not a job file: {why}"),
            ErrorKind::NoSuchSection { name } => {
                write!(f, "--section '{name}': no job file has such a section")
            }
            ErrorKind::TooManyJobs { jobs, max } => {
                write!(f, "{jobs} jobs exceed --max-jobs={max}")
            }
        }
    }
}

impl std::error::Error for ParseError {}
