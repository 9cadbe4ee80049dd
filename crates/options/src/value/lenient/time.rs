//! How fio 3.33 reads a time that has more after it, learned from its `--debug=parse`
//! output (see `crates/options/tests/fio_compat/leniency.rs`).
//!
//! The number is read as [`super::number`] reads one without a unit (a value holding `0x`
//! is hexadecimal, and then in microseconds whatever the option's unit). What follows the
//! digits decides the unit:
//!
//! - nothing, or text without a letter (`1-2`), or text starting with a blank or a `.`
//!   (`5 ms`, `1.5ms`), or anything after a value that starts with a blank (` 2ms`): the
//!   option's own unit (`runtime=5 ms` is 5 *seconds*);
//! - `us`, `usec`, `ms`, `msec` at its start, in any case, whatever follows (`2msecx` is
//!   2 ms);
//! - exactly `s`, `m`, `h` or `d`, in any case;
//! - anything else: microseconds, the number as it stands (`runtime=2sec` is 2 µs,
//!   `10sx` 10 µs, `1m30s` 1 µs).

use super::number::{self, is_c_space, nothing_lost};
use crate::value::TimeUnit;

/// What fio 3.33 makes of a time: microseconds, and what it ignores.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TimeReading<'a> {
    /// The time in microseconds.
    pub micros: u64,
    /// The text fio ignores.
    pub ignored: &'a str,
    /// Why the reading is not the plain one, when the ignored text alone does not say it.
    pub why: Option<&'static str>,
}

/// Reads `text` as fio 3.33 reads a time whose bare numbers are in `unit`; `None` where fio
/// refuses it, and for negative times (fio's meaning of those differs from option to
/// option).
pub(crate) fn read(text: &str, unit: TimeUnit) -> Option<TimeReading<'_>> {
    let reading = number::read_plain(text)?;
    let value = u64::try_from(reading.value).ok()?;
    let rest = reading.rest;
    if reading.hex {
        // Hexadecimal: microseconds, nothing else read.
        let why = reading.why.or(Some("a hexadecimal time is in microseconds"));
        return Some(TimeReading { micros: value, ignored: rest, why });
    }
    let default = match unit {
        TimeUnit::Seconds => 1_000_000,
        TimeUnit::Millis => 1_000,
        TimeUnit::Micros => 1,
    };
    let lower = rest.trim_end_matches(is_c_space).to_ascii_lowercase();
    let (micros, used, why) = if !lower.bytes().any(|b| b.is_ascii_alphabetic())
        || rest.starts_with(|c: char| is_c_space(c) || c == '.')
        || text.starts_with(is_c_space)
    {
        let why = (!nothing_lost(rest) && lower.bytes().any(|b| b.is_ascii_alphabetic()))
            .then_some("the option's own unit counts after a blank or a fraction");
        (default, 0, why)
    } else if let Some(len) = ["usec", "us"].iter().find(|u| lower.starts_with(*u)).map(|u| u.len())
    {
        (1, len, None)
    } else if let Some(len) = ["msec", "ms"].iter().find(|u| lower.starts_with(*u)).map(|u| u.len())
    {
        (1_000, len, None)
    } else {
        match lower.as_str() {
            "s" => (1_000_000, 1, None),
            "m" => (60_000_000, 1, None),
            "h" => (3_600_000_000, 1, None),
            "d" => (86_400_000_000, 1, None),
            _ => (1, 0, Some("a time with an unknown unit is in microseconds")),
        }
    };
    let micros = value.checked_mul(micros)?;
    Some(TimeReading { micros, ignored: &rest[used..], why })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(text: &str) -> Option<(u64, &str)> {
        read(text, TimeUnit::Seconds).map(|r| (r.micros, r.ignored))
    }

    #[test]
    fn fio_s_readings_of_runtime() {
        assert_eq!(secs("2sec"), Some((2, "sec")));
        assert_eq!(secs("5min"), Some((5, "min")));
        assert_eq!(secs("1.5ms"), Some((1_000_000, ".5ms")));
        assert_eq!(secs("0x10"), Some((16, "")));
        assert_eq!(secs("10sx"), Some((10, "sx")));
        assert_eq!(secs("1s)"), Some((1, "s)")));
        assert_eq!(secs("1 s"), Some((1_000_000, " s")));
        assert_eq!(secs("1m30s"), Some((1, "m30s")));
        assert_eq!(secs("5S"), Some((5_000_000, "")));
        assert_eq!(secs("1e3"), Some((1, "e3")));
        assert_eq!(secs("100x"), Some((256, "x")));
        assert_eq!(secs("1.5"), Some((1_000_000, ".5")));
        assert_eq!(secs("2usx"), Some((2, "x")));
        assert_eq!(secs("2msecx"), Some((2_000, "x")));
        assert_eq!(secs("2mx"), Some((2, "mx")));
        assert_eq!(secs("1-2-3"), Some((1_000_000, "-2-3")));
        assert_eq!(secs("1-5x"), Some((1, "-5x")));
        assert_eq!(secs(" 2s"), Some((2_000_000, "s")));
        assert_eq!(secs("-1"), None);
        assert_eq!(secs("x"), None);
    }

    #[test]
    fn a_unit_of_the_option_s_own() {
        let micros = |t| read(t, TimeUnit::Micros).map(|r| r.micros);
        assert_eq!(micros("1.5ms"), Some(1));
        assert_eq!(micros("5 ms"), Some(5));
        assert_eq!(micros("2msx"), Some(2_000));
        assert!(read("1 s", TimeUnit::Micros).unwrap().why.is_some());
        assert!(read("1.0", TimeUnit::Micros).unwrap().why.is_none());
    }
}
