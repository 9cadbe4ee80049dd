//! One job thread: the submit/reap loop, with all timing at one single place.
//!
//! The loop is fio's: take a free unit, ask the workload for the next I/O, stamp the unit's
//! start time, fill it, stamp its issue time and queue it. A synchronous engine completes the
//! unit at once; an asynchronous one queues it, and queued units are committed and reaped.
//! Every completion goes through one function (`Loop::complete`), which records slat, clat
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
//! [`crate::status`]).
//!
//! Submission and reaping, as fio 3.33 does them, are in `submit.rs`.

//!
//! A plain job (no verification, `lockfile`, serializing, replay, rate or other controls,
//! logs, per-I/O priorities, syncs (`fsync=N`, `sync_file_range`), `fill_device` or
//! `number_ios`) runs the loop compiled without the tests for those features (`RICH =
//! false`, see `Loop::needs_rich`): the one-block path of the commonest jobs stays as short
//! as it can be.

use crate::clock::JobClock;
use crate::logs::JobLogs;
use crate::progress::{JobProgress, JobState, Publisher};
use crate::status::JobSlot;
use iomark_core::Ddir;
use iomark_engine::file::ThreadUsage;
use iomark_engine::thread::ioprio_value;
use iomark_engine::{Engine, IoUnit};
use iomark_plan::JobPlan;
use iomark_stats::recorder::{JobRecorder, SyncKind};
use iomark_verify::JobVerify;
use iomark_workload::Workload;
use std::fs::File;
use std::os::fd::AsRawFd;
use std::sync::atomic::{AtomicBool, Ordering};

mod controls;
mod failed;
mod hooks;
mod loops;
mod outcome;
mod submit;
mod sync;

pub use crate::outcome::{JobError, JobOutcome};
pub(crate) use outcome::recorder_config;
use sync::SyncState;

