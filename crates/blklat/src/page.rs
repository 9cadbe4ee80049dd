//! The kernel's trace ring pages as `trace_pipe_raw` hands them out, decoded: a page
//! header (its first time stamp, the length of its data and whether records were
//! dropped before it, as `events/header_page` lays them out) and compressed entries
//! (`events/header_event`: a 5-bit type or length and a 27-bit time delta, time extends,
//! absolute time stamps, padding).

/// One raw record: when, and its tracepoint data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Raw<'a> {
    /// The trace clock's reading (TSC ticks for the instance's `x86-tsc`, `CLOCK_MONOTONIC`
    /// nanoseconds for `mono`).
    pub time: u64,
    /// The tracepoint's fields (starting with `common_type`).
    pub data: &'a [u8],
}

/// Where a page's header fields are (`events/header_page`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    /// Offset of `commit` (the data's length, and the flags of dropped records).
    pub commit: usize,
    /// Size of `commit` (a `local_t`: 8 bytes on a 64-bit kernel, 4 on a 32-bit one).
    pub commit_size: usize,
    /// Offset of the data.
    pub data: usize,
}

impl Default for Header {
    fn default() -> Header {
        Header { commit: 8, commit_size: 8, data: 16 }
    }
}

/// The header's layout from `events/header_page` (the 64-bit layout where it says nothing).
pub fn header(text: &str) -> Header {
    let mut h = Header::default();
    for line in text.lines() {
        let field = |key: &str| {
            line.split(';')
                .find_map(|p| p.trim().strip_prefix(key))
                .and_then(|v| v.trim().parse::<usize>().ok())
        };
        let (Some(offset), Some(size)) = (field("offset:"), field("size:")) else { continue };
        if line.contains(" commit;") {
            (h.commit, h.commit_size) = (offset, size);
        } else if line.contains(" data;") {
            h.data = offset;
        }
    }
    h
}

/// What one page held.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Got {
    /// Records handed on.
    pub records: u64,
    /// Records dropped before the page (1 where the kernel did not say how many).
    pub missed: u64,
}

/// The page says records were dropped before it.
const MISSED_EVENTS: u64 = 1 << 31;
/// ... and stored how many after its data.
const MISSED_STORED: u64 = 1 << 30;
/// Entry types (`type_len`) past the data lengths.
const PADDING: u32 = 29;
const TIME_EXTEND: u32 = 30;
const TIME_STAMP: u32 = 31;

fn le(bytes: &[u8], at: usize, n: usize) -> Option<u64> {
    let b = bytes.get(at..at + n)?;
    Some(b.iter().rev().fold(0u64, |v, &x| (v << 8) | u64::from(x)))
}

/// Decodes one page, handing each record to `each` in order.
pub fn decode(h: &Header, page: &[u8], each: &mut impl FnMut(Raw<'_>)) -> Got {
    let mut got = Got::default();
    let (Some(mut ts), Some(commit)) = (le(page, 0, 8), le(page, h.commit, h.commit_size)) else {
        return got;
    };
    let len = (commit & (MISSED_STORED - 1)) as usize;
    let Some(data) = page.get(h.data..h.data + len) else { return got };
    if commit & MISSED_EVENTS != 0 {
        got.missed = if commit & MISSED_STORED != 0 {
            le(page, h.data + len, h.commit_size).unwrap_or(1)
        } else {
            1
        };
    }
    let mut p = 0;
    while let Some(word) = le(data, p, 4) {
        let (kind, delta) = ((word & 31) as u32, word >> 5);
        let array = le(data, p + 4, 4);
        let next = match kind {
            0 => {
                // A long record: its length (with the length word) in the next word.
                let Some(n) = array else { break };
                let n = (n.saturating_sub(4) as usize + 3) & !3;
                ts += delta;
                let Some(rec) = data.get(p + 8..p + 8 + n) else { break };
                each(Raw { time: ts, data: rec });
                got.records += 1;
                p + 8 + n
            }
            1..=28 => {
                let n = kind as usize * 4;
                ts += delta;
                let Some(rec) = data.get(p + 4..p + 4 + n) else { break };
                each(Raw { time: ts, data: rec });
                got.records += 1;
                p + 4 + n
            }
            PADDING => {
                // A discarded record keeps its time delta; none: the page ends here.
                let Some(n) = array.filter(|_| delta != 0) else { break };
                ts += delta;
                p + 4 + n as usize
            }
            TIME_EXTEND => {
                let Some(hi) = array else { break };
                ts += (hi << 27) + delta;
                p + 8
            }
            _ => {
                debug_assert_eq!(kind, TIME_STAMP);
                let Some(hi) = array else { break };
                ts = (hi << 27) | delta;
                p + 8
            }
        };
        p = next;
    }
    got
}

/// Records a CPU's ring dropped, from its `stats` file (`overrun:` and `dropped events:`).
pub fn dropped(stats: &str) -> u64 {
    stats
        .lines()
        .filter_map(|l| l.strip_prefix("overrun:").or_else(|| l.strip_prefix("dropped events:")))
        .filter_map(|v| v.trim().parse::<u64>().ok())
        .sum()
}

#[cfg(test)]
mod tests;
