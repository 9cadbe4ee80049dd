//! A job's files, resolved: which files and the region of each ([`crate::layout`], or the
//! replayed log's), and how the runner lays them out, opens them, locks them and removes
//! them: `direct`, `sync`, `invalidate`, `pre_read`, `fadvise_hint`, `fallocate`,
//! `allow_file_create`, `create_*`, `file_append`, `overwrite`, `unlink`,
//! `unlink_each_loop`, `fill_device`, `lockfile` and `write_hint`.

use crate::engine::EnginePlan;
use crate::error::OptionError;
use crate::layout::{self, FilePlan, FileSizes};
use crate::replay::ReplayPlan;
use crate::sync::SyncMode;
use crate::workload::WorkloadPlan;
use iomark_engine::file::{Access, Prealloc};
use iomark_options::keys;
use iomark_options::JobSpec;

/// How a job locks the files it shares with other jobs (`lockfile`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LockMode {
    /// `none`.
    None,
    /// `exclusive`.
    Exclusive,
    /// `readwrite`.
    ReadWrite,
}

/// A job's files and how it treats them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FilesPlan {
    /// The files and the region of each this job covers.
    pub list: Vec<FilePlan>,
    /// Whether the engine touches the files: every engine but `null`, which lays out,
    /// opens and hints nothing (as in fio).
    pub touched: bool,
    /// Whether the runner opens the files for the engine: not for `null` nor for the
    /// metadata engines, which work on them by name (`filecreate` lays out nothing either).
    pub opened: bool,
    /// Whether the job reads its files (its `rw`, or its replayed log, has reads).
    pub reads: bool,
    /// Whether the job writes or trims its files.
    pub writes: bool,
    /// Open the files for writing even when the job only reads: `falloc`'s reads are
    /// `fallocate` calls, which need a writable descriptor (fio's engine opens so too).
    pub open_writable: bool,
    /// Open with `O_DIRECT` (`direct`, or not `buffered`, whichever was set last).
    pub direct: bool,
    /// How writes reach the disk (`sync`).
    pub sync_mode: SyncMode,
    /// Drop the files' cached pages before the job (`invalidate`; off with `pre_read`).
    pub invalidate: bool,
    /// Read the job's regions into the page cache before the job (`pre_read`).
    pub pre_read: bool,
    /// What to tell the kernel of the job's access pattern (`fadvise_hint`), if anything.
    pub fadvise: Option<Access>,
    /// How new files are preallocated (`fallocate`).
    pub prealloc: Prealloc,
    /// Whether laying out the files makes each as large as its region needs: a job that
    /// reads (or writes with `overwrite`) writes the region, the mmap engine maps the whole
    /// file, and `fallocate=native`, `posix` or `truncate` set the size. Otherwise (a job
    /// that only writes or trims, with `fallocate=none` or `keep`) the file grows by the
    /// job's writes, as in fio 3.33.
    pub sized_by_layout: bool,
    /// Create missing files (`allow_file_create`).
    pub allow_create: bool,
    /// Write to block devices even when they are in use (`allow_mounted_write`).
    pub allow_mounted_write: bool,
    /// Open files only when first used (`create_on_open`).
    pub create_on_open: bool,
    /// Lay out this job's files one job at a time (`create_serialize`, default true);
    /// false lays them out beside the other jobs'.
    pub create_serialize: bool,
    /// `fsync` a file after laying it out (`create_fsync`, default true).
    pub create_fsync: bool,
    /// Lay out the files and do no I/O (`create_only`).
    pub create_only: bool,
    /// Start each regular file's region at its end (`file_append`; see
    /// [`crate::layout::append`]).
    pub file_append: bool,
    /// Lay out (write) the files before a job that writes, as before one that reads
    /// (`overwrite`).
    pub overwrite: bool,
    /// Remove the files when the job is done (`unlink`).
    pub unlink: bool,
    /// Remove the files between loops, and open them again (`unlink_each_loop`).
    pub unlink_each_loop: bool,
    /// `fill_device` (`fill_fs`): write until the file system is full; the job then ends
    /// without an error.
    pub fill_device: bool,
    /// How the job locks the files it shares with other jobs (`lockfile`).
    pub lockfile: LockMode,
    /// The write life time hint of the job's files (`write_hint`, the kernel's value).
    pub write_hint: Option<u64>,
}

