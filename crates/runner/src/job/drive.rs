//! The submit/reap loop, with all timing at one single place.
//!
//! The loop is fio's: take a free unit, ask the workload for the next I/O, stamp the unit's
//! start time, fill it, stamp its issue time and queue it. A synchronous engine completes the
//! unit at once; an asynchronous one queues it, and queued units are committed and reaped.
//! Every completion goes through one function (`Hot::complete`), which records slat, clat
//! and lat as fio defines them, from one clock reading per completion (a synchronous I/O) or
//! per batch of completions (one `reap`, as fio stamps them):
//!
//! - slat: from the unit's start to the end of its submission (async engines only);
//! - clat: from submission (sync engines: from issue) to completion;
//! - lat: from the unit's start to completion.
//!
//! For reads and trims nothing happens between taking the unit and issuing it but a few
//! stores, so one clock read serves as both start and issue time (lat then equals clat for
//! a synchronous engine); a write's buffer is prepared in between, and is timed.
//!
//! The loop allocates nothing, takes no lock and makes no system call but the I/O and the
//! clock (relaxed atomic loads check for a stop request and for a request for an interim
//! report; only when such a request comes does the job copy its recorder, see
//! [`crate::links::status`]).
//!
//! A plain job (no verification, `lockfile`, serializing, replay, rate or other controls,
//! logs, per-I/O priorities, syncs (`fsync=N`, `sync_file_range`), `fill_device` or
//! `number_ios`) runs the loop compiled without the tests for those features (`RICH =
//! false`, see [`Features::any`]): the one-block path of the commonest jobs stays as short
//! as it can be, and touches [`Hot`] only. A plain job whose clock is the TSC (nearly
//! every real run) runs it compiled for that clock (`TSC = true`, [`now`]): a time
//! stamp of an I/O reads the counter without asking which clock the job has.

use super::features::Features;
use super::hot::{now, Hot};
use crate::links::progress::JobState;
use crate::request::Request;
use iomark_core::Ddir;
use iomark_engine::file::ThreadUsage;
use iomark_engine::Slot;
use iomark_verify::JobVerify;
use std::sync::atomic::{AtomicBool, Ordering};

/// The loop: its hot state and its features' state.
pub(super) struct Loop<'a, 's, 'id> {
    /// What the plain loop touches.
    pub(super) io: Hot<'a, 's, 'id>,
    /// What only the rich loop and the job's start and end touch.
    pub(super) feat: Features<'a, 's>,
    /// Whether the job uses any of the features the plain loop leaves out.
    rich: bool,
}

impl<'a, 's, 'id> Loop<'a, 's, 'id> {
    /// The loop of a job with the state `io` and the features `feat`.
    pub(super) fn new(io: Hot<'a, 's, 'id>, feat: Features<'a, 's>) -> Self {
        let rich = feat.any();
        Loop { io, feat, rich }
    }
}

impl<'id> Loop<'_, '_, 'id> {
    /// Runs the loop until the job (or its verify phase) is over.
    pub(super) fn run(&mut self, stop: &AtomicBool) {
        if self.rich {
            self.drive::<true, false>(stop);
        } else if self.io.clock.is_tsc() {
            self.drive::<false, true>(stop);
        } else {
            self.drive::<false, false>(stop);
        }
    }

