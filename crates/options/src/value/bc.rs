//! fio 3.33's keyword calculator: the arithmetic of `size=($ncpus*2)`.
//!
//! When a job-file value contains a keyword (`$ncpus`, `$pagesize`, `$mb_memory`) and an
//! operator, fio 3.33 hands the substituted text to the `bc` program and uses the first
//! line it prints. So the arithmetic is `bc`'s with `scale=0`, and this module reproduces
//! it in decimal fixed point:
//!
//! - numbers are decimal, with an optional fraction whose digits count (`0.50` has
//!   scale 2); `+ - * / % ^`, unary minus and parentheses;
//! - `+` and `-` keep the larger scale; `*` keeps the larger scale of its operands,
//!   truncating (`2*0.25` is `.50`, `0.5^2` is `.2`); `/` gives a whole number, truncated
//!   toward zero (`2/3` is `0`); `%` is `a - (a/b)*b`;
//! - `^` takes a whole exponent, binds to the right, and binds less tightly than unary
//!   minus (`-2^2` is 4); a negative exponent gives `1/a^n`, truncated;
//! - `++`, `--`, a leading `+` and two numbers side by side are syntax errors;
//! - a lowercase name is a `bc` variable, always 0 (`x2*2` is 0); `bc`'s reserved words
//!   and capital letters are refused here (in `bc` they are statements and digits);
//! - the result prints without a leading zero (`.50`, `-.5`) and zero as `0`.
//!
//! Differences: `bc` has unlimited precision, this has 38 digits; beyond, the result is an
//! error. (`bc` breaks lines longer than 68 characters with a `\`, and fio keeps that
//! first broken line, which no option accepts; 38 digits never reach that length.)
//! Errors are messages, never panics.

/// The deepest nesting accepted.
const MAX_DEPTH: usize = 64;

/// `bc`'s words that are not variables.
const RESERVED: &[&str] = &[
    "auto", "break", "continue", "define", "else", "for", "halt", "ibase", "if", "last", "length",
    "limits", "obase", "print", "quit", "read", "return", "scale", "sqrt", "warranty", "while",
];

/// A decimal number: `m / 10^scale`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Dec {
    m: i128,
    scale: u32,
}

fn too_large() -> String {
    "number too large".to_string()
}

fn pow10(n: u32) -> Result<i128, String> {
    10i128.checked_pow(n).ok_or_else(too_large)
}

impl Dec {
    fn rescale(self, scale: u32) -> Result<i128, String> {
        self.m.checked_mul(pow10(scale - self.scale)?).ok_or_else(too_large)
    }

    fn truncate_to(m: i128, from: u32, to: u32) -> Result<Dec, String> {
        Ok(Dec { m: m / pow10(from - to)?, scale: to })
    }
}

/// Evaluates `text` as `bc` does with `scale=0` and returns what `bc` prints on its first
/// line, or the reason `bc` would fail.
pub(crate) fn calculate(text: &str) -> Result<String, String> {
    let mut p = Parser { s: text.as_bytes(), pos: 0, depth: 0 };
    let value = p.sum()?;
    if p.peek().is_some() {
        return Err(format!("syntax error at offset {}", p.pos));
    }
    Ok(format(value))
}

/// Prints a number as `bc` does.
fn format(d: Dec) -> String {
    if d.m == 0 {
        return "0".into();
    }
    let digits = d.m.unsigned_abs().to_string();
    let scale = d.scale as usize;
    let (int, frac) = if digits.len() > scale {
        digits.split_at(digits.len() - scale)
    } else {
        ("", digits.as_str())
    };
    let sign = if d.m < 0 { "-" } else { "" };
    if scale == 0 {
        format!("{sign}{int}")
    } else {
        format!("{sign}{int}.{frac:0>scale$}")
    }
}

struct Parser<'a> {
    s: &'a [u8],
    pos: usize,
    depth: usize,
}

