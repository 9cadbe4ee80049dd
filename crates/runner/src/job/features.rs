//! The state of the features a plain job does not use ([`Features`]), and their work at the
//! single completion point ([`Features::completed`]). The loop reaches it only when it runs
//! with every feature's tests (`RICH = true`, see [`Features::any`]) and at the job's start
//! and end.

use super::controls::Controls;
use super::hot::Hot;
use super::sync::SyncState;
use crate::features::block::trace;
use crate::links::status::JobSlot;
use crate::logs::JobLogs;
use iomark_core::Ddir;
use iomark_engine::file::ThreadUsage;
use iomark_engine::thread::ioprio_value;
use iomark_engine::Slot;
use iomark_plan::JobPlan;
use iomark_verify::JobVerify;
use std::fs::File;

/// What the features of one job keep while it runs.
pub(super) struct Features<'a, 's> {
    /// The job's plan (its start and end, and the cold paths, read it).
    pub(super) plan: &'a JobPlan,
    /// The job's open files (none on the null engine).
    pub(super) files: Vec<File>,
    /// Where a `read_iolog` replay stands (its I/Os replace the workload's).
    pub(super) replay: Option<crate::features::replay::Cursor<'a>>,
    /// Picks each I/O's own priority (`cmdprio_*`).
    pub(super) prio: Option<crate::features::cmdprio::Picker<'a>>,
    /// Where `fsync=N`, `fdatasync=N` and `sync_file_range` stand.
    pub(super) sync: SyncState,
    /// Verification, if the job verifies (see [`iomark_verify`]).
    pub(super) verify: Option<JobVerify>,
    /// Rate limits and the other controls that act between I/Os, if the job has any.
    pub(super) ctl: Option<Box<Controls<'a>>>,
    /// The log files, if the job writes any.
    pub(super) logs: Option<JobLogs>,
    /// The file locks of `lockfile`, if the job sets it.
    pub(super) locks: Option<crate::links::lockfile::JobLocks>,
    /// Whether an I/O waits for the in-flight ones it overlaps (see
    /// [`super::drive::Loop::wait_for_overlaps`]).
    pub(super) serialize: bool,
    /// `number_ios` over all loops: the job ends once that many data I/Os completed.
    pub(super) ios_limit: Option<u64>,
    /// Whether the engine works once per file and loop, and only that is timed (the
    /// metadata engines, [`iomark_plan::engine::EnginePlan::per_file`]).
    pub(super) per_file: bool,
    /// `fill_device`: a write found the file system full.
    pub(super) filled: bool,
    /// Whether the engine's reads may find the end of a stream, which ends the job (the
    /// net engine, see [`iomark_engine::net::END_OF_STREAM`]).
    pub(super) streams: bool,
    /// Whether a control ended the job (a latency target found, steady state reached).
    pub(super) ended: bool,
    /// When the current phase (`ramp_time`, then `runtime`) ends; waits stop there.
    pub(super) deadline: u64,
    /// The thread's CPU usage before the job.
    pub(super) usage_before: ThreadUsage,
    /// The thread's CPU usage during `ramp_time`, and the engine's system calls by its end
    /// (both zero until a ramp ends): the job's counters leave them out.
    pub(super) ramp_used: (ThreadUsage, u64),
    /// Wall-clock start, ms since the epoch.
    pub(super) start_wall_ms: u64,
    /// Where requests for interim reports are answered.
    pub(super) status: &'a mut JobSlot<'s>,
    /// The feed of I/Os to the block-layer split, if the job asks for it.
    pub(super) block: Option<Box<crate::features::block::BlockFeed>>,
    /// The blocks' states and trims, if the job sets `block_error_percentiles`.
    pub(super) lifetimes: Option<Box<crate::features::lifetimes::Lifetimes>>,
}

impl Features<'_, '_> {
    /// Whether the job needs the loop with every feature's tests (`RICH = true`).
    pub(super) fn any(&self) -> bool {
        self.verify.is_some()
            || self.serialize
            || self.locks.is_some()
            || self.replay.is_some()
            || self.ctl.is_some()
            || self.logs.is_some()
            || self.prio.is_some()
            || self.sync.any()
            || self.plan.files.fill_device
            || self.ios_limit.is_some()
            || self.plan.files.unlink_each_loop
            || self.block.is_some()
            || self.lifetimes.is_some()
            || self.per_file
            || self.streams
    }

    /// The completion point's work for the features: the data I/O on unit `index` (`dir`,
    /// started at `start`, issued at `issue`, submitted `slat` after its start) completed
    /// at `now`.
    #[inline(always)]
    pub(super) fn completed<'id>(
        &mut self,
        io: &mut Hot<'_, '_, 'id>,
        slot: Slot<'id>,
        dir: Ddir,
        (start, issue): (u64, u64),
        slat: Option<u64>,
        now: u64,
    ) {
        let (unit, index) = (io.units.get(slot), slot.index());
        io.recorder.record_prio(dir, unit.ioprio, now - issue, now - start);
        if dir == Ddir::Write {
            self.sync.written(unit.file as usize, unit.offset, unit.len);
        }
        if let Some(l) = self.lifetimes.as_mut().filter(|_| dir == Ddir::Trim) {
            l.trimmed(unit.file, unit.offset, unit.len as u64, true);
        }
        if let Some(logs) = &mut self.logs {
            logs.done(unit.file as usize, unit.offset);
            let io = iomark_stats::log::LoggedIo {
                dir,
                bytes: unit.result as u64,
                bs: unit.len as u64,
                offset: unit.offset,
                slat_ns: slat,
                clat_ns: Some(now - issue),
                lat_ns: Some(now - start),
                // The I/O's own priority (`cmdprio_*`), else the job's.
                prio: match (unit.ioprio, self.plan.placement.ioprio) {
                    (0, Some((class, level))) => ioprio_value(class, level),
                    (prio, _) => prio,
                },
            };
            logs.complete(now, &io);
        }
        if let Some(block) = &mut self.block {
            let (file, len) = (unit.file, unit.result as u32);
            block.completed(trace(dir, file, unit.offset, len, start, now));
        }
        if let Some(ctl) = self.ctl.as_deref_mut() {
            self.ended |= ctl.completed(io, index, dir, start, now);
        }
        if self.verify.is_some() {
            self.verify_completed(io, index);
        }
    }
}
