//! Sizes, percentages, whole numbers and floating point numbers: the scalar numeric kinds.
//!
//! fio 3.33 reads sizes and integers alike: decimal or `0x` hexadecimal digits, then an
//! optional suffix `k`/`m`/`g`/`t`/`p` (any case) with an optional `b`, `i` or `ib`, whose
//! meaning depends on `kb_base` (see [`super::number`]). Integer options take the same
//! suffixes (`numjobs=1k` is 1024). A value wholly in parentheses is an arithmetic
//! expression (see [`super::expr`], an iomark superset).

use super::expr::{self, Num};
use super::number::{int_literal, size_literal, size_multiplier};
use super::{Ctx, SizeOrPercent, ValueError};

/// Parses a byte count: `4k`, `1MiB`, `0x1000`, `(1k*2)`.
pub fn parse_size(raw: &str, ctx: &Ctx) -> Result<u64, ValueError> {
    let err = || ValueError::Size(raw.to_string());
    if expr::is_expr(raw) {
        let value = eval_whole(raw, ctx)?;
        return u64::try_from(value).map_err(|_| err());
    }
    size_literal(raw, ctx.kb_base).ok_or_else(err)
}

/// Parses a byte count or a percentage: `1g`, `20%`, `12.5%`.
///
/// fio 3.33 accepts `0%` to `100%` (it stores `size=20%` as the value `-20`); iomark
/// returns [`SizeOrPercent::Percent`]. Differences from fio: a fraction (`12.5%`) is a
/// fraction of a percent here, where fio reads it as 12 *bytes*; values above 100% and
/// negative ones are refused (fio takes `101%` as a size of 2^64-101 bytes).
pub fn parse_size_or_percent(raw: &str, ctx: &Ctx) -> Result<SizeOrPercent, ValueError> {
    let text = raw.trim();
    let Some(number) = text.strip_suffix('%') else {
        return parse_size(raw, ctx).map(SizeOrPercent::Bytes);
    };
    let number = number.trim_end();
    let valid = !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit() || b == b'.');
    match number.parse::<f64>() {
        Ok(p) if valid && (0.0..=100.0).contains(&p) => Ok(SizeOrPercent::Percent(p)),
        Ok(_) if valid => Err(out_of_range(raw, "0%", "100%")),
        _ => Err(ValueError::Size(raw.to_string())),
    }
}

/// Parses a whole number in `min..=max`: `8`, `-5`, `1k`, `0x10`, `(2*3)`.
///
/// As in fio, size suffixes apply (`iodepth=1k` is 1024) and a fraction without a suffix
/// is truncated (`numjobs=1.5` is 1). fio also ignores any other trailing text (`2x` is 2);
/// iomark refuses it.
pub fn parse_int(raw: &str, min: i64, max: i64, ctx: &Ctx) -> Result<i64, ValueError> {
    let value = if expr::is_expr(raw) {
        let v = eval_whole(raw, ctx)?;
        i64::try_from(v).map_err(|_| out_of_range(raw, min, max))?
    } else {
        int_literal(raw, ctx.kb_base).ok_or_else(|| ValueError::Number(raw.to_string()))?
    };
    if value < min || value > max {
        return Err(out_of_range(raw, min, max));
    }
    Ok(value)
}

/// Parses a floating point number in `min..=max`: `1.2`, `1e3`, `(0.5*3)`.
pub fn parse_float(raw: &str, min: f64, max: f64) -> Result<f64, ValueError> {
    let err = || ValueError::Number(raw.to_string());
    let value = if expr::is_expr(raw) {
        match expr::eval(raw, &|s| s.is_empty().then_some(1)) {
            Ok(n) => match n {
                Num::Int(i) => i as f64,
                Num::Float(f) => f,
            },
            Err(why) => return Err(expr_error(raw, why)),
        }
    } else {
        float_literal(raw).ok_or_else(err)?
    };
    if !(min..=max).contains(&value) {
        return Err(out_of_range(raw, min, max));
    }
    Ok(value)
}

/// A finite decimal floating point number (`99.9`, `1e1`, `-0.5`); no `inf`, `nan` or hex.
pub(crate) fn float_literal(text: &str) -> Option<f64> {
    let text = text.trim();
    let plain =
        text.bytes().all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'-' | b'+' | b'e' | b'E'));
    let value = text.parse::<f64>().ok()?;
    (plain && value.is_finite()).then_some(value)
}

/// Evaluates a parenthesised expression whose numbers carry size suffixes, truncated to a
/// whole number.
fn eval_whole(raw: &str, ctx: &Ctx) -> Result<i128, ValueError> {
    let kb_base = ctx.kb_base;
    let value =
        expr::eval(raw, &|s| size_multiplier(s, kb_base)).map_err(|w| expr_error(raw, w))?;
    value.truncate().ok_or_else(|| expr_error(raw, "the result is too large".into()))
}

/// An expression error naming the value.
pub(crate) fn expr_error(raw: &str, why: String) -> ValueError {
    ValueError::Expr { value: raw.to_string(), why }
}

/// An out-of-range error naming the value and the limits.
pub(crate) fn out_of_range(raw: &str, min: impl ToString, max: impl ToString) -> ValueError {
    ValueError::OutOfRange { value: raw.to_string(), min: min.to_string(), max: max.to_string() }
}

#[cfg(test)]
mod tests {
    use super::*;

    const K1024: Ctx = Ctx { kb_base: 1024 };
    const K1000: Ctx = Ctx { kb_base: 1000 };

    fn size(raw: &str) -> Result<u64, ValueError> {
        parse_size(raw, &K1024)
    }

