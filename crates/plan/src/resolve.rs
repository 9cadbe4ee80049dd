//! Resolving a job: [`JobPlan::new`] reads the job's options (through the typed keys only)
//! and resolves each sub-plan once, in the order that names the first error as iomark always
//! has; [`Seeds`] are derived here too.

use crate::buffers::{self, BufferPlan};
use crate::cmdprio::CmdPrio;
use crate::engine::EnginePlan;
use crate::error::{OptionError, PlanError};
use crate::errors::ErrorPolicy;
use crate::files::{self, FilesPlan};
use crate::layout::FileSizes;
use crate::limits::LimitsPlan;
use crate::logs::LogPlan;
use crate::pacing::PacingPlan;
use crate::placement::Placement;
use crate::plan::{JobPlan, Seeds};
use crate::replay::ReplayPlan;
use crate::report::ReportPlan;
use crate::schedule::{ExecPlan, JobId, SchedulePlan};
use crate::sync::{self, SyncPlan};
use crate::timing::Timing;
use crate::verify;
use crate::workload::{self, WorkloadPlan};
use iomark_options::keys;
use iomark_options::JobSpec;
use iomark_workload::FioSeeds;

impl JobPlan {
    /// Resolves clone `jobnum` of `spec`, job number `thread_number` of the run (from 0);
    /// looks at the files on disk, as `sizes` says the jobs before it leave them.
    pub fn new(
        spec: &JobSpec,
        jobnum: u64,
        thread_number: u64,
        sizes: &FileSizes,
    ) -> Result<JobPlan, PlanError> {
        let fail = |e: OptionError| e.in_job(&spec.name);
        crate::cpuio::check(spec).map_err(fail)?;
        let workload = WorkloadPlan::of(spec).map_err(fail)?;
        let buffer_align = buffers::align(spec).map_err(fail)?;
        let placement = Placement::of(spec).map_err(fail)?;
        let replay = ReplayPlan::of(spec, jobnum).map_err(fail)?;
        let direct = files::direct(spec);
        let sync_writes = sync::SyncMode::of(spec) != sync::SyncMode::None;
        let engine =
            EnginePlan::of(spec, direct, sync_writes, replay.as_ref().and_then(|r| r.depth));
        let seeds = Seeds::of(spec, jobnum, thread_number);
        let files =
            FilesPlan::of(spec, (jobnum, &seeds.fio), &workload, replay.as_ref(), &engine, sizes)
                .map_err(fail)?;
        let report = ReportPlan::of(spec).map_err(fail)?;
        let pacing = PacingPlan::of(spec, workload.min_block_sizes()).map_err(fail)?;
        let limits = LimitsPlan::of(spec, &files, replay.as_ref()).map_err(fail)?;
        let logs = LogPlan::of(spec, thread_number + 1).map_err(fail)?;
        let loops = limits.loops > 1 || limits.time_based;
        files.check(&engine, &workload, loops).map_err(fail)?;
        let buffers = BufferPlan::of(spec, buffer_align).map_err(fail)?;
        let plan = JobPlan {
            job: JobId {
                name: spec.name.clone(),
                description: spec.get(keys::DESCRIPTION),
                jobnum,
                thread_number,
            },
            schedule: SchedulePlan::of(spec),
            engine,
            workload,
            files,
            limits,
            syncs: SyncPlan::of(spec),
            buffers,
            pacing,
            verify: None,
            logs,
            report,
            timing: Timing::of(spec),
            placement,
            errors: ErrorPolicy::default(),
            replay,
            hooks: ExecPlan::of(spec),
            seeds,
            notes: Vec::new(),
        };
        let verify = verify::of(spec, &plan).map_err(fail)?;
        let notes = notes(spec, &plan);
        let mut seeds = plan.seeds;
        seeds.fio.verify_sizes = verify.is_some();
        let cmdprio = CmdPrio::of(spec, plan.placement.ioprio).map_err(fail)?;
        let errors = ErrorPolicy::of(spec).map_err(fail)?;
        let placement = Placement { cmdprio, ..plan.placement };
        Ok(JobPlan { verify, placement, errors, seeds, notes, ..plan })
    }
}

