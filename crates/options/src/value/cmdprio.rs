//! `cmdprio_bssplit`: per direction (reads, writes; `,` between them, a third list for
//! trims is read and unused), `:`-separated entries `BS/PERCENT` or
//! `BS/PERCENT/CLASS/LEVEL`: that share of the I/Os of length BS get that priority. The
//! option is a string of the table, read here when the job is parsed
//! ([`read_cmdprio_bssplit`]) and again by the plan, which checks the classes and levels.
//!
//! fio 3.33's leniency, learned from the priorities its JSON report shows per class: the
//! block size is read as a size is read leniently (`4kx` is 4k); the share as C's `atoi`
//! reads it (`x` is 0, so no I/O of that size gets the priority; `1.5` is 1; `50x` is 50),
//! and when text follows the share's number the class and level after it are ignored
//! (`4k/100x/2/3` gives the default class and level); a share past 100, or a negative one,
//! gives every I/O of that size the priority; an entry without a share (`4k`) has 0; an
//! entry of size 0 matches no I/O; fields
//! after the level are ignored. iomark reads the same, with a note. A class or level that
//! is no number, or an entry of three fields, fio refuses too (the job fails to start).

use super::lenient::number::read_decimal;
use super::lenient::{self, Found, Leniency};
use super::{Ctx, ValueError};

/// One entry of `cmdprio_bssplit`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PrioEntry {
    /// The I/O length it applies to.
    pub bs: u64,
    /// The share of those I/Os that get the priority, 0 to 100.
    pub percent: u32,
    /// Its own class and level, as written (the plan checks them); `None` for the
    /// options `cmdprio_class` and `cmdprio`.
    pub prio: Option<(i64, i64)>,
}

/// The entries of `text` for reads and writes (a single list serves both), read as fio
/// 3.33 does, with a [`Leniency`] to note where fio reads a malformed entry; the refusal
/// where fio refuses it too.
pub fn read_cmdprio_bssplit(
    text: &str,
    ctx: &Ctx,
) -> Result<([Vec<PrioEntry>; 2], Option<Leniency>), ValueError> {
    let parts: Vec<&str> = text.split(',').collect();
    let bad = |why: String| ValueError::List { value: text.to_string(), why };
    if parts.len() > 3 {
        return Err(bad("at most three lists (reads, writes, trims)".into()));
    }
    let mut found = Found::default();
    let mut out = [Vec::new(), Vec::new()];
    for (d, part) in parts.iter().take(2).enumerate() {
        for entry in part.split(':').map(str::trim).filter(|e| !e.is_empty()) {
            if let Some(e) = read_entry(entry, ctx, &mut found).map_err(bad)? {
                out[d].push(e);
            }
        }
    }
    if parts.len() == 1 {
        out[1] = out[0].clone();
    }
    if !found.noteworthy() {
        return Ok((out, None));
    }
    let used = lenient::joined_lists(&out[..parts.len().min(2)], |e| match e.prio {
        Some((c, l)) => format!("{}/{}/{c}/{l}", e.bs, e.percent),
        None => format!("{}/{}", e.bs, e.percent),
    });
    let leniency = Leniency {
        written: text.to_string(),
        ignored: found.ignored,
        why: found.why,
        used,
        strict: bad("an entry is BS/PERCENT or BS/PERCENT/CLASS/LEVEL, PERCENT 0 to 100".into()),
    };
    Ok((out, Some(leniency)))
}

