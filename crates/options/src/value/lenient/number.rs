//! How fio 3.33 reads a number that has more after it: the leading part it takes, and the
//! text it leaves. Learned from fio's `--debug=parse` output over a table of values (see
//! `crates/options/tests/fio_compat/leniency.rs`), not from its code.
//!
//! - A value that holds `0x` (or `0X`) anywhere is read in hexadecimal, from its start:
//!   `0x10k` is 16, and `100x` is 0x100, 256, because `00x` holds `0x`. No unit follows a
//!   hexadecimal number.
//! - Otherwise decimal digits are read (after blanks and a sign); none is a refusal. A
//!   fraction ends the number (`1.5k` is 1).
//! - A unit right after the digits multiplies: `k`, `m`, `g`, `t`, `p` in any case, with
//!   `i` or `b` (binary under `kb_base=1024`) or `ib` (decimal), and `b` alone for bytes;
//!   whatever follows the unit is ignored (`4kx` is 4096, `4kibx` 4000). A lowercase `z`
//!   counts zones where the option takes them, and is refused elsewhere. Any other text
//!   after the digits is ignored (`1e3` is 1).
//! - A value that begins with a blank (`size = 64k` in a job file leaves ` 64k`) has no
//!   unit at all: fio reads 64.

use crate::value::number::size_multiplier;

/// What fio 3.33 makes of the front of a number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Reading<'a> {
    /// The value, unit applied; negative after a `-`.
    pub value: i128,
    /// What fio ignores after it, as written.
    pub rest: &'a str,
    /// Why the reading is not the plain one, when the ignored text alone does not say it.
    pub why: Option<&'static str>,
    /// Whether a unit of zones (`z`) followed the digits.
    pub zones: bool,
    /// Whether `%` followed the digits.
    pub percent: bool,
    /// Whether the number was read in hexadecimal.
    pub hex: bool,
}

/// Why a value was read in hexadecimal although it does not start with `0x`.
const HEX_INSIDE: &str = "a value that holds '0x' is hexadecimal";
/// Why no unit was applied after a leading blank.
const BLANK_FIRST: &str = "no unit counts after a blank at the start of the value";
/// Why a unit was ignored after a hexadecimal number.
const HEX_NO_UNIT: &str = "no unit counts after a hexadecimal number";

/// Reads the front of `text` as fio 3.33 does (see the module documentation), with units
/// under `kb_base`; `None` where fio refuses it (no digits, a number too large for 64 bits).
pub(crate) fn read(text: &str, kb_base: u32) -> Option<Reading<'_>> {
    read_with(text, Some(kb_base))
}

/// [`read`] without units, as fio reads a boolean or a count: `1k` is 1, `k` left.
pub(crate) fn read_plain(text: &str) -> Option<Reading<'_>> {
    read_with(text, None)
}

/// [`read`] with units under `kb_base`, or none.
fn read_with(text: &str, kb_base: Option<u32>) -> Option<Reading<'_>> {
    let hex = text.contains("0x") || text.contains("0X");
    let body = text.trim_start_matches(is_c_space);
    let (negative, body) = match body.as_bytes().first() {
        Some(b'-') => (true, &body[1..]),
        Some(b'+') => (false, &body[1..]),
        _ => (false, body),
    };
    let start = text.len() - body.len();
    let mut prefixed = false;
    let (magnitude, end) = if hex {
        let digits_at = match body.get(..2) {
            Some("0x" | "0X") if body[2..].starts_with(|c: char| c.is_ascii_hexdigit()) => 2,
            _ => 0,
        };
        // (`0x` with no digit after it is the number 0 followed by `x…`.)
        let digits = body[digits_at..].bytes().take_while(u8::is_ascii_hexdigit).count();
        if digits == 0 {
            return None;
        }
        let value = u64::from_str_radix(&body[digits_at..digits_at + digits], 16).ok()?;
        prefixed = digits_at == 2;
        (value, start + digits_at + digits)
    } else {
        let digits = body.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            return None;
        }
        (body[..digits].parse::<u64>().ok()?, start + digits)
    };
    if i64::try_from(magnitude).is_err() {
        return None;
    }
    let signed = if negative { -i128::from(magnitude) } else { i128::from(magnitude) };
    let mut reading =
        Reading { value: signed, rest: &text[end..], why: None, zones: false, percent: false, hex };
    if hex {
        if !body.starts_with("0x") && !body.starts_with("0X") {
            reading.why = Some(HEX_INSIDE);
        } else if prefixed && reading.rest.starts_with(|c: char| c.is_ascii_alphabetic()) {
            reading.why = Some(HEX_NO_UNIT);
        }
        return Some(reading);
    }
    let Some(kb_base) = kb_base else { return Some(reading) };
    if start > 0 && text.starts_with(is_c_space) {
        if reading.rest.starts_with(|c: char| c.is_ascii_alphabetic()) {
            reading.why = Some(BLANK_FIRST);
        }
        return Some(reading);
    }
    let (mult, len) = unit(reading.rest, kb_base);
    match mult {
        Unit::Times(m) => reading.value = reading.value.checked_mul(i128::from(m))?,
        Unit::Zones => reading.zones = true,
        Unit::Percent => reading.percent = true,
    }
    if i64::try_from(reading.value).is_err() {
        return None;
    }
    reading.rest = &reading.rest[len..];
    Some(reading)
}

