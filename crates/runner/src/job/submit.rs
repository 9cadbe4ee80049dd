//! Handing I/Os to the engine, submitting them and reaping their completions.
//!
//! Submission and reaping follow fio 3.33 (measured against it, see the runner tests): a
//! queued unit is committed once `iodepth_batch_submit` units wait or the queue is full; a
//! full queue reaps at least `iodepth_batch_complete_min` (at most
//! `iodepth_batch_complete_max`) completions and keeps reaping down to `iodepth_low`; with
//! `iodepth_batch_complete_min=0` it waits for a completion whenever anything is in flight.
//! The depth distribution counts each commit's units at the depth they bring the queue to.

use super::features::Features;
use super::hot::{now, Hot};
use iomark_core::Ddir;
use iomark_engine::mem::MemError;
use iomark_engine::{IoUnit, Queued, Slot};
use iomark_plan::JobPlan;
use iomark_stats::sums::SumMoments;
use iomark_workload::Workload;

/// The job's `iodepth` I/O units, with buffers of its largest block where `mem` says,
/// filled by `workload`.
pub(super) fn units(plan: &JobPlan, workload: &mut Workload) -> Result<Vec<IoUnit>, MemError> {
    let (iodepth, buffers) = (plan.engine.iodepth, &plan.buffers);
    let bufs = iomark_engine::mem::allocate(
        &buffers.mem,
        iodepth as usize,
        plan.max_block_size() as usize,
        buffers.align as usize,
        buffers.hugepage_size as usize,
    )?;
    let mut units = Vec::with_capacity(iodepth as usize);
    for (index, buf) in (0..iodepth).zip(bufs) {
        let mut unit = IoUnit::with_buf(index, buf);
        unit.sync_flags = plan.syncs.range.flags;
        units.push(unit);
    }
    // fio 3.33 fills its units one by one and takes the last one filled first (its free
    // units are a stack); the loop takes unit 0 first, so the units are filled from the
    // last (`iodepth=8`: the first 8 writes carry the 8th, 7th, … 1st data filled).
    for unit in units.iter_mut().rev() {
        workload.initial_fill(unit.buf.as_mut_slice());
    }
    Ok(units)
}

impl<'id> Hot<'_, '_, 'id> {
    /// Hands the filled unit `index` (of `file`, stamped `(start, issue)`) to the engine:
    /// it completes at once, or is queued (and committed once a batch waits or the queue is
    /// full), or waits for completions when the engine is busy.
    #[inline(always)]
    pub(super) fn queue<const RICH: bool, const TSC: bool>(
        &mut self,
        feat: &mut Features<'_, '_>,
        slot: Slot<'id>,
        file: usize,
        (start, issue): (u64, u64),
    ) {
        let (mut start, mut issue) = (start, issue);
        loop {
            // Tests in the order of their frequency (a `match` tests `Busy` first).
            let queued = self.engine.queue(self.units.get_mut(slot));
            if queued == Queued::Completed {
                // fio counts an I/O completed inside queue as one submit and one reap
                // (its null engine as neither).
                self.recorder.record_depth(self.in_flight + 1, 1);
                if self.counts_batches {
                    self.recorder.record_submit(1);
                    self.recorder.record_complete(1);
                }
                let now = now::<TSC>(&self.tsc, &mut self.clock);
                self.last_now = now;
                let clat = Some(now - issue);
                self.complete::<RICH>(feat, slot, (start, issue), None, clat, now);
                return;
            }
            if queued == Queued::Queued {
                self.pending.push(slot);
                self.in_flight += 1;
                // In a plain job every unit not free is in flight, and the depth limit
                // is the number of units: the first test says it all. (Were it wrong, the
                // loop's next turn would commit before it reaps.)
                let full = self.units.none_free() || (RICH && self.in_flight >= self.depth_limit);
                if full || self.pending.len() >= self.batching.submit as usize {
                    self.commit();
                }
                return;
            }
            match self.when_busy::<RICH>(feat, slot, file) {
                Some(now) => (start, issue) = (now, now),
                None => return,
            }
        }
    }

