//! Typed keys to the option table: a job's options are read by a constant of the right type,
//! never by a string.
//!
//! [`names`] holds one [`Key`] per supported option, generated from the option table (a
//! test fails when it is stale), so a misspelt option name does not compile and a key reads
//! the value shape its option's [`Kind`] parses to. [`JobSpec::get`] gives the effective value
//! or the table's default, [`JobSpec::given`] only a value the user wrote.
//!
//! The type of each key follows its kind: flags and booleans read `bool`, sizes and
//! non-negative numbers `u64`, numbers that may be negative `i64`, times
//! [`std::time::Duration`], enums a [`Choice`], per-direction values an array of three
//! (reads, writes, trims) with `None` where the direction keeps its default.

use crate::table::{self, Kind, OptionDef, Support};
use crate::value::distribution::Distribution;
use crate::value::{SizeOrPercent, SplitEntry, Value};
use crate::JobSpec;
use std::fmt::Write as _;
use std::marker::PhantomData;
use std::time::Duration;

pub mod names;
pub use names::*;

/// A typed handle on one option of the table: its canonical name and the type its values
/// read as.
#[derive(Debug)]
pub struct Key<T> {
    /// The option's canonical name in the table.
    pub name: &'static str,
    shape: PhantomData<fn() -> T>,
}

impl<T> Clone for Key<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Key<T> {}

impl<T> Key<T> {
    /// The key of the option called `name` (only [`names`] makes keys).
    const fn new(name: &'static str) -> Self {
        Key { name, shape: PhantomData }
    }
}

/// An enum option's value: the canonical choice and what followed a `:`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    /// The canonical choice name (`randread`).
    pub name: &'static str,
    /// The `:` argument as written (`8` in `randread:8`).
    pub arg: Option<String>,
}

impl std::fmt::Display for Choice {
    /// The choice as fio's option text writes it: `randread`, `randread:8`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.arg {
            Some(arg) => write!(f, "{}:{arg}", self.name),
            None => f.write_str(self.name),
        }
    }
}

/// A set of enum values with an optional count (`sync_file_range=wait_before,write:8`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChoiceSet {
    /// The canonical names, in the order written, without repeats.
    pub names: Vec<&'static str>,
    /// The number after `:`.
    pub count: Option<u64>,
}

/// A value type that a key can read: how it comes out of a parsed [`Value`].
pub trait FromValue: Sized {
    /// The value as this type; `None` for a value of another shape (which the table's
    /// kinds rule out, see the tests).
    fn from_value(value: Value) -> Option<Self>;
}

impl FromValue for bool {
    fn from_value(value: Value) -> Option<Self> {
        match value {
            Value::Bool(b) => Some(b),
            _ => None,
        }
    }
}

impl FromValue for u64 {
    fn from_value(value: Value) -> Option<Self> {
        match value {
            Value::Int(n) => u64::try_from(n).ok(),
            Value::Size(n) => Some(n),
            _ => None,
        }
    }
}

impl FromValue for i64 {
    fn from_value(value: Value) -> Option<Self> {
        match value {
            Value::Int(n) => Some(n),
            _ => None,
        }
    }
}

impl FromValue for f64 {
    fn from_value(value: Value) -> Option<Self> {
        match value {
            Value::Float(n) => Some(n),
            _ => None,
        }
    }
}

impl FromValue for String {
    fn from_value(value: Value) -> Option<Self> {
        match value {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }
}

impl FromValue for Vec<String> {
    fn from_value(value: Value) -> Option<Self> {
        match value {
            Value::Files(f) => Some(f),
            _ => None,
        }
    }
}

impl FromValue for Choice {
    fn from_value(value: Value) -> Option<Self> {
        match value {
            Value::Choice { name, arg } => Some(Choice { name, arg }),
            _ => None,
        }
    }
}

impl FromValue for ChoiceSet {
    fn from_value(value: Value) -> Option<Self> {
        match value {
            Value::ChoiceSet { names, count } => Some(ChoiceSet { names, count }),
            _ => None,
        }
    }
}

impl FromValue for SizeOrPercent {
    fn from_value(value: Value) -> Option<Self> {
        match value {
            Value::SizeOrPercent(v) => Some(v),
            _ => None,
        }
    }
}

impl FromValue for Duration {
    fn from_value(value: Value) -> Option<Self> {
        match value {
            Value::Time(d) => Some(d),
            _ => None,
        }
    }
}

impl FromValue for (Duration, Duration) {
    fn from_value(value: Value) -> Option<Self> {
        match value {
            Value::TimeRange(a, b) => Some((a, b)),
            _ => None,
        }
    }
}

impl FromValue for [Option<u64>; 3] {
    fn from_value(value: Value) -> Option<Self> {
        match value {
            Value::SizePerDir(v) => Some(v),
            _ => None,
        }
    }
}

impl FromValue for [Option<i64>; 3] {
    fn from_value(value: Value) -> Option<Self> {
        match value {
            Value::IntPerDir(v) => Some(v),
            _ => None,
        }
    }
}

impl FromValue for [Option<(u64, u64)>; 3] {
    fn from_value(value: Value) -> Option<Self> {
        match value {
            Value::RangePerDir(v) => Some(v),
            _ => None,
        }
    }
}

impl FromValue for [Option<Vec<SplitEntry>>; 3] {
    fn from_value(value: Value) -> Option<Self> {
        match value {
            Value::BsSplit(v) => Some(v),
            _ => None,
        }
    }
}

impl FromValue for [Option<Distribution>; 3] {
    fn from_value(value: Value) -> Option<Self> {
        match value {
            Value::Distribution(v) => Some(v),
            _ => None,
        }
    }
}

impl FromValue for Vec<f64> {
    fn from_value(value: Value) -> Option<Self> {
        match value {
            Value::Floats(v) => Some(v),
            _ => None,
        }
    }
}

impl FromValue for Vec<u32> {
    fn from_value(value: Value) -> Option<Self> {
        match value {
            Value::Cpus(v) => Some(v),
            _ => None,
        }
    }
}

impl JobSpec {
    /// The effective value of `key`'s option, or the table's default when it was never
    /// assigned; `None` when it has neither.
    pub fn get<T: FromValue>(&self, key: Key<T>) -> Option<T> {
        self.value_or_default(key.name).and_then(T::from_value)
    }

