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
//! Submission and reaping follow fio 3.33 (measured against it, see the runner tests): a
//! queued unit is committed once `iodepth_batch_submit` units wait or the queue is full; a
//! full queue reaps at least `iodepth_batch_complete_min` (at most
//! `iodepth_batch_complete_max`) completions and keeps reaping down to `iodepth_low`; with
//! `iodepth_batch_complete_min=0` it waits for a completion whenever anything is in flight.
//! The depth distribution counts each commit's units at the depth they bring the queue to.

use crate::clock::JobClock;
use crate::logs::JobLogs;
use crate::plan::JobPlan;
use crate::progress::{JobProgress, JobState, Publisher};
use crate::status::JobSlot;
use crate::verify::JobVerify;
use crate::workload_config;
use iomark_engine::file::{thread_id, ThreadUsage};
use iomark_engine::{Ddir, Engine, IoUnit, Queued};
use iomark_stats::recorder::{Dir, JobRecorder, RecorderConfig};
use iomark_stats::reduce::JobTimes;
use iomark_workload::Workload;
use std::fs::File;
use std::os::fd::AsRawFd;
use std::sync::atomic::{AtomicBool, Ordering};

mod controls;
mod loops;

/// What a finished job hands back for the report (or a running one, for an interim report).
#[derive(Clone)]
pub struct JobOutcome {
    /// Everything recorded.
    pub recorder: JobRecorder,
    /// Runtimes and CPU usage.
    pub times: JobTimes,
    /// The first error (an errno), 0 if none.
    pub error: i32,
    /// What the error was doing, empty if none.
    pub error_text: String,
    /// What the engine said about how it behaved.
    pub notes: Vec<String>,
    /// The job thread's id.
    pub pid: u32,
    /// Wall-clock start, ms since the epoch (0 under the fake clock).
    pub start_wall_ms: u64,
    /// The queue depth the job ended at: `iodepth`, or the one its latency target found.
    pub latency_depth: u32,
    /// What the steady-state watch found, if the job had one.
    pub steadystate: Option<iomark_stats::report::SteadyReport>,
}

