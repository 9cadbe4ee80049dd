//! One job thread: the job's setup, its submit/reap loop, and what it hands back.
//!
//! The loop's state is in two parts. [`hot::Hot`] is what the plain loop touches at every
//! I/O: the engine, the units and their free list, the stamps, the workload, the clock, the
//! recorder, the counters. [`features::Features`] is the state of the features a plain job
//! does not use (verification, the controls between I/Os, logs, file locks, a replay,
//! per-I/O priorities, syncs, `fill_device`…), reached only from the loop's rich path and
//! from the job's start and end. [`drive::Loop`] holds both and turns the loop.
//!
//! Each `impl` block has one owner: `Hot` submits, reaps and completes (`submit.rs`,
//! `complete.rs`, `failed.rs`); `Features` and the features' own types answer the per-I/O
//! hooks (`features.rs`, `hooks.rs`, `controls.rs`, `sync.rs`), taking the few hot values
//! they need; `Loop` turns the loop (`drive.rs`) and holds the steps that must complete
//! I/Os before they go on (`waits.rs`: think time, the rate's pauses; `hooks.rs`: a lock,
//! an overlap, the verify phase; `loops.rs`: the end of a loop), since completing an I/O
//! runs the features' hooks. The files import one another downwards only: `hot.rs` and
//! `sync.rs` at the bottom, then `controls.rs`, `features.rs`, the loop, and this file.

use crate::clock::JobClock;
use crate::links::progress::{JobProgress, JobState, Publisher};
use crate::links::status::JobSlot;
use crate::logs::JobLogs;
use iomark_engine::file::ThreadUsage;
use iomark_plan::JobPlan;
use iomark_stats::recorder::JobRecorder;
use iomark_verify::JobVerify;
use iomark_workload::Workload;
use std::os::fd::AsRawFd;
use std::sync::atomic::AtomicBool;

mod complete;
mod controls;
mod describe;
mod drive;
mod error;
mod failed;
mod features;
mod hooks;
mod hot;
mod loops;
mod outcome;
mod submit;
mod sync;
mod waits;

