//! Parenthesised arithmetic in numeric values: `size=(1k*2)`, `runtime=(2s*3)`.
//!
//! **A documented superset of fio 3.33 as Debian builds it.** fio's HOWTO says that
//! "anywhere a numeric value is required, an arithmetic expression may be used, provided
//! it is surrounded by parentheses", with `+ - * / % ^`, but that needs fio's optional
//! arithmetic parser, and the Debian build of fio 3.33 lacks it: there `size=(1+2)`,
//! `size=(1k*2)` and `runtime=(2*3)` are refused. iomark accepts them, with the HOWTO's
//! meaning:
//!
//! - the value must be wholly one parenthesised expression (`(1k*2)`, not `(1k*2)k`);
//! - each number may carry the unit suffixes of the option's kind, and is converted to the
//!   base unit before the arithmetic: bytes for sizes and integers (`(1k*2)` is 2048,
//!   following `kb_base`), microseconds for times; a number without a unit inside a time
//!   expression is in **microseconds**, not in the option's default unit, as the HOWTO
//!   says (`runtime=(2*3)` is 6 µs, `runtime=(2s*3)` is 6 s);
//! - whole numbers use exact integer arithmetic (`/` truncates toward zero, `%` is the
//!   remainder); as soon as a fraction appears the arithmetic is floating point, and the
//!   result is truncated toward zero where a whole number is needed;
//! - `^` is a power and binds tighter than unary minus (`-2^2` is -4) and to the right;
//! - parentheses nest up to 64 deep; an unterminated expression, division by zero or an
//!   overflow is an error, never a panic.
//!
//! fio's own calculator for keywords (`size=($ncpus*2)`) is different and lives in
//! [`super::bc`].

/// The deepest nesting of parentheses and unary operators accepted.
const MAX_DEPTH: usize = 64;

/// A number during evaluation: exact while whole, floating point once a fraction appears.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Num {
    /// A whole number.
    Int(i128),
    /// A number with a fraction.
    Float(f64),
}

impl Num {
    fn as_f64(self) -> f64 {
        match self {
            Num::Int(i) => i as f64,
            Num::Float(f) => f,
        }
    }

    /// The value truncated toward zero, or `None` when it is not finite or too large.
    pub(crate) fn truncate(self) -> Option<i128> {
        match self {
            Num::Int(i) => Some(i),
            Num::Float(f) if f.is_finite() && f.abs() < 1e38 => Some(f.trunc() as i128),
            Num::Float(_) => None,
        }
    }
}

/// Whether `text` is meant as an expression: it starts with `(`.
pub(crate) fn is_expr(text: &str) -> bool {
    text.trim_start().starts_with('(')
}

/// Evaluates `text`, which must be wholly one parenthesised expression. `unit` gives the
/// multiplier of a number's suffix in the kind's base unit (it is called with `""` for a
/// bare number), or `None` for a suffix the kind does not know.
pub(crate) fn eval(text: &str, unit: &dyn Fn(&str) -> Option<u64>) -> Result<Num, String> {
    let mut p = Parser { s: text.trim().as_bytes(), pos: 0, depth: 0, unit };
    if p.peek() != Some(b'(') {
        return Err("an expression must be enclosed in parentheses".into());
    }
    let value = p.atom()?;
    p.skip_ws();
    if p.pos != p.s.len() {
        return Err(format!("unexpected text after the expression at offset {}", p.pos));
    }
    match value {
        Num::Float(f) if !f.is_finite() => Err("the result is not a finite number".into()),
        v => Ok(v),
    }
}

struct Parser<'a> {
    s: &'a [u8],
    pos: usize,
    depth: usize,
    unit: &'a dyn Fn(&str) -> Option<u64>,
}