/// Runs one job to its end; `stop` asks it to finish early, `links` is what it shares with
/// the other jobs, and `status` is where it answers requests for interim reports.
pub fn run(
    plan: &JobPlan,
    clock: JobClock,
    stop: &AtomicBool,
    links: crate::links::JobLinks<'_>,
    progress: &JobProgress,
    status: &mut JobSlot<'_>,
) -> Result<JobOutcome, JobError> {
    let fail = |message: String| JobError { job: plan.job.name.clone(), message };
    let iodepth = plan.engine.iodepth;
    let files = crate::files::open(&plan.files).map_err(|e| fail(e.to_string()))?;
    let mut engine = iomark_engine::create(plan.engine.created(), &plan.engine.options)
        .map_err(|e| fail(e.to_string()))?;
    // The one workload of the job (the plan only checked it).
    let mut workload_cfg = plan.workload_config();
    crate::files::reach(&mut workload_cfg, &plan.files, &files);
    let mut workload = Workload::new(&workload_cfg).map_err(|e| fail(e.to_string()))?;
    let each_pass = plan.verify.as_ref().is_some_and(|v| v.job.each_pass);
    if plan.files.unlink_each_loop || each_pass {
        workload.pause_between_passes();
    }
    let mut units = submit::units(plan, &mut workload).map_err(fail)?;
    let fds: Vec<i32> = if files.is_empty() {
        vec![-1; plan.files.list.len()]
    } else {
        files.iter().map(AsRawFd::as_raw_fd).collect()
    };
    engine.setup(&mut units, &fds).map_err(|e| fail(e.to_string()))?;
    let mut clock = clock;
    let limits = &plan.limits;
    if !limits.startdelay.is_zero() && !clock.is_fake() {
        crate::clock::sleep_unless_stopped(limits.startdelay, stop);
    }
    progress.start(files.len() as u32, !limits.ramp_time.is_zero());
    let start_wall_ms = crate::clock::wall_ms(clock.is_fake());
    let config = recorder_config(plan, engine.is_sync());
    let now = clock.now_ns();
    let mut recorder = JobRecorder::new(config, now).map_err(|e| fail(e.to_string()))?;
    let cmdprio = plan.placement.cmdprio.as_ref();
    if let Some(p) = cmdprio {
        recorder.track_prios(&p.values, p.total_latency);
    }
    let (ramping, fake) = (!limits.ramp_time.is_zero(), clock.is_fake());
    let logs_of = (&plan.logs, &plan.timing, &plan.files);
    let logs = JobLogs::open(logs_of, ramping, config.dirs, fake, now).map_err(fail)?;
    let verify_host = std::sync::Arc::new(crate::verify::Host::default());
    let verify = match &plan.verify {
        Some(v) => Some(JobVerify::new(v, verify_host.clone()).map_err(fail)?),
        None => None,
    };
    let usage_before = ThreadUsage::now();
    let replay = plan.replay.as_ref().map(|r| crate::replay::Cursor::new(r, clock.is_fake(), stop));
    let replay = replay.transpose().map_err(fail)?;
    let prio = cmdprio.map(|p| crate::cmdprio::Picker::new(p, plan.seeds.cmdprio));
    let seed = plan.seeds.workload;
    let ctl = controls::Controls::new(&plan.pacing, iodepth, seed, config.dirs, now, links.flow);
    let mut l = Loop {
        plan,
        exit: links.stop,
        filled: false,
        replay,
        prio,
        engine,
        workload,
        units,
        files,
        fds,
        clock,
        recorder,
        free: Vec::with_capacity(iodepth as usize),
        done: Vec::with_capacity(iodepth as usize),
        in_flight: 0,
        sync_state: SyncState::of(&plan.syncs, plan.files.list.len()),
        error: 0,
        error_text: String::new(),
        measure_from: now,
        last_now: now,
        active: [false; 3],
        stamps: vec![(0, 0); iodepth as usize],
        pending: Vec::with_capacity(iodepth as usize),
        ios_done: 0,
        counts_batches: false,
        published: Publisher::new(progress),
        locks: links.locks,
        logs,
        status,
        usage_before,
        start_wall_ms,
        serialize: plan.workload.serialize_overlap || (plan.verify.is_some() && iodepth > 1),
        verify,
        ctl,
        deadline: u64::MAX,
        depth_limit: iodepth,
        ended: false,
        ramp_over: false,
        rich: false,
    };
    l.rich = l.needs_rich();
    if let Some(depth) = l.ctl.as_deref().and_then(controls::Controls::depth) {
        l.depth_limit = depth;
    }
    l.free.extend((0..iodepth).rev());
    l.counts_batches = l.engine.counts_batches();
    l.status.start();
    l.run(stop);
    while l.verify_phase(stop) {
        l.run(stop);
    }
    l.count_verify_failures();
    let end = l.last_now;
    if let Some(Err(e)) = l.logs.as_mut().map(|logs| logs.finish(end)) {
        l.set_error_text(libc::EIO, e);
    }
    if let Some(Err(e)) = l.verify.as_ref().map(JobVerify::save_state) {
        l.set_error_text(libc::EIO, e);
    }
    l.recorder.settle();
    l.published.flush();
    progress.set_state(JobState::Fsync);
    let files = std::mem::take(&mut l.files);
    l.finish(&files);
    progress.set_state(JobState::Done);
    // Under the fake clock everything measured from the system is left out, so that a
    // report is the same on every run.
    // The engine's own threads (threadpool's workers) and the verify_async helpers count
    // as the job's, as in fio.
    if let Some(v) = &mut l.verify {
        v.finish();
    }
    let engine_usage = l.engine.finish().plus(verify_host.used());
    let usage = if l.clock.is_fake() {
        ThreadUsage::default()
    } else {
        ThreadUsage::now().since(l.usage_before).plus(engine_usage)
    };
    let outcome = l.outcome(l.recorder.clone(), end, usage);
    drop(files);
    if plan.files.unlink || l.unlinks_at_end() {
        crate::files::unlink(&plan.files).map_err(|e| fail(e.to_string()))?;
    }
    Ok(outcome)
}

