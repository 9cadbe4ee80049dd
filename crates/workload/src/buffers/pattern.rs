//! fio's byte pattern syntax (`buffer_pattern`), parsed into at most [`MAX_PATTERN`] bytes.
//!
//! A pattern is a run of pieces written one after the other, with nothing between them:
//!
//! - `0x…` / `0X…`: hex digits, taken as a byte string in the order written (`0xdeadface`
//!   gives de ad fa ce); an odd count gets a leading zero nibble (`0x123` gives 01 23);
//! - `"…"`: the bytes of the string, as written (no escapes), at least one;
//! - `'…'`: the contents of the named file, cut to the room left in the pattern;
//! - anything else is a decimal integer in -2³¹..2³¹-1, as C's `strtol` reads it (blanks
//!   before it and a sign are allowed): little-endian, in as few bytes as hold it (12 is
//!   one byte, 256 two, 65536 three), and a negative number always in four
//!   (-12 gives f4 ff ff ff).
//!
//! So `0xdeadface"abcd"-12` is de ad fa ce 61 62 63 64 f4 ff ff ff. Each rule was checked by
//! writing files with fio 3.33 and dumping them; fio 3.33 also refuses `|` between pieces
//! (`1|2` fails to parse), blanks after a piece or before anything but a number, a total
//! beyond 512 bytes, and `%o` (that one is `verify_pattern`'s). Where fio 3.33 crashes on an
//! assertion (an empty string `""` or an empty file), iomark refuses the pattern instead.

use std::fmt;
use thiserror::Error;

/// The longest pattern fio accepts, in bytes.
pub const MAX_PATTERN: usize = 512;

/// A parsed pattern: 1 to [`MAX_PATTERN`] bytes, held inline so that the buffer options
/// stay plain `Copy` data.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Pattern {
    bytes: [u8; MAX_PATTERN],
    len: u16,
}

/// Why a pattern cannot be used. The runner adds the job and the option's name.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PatternError {
    /// The text holds no piece at all.
    #[error("empty pattern")]
    Empty,
    /// The pieces add up to more than [`MAX_PATTERN`] bytes.
    #[error("the pattern is longer than {MAX_PATTERN} bytes")]
    TooLong,
    /// A `"` or `'` is never closed.
    #[error("unterminated {0} at byte {1}")]
    Unterminated(char, usize),
    /// `""` or `''`: fio 3.33 aborts on these; iomark refuses them.
    #[error("empty {0} at byte {1} (fio 3.33 aborts on an assertion there)")]
    EmptyPiece(&'static str, usize),
    /// `0x` with no hex digit after it.
    #[error("'0x' without hex digits at byte {0}")]
    NoHexDigits(usize),
    /// A decimal number outside -2147483648..=2147483647.
    #[error("number {0} does not fit in 32 bits (fio reads decimal numbers as C ints)")]
    OutOfRange(String),
    /// Something that starts no piece (a letter, `|`, a blank after a piece, `%o`…).
    #[error(
        "unexpected {0:?} at byte {1}: a pattern is 0x hex digits, \"string\", 'file' or a \
         decimal number, written back to back"
    )]
    Unexpected(char, usize),
    /// A file named in `'…'` could not be read, or is empty.
    #[error("file '{0}': {1}")]
    File(String, String),
}

impl Pattern {
    /// A pattern of `bytes` (1 to [`MAX_PATTERN`] of them).
    pub fn from_bytes(bytes: &[u8]) -> Result<Pattern, PatternError> {
        if bytes.is_empty() {
            return Err(PatternError::Empty);
        }
        let mut p = Pattern { bytes: [0; MAX_PATTERN], len: 0 };
        p.push(bytes)?;
        Ok(p)
    }

    /// Parses fio's syntax (see the module note). `read_file` reads the file of a `'name'`
    /// piece; it is only called for those, so that the workload itself does no I/O.
    pub fn parse(
        text: &str,
        mut read_file: impl FnMut(&str) -> std::io::Result<Vec<u8>>,
    ) -> Result<Pattern, PatternError> {
        let mut p = Pattern { bytes: [0; MAX_PATTERN], len: 0 };
        let b = text.as_bytes();
        let mut i = 0;
        while i < b.len() {
            match b[i] {
                quote @ (b'"' | b'\'') => {
                    let close = b[i + 1..].iter().position(|&c| c == quote).map(|n| i + 1 + n);
                    let end = close.ok_or(PatternError::Unterminated(quote as char, i))?;
                    let inner = &text[i + 1..end];
                    if inner.is_empty() {
                        let what = if quote == b'"' { "string" } else { "file name" };
                        return Err(PatternError::EmptyPiece(what, i));
                    }
                    if quote == b'"' {
                        p.push(inner.as_bytes())?;
                    } else {
                        let data = read_file(inner)
                            .map_err(|e| PatternError::File(inner.into(), e.to_string()))?;
                        if data.is_empty() {
                            return Err(PatternError::File(inner.into(), "empty file".into()));
                        }
                        // fio reads only what fits; a pattern already full cannot take it.
                        let room = MAX_PATTERN - p.len();
                        if room == 0 {
                            return Err(PatternError::TooLong);
                        }
                        p.push(&data[..data.len().min(room)])?;
                    }
                    i = end + 1;
                }
                b'0' if matches!(b.get(i + 1), Some(b'x' | b'X')) => {
                    let digits = b[i + 2..].iter().take_while(|c| c.is_ascii_hexdigit()).count();
                    if digits == 0 {
                        return Err(PatternError::NoHexDigits(i));
                    }
                    p.push_hex(&b[i + 2..i + 2 + digits])?;
                    i += 2 + digits;
                }
                _ => i = p.push_decimal(text, i)?,
            }
        }
        if p.len == 0 {
            return Err(PatternError::Empty);
        }
        Ok(p)
    }