/// One entry, as fio reads it; `None` for an entry of size 0, which matches no I/O.
fn read_entry(entry: &str, ctx: &Ctx, found: &mut Found) -> Result<Option<PrioEntry>, String> {
    let fields: Vec<&str> = entry.split('/').collect();
    let shape = || format!("'{entry}' is not BS/PERCENT or BS/PERCENT/CLASS/LEVEL");
    if fields.len() == 3 {
        return Err(shape());
    }
    let bs = lenient::scalar(fields[0].trim(), ctx.kb_base, found)
        .and_then(|n| u64::try_from(n).ok())
        .ok_or_else(|| format!("invalid size '{}' in '{entry}'", fields[0]))?;
    let Some(&share) = fields.get(1) else {
        found.because("an entry without a share is 0");
        return Ok(Some(PrioEntry { bs, percent: 0, prio: None }).filter(|_| bs > 0));
    };
    let (n, rest) = read_decimal(share).unwrap_or((0, share));
    let rest_lost = !lenient::number::nothing_lost(rest);
    found.ignore(rest);
    if rest == share {
        found.because("a share that is no number is 0");
    }
    let percent = match n {
        n if !(0..=100).contains(&n) => {
            found.because("a share past 100 or below 0 gives every I/O of its size the priority");
            100
        }
        n => n as u32,
    };
    let mut prio = None;
    if fields.len() >= 4 {
        if rest_lost {
            found.because("after a share with text the class and level are ignored");
        } else {
            let class = read_decimal(fields[2])
                .filter(|(_, rest)| rest.trim().is_empty())
                .map(|(n, _)| n)
                .ok_or_else(|| format!("class '{}' in '{entry}' is no number", fields[2]))?;
            let (level, rest) = read_decimal(fields[3])
                .ok_or_else(|| format!("level '{}' in '{entry}' is no number", fields[3]))?;
            found.ignore(rest);
            prio = Some((class, level));
        }
        if fields.len() > 4 {
            found.ignore(&format!("/{}", fields[4..].join("/")));
        }
    }
    if bs == 0 {
        found.because("an entry of size 0 matches no I/O");
        return Ok(None);
    }
    Ok(Some(PrioEntry { bs, percent, prio }))
}

#[cfg(test)]
mod tests {
    use super::*;

    const CTX: Ctx = Ctx { kb_base: 1024 };

    fn e(bs: u64, percent: u32, prio: Option<(i64, i64)>) -> PrioEntry {
        PrioEntry { bs, percent, prio }
    }

    fn read(text: &str) -> Result<(Vec<PrioEntry>, bool), ValueError> {
        read_cmdprio_bssplit(text, &CTX).map(|(d, n)| (d[0].clone(), n.is_some()))
    }

    #[test]
    fn well_formed_entries() {
        let (dirs, note) = read_cmdprio_bssplit("4k/100:64k/0/2/5,8k/100/3/0", &CTX).unwrap();
        assert_eq!(dirs[0], [e(4096, 100, None), e(65536, 0, Some((2, 5)))]);
        assert_eq!(dirs[1], [e(8192, 100, Some((3, 0)))]);
        assert!(note.is_none());
        let (dirs, _) = read_cmdprio_bssplit("4k/50", &CTX).unwrap();
        assert_eq!(dirs[0], dirs[1]);
    }

    #[test]
    fn malformed_entries_as_fio_reads_them() {
        // Each as fio 3.33's per-class counts show (bssplit=4k/50:8k/50, libaio).
        assert_eq!(read("4k/x").unwrap(), (vec![e(4096, 0, None)], true));
        assert_eq!(read("4k/1.5").unwrap(), (vec![e(4096, 1, None)], true));
        assert_eq!(read("4k/50x").unwrap(), (vec![e(4096, 50, None)], true));
        assert_eq!(read("4kx/100").unwrap(), (vec![e(4096, 100, None)], true));
        assert_eq!(read("4k/150").unwrap(), (vec![e(4096, 100, None)], true));
        assert_eq!(read("4k/-5").unwrap(), (vec![e(4096, 100, None)], true));
        assert_eq!(read("4k/100x/2/3").unwrap(), (vec![e(4096, 100, None)], true));
        assert_eq!(read("4k/100/2/3x").unwrap(), (vec![e(4096, 100, Some((2, 3)))], true));
        assert_eq!(read("4k/100/2/3/9").unwrap(), (vec![e(4096, 100, Some((2, 3)))], true));
        assert_eq!(read("0/50:8k/100").unwrap(), (vec![e(8192, 100, None)], true));
    }

    #[test]
    fn what_fio_refuses_too() {
        assert_eq!(read("4k").unwrap(), (vec![e(4096, 0, None)], true));
        for bad in ["4k/100/2", "4k/100/2x/3", "4k/100/2/x", "1,2,3,4"] {
            assert!(read(bad).is_err(), "{bad}");
        }
    }
}
