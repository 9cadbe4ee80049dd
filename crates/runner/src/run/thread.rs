//! One job's thread, from the moment the jobs it waits for are done: its placement, the
//! layout of a `create_on_open` job's files, `ioscheduler`, write hints, `exec_prerun`, the
//! job itself ([`crate::job::run`]) and `exec_postrun`; and the outcome of a job that did
//! nothing.

use crate::clock::JobClock;
use crate::job::{self, JobError, JobOutcome};
use crate::links::progress::JobProgress;
use crate::links::status::JobSlot;
use crate::links::RunLinks;
use crate::system::exec::Stage;
use iomark_plan::JobPlan;
use iomark_stats::reduce::JobTimes;
use iomark_workload::BufferFiller;
use std::sync::atomic::{AtomicBool, Ordering};

/// A job that did nothing: never started, or stopped before it did.
pub(crate) fn not_started(plan: &JobPlan) -> Result<JobOutcome, JobError> {
    let sync = plan.engine.sync();
    let recorder = iomark_stats::recorder::JobRecorder::new(job::recorder_config(plan, sync), 0)
        .map_err(JobError::of(&plan.job.name))?;
    Ok(JobOutcome {
        recorder,
        times: JobTimes::default(),
        error: 0,
        error_text: String::new(),
        notes: Vec::new(),
        pid: 0,
        start_wall_ms: 0,
        latency_depth: plan.engine.iodepth,
        steadystate: None,
        block: None,
    })
}

/// One job's thread once the jobs it waits for are done: its placement (affinity,
/// priorities), the layout of a `create_on_open` job's files (never written under
/// `readonly`), `ioscheduler`, `exec_prerun`, the job and `exec_postrun`; the outcome, with
/// what the job noted, goes to `slot`. A job stopped before it began stays out, one whose
/// `exec_prerun` failed is reported with nothing done.
pub(crate) fn job_thread(
    plan: &JobPlan,
    (readonly, mut filler): (bool, Option<BufferFiller>),
    (clock, clock_note): (JobClock, Option<String>),
    stop: &AtomicBool,
    (links, i): (&RunLinks, usize),
    progress: &JobProgress,
    mut slot: JobSlot<'_>,
) -> Result<(), JobError> {
    let name = &plan.job.name;
    crate::system::placement::apply(&plan.placement, plan.job.thread_number)
        .map_err(JobError::of(name))?;
    if plan.files.create_on_open {
        let mut data = crate::files::LayoutData::of(plan);
        crate::files::lay_out(&plan.files, readonly, stop, &mut data)
            .map_err(JobError::of(name))?;
        filler = Some(data.filler);
    }
    // Stopped, stopped by another job's end (`exitall`) before it began, or `create_only`
    // (the files are laid out, and that is all).
    if stop.load(Ordering::Relaxed) || plan.files.create_only || links.stopped(i) {
        return Ok(());
    }
    // What the job notes before and after its I/O, for its outcome.
    let mut notes = Vec::new();
    let ioscheduler = plan.placement.ioscheduler.as_deref();
    crate::system::iosched::apply(ioscheduler, &plan.files, &mut notes)
        .map_err(JobError::of(name))?;
    if let Err(e) = crate::system::hints::apply(&plan.files) {
        // The job fails before any I/O, and is reported so, as in fio 3.33.
        let mut outcome = not_started(plan)?;
        (outcome.error, outcome.error_text) = (e.errno(), e.to_string());
        outcome.notes = notes;
        links.job_ended(i, &plan.schedule, true);
        slot.done(outcome);
        return Ok(());
    }
    if let Some(command) = &plan.hooks.prerun {
        let ran = crate::system::exec::run(name, Stage::Prerun, command, &mut notes)
            .map_err(JobError::of(name))?;
        if !ran {
            // Reported with nothing done, as in fio 3.33, with what it noted.
            let mut outcome = not_started(plan)?;
            outcome.notes = notes;
            slot.done(outcome);
            return Ok(());
        }
    }
    let locked = lock_memory(plan, &mut notes);
    let result = job::run(plan, (clock, filler), stop, links.job(i, plan), progress, &mut slot);
    drop(locked);
    let errored = result.as_ref().map_or(true, |o| o.error != 0);
    links.job_ended(i, &plan.schedule, errored);
    let mut outcome = result?;
    if let Some(command) = &plan.hooks.postrun {
        crate::system::exec::run(name, Stage::Postrun, command, &mut notes)
            .map_err(JobError::of(name))?;
    }
    notes.append(&mut outcome.notes);
    notes.extend(clock_note);
    outcome.notes = notes;
    slot.done(outcome);
    Ok(())
}

/// `lockmem`: the memory locked for the job's duration, if it asks for some and the kernel
/// grants it; otherwise the job runs anyway, after a note, as in fio 3.33 (see
/// [`iomark_engine::locked`]).
fn lock_memory(
    plan: &JobPlan,
    notes: &mut Vec<String>,
) -> Option<iomark_engine::locked::LockedMemory> {
    let lockmem = plan.placement.lockmem;
    if lockmem == 0 {
        return None;
    }
    let limit = iomark_engine::locked::limit();
    if lockmem > limit {
        notes.push(format!("limiting mlocked memory to {}MiB", limit >> 20));
    }
    iomark_engine::locked::LockedMemory::lock(lockmem.min(limit))
        .map_err(|e| notes.push(format!("mlock: {e}")))
        .ok()
}
