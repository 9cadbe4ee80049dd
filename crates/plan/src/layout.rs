//! Which files a job uses, and the region of each: fio's `filename`, `directory`,
//! `filename_format`, `nrfiles`, `size`, `filesize`, `offset` and `offset_increment`.
//!
//! - `filename=a:b` names the files (inside `directory` when it is set and a name is
//!   relative); otherwise `nrfiles` names come from `filename_format` (default
//!   `$jobname.$jobnum.$filenum`), in `directory` (several directories, `:`-separated, are
//!   dealt to the clones in turn).
//! - Each file's size is `filesize`, else `size` divided among the files (`size=N%` is a
//!   share of each existing file or device), else the size of the existing file or device.
//!   A range `filesize=lo-hi` gives each file a size drawn in it as fio 3.33 draws it:
//!   `lo + ⌊(hi - lo) × f⌋` for the next fraction `f` of the job's stream 7, file after
//!   file, rounded down to a multiple of the job's smallest block size (but not below `lo`).
//! - The job's region in a file starts at `offset` (bytes, or a share of the file) plus
//!   `offset_increment` times the clone number. With `filesize` it ends at the file's size
//!   (`size` only caps the I/O, see [`crate::limits`]); on a block device it ends at the
//!   device's end at the latest.
//! - `fill_device` without `size` makes the region of a file (not of a device) "really
//!   large", as fio does: [`FILL_BYTES`] shared among the files; the job ends when the file
//!   system is full.
//! - When `offset` or `offset_increment` is a percentage, the clone's start (`offset +
//!   offset_increment × N`) is rounded up to a multiple of `offset_align`, by default the
//!   job's smallest block size (fio 3.33: `offset=10%` of 1000000 bytes with `bs=4k`
//!   starts at 102400); offsets given in bytes only are taken as they are.
//! - `opendir=DIR` adds every regular file under `DIR` (see `layout/opendir.rs`); `file_append`
//!   starts each regular file's region at its end (see [`append`]).
//! - An explicit `nrfiles` keeps only the first `nrfiles` of the files that `filename` and
//!   `opendir` name, as fio 3.33 does (`filename=a:b:c nrfiles=2` uses `a` and `b`).

pub mod append;
mod opendir;

pub use append::FileSizes;

/// The bytes a `fill_device` job without `size` may write, over all its files: far more
/// than any file system holds (1 EiB).
pub const FILL_BYTES: u64 = 1 << 60;

use crate::error::OptionError;
use iomark_options::keys::{self, Key};
use iomark_options::spec::expand_filename_format;
use iomark_options::value::SizeOrPercent;
use iomark_options::JobSpec;
use iomark_workload::{FioRng, FioSeeds, FioStream};
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};

/// The size of a cpuio job's nominal region when it has no `size`; the size of an nbd
/// job's export when the job needs it (no `size` nor `filesize`, or a
/// percentage): fio's engine takes it as its file's size. Asked of the server, which must
/// be up when the job is planned; `None` for other engines and for a job of a given size.
fn engine_region(spec: &JobSpec) -> Result<Option<u64>, OptionError> {
    let sized = spec.is_set(keys::SIZE) || spec.is_set(keys::FILESIZE);
    if crate::cpuio::by_time(spec) && !sized {
        return Ok(Some(crate::cpuio::REGION));
    }
    if spec.get(keys::IOENGINE).map(|c| c.name) != Some("nbd") {
        return Ok(None);
    }
    let percent = |key| matches!(spec.get(key), Some(SizeOrPercent::Percent(_)));
    if sized && !percent(keys::SIZE) && !percent(keys::OFFSET) && !percent(keys::OFFSET_INCREMENT) {
        return Ok(None);
    }
    let uri = spec.get(keys::URI).unwrap_or_default();
    let size = iomark_engine::nbd::export_size(&uri)
        .map_err(|e| OptionError::new(keys::URI, e.message))?;
    Ok(Some(size))
}

/// What is at a file's path before the job starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// Nothing: the job creates a regular file.
    Missing,
    /// A regular file of this many bytes.
    Regular(u64),
    /// A block device of this many bytes.
    BlockDevice(u64),
    /// A character device (`/dev/null`): no size of its own.
    CharDevice,
}

/// One file of a job and the region the job covers in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FilePlan {
    /// The path.
    pub path: PathBuf,
    /// What is there now.
    pub kind: FileKind,
    /// Where the job's region starts.
    pub offset: u64,
    /// The region's length (the file's share of `size`).
    pub len: u64,
}

impl FilePlan {
    /// The size the file must have for the region: `offset + len` for files, the device's
    /// size for devices.
    pub fn needed_size(&self) -> u64 {
        self.offset.saturating_add(self.len)
    }

    /// The size of the file once laid out: what is there, or what the region needs,
    /// whichever is larger (devices have their own size).
    pub fn real_size(&self) -> u64 {
        match self.kind {
            FileKind::Regular(n) => n.max(self.needed_size()),
            FileKind::BlockDevice(n) => n,
            FileKind::Missing | FileKind::CharDevice => self.needed_size(),
        }
    }
}