/// A unit after the digits.
enum Unit {
    /// A multiplier (1 for none).
    Times(u64),
    /// `z`: zones.
    Zones,
    /// `%`: a share.
    Percent,
}

/// The unit at the start of `rest` and its length; no unit is a multiplier of 1.
fn unit(rest: &str, kb_base: u32) -> (Unit, usize) {
    let lower = rest.to_ascii_lowercase();
    match lower.as_bytes().first() {
        Some(b'k' | b'm' | b'g' | b't' | b'p') => {
            let len = if lower[1..].starts_with("ib") {
                3
            } else if lower[1..].starts_with(['i', 'b']) {
                2
            } else {
                1
            };
            let mult = size_multiplier(&lower[..len], kb_base).unwrap_or(1);
            (Unit::Times(mult), len)
        }
        Some(b'b') => (Unit::Times(1), 1),
        Some(b'%') => (Unit::Percent, 1),
        // Only the lowercase letter: `4Z` is 4.
        _ if rest.starts_with('z') => (Unit::Zones, 1),
        _ => (Unit::Times(1), 0),
    }
}

/// How fio 3.33 reads a count with C's `atoi`: blanks, a sign and decimal digits (never
/// hexadecimal), and the text it leaves; `None` when no digit is there.
pub(crate) fn read_decimal(text: &str) -> Option<(i64, &str)> {
    let body = text.trim_start_matches(is_c_space);
    let sign = usize::from(body.starts_with(['+', '-']));
    let digits = body[sign..].bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let value: i64 = body[..sign + digits].parse().ok()?;
    Some((value, &body[sign + digits..]))
}

/// C's `isspace` in the "C" locale.
pub(crate) fn is_c_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\x0b' | '\x0c' | '\r')
}

/// Whether fio's reading of a value loses nothing the user wrote: nothing left but blanks,
/// or a fraction of zeros (`1.0`, which fio's calculator prints).
pub(crate) fn nothing_lost(rest: &str) -> bool {
    let rest = rest.trim_end_matches(is_c_space);
    rest.is_empty() || (rest.starts_with('.') && rest[1..].bytes().all(|b| b == b'0'))
}