impl<'a> Parser<'a> {
    fn skip_ws(&mut self) {
        while self.s.get(self.pos).is_some_and(|b| b.is_ascii_whitespace()) {
            self.pos += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip_ws();
        self.s.get(self.pos).copied()
    }

    fn enter(&mut self) -> Result<(), String> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(format!("nested deeper than {MAX_DEPTH} levels"));
        }
        Ok(())
    }

    fn sum(&mut self) -> Result<Num, String> {
        let mut acc = self.product()?;
        while let Some(op @ (b'+' | b'-')) = self.peek() {
            self.pos += 1;
            let rhs = self.product()?;
            acc = apply(op, acc, rhs)?;
        }
        Ok(acc)
    }

    fn product(&mut self) -> Result<Num, String> {
        let mut acc = self.unary()?;
        while let Some(op @ (b'*' | b'/' | b'%')) = self.peek() {
            self.pos += 1;
            let rhs = self.unary()?;
            acc = apply(op, acc, rhs)?;
        }
        Ok(acc)
    }

    fn unary(&mut self) -> Result<Num, String> {
        self.enter()?;
        let value = match self.peek() {
            Some(b'-') => {
                self.pos += 1;
                apply(b'-', Num::Int(0), self.unary()?)?
            }
            Some(b'+') => {
                self.pos += 1;
                self.unary()?
            }
            _ => self.power()?,
        };
        self.depth -= 1;
        Ok(value)
    }

    fn power(&mut self) -> Result<Num, String> {
        let base = self.atom()?;
        if self.peek() == Some(b'^') {
            self.pos += 1;
            let exp = self.unary()?;
            return apply(b'^', base, exp);
        }
        Ok(base)
    }

    fn atom(&mut self) -> Result<Num, String> {
        match self.peek() {
            Some(b'(') => {
                self.enter()?;
                self.pos += 1;
                let value = self.sum()?;
                if self.peek() != Some(b')') {
                    return Err("missing ')'".into());
                }
                self.pos += 1;
                self.depth -= 1;
                Ok(value)
            }
            Some(b) if b.is_ascii_digit() || b == b'.' => self.number(),
            Some(b) => Err(format!("unexpected '{}' at offset {}", b as char, self.pos)),
            None => Err("unexpected end of the expression".into()),
        }
    }

    fn number(&mut self) -> Result<Num, String> {
        let s = self.s;
        let start = self.pos;
        let hex = s.len() > start + 2 && s[start] == b'0' && (s[start + 1] | 0x20) == b'x';
        let value = if hex {
            self.pos += 2;
            let digits = self.run(|b| b.is_ascii_hexdigit());
            let text = std::str::from_utf8(digits).map_err(|e| e.to_string())?;
            Num::Int(i128::from_str_radix(text, 16).map_err(|_| "bad hexadecimal number")?)
        } else {
            self.run(|b| b.is_ascii_digit() || b == b'.');
            let text = std::str::from_utf8(&s[start..self.pos]).map_err(|e| e.to_string())?;
            if text.contains('.') {
                Num::Float(text.parse::<f64>().map_err(|_| format!("bad number '{text}'"))?)
            } else {
                Num::Int(text.parse::<i128>().map_err(|_| format!("number '{text}' too large"))?)
            }
        };
        let suffix = self.run(|b| b.is_ascii_alphabetic());
        let suffix = std::str::from_utf8(suffix).map_err(|e| e.to_string())?;
        let mult = (self.unit)(suffix).ok_or_else(|| format!("unknown unit '{suffix}'"))?;
        apply(b'*', value, Num::Int(i128::from(mult)))
    }

    fn run(&mut self, accept: impl Fn(u8) -> bool) -> &'a [u8] {
        let s = self.s;
        let start = self.pos;
        while s.get(self.pos).is_some_and(|&b| accept(b)) {
            self.pos += 1;
        }
        &s[start..self.pos]
    }
}

