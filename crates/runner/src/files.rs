//! Laying out and opening a job's files, as fio does before a job starts.
//!
//! A missing file is created (unless `allow_file_create=0`); a regular file smaller than
//! its region needs is made anew (emptied first: fio 3.33 removes it and creates it again),
//! except under `file_append`. Such a file is preallocated per `fallocate` over the region's
//! end; a job that reads (or writes with `overwrite`) gets the region written first, so
//! that reads hit real data ("Laying out IO file" in fio), and the file is then as large as
//! the region needs. The layout's data is the job's, as in fio 3.33: chunks of its
//! largest write size, each filled as a write's buffer ([`LayoutData`]). A job that only
//! writes or trims leaves the size to `fallocate` and
//! its writes, as fio 3.33 does: with `fallocate=none` or `keep` a file grows only as far
//! as the job writes (`size=1m number_ios=3` leaves 12 KiB). The mmap engine maps the
//! whole file, so its files are extended to the region's end whatever the job does (fio's
//! mmap engine does the same). Before the job, the files' cached pages are dropped when
//! `invalidate=1` (fio's default). Files are removed after the job only when `unlink=1`.
//!
//! A stop request (Ctrl-C) ends a layout early; a file that the layout created is then
//! removed again, as fio does, since it is only partly written.

use iomark_engine::file::{self as sysfile, Prealloc};
use iomark_plan::files::FilesPlan;
use iomark_plan::layout::{self, FileKind, FilePlan};
use iomark_plan::sync::SyncMode;
use iomark_plan::JobPlan;
use iomark_workload::BufferFiller;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::os::fd::AsRawFd;
use std::os::unix::fs::OpenOptionsExt;
use std::sync::atomic::{AtomicBool, Ordering};

/// A failure to prepare a file, naming it.
#[derive(Debug, thiserror::Error)]
#[error("{action} '{path}': {source}")]
pub struct FileError {
    /// What was being done.
    pub action: FileAction,
    /// The file.
    pub path: String,
    /// Why it failed.
    pub source: io::Error,
}

/// What was being done to a file when it failed, as the message says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileAction {
    /// Creating it (or emptying it to make it anew).
    Create,
    /// Writing its region before the job reads it.
    LayOut,
    /// Extending it to the size the job needs.
    Extend,
    /// Syncing what the layout wrote.
    Sync,
    /// Reading its region into the cache (`pre_read`).
    PreRead,
    /// Opening it for the job.
    Open,
    /// Opening it with too many files open already (the job keeps all its files open).
    OpenTooMany,
    /// Removing it (`unlink`, `unlink_each_loop`).
    Remove,
    /// Not creating it: `--readonly` is set.
    RefuseCreate,
    /// Not extending it: `--readonly` is set.
    RefuseExtend,
}

impl std::fmt::Display for FileAction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            FileAction::Create => "cannot create",
            FileAction::LayOut => "cannot lay out",
            FileAction::Extend => "cannot extend",
            FileAction::Sync => "cannot sync",
            FileAction::PreRead => "cannot pre-read",
            FileAction::Open => "cannot open",
            FileAction::OpenTooMany => {
                "cannot open (the job keeps all its files open; raise `ulimit -n`)"
            }
            FileAction::Remove => "cannot remove",
            FileAction::RefuseCreate => "refusing to create",
            FileAction::RefuseExtend => "refusing to extend",
        })
    }
}

fn fail<'a>(action: FileAction, plan: &'a FilePlan) -> impl FnOnce(io::Error) -> FileError + 'a {
    move |source| FileError { action, path: plan.path.display().to_string(), source }
}

/// What the layout does with one file: nothing (it is there, large enough), or make it
/// (anew, or extending what it holds), given what is there now (`probed`: whether it exists
/// and its size). The refusals are the layout's: a file to create under
/// `allow_file_create=0`, a file to create or extend under `readonly`.
fn layout_of(
    job: &FilesPlan,
    plan: &FilePlan,
    (exists, size): (bool, u64),
    readonly: bool,
) -> Result<Option<Layout>, FileError> {
    // A `fill_device` job's region is "really large": its file grows by the writes.
    let needed = if job.fill_device { 0 } else { plan.needed_size() };
    if exists && size >= needed {
        return Ok(None);
    }
    if !exists && !job.allow_create {
        let source = io::Error::new(io::ErrorKind::NotFound, "allow_file_create=0");
        return Err(fail(FileAction::Create, plan)(source));
    }
    if readonly {
        let source = io::Error::new(io::ErrorKind::PermissionDenied, "--readonly is set");
        let action = if exists { FileAction::RefuseExtend } else { FileAction::RefuseCreate };
        return Err(fail(action, plan)(source));
    }
    // A file too small for the region is made anew (fio 3.33 removes it first); one that
    // the job appends to keeps what it has.
    Ok(Some(Layout { anew: !exists || !job.file_append, needed }))
}

