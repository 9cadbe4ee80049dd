//! How a job verifies what it writes: `verify` and its companions, and what verification
//! needs to know of the rest of the job, all resolved before the job starts (the plan
//! crate resolves them; this crate only reads them).

use crate::block::VerifyFormat;
use iomark_workload::FioSeeds;

/// How a job verifies what it writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifyPlan {
    /// Block layout: method, `verify_interval`, `verify_offset`, `verify_pattern`.
    pub format: VerifyFormat,
    /// `do_verify`: read everything back after the writes.
    pub do_verify: bool,
    /// `verify_only`: write nothing, check what an earlier run of the job wrote.
    pub verify_only: bool,
    /// `verify_fatal`: stop at a block's first bad chunk (otherwise every chunk of the bad
    /// block is reported).
    pub fatal: bool,
    /// `verify_dump`: write the received and expected block to files.
    pub dump: bool,
    /// `verify_backlog`: verify after this many writes (0: only at the end).
    pub backlog: u64,
    /// `verify_backlog_batch`: how many blocks to verify then (default `verify_backlog`).
    pub backlog_batch: u64,
    /// `verify_write_sequence`: check each header's write number.
    pub write_sequence: bool,
    /// `verify_state_save`: write the state file when the job ends.
    pub state_save: bool,
    /// `verify_state_load`: with `verify_only`, verify only the writes the state file says
    /// were done.
    pub state_load: bool,
    /// `continue_on_error=verify|all`: keep verifying after a bad block.
    pub continue_on_error: bool,
    /// `verify_async`: how many helper threads check the blocks read back (0: the job's
    /// own thread checks them).
    pub async_threads: u32,
    /// `verify_async_cpus`: the CPUs the helper threads may run on, if restricted.
    pub async_cpus: Option<Vec<u32>>,
    /// The job only reads (`rw=read` or `randread`): each of its reads is checked as it
    /// completes, whatever `do_verify` says, as fio 3.33 does. The blocks were written
    /// by another run, so their seed and write number are not checked.
    pub reads_only: bool,
    /// `trim_percentage` and its companions, when the job trims some of its writes.
    pub trim: Option<TrimPlan>,
    /// What verification needs to know of the job it belongs to.
    pub job: VerifyJob,
}

/// What verification needs to know of its job, resolved from the job's plan: its name and
/// files, its depth, the shape of its writes, and the seed its headers carry.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct VerifyJob {
    /// The job's name (the state file's name has it).
    pub name: String,
    /// The clone's number among `numjobs` copies, from 0 (the state file's name has it).
    pub jobnum: u64,
    /// Where the state file goes (`--aux-path`); the current directory when `None`.
    pub state_dir: Option<std::path::PathBuf>,
    /// The names of the job's files, as failure reports show them.
    pub file_names: Vec<String>,
    /// The job's I/O units (`iodepth`).
    pub depth: u32,
    /// The job's largest block, in bytes.
    pub max_bs: u64,
    /// The largest size that divides the offset and length of every write of the job (the
    /// grain of the `verify_backlog` table, see `newest.rs`).
    pub grain: u64,
    /// The most writes `io_size × loops` can make (room reserved for the log of writes).
    pub writes: u64,
    /// `rw=trimwrite` or `randtrimwrite`: a trim before each write, logged too.
    pub trimwrite: bool,
    /// The seed the job's writes stamp in their headers.
    pub seed: u64,
    /// The job's thread number, from 1, stamped in the headers.
    pub thread: u16,
    /// The job verifies after each pass over its files, not once after all its writes
    /// (see `passes.rs`).
    pub each_pass: bool,
}

/// Which written blocks a verifying job trims, and when (`trim_percentage`, `trim_backlog`,
/// `trim_backlog_batch`, `trim_verify_zero`; see `trim.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TrimPlan {
    /// `trim_percentage`: the share of logged writes chosen for trimming, 1 to 100.
    pub percentage: u32,
    /// `trim_backlog`: trim when the count of writes not yet verified is a multiple of this.
    pub backlog: u64,
    /// `trim_backlog_batch` (default `trim_backlog`): the trims of a batch after its first.
    pub batch: u64,
    /// `trim_verify_zero`: verify trimmed blocks as zeros (otherwise they are not read back).
    pub verify_zero: bool,
    /// The job's fio seeds: the choice of each logged write draws from their
    /// [`FioStream::TrimPick`](iomark_workload::FioStream::TrimPick) stream, as fio 3.33's does.
    pub seeds: FioSeeds,
}

impl VerifyPlan {
    /// Whether a block's seed and write number are known (it was written by this run).
    pub fn knows_writes(&self) -> bool {
        !self.verify_only && !self.reads_only
    }

    /// Whether the job issues trims of its written blocks (`trim_percentage`); under
    /// `verify_only` they are only marked, as its writes are only logged.
    pub fn trims(&self) -> bool {
        self.trim.is_some() && self.do_verify && !self.verify_only
    }
}
