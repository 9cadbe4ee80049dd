//! `bssplit`: block sizes with their shares, `4k/10:64k/50:1m/40`, per direction with `,`.
//!
//! An entry is `size/percent`; a blank share (`64k/`, or a size alone, `64k`) takes an
//! equal part of what the explicit shares leave ([`effective_shares`]). Directions follow
//! the per-direction rule of [`super::lists`] (`bssplit=2k/50:4k/50,4k/90:8k/10` gives trims
//! the write split).
//!
//! A share of 0 is blank, as fio 3.33 reads it (`4k/0:8k/50` runs as `4k/50:8k/50`).
//!
//! fio 3.33 checks almost nothing here: it runs `4k/50:8k/60`, `4k/x` or `4k/1.5` without a
//! word, and only refuses an entry with no size (`/10`). This strict grammar refuses shares
//! that add up to more than 100, a share that is not a whole number, malformed entries and
//! more than 64 entries per direction (fio warns `hit max of 64 split entries` and keeps
//! going); iomark then reads them as fio does, with a note ([`super::lenient`]). So is an
//! entry of size 0, which the plan runs where fio's run is sound (every other size is the
//! job's `bs`: that size alone) and refuses otherwise. Shares past 100% with a blank share
//! among them stay refused: fio gives the blank what is left below 0, and its run issues
//! the sizes in a broken way.

use super::{Ctx, SplitEntry, ValueError};

/// The most entries per direction (fio's documented limit).
pub const MAX_SPLIT_ENTRIES: usize = 64;

/// Parses a whole `bssplit` value into splits for reads, writes and trims.
pub fn parse_bssplit(raw: &str, ctx: &Ctx) -> Result<[Option<Vec<SplitEntry>>; 3], ValueError> {
    super::lists::per_dir(raw, b",", |field| parse_direction(field, ctx))
}

/// Parses the split of one direction: `4k/10:64k/:1m/`.
fn parse_direction(text: &str, ctx: &Ctx) -> Result<Vec<SplitEntry>, ValueError> {
    let list_err = |why: String| ValueError::List { value: text.to_string(), why };
    let mut entries = Vec::new();
    let mut sum = 0u32;
    for item in text.split(':').map(str::trim) {
        if item.is_empty() {
            continue;
        }
        let (bs_text, share) = match item.split_once('/') {
            Some((bs, share)) => (bs, share.trim()),
            None => (item, ""),
        };
        let bs = super::size::parse_size(bs_text, ctx)?;
        if bs == 0 {
            return Err(list_err(format!("block size of '{item}' is zero")));
        }
        let percent = if share.is_empty() {
            None
        } else {
            match share.parse::<u32>() {
                Ok(0) if share.bytes().all(|b| b.is_ascii_digit()) => None,
                Ok(p) if p <= 100 && share.bytes().all(|b| b.is_ascii_digit()) => Some(p),
                _ => return Err(list_err(format!("share of '{item}' is not a whole 0..100"))),
            }
        };
        sum += percent.unwrap_or(0);
        entries.push(SplitEntry { bs, percent });
    }
    if entries.is_empty() {
        return Err(list_err("no block size given".into()));
    }
    if entries.len() > MAX_SPLIT_ENTRIES {
        return Err(list_err(format!("more than {MAX_SPLIT_ENTRIES} entries")));
    }
    if sum > 100 {
        let broken = match entries.iter().any(|e| e.percent.is_none()) {
            true => {
                "; with a blank share among them fio 3.33's run is broken (the blank gets \
                     what is left below 0)"
            }
            false => "",
        };
        return Err(list_err(format!("shares add up to {sum}%, more than 100%{broken}")));
    }
    Ok(entries)
}

/// The share of each entry in percent, blank shares filled with equal parts of what the
/// explicit shares leave (`4k/50:1k/:32k/` gives 50, 25, 25).
pub fn effective_shares(entries: &[SplitEntry]) -> Vec<f64> {
    let given: u32 = entries.iter().filter_map(|e| e.percent).sum();
    let blanks = entries.iter().filter(|e| e.percent.is_none()).count();
    let rest = f64::from(100u32.saturating_sub(given));
    entries
        .iter()
        .map(|e| match e.percent {
            Some(p) => f64::from(p),
            None => rest / blanks as f64,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const CTX: Ctx = Ctx { kb_base: 1024 };

    fn e(bs: u64, percent: Option<u32>) -> SplitEntry {
        SplitEntry { bs, percent }
    }

    fn one(raw: &str) -> Result<Vec<SplitEntry>, ValueError> {
        parse_bssplit(raw, &CTX).map(|dirs| dirs[0].clone().unwrap())
    }

    #[test]
    fn explicit_shares() {
        assert_eq!(
            one("4k/10:64k/50:32k/40"),
            Ok(vec![e(4096, Some(10)), e(65536, Some(50)), e(32768, Some(40))])
        );
    }

    #[test]
    fn blank_shares() {
        let entries = one("4k/10:64k/:1m/").unwrap();
        assert_eq!(entries, vec![e(4096, Some(10)), e(65536, None), e(1 << 20, None)]);
        assert_eq!(effective_shares(&entries), vec![10.0, 45.0, 45.0]);
        assert_eq!(one("4k:8k"), Ok(vec![e(4096, None), e(8192, None)]));
    }

    #[test]
    fn per_direction() {
        let dirs = parse_bssplit("2k/50:4k/50,4k/90:8k/10", &CTX).unwrap();
        assert_eq!(dirs[0], Some(vec![e(2048, Some(50)), e(4096, Some(50))]));
        assert_eq!(dirs[1], Some(vec![e(4096, Some(90)), e(8192, Some(10))]));
        assert_eq!(dirs[2], dirs[1]);
        let dirs = parse_bssplit(",16k", &CTX).unwrap();
        assert_eq!(dirs, [None, Some(vec![e(16384, None)]), Some(vec![e(16384, None)])]);
        let dirs = parse_bssplit("4k:8k,", &CTX).unwrap();
        assert_eq!((dirs[1].is_none(), dirs[2].is_none()), (true, true));
    }

    #[test]
    fn empty_entries_are_skipped() {
        assert_eq!(one("4k/10:"), Ok(vec![e(4096, Some(10))]));
    }

    #[test]
    fn errors() {
        for bad in
            ["4k/50:8k/60", "0/100", "4k/1.5", "4k/-5", "4k/10x", "4kx/10", "4k//10", "/10", ":"]
        {
            assert!(parse_bssplit(bad, &CTX).is_err(), "{bad}");
        }
        assert!(parse_bssplit("", &CTX).is_err());
    }

    #[test]
    fn entry_limit() {
        let make = |n: usize| (1..=n).map(|i| format!("{i}k/")).collect::<Vec<_>>().join(":");
        assert_eq!(one(&make(64)).map(|v| v.len()), Ok(64));
        assert!(parse_bssplit(&make(65), &CTX).is_err());
    }
}
