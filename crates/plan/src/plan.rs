//! The plan of one running copy of a job ([`JobPlan`]): a value made of the sub-plans, one
//! per concern, and its seeds. `resolve.rs` makes it.

use crate::buffers::BufferPlan;
use crate::engine::EnginePlan;
use crate::errors::ErrorPolicy;
use crate::files::FilesPlan;
use crate::limits::LimitsPlan;
use crate::logs::LogPlan;
use crate::pacing::PacingPlan;
use crate::placement::Placement;
use crate::replay::ReplayPlan;
use crate::report::ReportPlan;
use crate::schedule::{ExecPlan, JobId, SchedulePlan};
use crate::sync::SyncPlan;
use crate::timing::Timing;
use crate::workload::WorkloadPlan;
use iomark_verify::VerifyPlan;

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
    /// What planning noticed that the user should know and that is no error (fio's note
    /// that the queue depth is capped at 1, a `replay_skip` that changes nothing), one line
    /// each; the run's report carries them ([`crate::notes`]).
    pub notes: Vec<String>,
}

/// The seeds of a job's random streams, derived once from `randseed`, `randrepeat` and the
/// job's thread number, so that every clone draws its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Seeds {
    /// iomark's own draws of the workload (generated buffer contents).
    pub workload: u64,
    /// What the job's writes stamp in their verify headers, and the draws of
    /// `trim_percentage`.
    pub verify: u64,
    /// The seeds of the streams whose draws are fio 3.33's (offsets, block sizes, the
    /// read/write mix, `percentage_random`, the file services, the skewed distributions,
    /// random buffers, the rate's Poisson gaps).
    pub fio: iomark_workload::FioSeeds,
}

impl JobPlan {
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