/// The state of the submit/reap loop.
struct Loop<'a, 's> {
    plan: &'a JobPlan,
    /// Where a `read_iolog` replay stands (its I/Os replace the workload's).
    replay: Option<crate::replay::Cursor<'a>>,
    /// Picks each I/O's own priority (`cmdprio_*`).
    prio: Option<crate::cmdprio::Picker<'a>>,
    engine: Box<dyn Engine>,
    workload: Workload,
    units: Vec<IoUnit>,
    /// The job's open files (none on the null engine).
    files: Vec<File>,
    fds: Vec<i32>,
    clock: JobClock,
    recorder: JobRecorder,
    /// Indexes of units not in flight.
    free: Vec<u32>,
    /// Room for the indexes `reap` returns.
    done: Vec<u32>,
    in_flight: u32,
    /// Where `fsync=N`, `fdatasync=N` and `sync_file_range` stand.
    sync_state: SyncState,
    error: i32,
    error_text: String,
    /// When measurement began (after `ramp_time`).
    measure_from: u64,
    /// The last clock reading.
    last_now: u64,
    /// The directions that did I/O.
    active: [bool; 3],
    /// Start and submission stamps per unit.
    stamps: Vec<(u64, u64)>,
    /// Units queued since the last commit.
    pending: Vec<u32>,
    /// Data I/Os completed since measurement began (for `number_ios`).
    ios_done: u64,
    /// Whether the engine's I/Os count in the submit and complete distributions.
    counts_batches: bool,
    /// Progress for the ETA line.
    published: Publisher<'a>,
    /// Set when another job's end stops this one (`exitall`).
    exit: &'a AtomicBool,
    /// `fill_device`: a write found the file system full.
    filled: bool,
    /// The file locks of `lockfile`, if the job sets it.
    locks: Option<crate::lockfile::JobLocks>,
    /// The log files, if the job writes any.
    logs: Option<JobLogs>,
    /// Where requests for interim reports are answered.
    status: &'a mut JobSlot<'s>,
    /// The thread's CPU usage before the job.
    usage_before: ThreadUsage,
    /// Wall-clock start, ms since the epoch.
    start_wall_ms: u64,
    /// Whether an I/O waits for the in-flight ones it overlaps ([`Loop::wait_for_overlaps`]).
    serialize: bool,
    /// Verification, if the job verifies (see [`iomark_verify`]).
    verify: Option<JobVerify>,
    /// Rate limits and the other controls that act between I/Os, if the job has any.
    ctl: Option<Box<controls::Controls>>,
    /// When the current phase (`ramp_time`, then `runtime`) ends; waits stop there.
    deadline: u64,
    /// The most I/Os in flight: `iodepth`, or less while a latency target is searched.
    depth_limit: u32,
    /// Whether a control ended the job (a latency target found, steady state reached).
    ended: bool,
    /// Whether `ramp_time` is over (measurement began).
    ramp_over: bool,
    /// Whether the job uses any of the features the plain loop leaves out.
    rich: bool,
}

impl Loop<'_, '_> {
    /// Whether the job needs the loop with every feature's tests (`RICH = true`).
    fn needs_rich(&self) -> bool {
        self.verify.is_some()
            || self.serialize
            || self.locks.is_some()
            || self.replay.is_some()
            || self.ctl.is_some()
            || self.logs.is_some()
            || self.prio.is_some()
            || self.sync_state.any()
            || self.plan.files.fill_device
            || self.plan.limits.number_ios > 0
            || self.plan.files.unlink_each_loop
    }

    /// Runs the loop until the job (or its verify phase) is over.
    fn run(&mut self, stop: &AtomicBool) {
        if self.rich {
            self.drive::<true>(stop);
        } else {
            self.drive::<false>(stop);
        }
    }

