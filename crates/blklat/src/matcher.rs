//! Matching a job's I/Os to the block layer's records ([`Matcher`]): pure logic over
//! decoded events, so the tests feed it by hand.
//!
//! An I/O is a set of device ranges (a block device's offset, or a file's extents) with
//! its issue and completion on `CLOCK_MONOTONIC`. Its bios are the `block_bio_queue`
//! records (Q) that overlap its ranges inside its time window; its requests are the
//! issued (D) and completed (C) requests that overlap its ranges, issued and completed
//! inside the window. A request that reaches past the I/O's ranges carried other I/Os
//! too (merged); more than one request means the I/O was split. The segments:
//! issue→first Q (pre), Q→first D (queue), first D→last C (device), last C→completion.

use crate::tracefs::Kind;
use iomark_core::Ddir;
use iomark_stats::block::BlockRecorder;
use std::collections::{HashMap, VecDeque};

/// One decoded record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Event {
    /// Which event.
    pub kind: Kind,
    /// The kernel `dev_t` of the disk.
    pub dev: u32,
    /// First sector (512 bytes).
    pub sector: u64,
    /// Sectors.
    pub nr: u32,
    /// `CLOCK_MONOTONIC` nanoseconds.
    pub time: u64,
    /// The operation: the direction of a read, write or discard (`None`: a flush or
    /// another request that carries no data of an I/O).
    pub op: Option<Ddir>,
}

/// The operation of a record's `rwbs` letters (`R`, `RA`, `WS`, `FWS`, `D`…).
pub fn op_of(rwbs: &[u8]) -> Option<Ddir> {
    let letters = rwbs.iter().take_while(|&&c| c != 0);
    let mut op = None;
    for &c in letters {
        match c {
            b'D' => return Some(Ddir::Trim),
            b'W' => op = Some(Ddir::Write),
            b'R' => op = op.or(Some(Ddir::Read)),
            _ => {}
        }
    }
    op
}

/// A device range of an I/O: `nr` sectors from `sector` on disk `dev`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Range {
    /// The kernel `dev_t` of the disk.
    pub dev: u32,
    /// First sector.
    pub sector: u64,
    /// Sectors.
    pub nr: u64,
}

/// One I/O, mapped onto the device and the tracer's clock.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MappedIo {
    /// Its direction.
    pub dir: Ddir,
    /// Where it lies on the device (empty: not known).
    pub ranges: Vec<Range>,
    /// Start (see [`iomark_stats::block::IoTrace::start_ns`]), `CLOCK_MONOTONIC` ns.
    pub issue: u64,
    /// Completion seen, `CLOCK_MONOTONIC` ns.
    pub done: u64,
    /// Whether the file was opened `O_DIRECT` (no page cache in between).
    pub direct: bool,
}

/// How far outside an I/O's window its records may fall (the clocks' agreement).
pub const SLACK_NS: u64 = 2_000;

#[derive(Debug, Clone, Copy)]
struct Req {
    dev: u32,
    sector: u64,
    nr: u64,
    d: u64,
    c: Option<u64>,
    inserted: bool,
    op: Ddir,
}

#[derive(Debug, Clone, Copy)]
struct Bio {
    dev: u32,
    sector: u64,
    nr: u64,
    t: u64,
    op: Ddir,
}

/// Room made at the start, so that a steady run allocates nothing (the queues grow only
/// past this many records held at once, the maps past this many requests in flight). The
/// maps are small so that they stay in cache: with room for 4096 their lookups missed it
/// (bench/block-latency on the disk: the tracer's thread 806 -> 680 ns per I/O at 512).
const RECORDS: usize = 1 << 16;
const IN_FLIGHT: usize = 512;

/// The records not yet too old to belong to an I/O, and the split recorded so far.
///
/// Bios and requests are kept in time order (a bio by its Q, a request by its D) in two
/// queues: an I/O looks at the records inside its own time window only (found by binary
/// search), so its cost grows with the records of that window (the job's depth and the
/// disk's other traffic), not with all the records held; pruning drops the oldest from
/// the front. The requests in flight (issued, not completed) and the inserted ones not
/// yet issued are found by device and sector in two maps made with room to spare.
#[derive(Debug)]
pub struct Matcher {
    bios: VecDeque<Bio>,
    reqs: VecDeque<Req>,
    /// Requests issued and not completed: their D, and where they went in `reqs` (a
    /// count of the requests pushed, see [`Matcher::reqs_gone`]).
    open: HashMap<(u32, u64), (u64, u64), SectorHash>,
    /// Requests inserted and not issued: their I.
    inserts: HashMap<(u32, u64), u64, SectorHash>,
    /// Requests pushed onto `reqs` so far, and popped off its front (so that a request's
    /// place in it is its number less `reqs_gone`, unless a late one went in before it).
    reqs_pushed: u64,
    reqs_gone: u64,
    /// Where the last I/O's window began in `bios` and `reqs` (the next I/O's is near).
    hint: (usize, usize),
    /// What has been recorded.
    pub rec: BlockRecorder,
}

