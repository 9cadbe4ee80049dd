//! Durations (`runtime=1m`, `thinktime=500`) and duration ranges (`startdelay=1s-5s`).
//!
//! fio 3.33 accepts, in any case: `d`, `h`, `m` (minutes), `s`, `ms`/`msec` and
//! `us`/`usec`; a number without a suffix is in the option's default unit (`runtime=5` is
//! 5 s, `thinktime=5` is 5 µs). Space between number and suffix is allowed (`5 s`).
//!
//! Where fio 3.33 silently misreads, iomark refuses with a message instead:
//! - any other suffix, including `sec`, `min`, `ns`, `hr` and `5sx`: fio drops the suffix
//!   *and the default unit* and reads the number as microseconds (`runtime=2sec` runs for
//!   2 µs although the HOWTO documents `sec`);
//! - hexadecimal (`0x10` is 16 µs in fio whatever the default unit);
//! - a fraction followed by a unit (`1.5ms` is 1 *second* in fio); a fraction without a
//!   unit is truncated, as fio does (`runtime=1.5` is 1 s);
//! - in a range, fio reads a one-letter unit of the lower end as microseconds
//!   (`startdelay=1s-5s` is 1 µs to 5 s); iomark reads each end on its own (1 s to 5 s).
//!
//! A value wholly in parentheses is an arithmetic expression (iomark superset, see
//! [`super::expr`]) in which numbers without a unit are microseconds, as fio's HOWTO says.

use super::expr;
use super::number::scan;
use super::{TimeUnit, ValueError};
use std::time::Duration;

/// Microseconds per default unit.
fn default_micros(unit: TimeUnit) -> u64 {
    match unit {
        TimeUnit::Seconds => 1_000_000,
        TimeUnit::Millis => 1_000,
        TimeUnit::Micros => 1,
    }
}

/// Microseconds per unit suffix, or `None` for a suffix fio 3.33 does not honour.
fn suffix_micros(suffix: &str) -> Option<u64> {
    Some(match suffix.to_ascii_lowercase().as_str() {
        "us" | "usec" => 1,
        "ms" | "msec" => 1_000,
        "s" => 1_000_000,
        "m" => 60_000_000,
        "h" => 3_600_000_000,
        "d" => 86_400_000_000,
        _ => return None,
    })
}

/// Parses a duration; a bare number is in `unit`.
pub fn parse_time(raw: &str, unit: TimeUnit) -> Result<Duration, ValueError> {
    let err = |why: &str| ValueError::Explained {
        what: "time",
        value: raw.to_string(),
        why: why.to_string(),
    };
    let text = raw.trim();
    if expr::is_expr(text) {
        let micros = |s: &str| if s.is_empty() { Some(1) } else { suffix_micros(s) };
        let value = expr::eval(text, &micros)
            .map_err(|why| super::size::expr_error(raw, why))?
            .truncate()
            .and_then(|v| u64::try_from(v).ok())
            .ok_or_else(|| ValueError::Time(raw.to_string()))?;
        return Ok(Duration::from_micros(value));
    }
    let body = text.strip_prefix('+').unwrap_or(text);
    let lit = scan(body).ok_or_else(|| ValueError::Time(raw.to_string()))?;
    if lit.hex {
        return Err(err("hexadecimal is not accepted for times"));
    }
    let suffix = lit.suffix.trim_start();
    let micros = if suffix.is_empty() {
        default_micros(unit)
    } else if lit.fraction {
        return Err(err("a fraction cannot carry a unit; fio would drop the unit"));
    } else {
        suffix_micros(suffix).ok_or_else(|| {
            err("units are d, h, m, s, ms/msec, us/usec; fio 3.33 reads others as microseconds")
        })?
    };
    lit.value
        .and_then(|v| v.checked_mul(micros))
        .map(Duration::from_micros)
        .ok_or_else(|| ValueError::Time(raw.to_string()))
}