    /// The loop. With `RICH = false` (a plain job, see [`Loop::needs_rich`]) the tests
    /// for the features it does not use are compiled out.
    fn drive<const RICH: bool>(&mut self, stop: &AtomicBool) {
        let ramp_ns = self.plan.limits.ramp_time.as_nanos() as u64;
        // The verify phase comes back here: a ramp that ended is not ended again (that
        // would clear what the writes recorded).
        let mut ramping = ramp_ns > 0 && !self.ramp_over;
        let runtime_ns = self.plan.limits.runtime.map(|d| d.as_nanos() as u64);
        let batching = self.plan.engine.batching;
        loop {
            let now = self.last_now;
            if ramping && now.saturating_sub(self.measure_from) >= ramp_ns {
                ramping = false;
                self.ramp_over = true;
                self.recorder.clear(now);
                if let Some(logs) = &mut self.logs {
                    logs.restart(now);
                }
                self.published.progress().set_state(JobState::Running);
                self.measure_from = now;
                self.ios_done = 0;
            }
            // The verify phase reads back everything, whatever the limits.
            let verifying = RICH && self.verify.as_ref().is_some_and(JobVerify::reading);
            let out_of_time = match runtime_ns {
                Some(r) if !ramping && !verifying => now.saturating_sub(self.measure_from) >= r,
                _ => false,
            };
            let stopping = stop.load(Ordering::Relaxed)
                || self.exit.load(Ordering::Relaxed)
                || (RICH && self.filled);
            if RICH && self.ctl.is_some() && !out_of_time && !stopping && !verifying {
                let phase_ns = if ramping { Some(ramp_ns) } else { runtime_ns };
                self.deadline = phase_ns.map_or(u64::MAX, |p| self.measure_from.saturating_add(p));
                if self.between_ios(stop) {
                    continue;
                }
            }
            // `number_ios` counts per loop, as the workload's budget does (fio 3.33:
            // `size=8k bs=4k loops=3 number_ios=1` writes 3 blocks).
            let limits = &self.plan.limits;
            let enough_ios = limits.number_ios > 0
                && self.ios_done >= limits.number_ios.saturating_mul(limits.loops);
            let limits = RICH && (enough_ios || self.ended) && !verifying;
            if out_of_time || limits || self.error != 0 || stopping {
                break;
            }
            if let Some(request) = self.status.asked() {
                self.answer_status(request);
            }
            // With iodepth_batch_complete_min=0 fio 3.33 waits for one completion whenever
            // anything is in flight, before it queues more.
            // A poll comes first (libaio's userspace_reap serves it from the ring).
            if batching.complete_min == 0 && self.in_flight > 0 {
                let max = batching.complete_max as usize;
                if self.reap::<RICH>(0, max) == 0 {
                    self.reap::<RICH>(1, max);
                }
                continue;
            }
            let index = if self.in_flight < self.depth_limit { self.free.pop() } else { None };
            let Some(index) = index else {
                self.reap_full::<RICH>();
                continue;
            };
            let Some((ddir, file, offset, len)) = self.next_request::<RICH>() else {
                self.free.push(index);
                if RICH && self.plan.files.unlink_each_loop && self.next_loop() {
                    continue;
                }
                break;
            };
            if RICH && !self.before_issue(index, ddir, file, offset, len, stop) {
                continue;
            }
            self.issue::<RICH>(index, ddir, file, offset, len);
        }
        self.commit();
        while self.in_flight > 0 && self.error == 0 {
            self.reap::<RICH>(self.in_flight as usize, self.in_flight as usize);
        }
    }

    /// In a rich job, between drawing a request and issuing it: a sync that `fsync=N` puts
    /// before it, or the pause the rate controls ask for. Returns false when the request
    /// waits for the next turn of the loop (unit `index` is then used or given back).
    fn before_issue(
        &mut self,
        index: u32,
        ddir: Ddir,
        file: usize,
        offset: u64,
        len: usize,
        stop: &AtomicBool,
    ) -> bool {
        if let Some(sync) = self.sync_due() {
            self.sync_state.held = Some((ddir, file, offset, len));
            self.issue_sync(index, sync);
            return false;
        }
        if self.ctl.is_some() && !self.pace(index, ddir, len as u64, stop) {
            // Not due before the phase ends or the job stops: the loop decides.
            self.sync_state.held = Some((ddir, file, offset, len));
            self.free.push(index);
            return false;
        }
        self.sync_state.last_was_sync = false;
        true
    }

    /// Fills unit `index` with one I/O and hands it to the engine.
    #[inline(always)]
    fn issue<const RICH: bool>(
        &mut self,
        index: u32,
        ddir: Ddir,
        file: usize,
        offset: u64,
        len: usize,
    ) {
        if RICH {
            if !self.verify_issue(index, ddir, file, offset, len) {
                return;
            }
            if self.serialize && self.in_flight > 0 && ddir.data_index().is_some() {
                self.wait_for_overlaps(index, ddir, file, offset, len);
            }
            if self.locks.is_some() {
                self.take_lock(file);
            }
        }
        let start = self.clock.now_ns();
        let unit = &mut self.units[index as usize];
        unit.ddir = ddir;
        unit.file = file as u32;
        unit.fd = self.fds[file];
        unit.offset = offset;
        unit.len = len;
        if RICH {
            unit.ioprio = self.prio.as_mut().map_or(0, |p| p.pick(ddir, len as u64));
        }
        // Only a write's buffer is prepared between taking the unit and issuing it; for
        // reads, trims and syncs the two moments are a few stores apart, and one clock read
        // serves both.
        let issue = if ddir == Ddir::Write {
            // A buffer a read filled holds the file's data: the write's contents come
            // back first (buffers with fixed contents are otherwise filled only once).
            if unit.holds_read_data {
                unit.holds_read_data = false;
                self.workload.initial_fill(unit.buf.as_mut_slice());
            }
            self.workload.prepare_write(&mut unit.buf.as_mut_slice()[..len], offset);
            if let Some(v) = self.verify.as_mut().filter(|_| RICH) {
                v.stamp(index, &mut unit.buf.as_mut_slice()[..len], file, offset);
            }
            self.clock.now_ns()
        } else {
            unit.holds_read_data |= ddir == Ddir::Read;
            start
        };
        self.stamps[index as usize] = (start, issue);
        if let Some(logs) = self.logs.as_mut().filter(|_| RICH) {
            logs.issue(start, file, ddir, offset, len);
        }
        self.queue::<RICH>(index, file, start, issue);
        if RICH && ddir == Ddir::Write {
            self.sync_state.writes += 1;
            self.sync_state.last_write_file = file;
        }
    }