/// Resolves the files of clone `jobnum` of `spec`; `align` is the job's smallest block
/// size, to which `filesize` ranges are aligned; `seeds` are the job's fio streams.
pub fn plan_files(
    spec: &JobSpec,
    jobnum: u64,
    align: u64,
    seeds: &FioSeeds,
) -> Result<Vec<FilePlan>, OptionError> {
    let paths = paths(spec, jobnum)?;
    let mut kinds = Vec::with_capacity(paths.len());
    match engine_region(spec)? {
        // The nbd engine's file is the server's export, of the export's size.
        Some(size) => kinds.resize(paths.len(), FileKind::BlockDevice(size)),
        None => {
            for path in &paths {
                kinds.push(probe(path).map_err(OptionError::other)?);
            }
        }
    }
    let mut sizes = seeds.rng(FioStream::FileSize);
    let nfiles = paths.len() as u64;
    let size = spec.given(keys::SIZE);
    let filesize = spec.given(keys::FILESIZE).and_then(|r| r[0]);
    // fio 3.33 takes an explicit `offset_align=0` for the default (the HOWTO's word; fio
    // itself dies of a division by zero).
    let offset_align = spec.get(keys::OFFSET_ALIGN).filter(|&a| a > 0).unwrap_or(align).max(1);
    let file_append = spec.flag(keys::FILE_APPEND);
    let from_opendir = spec.is_set(keys::OPENDIR);
    let mut plans = Vec::with_capacity(paths.len());
    for (path, kind) in paths.into_iter().zip(kinds) {
        let own = match kind {
            FileKind::Regular(n) | FileKind::BlockDevice(n) => Some(n),
            FileKind::Missing | FileKind::CharDevice => None,
        };
        let append = file_append && matches!(kind, FileKind::Regular(_) | FileKind::Missing);
        // An appended file's region lies beyond its end, where the file has nothing yet: a
        // percentage of it is nothing (fio 3.33 fails such a job too).
        let own = if append { own.map(|_| 0) } else { own };
        let share = |p: f64| own.map(|n| (n as f64 * p / 100.0) as u64);
        let mut percent = false;
        let mut bytes = |key: Key<SizeOrPercent>| match spec.get(key) {
            Some(SizeOrPercent::Bytes(n)) => n,
            Some(SizeOrPercent::Percent(p)) => {
                percent = true;
                share(p).unwrap_or(0)
            }
            None => 0,
        };
        let (offset, increment) = (bytes(keys::OFFSET), bytes(keys::OFFSET_INCREMENT));
        let offset = offset.saturating_add(increment.saturating_mul(jobnum));
        let offset = match kind {
            // fio 3.33 ignores `offset` and `offset_increment` here: the region starts at
            // the end of the file (see `append`).
            FileKind::Regular(n) if append => n,
            _ if append => 0,
            // When either is a percentage, fio 3.33 rounds their sum up (`offset=1000
            // offset_increment=1%` starts clone 1 at 12288, not 11000).
            _ if percent => offset.div_ceil(offset_align).saturating_mul(offset_align),
            _ => offset,
        };
        let fill = spec.flag(keys::FILL_DEVICE) && !matches!(kind, FileKind::BlockDevice(_));
        let len = match (filesize, size) {
            (None, None) if fill => FILL_BYTES / nfiles.max(1) / align.max(1) * align.max(1),
            // `filesize` is the file's size: the region runs from `offset` to it (fio 3.33:
            // `offset=1k filesize=4k bs=1k` writes 3 blocks and leaves a 4 KiB file).
            (Some((lo, hi)), _) => {
                let file = pick_in_range(lo, hi, align, &mut sizes);
                if offset > file {
                    let why = format!("{offset} lies past the file's size of {file} (filesize)");
                    return Err(OptionError::new(keys::OFFSET, why));
                }
                file - offset
            }
            (None, Some(SizeOrPercent::Bytes(n))) => n / nfiles.max(1),
            (None, Some(SizeOrPercent::Percent(p))) => share(p).ok_or_else(|| {
                OptionError::new(
                    keys::SIZE,
                    format!("{p}% of '{}', which does not exist yet", path.display()),
                )
            })?,
            // opendir: a file too small for one block is left out below.
            (None, None) if from_opendir && own.is_some() => {
                own.unwrap_or(0).saturating_sub(offset)
            }
            (None, None) => match own {
                Some(n) if n > offset => n - offset,
                _ => {
                    return Err(OptionError::about(
                        keys::SIZE,
                        format!(
                            "option 'size' is needed: '{}' {}",
                            path.display(),
                            if own.is_some() { "is too small" } else { "does not exist yet" }
                        ),
                    ))
                }
            },
        };
        // A device cannot grow: its region ends at its end, as in fio 3.33 (`size=32m` on a
        // 16 MiB device reads or writes 16 MiB).
        let len = match kind {
            FileKind::BlockDevice(n) => len.min(n.saturating_sub(offset)),
            _ => len,
        };
        if from_opendir && size.is_none() && filesize.is_none() && len < align {
            // fio 3.33 opens and closes such a file without any I/O ("file … may be ignored").
            continue;
        }
        if len == 0 {
            let why = format!("the region in '{}' is empty", path.display());
            return Err(OptionError::new(keys::SIZE, why));
        }
        plans.push(FilePlan { path, kind, offset, len });
    }
    if plans.is_empty() {
        return Err(OptionError::about(
            keys::SIZE,
            format!(
                "option 'size' is needed: no file under opendir={} holds a block",
                spec.get(keys::OPENDIR).unwrap_or_default()
            ),
        ));
    }
    Ok(plans)
}

