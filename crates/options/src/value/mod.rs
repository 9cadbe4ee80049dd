//! The value grammar: how fio reads the text after `=`.
//!
//! Every parser here is a pure function of the text and a [`Ctx`] (which carries the
//! job's `kb_base`), and each matches fio 3.33 for its case. [`parse`] picks the parser for an
//! option's [`Kind`]. Keyword substitution (`$ncpus`, `$pagesize`, `$mb_memory`, `${ENV}`)
//! and fio's small calculator happen before, on the whole line, in [`subst`].
//!
//! These parsers read well-formed values. Where fio 3.33 reads only the leading part of a
//! malformed value and runs (it ignores unknown trailing text: `4kx` is 4096, `1.5k` is 1,
//! `runtime=2sec` is 2 µs), [`lenient`] reads it as fio does and notes what it ignored, and
//! `--warnings-fatal` turns the note into the strict parser's refusal.
//! Where iomark accepts more than the Debian build of fio 3.33, it is the arithmetic in
//! parentheses that fio's HOWTO documents ([`expr`]).

pub mod bc;
pub mod bssplit;
pub mod canonical;
pub mod cmdprio;
pub mod distribution;
pub mod errors;
pub mod expr;
pub mod latency;
pub mod lenient;
pub mod lists;
pub mod number;
pub mod scalar;
pub mod size;
pub mod steady;
pub mod subst;
pub mod time;

use crate::kind::Kind;
pub use crate::kind::TimeUnit;
pub use lenient::{read, Leniency};
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
    /// Sizes per direction: reads, writes, trims.
    ///
    /// The arrays of the per-direction variants hold fio's *effective* value for each
    /// direction, so callers need no rule of their own: a single value is copied to all
    /// three (`bs=4k`), with two values trims take the write value (`bs=4k,64k` is 4k, 64k,
    /// 64k). `None` means the option's default applies to that direction: a blank entry
    /// (`bs=,8k` gives `[None, Some(8k), Some(8k)]`, `bs=4k,,8k` gives
    /// `[Some(4k), None, Some(8k)]`, `bs=4k,` gives `[Some(4k), None, None]`). See
    /// [`lists`] for the full table.
    SizePerDir([Option<u64>; 3]),
    /// Whole numbers per direction: reads, writes, trims; as [`Value::SizePerDir`].
    IntPerDir([Option<i64>; 3]),
    /// Size ranges `(min, max)` per direction: reads, writes, trims; as
    /// [`Value::SizePerDir`].
    RangePerDir([Option<(u64, u64)>; 3]),
    /// Block-size splits per direction: reads, writes, trims; as [`Value::SizePerDir`].
    BsSplit([Option<Vec<SplitEntry>>; 3]),
    /// Floating point numbers.
    Floats(Vec<f64>),
    /// CPU numbers, sorted, without duplicates.
    Cpus(Vec<u32>),
    /// Random offset distributions per direction: reads, writes, trims; as
    /// [`Value::SizePerDir`].
    Distribution([Option<distribution::Distribution>; 3]),
    /// A set of enum values and the count after `:`, if one was given
    /// (`sync_file_range=wait_before,write:8`).
    ChoiceSet {
        /// The canonical names, in the order written, without repeats.
        names: Vec<&'static str>,
        /// The number after `:`.
        count: Option<u64>,
    },
}

/// A size given either in bytes or as a share of the target.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SizeOrPercent {
    /// Bytes.
    Bytes(u64),
    /// Percent of the file or device, `0 <= p <= 100`, possibly fractional. fio 3.33 accepts
    /// `0%`: as `offset` it means 0, as `size` it leaves the size unset (the whole file).
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
    /// A value that fio 3.33 would silently misread, refused with the reason:
    /// `invalid time '5sec': units are d, h, m, s, …`.
    #[error("invalid {what} '{value}': {why}")]
    Explained {
        /// What was expected: `time`, `size`, `boolean`, …
        what: &'static str,
        /// The value as written.
        value: String,
        /// Why it is refused, and what to write instead.
        why: String,
    },
    /// The option needs a value and none was given.
    #[error("missing value")]
    Missing,
}

