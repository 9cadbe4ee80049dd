//! Typed reads of a job's option values, with the table's defaults.
//!
//! The option table guarantees each option's value kind, so a value of another shape can only
//! mean a bug; such a read falls back to the default rather than panicking.

use iomark_options::value::{SizeOrPercent, Value};
use iomark_options::JobSpec;
use std::time::Duration;

/// A boolean or flag option.
pub(crate) fn flag(spec: &JobSpec, name: &str) -> bool {
    matches!(spec.value_or_default(name), Some(Value::Bool(true)))
}

/// A whole-number option (`Int` or `Size` kinds).
pub(crate) fn int(spec: &JobSpec, name: &str) -> Option<u64> {
    match spec.value_or_default(name)? {
        Value::Int(n) => u64::try_from(n).ok(),
        Value::Size(n) => Some(n),
        Value::Choice { name, .. } => name.parse().ok(),
        _ => None,
    }
}

/// A text option.
pub(crate) fn text(spec: &JobSpec, name: &str) -> Option<String> {
    match spec.value_or_default(name)? {
        Value::Str(s) => Some(s),
        Value::Choice { name, .. } => Some(name.to_string()),
        _ => None,
    }
}

/// An enum option's choice and its `:` argument.
pub(crate) fn choice(spec: &JobSpec, name: &str) -> Option<(&'static str, Option<String>)> {
    match spec.value_or_default(name)? {
        Value::Choice { name, arg } => Some((name, arg)),
        _ => None,
    }
}

/// A size-or-percentage option.
pub(crate) fn size_or_percent(spec: &JobSpec, name: &str) -> Option<SizeOrPercent> {
    match spec.value_or_default(name)? {
        Value::SizeOrPercent(v) => Some(v),
        Value::Size(n) => Some(SizeOrPercent::Bytes(n)),
        _ => None,
    }
}

/// A time option.
pub(crate) fn time(spec: &JobSpec, name: &str) -> Option<Duration> {
    match spec.value_or_default(name)? {
        Value::Time(d) => Some(d),
        Value::TimeRange(a, _) => Some(a),
        _ => None,
    }
}

/// A per-direction size option, with `default` for directions never given.
pub(crate) fn sizes(spec: &JobSpec, name: &str, default: [u64; 3]) -> [u64; 3] {
    let mut out = default;
    if let Some(Value::SizePerDir(v)) = spec.value_or_default(name) {
        for (slot, given) in out.iter_mut().zip(v) {
            if let Some(g) = given {
                *slot = g;
            }
        }
    }
    out
}

/// The file names of a `:`-separated list option.
pub(crate) fn files(spec: &JobSpec, name: &str) -> Vec<String> {
    match spec.value(name) {
        Some(Value::Files(f)) => f,
        Some(Value::Str(s)) => vec![s],
        _ => Vec::new(),
    }
}

/// The one job of a command line `--name=j --ARG…` (for tests); `Err` for a bad value.
#[cfg(test)]
pub(crate) fn test_spec(args: &[&str]) -> Result<JobSpec, String> {
    let mut argv = vec!["--name=j".to_string()];
    argv.extend(args.iter().map(|a| format!("--{a}")));
    let cmd = iomark_options::cmdline::parse(argv).map_err(|e| e.to_string())?;
    let sources = iomark_options::assemble::Sources { cli_jobs: cmd.jobs, ..Default::default() };
    let mut specs = iomark_options::assemble::build(&sources).map_err(|e| e.to_string())?;
    Ok(specs.remove(0))
}