/// Why a job could not run at all.
#[derive(Debug, thiserror::Error)]
#[error("job '{job}': {message}")]
pub struct JobError {
    /// The job's name.
    pub job: String,
    /// What went wrong.
    pub message: String,
}

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
    let fail = |message: String| JobError { job: plan.name.clone(), message };
    let files = crate::files::open(plan).map_err(|e| fail(e.to_string()))?;
    let engine_name = if plan.offload { "threadpool" } else { plan.engine.as_str() };
    let mut engine = iomark_engine::create(engine_name, &plan.engine_options)
        .map_err(|e| fail(e.to_string()))?;
    let mut workload =
        Workload::new(&workload_config::of(plan)).map_err(|e| fail(e.to_string()))?;
    if plan.unlink_each_loop {
        workload.pause_between_passes();
    }
    let buf_len = plan.max_block_size() as usize;
    let mem = &plan.buffers.mem;
    let bufs = iomark_engine::mem::allocate(
        mem,
        plan.iodepth as usize,
        buf_len,
        plan.buffer_align as usize,
        plan.buffers.hugepage_size as usize,
    )
    .map_err(|e| fail(format!("option 'mem': {e}")))?;
    let mut units = Vec::with_capacity(plan.iodepth as usize);
    for (index, buf) in (0..plan.iodepth).zip(bufs) {
        let mut unit = IoUnit::with_buf(index, buf);
        workload.initial_fill(unit.buf.as_mut_slice());
        units.push(unit);
    }
    let fds: Vec<i32> = if files.is_empty() {
        vec![-1; plan.files.len()]
    } else {
        files.iter().map(AsRawFd::as_raw_fd).collect()
    };
    engine.setup(&mut units, &fds).map_err(|e| fail(e.to_string()))?;
    let mut clock = clock;
    if !plan.startdelay.is_zero() && !clock.is_fake() {
        crate::clock::sleep_unless_stopped(plan.startdelay, stop);
    }
    progress.start(files.len() as u32, !plan.ramp_time.is_zero());
    let start_wall_ms = crate::clock::wall_ms(clock.is_fake());
    let config = recorder_config(plan, engine.is_sync());
    let now = clock.now_ns();
    let mut recorder = JobRecorder::new(config, now).map_err(|e| fail(e.to_string()))?;
    if let Some(p) = &plan.cmdprio {
        recorder.track_prios(&p.values, p.total_latency);
    }
    let logs = JobLogs::open(plan, config.dirs, clock.is_fake(), now).map_err(fail)?;
    let verify = JobVerify::new(plan).map_err(fail)?;
    let usage_before = ThreadUsage::now();
    let replay = plan.replay.as_ref().map(|r| crate::replay::Cursor::new(r, clock.is_fake(), stop));
    let replay = replay.transpose().map_err(fail)?;
    let seed = plan.randseed ^ plan.thread_number;
    let prio = plan.cmdprio.as_ref().map(|p| crate::cmdprio::Picker::new(p, seed));
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
        free: Vec::with_capacity(plan.iodepth as usize),
        done: Vec::with_capacity(plan.iodepth as usize),
        in_flight: 0,
        sync_state: SyncState::of(plan),
        error: 0,
        error_text: String::new(),
        measure_from: now,
        last_now: now,
        active: [false; 3],
        stamps: vec![(0, 0); plan.iodepth as usize],
        pending: Vec::with_capacity(plan.iodepth as usize),
        ios_done: 0,
        counts_batches: false,
        published: Publisher::new(progress),
        locks: links.locks,
        logs,
        status,
        usage_before,
        start_wall_ms,
        serialize: plan.serialize_overlap || (plan.verify.is_some() && plan.iodepth > 1),
        verify,
        ctl: controls::Controls::new(plan, config.dirs, now),
        deadline: u64::MAX,
        depth_limit: plan.iodepth,
        ended: false,
    };
    if let Some(depth) = l.ctl.as_deref().and_then(controls::Controls::depth) {
        l.depth_limit = depth;
    }
    l.free.extend((0..plan.iodepth).rev());
    l.counts_batches = l.engine.counts_batches();
    l.status.start();
    l.run(stop);
    l.run_verify(stop);
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
    let fake = l.clock.is_fake();
    // The engine's own threads (threadpool's workers) count as the job's, as in fio.
    let engine_usage = l.engine.finish();
    let usage = if fake {
        ThreadUsage::default()
    } else {
        ThreadUsage::now().since(l.usage_before).plus(engine_usage)
    };
    let times = l.times(end, usage);
    drop(files);
    if plan.unlink || l.unlinks_at_end() {
        crate::files::unlink(plan).map_err(|e| fail(e.to_string()))?;
    }
    Ok(JobOutcome {
        recorder: l.recorder,
        times,
        error: l.error,
        error_text: l.error_text,
        notes: l.engine.notes(),
        pid: if fake { 0 } else { thread_id() },
        start_wall_ms,
        latency_depth: l.depth_limit,
        steadystate: l.ctl.as_deref().and_then(controls::Controls::steady_report),
    })
}

/// Which statistics the job keeps.
pub(crate) fn recorder_config(plan: &JobPlan, sync_engine: bool) -> RecorderConfig {
    let (r, w, t) = match plan.rw.0 {
        "read" | "randread" => (true, false, false),
        "write" | "randwrite" => (false, true, false),
        "trim" | "randtrim" => (false, false, true),
        "trimwrite" | "randtrimwrite" => (false, true, true),
        _ => (true, true, false),
    };
    // A replay does what its log does.
    let (r, w, t) = plan.replay.as_ref().map_or((r, w, t), |p| p.dirs().into());
    // Verify reads are reported as reads, as fio does.
    let r = r || plan.verify.as_ref().is_some_and(|v| v.do_verify);
    let mirror = sync_engine && (plan.stats.clat_percentiles || !plan.stats.lat_percentiles);
    RecorderConfig {
        dirs: [r, w, t],
        slat: !sync_engine && plan.timing.slat,
        clat: plan.timing.clat,
        lat: plan.timing.lat,
        clat_percentiles: plan.stats.clat_percentiles,
        lat_percentiles: plan.stats.lat_percentiles,
        slat_percentiles: plan.stats.slat_percentiles,
        syncs: plan.fsync_every > 0 || plan.fdatasync_every > 0 || plan.end_fsync,
        bw_avg_ms: plan.stats.bw_avg_ms,
        iops_avg_ms: plan.stats.iops_avg_ms,
        // A synchronous engine's reads and trims start and issue at one clock reading, so
        // their lat is their clat (the copy needs clat's histogram if lat has one).
        lat_is_clat: [mirror, false, mirror],
        corrected: plan.pace.limits(),
    }
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
    /// Where `fsync=N`/`fdatasync=N` stand.
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
    /// Verification, if the job verifies (see [`crate::verify`]).
    verify: Option<JobVerify>,
    /// Rate limits and the other controls that act between I/Os, if the job has any.
    ctl: Option<Box<controls::Controls>>,
    /// When the current phase (`ramp_time`, then `runtime`) ends; waits stop there.
    deadline: u64,
    /// The most I/Os in flight: `iodepth`, or less while a latency target is searched.
    depth_limit: u32,
    /// Whether a control ended the job (a latency target found, steady state reached).
    ended: bool,
}

