//! How a job's writes reach the disk, resolved: `sync` (the files' open flags), the syncs
//! the job issues among its I/Os (`fsync=N`, `fdatasync=N`, `sync_file_range=flags:N`) and
//! at its end (`end_fsync`, `fsync_on_close`). The loop's side is the runner's
//! `job/sync.rs`.

use iomark_options::keys::{self, ChoiceSet};
use iomark_options::JobSpec;

/// How writes reach the disk (`sync`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SyncMode {
    /// Buffered writes (`sync=none`, `sync=0`).
    None,
    /// `O_SYNC` (`sync=sync`, `sync=1`).
    Sync,
    /// `O_DSYNC` (`sync=dsync`).
    Dsync,
}

impl SyncMode {
    /// The `sync` of `spec`.
    pub fn of(spec: &JobSpec) -> SyncMode {
        match spec.get(keys::SYNC).map(|c| c.name) {
            Some("sync" | "1") => SyncMode::Sync,
            Some("dsync") => SyncMode::Dsync,
            _ => SyncMode::None,
        }
    }
}

/// The syncs a job issues.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SyncPlan {
    /// `fsync` after this many writes, 0 for never.
    pub fsync_every: u64,
    /// `fdatasync` after this many writes, 0 for never.
    pub fdatasync_every: u64,
    /// `sync_file_range=flags:N`: sync_file_range(2) after every N writes (0 for never)
    /// with these `SYNC_FILE_RANGE_*` flags.
    pub range: SyncRange,
    /// `fsync` each file when the job's writes are done (`end_fsync`).
    pub end_fsync: bool,
    /// `fsync` each file when it is closed (`fsync_on_close`).
    pub fsync_on_close: bool,
}

impl SyncPlan {
    /// The sync options of `spec`.
    pub fn of(spec: &JobSpec) -> SyncPlan {
        SyncPlan {
            fsync_every: spec.get(keys::FSYNC).unwrap_or(0),
            fdatasync_every: spec.get(keys::FDATASYNC).unwrap_or(0),
            range: SyncRange::of(spec),
            end_fsync: spec.flag(keys::END_FSYNC),
            fsync_on_close: spec.flag(keys::FSYNC_ON_CLOSE),
        }
    }

    /// Whether the job issues syncs among its I/Os (which its report counts).
    pub fn any(&self) -> bool {
        self.fsync_every > 0 || self.fdatasync_every > 0 || self.range.every > 0
    }
}

/// fio's `sync_file_range=flags:N`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SyncRange {
    /// After this many writes; 0 for never (no option, or `:0` as in fio).
    pub every: u64,
    /// The `SYNC_FILE_RANGE_*` bits of the flags named.
    pub flags: u32,
}

impl SyncRange {
    /// The job's `sync_file_range`; without `:N` fio 3.33 syncs after every write.
    pub fn of(spec: &JobSpec) -> SyncRange {
        let Some(ChoiceSet { names, count }) = spec.given(keys::SYNC_FILE_RANGE) else {
            return SyncRange::default();
        };
        let flags = names
            .iter()
            .map(|name| match *name {
                "wait_before" => libc::SYNC_FILE_RANGE_WAIT_BEFORE,
                "write" => libc::SYNC_FILE_RANGE_WRITE,
                _ => libc::SYNC_FILE_RANGE_WAIT_AFTER,
            })
            .fold(0, |all, bit| all | bit);
        SyncRange { every: count.unwrap_or(1), flags }
    }
}
