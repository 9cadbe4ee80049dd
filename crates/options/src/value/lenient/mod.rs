//! fio 3.33's leniency: values that are malformed but that fio reads the leading part of,
//! and runs. iomark runs them with fio's meaning and a note that says what fio ignores and
//! what iomark used ([`Leniency`]); `--warnings-fatal` refuses them instead.
//!
//! Every reader here was learned from fio's own output over a table of malformed values per
//! kind of value (`crates/options/tests/fio_compat/leniency.rs` keeps the table and compares it with
//! fio where fio is installed), never from its code. The strict grammar of the modules
//! above reads well-formed values; [`read`] tries the reading of fio's for the kinds it
//! knows, and reports one only when it differs from the plain reading of the text: a value
//! that the strict grammar refuses (`4kx`) or reads otherwise (` 64k`, which fio reads as
//! 64 because of the blank before it).
//!
//! Where fio's run of a malformed value is broken (shares of `bssplit` that pass 100% with
//! a blank share among them, a negative size), iomark keeps refusing, and the refusal says
//! so. The list of every leniency is in `docs/job-files.md` ("Malformed values").

mod choices;
mod lists;
pub(crate) mod number;
pub(crate) mod time;

use super::{Ctx, SizeOrPercent, Value, ValueError};
use crate::kind::{Kind, TimeUnit};
use std::fmt;
use std::time::Duration;

/// A malformed value that fio 3.33 runs, as iomark reads it (as fio does) and notes it.
#[derive(Debug, Clone, PartialEq)]
pub struct Leniency {
    /// The value as written.
    pub written: String,
    /// Each piece of text fio ignores, as written.
    pub ignored: Vec<String>,
    /// Why fio's reading is not the plain one, where the ignored text alone does not say.
    pub why: Vec<String>,
    /// The value used, as `--debug=parse` shows it.
    pub used: String,
    /// The refusal that `--warnings-fatal` gives instead.
    pub strict: ValueError,
}

impl fmt::Display for Leniency {
    /// `'65536)' is read as fio 3.33 reads it, ignoring ')'; used 65536`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}' is read as fio 3.33 reads it", self.written)?;
        if !self.ignored.is_empty() {
            let quoted: Vec<String> = self.ignored.iter().map(|t| format!("'{t}'")).collect();
            write!(f, ", ignoring {}", quoted.join(" and "))?;
        }
        if !self.why.is_empty() {
            write!(f, " ({})", self.why.join("; "))?;
        }
        write!(f, "; used {}", self.used)
    }
}

/// What a lenient reader found: fio's value, the text it ignores, and why.
#[derive(Debug, Clone, Default)]
pub(crate) struct Found {
    /// Each piece of text fio ignores.
    pub ignored: Vec<String>,
    /// Why the reading is not the plain one.
    pub why: Vec<String>,
}

impl Found {
    /// Notes `text` as ignored unless it loses nothing (blanks, a fraction of zeros).
    pub fn ignore(&mut self, text: &str) {
        if !number::nothing_lost(text) {
            self.ignored.push(text.trim_end_matches(number::is_c_space).to_string());
        }
    }

    /// Notes a reason, once.
    pub fn because(&mut self, why: impl Into<String>) {
        let why = why.into();
        if !self.why.contains(&why) {
            self.why.push(why);
        }
    }

    /// Whether fio's reading differs from the plain one.
    pub fn noteworthy(&self) -> bool {
        !self.ignored.is_empty() || !self.why.is_empty()
    }
}

/// Reads `raw` as a value of `kind`: strictly where it is well formed, as fio 3.33 does
/// (with a [`Leniency`] to note) where fio runs it although it is malformed; the strict
/// refusal otherwise.
pub fn read(kind: &Kind, raw: &str, ctx: &Ctx) -> Result<(Value, Option<Leniency>), ValueError> {
    let strict = super::parse(kind, raw, ctx);
    // fio's bug with a well-formed range of times (`1s-5s` is 1 µs to 5 s) is not followed;
    // the reading of the ends is iomark's (docs/job-files.md).
    if strict.is_ok() && matches!(kind, Kind::TimeRange { .. }) {
        return strict.map(|v| (v, None));
    }
    let Some((value, mut found)) = fio_reading(kind, raw, ctx, &strict) else {
        return strict.map(|v| (v, None));
    };
    if !found.noteworthy() {
        if strict.is_ok() {
            return strict.map(|v| (v, None));
        }
        // Nothing ignored, yet not iomark's grammar (`0x10` for a time or a fraction).
        found.because("a spelling that fio 3.33 reads");
    }
    let mut leniency = Leniency {
        written: raw.to_string(),
        ignored: found.ignored,
        why: found.why,
        used: used(kind, &value),
        strict: ValueError::Missing,
    };
    leniency.strict = match strict {
        Err(e) => e,
        Ok(_) => ValueError::Explained {
            what: "value",
            value: raw.to_string(),
            why: format!("fio 3.33 reads it otherwise than it reads: {leniency}"),
        },
    };
    Ok((value, Some(leniency)))
}