impl Parser<'_> {
    fn peek(&mut self) -> Option<u8> {
        while self.s.get(self.pos).is_some_and(|&b| b == b' ' || b == b'\t') {
            self.pos += 1;
        }
        self.s.get(self.pos).copied()
    }

    /// Takes a one-character operator from `ops`; a doubled `+` or `-` is bc's `++`/`--`.
    fn op(&mut self, ops: &[u8]) -> Result<Option<u8>, String> {
        match self.peek() {
            Some(b) if ops.contains(&b) => {
                let doubled = matches!(b, b'+' | b'-') && self.s.get(self.pos + 1) == Some(&b);
                if doubled {
                    return Err("syntax error: increment or decrement".into());
                }
                self.pos += 1;
                Ok(Some(b))
            }
            _ => Ok(None),
        }
    }

    fn enter(&mut self) -> Result<(), String> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(format!("nested deeper than {MAX_DEPTH} levels"));
        }
        Ok(())
    }

    fn sum(&mut self) -> Result<Dec, String> {
        let mut acc = self.product()?;
        while let Some(op) = self.op(b"+-")? {
            let rhs = self.product()?;
            let scale = acc.scale.max(rhs.scale);
            let (a, b) = (acc.rescale(scale)?, rhs.rescale(scale)?);
            let m = if op == b'+' { a.checked_add(b) } else { a.checked_sub(b) };
            acc = Dec { m: m.ok_or_else(too_large)?, scale };
        }
        Ok(acc)
    }

    fn product(&mut self) -> Result<Dec, String> {
        let mut acc = self.power()?;
        while let Some(op) = self.op(b"*/%")? {
            let rhs = self.power()?;
            acc = match op {
                b'*' => multiply(acc, rhs)?,
                b'/' => Dec { m: divide(acc, rhs)?, scale: 0 },
                _ => {
                    let q = Dec { m: divide(acc, rhs)?, scale: 0 };
                    let qb = multiply_exact(q, rhs)?;
                    let scale = acc.scale.max(rhs.scale);
                    let m = acc.rescale(scale)?.checked_sub(qb.rescale(scale)?);
                    Dec { m: m.ok_or_else(too_large)?, scale }
                }
            };
        }
        Ok(acc)
    }

    fn power(&mut self) -> Result<Dec, String> {
        let base = self.factor()?;
        if self.op(b"^")?.is_none() {
            return Ok(base);
        }
        self.enter()?;
        let exp = self.power()?;
        self.depth -= 1;
        raise(base, exp.m / pow10(exp.scale)?)
    }

    fn factor(&mut self) -> Result<Dec, String> {
        if self.op(b"-")?.is_some() {
            self.enter()?;
            let v = self.factor()?;
            self.depth -= 1;
            return Ok(Dec { m: -v.m, scale: v.scale });
        }
        match self.peek() {
            Some(b'(') => {
                self.enter()?;
                self.pos += 1;
                let v = self.sum()?;
                if self.peek() != Some(b')') {
                    return Err("syntax error: missing ')'".into());
                }
                self.pos += 1;
                self.depth -= 1;
                Ok(v)
            }
            Some(b) if b.is_ascii_digit() || b == b'.' => self.number(),
            Some(b) if b.is_ascii_lowercase() => self.variable(),
            Some(b) => Err(format!("syntax error at '{}'", b as char)),
            None => Err("syntax error: unexpected end".into()),
        }
    }

    fn number(&mut self) -> Result<Dec, String> {
        let start = self.pos;
        let digits = |p: &mut Self| {
            while p.s.get(p.pos).is_some_and(u8::is_ascii_digit) {
                p.pos += 1;
            }
        };
        digits(self);
        let int_end = self.pos;
        let mut frac = &self.s[int_end..int_end];
        if self.s.get(self.pos) == Some(&b'.') {
            self.pos += 1;
            digits(self);
            frac = &self.s[int_end + 1..self.pos];
        }
        if self.pos == start + 1 && self.s[start] == b'.' {
            return Err("syntax error at '.'".into());
        }
        let all: Vec<u8> = self.s[start..int_end].iter().chain(frac).copied().collect();
        let text = std::str::from_utf8(&all).map_err(|e| e.to_string())?;
        let m = if text.is_empty() { Ok(0) } else { text.parse::<i128>() };
        let scale = u32::try_from(frac.len()).map_err(|_| too_large())?;
        Ok(Dec { m: m.map_err(|_| too_large())?, scale })
    }

    fn variable(&mut self) -> Result<Dec, String> {
        let start = self.pos;
        while self
            .s
            .get(self.pos)
            .is_some_and(|&b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
        {
            self.pos += 1;
        }
        let name = std::str::from_utf8(&self.s[start..self.pos]).map_err(|e| e.to_string())?;
        if RESERVED.contains(&name) || matches!(self.peek(), Some(b'(' | b'[' | b'=')) {
            return Err(format!("'{name}' is a bc statement, not a number"));
        }
        Ok(Dec { m: 0, scale: 0 })
    }
}

/// The exact product, scale `sa + sb`.
fn multiply_exact(a: Dec, b: Dec) -> Result<Dec, String> {
    let m = a.m.checked_mul(b.m).ok_or_else(too_large)?;
    Ok(Dec { m, scale: a.scale + b.scale })
}

/// bc's product: scale `max(sa, sb)`, truncated.
fn multiply(a: Dec, b: Dec) -> Result<Dec, String> {
    let exact = multiply_exact(a, b)?;
    Dec::truncate_to(exact.m, exact.scale, a.scale.max(b.scale))
}