pub(crate) use crate::outcome::JobOutcome;
pub(crate) use describe::errno_text;
use drive::Loop;
pub use error::{JobError, JobFailure};
use features::Features;
use hot::Hot;
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
    let name = plan.job.name.as_str();
    let iodepth = plan.engine.iodepth;
    let files = crate::files::open(&plan.files).map_err(JobError::of(name))?;
    let mut engine = iomark_engine::create(plan.engine.created(), &plan.engine.options)
        .map_err(JobError::of(name))?;
    // The one workload of the job (the plan only checked it).
    let mut workload_cfg = plan.workload_config();
    crate::files::reach(&mut workload_cfg, &plan.files, &files);
    let mut workload = Workload::new(&workload_cfg).map_err(JobError::of(name))?;
    let each_pass = plan.verify.as_ref().is_some_and(|v| v.job.each_pass);
    if plan.files.unlink_each_loop || each_pass {
        workload.pause_between_passes();
    }
    let mut units = submit::units(plan, &mut workload)
        .map_err(JobFailure::Buffers)
        .map_err(JobError::of(name))?;
    let fds: Vec<i32> = if files.is_empty() {
        vec![-1; plan.files.list.len()]
    } else {
        files.iter().map(AsRawFd::as_raw_fd).collect()
    };
    engine.setup(&mut units, &fds).map_err(JobError::of(name))?;
    let mut clock = clock;
    let limits = &plan.limits;
    if !limits.startdelay.is_zero() && !clock.is_fake() {
        crate::clock::sleep_unless_stopped(limits.startdelay, stop);
    }
    progress.start(files.len() as u32, !limits.ramp_time.is_zero());
    let start_wall_ms = crate::clock::wall_ms(clock.is_fake());
    let config = recorder_config(plan, engine.is_sync());
    let now = clock.now_ns();
    let mut recorder = JobRecorder::new(config, now).map_err(JobError::of(name))?;
    let cmdprio = plan.placement.cmdprio.as_ref();
    if let Some(p) = cmdprio {
        recorder.track_prios(&p.values, p.total_latency);
    }
    let (ramping, fake) = (!limits.ramp_time.is_zero(), clock.is_fake());
    let logs_of = (&plan.logs, &plan.timing, &plan.files);
    let logs =
        JobLogs::open(logs_of, ramping, config.dirs, fake, now).map_err(JobError::of(name))?;
    let verify_host = std::sync::Arc::new(crate::features::verify_host::Host::default());
    let verify = match &plan.verify {
        Some(v) => Some(
            JobVerify::new(v, verify_host.clone())
                .map_err(JobFailure::Verify)
                .map_err(JobError::of(name))?,
        ),
        None => None,
    };
    let usage_before = ThreadUsage::now();
    let replay = plan
        .replay
        .as_ref()
        .map(|r| crate::features::replay::Cursor::new(r, clock.is_fake(), stop));
    let replay = replay.transpose().map_err(JobFailure::Replay).map_err(JobError::of(name))?;
    let prio = cmdprio.map(|p| crate::features::cmdprio::Picker::new(p, plan.seeds.cmdprio));
    let job = (plan.job.name.as_str(), &plan.files);
    let seed = plan.seeds.workload;
    let ctl =
        controls::Controls::new(&plan.pacing, job, (iodepth, seed, config.dirs), now, links.flow);
    // From here on the job answers requests for interim reports.
    status.start();
    let io = Hot {
        counts_batches: engine.counts_batches(),
        engine,
        workload,
        units,
        fds,
        clock,
        recorder,
        free: (0..iodepth).rev().collect(),
        done: Vec::with_capacity(iodepth as usize),
        in_flight: 0,
        depth_limit: ctl.as_deref().and_then(controls::Controls::depth).unwrap_or(iodepth),
        stamps: vec![(0, 0); iodepth as usize],
        pending: Vec::with_capacity(iodepth as usize),
        batching: plan.engine.batching,
        published: Publisher::new(progress),
        active: [false; 3],
        ios_done: 0,
        ramp_ns: limits.ramp_time.as_nanos() as u64,
        runtime_ns: limits.runtime.map(|d| d.as_nanos() as u64),
        measure_from: now,
        last_now: now,
        ramp_over: false,
        error: 0,
        error_text: String::new(),
        exit: links.stop,
        requests: status.requests(),
        on_error: (plan.job.name.as_str(), &plan.errors, &plan.files),
    };
    let feat = Features {
        plan,
        files,
        replay,
        prio,
        sync: SyncState::of(&plan.syncs, plan.files.list.len()),
        verify,
        ctl,
        logs,
        locks: links.locks,
        serialize: plan.workload.serialize_overlap || (plan.verify.is_some() && iodepth > 1),
        ios_limit: (limits.number_ios > 0).then(|| limits.number_ios.saturating_mul(limits.loops)),
        filled: false,
        ended: false,
        deadline: u64::MAX,
        usage_before,
        start_wall_ms,
        status,
    };
    let mut l = Loop::new(io, feat);
    l.run(stop);
    while l.verify_phase(stop) {
        l.run(stop);
    }
    l.count_verify_failures();
    let end = l.io.last_now;
    if let Some(Err(e)) = l.feat.logs.as_mut().map(|logs| logs.finish(end)) {
        l.io.set_error_text(libc::EIO, e.to_string());
    }
    if let Some(Err(e)) = l.feat.verify.as_ref().map(JobVerify::save_state) {
        l.io.set_error_text(libc::EIO, e);
    }
    l.io.recorder.settle();
    l.io.published.flush();
    progress.set_state(JobState::Fsync);
    let files = std::mem::take(&mut l.feat.files);
    if let Err(errno) = sync::at_close(&plan.syncs, plan.writes(), &files) {
        l.io.set_error(errno, "fsync");
    }
    progress.set_state(JobState::Done);
    // Under the fake clock everything measured from the system is left out, so that a
    // report is the same on every run.
    // The engine's own threads (threadpool's workers) and the verify_async helpers count
    // as the job's, as in fio.
    if let Some(v) = &mut l.feat.verify {
        v.finish();
    }
    let engine_usage = l.io.engine.finish().plus(verify_host.used());
    let usage = if l.io.clock.is_fake() {
        ThreadUsage::default()
    } else {
        ThreadUsage::now().since(l.feat.usage_before).plus(engine_usage)
    };
    let outcome = l.outcome(l.io.recorder.clone(), end, usage);
    drop(files);
    if plan.files.unlink || l.unlinks_at_end() {
        crate::files::unlink(&plan.files).map_err(JobError::of(name))?;
    }
    Ok(outcome)
}