/// The paths of the job's files.
fn paths(spec: &JobSpec, jobnum: u64) -> Result<Vec<PathBuf>, OptionError> {
    let dirs = spec.given(keys::DIRECTORY).unwrap_or_default();
    let dir = (!dirs.is_empty()).then(|| PathBuf::from(&dirs[(jobnum as usize) % dirs.len()]));
    // A server prefixes the names under `directory` with its client's address.
    let prefix = match spec.flag(keys::UNIQUE_FILENAME) {
        true => spec.client_prefix.as_str(),
        false => "",
    };
    let place = |name: &str| match &dir {
        Some(d) if Path::new(name).is_relative() => d.join(format!("{prefix}{name}")),
        _ => PathBuf::from(name),
    };
    let names = spec.given(keys::FILENAME).unwrap_or_default();
    let nrfiles = spec.get(keys::NRFILES).unwrap_or(1).max(1);
    if !names.is_empty() || spec.is_set(keys::OPENDIR) {
        let mut paths = opendir::with_named(spec, names.iter().map(|n| place(n)).collect())?;
        if spec.is_set(keys::NRFILES) {
            paths.truncate(usize::try_from(nrfiles).unwrap_or(usize::MAX));
        }
        return Ok(paths);
    }
    let format =
        spec.get(keys::FILENAME_FORMAT).unwrap_or_else(|| "$jobname.$jobnum.$filenum".into());
    Ok((0..nrfiles)
        .map(|filenum| place(&expand_filename_format(&format, &spec.name, jobnum, filenum)))
        .collect())
}

/// What is at `path` now.
pub fn probe(path: &Path) -> Result<FileKind, String> {
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(FileKind::Missing),
        Err(e) => return Err(format!("cannot look at '{}': {e}", path.display())),
    };
    let ft = meta.file_type();
    if ft.is_file() {
        return Ok(FileKind::Regular(meta.len()));
    }
    // A socket (the net engine's `protocol=unix` path) has no size of its own either.
    if ft.is_char_device() || ft.is_socket() {
        return Ok(FileKind::CharDevice);
    }
    if ft.is_block_device() {
        let file = std::fs::File::open(path)
            .map_err(|e| format!("cannot open '{}': {e}", path.display()))?;
        let size = iomark_engine::file::block_device_size(std::os::fd::AsRawFd::as_raw_fd(&file))
            .map_err(|e| format!("cannot read the size of '{}': {e}", path.display()))?;
        return Ok(FileKind::BlockDevice(size));
    }
    Err(format!("'{}' is not a file or a device", path.display()))
}

/// A size in `lo..=hi` from the next draw of `rng`, as fio 3.33 draws it:
/// `lo + ⌊(hi - lo) × f⌋` rounded down to a multiple of `align`, but not below `lo`.
fn pick_in_range(lo: u64, hi: u64, align: u64, rng: &mut FioRng) -> u64 {
    if hi <= lo {
        return lo;
    }
    let size = lo + ((hi - lo) as f64 * rng.fraction()) as u64;
    let align = align.max(1);
    (size / align * align).max(lo)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filesize_ranges_are_fio_3_33s() {
        // fio 3.33 `--filesize=256k-1m --nrfiles=8 --bs=4k` (default seed), in 4 KiB blocks.
        let seeds = FioSeeds::repeatable(iomark_workload::DEFAULT_SEED, 1);
        let mut rng = seeds.rng(FioStream::FileSize);
        let blocks: Vec<u64> =
            (0..8).map(|_| pick_in_range(256 << 10, 1 << 20, 4096, &mut rng) / 4096).collect();
        assert_eq!(blocks, [91, 123, 121, 235, 211, 162, 175, 71]);
        let mut rng = FioRng::new(1, false);
        for _ in 0..2000 {
            let n = pick_in_range(5000, 90_000, 4096, &mut rng);
            assert!((5000..=90_000).contains(&n) && (n % 4096 == 0 || n == 5000), "{n}");
        }
        assert_eq!(pick_in_range(8192, 8192, 4096, &mut rng), 8192);
    }
}