/// bc's quotient with `scale=0`: a whole number, truncated toward zero.
fn divide(a: Dec, b: Dec) -> Result<i128, String> {
    if b.m == 0 {
        return Err("divide by zero".into());
    }
    let num = a.m.checked_mul(pow10(b.scale)?).ok_or_else(too_large)?;
    let den = b.m.checked_mul(pow10(a.scale)?).ok_or_else(too_large)?;
    Ok(num / den)
}

/// bc's power with a whole exponent.
fn raise(base: Dec, exp: i128) -> Result<Dec, String> {
    let n = u32::try_from(exp.unsigned_abs()).map_err(|_| too_large())?;
    if exp == 0 {
        return Ok(Dec { m: 1, scale: 0 });
    }
    let m = base.m.checked_pow(n).ok_or_else(too_large)?;
    let scale = base.scale.checked_mul(n).ok_or_else(too_large)?;
    if exp > 0 {
        return Dec::truncate_to(m, scale, base.scale);
    }
    divide(Dec { m: 1, scale: 0 }, Dec { m, scale }).map(|m| Dec { m, scale: 0 })
}

#[cfg(test)]
mod tests {
    use super::calculate;

    fn bc(text: &str) -> String {
        calculate(text).unwrap_or_else(|e| format!("error: {e}"))
    }

    #[test]
    fn whole_numbers() {
        assert_eq!(bc("4096*2"), "8192");
        assert_eq!(bc("(2*(1+2))"), "6");
        assert_eq!(bc("2 - 1"), "1");
        assert_eq!(bc("1-2"), "-1");
        assert_eq!(bc("2*-3"), "-6");
    }

    #[test]
    fn division_truncates() {
        assert_eq!(bc("2/3"), "0");
        assert_eq!(bc("7/2"), "3");
        assert_eq!(bc("-7/2"), "-3");
        assert_eq!(bc("10/3*1.5"), "4.5");
    }

    #[test]
    fn remainder() {
        assert_eq!(bc("7%3"), "1");
        assert_eq!(bc("(-7)%3"), "-1");
        assert_eq!(bc("7.5%2"), "1.5");
    }

    #[test]
    fn product_scale() {
        assert_eq!(bc("2*0.5"), "1.0");
        assert_eq!(bc("2*0.25"), ".50");
        assert_eq!(bc("-2*0.25"), "-.50");
        assert_eq!(bc("2*1.25"), "2.50");
        assert_eq!(bc("0*0.5"), "0");
        assert_eq!(bc("-0.5*1"), "-.5");
    }

    #[test]
    fn sum_scale() {
        assert_eq!(bc("2+0.5"), "2.5");
        assert_eq!(bc("1.50+1"), "2.50");
        assert_eq!(bc("1.0-1.0"), "0");
        assert_eq!(bc("1.+1"), "2");
    }

    #[test]
    fn powers() {
        assert_eq!(bc("2^3"), "8");
        assert_eq!(bc("2^3^2"), "512");
        assert_eq!(bc("-2^2"), "4");
        assert_eq!(bc("2^-1"), "0");
        assert_eq!(bc("0.5^2"), ".2");
        assert_eq!(bc("0.5^-1"), "2");
        assert!(calculate("0^-1").is_err());
        assert!(calculate("2^200").is_err());
    }

    #[test]
    fn variables_are_zero() {
        assert_eq!(bc("x2*2"), "0");
        assert_eq!(bc("a-2"), "-2");
        assert!(calculate("scale=2").is_err());
        assert!(calculate("sqrt(4)").is_err());
        assert!(calculate("quit").is_err());
    }

    #[test]
    fn syntax_errors() {
        for bad in [
            "",
            "1--1",
            "1++1",
            "+2",
            "2 3",
            "2*(2",
            "2*2k",
            "(8192),(4096)",
            "2*2)",
            "2**2",
            "4k+2",
            "/tmp/f-2",
            "x 2 * 2",
            ".",
            "1/0",
            "2%0",
            "A*2",
        ] {
            assert!(calculate(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn results_beyond_38_digits_are_errors() {
        let ones = "1".repeat(30);
        assert!(calculate(&format!("{ones}*{ones}")).is_err());
        assert!(calculate(&format!("0.{}*1", "1".repeat(70))).is_err());
        assert_eq!(bc(&format!("1{}+0", "0".repeat(37))).len(), 38);
    }

    #[test]
    fn deep_nesting_is_refused() {
        let deep = format!("{}1{}", "(".repeat(100_000), ")".repeat(100_000));
        assert!(calculate(&deep).is_err());
        assert!(calculate(&format!("{}1", "- ".repeat(100_000))).is_err());
        assert!(calculate(&"2^".repeat(100_000)).is_err());
    }
}
