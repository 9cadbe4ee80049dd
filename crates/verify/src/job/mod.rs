//! The verify side of a job: what each write stamps, the log of writes, the verify reads
//! (after the writes, or every `verify_backlog` writes), the checks of the blocks read
//! back, the failure reports and the state file.
//!
//! The job loop calls in at five points: [`JobVerify::stamp`] when it prepares a write's
//! buffer, [`JobVerify::written`] when a write completes, [`JobVerify::next_read`] and then
//! [`JobVerify::next_trim`] (`trim_percentage`, see [`trim`]) before it asks the workload
//! for the next I/O, and [`JobVerify::check`] when a verify read completes; a trim is
//! told of when it is issued and when it completes (see `workload_trims`). The log of
//! writes is allocated when the job starts, with room for every write of `io_size × loops`
//! (and the trims of `trimwrite`); only a job that writes more than that (`time_based`)
//! grows it, by doubling. Stamping and checking allocate nothing; a failure's report does (it is
//! the uncommon path and ends the job).
//!
//! Which blocks are read back: every logged write once, newest first wins. With the random
//! map a pass writes each block once; with `norandommap` (or several passes) a block can be
//! written again, and then only its last write is checked; an older write that a newer one
//! overlaps even in part is dropped (fio 3.33 does the same with its tree of writes).

mod asynchronous;
mod check;
mod newest;
mod passes;
mod report;
mod trim;
mod workload_trims;
mod written;

pub use asynchronous::HelperHost;
pub use trim::Trimmed;
pub use written::Written;

use crate::block::Stamp;
use crate::plan::VerifyPlan;
use check::{bad_report, check_block};
use std::collections::BTreeMap;
use std::sync::Arc;

/// The most write log entries reserved up front (32 bytes each).
const MAX_RESERVED: u64 = 1 << 22;

/// The verify state of one running job.
pub struct JobVerify {
    /// The options.
    pub plan: VerifyPlan,
    stamp: Stamp,
    /// Completed writes not yet verified, in completion order.
    log: Vec<Written>,
    /// The reads of the verify phase, in the order they are issued.
    queue: Vec<Written>,
    next: usize,
    /// The verify read drawn and not yet issued.
    pending: Option<Written>,
    /// The log position of the write whose `trim_percentage` trim is drawn and not yet
    /// issued (any other trim is the workload's, see `workload_trims`).
    trim_drawn: Option<usize>,
    /// The workload's trims issued (numbered apart from the writes).
    workload_trims: u64,
    /// Reads the `verify_backlog` batch under way still owes (0 between batches).
    batch_left: u64,
    /// Whether the last verify read drawn was one of `verify_backlog` (and no trim was
    /// considered since): a trim batch does not begin right after one.
    after_backlog_read: bool,
    /// Logged writes still to verify (fio's count of its history), which paces the backlog and the trims.
    unverified: u64,
    /// What `trim_percentage` chose and when it trims, if the job trims.
    trims: Option<trim::Trims>,
    /// With `verify_backlog`: the newest write of each place, to drop overwritten ones.
    newest: Option<newest::Newest>,
    /// With `verify_async`: the helper threads that check the blocks read back.
    helpers: Option<asynchronous::Helpers>,
    /// Per unit: the write number of the write in it, or the block its verify read is for.
    units: Vec<Option<Written>>,
    /// The verify phase reads back in the order of the writes rather than of the offsets.
    write_order: bool,
    /// Whether the verify phase (after the writes) has begun.
    reading: bool,
    /// Writes issued (numbered from 0).
    issued: u64,
    /// Bytes of the I/Os issued (writes, trims, verify reads), for `io_size` between
    /// passes (see `passes`).
    issued_bytes: u64,
    /// With `verify_state_load`: the writes the earlier run completed.
    limit: Option<u64>,
    /// Bad blocks found.
    pub failures: u64,
    /// Blocks checked.
    pub verified: u64,
}