    /// The pattern's bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len()]
    }

    /// How many bytes the pattern holds.
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// Whether the pattern holds nothing (only while it is being parsed).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Fills `buf` with the pattern repeated from its first byte (the last copy cut short).
    pub fn fill(&self, buf: &mut [u8]) {
        let pat = self.as_bytes();
        if let [byte] = pat {
            buf.fill(*byte);
            return;
        }
        for chunk in buf.chunks_mut(pat.len()) {
            chunk.copy_from_slice(&pat[..chunk.len()]);
        }
    }

    fn push(&mut self, bytes: &[u8]) -> Result<(), PatternError> {
        let at = self.len();
        let end = at + bytes.len();
        if end > MAX_PATTERN {
            return Err(PatternError::TooLong);
        }
        self.bytes[at..end].copy_from_slice(bytes);
        self.len = end as u16;
        Ok(())
    }

    /// Appends hex `digits` (ASCII, all valid) as bytes, a leading zero nibble when odd.
    fn push_hex(&mut self, digits: &[u8]) -> Result<(), PatternError> {
        let nibble = |c: u8| (c as char).to_digit(16).unwrap_or(0) as u8;
        let odd = digits.len() % 2;
        if odd == 1 {
            self.push(&[nibble(digits[0])])?;
        }
        for pair in digits[odd..].chunks_exact(2) {
            self.push(&[nibble(pair[0]) << 4 | nibble(pair[1])])?;
        }
        Ok(())
    }

    /// Reads a decimal number at byte `at` of `text` the way `strtol` does and appends it;
    /// returns where the number ends.
    fn push_decimal(&mut self, text: &str, at: usize) -> Result<usize, PatternError> {
        let b = text.as_bytes();
        let mut i = at;
        while i < b.len() && matches!(b[i], b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c) {
            i += 1;
        }
        let start = i;
        if i < b.len() && matches!(b[i], b'+' | b'-') {
            i += 1;
        }
        let digits = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
        if digits == 0 {
            let c = text[at..].chars().next().unwrap_or(' ');
            return Err(PatternError::Unexpected(c, at));
        }
        let end = i + digits;
        let number = &text[start..end];
        let value: i32 = number.parse().map_err(|_| PatternError::OutOfRange(number.into()))?;
        let bytes = (value as u32).to_le_bytes();
        let width = if value < 0 { 4 } else { 4 - (value.leading_zeros() as usize / 8).min(3) };
        self.push(&bytes[..width])?;
        Ok(end)
    }
}