impl Default for Matcher {
    fn default() -> Matcher {
        Matcher {
            bios: VecDeque::with_capacity(RECORDS),
            reqs: VecDeque::with_capacity(RECORDS),
            open: HashMap::with_capacity_and_hasher(IN_FLIGHT, SectorHash),
            inserts: HashMap::with_capacity_and_hasher(IN_FLIGHT, SectorHash),
            reqs_pushed: 0,
            reqs_gone: 0,
            hint: (0, 0),
            rec: BlockRecorder::default(),
        }
    }
}

/// The maps' hash of a device and sector: a multiply and a rotate, the high half folded
/// onto the low (the keys come from the kernel, not from an adversary; the default SipHash
/// cost more than the rest of a record's handling).
#[derive(Debug, Clone, Copy, Default)]
struct SectorHash;

/// The state of [`SectorHash`].
#[derive(Debug, Default)]
struct SectorHasher(u64);

impl std::hash::BuildHasher for SectorHash {
    type Hasher = SectorHasher;
    fn build_hasher(&self) -> SectorHasher {
        SectorHasher(0)
    }
}

impl std::hash::Hasher for SectorHasher {
    fn finish(&self) -> u64 {
        // The table's place comes from the low bits, which a multiply leaves as poor as
        // the key's (a sector of an aligned I/O ends in zeros): the high bits folded in.
        self.0 ^ (self.0 >> 32)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

/// Puts `x` into `q` in the order of `key` (at the back, unless a record came late).
fn push_sorted<T>(q: &mut VecDeque<T>, x: T, key: impl Fn(&T) -> u64) {
    let t = key(&x);
    if q.back().is_none_or(|b| key(b) <= t) {
        q.push_back(x);
    } else {
        let at = q.partition_point(|y| key(y) <= t);
        q.insert(at, x);
    }
}

/// The first place in `q` (partitioned by `before`: true, then false) where `before` is
/// false, searched outwards from `hint` (the last I/O's place: the next one's is near, so
/// a few steps in cache rather than a binary search over every record held).
fn seek<T>(q: &VecDeque<T>, hint: usize, before: impl Fn(&T) -> bool) -> usize {
    let at = |i: usize| q.get(i).is_some_and(&before);
    let h = hint.min(q.len());
    let (mut lo, mut hi) = if h > 0 && !at(h - 1) {
        // Backwards: widen until a record before the window (or the front).
        let mut step = 1;
        while step < h && !at(h - 1 - step) {
            step *= 2;
        }
        (h.saturating_sub(step + 1), h - 1)
    } else {
        // Forwards: widen until a record in the window (or the back).
        let mut step = 1;
        while h + step < q.len() && at(h + step) {
            step *= 2;
        }
        (h, (h + step).min(q.len()))
    };
    // `lo` is before the window or the place itself; `hi` is in it or the end.
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if at(mid) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    lo
}

impl Matcher {
    /// Takes one record.
    pub fn add(&mut self, e: Event) {
        let Some(op) = e.op else { return };
        let key = (e.dev, e.sector);
        let nr = u64::from(e.nr);
        match e.kind {
            Kind::Queue => {
                let bio = Bio { dev: e.dev, sector: e.sector, nr, t: e.time, op };
                push_sorted(&mut self.bios, bio, |b| b.t);
            }
            Kind::Insert => {
                self.inserts.insert(key, e.time);
            }
            Kind::Issue => {
                let inserted = self.inserts.remove(&key).is_some();
                let req =
                    Req { dev: e.dev, sector: e.sector, nr, d: e.time, c: None, inserted, op };
                let number = self.reqs_pushed;
                self.reqs_pushed += 1;
                // A late record moves the ones after it: they are found by search below.
                push_sorted(&mut self.reqs, req, |r| r.d);
                self.open.insert(key, (e.time, number));
            }
            Kind::Complete => {
                let Some((d, number)) = self.open.remove(&key).filter(|&(d, _)| d <= e.time) else {
                    return;
                };
                let mine = |r: &Req| r.dev == e.dev && r.sector == e.sector && r.d == d;
                let at = number.wrapping_sub(self.reqs_gone) as usize;
                let at = match self.reqs.get(at) {
                    Some(r) if mine(r) => at,
                    _ => {
                        let from = self.reqs.partition_point(|r| r.d < d);
                        let mut same = self.reqs.range(from..).take_while(|r| r.d == d);
                        let Some(i) = same.position(mine) else { return };
                        from + i
                    }
                };
                self.reqs[at].c = Some(e.time);
            }
        }
    }

    /// Matches one I/O and records its segments (or counts why not); the segments, if
    /// it was matched.
    pub fn io(&mut self, io: &MappedIo) -> Option<[u64; 4]> {
        let c = &mut self.rec.counts;
        c.ios += 1;
        let (lo, hi) = (io.issue.saturating_sub(SLACK_NS), io.done + SLACK_NS);
        let mut q_first: Option<u64> = None;
        let (mut d_first, mut c_last): (Option<u64>, Option<u64>) = (None, None);
        let (mut requests, mut covered, mut wanted) = (0u64, 0u64, 0u64);
        let (mut merged, mut inserted) = (false, false);
        let first_bio = seek(&self.bios, self.hint.0, |b| b.t < lo);
        let from = seek(&self.reqs, self.hint.1, |r| r.d < lo);
        self.hint = (first_bio, from);
        let bios = self.bios.range(first_bio..).take_while(|b| b.t <= hi);
        for r in &io.ranges {
            wanted += r.nr;
            let end = r.sector + r.nr;
            let over = |dev: u32, s: u64, nr: u64| dev == r.dev && s < end && s + nr > r.sector;
            for b in bios.clone().filter(|b| b.op == io.dir && over(b.dev, b.sector, b.nr)) {
                q_first = Some(q_first.map_or(b.t, |q| q.min(b.t)));
            }
            let reqs = self.reqs.range(from..).take_while(|q| q.d <= hi);
            for q in reqs.filter(|q| q.op == io.dir && over(q.dev, q.sector, q.nr)) {
                let Some(done) = q.c.filter(|&t| t <= hi) else { continue };
                let s = q.sector;
                requests += 1;
                covered += (s + q.nr).min(end) - s.max(r.sector);
                merged |= s < r.sector || s + q.nr > end;
                inserted |= q.inserted;
                d_first = Some(d_first.map_or(q.d, |d| d.min(q.d)));
                c_last = Some(c_last.map_or(done, |x| x.max(done)));
            }
        }
        match (q_first, d_first, c_last) {
            (Some(q), Some(d), Some(cl)) if covered >= wanted && wanted > 0 => {
                c.matched += 1;
                c.merged += u64::from(merged);
                c.split += u64::from(requests > 1);
                c.inserted += u64::from(inserted);
                // Each boundary no earlier than the one before, so the four add up to clat.
                let raw = [q, d, cl];
                let q = q.clamp(io.issue, io.done);
                let d = d.clamp(q, io.done);
                let cl = cl.clamp(d, io.done);
                // How far a boundary had to move: where the clocks disagree.
                let moved =
                    raw.iter().zip([q, d, cl]).map(|(r, b)| r.abs_diff(b)).max().unwrap_or(0);
                if moved > 0 {
                    c.reordered += 1;
                    c.reorder_max_ns = c.reorder_max_ns.max(moved);
                }
                let segments = [q - io.issue, d - q, cl - d, io.done - cl];
                self.rec.record(io.dir, segments);
                return Some(segments);
            }
            (None, None, _) if !io.direct && !io.ranges.is_empty() => c.cache_hits += 1,
            _ => c.unmatched += 1,
        }
        None
    }

    /// Forgets every record from before `before` (`CLOCK_MONOTONIC` ns): the oldest bios
    /// and requests, and (once the maps are half full) requests that never completed or
    /// were never issued (their records lost, or merged into another after insertion).
    pub fn prune(&mut self, before: u64) {
        let (bios, reqs) = (self.bios.len(), self.reqs.len());
        while self.bios.front().is_some_and(|b| b.t < before) {
            self.bios.pop_front();
        }
        while self.reqs.front().is_some_and(|r| r.d < before) {
            self.reqs.pop_front();
        }
        let gone = (bios - self.bios.len(), reqs - self.reqs.len());
        self.reqs_gone += gone.1 as u64;
        self.hint = (self.hint.0.saturating_sub(gone.0), self.hint.1.saturating_sub(gone.1));
        if self.open.len() > IN_FLIGHT / 2 {
            self.open.retain(|_, &mut (d, _)| d >= before);
        }
        if self.inserts.len() > IN_FLIGHT / 2 {
            self.inserts.retain(|_, &mut t| t >= before);
        }
    }

    /// Records held.
    pub fn held(&self) -> usize {
        self.bios.len() + self.reqs.len()
    }
}

#[cfg(test)]
mod tests;
