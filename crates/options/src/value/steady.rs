//! `steadystate` (`ss`): `CRITERION:LIMIT`, the criterion one of `iops`, `iops_slope`, `bw`,
//! `bw_slope`, the limit a number, or a percentage of the mean with `%`.
//!
//! As fio 3.33 reads it (its `--debug=parse` shows the threshold it set): a percentage and
//! an IOPS limit are floating point numbers (`iops:10` is 10.000000, `iops:0.5%` 0.5%); a
//! bandwidth limit is a size in bytes per second, with fio's units (`bw:1m` is 1048576). The
//! option is a string of the table, read here when the job is parsed ([`read_steadystate`])
//! and again by the plan.
//!
//! fio's leniency, learned from its `--debug=parse` lines over a table of values
//! (`crates/cli/tests/cli/debug_parse.rs` keeps it): a `%` anywhere in the limit makes it a
//! percentage (`4k%` is 4%); a percentage or an IOPS limit is the leading floating point
//! number, the rest ignored (`iops:1k` is 1, `iops:10x` 10); a bandwidth limit is the
//! leading size (`bw:1.5m` is 1, `bw:1mx` 1048576); a negative limit is kept, and steady
//! state is then never reached (the job runs to its end, as fio's does). iomark reads these
//! as fio does, with a note. fio refuses a criterion in capitals, a blank before it and a
//! `,` in the limit, and so does iomark, except the blank. An infinite or NaN limit, which
//! fio takes, is refused: it makes every or no window steady.

use super::lenient::number::{self, read_float};
use super::lenient::{Found, Leniency};
use super::{Ctx, ValueError};

/// A parsed `steadystate` value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Steadystate {
    /// The criterion as written: `iops`, `iops_slope`, `bw` or `bw_slope`.
    pub criterion: &'static str,
    /// The limit: IOPS, bytes per second, or a percentage of the mean; negative for a
    /// limit that is never met.
    pub limit: f64,
    /// Whether the limit is a percentage of the mean.
    pub percent: bool,
}

impl Steadystate {
    /// The line fio 3.33's `--debug=parse` prints when it sets the threshold.
    pub fn fio_debug_line(&self) -> String {
        match (self.percent, self.criterion.starts_with("bw")) {
            (true, _) => format!("set steady state threshold to {:.6}%", self.limit),
            (false, false) => format!("set steady state IOPS threshold to {:.6}", self.limit),
            (false, true) => format!("set steady state BW threshold to {}", self.limit as i64),
        }
    }

    /// The value as iomark uses it, in the option's grammar (`bw:1048576`, `iops:1.5%`).
    fn canonical(&self) -> String {
        let pct = if self.percent { "%" } else { "" };
        format!("{}:{}{pct}", self.criterion, self.limit)
    }
}

/// The criteria, as fio spells them.
const CRITERIA: [&str; 4] = ["iops", "iops_slope", "bw", "bw_slope"];

/// Reads `text` as fio 3.33 does: strictly where it is well formed, fio's reading with a
/// [`Leniency`] to note where fio runs a malformed value, the strict refusal otherwise.
pub fn read_steadystate(
    text: &str,
    ctx: &Ctx,
) -> Result<(Steadystate, Option<Leniency>), ValueError> {
    let strict = parse_steadystate(text, ctx);
    let explained = |why: String| ValueError::Explained { what: "value", value: text.into(), why };
    let Some((value, mut found)) = fio_reading(text, ctx) else {
        return strict.map(|s| (s, None)).map_err(explained);
    };
    match &strict {
        Ok(s) if *s == value && !found.noteworthy() => return Ok((value, None)),
        Err(_) if !found.noteworthy() => found.because("a spelling that fio 3.33 reads"),
        _ => {}
    }
    let mut leniency = Leniency {
        written: text.to_string(),
        ignored: found.ignored,
        why: found.why,
        used: value.canonical(),
        strict: ValueError::Missing,
    };
    leniency.strict = match strict {
        Err(why) => explained(why),
        Ok(_) => explained(format!("fio 3.33 reads it otherwise than it reads: {leniency}")),
    };
    Ok((value, Some(leniency)))
}

/// Parses `CRITERION:LIMIT[%]` in iomark's strict grammar; the error says what is wrong.
pub fn parse_steadystate(text: &str, ctx: &Ctx) -> Result<Steadystate, String> {
    let (name, limit) = text.split_once(':').ok_or("expected CRITERION:LIMIT")?;
    let criterion = criterion(name.trim()).ok_or_else(|| {
        format!("unknown criterion '{}' (iops, iops_slope, bw or bw_slope)", name.trim())
    })?;
    let limit = limit.trim();
    let not_a_number = || format!("'{limit}' is not a number");
    let (value, percent) = match limit.strip_suffix('%') {
        Some(n) => (super::size::float_literal(n).ok_or_else(not_a_number)?, true),
        None if criterion.starts_with("bw") => {
            (super::size::parse_size(limit, ctx).map_err(|_| not_a_number())? as f64, false)
        }
        None => (super::size::float_literal(limit).ok_or_else(not_a_number)?, false),
    };
    if value < 0.0 {
        return Err(format!("'{limit}' is not a limit"));
    }
    Ok(Steadystate { criterion, limit: value, percent })
}

