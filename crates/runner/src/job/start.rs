//! A job's start: its files opened, its engine made and set up, its workload built, its
//! units allocated, then its statistics, logs, verification, replay and controls, all
//! before the first I/O; the loop's two halves ([`Hot`], [`Features`]) made from them.

use super::controls::Controls;
use super::drive::Loop;
use super::error::{JobError, JobFailure};
use super::features::Features;
use super::hot::Hot;
use super::outcome::recorder_config;
use super::submit::units;
use super::sync::SyncState;
use crate::clock::JobClock;
use crate::features::block::{block_log, BlockFeed};
use crate::features::verify_host::Host;
use crate::links::progress::{JobProgress, Publisher};
use crate::links::status::JobSlot;
use crate::links::JobLinks;
use crate::logs::JobLogs;
use iomark_engine::file::ThreadUsage;
use iomark_engine::{Brand, Engine, IoUnit, UnitTable};
use iomark_plan::JobPlan;
use iomark_stats::recorder::JobRecorder;
use iomark_verify::JobVerify;
use iomark_workload::{BufferFiller, FioStream, Workload};
use std::fs::File;
use std::os::fd::AsRawFd;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// What a job does its I/O with: its open files (none on the null engine) and their
/// descriptors, its engine (set up), its workload and its units.
struct Io {
    files: Vec<File>,
    fds: Vec<i32>,
    engine: Box<dyn Engine>,
    workload: Workload,
    units: Vec<IoUnit>,
}

/// Opens the files of job `plan`, makes and sets up its engine, builds its workload (with
/// `filler`, the buffer filler that laid out its files, if any) and allocates its units.
fn open_io(plan: &JobPlan, filler: Option<BufferFiller>) -> Result<Io, JobError> {
    let name = plan.job.name.as_str();
    let files = crate::files::open(&plan.files).map_err(JobError::of(name))?;
    let mut engine = iomark_engine::create(plan.engine.created(), &plan.engine.options)
        .map_err(JobError::of(name))?;
    // The one workload of the job (the plan only checked it).
    let mut workload_cfg = plan.workload_config();
    crate::files::reach(&mut workload_cfg, &plan.files, &files);
    let mut workload = Workload::new(&workload_cfg).map_err(JobError::of(name))?;
    if let Some(filler) = filler {
        workload.set_buffers(filler);
    }
    let each_pass = plan.verify.as_ref().is_some_and(|v| v.job.each_pass);
    if plan.files.unlink_each_loop || each_pass || plan.engine.per_file() {
        workload.pause_between_passes();
    }
    if plan.logs.iolog.is_some() {
        workload.log_closed_files();
    }
    let mut units =
        units(plan, &mut workload).map_err(JobFailure::Buffers).map_err(JobError::of(name))?;
    let fds: Vec<i32> = if files.is_empty() {
        vec![-1; plan.files.list.len()]
    } else {
        files.iter().map(AsRawFd::as_raw_fd).collect()
    };
    if plan.engine.per_file() {
        let paths: Vec<_> = plan.files.list.iter().map(|f| f.path.clone()).collect();
        engine.set_paths(&paths).map_err(JobError::of(name))?;
    }
    engine.setup(&mut units, &fds).map_err(JobError::of(name))?;
    Ok(Io { files, fds, engine, workload, units })
}

/// Starts job `plan` on `clock` (after its `startdelay`, unless `stop` comes first), with
/// its `links` to the other jobs, publishing into `progress` and answering on `status`:
/// the loop, ready to run, and the host of its `verify_async` helpers.
pub(super) fn start<'a, 's, 'id>(
    plan: &'a JobPlan,
    (mut clock, filler): (JobClock, Option<BufferFiller>),
    stop: &'a AtomicBool,
    links: JobLinks<'a>,
    progress: &'a JobProgress,
    status: &'a mut JobSlot<'s>,
    brand: Brand<'id>,
) -> Result<(Loop<'a, 's, 'id>, Arc<Host>), JobError> {
    let name = plan.job.name.as_str();
    let iodepth = plan.engine.iodepth;
    let Io { files, fds, engine, workload, units } = open_io(plan, filler)?;
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
        recorder.track_prios(p.listed(), p.total_latency);
    }
    let (ramping, fake) = (!limits.ramp_time.is_zero(), clock.is_fake());
    let logs_of = (&plan.logs, &plan.timing, &plan.files);
    let logs =
        JobLogs::open(logs_of, ramping, config.dirs, fake, now).map_err(JobError::of(name))?;
    let verify_host = Arc::new(Host::default());
    let verify = match &plan.verify {
        Some(v) => {
            let mut verify = JobVerify::new(v, verify_host.clone())
                .map_err(JobFailure::Verify)
                .map_err(JobError::of(name))?;
            if workload.uses_random_map() {
                verify.read_in_write_order();
            }
            Some(verify)
        }
        None => None,
    };
    let usage_before = ThreadUsage::now();
    let replay = plan
        .replay
        .as_ref()
        .map(|r| crate::features::replay::Cursor::new(r, clock.is_fake(), stop));
    let replay = replay.transpose().map_err(JobFailure::Replay).map_err(JobError::of(name))?;
    let prio = cmdprio
        .map(|p| crate::features::cmdprio::Picker::new(p, plan.seeds.fio.rng(FioStream::CmdPrio)));
    let job = (plan.job.name.as_str(), &plan.files);
    let seeds = &plan.seeds.fio;
    let ctl = Controls::new(&plan.pacing, job, (iodepth, seeds, config.dirs), now, links.flow);
    let monotonic = !clock.is_tsc();
    let log = block_log(&plan.logs, now + limits.ramp_time.as_nanos() as u64);
    let block = links
        .block
        .map(|t| Box::new(BlockFeed::open(t, (name, &files), (monotonic, log), || clock.now_ns())));
    // From here on the job answers requests for interim reports.
    status.start();
    let units = UnitTable::new(units, brand);
    let pending = units.slot_list();
    let io = Hot {
        counts_batches: engine.counts_batches(),
        engine,
        workload,
        units,
        fds,
        tsc: clock.tsc().unwrap_or_default(),
        clock,
        recorder,
        done: Vec::with_capacity(iodepth as usize),
        in_flight: 0,
        depth_limit: ctl.as_deref().and_then(Controls::depth).unwrap_or(iodepth),
        pending,
        batching: plan.engine.batching,
        published: Publisher::new(progress),
        active: [false; 3],
        ios_done: 0,
        ramp_ns: limits.ramp_time.as_nanos() as u64,
        runtime_ns: limits.runtime.map(|d| d.as_nanos() as u64),
        measure_from: now,
        last_now: now,
        next_tick: 0,
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
        // A trimwrite job's `number_ios` counts trim and write pairs: twice as many I/Os
        // of either kind (fio 3.33: `trimwrite bs=4k,8k,16k number_ios=3` issues 6).
        ios_limit: (limits.number_ios > 0).then(|| {
            let pairs = if plan.workload.trimwrite() { 2 } else { 1 };
            limits.number_ios.saturating_mul(limits.loops).saturating_mul(pairs)
        }),
        per_file: plan.engine.per_file(),
        streams: iomark_engine::registry::streams(&plan.engine.name),
        filled: false,
        ended: false,
        deadline: u64::MAX,
        usage_before,
        ramp_used: (ThreadUsage::default(), 0),
        start_wall_ms,
        status,
        block,
        lifetimes: crate::features::lifetimes::Lifetimes::of(plan),
    };
    Ok((Loop::new(io, feat), verify_host))
}
