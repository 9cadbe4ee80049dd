//! The errors of planning: a job's option that cannot run ([`OptionError`]) and, with the
//! job named, what the plan reports ([`PlanError`]). Messages keep the wording of every
//! earlier iomark: `job 'NAME': option 'OPTION': what is wrong`.

use iomark_options::keys::Key;
use std::fmt::Display;

/// A configuration that cannot run: the job, the option at fault (when one is) and what is
/// wrong (its text names the option too).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("job '{job}': {message}")]
pub struct PlanError {
    /// The job's name.
    pub job: String,
    /// The option at fault, by its name in the option table, when one is.
    pub option: Option<&'static str>,
    /// What is wrong, naming the option.
    pub message: String,
}

/// What is wrong with a job's options, before the job is named.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptionError {
    /// The option at fault, by its name in the option table, when one is.
    pub option: Option<&'static str>,
    /// What is wrong, naming the option.
    pub message: String,
}

impl OptionError {
    /// `option 'NAME': WHY`, for the option of `key`.
    pub fn new<T>(key: Key<T>, why: impl Display) -> OptionError {
        OptionError { option: Some(key.name), message: format!("option '{}': {why}", key.name) }
    }

    /// A message of its own wording that concerns the option of `key`.
    pub fn about<T>(key: Key<T>, message: impl Into<String>) -> OptionError {
        OptionError { option: Some(key.name), message: message.into() }
    }

    /// A message that names no single option (or names it in a way of its own).
    pub fn other(message: impl Into<String>) -> OptionError {
        OptionError { option: None, message: message.into() }
    }

    /// The error of job `job`.
    pub fn in_job(self, job: &str) -> PlanError {
        PlanError { job: job.to_string(), option: self.option, message: self.message }
    }
}

impl Display for OptionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}
