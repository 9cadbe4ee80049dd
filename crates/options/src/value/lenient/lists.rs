//! fio 3.33's readings of malformed lists and ranges, learned from its `--debug=parse`
//! output, start lines and iologs (see `crates/options/tests/fio_compat/leniency.rs`):
//!
//! - per-direction values (`bs`, `rate`, `rate_iops`…) split at `,`, `:` and also `-`
//!   (`bs=4k-8k` is 4k for reads and 8k for writes); values past the third are ignored; a
//!   direction fio cannot read keeps its default;
//! - a range (`bsrange`, `filesize`) splits at its first `-` or `:`; each end is the number
//!   at its front (`bsrange=512/25:1k:25` is 512 to 1k); a time range reads its lower end
//!   from the whole text (`startdelay=1s-5sx` is 1 µs to 5 µs);
//! - `bssplit`: the front number of each size and share (a share in decimal, as C's `atoi`
//!   reads it); a share that is not a number is blank; shares that pass 100% give each entry its share in order until 100% is reached
//!   (`4k/50:8k/60` runs as `4k/50:8k/50`); entries past the 64th are ignored;
//! - a list of percentiles keeps the numbers it can read and skips the others, keeping 20;
//! - a list of CPUs (`cpus_allowed`) reads each CPU as C's `atoi` does (`1x` is 1, `x` is
//!   0, `0:1` is 0), a range without its end (`1-`) as its start; fio refuses a reversed
//!   range (`1-x`). (Learned from the worker's `Cpus_allowed_list` in `/proc`.)

use super::number::{self, read_float};
use super::{scalar, Found};
use crate::value::bssplit::MAX_SPLIT_ENTRIES;
use crate::value::lists::{MAX_CPUS, MAX_FLOAT_LIST};
use crate::value::{SplitEntry, TimeUnit};
use std::time::Duration;

/// Why `-` split directions.
const DASH_SPLITS: &str = "'-' separates the directions here, as ',' does";

/// The pieces of `text` between the separators `seps` (outside parentheses), each with the
/// separator before it (`None` for the first).
fn pieces<'a>(text: &'a str, seps: &[u8]) -> Vec<(Option<u8>, &'a str)> {
    let mut out = Vec::new();
    let (mut depth, mut start, mut sep) = (0usize, 0usize, None);
    for (i, b) in text.bytes().enumerate() {
        match b {
            b'(' => depth += 1,
            b')' => depth = depth.saturating_sub(1),
            _ if depth == 0 && seps.contains(&b) => {
                out.push((sep, &text[start..i]));
                (start, sep) = (i + 1, Some(b));
            }
            _ => {}
        }
    }
    out.push((sep, &text[start..]));
    out
}

/// Keeps the first `max` pieces, noting the text of the others as ignored.
fn at_most<'a>(
    mut all: Vec<(Option<u8>, &'a str)>,
    max: usize,
    found: &mut Found,
) -> Vec<(Option<u8>, &'a str)> {
    if all.len() > max {
        let extra: String = all[max..]
            .iter()
            .map(|(sep, p)| format!("{}{p}", sep.map_or(String::new(), |s| char::from(s).into())))
            .collect();
        found.ignored.push(extra);
        all.truncate(max);
    }
    all
}

/// fio's rule for one to three directions: one applies to all, with two trims take the
/// writes' (see `crate::value::lists`).
fn spread<T: Clone>(dirs: Vec<Option<T>>) -> [Option<T>; 3] {
    match dirs.as_slice() {
        [a] => [a.clone(), a.clone(), a.clone()],
        [a, b] => [a.clone(), b.clone(), b.clone()],
        [a, b, c, ..] => [a.clone(), b.clone(), c.clone()],
        [] => [None, None, None],
    }
}

/// A per-direction value as fio reads it; `elem` reads one direction's text. `None` when
/// no direction can be read.
pub(super) fn per_dir<T: Clone>(
    raw: &str,
    found: &mut Found,
    elem: impl Fn(&str, &mut Found) -> Option<T>,
) -> Option<[Option<T>; 3]> {
    let all = pieces(raw.trim_end_matches(number::is_c_space), b",:-");
    if all.iter().any(|(sep, _)| *sep == Some(b'-')) {
        found.because(DASH_SPLITS);
    }
    let mut dirs = Vec::new();
    for (_, piece) in at_most(all, 3, found) {
        if piece.trim().is_empty() {
            dirs.push(None);
            continue;
        }
        let value = elem(piece, found);
        if value.is_none() {
            found.ignored.push(piece.to_string());
        }
        dirs.push(value);
    }
    dirs.iter().any(Option::is_some).then(|| spread(dirs))
}

