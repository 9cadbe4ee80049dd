//! The plan: one running copy of a job, with every option resolved, as an immutable value
//! made of small typed sub-plans, one per concern: which job it is and when it runs
//! ([`schedule`]), its engine, its workload, its files and their regions, its limits,
//! syncs, buffers, pacing, verification, logs, reporting, timing, placement, error
//! policy, replay and seeds. Each is resolved once, here; the runner hands each feature the
//! sub-plan it needs (`&plan.files`, `&plan.pacing`), never the whole plan.
//!
//! This is the second parsing stage of STYLE.md: the `JobSpec` holds what the user wrote,
//! the plan resolves it (looking at the files on disk) and checks rules that involve several
//! options. Options are read only here, and only through the typed keys of
//! [`iomark_options::keys`]. Errors name the job and the option, and make iomark exit with
//! code 2.
//!
//! A plan holds no live state: what the jobs of a run share while they run (flows, `exitall`,
//! file locks) is the runner's. [`plans`] plans a whole run: the clones of every job in
//! order, each knowing its thread number, the regions of appending jobs placed after what
//! the jobs before them lay out.

#![forbid(unsafe_code)]

pub mod buffers;
pub mod cmdprio;
pub mod engine;
mod error;
pub mod errors;
pub mod files;
pub mod layout;
pub mod limits;
pub mod logs;
pub mod pacing;
pub mod placement;
pub mod replay;
pub mod report;
mod run;
pub mod schedule;
pub mod sync;
pub mod timing;
mod verify;
pub mod workload;

pub use error::{OptionError, PlanError};
pub use run::{plans, RunPlans};

use buffers::BufferPlan;
use cmdprio::CmdPrio;
use engine::EnginePlan;
use errors::ErrorPolicy;
use files::FilesPlan;
use iomark_options::keys;
use iomark_options::JobSpec;
use iomark_verify::VerifyPlan;
use layout::FileSizes;
use limits::LimitsPlan;
use logs::LogPlan;
use pacing::PacingPlan;
use placement::Placement;
use replay::ReplayPlan;
use report::ReportPlan;
use schedule::{ExecPlan, JobId, SchedulePlan};
use sync::SyncPlan;
use timing::Timing;
use workload::WorkloadPlan;

/// One running copy of a job, every option resolved.
#[derive(Debug, Clone, PartialEq)]
pub struct JobPlan {
    /// Which job this is: name, clone and thread number.
    pub job: JobId,
    /// When it runs, and whom its end stops (`stonewall`, `wait_for`, `exitall`…).
    pub schedule: SchedulePlan,
    /// Its engine, depth and batching.
    pub engine: EnginePlan,
    /// What it issues: `rw`, block sizes, distributions…
    pub workload: WorkloadPlan,
    /// Its files, their regions, and how they are laid out and opened.
    pub files: FilesPlan,
    /// How much it does and for how long (`io_size`, `loops`, `runtime`…).
    pub limits: LimitsPlan,
    /// The syncs it issues (`fsync`, `fdatasync`, `sync_file_range`, `end_fsync`…).
    pub syncs: SyncPlan,
    /// What its write buffers hold and where they live.
    pub buffers: BufferPlan,
    /// Rates, think time, latency limits and targets, steady state, flow.
    pub pacing: PacingPlan,
    /// How it verifies its writes, if it does.
    pub verify: Option<VerifyPlan>,
    /// The log files it writes.
    pub logs: LogPlan,
    /// What its report shows.
    pub report: ReportPlan,
    /// What it measures and with which clock.
    pub timing: Timing,
    /// Where and how urgently its thread and its I/Os run.
    pub placement: Placement,
    /// What it does when an I/O fails.
    pub errors: ErrorPolicy,
    /// The log it replays instead of its own workload (`read_iolog`), if any.
    pub replay: Option<ReplayPlan>,
    /// The commands it runs before and after its I/O.
    pub hooks: ExecPlan,
    /// Its random seeds, derived once.
    pub seeds: Seeds,
}

