//! Numeric literals: the digits, the optional fraction and the unit suffix that every numeric
//! option value is made of, and the size unit table (`k`, `KiB`, `mb`, …) with fio's
//! `kb_base` rules.
//!
//! fio 3.33 reads a number with `strtoll` and then looks at whatever text follows; unknown
//! text is silently ignored (`4kx` is 4096, `1.5k` is 1, `0x10k` is 16). iomark reads the
//! same spellings with the same meaning but refuses any text it does not understand, so
//! that a typo never changes a value silently. The one leniency kept is a fraction without
//! a suffix (`1.5`, or the `1.0` that fio's calculator prints), which fio truncates toward
//! zero; iomark does the same.

/// A scanned literal: the whole-number part, whether a fraction was dropped, and the text
/// that followed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Literal<'a> {
    /// The value of the digits, fraction dropped; `None` when it does not fit in `u64`.
    pub value: Option<u64>,
    /// Whether the number was written in hexadecimal (`0x10`).
    pub hex: bool,
    /// Whether a fraction (`.5`) followed the digits; it is dropped from `value`.
    pub fraction: bool,
    /// What followed the number.
    pub suffix: &'a str,
}

/// Scans an unsigned number at the start of `text`: decimal digits with an optional
/// fraction, or `0x` and hexadecimal digits. Returns `None` when `text` does not start with
/// a digit.
pub(crate) fn scan(text: &str) -> Option<Literal<'_>> {
    let bytes = text.as_bytes();
    if !bytes.first()?.is_ascii_digit() {
        return None;
    }
    if bytes.len() > 2 && bytes[0] == b'0' && (bytes[1] | 0x20) == b'x' {
        let digits = bytes[2..].iter().take_while(|b| b.is_ascii_hexdigit()).count();
        if digits == 0 {
            return None;
        }
        let value = u64::from_str_radix(&text[2..2 + digits], 16).ok();
        let suffix = &text[2 + digits..];
        return Some(Literal { value, hex: true, fraction: false, suffix });
    }
    let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
    let value = text[..digits].parse::<u64>().ok();
    let mut end = digits;
    let mut fraction = false;
    if bytes.get(end) == Some(&b'.') {
        fraction = true;
        end += 1;
        end += bytes[end..].iter().take_while(|b| b.is_ascii_digit()).count();
    }
    let suffix = &text[end..];
    Some(Literal { value, hex: false, fraction, suffix })
}

/// The multiplier of a size suffix under `kb_base`, or `None` for text that is not a size
/// suffix. Case does not matter. With `kb_base=1024` (fio's default) `k`, `kb` and `ki` mean
/// 1024 and only `kib` means 1000 (fio inverts the IEC and SI meanings "for compatibility");
/// with `kb_base=1000` it is the other way round. `b` alone means bytes. fio 3.33 knows the
/// prefixes k, m, g, t and p; an `e` suffix is ignored by fio and refused here.
pub(crate) fn size_multiplier(suffix: &str, kb_base: u32) -> Option<u64> {
    let lower = suffix.to_ascii_lowercase();
    let (prefix, rest) = match lower.as_bytes().first() {
        None => return Some(1),
        Some(b'b') if lower.len() == 1 => return Some(1),
        Some(&c) => (c, lower.get(1..)?),
    };
    let power = match prefix {
        b'k' => 1,
        b'm' => 2,
        b'g' => 3,
        b't' => 4,
        b'p' => 5,
        _ => return None,
    };
    let iec = match rest {
        "" | "b" | "i" => false,
        "ib" => true,
        _ => return None,
    };
    // kb_base=1024 reads plain prefixes as binary and `…iB` as decimal; 1000 the opposite.
    let binary = (kb_base == 1000) == iec;
    let base: u64 = if binary { 1024 } else { 1000 };
    Some(base.pow(power))
}

/// Parses an unsigned size literal (`4k`, `0x1000`, `1.0`) to bytes, or `None` when the
/// text is not one or the value does not fit in `u64`.
pub(crate) fn size_literal(text: &str, kb_base: u32) -> Option<u64> {
    let text = text.trim();
    let text = text.strip_prefix('+').unwrap_or(text);
    let lit = scan(text)?;
    if (lit.hex || lit.fraction) && !lit.suffix.is_empty() {
        return None;
    }
    let mult = size_multiplier(lit.suffix, kb_base)?;
    lit.value?.checked_mul(mult)
}