impl JobVerify {
    /// The verify state of a job that verifies as `plan` says; `host` starts the
    /// `verify_async` helpers, if the job has any. The error names the option.
    pub fn new(plan: &VerifyPlan, host: Arc<dyn HelperHost>) -> Result<JobVerify, String> {
        let job = &plan.job;
        // `trimwrite` logs its trims too: one before each write.
        let per_write = if job.trimwrite { 2 } else { 1 };
        let reserve = (job.writes * per_write).min(MAX_RESERVED);
        let limit = if plan.state_load { Some(report::load_state(job)?) } else { None };
        let newest = (plan.backlog > 0 && plan.do_verify).then(|| {
            let round = plan.backlog.max(plan.backlog_batch) + u64::from(job.depth);
            newest::Newest::new(job.grain, job.max_bs, 4 * round)
        });
        let stamp = Stamp { seed: job.seed, thread: job.thread, numberio: 0 };
        let trims = plan
            .trim
            .filter(|_| plan.do_verify)
            .map(|t| trim::Trims::new(t, job.writes.min(MAX_RESERVED) as usize));
        let helpers = if plan.async_threads > 0 && (plan.do_verify || plan.reads_only) {
            let seed = plan.knows_writes().then_some(stamp.seed);
            Some(asynchronous::Helpers::start(plan, seed, host)?)
        } else {
            None
        };
        Ok(JobVerify {
            stamp,
            log: Vec::with_capacity(reserve as usize),
            queue: Vec::new(),
            next: 0,
            pending: None,
            trim_drawn: None,
            workload_trims: 0,
            batch_left: 0,
            after_backlog_read: false,
            unverified: 0,
            trims,
            newest,
            helpers,
            units: vec![None; job.depth as usize],
            write_order: false,
            reading: false,
            issued: 0,
            issued_bytes: 0,
            limit,
            failures: 0,
            verified: 0,
            plan: plan.clone(),
        })
    }

    /// Whether writes are only logged, not issued (`verify_only`).
    pub fn verify_only(&self) -> bool {
        self.plan.verify_only
    }

    /// Stamps a write's buffer `buf` for file `offset`, issued by unit `unit` to `file`;
    /// numbers the write. Allocates nothing.
    #[inline]
    pub fn stamp(&mut self, unit: u32, buf: &mut [u8], file: usize, offset: u64) {
        let numberio = self.issued;
        self.issued += 1;
        self.plan.format.stamp(buf, offset, &Stamp { numberio, ..self.stamp });
        let (len, trimmed) = (buf.len() as u32, Trimmed::No);
        let w = Written { file: file as u32, len, offset, numberio, trimmed };
        if let Some(newest) = &mut self.newest {
            newest.issued(&w);
        }
        self.units[unit as usize] = Some(w);
    }

    /// A write that `verify_only` does not issue: logged as if it had completed.
    pub fn pretend_write(&mut self, file: usize, offset: u64, len: usize) {
        let numberio = self.issued;
        self.issued += 1;
        if self.limit.is_some_and(|l| numberio >= l) {
            return;
        }
        let (len, trimmed) = (len as u32, Trimmed::No);
        let w = Written { file: file as u32, len, offset, numberio, trimmed };
        if let Some(newest) = &mut self.newest {
            newest.issued(&w);
        }
        self.log.push(w);
        self.logged();
    }

    /// The write just pushed to the log is one more to verify, and perhaps to trim.
    #[inline]
    fn logged(&mut self) {
        self.unverified += 1;
        if let Some(t) = &mut self.trims {
            t.logged(self.log.len() - 1);
        }
    }

    /// The write in unit `unit` completed with `ok`. `Err` (with an empty report: it
    /// comes with [`JobVerify::settle`]) when a `verify_async` helper has found a bad block
    /// that ends the job.
    #[inline]
    pub fn written(&mut self, unit: u32, ok: bool) -> Result<(), String> {
        if let Some(w) = self.units[unit as usize].take() {
            if ok {
                self.log.push(w);
                self.logged();
            }
        }
        match &self.helpers {
            Some(h) if h.ended() => Err(String::new()),
            _ => Ok(()),
        }
    }

    /// Makes the verify phase read back in the order of the writes: fio 3.33 does so when
    /// the job's random map is on (no write can overlap another then), and reads back in
    /// file and offset order otherwise.
    pub fn read_in_write_order(&mut self) {
        self.write_order = true;
    }