/// The seeds of a job's random streams, derived once from `randseed`, `randrepeat` and the
/// job's thread number, so that every clone draws its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Seeds {
    /// The workload's streams (offsets, sizes, mix, buffers) and the rate's Poisson gaps.
    pub workload: u64,
    /// What the job's writes stamp in their verify headers, and the draws of
    /// `trim_percentage`.
    pub verify: u64,
    /// The draws of per-I/O priorities (`cmdprio_*`).
    pub cmdprio: u64,
}

impl Seeds {
    /// The seeds of job number `thread_number` with `randseed` and, unless `randrepeat`
    /// (or `allrandrepeat`) holds, a seed of its own for the workload.
    fn of(spec: &JobSpec, thread_number: u64) -> Seeds {
        // fio 3.33: `allrandrepeat=1` makes every stream repeatable even with
        // `randrepeat=0` (iomark's streams all come from the one seed).
        let repeat = spec.flag(keys::RANDREPEAT) || spec.flag(keys::ALLRANDREPEAT);
        let randseed = spec.get(keys::RANDSEED).unwrap_or(0x89);
        Seeds {
            // Each job (and clone) draws its own offsets, as fio seeds each job by its
            // number.
            workload: if repeat {
                randseed.wrapping_add(thread_number.wrapping_mul(0x9e37_79b9_7f4a_7c15))
            } else {
                workload::fresh_seed(randseed)
            },
            verify: randseed ^ (thread_number + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15),
            cmdprio: randseed ^ thread_number,
        }
    }
}

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
        let workload = WorkloadPlan::of(spec).map_err(fail)?;
        let buffer_align = buffers::align(spec).map_err(fail)?;
        let placement = Placement::of(spec).map_err(fail)?;
        let replay = ReplayPlan::of(spec, jobnum).map_err(fail)?;
        let direct = files::direct(spec);
        let sync_writes = sync::SyncMode::of(spec) != sync::SyncMode::None;
        let engine = EnginePlan::of(spec, direct, sync_writes);
        let files = FilesPlan::of(spec, jobnum, &workload, replay.as_ref(), &engine, sizes)
            .map_err(fail)?;
        engine.check().map_err(fail)?;
        let report = ReportPlan::of(spec).map_err(fail)?;
        let pacing = PacingPlan::of(spec, workload.min_block_sizes()).map_err(fail)?;
        let limits = LimitsPlan::of(spec, &files, replay.as_ref()).map_err(fail)?;
        let logs = LogPlan::of(spec, thread_number + 1).map_err(fail)?;
        files.check(&engine, &workload).map_err(fail)?;
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
            seeds: Seeds::of(spec, thread_number),
        };
        let verify = verify::of(spec, &plan).map_err(fail)?;
        let cmdprio = CmdPrio::of(spec, plan.placement.ioprio).map_err(fail)?;
        let errors = ErrorPolicy::of(spec).map_err(fail)?;
        Ok(JobPlan { verify, placement: Placement { cmdprio, ..plan.placement }, errors, ..plan })
    }

    /// The largest buffer any I/O of the job needs.
    pub fn max_block_size(&self) -> u64 {
        let max = self.workload.max_block_size();
        self.replay.as_ref().map_or(max, |r| max.max(r.max_len()))
    }

    /// Whether the job reads.
    pub fn reads(&self) -> bool {
        self.files.reads
    }

    /// Whether the job writes or trims.
    pub fn writes(&self) -> bool {
        self.files.writes
    }

    /// The data directions the job performs (reads, writes, trims): its `rw` pattern's, or
    /// its replayed log's.
    pub fn dirs(&self) -> [bool; 3] {
        self.replay.as_ref().map_or_else(|| self.workload.dirs(), ReplayPlan::dirs)
    }
}

/// The one job of a command line `--name=j --ARG…` (for tests); `Err` for a bad value.
#[cfg(test)]
pub(crate) fn test_spec(args: &[&str]) -> Result<JobSpec, String> {
    let mut argv = vec!["--name=j".to_string()];
    argv.extend(args.iter().map(|a| format!("--{a}")));
    let cmd = iomark_options::cmdline::parse(argv).map_err(|e| e.to_string())?;
    let sources = iomark_options::assemble::Sources { cli_jobs: cmd.jobs, ..Default::default() };
    let mut specs = iomark_options::assemble::build(&sources).map_err(|e| e.to_string())?;
    Ok(specs.remove(0))
}