/// Parses `raw` as a value of `kind`.
///
/// `raw` is the text after `=`, after keyword substitution ([`subst::substitute`]); an
/// empty `raw` stands for an option written without `=`, which only [`Kind::Flag`] and
/// [`Kind::Str`] accept.
pub fn parse(kind: &Kind, raw: &str, ctx: &Ctx) -> Result<Value, ValueError> {
    let needs_value = !matches!(kind, Kind::Flag | Kind::Str);
    if needs_value && raw.trim().is_empty() {
        return Err(ValueError::Missing);
    }
    Ok(match *kind {
        Kind::Str => Value::Str(raw.to_string()),
        Kind::FileList => Value::Files(lists::parse_file_list(raw)),
        Kind::Enum(choices) => scalar::parse_choice(raw, choices, ctx)?,
        Kind::Bool => Value::Bool(scalar::parse_bool(raw)?),
        Kind::Flag => Value::Bool(scalar::parse_flag(raw)?),
        Kind::Int { min, max } => Value::Int(size::parse_int(raw, min, max, ctx)?),
        Kind::Float { min, max } => Value::Float(size::parse_float(raw, min, max)?),
        Kind::Size => Value::Size(size::parse_size(raw, ctx)?),
        Kind::SizeOrPercent => Value::SizeOrPercent(size::parse_size_or_percent(raw, ctx)?),
        Kind::Time { unit } => Value::Time(time::parse_time(raw, unit)?),
        Kind::TimeRange { unit } => {
            let (lo, hi) = time::parse_time_range(raw, unit)?;
            Value::TimeRange(lo, hi)
        }
        Kind::SizePerDir => {
            Value::SizePerDir(lists::per_dir(raw, b",:", |f| size::parse_size(f, ctx))?)
        }
        Kind::IntPerDir => {
            Value::IntPerDir(lists::per_dir(raw, b",:", |f| size::parse_int(f, 0, i64::MAX, ctx))?)
        }
        Kind::RangePerDir => {
            Value::RangePerDir(lists::per_dir(raw, b",", |f| lists::size_range(f, ctx))?)
        }
        Kind::SizeRange => {
            let range = match lists::size_range(raw, ctx) {
                Err(ValueError::Range(_)) => {
                    let n = size::parse_size(raw, ctx)?;
                    (n, n)
                }
                r => r?,
            };
            Value::RangePerDir([Some(range), None, None])
        }
        Kind::BsSplit => Value::BsSplit(bssplit::parse_bssplit(raw, ctx)?),
        Kind::FloatList => Value::Floats(lists::parse_float_list(raw)?),
        Kind::Floats => Value::Floats(lists::parse_floats(raw)?),
        Kind::CpuList => Value::Cpus(lists::parse_cpu_list(raw)?),
        Kind::Distribution(_) => Value::Distribution(distribution::parse_distribution(raw, ctx)?),
        Kind::ChoiceSet(choices) => scalar::parse_choice_set(raw, choices)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kind::{Choice, ChoiceArg};
    use proptest::prelude::*;

    const CHOICES: &[Choice] = &[Choice { name: "read", help: "", arg: ChoiceArg::OptionalSize }];

    fn kinds() -> Vec<Kind> {
        vec![
            Kind::Str,
            Kind::FileList,
            Kind::Enum(CHOICES),
            Kind::Bool,
            Kind::Flag,
            Kind::Int { min: -20, max: 100 },
            Kind::Float { min: 0.0, max: 100.0 },
            Kind::Size,
            Kind::SizeOrPercent,
            Kind::Time { unit: TimeUnit::Seconds },
            Kind::TimeRange { unit: TimeUnit::Millis },
            Kind::SizePerDir,
            Kind::IntPerDir,
            Kind::RangePerDir,
            Kind::BsSplit,
            Kind::FloatList,
            Kind::Floats,
            Kind::CpuList,
        ]
    }

    #[test]
    fn dispatch_examples() {
        let ctx = Ctx::default();
        assert_eq!(parse(&Kind::Size, "4k", &ctx), Ok(Value::Size(4096)));
        assert_eq!(parse(&Kind::Flag, "", &ctx), Ok(Value::Bool(true)));
        assert_eq!(parse(&Kind::Bool, "", &ctx), Err(ValueError::Missing));
        assert_eq!(parse(&Kind::Str, "", &ctx), Ok(Value::Str(String::new())));
        assert_eq!(
            parse(&Kind::Time { unit: TimeUnit::Seconds }, "1m", &ctx),
            Ok(Value::Time(Duration::from_secs(60)))
        );
        assert_eq!(
            parse(&Kind::IntPerDir, "5:6", &ctx),
            Ok(Value::IntPerDir([Some(5), Some(6), Some(6)]))
        );
        assert_eq!(
            parse(&Kind::RangePerDir, "1k-4k,,2k:3k", &ctx),
            Ok(Value::RangePerDir([Some((1024, 4096)), None, Some((2048, 3072))]))
        );
        assert_eq!(
            ValueError::Size("4kx".into()).to_string(),
            "invalid size '4kx'",
            "messages name the value"
        );
    }

    proptest! {
        #[test]
        fn no_input_panics(raw in ".{0,64}", kb in prop_oneof![Just(1000u32), Just(1024u32)]) {
            let ctx = Ctx { kb_base: kb };
            for kind in kinds() {
                let _ = parse(&kind, &raw, &ctx);
            }
            let kw = subst::Keywords { ncpus: 2, pagesize: 4096, mb_memory: u64::MAX };
            let _ = subst::substitute(&raw, &kw, &|_| Some("$ncpus*".to_string()));
        }

        #[test]
        fn no_expression_panics(raw in "[-+*/%^()0-9.kmsx $a-z]{0,48}") {
            let ctx = Ctx::default();
            for kind in kinds() {
                let _ = parse(&kind, &format!("({raw})"), &ctx);
            }
            let _ = bc::calculate(&raw);
        }
    }
}