    #[test]
    fn size_plain_and_suffixed() {
        assert_eq!(size("1"), Ok(1));
        assert_eq!(size("0"), Ok(0));
        assert_eq!(size("1k"), Ok(1024));
        assert_eq!(size("1KB"), Ok(1024));
        assert_eq!(size("1kb"), Ok(1024));
        assert_eq!(size("1Ki"), Ok(1024));
        assert_eq!(size("1mi"), Ok(1 << 20));
        assert_eq!(size("1g"), Ok(1 << 30));
        assert_eq!(size("1t"), Ok(1 << 40));
        assert_eq!(size("1p"), Ok(1 << 50));
        assert_eq!(size("10b"), Ok(10));
    }

    #[test]
    fn size_inverted_iec_under_kb_base_1024() {
        assert_eq!(size("1KiB"), Ok(1000));
        assert_eq!(size("1kib"), Ok(1000));
        assert_eq!(size("1MiB"), Ok(1_000_000));
    }

    #[test]
    fn size_under_kb_base_1000() {
        assert_eq!(parse_size("1k", &K1000), Ok(1000));
        assert_eq!(parse_size("1Ki", &K1000), Ok(1000));
        assert_eq!(parse_size("1KiB", &K1000), Ok(1024));
        assert_eq!(parse_size("1m", &K1000), Ok(1_000_000));
        assert_eq!(parse_size("1mib", &K1000), Ok(1 << 20));
    }

    #[test]
    fn size_hex_and_leading_zero() {
        assert_eq!(size("0x10"), Ok(16));
        assert_eq!(size("0X1f"), Ok(31));
        assert_eq!(size("010"), Ok(10));
    }

    #[test]
    fn size_whitespace_is_trimmed() {
        assert_eq!(size(" 1k "), Ok(1024));
    }

    #[test]
    fn size_fraction_without_suffix_truncates() {
        assert_eq!(size("1.0"), Ok(1));
        assert_eq!(size("2.50"), Ok(2));
    }

    #[test]
    fn size_refuses_what_fio_would_misread() {
        for bad in ["4kx", "1.5k", "0x10k", "1e", "1z", "k", ".5k", "", "-1", "1 k", "0xg", "%"] {
            assert_eq!(size(bad), Err(ValueError::Size(bad.into())), "{bad}");
        }
    }

    #[test]
    fn size_overflow_is_an_error() {
        assert!(size("18446744073709551616").is_err());
        assert!(size("16777216t").is_err());
        assert_eq!(size("18446744073709551615"), Ok(u64::MAX));
    }

    #[test]
    fn size_expression() {
        assert_eq!(size("(1k*2)"), Ok(2048));
        assert_eq!(size("(1+2)"), Ok(3));
        assert!(matches!(size("(1+2"), Err(ValueError::Expr { .. })));
        assert!(size("(1-2)").is_err());
    }

    #[test]
    fn percent() {
        let p = |raw| parse_size_or_percent(raw, &K1024);
        assert_eq!(p("20%"), Ok(SizeOrPercent::Percent(20.0)));
        assert_eq!(p("0%"), Ok(SizeOrPercent::Percent(0.0)));
        assert_eq!(p("100%"), Ok(SizeOrPercent::Percent(100.0)));
        assert_eq!(p("12.5%"), Ok(SizeOrPercent::Percent(12.5)));
        assert_eq!(p("20 %"), Ok(SizeOrPercent::Percent(20.0)));
        assert_eq!(p("1g"), Ok(SizeOrPercent::Bytes(1 << 30)));
        assert!(matches!(p("101%"), Err(ValueError::OutOfRange { .. })));
        for bad in ["%", "-5%", "1k%", "1e2%", "x%"] {
            assert!(p(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn int_takes_size_suffixes_and_hex() {
        assert_eq!(parse_int("1k", 1, i64::MAX, &K1024), Ok(1024));
        assert_eq!(parse_int("0x10", 1, 100, &K1024), Ok(16));
        assert_eq!(parse_int("1k", 1, i64::MAX, &K1000), Ok(1000));
        assert_eq!(parse_int("1.5", 1, 100, &K1024), Ok(1));
    }

    #[test]
    fn int_negative_and_limits() {
        assert_eq!(parse_int("-5", -20, 19, &K1024), Ok(-5));
        assert!(matches!(parse_int("20", -20, 19, &K1024), Err(ValueError::OutOfRange { .. })));
        assert!(matches!(parse_int("0", 1, 10, &K1024), Err(ValueError::OutOfRange { .. })));
        assert!(matches!(parse_int("1k", 0, 100, &K1024), Err(ValueError::OutOfRange { .. })));
    }

    #[test]
    fn int_refuses_trailing_text() {
        for bad in ["2x", "2kx", "1e3", "", "50%", "1.5k"] {
            assert_eq!(parse_int(bad, 0, 100, &K1024), Err(ValueError::Number(bad.into())));
        }
    }

    #[test]
    fn int_expression() {
        assert_eq!(parse_int("(2*3)", 1, 100, &K1024), Ok(6));
        assert!(parse_int("(2*300)", 1, 100, &K1024).is_err());
    }

    #[test]
    fn float_values() {
        assert_eq!(parse_float("1.2", 0.0, 10.0), Ok(1.2));
        assert_eq!(parse_float("1e1", 0.0, 100.0), Ok(10.0));
        assert_eq!(parse_float("(0.5*3)", 0.0, 10.0), Ok(1.5));
        assert!(parse_float("nan", 0.0, 10.0).is_err());
        assert!(parse_float("inf", 0.0, 10.0).is_err());
        assert!(parse_float("11", 0.0, 10.0).is_err());
        assert!(parse_float("1.2x", 0.0, 10.0).is_err());
    }
}
