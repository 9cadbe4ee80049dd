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
use std::collections::{BTreeMap, HashMap};

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
    d: u64,
    c: Option<u64>,
    nr: u64,
    inserted: bool,
    op: Ddir,
}

#[derive(Debug, Clone, Copy)]
struct Bio {
    t: u64,
    nr: u64,
    op: Ddir,
}

/// The records not yet too old to belong to an I/O, and the split recorded so far.
#[derive(Debug, Default)]
pub struct Matcher {
    bios: BTreeMap<(u32, u64), Vec<Bio>>,
    reqs: BTreeMap<(u32, u64), Vec<Req>>,
    inserts: HashMap<(u32, u64), u64>,
    max_bio: u64,
    max_req: u64,
    /// What has been recorded.
    pub rec: BlockRecorder,
}

impl Matcher {
    /// Takes one record.
    pub fn add(&mut self, e: Event) {
        let Some(op) = e.op else { return };
        let key = (e.dev, e.sector);
        let nr = u64::from(e.nr);
        match e.kind {
            Kind::Queue => {
                self.max_bio = self.max_bio.max(nr);
                self.bios.entry(key).or_default().push(Bio { t: e.time, nr, op });
            }
            Kind::Insert => {
                self.inserts.insert(key, e.time);
            }
            Kind::Issue => {
                self.max_req = self.max_req.max(nr);
                let inserted = self.inserts.remove(&key).is_some();
                self.reqs.entry(key).or_default().push(Req {
                    d: e.time,
                    c: None,
                    nr,
                    inserted,
                    op,
                });
            }
            Kind::Complete => {
                if let Some(v) = self.reqs.get_mut(&key) {
                    if let Some(r) = v.iter_mut().rev().find(|r| r.c.is_none() && r.d <= e.time) {
                        r.c = Some(e.time);
                    }
                }
            }
        }
    }

    /// Matches one I/O and records its segments (or counts why not).
    pub fn io(&mut self, io: &MappedIo) {
        let c = &mut self.rec.counts;
        c.ios += 1;
        let (lo, hi) = (io.issue.saturating_sub(SLACK_NS), io.done + SLACK_NS);
        let mut q_first: Option<u64> = None;
        let (mut d_first, mut c_last): (Option<u64>, Option<u64>) = (None, None);
        let (mut requests, mut covered, mut wanted) = (0u64, 0u64, 0u64);
        let (mut merged, mut inserted) = (false, false);
        for r in &io.ranges {
            wanted += r.nr;
            let end = r.sector + r.nr;
            let from = (r.dev, r.sector.saturating_sub(self.max_bio));
            for (&(_, s), v) in self.bios.range(from..(r.dev, end)) {
                let own =
                    |b: &&Bio| b.op == io.dir && s + b.nr > r.sector && (lo..=hi).contains(&b.t);
                for b in v.iter().filter(own) {
                    q_first = Some(q_first.map_or(b.t, |q| q.min(b.t)));
                }
            }
            let from = (r.dev, r.sector.saturating_sub(self.max_req));
            for (&(_, s), v) in self.reqs.range(from..(r.dev, end)) {
                for q in v.iter().filter(|q| q.op == io.dir && s + q.nr > r.sector && q.d >= lo) {
                    let Some(done) = q.c.filter(|&t| t <= hi) else { continue };
                    requests += 1;
                    covered += (s + q.nr).min(end) - s.max(r.sector);
                    merged |= s < r.sector || s + q.nr > end;
                    inserted |= q.inserted;
                    d_first = Some(d_first.map_or(q.d, |d| d.min(q.d)));
                    c_last = Some(c_last.map_or(done, |x| x.max(done)));
                }
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
                self.rec.record(io.dir, [q - io.issue, d - q, cl - d, io.done - cl]);
            }
            (None, None, _) if !io.direct && !io.ranges.is_empty() => c.cache_hits += 1,
            _ => c.unmatched += 1,
        }
    }

    /// Forgets every record from before `before` (`CLOCK_MONOTONIC` ns).
    pub fn prune(&mut self, before: u64) {
        self.bios.retain(|_, v| {
            v.retain(|b| b.t >= before);
            !v.is_empty()
        });
        self.reqs.retain(|_, v| {
            v.retain(|r| r.d >= before);
            !v.is_empty()
        });
        self.inserts.retain(|_, &mut t| t >= before);
    }

    /// Records held.
    pub fn held(&self) -> usize {
        self.bios.values().map(Vec::len).sum::<usize>()
            + self.reqs.values().map(Vec::len).sum::<usize>()
    }
}

#[cfg(test)]
mod tests;