    /// Starts the verify phase once the writes are done and none is in flight: `false`
    /// when there is nothing to read back.
    pub fn begin_reading(&mut self) -> bool {
        if !self.plan.do_verify {
            return false;
        }
        self.queue = newest_wins(&self.log, self.next.min(self.log.len()), self.write_order);
        // A backlog read or a trim drawn but not issued: the write phase ended while it
        // waited (for a sync, or for the rate). The trim's write still holds its data; the
        // read's write, taken off the log, is read back now (nothing was issued over it
        // since it was drawn: it was the newest of its place).
        self.trim_drawn = None;
        if let Some(w) = self.pending.take() {
            self.queue.push(w);
            if !self.write_order {
                self.queue.sort_unstable_by_key(|w| (w.file, w.offset));
            }
        }
        self.log.clear();
        if let Some(newest) = &mut self.newest {
            newest.clear();
        }
        self.next = 0;
        self.reading = true;
        !self.queue.is_empty()
    }

    /// Whether the verify phase has begun.
    pub fn reading(&self) -> bool {
        self.reading
    }

    /// The next verify read (file, offset, length), if one is due: in the verify phase the
    /// next block, else a backlog block (oldest write first). The unit that issues it
    /// claims it with [`JobVerify::bind_read`].
    ///
    /// The backlog is fio 3.33's (read off its `write_iolog`): whenever `verify_backlog`
    /// logged writes wait unverified, a batch of `verify_backlog_batch` reads begins; it
    /// reads the waiting writes, oldest first, and when it owes more reads than writes
    /// wait, it reads each next write as soon as it completes, until the batch is done.
    /// So with a batch below the backlog, the job verifies again after every batch-many
    /// writes, and the backlog never lags further behind.
    #[inline]
    pub fn next_read(&mut self) -> Option<(usize, u64, usize)> {
        let w = if self.reading {
            let w = *self.queue.get(self.next)?;
            self.next += 1;
            w
        } else if self.plan.backlog > 0 && self.plan.do_verify && !self.plan.verify_only {
            if self.batch_left == 0 {
                if self.unverified < self.plan.backlog {
                    return None;
                }
                self.batch_left = self.plan.backlog_batch;
            }
            // The oldest logged write that no newer one has overwritten since (a newer one
            // that completed or is in flight: the place holds, or will hold, its data).
            loop {
                if self.next >= self.log.len() {
                    // The batch goes on with the next writes, as they complete.
                    return None;
                }
                let w = self.log[self.next];
                self.next += 1;
                if self.next == self.log.len() {
                    self.restart_log();
                }
                if !w.trimmed.verified() {
                    // A trim took it off the list (trim_verify_zero=0): its grains go.
                    if let Some(newest) = &mut self.newest {
                        newest.take(&w);
                    }
                    continue;
                }
                self.unverified -= 1;
                if self.newest.as_mut().is_none_or(|n| n.take(&w)) {
                    self.batch_left -= 1;
                    self.after_backlog_read = true;
                    break w;
                }
            }
        } else {
            return None;
        };
        self.pending = Some(w);
        Some((w.file as usize, w.offset, w.len as usize))
    }

    /// Everything logged so far is drawn: start the log over (no allocation).
    fn restart_log(&mut self) {
        self.log.clear();
        self.next = 0;
        if let Some(t) = &mut self.trims {
            t.clear();
        }
    }

    /// The next trim of a written block (file, offset, length), if `trim_backlog` says one
    /// is due (see `trim.rs`); it is marked in the log when the unit that issues it claims
    /// it ([`JobVerify::bind_trim`]), as fio marks it when it issues the trim. A write that a newer one overwrites is not trimmed: one in flight
    /// (the trim would wait for it, then zero it), or with `verify_backlog` (whose table
    /// knows the newest write of every place) one that completed; without it the verify
    /// phase orders completed writes and trims (see `newest_wins`).
    #[inline]
    pub fn next_trim(&mut self) -> Option<(usize, u64, usize)> {
        let t = self.trims.as_mut()?;
        if self.reading {
            return None;
        }
        let (log, newest, units) = (&self.log, &self.newest, &self.units);
        let superseded = |at: usize| {
            let w = &log[at];
            match newest {
                Some(n) => !n.holds(w),
                None => units.iter().flatten().any(|u| u.numberio != w.numberio && u.overlaps(w)),
            }
        };
        let may_begin = !std::mem::take(&mut self.after_backlog_read);
        let at = t.next(self.unverified, self.next, may_begin, superseded)?;
        self.trim_drawn = Some(at);
        let w = &self.log[at];
        Some((w.file as usize, w.offset, w.len as usize))
    }