/// What the plan of `spec` notes: the lines fio 3.33 prints for the same job, and
/// iomark's own.
fn notes(spec: &JobSpec, plan: &JobPlan) -> Vec<String> {
    let mut notes = Vec::new();
    if spec.flag(keys::TIME_BASED) && !plan.limits.time_based {
        notes.push(format!(
            "job '{}': time_based requires a runtime/timeout setting; the job runs as if it \
             were not time based, as in fio 3.33",
            plan.job.name
        ));
    }
    if plan.engine.depth_capped() {
        notes.push(
            "both iodepth >= 1 and synchronous I/O engine are selected, queue depth will be \
             capped at 1"
                .to_string(),
        );
    }
    notes.extend(no_effect(spec).map(|what| format!("job '{}': {what}", plan.job.name)));
    if let Some(note) = plan.engine.offload_note() {
        notes.push(format!("job '{}': {note}", plan.job.name));
    }
    if let Some(replay) = plan.replay.as_ref().filter(|r| r.skip_ignored) {
        notes.push(format!(
            "job '{}': replay_skip applies to blktrace replays only, as in fio 3.33; '{}' is \
             replayed whole",
            plan.job.name,
            replay.log.display()
        ));
    }
    if let Some(replay) = plan.replay.as_ref().filter(|r| r.zero_bytes > 0) {
        notes.push(format!(
            "job '{}': {} queue(s) of 0 bytes in the blktrace trace '{}' left out, as fio 3.33 \
             leaves them out (\"ignoring zero byte trace\")",
            plan.job.name,
            replay.zero_bytes,
            replay.log.display()
        ));
    }
    notes
}

/// The options of `spec` that fio 3.33 accepts and that have no effect on Linux with the
/// engines iomark runs, in fio as in iomark: what the note says of each.
fn no_effect(spec: &JobSpec) -> impl Iterator<Item = &'static str> {
    [
        (
            spec.get(keys::WRITE_BARRIER).unwrap_or(0) > 0,
            "write_barrier has no effect: Linux has had no barrier writes since 2.6.37, and \
             fio 3.33 issues them only with its sg engine",
        ),
        (
            spec.flag(keys::ATOMIC),
            "atomic opens the files with O_DIRECT; the O_ATOMIC flag fio 3.33 adds was never \
             merged into Linux, which ignores it",
        ),
        (
            spec.is_set(keys::GTOD_CPU),
            "gtod_cpu has no effect: iomark's clock reads take no time-keeping thread",
        ),
        (
            spec.is_set(keys::CMD_TYPE),
            "cmd_type has no effect with io_uring, as in fio 3.33 (it is io_uring_cmd's)",
        ),
    ]
    .into_iter()
    .filter_map(|(set, what)| set.then_some(what))
}

impl Seeds {
    /// The seeds of clone `jobnum` of `spec`, job number `thread_number` of the run (from
    /// 0), with `randseed` and, unless `randrepeat` (or `allrandrepeat`) holds, seeds of its
    /// own.
    fn of(spec: &JobSpec, jobnum: u64, thread_number: u64) -> Seeds {
        // fio 3.33: `allrandrepeat=1` makes every stream repeatable even with
        // `randrepeat=0` (iomark's streams all come from the one seed).
        let repeat = spec.flag(keys::RANDREPEAT) || spec.flag(keys::ALLRANDREPEAT);
        let randseed = spec.get(keys::RANDSEED).unwrap_or(0x89);
        // fio numbers its jobs from 1 in the order it makes them: a job, then its clones
        // from the last to the first (clone 1 of 3 is the job's number + 2).
        let first = thread_number - jobnum + 1;
        let fio_number = if jobnum == 0 { first } else { first + spec.numjobs() - jobnum };
        let mut fio = if repeat {
            let seeds = FioSeeds::repeatable(randseed, fio_number);
            if spec.is_set(keys::RANDSEED) {
                seeds.given_randseed(jobnum > 0)
            } else {
                seeds
            }
        } else {
            FioSeeds::random(workload::fresh_seed(randseed))
        };
        fio.use64 = spec.get(keys::RANDOM_GENERATOR).is_some_and(|c| c.name == "tausworthe64");
        Seeds {
            fio,
            // Each job (and clone) draws its own offsets, as fio seeds each job by its
            // number.
            workload: if repeat {
                randseed.wrapping_add(thread_number.wrapping_mul(0x9e37_79b9_7f4a_7c15))
            } else {
                workload::fresh_seed(randseed)
            },
            verify: randseed ^ (thread_number + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15),
        }
    }
}