    /// The next I/O: direction, file index, offset, length (`time_based` workloads never
    /// end by themselves).
    #[inline(always)]
    fn next_request<const RICH: bool>(&mut self) -> Option<(Ddir, usize, u64, usize)> {
        if RICH {
            if let Some(held) = self.sync_state.held.take() {
                return Some(held);
            }
            if self.ctl.is_some() {
                self.steer();
            }
            if let Some(v) = &mut self.verify {
                if let Some((file, offset, len)) = v.next_read() {
                    return Some((Ddir::Read, file, offset, len));
                }
                if v.reading() {
                    return None;
                }
                if let Some((file, offset, len)) = v.next_trim() {
                    return Some((Ddir::Trim, file, offset, len));
                }
            }
            if let Some(replay) = &mut self.replay {
                return replay.next(&mut self.clock);
            }
        }
        let req = self.workload.next()?;
        Some((req.dir, req.file, req.offset, req.len as usize))
    }

    /// The single completion point: the recorder, with the clock reading `now` taken
    /// when the I/O (or its batch) was seen complete. The completion latency is recorded
    /// here when `clat` says so; a reaped batch records it per run of equal values
    /// instead (see `Loop::reap`). Returns the direction of a data I/O that succeeded.
    #[inline(always)]
    fn complete<const RICH: bool>(
        &mut self,
        index: u32,
        (start, issue): (u64, u64),
        slat: Option<u64>,
        clat: Option<u64>,
        now: u64,
    ) -> Option<Ddir> {
        self.last_now = now;
        let unit = &self.units[index as usize];
        self.free.push(index);
        if let Some(locks) = self.locks.as_mut().filter(|_| RICH) {
            locks.give(unit.file as usize);
        }
        if unit.result < 0 {
            self.failed(index, (-unit.result) as i32);
            return None;
        }
        let Some(d) = unit.ddir.data_index() else {
            let kind = match unit.ddir {
                Ddir::Sync => SyncKind::Fsync,
                Ddir::Datasync => SyncKind::Fdatasync,
                _ => SyncKind::FileRange,
            };
            self.recorder.record_sync(now - start, kind);
            return None;
        };
        self.ios_done += 1;
        self.active[d] = true;
        let dir = unit.ddir;
        let bytes = unit.result as u64;
        self.recorder.record_io(dir, bytes, unit.len as u64, slat, clat, Some(now - start));
        self.recorder.tick(now);
        self.published.count(d, bytes, now);
        if RICH {
            self.rich_complete(index, dir, start, issue, slat, now);
        }
        Some(dir)
    }

    /// The completion point's work for the features of a rich job.
    #[inline(always)]
    fn rich_complete(
        &mut self,
        index: u32,
        dir: Ddir,
        start: u64,
        issue: u64,
        slat: Option<u64>,
        now: u64,
    ) {
        let unit = &self.units[index as usize];
        self.recorder.record_prio(dir, unit.ioprio, now - issue, now - start);
        if dir == Ddir::Write {
            self.sync_state.written(unit.file as usize, unit.offset, unit.len);
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
        if self.ctl.is_some() {
            self.controls_complete(index, dir, start, now);
        }
        if self.verify.is_some() {
            self.verify_completed(index);
        }
    }
}