impl FilesPlan {
    /// The files of clone `jobnum` of `spec` (a replay's are its log's), with `engine`,
    /// placed after what the jobs before lay out (`sizes`), drawing from the job's fio
    /// streams (`seeds`: `filesize` ranges).
    pub fn of(
        spec: &JobSpec,
        (jobnum, seeds): (u64, &iomark_workload::FioSeeds),
        workload: &WorkloadPlan,
        replay: Option<&ReplayPlan>,
        engine: &EnginePlan,
        sizes: &FileSizes,
    ) -> Result<FilesPlan, OptionError> {
        let file_append = spec.flag(keys::FILE_APPEND);
        let touched = engine.touches_files();
        let align = workload.min_block_sizes().iter().copied().min().unwrap_or(4096);
        // A replay's files and sizes are its log's (see crate::replay).
        let mut list = match replay {
            Some(r) => r.file_plans(workload.bs.iter().copied().max().unwrap_or(0))?,
            None => layout::plan_files(spec, jobnum, align, seeds)?,
        };
        if file_append && touched {
            sizes.place(&mut list);
        }
        let dirs = replay.map_or_else(|| workload.dirs(), ReplayPlan::dirs);
        let (reads, writes) = (dirs[0], dirs[1] || dirs[2]);
        let overwrite = spec.flag(keys::OVERWRITE);
        let prealloc = match spec.get(keys::FALLOCATE).map(|c| c.name) {
            Some("none" | "0") => Prealloc::None,
            Some("posix") => Prealloc::Posix,
            Some("keep") => Prealloc::KeepSize,
            Some("truncate") => Prealloc::Truncate,
            _ => Prealloc::Native,
        };
        Ok(FilesPlan {
            list,
            touched,
            opened: engine.opens_files(),
            reads,
            writes,
            open_writable: writes || engine.name == "falloc",
            direct: direct(spec),
            sync_mode: SyncMode::of(spec),
            // "pre_read … will also clear the invalidate flag" (fio's HOWTO).
            invalidate: spec.flag(keys::INVALIDATE) && !spec.flag(keys::PRE_READ),
            pre_read: spec.flag(keys::PRE_READ),
            fadvise: fadvise(spec, workload),
            sized_by_layout: reads
                || overwrite
                || engine.name == "mmap"
                || matches!(prealloc, Prealloc::Native | Prealloc::Posix | Prealloc::Truncate),
            prealloc,
            allow_create: spec.flag(keys::ALLOW_FILE_CREATE),
            allow_mounted_write: spec.flag(keys::ALLOW_MOUNTED_WRITE),
            create_on_open: spec.flag(keys::CREATE_ON_OPEN),
            create_serialize: spec.flag(keys::CREATE_SERIALIZE),
            create_fsync: spec.flag(keys::CREATE_FSYNC),
            create_only: spec.flag(keys::CREATE_ONLY),
            file_append,
            overwrite,
            unlink: spec.flag(keys::UNLINK),
            unlink_each_loop: spec.flag(keys::UNLINK_EACH_LOOP),
            fill_device: spec.flag(keys::FILL_DEVICE),
            lockfile: match spec.get(keys::LOCKFILE).map(|c| c.name) {
                Some("exclusive") => LockMode::Exclusive,
                Some("readwrite") => LockMode::ReadWrite,
                _ => LockMode::None,
            },
            write_hint: write_hint(spec),
        })
    }

    /// Records in `sizes` what laying out the files leaves (the null engine lays out
    /// nothing; a `fill_device` job's files grow by its writes).
    pub fn laid_out(&self, sizes: &mut FileSizes) {
        if self.touched {
            sizes.laid_out(&self.list, !self.fill_device && self.sized_by_layout);
        }
    }

    /// Whether the job takes its file locks as a reader (`lockfile=readwrite` in a job
    /// that only reads).
    pub fn shared_lock(&self) -> bool {
        self.lockfile == LockMode::ReadWrite && !self.writes
    }

    /// Refuses what the files cannot do with this engine and workload, in a job that
    /// `loops` (more than one loop, or time based): `unlink_each_loop` with the mmap engine
    /// in a job that loops, since the engine maps
    /// each file whole when the job starts (a file made anew between loops is empty; fio
    /// 3.33 dies of SIGBUS there; one loop runs), and `fill_device` in a job that does not
    /// write.
    pub fn check(
        &self,
        engine: &EnginePlan,
        workload: &WorkloadPlan,
        loops: bool,
    ) -> Result<(), OptionError> {
        if engine.name == "mmap" && self.unlink_each_loop && loops {
            return Err(OptionError::new(
                keys::UNLINK_EACH_LOOP,
                "the mmap engine maps each file whole when the job starts, and a file made \
                 anew between loops is empty (fio 3.33 dies of SIGBUS there; one loop runs)",
            ));
        }
        if self.fill_device && !workload.dirs()[1] {
            return Err(OptionError::new(
                keys::FILL_DEVICE,
                format!(
                    "iomark fills a file system only with a job that writes, not rw={} (fio \
                     3.33 fills it first and then runs the job)",
                    workload.rw.name()
                ),
            ));
        }
        Ok(())
    }
}

/// `direct`, or `buffered` when it was set after it; `atomic` implies it.
pub(crate) fn direct(spec: &JobSpec) -> bool {
    // `atomic` implies O_DIRECT, as in fio.
    if spec.flag(keys::ATOMIC) {
        return true;
    }
    if spec.set_after(keys::BUFFERED, keys::DIRECT) {
        !spec.flag(keys::BUFFERED)
    } else {
        spec.flag(keys::DIRECT)
    }
}

/// fio's `fadvise_hint`: `1` (the default) advises by the job's pattern, random for the
/// `rand*` modes and sequential otherwise.
fn fadvise(spec: &JobSpec, workload: &WorkloadPlan) -> Option<Access> {
    match spec.get(keys::FADVISE_HINT).map(|c| c.name) {
        Some("0") => None,
        Some("random") => Some(Access::Random),
        Some("sequential") => Some(Access::Sequential),
        _ if workload.random() => Some(Access::Random),
        _ => Some(Access::Sequential),
    }
}

/// The kernel's value of the job's `write_hint` (`none`, `short`, `medium`, `long` and
/// `extreme` are 1 to 5), if it sets one.
fn write_hint(spec: &JobSpec) -> Option<u64> {
    match spec.get(keys::WRITE_HINT)?.name {
        "none" => Some(1),
        "short" => Some(2),
        "medium" => Some(3),
        "long" => Some(4),
        "extreme" => Some(5),
        _ => None,
    }
}