    /// The trim of the write at log position `at` is issued: from now on its block holds
    /// zeros.
    fn mark_trimmed(&mut self, at: usize) {
        let now = u32::try_from(self.log.len()).unwrap_or(u32::MAX);
        let verify_zero = self.trims.as_ref().is_some_and(trim::Trims::verify_zero);
        let w = &mut self.log[at];
        if verify_zero {
            w.trimmed = Trimmed::Zeros(now);
        } else {
            // No longer to verify: one write fewer waits, for the trims and the backlog.
            w.trimmed = Trimmed::Unchecked(now);
            self.unverified -= 1;
        }
    }

    /// Unit `unit` issues a read of `len` bytes at `offset` of `file`: the verify read
    /// drawn last, if any, or in a job that only reads, the workload's read, which is
    /// checked too (`false`: a read of the workload's own, not checked).
    #[inline]
    pub fn bind_read(&mut self, unit: u32, file: usize, offset: u64, len: usize) -> bool {
        let bound = self.pending.take().or_else(|| {
            let (file, len) = (file as u32, len as u32);
            let trimmed = Trimmed::No;
            self.plan.reads_only.then_some(Written { file, len, offset, numberio: 0, trimmed })
        });
        self.units[unit as usize] = bound;
        bound.is_some()
    }

    /// Unit `unit` failed: forget what it carried.
    #[inline]
    pub fn unbind(&mut self, unit: u32) {
        if let (Some(w), Some(newest)) = (self.units[unit as usize].take(), &mut self.newest) {
            newest.forget(&w);
        }
    }

    /// Checks the block that verify read `unit` brought into `buf`, or with `verify_async`
    /// hands a copy of it to a helper thread; `Err` holds the report when it is bad (then
    /// the job stops unless `continue_on_error` says otherwise). With `verify_async` the
    /// report is empty: a helper found a bad block, and its report comes with
    /// [`JobVerify::settle`].
    pub fn check(&mut self, unit: u32, buf: &mut [u8]) -> Result<(), String> {
        let Some(w) = self.units[unit as usize].take() else { return Ok(()) };
        if let Some(helpers) = &mut self.helpers {
            return if helpers.hand_over(w, buf) { Ok(()) } else { Err(String::new()) };
        }
        self.verified += 1;
        let seed = self.plan.knows_writes().then_some(self.stamp.seed);
        let Err(bad) = check_block(&self.plan, seed, &w, buf) else { return Ok(()) };
        self.failures += 1;
        let name = &self.plan.job.file_names[w.file as usize];
        Err(bad_report(&self.plan, seed, name, &w, buf, bad))
    }

    /// Waits for the `verify_async` helpers to check every block handed to them, counts
    /// what they found and returns its reports (empty when all is well, or without
    /// helpers), in the order the blocks were read.
    pub fn settle(&mut self) -> String {
        let Some(helpers) = &mut self.helpers else { return String::new() };
        let settled = helpers.settle();
        self.verified += settled.verified;
        self.failures += settled.failures;
        settled.report
    }

    /// Stops the `verify_async` helpers (their CPU time, the job's as in fio, is counted
    /// by the [`HelperHost`] that started them).
    pub fn finish(&mut self) {
        if let Some(helpers) = &mut self.helpers {
            helpers.finish();
        }
    }

    /// Writes the state file when the job ends, if it wrote and `verify_state_save` is on.
    pub fn save_state(&self) -> Result<(), String> {
        if !self.plan.state_save || self.plan.verify_only || self.issued == 0 {
            return Ok(());
        }
        report::save_state(&self.plan.job, self.issued)
    }
}