/// Parses a duration or a range of durations (`1s-5s`, `1:5`); the ends are swapped when
/// the lower is larger, as fio does, and a single duration gives equal ends.
pub fn parse_time_range(raw: &str, unit: TimeUnit) -> Result<(Duration, Duration), ValueError> {
    let parts = super::lists::split_outside_parens(raw.trim(), b"-:");
    match parts.as_slice() {
        [one] => parse_time(one, unit).map(|d| (d, d)),
        [lo, hi] => {
            let (lo, hi) = (parse_time(lo, unit)?, parse_time(hi, unit)?);
            Ok((lo.min(hi), lo.max(hi)))
        }
        _ => Err(ValueError::Range(raw.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(raw: &str) -> Result<Duration, ValueError> {
        parse_time(raw, TimeUnit::Seconds)
    }

    #[test]
    fn bare_number_is_in_the_default_unit() {
        assert_eq!(secs("5"), Ok(Duration::from_secs(5)));
        assert_eq!(parse_time("5", TimeUnit::Millis), Ok(Duration::from_millis(5)));
        assert_eq!(parse_time("5", TimeUnit::Micros), Ok(Duration::from_micros(5)));
        assert_eq!(secs("0"), Ok(Duration::ZERO));
        assert_eq!(secs("010"), Ok(Duration::from_secs(10)));
    }

    #[test]
    fn every_unit_in_any_case() {
        assert_eq!(secs("5s"), Ok(Duration::from_secs(5)));
        assert_eq!(secs("5S"), Ok(Duration::from_secs(5)));
        assert_eq!(secs("1m"), Ok(Duration::from_secs(60)));
        assert_eq!(secs("5M"), Ok(Duration::from_secs(300)));
        assert_eq!(secs("1h"), Ok(Duration::from_secs(3600)));
        assert_eq!(secs("1D"), Ok(Duration::from_secs(86400)));
        assert_eq!(secs("100ms"), Ok(Duration::from_millis(100)));
        assert_eq!(secs("5MSEC"), Ok(Duration::from_millis(5)));
        assert_eq!(secs("5us"), Ok(Duration::from_micros(5)));
        assert_eq!(secs("5Usec"), Ok(Duration::from_micros(5)));
        assert_eq!(parse_time("5s", TimeUnit::Micros), Ok(Duration::from_secs(5)));
    }

    #[test]
    fn space_before_the_unit() {
        assert_eq!(secs("5 s"), Ok(Duration::from_secs(5)));
        assert_eq!(secs(" 5s "), Ok(Duration::from_secs(5)));
    }

    #[test]
    fn fraction_without_unit_truncates() {
        assert_eq!(secs("1.5"), Ok(Duration::from_secs(1)));
        assert_eq!(secs("1.0"), Ok(Duration::from_secs(1)));
    }

    #[test]
    fn refuses_what_fio_misreads() {
        for bad in ["5sec", "5min", "5ns", "1hr", "5sx", "5msx", "1k", "0x10", "1.5ms", "1m30s"] {
            assert!(matches!(secs(bad), Err(ValueError::Explained { .. })), "{bad}");
        }
        for bad in ["", "s", "-1", "1e3", "x"] {
            assert!(secs(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn overflow_is_an_error() {
        assert!(secs("99999999999999999").is_err());
        assert!(secs("18446744073709551615").is_err());
    }

    #[test]
    fn expression_is_in_microseconds() {
        assert_eq!(secs("(2*3)"), Ok(Duration::from_micros(6)));
        assert_eq!(secs("(2s*3)"), Ok(Duration::from_secs(6)));
        assert_eq!(secs("(1m+30s)"), Ok(Duration::from_secs(90)));
        assert!(secs("(1s-2s)").is_err());
        assert!(secs("(2*3").is_err());
    }

    #[test]
    fn ranges() {
        let r = |raw| parse_time_range(raw, TimeUnit::Seconds);
        let s = Duration::from_secs;
        assert_eq!(r("5"), Ok((s(5), s(5))));
        assert_eq!(r("1-5"), Ok((s(1), s(5))));
        assert_eq!(r("1s-5s"), Ok((s(1), s(5))));
        assert_eq!(r("1:5"), Ok((s(1), s(5))));
        assert_eq!(r("5-1"), Ok((s(1), s(5))));
        assert_eq!(r("1ms-2s"), Ok((Duration::from_millis(1), s(2))));
        assert_eq!(r("(1s*2)-(3s)"), Ok((s(2), s(3))));
        for bad in ["1s-", "-5", "1-2-3", ""] {
            assert!(r(bad).is_err(), "{bad}");
        }
    }
}