/// Whether an I/O of `ddir` changes the file's data (a write or a trim).
fn changes_data(ddir: Ddir) -> bool {
    matches!(ddir, Ddir::Write | Ddir::Trim)
}

/// The state of `fsync=N`/`fdatasync=N` in the loop (see [`Loop::sync_due`]).
struct SyncState {
    /// Writes issued so far.
    writes: u64,
    /// The file of the last write, which a sync goes to.
    last_write_file: usize,
    /// Whether the last I/O issued was a sync.
    last_was_sync: bool,
    /// N of `fsync=N` or `fdatasync=N`, 0 for neither.
    every: u64,
    /// The sync they issue.
    ddir: Ddir,
    /// The request drawn from the workload that a sync went before.
    held: Option<(Ddir, usize, u64, usize)>,
}

impl SyncState {
    /// Nothing issued yet, with the job's `fsync=N`/`fdatasync=N`.
    fn of(plan: &JobPlan) -> SyncState {
        let (every, ddir) = match (plan.fsync_every, plan.fdatasync_every) {
            (n, _) if n > 0 => (n, Ddir::Sync),
            (_, n) => (n, Ddir::Datasync),
        };
        SyncState { writes: 0, last_write_file: 0, last_was_sync: false, every, ddir, held: None }
    }
}

impl Loop<'_, '_> {
    fn run(&mut self, stop: &AtomicBool) {
        let ramp_ns = self.plan.ramp_time.as_nanos() as u64;
        let mut ramping = ramp_ns > 0;
        let runtime_ns = self.plan.runtime.map(|d| d.as_nanos() as u64);
        let batching = self.plan.batching;
        loop {
            let now = self.last_now;
            if ramping && now.saturating_sub(self.measure_from) >= ramp_ns {
                ramping = false;
                self.recorder.clear(now);
                if let Some(logs) = &mut self.logs {
                    logs.restart(now);
                }
                self.published.progress().set_state(JobState::Running);
                self.measure_from = now;
                self.ios_done = 0;
            }
            let elapsed = now.saturating_sub(self.measure_from);
            // The verify phase reads back everything, whatever the limits.
            let verifying = self.verify.as_ref().is_some_and(JobVerify::reading);
            let out_of_time = !ramping && !verifying && runtime_ns.is_some_and(|r| elapsed >= r);
            let stopping =
                stop.load(Ordering::Relaxed) || self.exit.load(Ordering::Relaxed) || self.filled;
            if self.ctl.is_some() && !out_of_time && !stopping && !verifying {
                let phase_ns = if ramping { Some(ramp_ns) } else { runtime_ns };
                self.deadline = phase_ns.map_or(u64::MAX, |p| self.measure_from.saturating_add(p));
                if self.between_ios(stop) {
                    continue;
                }
            }
            // `number_ios` counts per loop, as the workload's budget does (fio 3.33:
            // `size=8k bs=4k loops=3 number_ios=1` writes 3 blocks).
            let enough_ios = self.plan.number_ios > 0
                && self.ios_done >= self.plan.number_ios.saturating_mul(self.plan.loops)
                && !verifying;
            let ended = (self.ended && !verifying) || self.error != 0;
            if out_of_time || enough_ios || ended || stopping {
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
                if self.reap(0, max) == 0 {
                    self.reap(1, max);
                }
                continue;
            }
            let index = if self.in_flight < self.depth_limit { self.free.pop() } else { None };
            let Some(index) = index else {
                self.reap_full();
                continue;
            };
            let next = self.sync_state.held.take().or_else(|| {
                if self.ctl.is_some() {
                    self.steer();
                }
                self.next_request()
            });
            let Some((ddir, file, offset, len)) = next else {
                self.free.push(index);
                if self.plan.unlink_each_loop && self.next_loop() {
                    continue;
                }
                break;
            };
            if let Some(sync) = self.sync_due() {
                // The request waits for the next turn of the loop.
                self.sync_state.held = Some((ddir, file, offset, len));
                self.sync_state.last_was_sync = true;
                self.issue(index, sync, self.sync_state.last_write_file, 0, 0);
                continue;
            }
            if self.ctl.is_some() && !self.pace(index, ddir, len as u64, stop) {
                // Not due before the phase ends or the job stops: the loop decides.
                self.sync_state.held = Some((ddir, file, offset, len));
                self.free.push(index);
                continue;
            }
            self.sync_state.last_was_sync = false;
            self.issue(index, ddir, file, offset, len);
        }
        self.commit();
        while self.in_flight > 0 && self.error == 0 {
            self.reap(self.in_flight as usize, self.in_flight as usize);
        }
    }