/// The criterion spelt `name`, exactly (fio refuses `IOPS`).
fn criterion(name: &str) -> Option<&'static str> {
    CRITERIA.into_iter().find(|c| *c == name)
}

/// fio 3.33's reading of `text` (see the module documentation); `None` where fio refuses it
/// or iomark refuses what fio takes (an infinite limit).
fn fio_reading(text: &str, ctx: &Ctx) -> Option<(Steadystate, Found)> {
    let (name, limit) = text.split_once(':')?;
    let criterion = criterion(name)?;
    if limit.contains(',') {
        return None;
    }
    let mut found = Found::default();
    let percent = limit.contains('%');
    let value = if percent || !criterion.starts_with("bw") {
        let (x, rest) = read_float(limit)?;
        found.ignore(&rest.replacen('%', "", 1));
        x
    } else {
        // A blank before the number keeps its unit here (`bw: 1m` is 1048576).
        let reading = number::read(limit.trim_start_matches(number::is_c_space), ctx.kb_base)?;
        let unread = &limit[limit.len() - reading.rest.len()..];
        if reading.zones {
            // A unit of zones means nothing here: fio keeps the number.
            found.ignore(&format!("z{unread}"));
        } else {
            found.ignore(unread);
        }
        if let Some(why) = reading.why {
            found.because(why);
        }
        reading.value as f64
    };
    if value < 0.0 {
        found.because("a negative limit, which steady state never meets");
    }
    Some((Steadystate { criterion, limit: value, percent }, found))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ss(text: &str) -> Result<Steadystate, String> {
        parse_steadystate(text, &Ctx::default())
    }

    /// fio's reading and whether iomark notes it.
    fn lenient(text: &str) -> Option<(String, bool)> {
        let (s, note) = read_steadystate(text, &Ctx::default()).ok()?;
        Some((s.fio_debug_line(), note.is_some()))
    }

    #[test]
    fn limits_as_fio_reads_them() {
        let s = ss("iops_slope:0.01%").unwrap();
        assert_eq!((s.criterion, s.limit, s.percent), ("iops_slope", 0.01, true));
        assert_eq!(ss("bw:1m").unwrap().limit, 1_048_576.0);
        assert_eq!(
            ss("iops:10").unwrap().fio_debug_line(),
            "set steady state IOPS threshold to 10.000000"
        );
        assert_eq!(
            ss("bw:1m").unwrap().fio_debug_line(),
            "set steady state BW threshold to 1048576"
        );
        assert_eq!(
            ss("bw:10%").unwrap().fio_debug_line(),
            "set steady state threshold to 10.000000%"
        );
        assert!(ss("lat:1").unwrap_err().contains("unknown criterion 'lat'"));
        for bad in ["iops", "iops:x%", "iops:1k", "bw:-1", "iops:-1"] {
            assert!(ss(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn malformed_limits_are_read_as_fio_reads_them_with_a_note() {
        let rows = [
            ("iops:10", "set steady state IOPS threshold to 10.000000", false),
            ("iops:10 %", "set steady state threshold to 10.000000%", false),
            ("iops:1k", "set steady state IOPS threshold to 1.000000", true),
            ("iops:10x", "set steady state IOPS threshold to 10.000000", true),
            ("iops:0x10", "set steady state IOPS threshold to 16.000000", true),
            ("iops:1:2", "set steady state IOPS threshold to 1.000000", true),
            ("iops:-1", "set steady state IOPS threshold to -1.000000", true),
            ("iops:10%x", "set steady state threshold to 10.000000%", true),
            ("iops:10%%", "set steady state threshold to 10.000000%", true),
            ("bw:4k%", "set steady state threshold to 4.000000%", true),
            ("bw:1.5m", "set steady state BW threshold to 1", true),
            ("bw:1mx", "set steady state BW threshold to 1048576", true),
            ("bw:1 m", "set steady state BW threshold to 1", true),
            ("bw: 1m", "set steady state BW threshold to 1048576", false),
            ("bw:1z", "set steady state BW threshold to 1", true),
            ("bw:-1m", "set steady state BW threshold to -1048576", true),
            ("bw:4kib", "set steady state BW threshold to 4000", false),
        ];
        for (text, line, noted) in rows {
            assert_eq!(lenient(text), Some((line.to_string(), noted)), "{text}");
        }
        for refused in ["IOPS:10", "iops:1,2", "iops:x", "bw:.5", "iops:inf", "lat:1", "iops"] {
            assert_eq!(lenient(refused), None, "{refused}");
        }
        let (_, note) = read_steadystate("iops:-1", &Ctx::default()).unwrap();
        let note = note.unwrap().to_string();
        assert!(note.contains("never meets") && note.contains("used iops:-1"), "{note}");
    }
}