/// The two ends of a range `lo-hi` or `lo:hi` as fio reads them, lower end first; `None`
/// when there is no separator or an end cannot be read.
fn range(piece: &str, kb_base: u32, found: &mut Found) -> Option<(u64, u64)> {
    let sep = piece.find(['-', ':'])?;
    let end = |text: &str, upto: usize, found: &mut Found| -> Option<u64> {
        let reading = number::read(text, kb_base)?;
        if reading.zones || reading.percent {
            return None;
        }
        let used = text.len() - reading.rest.len();
        found.ignore(text.get(used..upto.max(used))?);
        if let Some(why) = reading.why {
            found.because(why);
        }
        u64::try_from(reading.value).ok()
    };
    let lo = end(&piece[..sep], sep, found)?;
    let hi_text = &piece[sep + 1..];
    let hi = end(hi_text, hi_text.len(), found)?;
    Some((lo.min(hi), lo.max(hi)))
}

/// `bsrange` as fio reads it: up to three ranges split at `,`; a range fio cannot read
/// keeps the default of its direction, except the first, without which fio refuses.
pub(super) fn ranges(
    raw: &str,
    kb_base: u32,
    found: &mut Found,
) -> Option<[Option<(u64, u64)>; 3]> {
    let mut dirs = Vec::new();
    for (i, (_, piece)) in at_most(pieces(raw, b","), 3, found).into_iter().enumerate() {
        if piece.trim().is_empty() {
            dirs.push(None);
            continue;
        }
        match range(piece, kb_base, found) {
            Some(r) => dirs.push(Some(r)),
            None if i == 0 => return None,
            None => {
                found.ignored.push(piece.to_string());
                dirs.push(None);
            }
        }
    }
    Some(spread(dirs))
}

/// `filesize` as fio reads it: a range, or one size for both ends; what follows a `,` is
/// ignored.
pub(super) fn size_range(raw: &str, kb_base: u32, found: &mut Found) -> Option<(u64, u64)> {
    let (first, rest) = raw.split_once(',').map_or((raw, None), |(a, b)| (a, Some(b)));
    if let Some(rest) = rest {
        found.ignored.push(format!(",{rest}"));
    }
    if first.contains(['-', ':']) {
        return range(first, kb_base, found);
    }
    let n = u64::try_from(scalar(first, kb_base, found)?).ok()?;
    Some((n, n))
}

/// A time range as fio reads it: the lower end from the whole text, the upper one after the
/// first `-` or `:`; one time for both ends without a separator.
pub(super) fn time_range(
    raw: &str,
    unit: TimeUnit,
    found: &mut Found,
) -> Option<(Duration, Duration)> {
    let Some(sep) = raw.find(['-', ':']).filter(|&at| at > 0) else {
        let t = super::time(raw, unit, found)?;
        return Some((t, t));
    };
    let lo = super::time::read(raw, unit)?;
    let lo_used = raw.len() - lo.ignored.len();
    found.ignore(raw.get(lo_used..sep.max(lo_used))?);
    if let Some(why) = lo.why {
        found.because(why);
    }
    let hi = super::time(&raw[sep + 1..], unit, found)?;
    let lo = Duration::from_micros(lo.micros);
    Some((lo.min(hi), lo.max(hi)))
}

/// `bssplit` as fio reads it (see the module documentation); `None` where fio refuses it
/// or where its run is broken: shares past 100% with a blank share among them.
pub(super) fn bssplit(
    raw: &str,
    kb_base: u32,
    found: &mut Found,
) -> Option<[Option<Vec<SplitEntry>>; 3]> {
    let mut dirs = Vec::new();
    for (_, dir) in at_most(pieces(raw, b","), 3, found) {
        if dir.trim().is_empty() {
            dirs.push(None);
            continue;
        }
        dirs.push(Some(split(dir, kb_base, found)?));
    }
    dirs.iter().any(Option::is_some).then(|| spread(dirs))
}