/// How the layout makes a file.
struct Layout {
    /// Whether it is made anew (emptied) rather than extended.
    anew: bool,
    /// The size the job's region needs.
    needed: u64,
}

/// The regular files of a job that its layout looks at, with what is there now.
fn laid_out_files(job: &FilesPlan) -> impl Iterator<Item = (&FilePlan, (bool, u64))> {
    job.list
        .iter()
        .filter(|_| job.touched)
        .filter(|plan| !matches!(plan.kind, FileKind::BlockDevice(_) | FileKind::CharDevice))
        .map(|plan| match layout::probe(&plan.path).unwrap_or(plan.kind) {
            FileKind::Regular(n) => (plan, (true, n)),
            _ => (plan, (false, 0)),
        })
}

/// Checks, without creating or writing anything, that the layouts of `plans` can be done,
/// in run order, as far as it can be known before: what [`lay_out`] refuses
/// (`allow_file_create=0`, `--readonly`), and a file to create in a directory that does not
/// exist. A file an earlier job makes counts as made. The first failure names its job.
pub fn check_layouts(plans: &[JobPlan], readonly: bool) -> Result<(), (String, FileError)> {
    let mut made: std::collections::HashMap<&std::path::Path, u64> = Default::default();
    for job in plans {
        let fail_in = |e| (job.job.name.clone(), e);
        for (plan, probed) in laid_out_files(&job.files) {
            let probed = match made.get(plan.path.as_path()) {
                Some(&size) => (true, size.max(probed.1)),
                None => probed,
            };
            let Some(layout) = layout_of(&job.files, plan, probed, readonly).map_err(fail_in)?
            else {
                continue;
            };
            let dir = plan.path.parent().filter(|d| !d.as_os_str().is_empty());
            if !probed.0 && dir.is_some_and(|d| !d.is_dir()) {
                let source = io::Error::from_raw_os_error(libc::ENOENT);
                return Err(fail_in(fail(FileAction::Create, plan)(source)));
            }
            made.insert(&plan.path, if layout.anew { 0 } else { probed.1 }.max(layout.needed));
        }
    }
    Ok(())
}

/// What a job's layout writes: fio 3.33 writes a file it lays out in chunks of the job's
/// largest write size, each filled as a write's buffer from the job's buffer streams, so
/// the job's units then take the seeds after the layout's.
pub struct LayoutData {
    /// The job's buffer filler, handed to the job afterwards.
    pub filler: BufferFiller,
    /// The chunk: the job's largest write size.
    pub chunk: usize,
}

impl LayoutData {
    /// The layout data of job `plan`.
    pub fn of(plan: &JobPlan) -> LayoutData {
        let cfg = plan.workload_config();
        let chunk = usize::try_from(cfg.bs.write.max()).unwrap_or(usize::MAX).max(1);
        LayoutData { filler: BufferFiller::for_job(&cfg), chunk }
    }
}

/// Creates and extends the job's files as needed, writing `data`. With `readonly`
/// (`--readonly`) a file that would have to be created or extended is an error. The null
/// engine touches no file, as in fio. When `stop` is set meanwhile it returns early,
/// without error (see the module doc).
pub fn lay_out(
    job: &FilesPlan,
    readonly: bool,
    stop: &AtomicBool,
    data: &mut LayoutData,
) -> Result<(), FileError> {
    for (plan, (exists, size)) in laid_out_files(job) {
        let Some(Layout { anew, needed }) = layout_of(job, plan, (exists, size), readonly)? else {
            continue;
        };
        let mut file = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(anew)
            .open(&plan.path)
            .map_err(fail(FileAction::Create, plan))?;
        let size = if anew { 0 } else { size };
        if job.prealloc != Prealloc::None && needed > 0 {
            // Preallocation is advice: file systems without it still work.
            let _ = sysfile::preallocate(file.as_raw_fd(), needed, job.prealloc);
        }
        // `overwrite`: a job that writes gets its files written first too.
        if job.reads || job.overwrite {
            let chunk = data.chunk.min(usize::try_from(needed).unwrap_or(usize::MAX)).max(1);
            let fill = |buf: &mut [u8]| data.filler.initial_fill(buf);
            match write_chunks(&mut file, (size, needed), stop, chunk, fill) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {
                    if !exists {
                        let _ = std::fs::remove_file(&plan.path);
                    }
                    return Ok(());
                }
                r => r.map_err(fail(FileAction::LayOut, plan))?,
            }
        }
        if job.sized_by_layout {
            file.set_len(needed.max(size)).map_err(fail(FileAction::Extend, plan))?;
        }
        if job.create_fsync {
            file.sync_all().map_err(fail(FileAction::Sync, plan))?;
        }
    }
    Ok(())
}