    /// After the writes, with none in flight: the verify phase (see [`crate::verify`]).
    fn run_verify(&mut self, stop: &AtomicBool) {
        if self.error != 0 || stop.load(Ordering::Relaxed) {
            return;
        }
        if self.verify.as_mut().is_some_and(JobVerify::begin_reading) {
            self.run(stop);
        }
        if self.verify.as_ref().is_some_and(|v| v.failures > 0) {
            self.set_error(libc::EILSEQ, "verify");
        }
    }

    /// Fills unit `index` with one I/O and hands it to the engine.
    #[inline(always)]
    fn issue(&mut self, index: u32, ddir: Ddir, file: usize, offset: u64, len: usize) {
        if let Some(v) = &mut self.verify {
            let verify_read = ddir == Ddir::Read && v.bind_read(index);
            // verify_only issues nothing but its verify reads; writes are only logged.
            if v.verify_only() && !verify_read {
                if ddir == Ddir::Write {
                    v.pretend_write(file, offset, len);
                }
                self.free.push(index);
                return;
            }
        }
        if self.serialize && self.in_flight > 0 && ddir.data_index().is_some() {
            self.wait_for_overlaps(index, ddir, file, offset, len);
        }
        if self.locks.is_some() {
            self.take_lock(file);
        }
        let start = self.clock.now_ns();
        let unit = &mut self.units[index as usize];
        unit.ddir = ddir;
        unit.file = file as u32;
        unit.fd = self.fds[file];
        unit.offset = offset;
        unit.len = len;
        unit.ioprio = self.prio.as_mut().map_or(0, |p| p.pick(ddir, len as u64));
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
            if let Some(v) = &mut self.verify {
                v.stamp(index, &mut unit.buf.as_mut_slice()[..len], file, offset);
            }
            self.clock.now_ns()
        } else {
            unit.holds_read_data |= ddir == Ddir::Read;
            start
        };
        self.stamps[index as usize] = (start, issue);
        if let Some(logs) = &mut self.logs {
            logs.issue(start, file, ddir, offset, len);
        }
        let (mut start, mut issue) = (start, issue);
        loop {
            match self.engine.queue(&mut self.units[index as usize]) {
                Queued::Completed => {
                    // fio counts an I/O completed inside queue as one submit and one reap
                    // (its null engine as neither).
                    self.recorder.record_depth(self.in_flight + 1, 1);
                    if self.counts_batches {
                        self.recorder.record_submit(1);
                        self.recorder.record_complete(1);
                    }
                    let now = self.clock.now_ns();
                    self.complete(index, start, issue, None, now);
                    break;
                }
                Queued::Queued => {
                    self.pending.push(index);
                    self.in_flight += 1;
                    let full = self.free.is_empty() || self.in_flight >= self.depth_limit;
                    if full || self.pending.len() >= self.plan.batching.submit as usize {
                        self.commit();
                    }
                    break;
                }
                Queued::Busy => {
                    // The engine takes the same I/O once it has handed back completions;
                    // the wait does not count as the I/O's own time.
                    self.commit();
                    if self.in_flight == 0 || self.error != 0 {
                        self.free.push(index);
                        if let Some(locks) = &mut self.locks {
                            locks.give(file);
                        }
                        self.set_error(libc::EBUSY, "queue");
                        return;
                    }
                    self.reap(1, self.in_flight as usize);
                    start = self.clock.now_ns();
                    issue = start;
                    self.stamps[index as usize] = (start, issue);
                }
            }
        }
        if ddir == Ddir::Write {
            self.sync_state.writes += 1;
            self.sync_state.last_write_file = file;
        }
    }

    /// `lockfile`: takes the lock of `file` for one I/O. When another job holds it, the
    /// job first completes its I/Os in flight (giving back its own locks), then waits; see
    /// [`crate::lockfile`].
    #[cold]
    fn take_lock(&mut self, file: usize) {
        if self.locks.as_mut().is_some_and(|l| l.try_take(file)) {
            return;
        }
        self.commit();
        while self.in_flight > 0 && self.error == 0 {
            self.reap(1, self.in_flight as usize);
        }
        if let Some(locks) = &mut self.locks {
            locks.wait(file);
        }
    }

    /// The queue is full: reap at least `iodepth_batch_complete_min` completions, and go on
    /// until no more than `iodepth_low` I/Os are in flight.
    fn reap_full(&mut self) {
        let batching = self.plan.batching;
        self.commit();
        loop {
            let min = (batching.complete_min.min(self.in_flight)).max(1) as usize;
            self.reap(min, batching.complete_max as usize);
            if self.in_flight <= batching.low || self.error != 0 {
                break;
            }
        }
    }

    /// The next I/O: direction, file index, offset, length (`time_based` workloads never
    /// end by themselves).
    fn next_request(&mut self) -> Option<(Ddir, usize, u64, usize)> {
        if let Some(v) = &mut self.verify {
            if let Some((file, offset, len)) = v.next_read() {
                return Some((Ddir::Read, file, offset, len));
            }
            if v.reading() {
                return None;
            }
        }
        if let Some(replay) = &mut self.replay {
            return replay.next(&mut self.clock);
        }
        let req = self.workload.next()?;
        let ddir = match req.dir {
            iomark_workload::Direction::Read => Ddir::Read,
            iomark_workload::Direction::Write => Ddir::Write,
            iomark_workload::Direction::Trim => Ddir::Trim,
        };
        Some((ddir, req.file, req.offset, req.len as usize))
    }

    /// Submits the units queued since the last commit; the depth distribution counts them
    /// at the depth they reach, as fio's does.
    fn commit(&mut self) {
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
                for &index in &self.pending[..n.min(self.pending.len())] {
                    self.stamps[index as usize].1 = now;
                }
                self.pending.drain(..n.min(self.pending.len()));
            }
            Ok(_) => {}
            Err(e) => self.set_error(e.raw_os_error().unwrap_or(libc::EIO), "commit"),
        }
    }

    /// Waits for at least `min` and takes at most `max` completions; returns how many it
    /// took.
    fn reap(&mut self, min: usize, max: usize) -> usize {
        if self.in_flight == 0 {
            return 0;
        }
        let mut done = std::mem::take(&mut self.done);
        done.clear();
        let max = max.min(self.in_flight as usize);
        match self.engine.reap(&mut self.units, min.min(max), max, &mut done) {
            Ok(n) => {
                if n > 0 {
                    self.recorder.record_complete(n as u32);
                }
                // One clock reading serves the whole batch: every I/O of it had completed
                // by then (fio, too, stamps a batch of completions once).
                let now = if done.is_empty() { self.last_now } else { self.clock.now_ns() };
                for &index in &done {
                    self.in_flight -= 1;
                    let (start, submitted) = self.stamps[index as usize];
                    self.complete(index, start, submitted, Some(submitted - start), now);
                }
            }
            Err(e) => self.set_error(e.raw_os_error().unwrap_or(libc::EIO), "reap"),
        }
        let took = done.len();
        self.done = done;
        took
    }

    /// The single completion point: the recorder, with the clock reading `now` taken
    /// when the I/O (or its batch) was seen complete.
    #[inline(always)]
    fn complete(&mut self, index: u32, start: u64, issue: u64, slat: Option<u64>, now: u64) {
        self.last_now = now;
        let unit = &self.units[index as usize];
        self.free.push(index);
        if let Some(locks) = &mut self.locks {
            locks.give(unit.file as usize);
        }
        if unit.result < 0 {
            let errno = (-unit.result) as i32;
            if let Some(v) = &mut self.verify {
                v.unbind(index);
            }
            if self.plan.fill_device && (errno == libc::ENOSPC || errno == libc::EDQUOT) {
                // `fill_device`: full is the end, not an error; fio counts the I/O as issued.
                if let Some(d) = unit.ddir.data_index() {
                    self.recorder.dirs[d].ios += 1;
                }
                self.filled = true;
                return;
            }
            self.io_error(index, errno);
            return;
        }
        let Some(d) = unit.ddir.data_index() else {
            self.recorder.record_sync(now - start);
            return;
        };
        self.ios_done += 1;
        self.active[d] = true;
        let dir = [Dir::Read, Dir::Write, Dir::Trim][d];
        let bytes = unit.result as u64;
        self.recorder.record_io(
            dir,
            bytes,
            unit.len as u64,
            slat,
            Some(now - issue),
            Some(now - start),
        );
        self.recorder.record_prio(dir, unit.ioprio, now - issue, now - start);
        self.recorder.tick(now);
        self.published.count(d, bytes, now);
        if let Some(logs) = &mut self.logs {
            let io = crate::logs::logged_io(
                dir,
                bytes,
                unit.len as u64,
                unit.offset,
                slat,
                now - issue,
                now - start,
            );
            logs.complete(now, &io);
        }
        if self.ctl.is_some() {
            self.controls_complete(index, dir, start, now);
        }
        if self.verify.is_some() {
            self.verify_completed(index);
        }
    }

    /// `serialize_overlap`, and every verifying job: until no in-flight I/O of the job
    /// overlaps the one about to be issued where either writes, commit and reap. Two
    /// overlapping writes in flight may reach the file in either order, which would make a
    /// verification fail for no fault of the storage. Off the common path: it scans the
    /// pool, and only serializing jobs come here.
    #[cold]
    fn wait_for_overlaps(&mut self, index: u32, ddir: Ddir, file: usize, offset: u64, len: usize) {
        let end = offset + len as u64;
        let races = |l: &Self| {
            l.units.iter().enumerate().any(|(i, u)| {
                i != index as usize
                    && !l.free.contains(&(i as u32))
                    && u.ddir.data_index().is_some()
                    && (changes_data(ddir) || changes_data(u.ddir))
                    && u.file as usize == file
                    && u.offset < end
                    && offset < u.offset + u.len as u64
            })
        };
        while self.in_flight > 0 && self.error == 0 && races(self) {
            self.commit();
            self.reap(1, self.in_flight as usize);
        }
    }

    /// A completed write is logged for verification; a completed verify read is checked.
    fn verify_completed(&mut self, index: u32) {
        let Some(v) = &mut self.verify else { return };
        let unit = &mut self.units[index as usize];
        match unit.ddir {
            Ddir::Write => v.written(index, true),
            Ddir::Read => {
                // A short read is checked with zeros for what did not come (so it fails).
                let got = (unit.result.max(0) as usize).min(unit.len);
                let buf = &mut unit.buf.as_mut_slice()[..unit.len];
                buf[got..].fill(0);
                if let Err(report) = v.check(index, buf) {
                    // The uncommon path: the report is printed as fio prints it.
                    eprint!("{report}");
                    if !v.plan.continue_on_error {
                        self.set_error(libc::EILSEQ, "verify");
                    }
                }
            }
            _ => {}
        }
    }

    /// The sync to issue before the next I/O, if `fsync=N` or `fdatasync=N` asks for one.
    ///
    /// fio 3.33's rule, read off `--write_iolog`: whenever the count of writes issued is a
    /// non-zero multiple of N and the previous I/O was not a sync, the next I/O is a sync.
    /// So a sync follows every Nth write, but only when another I/O follows it (64 writes
    /// with `fsync=8` give 7 syncs), and in a mixed job a sync follows every read issued
    /// until the next write (`W S R S R S W`).
    #[inline]
    fn sync_due(&self) -> Option<Ddir> {
        let s = &self.sync_state;
        let (every, ddir) = (s.every, s.ddir);
        if every == 0 {
            return None;
        }
        (s.writes > 0 && s.writes % every == 0 && !s.last_was_sync).then_some(ddir)
    }

    /// A sync outside the I/O loop (`end_fsync`, `fsync_on_close`), timed as a sync.
    fn sync_file(&mut self, fd: i32, ddir: Ddir) {
        let start = self.clock.now_ns();
        let r = iomark_engine::sync::sync_file(fd, ddir == Ddir::Datasync);
        let now = self.clock.now_ns();
        self.last_now = now;
        if r < 0 {
            self.set_error((-r) as i32, "fsync");
        } else {
            self.recorder.record_sync(now - start);
        }
    }

    /// `end_fsync` and `fsync_on_close`.
    fn finish(&mut self, files: &[File]) {
        if self.plan.end_fsync || (self.plan.fsync_on_close && self.plan.writes()) {
            for f in files {
                self.sync_file(f.as_raw_fd(), Ddir::Sync);
            }
        }
    }

    /// Records a failure explained by `text` (a log that could not be written).
    fn set_error_text(&mut self, errno: i32, text: String) {
        if self.error == 0 {
            self.error = errno;
            self.error_text = text;
        }
    }

    /// The job's times, with its I/O ending at `end` and `usage` its CPU usage.
    fn times(&self, end: u64, usage: ThreadUsage) -> JobTimes {
        let run_ms = end.saturating_sub(self.measure_from) / 1_000_000;
        let did_io = self.recorder.dirs.iter().any(|d| d.ios > 0);
        let run_ms = if did_io { run_ms.max(1) } else { run_ms };
        JobTimes {
            runtime_ms: self.active.map(|a| if a { run_ms } else { 0 }),
            total_run_ms: run_ms,
            usr_ns: usage.user_us * 1000,
            sys_ns: usage.system_us * 1000,
            ctx: usage.ctx,
            majf: usage.majflt,
            minf: usage.minflt,
        }
    }

    /// Answers a request for an interim report with a copy of everything so far (outside
    /// the common path: it allocates, and reads the thread's CPU usage).
    #[cold]
    fn answer_status(&mut self, request: u64) {
        let mut recorder = self.recorder.clone();
        recorder.settle();
        let fake = self.clock.is_fake();
        let usage =
            if fake { ThreadUsage::default() } else { ThreadUsage::now().since(self.usage_before) };
        let copy = JobOutcome {
            recorder,
            times: self.times(self.last_now, usage),
            error: self.error,
            error_text: self.error_text.clone(),
            notes: self.engine.notes(),
            pid: if fake { 0 } else { thread_id() },
            start_wall_ms: self.start_wall_ms,
            latency_depth: self.depth_limit,
            steadystate: self.ctl.as_deref().and_then(controls::Controls::steady_report),
        };
        self.status.answer(request, copy);
    }

    /// Unit `index` failed with `errno` (see [`crate::errors::failed_io`]).
    #[cold]
    fn io_error(&mut self, index: u32, errno: i32) {
        let unit = &self.units[index as usize];
        let op = ddir_name(unit.ddir);
        if crate::errors::failed_io(self.plan, &mut self.recorder, unit, op, errno) {
            self.set_error(errno, op);
        } else if self.error_text.is_empty() {
            self.error_text = format!("{op}: {}", crate::errors::errno_text(errno));
        }
    }

    fn set_error(&mut self, errno: i32, during: &str) {
        if self.error == 0 {
            self.error = errno;
            let text = std::io::Error::from_raw_os_error(errno);
            self.error_text = format!("{during}: {text}");
        }
    }
}

fn ddir_name(d: Ddir) -> &'static str {
    match d {
        Ddir::Read => "read",
        Ddir::Write => "write",
        Ddir::Trim => "trim",
        Ddir::Sync => "fsync",
        Ddir::Datasync => "fdatasync",
    }
}