    /// The loop. With `RICH = false` (a plain job, see [`Features::any`]) the tests for
    /// the features it does not use are compiled out; with `TSC` the I/Os' stamps read
    /// the TSC ([`now`]).
    fn drive<const RICH: bool, const TSC: bool>(&mut self, stop: &AtomicBool) {
        let ramp_ns = self.io.ramp_ns;
        // The verify phase comes back here: a ramp that ended is not ended again (that
        // would clear what the writes recorded).
        let mut ramping = ramp_ns > 0 && !self.io.ramp_over;
        let runtime_ns = self.io.runtime_ns;
        let batching = self.io.batching;
        // With iodepth_batch_complete_min=0, as many I/Os in flight as make the loop wait
        // for one first (below): one comparison a turn.
        let poll_from = if batching.complete_min == 0 { 1 } else { u32::MAX };
        // Below both that and the depth limit, a turn takes a unit: one comparison (the
        // depth limit moves only in a rich job, under a latency target).
        let mut gate = poll_from.min(self.io.depth_limit);
        // When the ramp or the runtime ends: one comparison a turn until then.
        let ends_at = |io: &Hot<'_, '_, '_>, ramping: bool| {
            let phase = if ramping { Some(ramp_ns) } else { runtime_ns };
            phase.map_or(u64::MAX, |p| io.measure_from.saturating_add(p))
        };
        let mut phase_end = ends_at(&self.io, ramping);
        loop {
            let now = self.io.last_now;
            if RICH {
                // A latency target's final run starts the measurement over.
                phase_end = ends_at(&self.io, ramping);
            }
            let mut out_of_time = false;
            if now >= phase_end {
                if ramping {
                    ramping = false;
                    self.end_ramp(now);
                    phase_end = ends_at(&self.io, false);
                }
                out_of_time = now >= phase_end;
            }
            // The verify phase reads back everything, whatever the limits.
            let verifying = RICH && self.feat.verify.as_ref().is_some_and(JobVerify::reading);
            let out_of_time = out_of_time && !verifying;
            let stopping = stop.load(Ordering::Relaxed)
                || self.io.exit.load(Ordering::Relaxed)
                || (RICH && self.feat.filled);
            if RICH && self.feat.ctl.is_some() && !out_of_time && !stopping && !verifying {
                let phase_ns = if ramping { Some(ramp_ns) } else { runtime_ns };
                let from = self.io.measure_from;
                self.feat.deadline = phase_ns.map_or(u64::MAX, |p| from.saturating_add(p));
                if self.between_ios(stop) {
                    continue;
                }
            }
            // `number_ios` counts per loop, as the workload's budget does (fio 3.33:
            // `size=8k bs=4k loops=3 number_ios=1` writes 3 blocks).
            let ios_done = self.io.ios_done;
            let enough_ios = self.feat.ios_limit.is_some_and(|n| ios_done >= n);
            let limits = RICH && (enough_ios || self.feat.ended) && !verifying;
            if out_of_time || limits || self.io.error != 0 || stopping {
                break;
            }
            if let Some(request) = self.io.requests.pending() {
                self.answer_status(request);
            }
            // With iodepth_batch_complete_min=0 fio 3.33 waits for one completion whenever
            // anything is in flight, before it queues more.
            // A poll comes first (libaio's userspace_reap serves it from the ring).
            if RICH {
                gate = poll_from.min(self.io.depth_limit);
            }
            if self.io.in_flight >= gate {
                if self.io.in_flight >= poll_from {
                    let max = batching.complete_max as usize;
                    if self.io.reap::<RICH>(&mut self.feat, 0, max) == 0 {
                        self.io.reap::<RICH>(&mut self.feat, 1, max);
                    }
                } else {
                    self.io.reap_full::<RICH>(&mut self.feat);
                }
                continue;
            }
            let Some(slot) = self.io.units.pop() else {
                self.io.reap_full::<RICH>(&mut self.feat);
                continue;
            };
            let Some(req) = self.next_request::<RICH>() else {
                self.io.units.push(slot);
                let pauses = self.feat.plan.files.unlink_each_loop || self.feat.per_file;
                if RICH && pauses && self.next_loop() {
                    continue;
                }
                break;
            };
            if RICH && !self.before_issue(slot, req, stop) {
                continue;
            }
            self.issue::<RICH, TSC>(slot, req);
        }
        self.io.commit();
        while self.io.in_flight > 0 && self.io.error == 0 {
            let n = self.io.in_flight as usize;
            self.io.reap::<RICH>(&mut self.feat, n, n);
        }
    }

    /// `ramp_time` is over at `now`: measurement begins.
    #[cold]
    fn end_ramp(&mut self, now: u64) {
        self.io.ramp_over = true;
        self.io.recorder.clear(now);
        self.io.next_tick = 0;
        let used = match self.io.clock.is_fake() {
            true => ThreadUsage::default(),
            false => ThreadUsage::now().since(self.feat.usage_before),
        };
        self.feat.ramp_used = (used, self.io.engine.syscalls().unwrap_or(0));
        if let Some(logs) = &mut self.feat.logs {
            logs.restart(now);
        }
        self.io.published.progress().set_state(JobState::Running);
        self.io.measure_from = now;
        self.io.ios_done = 0;
    }

    /// In a rich job, between drawing a request and issuing it: a sync that `fsync=N` puts
    /// before it, or the pause the rate controls ask for. Returns false when the request
    /// waits for the next turn of the loop (unit `index` is then used or given back).
    fn before_issue(&mut self, slot: Slot<'id>, req: Request, stop: &AtomicBool) -> bool {
        if let Some(sync) = self.feat.sync.due() {
            self.feat.sync.held = Some(req);
            let sync = self.feat.sync.issue(sync);
            self.issue::<true, false>(slot, sync);
            return false;
        }
        if self.feat.ctl.is_some() && !self.pace(slot.index(), req, stop) {
            // Not due before the phase ends or the job stops: the loop decides.
            self.feat.sync.held = Some(req);
            self.io.units.push(slot);
            return false;
        }
        self.feat.sync.last_was_sync = false;
        true
    }

    /// Fills unit `index` with the I/O `req` and hands it to the engine.
    #[inline(always)]
    fn issue<const RICH: bool, const TSC: bool>(&mut self, slot: Slot<'id>, req: Request) {
        let Request { ddir, file, offset, len } = req;
        if RICH {
            if !self.feat.verify_issue(slot.index(), req) {
                self.io.units.push(slot);
                return;
            }
            if self.feat.serialize && self.io.in_flight > 0 && ddir.is_data() {
                self.wait_for_overlaps(slot.index(), req);
            }
            if self.feat.locks.is_some() {
                self.take_lock(file);
            }
        }
        let (io, feat) = (&mut self.io, &mut self.feat);
        let start = now::<TSC>(&io.tsc, &mut io.clock);
        let unit = io.units.get_mut(slot);
        unit.ddir = ddir;
        unit.file = file as u32;
        unit.fd = io.fds[file];
        unit.offset = offset;
        unit.len = len;
        if RICH {
            unit.ioprio = feat.prio.as_mut().map_or(0, |p| p.pick(ddir, len as u64));
        }
        // Only a write's buffer is prepared between taking the unit and issuing it; for
        // reads, trims and syncs the two moments are a few stores apart, and one clock read
        // serves both.
        let issue = if ddir == Ddir::Write {
            // A buffer a read filled holds the file's data (written as it is, as fio
            // does, but for a pattern).
            if unit.holds_read_data {
                unit.holds_read_data = false;
                io.workload.after_read(unit.buf.as_mut_slice());
            }
            io.workload.prepare_write(&mut unit.buf.as_mut_slice()[..len], offset);
            if let Some(v) = feat.verify.as_mut().filter(|_| RICH) {
                v.stamp(slot.index(), &mut unit.buf.as_mut_slice()[..len], file, offset);
            }
            now::<TSC>(&io.tsc, &mut io.clock)
        } else {
            unit.holds_read_data |= ddir == Ddir::Read;
            start
        };
        unit.stamps = (start, issue);
        if let Some(logs) = feat.logs.as_mut().filter(|_| RICH) {
            if io.workload.has_closed_files() {
                logs.closed_files(start, io.workload.closed_files());
            }
            logs.issue(start, req);
        }
        io.queue::<RICH, TSC>(feat, slot, file, (start, issue));
        if RICH && ddir == Ddir::Write {
            feat.sync.writes += 1;
            feat.sync.last_write_file = file;
        }
    }

    /// The next I/O (`time_based` workloads never end by themselves).
    #[inline(always)]
    fn next_request<const RICH: bool>(&mut self) -> Option<Request> {
        if RICH {
            if let Some(held) = self.feat.sync.held.take() {
                return Some(held);
            }
            if let Some(ctl) = self.feat.ctl.as_deref() {
                ctl.steer(&mut self.io);
            }
            if let Some(v) = &mut self.feat.verify {
                if let Some((file, offset, len)) = v.next_read() {
                    return Some(Request { ddir: Ddir::Read, file, offset, len });
                }
                if v.reading() {
                    return None;
                }
                if let Some((file, offset, len)) = v.next_trim() {
                    return Some(Request { ddir: Ddir::Trim, file, offset, len });
                }
            }
            if let Some(replay) = &mut self.feat.replay {
                return replay.next(&mut self.io.clock);
            }
        }
        self.io.workload.next().map(Request::from)
    }

    /// Waits for every I/O in flight.
    pub(super) fn quiesce(&mut self) {
        self.io.commit();
        while self.io.in_flight > 0 && self.io.error == 0 {
            self.io.reap::<true>(&mut self.feat, 1, self.io.in_flight as usize);
        }
    }
}