/// One direction of a `bssplit`.
fn split(dir: &str, kb_base: u32, found: &mut Found) -> Option<Vec<SplitEntry>> {
    let items: Vec<(Option<u8>, &str)> =
        pieces(dir, b":").into_iter().filter(|(_, i)| !i.trim().is_empty()).collect();
    let mut entries = Vec::new();
    for (_, item) in at_most(items, MAX_SPLIT_ENTRIES, found) {
        let (size, share) = item.split_once('/').map_or((item, None), |(a, b)| (a, Some(b)));
        let bs = u64::try_from(scalar(size, kb_base, found)?).ok()?;
        if bs == 0 {
            // The plan runs it where fio's run is sound (the other sizes are `bs`).
            found.because("an entry of size 0 stands for the job's bs");
        }
        // A share is read as C's `atoi` reads it: `50x` is 50, `x` is 0, which is blank.
        let percent = match share.map(|s| (s, number::read_decimal(s))) {
            None => None,
            Some((s, None)) => {
                found.ignore(s);
                None
            }
            Some((_, Some((value, rest)))) => {
                found.ignore(rest);
                match u32::try_from(value).ok()? {
                    0 => None,
                    p => Some(p),
                }
            }
        };
        entries.push(SplitEntry { bs, percent });
    }
    let sum: u32 = entries.iter().filter_map(|e| e.percent).sum();
    if sum > 100 {
        if entries.iter().any(|e| e.percent.is_none()) {
            return None;
        }
        found.because("the shares pass 100%: each takes its share in order until 100% is reached");
        let mut left = 100u32;
        for e in &mut entries {
            let p = e.percent.unwrap_or(0).min(left);
            left -= p;
            e.percent = Some(p);
        }
    }
    (!entries.is_empty()).then_some(entries)
}

/// A list of CPUs as fio reads it (see the module documentation); `None` where fio
/// refuses it.
pub(super) fn cpu_list(raw: &str, found: &mut Found) -> Option<Vec<u32>> {
    let mut cpus = Vec::new();
    for item in raw.split(',').map(|i| i.trim_matches(number::is_c_space)).filter(|i| !i.is_empty())
    {
        let (lo, hi) = item.split_once('-').map_or((item, None), |(a, b)| (a, Some(b)));
        let lo = cpu(lo, found)?;
        let hi = match hi {
            Some(b) if !b.trim().is_empty() => cpu(b, found)?,
            Some(_) => {
                found.because("a range without its end is its start");
                lo
            }
            None => lo,
        };
        if hi < lo {
            return None;
        }
        cpus.extend(lo..=hi);
    }
    cpus.sort_unstable();
    cpus.dedup();
    (!cpus.is_empty()).then_some(cpus)
}

/// One CPU of a list, as C's `atoi` reads it.
fn cpu(text: &str, found: &mut Found) -> Option<u32> {
    let (n, rest) = number::read_decimal(text).unwrap_or((0, text));
    if rest == text {
        found.because("no number, which fio 3.33 reads as CPU 0");
    }
    found.ignore(rest);
    u32::try_from(n).ok().filter(|n| *n < MAX_CPUS)
}