/// Parses a signed whole number with size suffixes (`-5`, `1k`, `0x10`) as fio's integer
/// options do.
pub(crate) fn int_literal(text: &str, kb_base: u32) -> Option<i64> {
    let text = text.trim();
    let (negative, body) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let magnitude = i128::from(size_literal(body, kb_base)?);
    let value = if negative { -magnitude } else { magnitude };
    i64::try_from(value).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scan_decimal_with_suffix() {
        let lit = scan("4k").unwrap();
        assert_eq!((lit.value, lit.hex, lit.fraction, lit.suffix), (Some(4), false, false, "k"));
    }

    #[test]
    fn scan_hex() {
        let lit = scan("0x1f").unwrap();
        assert_eq!((lit.value, lit.hex), (Some(31), true));
    }

    #[test]
    fn scan_fraction_is_dropped() {
        let lit = scan("2.50").unwrap();
        assert_eq!((lit.value, lit.fraction, lit.suffix), (Some(2), true, ""));
    }

    #[test]
    fn scan_needs_a_leading_digit() {
        assert_eq!(scan(".5"), None);
        assert_eq!(scan("k"), None);
        assert_eq!(scan(""), None);
        assert_eq!(scan("0x").unwrap().suffix, "x");
        assert_eq!(scan("0xg"), None);
    }

    #[test]
    fn scan_overflow_has_no_value() {
        assert_eq!(scan("99999999999999999999").unwrap().value, None);
    }

    #[test]
    fn multipliers_under_kb_base_1024() {
        for s in ["k", "K", "kb", "KB", "kB", "Kb", "ki", "Ki", "KI"] {
            assert_eq!(size_multiplier(s, 1024), Some(1024), "{s}");
        }
        for s in ["kib", "KiB", "KIB", "kiB"] {
            assert_eq!(size_multiplier(s, 1024), Some(1000), "{s}");
        }
        assert_eq!(size_multiplier("mi", 1024), Some(1 << 20));
        assert_eq!(size_multiplier("MiB", 1024), Some(1_000_000));
        assert_eq!(size_multiplier("p", 1024), Some(1 << 50));
    }

    #[test]
    fn multipliers_under_kb_base_1000() {
        assert_eq!(size_multiplier("k", 1000), Some(1000));
        assert_eq!(size_multiplier("ki", 1000), Some(1000));
        assert_eq!(size_multiplier("KiB", 1000), Some(1024));
        assert_eq!(size_multiplier("mib", 1000), Some(1 << 20));
        assert_eq!(size_multiplier("pib", 1000), Some(1 << 50));
    }

    #[test]
    fn byte_suffix_and_unknown_suffixes() {
        assert_eq!(size_multiplier("b", 1024), Some(1));
        assert_eq!(size_multiplier("B", 1024), Some(1));
        for s in ["e", "z", "x", "kx", "kbb", "bk", "i", "k5"] {
            assert_eq!(size_multiplier(s, 1024), None, "{s}");
        }
    }

    #[test]
    fn size_literals() {
        assert_eq!(size_literal("1k", 1024), Some(1024));
        assert_eq!(size_literal("0x10", 1024), Some(16));
        assert_eq!(size_literal("010", 1024), Some(10));
        assert_eq!(size_literal("+5", 1024), Some(5));
        assert_eq!(size_literal("1.0", 1024), Some(1));
        assert_eq!(size_literal("1.5k", 1024), None);
        assert_eq!(size_literal("0x10k", 1024), None);
        assert_eq!(size_literal("16777216t", 1024), None);
        assert_eq!(size_literal("-1", 1024), None);
    }

    #[test]
    fn int_literals() {
        assert_eq!(int_literal("-5", 1024), Some(-5));
        assert_eq!(int_literal("1k", 1024), Some(1024));
        assert_eq!(int_literal("-0x5", 1024), Some(-5));
        assert_eq!(int_literal("9223372036854775808", 1024), None);
        assert_eq!(int_literal("--5", 1024), None);
    }
}