/// The writes to read back, from position `first` of the log: the newest write of each
/// place, in file and offset order (in the log's order with `write_order`, trimmed writes
/// too); an older write
/// overlapped (even in part) by a newer one is dropped. A trimmed write counts from the time of its trim: it hides the older
/// writes its trim zeroed, and it is not read back itself if `trim_verify_zero=0`.
fn newest_wins(log: &[Written], first: usize, write_order: bool) -> Vec<Written> {
    // Newest change first: the log's order, unless trims changed blocks later.
    let mut order: Vec<usize> = (first..log.len()).rev().collect();
    if log[first..].iter().any(|w| w.trimmed != Trimmed::No) {
        order.sort_by_key(|&i| std::cmp::Reverse(log[i].trimmed.changed_at(i)));
    }
    let mut covered: Vec<BTreeMap<u64, u64>> = Vec::new();
    let mut keep = Vec::with_capacity(order.len());
    for (i, w) in order.iter().map(|&i| (i, &log[i])) {
        let f = w.file as usize;
        if covered.len() <= f {
            covered.resize_with(f + 1, BTreeMap::new);
        }
        let map = &mut covered[f];
        let (start, end) = (w.offset, w.offset + u64::from(w.len));
        // The map holds disjoint merged extents of everything newer (kept or not: a
        // dropped write still overwrote what is older), so the extent starting last before
        // `end` is the only one that can overlap.
        let overlaps = map.range(..end).next_back().is_some_and(|(_, &e)| e > start);
        if !overlaps && w.trimmed.verified() {
            keep.push(i);
        }
        let (mut lo, mut hi) = (start, end);
        while let Some((&s, &e)) = map.range(..=hi).next_back().filter(|(_, &e)| e >= lo) {
            map.remove(&s);
            lo = lo.min(s);
            hi = hi.max(e);
        }
        map.insert(lo, hi);
    }
    // In the log's order (fio 3.33 reads a trimmed write back where it was written, not
    // where it was trimmed), or in file and offset order.
    keep.sort_unstable();
    let mut keep: Vec<Written> = keep.into_iter().map(|i| log[i]).collect();
    if !write_order {
        keep.sort_unstable_by_key(|w| (w.file, w.offset));
    }
    keep
}

#[cfg(test)]
mod tests {
    use super::*;

    use super::written::tests::w;

    #[test]
    fn the_newest_write_wins_and_partly_overwritten_ones_are_dropped() {
        let log = [w(0, 4096, 0), w(8192, 8192, 1), w(0, 4096, 2), w(12288, 4096, 3)];
        assert_eq!(newest_wins(&log, 0, false), vec![w(0, 4096, 2), w(12288, 4096, 3)]);
    }

    #[test]
    fn a_dropped_write_still_hides_what_it_overwrote() {
        // 1 overwrites part of 0 and is itself cut by 2: 0 must not be read back.
        let log = [w(16384, 4096, 0), w(12288, 12288, 1), w(8192, 8192, 2)];
        assert_eq!(newest_wins(&log, 0, false), vec![w(8192, 8192, 2)]);
    }

    #[test]
    fn a_trim_counts_from_its_own_time() {
        // 0 is trimmed after 1 overwrote it: the block is zeros, 1 is not read back.
        let zeros = Written { trimmed: Trimmed::Zeros(2), ..w(0, 4096, 0) };
        assert_eq!(newest_wins(&[zeros, w(0, 4096, 1)], 0, false), vec![zeros]);
        // 0 is trimmed, then 1 overwrites it: 1's data is read back.
        let early = Written { trimmed: Trimmed::Zeros(1), ..w(0, 4096, 0) };
        assert_eq!(newest_wins(&[early, w(0, 4096, 1)], 0, false), vec![w(0, 4096, 1)]);
        // Not verified (trim_verify_zero=0), but still hiding what it zeroed.
        let gone = Written { trimmed: Trimmed::Unchecked(2), ..w(0, 4096, 0) };
        let log = [gone, w(0, 4096, 1), w(4096, 4096, 2)];
        assert_eq!(newest_wins(&log, 0, false), vec![w(4096, 4096, 2)]);
        // From a later position of the log, a trim keeps its time.
        let late = Written { trimmed: Trimmed::Zeros(3), ..w(0, 4096, 1) };
        let log = [w(0, 4096, 0), late, w(0, 4096, 2)];
        assert_eq!(newest_wins(&log, 1, false), vec![late]);
    }
}