/// How fio 3.33 reads a floating point number: C's `strtod` on the front of the text
/// (blanks, a sign, decimal digits with a fraction and an exponent, or a hexadecimal
/// number), and the text it leaves; `None` when no number starts the text, and for
/// infinities and NaN.
pub(crate) fn read_float(text: &str) -> Option<(f64, &str)> {
    let body = text.trim_start_matches(is_c_space);
    let start = text.len() - body.len();
    let bytes = body.as_bytes();
    let mut i = usize::from(matches!(bytes.first(), Some(b'+' | b'-')));
    let negative = bytes.first() == Some(&b'-');
    if bytes.get(i) == Some(&b'0')
        && matches!(bytes.get(i + 1), Some(b'x' | b'X'))
        && bytes.get(i + 2).is_some_and(u8::is_ascii_hexdigit)
    {
        let digits = bytes[i + 2..].iter().take_while(|b| b.is_ascii_hexdigit()).count();
        let value = u64::from_str_radix(&body[i + 2..i + 2 + digits], 16).ok()? as f64;
        let value = if negative { -value } else { value };
        return Some((value, &text[start + i + 2 + digits..]));
    }
    let int = bytes[i..].iter().take_while(|b| b.is_ascii_digit()).count();
    i += int;
    let mut frac = 0;
    if bytes.get(i) == Some(&b'.') {
        frac = bytes[i + 1..].iter().take_while(|b| b.is_ascii_digit()).count();
        if int + frac > 0 {
            i += 1 + frac;
        }
    }
    if int + frac == 0 {
        return None;
    }
    if matches!(bytes.get(i), Some(b'e' | b'E')) {
        let sign = usize::from(matches!(bytes.get(i + 1), Some(b'+' | b'-')));
        let exp = bytes[i + 1 + sign..].iter().take_while(|b| b.is_ascii_digit()).count();
        if exp > 0 {
            i += 1 + sign + exp;
        }
    }
    let value: f64 = body[..i].parse().ok()?;
    value.is_finite().then_some((value, &text[start + i..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(text: &str) -> Option<(i128, &str)> {
        read(text, 1024).map(|r| (r.value, r.rest))
    }

    #[test]
    fn the_leading_number_and_its_unit() {
        assert_eq!(r("65536)"), Some((65536, ")")));
        assert_eq!(r("4kx"), Some((4096, "x")));
        assert_eq!(r("4kibx"), Some((4000, "x")));
        assert_eq!(r("4kbi"), Some((4096, "i")));
        assert_eq!(r("4K B"), Some((4096, " B")));
        assert_eq!(r("1.5k"), Some((1, ".5k")));
        assert_eq!(r("1e3"), Some((1, "e3")));
        assert_eq!(r("4 k"), Some((4, " k")));
        assert_eq!(r("64k 12"), Some((65536, " 12")));
        assert_eq!(r("4bk"), Some((4, "k")));
        assert_eq!(r("4Z"), Some((4, "Z")));
        assert_eq!(r("+4k"), Some((4096, "")));
        assert_eq!(r("-5x"), Some((-5, "x")));
        assert_eq!(r("4"), Some((4, "")));
    }

    #[test]
    fn hexadecimal_wherever_0x_is() {
        assert_eq!(r("0x10k"), Some((16, "k")));
        assert_eq!(r("100x"), Some((256, "x")));
        assert_eq!(r("10x10"), Some((16, "x10")));
        assert_eq!(r("4.0x1"), Some((4, ".0x1")));
        assert_eq!(r("0xg"), Some((0, "xg")));
        assert_eq!(read("100x", 1024).unwrap().why, Some(HEX_INSIDE));
        assert_eq!(read("0x10k", 1024).unwrap().why, Some(HEX_NO_UNIT));
    }

    #[test]
    fn a_leading_blank_hides_the_unit() {
        let reading = read(" 64k", 1024).unwrap();
        assert_eq!((reading.value, reading.rest, reading.why), (64, "k", Some(BLANK_FIRST)));
        assert_eq!(r(" 64"), Some((64, "")));
    }

    #[test]
    fn zones_percent_and_refusals() {
        assert!(read("2z", 1024).unwrap().zones);
        assert!(read("10%x", 1024).unwrap().percent);
        for bad in
            ["k4", "", "x", "+ 4k", "99999999999999999999", "16777216t", "9223372036854775808"]
        {
            assert_eq!(r(bad), None, "{bad}");
        }
    }

    #[test]
    fn counts_as_atoi() {
        assert_eq!(read_decimal("50x"), Some((50, "x")));
        assert_eq!(read_decimal(" 4k"), Some((4, "k")));
        assert_eq!(read_decimal("-1"), Some((-1, "")));
        assert_eq!(read_decimal("x"), None);
    }

    #[test]
    fn what_loses_nothing() {
        assert!(nothing_lost("") && nothing_lost(".0") && nothing_lost(".") && nothing_lost("  "));
        assert!(!nothing_lost(".5") && !nothing_lost("x"));
    }

    #[test]
    fn floats_as_strtod() {
        assert_eq!(read_float("99x"), Some((99.0, "x")));
        assert_eq!(read_float("99.5.5"), Some((99.5, ".5")));
        assert_eq!(read_float("1e1"), Some((10.0, "")));
        assert_eq!(read_float("1e"), Some((1.0, "e")));
        assert_eq!(read_float("0x10"), Some((16.0, "")));
        assert_eq!(read_float(" .5"), Some((0.5, "")));
        assert_eq!(read_float("-1.5:2"), Some((-1.5, ":2")));
        assert_eq!(read_float("abc"), None);
        assert_eq!(read_float("."), None);
        assert_eq!(read_float("inf"), None);
    }
}