impl fmt::Debug for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Pattern(0x")?;
        for b in self.as_bytes() {
            write!(f, "{b:02x}")?;
        }
        write!(f, ")")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_files(name: &str) -> std::io::Result<Vec<u8>> {
        Err(std::io::Error::new(std::io::ErrorKind::NotFound, format!("{name}: no such file")))
    }

    fn bytes(text: &str) -> Vec<u8> {
        Pattern::parse(text, no_files).unwrap_or_else(|e| panic!("{text}: {e}")).as_bytes().into()
    }

    fn refused(text: &str) -> PatternError {
        Pattern::parse(text, no_files).expect_err(text)
    }

    /// Every case below is what fio 3.33 wrote for the same `buffer_pattern`.
    #[test]
    fn pieces_as_fio_writes_them() {
        assert_eq!(bytes("0xdeadface"), [0xde, 0xad, 0xfa, 0xce]);
        assert_eq!(bytes("0x123"), [0x01, 0x23]);
        assert_eq!(bytes("0X0aB"), [0x00, 0xab]);
        assert_eq!(bytes("\"abcd\""), *b"abcd");
        assert_eq!(bytes("\"a\\nb\""), *b"a\\nb");
        assert_eq!(bytes("12"), [12]);
        assert_eq!(bytes("00012"), [12]);
        assert_eq!(bytes("+5"), [5]);
        assert_eq!(bytes("0"), [0]);
        assert_eq!(bytes("-0"), [0]);
        assert_eq!(bytes("255"), [255]);
        assert_eq!(bytes("256"), [0, 1]);
        assert_eq!(bytes("65536"), [0, 0, 1]);
        assert_eq!(bytes("16777215"), [0xff, 0xff, 0xff]);
        assert_eq!(bytes("16777216"), [0, 0, 0, 1]);
        assert_eq!(bytes("2147483647"), [0xff, 0xff, 0xff, 0x7f]);
        assert_eq!(bytes("-1"), [0xff; 4]);
        assert_eq!(bytes("-12"), [0xf4, 0xff, 0xff, 0xff]);
        assert_eq!(bytes("-256"), [0x00, 0xff, 0xff, 0xff]);
        assert_eq!(bytes("-2147483648"), [0, 0, 0, 0x80]);
        assert_eq!(bytes(" 7"), [7]);
        assert_eq!(bytes("1 2"), [1, 2]);
        assert_eq!(bytes("1\t2"), [1, 2]);
        assert_eq!(bytes("0x1 2"), [1, 2]);
        assert_eq!(bytes("12\"x\"34"), [12, b'x', 34]);
        assert_eq!(bytes("\"a\"\"b\""), *b"ab");
        assert_eq!(
            bytes("0xdeadface\"abcd\"-12"),
            [0xde, 0xad, 0xfa, 0xce, b'a', b'b', b'c', b'd', 0xf4, 0xff, 0xff, 0xff]
        );
    }

    /// Each of these made fio 3.33 answer "failed parsing buffer_pattern" (or abort).
    #[test]
    fn refusals_follow_fio() {
        for text in ["1|2", "\"ab\"|\"cd\"", "abc", "1,2", "7 ", "1 \"a\"", "1 0x2", "-", "%o"] {
            assert!(matches!(refused(text), PatternError::Unexpected(..)), "{text}");
        }
        for text in ["2147483648", "4294967295", "-2147483649"] {
            assert!(matches!(refused(text), PatternError::OutOfRange(_)), "{text}");
        }
        assert_eq!(refused("0x"), PatternError::NoHexDigits(0));
        assert_eq!(refused("0xg1"), PatternError::NoHexDigits(0));
        assert_eq!(refused("\""), PatternError::Unterminated('"', 0));
        assert_eq!(refused("'pat"), PatternError::Unterminated('\'', 0));
        assert_eq!(refused("\"\""), PatternError::EmptyPiece("string", 0));
        assert_eq!(refused("1''"), PatternError::EmptyPiece("file name", 1));
        assert_eq!(refused(""), PatternError::Empty);
        assert!(matches!(refused("'missing'"), PatternError::File(..)));
    }

    #[test]
    fn at_most_512_bytes() {
        let hex = |n: usize| format!("0x{}", "ab".repeat(n));
        assert_eq!(bytes(&hex(512)).len(), 512);
        assert_eq!(refused(&hex(513)), PatternError::TooLong);
        assert_eq!(bytes(&format!("{}\"x\"256", hex(509))).len(), 512);
        assert_eq!(refused(&format!("{}\"x\"65536", hex(509))), PatternError::TooLong);
        assert_eq!(refused(&format!("\"{}\"", "q".repeat(600))), PatternError::TooLong);
    }

    #[test]
    fn files_are_cut_to_the_room_left() {
        let big: Vec<u8> = (0..2000u32).map(|i| i as u8).collect();
        let read = |name: &str| match name {
            "big" => Ok(big.clone()),
            "pat" => Ok(b"HELLO".to_vec()),
            "empty" => Ok(Vec::new()),
            other => no_files(other),
        };
        let p = Pattern::parse("'big'", read).unwrap();
        assert_eq!(p.as_bytes(), &big[..512]);
        let p = Pattern::parse("\"a\"'big'", read).unwrap();
        assert_eq!(p.as_bytes()[0], b'a');
        assert_eq!(&p.as_bytes()[1..], &big[..511]);
        assert_eq!(Pattern::parse("'big'\"a\"", read), Err(PatternError::TooLong));
        assert_eq!(Pattern::parse("0x01'pat'\"z\"", read).unwrap().as_bytes(), b"\x01HELLOz");
        assert!(matches!(Pattern::parse("'empty'", read), Err(PatternError::File(..))));
    }

    #[test]
    fn fill_repeats_from_the_start() {
        let p = Pattern::from_bytes(b"abc").unwrap();
        let mut buf = [0u8; 8];
        p.fill(&mut buf);
        assert_eq!(&buf, b"abcabcab");
        let one = Pattern::from_bytes(&[7]).unwrap();
        one.fill(&mut buf);
        assert_eq!(buf, [7; 8]);
        assert_eq!(Pattern::from_bytes(&[]), Err(PatternError::Empty));
        assert_eq!(format!("{:?}", Pattern::from_bytes(&[1, 0xab]).unwrap()), "Pattern(0x01ab)");
    }
}