/// fio's reading of `raw`, for the kinds whose leniency is known; `None` where fio refuses
/// the value too (or reads it as the strict grammar does).
fn fio_reading(
    kind: &Kind,
    raw: &str,
    ctx: &Ctx,
    strict: &Result<Value, ValueError>,
) -> Option<(Value, Found)> {
    let mut found = Found::default();
    let value = match *kind {
        Kind::Int { min, max } => {
            let n = scalar(raw, ctx.kb_base, &mut found)?;
            let n = i64::try_from(n).ok().filter(|n| (min..=max).contains(n))?;
            Value::Int(n)
        }
        Kind::Size => Value::Size(u64::try_from(scalar(raw, ctx.kb_base, &mut found)?).ok()?),
        Kind::SizeOrPercent => {
            // A fraction of a percent (`12.5%`) is iomark's reading, which fio misreads.
            let percent = matches!(strict, Ok(Value::SizeOrPercent(SizeOrPercent::Percent(_))));
            if percent && raw.contains('.') {
                return None;
            }
            Value::SizeOrPercent(size_or_percent(raw, ctx.kb_base, &mut found)?)
        }
        Kind::Bool => Value::Bool(boolean(raw, &mut found)? != 0),
        Kind::Flag if !raw.is_empty() => {
            let n = boolean_like(raw, &mut found)?;
            if n > 1 {
                found.because("any number but 0 sets it");
            }
            Value::Bool(n != 0)
        }
        Kind::Float { min, max } => {
            let (x, rest) = number::read_float(raw)?;
            found.ignore(rest);
            if rest.starts_with(':') {
                found.because("only the first number of a list counts");
            }
            Value::Float(Some(x).filter(|x| (min..=max).contains(x))?)
        }
        Kind::Time { unit } => Value::Time(time(raw, unit, &mut found)?),
        Kind::TimeRange { unit } => {
            let (lo, hi) = lists::time_range(raw, unit, &mut found)?;
            Value::TimeRange(lo, hi)
        }
        Kind::SizePerDir => Value::SizePerDir(lists::per_dir(raw, &mut found, |piece, f| {
            u64::try_from(scalar(piece, ctx.kb_base, f)?).ok()
        })?),
        Kind::IntPerDir => Value::IntPerDir(lists::per_dir(raw, &mut found, |piece, f| {
            i64::try_from(scalar(piece, ctx.kb_base, f)?).ok().filter(|n| *n >= 0)
        })?),
        Kind::RangePerDir => Value::RangePerDir(lists::ranges(raw, ctx.kb_base, &mut found)?),
        Kind::SizeRange => {
            Value::RangePerDir([Some(lists::size_range(raw, ctx.kb_base, &mut found)?), None, None])
        }
        Kind::BsSplit if strict.is_err() => {
            Value::BsSplit(lists::bssplit(raw, ctx.kb_base, &mut found)?)
        }
        Kind::CpuList if strict.is_err() => Value::Cpus(lists::cpu_list(raw, &mut found)?),
        Kind::FloatList if strict.is_err() => Value::Floats(lists::float_list(raw, &mut found)?),
        Kind::Enum(choices) if strict.is_err() => choices::choice(raw, choices, ctx, &mut found)?,
        Kind::Distribution(_) if strict.is_err() => {
            Value::Distribution(choices::distribution(raw, ctx, &mut found)?)
        }
        Kind::ChoiceSet(choices) if strict.is_err() => {
            choices::choice_set(raw, choices, &mut found)?
        }
        _ => return None,
    };
    Some((value, found))
}