    /// The value of `key`'s option if the job assigned it (the default does not count).
    pub fn given<T: FromValue>(&self, key: Key<T>) -> Option<T> {
        self.value(key.name).and_then(T::from_value)
    }

    /// Whether the job assigned `key`'s option.
    pub fn is_set<T>(&self, key: Key<T>) -> bool {
        self.settings.iter().any(|s| s.def.name == key.name)
    }

    /// A flag or boolean option: its value or default, false when it has neither.
    pub fn flag(&self, key: Key<bool>) -> bool {
        self.get(key).unwrap_or(false)
    }

    /// Whether option `a` was assigned after option `b` (or `b` never was): the later of
    /// two options that set the same thing wins (`direct` and `buffered`).
    pub fn set_after<A, B>(&self, a: Key<A>, b: Key<B>) -> bool {
        let pos = |n: &str| self.settings.iter().rposition(|s| s.def.name == n);
        match (pos(a.name), pos(b.name)) {
            (Some(pa), Some(pb)) => pa > pb,
            (Some(_), None) => true,
            _ => false,
        }
    }
}

/// The Rust type a key of `kind` reads as (see the module's opening).
fn type_of(kind: &Kind) -> &'static str {
    match kind {
        Kind::Str => "String",
        Kind::FileList => "Vec<String>",
        Kind::Enum(_) => "Choice",
        Kind::Bool | Kind::Flag => "bool",
        Kind::Int { min, .. } if *min >= 0 => "u64",
        Kind::Int { .. } => "i64",
        Kind::Float { .. } => "f64",
        Kind::Size => "u64",
        Kind::SizeOrPercent => "SizeOrPercent",
        Kind::Time { .. } => "Duration",
        Kind::TimeRange { .. } => "(Duration, Duration)",
        Kind::SizePerDir => "[Option<u64>; 3]",
        Kind::IntPerDir => "[Option<i64>; 3]",
        Kind::RangePerDir | Kind::SizeRange => "[Option<(u64, u64)>; 3]",
        Kind::BsSplit => "[Option<Vec<SplitEntry>>; 3]",
        Kind::FloatList | Kind::Floats => "Vec<f64>",
        Kind::CpuList => "Vec<u32>",
        Kind::Distribution(_) => "[Option<Distribution>; 3]",
        Kind::ChoiceSet(_) => "ChoiceSet",
    }
}

/// The supported options, each once, in table order.
fn supported() -> Vec<&'static OptionDef> {
    let mut out: Vec<&'static OptionDef> = Vec::new();
    for def in table::all().iter().filter(|d| d.support == Support::Yes) {
        if !out.iter().any(|d| d.name == def.name) {
            out.push(def);
        }
    }
    out
}

/// The constant's name of the option called `name` (`io_size` → `IO_SIZE`).
fn const_name(name: &str) -> String {
    name.to_ascii_uppercase().replace('-', "_")
}

/// The text of `names.rs`: one key per supported option.
pub fn names_rs() -> String {
    let mut out = String::from(
        "//! One typed key per supported option, generated from the option table by `cargo \
         test`; do\n//! not edit. After changing the table, rewrite it with\n//! \
         `IOMARK_BLESS=1 cargo test -p iomark-options keys_names_rs_is_fresh`.\n\n\
         use super::{Choice, ChoiceSet, Key};\n\
         use crate::value::distribution::Distribution;\n\
         use crate::value::{SizeOrPercent, SplitEntry};\n\
         use std::time::Duration;\n",
    );
    for def in supported() {
        let help = def.help.replace('`', "'").replace('[', "\\[").replace(']', "\\]");
        let _ = write!(
            out,
            "\n/// `{}`: {}\npub const {}: Key<{}> = Key::new(\"{}\");\n",
            def.name,
            help,
            const_name(def.name),
            type_of(&def.kind),
            def.name
        );
    }
    out
}

#[cfg(test)]
mod tests;