/// Lays out the files of every job but the `create_on_open` ones (which lay out their own
/// when they start): the `create_serialize` jobs (fio's default) one after the other, in
/// order, and each of the others in a thread of its own beside them. The first failure
/// names its job. Each job's buffer filler comes back, in the order of `plans`, to fill its
/// units after its layout (`None` for the `create_on_open` jobs).
pub fn lay_out_all(
    plans: &[JobPlan],
    readonly: bool,
    stop: &AtomicBool,
) -> Result<Vec<Option<BufferFiller>>, (String, FileError)> {
    let one = |plan: &JobPlan| {
        let mut data = LayoutData::of(plan);
        lay_out(&plan.files, readonly, stop, &mut data)
            .map(|()| data.filler)
            .map_err(|e| (plan.job.name.clone(), e))
    };
    let (serial, parallel): (Vec<&JobPlan>, Vec<&JobPlan>) =
        plans.iter().filter(|p| !p.files.create_on_open).partition(|p| p.files.create_serialize);
    let mut fillers: Vec<Option<BufferFiller>> = plans.iter().map(|_| None).collect();
    let index = |p: &JobPlan| plans.iter().position(|q| std::ptr::eq(p, q)).unwrap_or(0);
    let result = std::thread::scope(|scope| {
        let threads: Vec<_> = parallel.iter().map(|&p| (p, scope.spawn(move || one(p)))).collect();
        let mut result = Ok(());
        for plan in serial {
            if stop.load(Ordering::Relaxed) {
                break;
            }
            match one(plan) {
                Ok(filler) => fillers[index(plan)] = Some(filler),
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        for (plan, t) in threads {
            let r = t.join().unwrap_or_else(|_| {
                let source = io::Error::other("the layout thread panicked");
                let path = plan.files.list.first().map(|f| f.path.display().to_string());
                let error = FileError {
                    action: FileAction::LayOut,
                    path: path.unwrap_or_default(),
                    source,
                };
                Err((plan.job.name.clone(), error))
            });
            match r {
                Ok(filler) => fillers[index(plan)] = Some(filler),
                Err(e) if result.is_ok() => result = Err(e),
                Err(_) => {}
            }
        }
        result
    });
    result.map(|()| fillers)
}

/// Creates (or truncates) the file at `path` and writes `len` bytes of data into it, so that
/// reads hit real blocks rather than holes. A `stop` meanwhile ends it with an error of kind
/// [`io::ErrorKind::Interrupted`].
pub fn write_out(path: &std::path::Path, len: u64, stop: &AtomicBool) -> io::Result<()> {
    let mut file = OpenOptions::new().write(true).create(true).truncate(true).open(path)?;
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    let pattern = |chunk: &mut [u8]| {
        for b in chunk.chunks_mut(8) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            b.copy_from_slice(&x.to_le_bytes()[..b.len()]);
        }
    };
    write_chunks(&mut file, (0, len), stop, 1 << 20, pattern)?;
    file.sync_all()
}

/// Writes bytes `from..to` of the file in chunks of `chunk` bytes (the last one shorter),
/// each filled by `fill` first; stops with an error of kind [`io::ErrorKind::Interrupted`]
/// when `stop` is set (looked at before every chunk).
fn write_chunks(
    file: &mut File,
    (from, to): (u64, u64),
    stop: &AtomicBool,
    chunk: usize,
    mut fill: impl FnMut(&mut [u8]),
) -> io::Result<()> {
    use std::io::{Seek, SeekFrom};
    let mut buf = vec![0u8; chunk];
    file.seek(SeekFrom::Start(from))?;
    let mut left = to.saturating_sub(from);
    while left > 0 {
        if stop.load(Ordering::Relaxed) {
            return Err(io::Error::new(io::ErrorKind::Interrupted, "stopped"));
        }
        let n = left.min(chunk as u64) as usize;
        fill(&mut buf[..n]);
        file.write_all(&buf[..n])?;
        left -= n as u64;
    }
    Ok(())
}

/// Opens the job's files with its flags (`direct`, `sync`, read-only for read jobs); the
/// null engine and the metadata engines open none.
pub fn open(job: &FilesPlan) -> Result<Vec<File>, FileError> {
    if !job.opened {
        return Ok(Vec::new());
    }
    let mut files = Vec::with_capacity(job.list.len());
    for plan in &job.list {
        let file = open_one(job, plan, false)?;
        if job.invalidate {
            invalidate(&file, plan);
        }
        // Advice only, as in fio: a file system that refuses it changes nothing.
        if let (Some(access), FileKind::Regular(_) | FileKind::Missing) = (job.fadvise, &plan.kind)
        {
            let _ = sysfile::advise(file.as_raw_fd(), access);
        }
        if job.pre_read {
            pre_read(plan).map_err(fail(FileAction::PreRead, plan))?;
        }
        files.push(file);
    }
    Ok(files)
}

/// `unlink_each_loop`, between two loops: closes the job's files, removes the regular ones
/// and opens them again, as fio 3.33 does. A job that writes creates them anew (empty: its
/// writes fill them); one that only reads cannot open them and fails with `ENOENT`, as in
/// fio. The error names the file as fio does (`open(PATH)`).
pub fn unlink_and_reopen(job: &FilesPlan, files: &mut Vec<File>) -> Result<(), FileError> {
    files.clear();
    unlink(job)?;
    for plan in &job.list {
        files.push(open_one(job, plan, job.writes)?);
    }
    Ok(())
}

/// Opens one file of the job with its flags; `create` makes a missing file.
fn open_one(job: &FilesPlan, plan: &FilePlan, create: bool) -> Result<File, FileError> {
    let mut flags = 0;
    if job.direct {
        flags |= libc::O_DIRECT;
    }
    match job.sync_mode {
        SyncMode::None => {}
        SyncMode::Sync => flags |= libc::O_SYNC,
        SyncMode::Dsync => flags |= libc::O_DSYNC,
    }
    OpenOptions::new()
        .read(true)
        .write(job.open_writable)
        .create(create)
        .custom_flags(flags)
        .open(&plan.path)
        .map_err(|e| {
            // iomark keeps every file of a job open (`openfiles` orders the service only).
            let action = if e.raw_os_error() == Some(libc::EMFILE) {
                FileAction::OpenTooMany
            } else {
                FileAction::Open
            };
            fail(action, plan)(e)
        })
}

/// `pre_read`: reads the job's region of the file, so that its pages are in the cache
/// when the job starts (fio reads the region in blocks the same way). The file is opened
/// again without `O_DIRECT`: reading through the cache is the point (fio 3.33 fails the
/// job when it pre-reads with `direct=1`).
fn pre_read(plan: &FilePlan) -> io::Result<()> {
    use std::io::{Read, Seek, SeekFrom};
    const CHUNK: u64 = 1 << 20;
    let mut file = File::open(&plan.path)?;
    file.seek(SeekFrom::Start(plan.offset))?;
    let mut buf = vec![0u8; CHUNK.min(plan.len).max(1) as usize];
    let mut left = plan.len;
    while left > 0 {
        let n = file.read(&mut buf[..left.min(CHUNK) as usize])?;
        if n == 0 {
            break;
        }
        left -= n as u64;
    }
    Ok(())
}

/// Drops the file's cached pages; a device's buffers are flushed instead. Failures are
/// ignored, as in fio: the cache is only advice.
fn invalidate(file: &File, plan: &FilePlan) {
    let fd = file.as_raw_fd();
    let _ = match plan.kind {
        FileKind::BlockDevice(_) => sysfile::flush_block_device(fd),
        FileKind::CharDevice => Ok(()),
        FileKind::Missing | FileKind::Regular(_) => sysfile::drop_cache(fd, 0, 0),
    };
}

/// Removes the job's regular files (`unlink=1`).
pub fn unlink(job: &FilesPlan) -> Result<(), FileError> {
    for plan in &job.list {
        if matches!(plan.kind, FileKind::Missing | FileKind::Regular(_)) {
            match std::fs::remove_file(&plan.path) {
                Err(e) if e.kind() != io::ErrorKind::NotFound => {
                    return Err(fail(FileAction::Remove, plan)(e))
                }
                _ => {}
            }
        }
    }
    Ok(())
}

/// Stretches the regions of a job's workload `cfg` once its files are open (`files`, one per
/// file of `job`; none on the null engine): each region reaches to the end of its file as
/// the file is then, so that a fixed-size sequential I/O may end past the region as in fio
/// 3.33 (see [`iomark_workload::FileRegion::reach`]). fio too takes the size when the job
/// opens its files: a job after a `stonewall` sees what the jobs before it wrote.
pub fn reach(cfg: &mut iomark_workload::WorkloadConfig, job: &FilesPlan, files: &[File]) {
    for ((region, file), planned) in cfg.files.iter_mut().zip(files).zip(&job.list) {
        let size = match planned.kind {
            FileKind::BlockDevice(n) => n,
            FileKind::CharDevice => continue,
            FileKind::Missing | FileKind::Regular(_) => match file.metadata() {
                Ok(m) => m.len(),
                Err(_) => continue,
            },
        };
        region.reach = size.saturating_sub(region.offset).max(region.len);
    }
}