/// A number as fio reads one option's single value: the leading number and its unit, the
/// rest ignored. `None` for what fio refuses, and for a second value after `-`, `:` or `,`
/// (`4-8`) or a malformed negative number, which fio reads as two values and keeps one or
/// the other from option to option.
pub(crate) fn scalar(text: &str, kb_base: u32, found: &mut Found) -> Option<i128> {
    let reading = number::read(text, kb_base)?;
    // fio reads a `-` as a range too (`-5x` is both -5 and 5): which it keeps varies.
    let second = reading.rest.starts_with(['-', ':', ',']) || reading.value < 0;
    if reading.zones || reading.percent || second {
        return None;
    }
    found.ignore(reading.rest);
    if let Some(why) = reading.why {
        found.because(why);
    }
    Some(reading.value)
}

/// A size or a share (`10%x` is 10%), as fio reads it.
fn size_or_percent(text: &str, kb_base: u32, found: &mut Found) -> Option<SizeOrPercent> {
    let reading = number::read(text, kb_base)?;
    if reading.zones || reading.rest.starts_with(['-', ':', ',']) || reading.value < 0 {
        return None;
    }
    found.ignore(reading.rest);
    if let Some(why) = reading.why {
        found.because(why);
    }
    if reading.percent {
        let p = u32::try_from(reading.value).ok().filter(|p| *p <= 100)?;
        return Some(SizeOrPercent::Percent(f64::from(p)));
    }
    Some(SizeOrPercent::Bytes(u64::try_from(reading.value).ok()?))
}

/// A boolean: a number without a unit that must be 0 or 1 (`1k` is 1, the `k` ignored).
fn boolean(text: &str, found: &mut Found) -> Option<u64> {
    boolean_like(text, found).filter(|n| *n <= 1)
}

/// A whole number without a unit, not negative, the rest ignored.
fn boolean_like(text: &str, found: &mut Found) -> Option<u64> {
    let reading = number::read_plain(text)?;
    if reading.rest.starts_with(['-', ':', ',']) {
        return None;
    }
    found.ignore(reading.rest);
    if let Some(why) = reading.why {
        found.because(why);
    }
    u64::try_from(reading.value).ok()
}

/// A time, as fio reads it (see [`time`]).
fn time(text: &str, unit: TimeUnit, found: &mut Found) -> Option<Duration> {
    let reading = time::read(text, unit)?;
    if reading.ignored.starts_with(['-', ':', ',']) {
        return None;
    }
    found.ignore(reading.ignored);
    if let Some(why) = reading.why {
        found.because(why);
    }
    Some(Duration::from_micros(reading.micros))
}

/// Lists per direction as a note shows them: each list's entries joined with `:`, the
/// lists with `,` (`cmdprio_bssplit`, `ignore_error`).
pub(crate) fn joined_lists<T>(lists: &[Vec<T>], entry: impl Fn(&T) -> String) -> String {
    let lists: Vec<String> =
        lists.iter().map(|l| l.iter().map(&entry).collect::<Vec<_>>().join(":")).collect();
    lists.join(",")
}

/// A value as the note says iomark used it: as `--debug=parse` shows it, times with a unit,
/// a direction that repeats the one before it left out (`4096,8192` for reads 4096, writes
/// and trims 8192), one size for a `filesize` of one size.
fn used(kind: &Kind, value: &Value) -> String {
    if let (Kind::SizeRange, Value::RangePerDir([Some((lo, hi)), ..])) = (kind, value) {
        return if lo == hi { lo.to_string() } else { format!("{lo}-{hi}") };
    }
    let text = used_all(value);
    if !crate::spec::is_per_direction(kind) {
        return text;
    }
    let dirs: Vec<&str> = text.split(',').collect();
    match dirs.as_slice() {
        [a, b, c] if a == b && b == c => a.to_string(),
        [a, b, c] if b == c => format!("{a},{b}"),
        _ => text,
    }
}

/// A value as `--debug=parse` shows it, times with a unit.
fn used_all(value: &Value) -> String {
    fn duration(d: &Duration) -> String {
        let us = d.as_micros();
        match us {
            0 => "0".into(),
            _ if us % 1_000_000 == 0 => format!("{}s", us / 1_000_000),
            _ if us % 1_000 == 0 => format!("{}ms", us / 1_000),
            _ => format!("{us}us"),
        }
    }
    match value {
        Value::Time(d) => duration(d),
        Value::TimeRange(a, b) => format!("{}-{}", duration(a), duration(b)),
        other => super::canonical::canonical(other),
    }
}

#[cfg(test)]
mod tests;
