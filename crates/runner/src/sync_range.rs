//! fio's `sync_file_range=flags:N`, resolved: which flags, how often. The loop's side is
//! in `job/sync.rs`.

use iomark_options::value::Value;
use iomark_options::JobSpec;

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
    pub(crate) fn of(spec: &JobSpec) -> SyncRange {
        let Some(Value::ChoiceSet { names, count }) = spec.value("sync_file_range") else {
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