/// A list of percentiles as fio reads it: the numbers it can read, in 0..=100, at most 20.
pub(super) fn float_list(raw: &str, found: &mut Found) -> Option<Vec<f64>> {
    let mut out = Vec::new();
    for (i, item) in raw.split(':').enumerate() {
        if out.len() == MAX_FLOAT_LIST {
            let rest: Vec<&str> = raw.split(':').skip(i).collect();
            found.ignored.push(rest.join(":"));
            break;
        }
        match read_float(item) {
            // fio 3.33 ends the list at a 0.
            Some((0.0, _)) => {
                let rest: Vec<&str> = raw.split(':').skip(i).collect();
                found.ignored.push(rest.join(":"));
                found.because("a 0 ends the list");
                break;
            }
            Some((x, rest)) if (0.0..=100.0).contains(&x) => {
                found.ignore(rest);
                out.push(x);
            }
            _ => found.ignored.push(item.to_string()),
        }
    }
    if found.ignored.iter().any(String::is_empty) {
        found.because("an empty entry is skipped");
    }
    (!out.is_empty()).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sizes(raw: &str) -> Option<([Option<u64>; 3], Found)> {
        let mut found = Found::default();
        let v = per_dir(raw, &mut found, |p, f| u64::try_from(scalar(p, 1024, f)?).ok())?;
        Some((v, found))
    }

    #[test]
    fn per_direction_values() {
        let (v, f) = sizes("4k-8k").unwrap();
        assert_eq!(v, [Some(4096), Some(8192), Some(8192)]);
        assert!(f.why.iter().any(|w| w == DASH_SPLITS));
        let (v, f) = sizes("4k,8k,16k,32k").unwrap();
        assert_eq!((v, f.ignored), ([Some(4096), Some(8192), Some(16384)], vec![",32k".into()]));
        let (v, f) = sizes("4k,x").unwrap();
        assert_eq!((v, f.ignored), ([Some(4096), None, None], vec!["x".into()]));
        assert_eq!(sizes(" 4k").unwrap().0, [Some(4); 3]);
        assert!(sizes("x").is_none());
    }

    #[test]
    fn ranges_as_fio_reads_them() {
        let r = |raw| ranges(raw, 1024, &mut Found::default());
        assert_eq!(r("512/25:1k:25:2k:25:4k/25"), Some([Some((512, 1024)); 3]));
        assert_eq!(r("1k - 4k"), Some([Some((4, 1024)); 3]));
        assert_eq!(r(" 1k-4k"), Some([Some((1, 4096)); 3]));
        assert_eq!(r("1k-4k,x"), Some([Some((1024, 4096)), None, None]));
        assert_eq!(r("4k"), None);
        let s = |raw| size_range(raw, 1024, &mut Found::default());
        assert_eq!(s("65536)"), Some((65536, 65536)));
        assert_eq!(s("4k-8kx"), Some((4096, 8192)));
        assert_eq!(s("4k,"), Some((4096, 4096)));
    }

    #[test]
    fn time_ranges_read_the_lower_end_from_the_whole_text() {
        let t = |raw| time_range(raw, TimeUnit::Seconds, &mut Found::default());
        let (us, s) = (Duration::from_micros, Duration::from_secs);
        assert_eq!(t("1s-5sx"), Some((us(1), us(5))));
        assert_eq!(t("1-5x"), Some((us(1), us(5))));
        assert_eq!(t("5x-1"), Some((us(5), s(1))));
        assert_eq!(t("1-2-3"), None);
    }

    #[test]
    fn bssplit_shares() {
        let b = |raw| bssplit(raw, 1024, &mut Found::default()).map(|d| d[0].clone().unwrap());
        let e = |bs, percent| SplitEntry { bs, percent };
        assert_eq!(b("4k/50:8k/60"), Some(vec![e(4096, Some(50)), e(8192, Some(50))]));
        assert_eq!(b("4k/80:8k/80"), Some(vec![e(4096, Some(80)), e(8192, Some(20))]));
        assert_eq!(b("4k/x:8k/50"), Some(vec![e(4096, None), e(8192, Some(50))]));
        assert_eq!(b("4kx/50:8k/50x"), Some(vec![e(4096, Some(50)), e(8192, Some(50))]));
        assert_eq!(b("4k/1.5:8k/"), Some(vec![e(4096, Some(1)), e(8192, None)]));
        assert_eq!(b("4k/50:8k/60:16k/"), None, "fio's run is broken");
        assert_eq!(b("/10"), None);
    }

    #[test]
    fn cpu_lists() {
        // fio 3.33's worker's Cpus_allowed_list for each.
        for (raw, want) in [
            ("0-1x", vec![0, 1]),
            ("0,1x", vec![0, 1]),
            ("0:1", vec![0]),
            ("x", vec![0]),
            ("x-1", vec![0, 1]),
            ("1-", vec![1]),
            ("1,x", vec![0, 1]),
            ("1-1x", vec![1]),
        ] {
            let mut found = Found::default();
            assert_eq!(cpu_list(raw, &mut found), Some(want), "{raw}");
            assert!(found.noteworthy(), "{raw}");
        }
        assert_eq!(cpu_list("1-x", &mut Found::default()), None, "fio refuses it");
    }

    #[test]
    fn percentile_lists() {
        let l = |raw| float_list(raw, &mut Found::default());
        assert_eq!(l("50:99x"), Some(vec![50.0, 99.0]));
        assert_eq!(l("50:abc:60"), Some(vec![50.0, 60.0]));
        assert_eq!(l("50:101:60"), Some(vec![50.0, 60.0]));
        assert_eq!(l("50,60"), Some(vec![50.0]));
        assert_eq!(l("101"), None);
        let many: Vec<String> = (1..=21).map(|i| i.to_string()).collect();
        assert_eq!(l(&many.join(":")).map(|v| v.len()), Some(20));
    }
}