    /// The engine answered `Busy` to unit `slot` (of `file`): it takes the same I/O once
    /// it has handed back completions, so they are reaped; the wait does not count as the
    /// I/O's own time, which starts again at the time returned (stamped in the unit).
    /// `None` when nothing is in flight to wait for (an error then, and the unit given
    /// back).
    #[cold]
    #[inline(never)]
    fn when_busy<const RICH: bool>(
        &mut self,
        feat: &mut Features<'_, '_>,
        slot: Slot<'id>,
        file: usize,
    ) -> Option<u64> {
        self.commit();
        if self.in_flight == 0 || self.error != 0 {
            self.units.push(slot);
            if let Some(locks) = &mut feat.locks {
                locks.give(file);
            }
            self.set_error(libc::EBUSY, "queue");
            return None;
        }
        self.reap::<RICH>(feat, 1, self.in_flight as usize);
        let start = self.clock.now_ns();
        self.units.get_mut(slot).stamps = (start, start);
        Some(start)
    }

    /// The queue is full: reap at least `iodepth_batch_complete_min` completions, and go on
    /// until no more than `iodepth_low` I/Os are in flight.
    pub(super) fn reap_full<const RICH: bool>(&mut self, feat: &mut Features<'_, '_>) {
        let batching = self.batching;
        self.commit();
        loop {
            let min = (batching.complete_min.min(self.in_flight)).max(1) as usize;
            self.reap::<RICH>(feat, min, batching.complete_max as usize);
            if self.in_flight <= batching.low || self.error != 0 {
                break;
            }
        }
    }

    /// Submits the units queued since the last commit; the depth distribution counts them
    /// at the depth they reach, as fio's does.
    pub(super) fn commit(&mut self) {
        if self.pending.is_empty() {
            return;
        }
        match self.engine.commit() {
            Ok(n) if n > 0 => {
                self.recorder.record_submit(n as u32);
                let in_flight_before = self.in_flight - self.pending.len() as u32;
                self.recorder.record_depth(in_flight_before + n as u32, n as u32);
                // The submission of the units queued since the last commit ends now.
                let now = self.clock.now_ns();
                let queued = self.pending.as_slice();
                for &slot in &queued[..n.min(queued.len())] {
                    self.units.get_mut(slot).stamps.1 = now;
                }
                self.pending.remove_first(n);
            }
            Ok(_) => {}
            Err(e) => self.set_error(e.raw_os_error().unwrap_or(libc::EIO), "commit"),
        }
    }

    /// Waits for at least `min` and takes at most `max` completions; returns how many it
    /// took.
    pub(super) fn reap<const RICH: bool>(
        &mut self,
        feat: &mut Features<'_, '_>,
        min: usize,
        max: usize,
    ) -> usize {
        if self.in_flight == 0 {
            return 0;
        }
        let mut done = std::mem::take(&mut self.done);
        done.clear();
        let max = max.min(self.in_flight as usize);
        match self.engine.reap(self.units.units_mut(), min.min(max), max, &mut done) {
            Ok(n) => {
                if n > 0 {
                    self.recorder.record_complete(n as u32);
                }
                // One clock reading serves the whole batch: every I/O of it had completed
                // by then (fio, too, stamps a batch of completions once).
                let now = if done.is_empty() { self.last_now } else { self.clock.now_ns() };
                self.last_now = now;
                // The units of one commit share their submission stamp, so a batch reaped
                // at once has runs of equal clat: each run is recorded once, with the
                // moments of its I/Os' slat gathered here (their lat is slat + clat, see
                // `JobRecorder::record_run`).
                let (mut run_dir, mut run_ns) = (Ddir::Read, 0);
                let mut slats = SumMoments::new();
                for &index in &done {
                    self.in_flight -= 1;
                    let Some(slot) = self.units.slot(index) else {
                        self.set_error(libc::EIO, "reap");
                        continue;
                    };
                    let stamps @ (start, submitted) = self.units.get(slot).stamps;
                    let slat = submitted - start;
                    let Some(dir) =
                        self.complete::<RICH>(feat, slot, stamps, Some(slat), None, now)
                    else {
                        continue;
                    };
                    let clat = now - submitted;
                    // (An empty run takes the first I/O either way.)
                    if clat != run_ns || dir != run_dir {
                        if slats.count() > 0 {
                            self.active[run_dir.index()] = true;
                            self.recorder.record_run(run_dir, run_ns, &slats);
                        }
                        (run_dir, run_ns, slats) = (dir, clat, SumMoments::new());
                    }
                    slats.record(slat);
                }
                if slats.count() > 0 {
                    self.active[run_dir.index()] = true;
                    self.recorder.record_run(run_dir, run_ns, &slats);
                }
            }
            Err(e) => self.set_error(e.raw_os_error().unwrap_or(libc::EIO), "reap"),
        }
        let took = done.len();
        self.done = done;
        took
    }
}