/// Applies a binary operator; whole numbers stay exact, overflow and division by zero are
/// errors.
fn apply(op: u8, a: Num, b: Num) -> Result<Num, String> {
    let overflow = || "the result is too large".to_string();
    if let (Num::Int(x), Num::Int(y)) = (a, b) {
        let exact = match op {
            b'+' => x.checked_add(y),
            b'-' => x.checked_sub(y),
            b'*' => x.checked_mul(y),
            b'/' | b'%' if y == 0 => return Err("division by zero".into()),
            b'/' => x.checked_div(y),
            b'%' => x.checked_rem(y),
            _ => match u32::try_from(y) {
                Ok(e) => x.checked_pow(e),
                Err(_) if y < 0 => return Ok(Num::Float((x as f64).powf(y as f64))),
                Err(_) => None,
            },
        };
        return exact.map(Num::Int).ok_or_else(overflow);
    }
    let (x, y) = (a.as_f64(), b.as_f64());
    let value = match op {
        b'+' => x + y,
        b'-' => x - y,
        b'*' => x * y,
        b'/' | b'%' if y == 0.0 => return Err("division by zero".into()),
        b'/' => x / y,
        b'%' => x % y,
        _ => x.powf(y),
    };
    if value.is_finite() {
        Ok(Num::Float(value))
    } else {
        Err(overflow())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes(suffix: &str) -> Option<u64> {
        super::super::number::size_multiplier(suffix, 1024)
    }

    fn ev(text: &str) -> Result<Num, String> {
        eval(text, &bytes)
    }

    #[test]
    fn plain_arithmetic() {
        assert_eq!(ev("(1+2)"), Ok(Num::Int(3)));
        assert_eq!(ev("(2*3+4)"), Ok(Num::Int(10)));
        assert_eq!(ev("(2*(3+4))"), Ok(Num::Int(14)));
        assert_eq!(ev("( 10 - 4 - 3 )"), Ok(Num::Int(3)));
    }

    #[test]
    fn units_inside() {
        assert_eq!(ev("(1k*2)"), Ok(Num::Int(2048)));
        assert_eq!(ev("(1m/4k)"), Ok(Num::Int(256)));
        assert_eq!(ev("(0x10*2)"), Ok(Num::Int(32)));
    }

    #[test]
    fn integer_division_and_remainder() {
        assert_eq!(ev("(7/2)"), Ok(Num::Int(3)));
        assert_eq!(ev("(-7/2)"), Ok(Num::Int(-3)));
        assert_eq!(ev("(7%3)"), Ok(Num::Int(1)));
    }

    #[test]
    fn fractions_switch_to_floating_point() {
        assert_eq!(ev("(1.5*2)"), Ok(Num::Float(3.0)));
        assert_eq!(ev("(1.5k)").unwrap().truncate(), Some(1536));
    }

    #[test]
    fn power_binds_right_and_above_unary_minus() {
        assert_eq!(ev("(2^3^2)"), Ok(Num::Int(512)));
        assert_eq!(ev("(-2^2)"), Ok(Num::Int(-4)));
        assert_eq!(ev("(2^-1)"), Ok(Num::Float(0.5)));
    }

    #[test]
    fn errors_are_values() {
        for bad in [
            "(1+2",
            "(1+)",
            "()",
            "(1/0)",
            "(1%0)",
            "(1k*2)k",
            "(1x)",
            "(2^200)",
            "(99999999999999999999999999999999999999999)",
            "(1..2)",
            "1+2",
            "(a)",
        ] {
            assert!(ev(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn deep_nesting_is_refused_not_overflowed() {
        let deep = format!("{}1{}", "(".repeat(10_000), ")".repeat(10_000));
        assert!(ev(&deep).is_err());
        let minus = format!("({}1)", "-".repeat(10_000));
        assert!(ev(&minus).is_err());
        let ok = format!("{}1{}", "(".repeat(32), ")".repeat(32));
        assert_eq!(ev(&ok), Ok(Num::Int(1)));
    }
}
