//! One job thread: the job's setup, its submit/reap loop, and what it hands back.
//!
//! The loop's state is in two parts. [`hot::Hot`] is what the plain loop touches at every
//! I/O: the engine, the units and their free list, the stamps, the workload, the clock, the
//! recorder, the counters. [`features::Features`] is the state of the features a plain job
//! does not use (verification, the controls between I/Os, logs, file locks, a replay,
//! per-I/O priorities, syncs, `fill_device`…), reached only from the loop's rich path and
//! from the job's start and end. [`drive::Loop`] holds both and turns the loop; `start.rs`
//! makes them, [`run`] runs the loop and ends the job.
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
use crate::features::verify_host::Host;
use crate::links::progress::{JobProgress, JobState};
use crate::links::status::JobSlot;
use iomark_engine::file::ThreadUsage;
use iomark_plan::JobPlan;
use iomark_verify::JobVerify;
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
mod start;
mod submit;
mod sync;
mod waits;

pub(crate) use crate::outcome::JobOutcome;
pub(crate) use describe::errno_text;
use drive::Loop;
pub use error::{JobError, JobFailure};
use iomark_engine::UnitTable;
pub(crate) use outcome::recorder_config;

/// Runs one job to its end; `stop` asks it to finish early, `links` is what it shares with
/// the other jobs, and `status` is where it answers requests for interim reports.
pub fn run(
    plan: &JobPlan,
    (clock, filler): (JobClock, Option<iomark_workload::BufferFiller>),
    stop: &AtomicBool,
    links: crate::links::JobLinks<'_>,
    progress: &JobProgress,
    status: &mut JobSlot<'_>,
) -> Result<JobOutcome, JobError> {
    // The job's units are indexed by slots of its own table's brand (see UnitTable).
    UnitTable::scope(|brand| {
        let job = (clock, filler);
        let (mut l, verify_host) = start::start(plan, job, stop, links, progress, status, brand)?;
        l.run(stop);
        while l.verify_phase(stop) {
            l.run(stop);
        }
        end(l, progress, &verify_host)
    })
}

/// The end of the job that loop `l` ran: its logs and verify state written, its files
/// synced (`end_fsync`, `fsync_on_close`) and closed, and removed where it says so; its
/// outcome, with the CPU time of its thread, its engine's threads and its `verify_async`
/// helpers (`verify_host`).
fn end(
    mut l: Loop<'_, '_, '_>,
    progress: &JobProgress,
    verify_host: &Host,
) -> Result<JobOutcome, JobError> {
    let plan = l.feat.plan;
    l.count_verify_failures();
    let end = l.io.last_now;
    if let Some(logs) = l.feat.logs.as_mut() {
        // The files found over at the end are closed before the rest.
        logs.closed_files(end, l.io.workload.closed_files());
    }
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
    let mut recorder = l.io.recorder.clone();
    recorder.lifetimes = l.feat.lifetimes.as_ref().map(|b| b.states());
    let mut outcome = l.outcome(recorder, end, usage);
    if let Some(block) = l.feat.block.take() {
        let block = block.finish(l.io.clock.now_ns());
        outcome.notes.extend(block.notes.iter().cloned());
        outcome.block = Some(block);
    }
    drop(files);
    if plan.files.unlink || l.unlinks_at_end() {
        crate::files::unlink(&plan.files).map_err(JobError::of(&plan.job.name))?;
    }
    Ok(outcome)
}
