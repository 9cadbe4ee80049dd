//! `max_latency`: up to three times, for reads, writes and trims (microseconds without a
//! unit), following fio's rule for per-direction values (`5ms` for all three, `1ms,2ms`
//! gives trims the writes' limit, a blank entry no limit). The option is a string of the
//! table, read here when the job is parsed ([`read_max_latency`]) and again by the plan.
//!
//! fio 3.33's leniency: each time is read as fio reads a time (`5x` is 5 µs, noted), and
//! a fourth value and after are ignored (fio's `--debug=parse` shows it reading them into
//! nothing).

use super::lenient::{self, Leniency};
use super::{Ctx, TimeUnit, Value, ValueError};
use crate::kind::Kind;

/// The limits of `text` in nanoseconds per direction (0: none), read as fio 3.33 does, with
/// a [`Leniency`] to note where fio reads a malformed value; the strict refusal otherwise.
pub fn read_max_latency(text: &str, ctx: &Ctx) -> Result<([u64; 3], Option<Leniency>), ValueError> {
    let kind = Kind::Time { unit: TimeUnit::Micros };
    let fields: Vec<&str> = text.split(',').collect();
    let mut noted = Leniency {
        written: text.to_string(),
        ignored: Vec::new(),
        why: Vec::new(),
        used: String::new(),
        strict: ValueError::Missing,
    };
    let mut strict = None;
    let mut values = Vec::with_capacity(3);
    for field in fields.iter().take(3).map(|f| f.trim()) {
        if field.is_empty() {
            values.push(0);
            continue;
        }
        let (value, leniency) = lenient::read(&kind, field, ctx)?;
        let Value::Time(d) = value else { unreachable!("a time reads as a time") };
        values.push(u64::try_from(d.as_nanos()).unwrap_or(u64::MAX));
        if let Some(l) = leniency {
            noted.ignored.extend(l.ignored);
            noted.why.extend(l.why);
            strict.get_or_insert(l.strict);
        }
    }
    if fields.len() > 3 {
        noted.ignored.push(format!(",{}", fields[3..].join(",")));
        noted.why.push("only three values count: reads, writes, trims".into());
        strict.get_or_insert(ValueError::Explained {
            what: "value",
            value: text.to_string(),
            why: "at most three values: reads, writes, trims".into(),
        });
    }
    let limits = match values.as_slice() {
        [a] => [*a; 3],
        [a, b] => [*a, *b, *b],
        [a, b, c] => [*a, *b, *c],
        _ => [0; 3],
    };
    let Some(strict) = strict else { return Ok((limits, None)) };
    noted.used = limits.map(|ns| (ns / 1000).to_string()).join(",");
    noted.strict = strict;
    Ok((limits, Some(noted)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(text: &str) -> Result<([u64; 3], bool), ValueError> {
        read_max_latency(text, &Ctx::default()).map(|(l, n)| (l, n.is_some()))
    }

    #[test]
    fn per_direction_times_in_microseconds() {
        assert_eq!(limits("5ms"), Ok(([5_000_000; 3], false)));
        assert_eq!(limits("100,2ms"), Ok(([100_000, 2_000_000, 2_000_000], false)));
        assert_eq!(limits(",1s,"), Ok(([0, 1_000_000_000, 0], false)));
        assert!(limits("5parsecs").is_ok_and(|(l, noted)| l == [5_000; 3] && noted));
        assert!(limits("xyz").is_err());
    }

    #[test]
    fn fios_leniency_is_noted() {
        assert_eq!(limits("5x"), Ok(([5_000; 3], true)));
        let (l, note) = read_max_latency("1s,2s,3s,4s", &Ctx::default()).unwrap();
        assert_eq!(l, [1_000_000_000, 2_000_000_000, 3_000_000_000]);
        let note = note.unwrap();
        assert!(note.to_string().contains("ignoring ',4s'"), "{note}");
        assert!(note.strict.to_string().contains("at most three values"), "{}", note.strict);
    }
}
