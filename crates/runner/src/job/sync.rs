//! The syncs a job issues: `fsync=N`, `fdatasync=N` and `sync_file_range` inside the
//! loop, `end_fsync` and `fsync_on_close` after it.

use crate::request::Request;
use iomark_core::Ddir;
use iomark_plan::sync::SyncPlan;
use std::fs::File;
use std::os::fd::AsRawFd;

/// The syncs `fsync=N`, `fdatasync=N` and `sync_file_range=flags:N` issue, in the order
/// fio 3.33 prefers them when more than one is due after the same write (`fsync=4
/// fdatasync=3` syncs the 12th write with an fsync only).
const KINDS: [Ddir; 3] = [Ddir::Sync, Ddir::Datasync, Ddir::SyncFileRange];

/// The state of the syncs in the loop (see [`SyncState::due`]).
pub(super) struct SyncState {
    /// Writes issued so far.
    pub(super) writes: u64,
    /// The file of the last write, which a sync goes to.
    pub(super) last_write_file: usize,
    /// Whether the last I/O issued was a sync.
    pub(super) last_was_sync: bool,
    /// N of `fsync=N`, `fdatasync=N` and `sync_file_range`, in [`KINDS`]' order; 0 for
    /// the ones not set.
    every: [u64; 3],
    /// The request drawn from the workload that a sync went before.
    pub(super) held: Option<Request>,
    /// With `sync_file_range`, per file: `(first, end)` of the range that the writes which
    /// completed since the file's last sync cover (`end` 0: none did). Empty without it.
    ranges: Vec<(u64, u64)>,
}

impl SyncState {
    /// Nothing issued yet, with the job's sync options.
    pub(super) fn of(plan: &SyncPlan, files: usize) -> SyncState {
        let every = [plan.fsync_every, plan.fdatasync_every, plan.range.every];
        // Before a file's first sync fio 3.33's range starts at offset 0, whatever the
        // writes (`offset=16k`, `sync_file_range=write:2`: the first is 0 to 24k); after
        // one, at the lowest offset written.
        let ranges = if every[2] > 0 { vec![(0, 0); files] } else { Vec::new() };
        SyncState { writes: 0, last_write_file: 0, last_was_sync: false, every, held: None, ranges }
    }

    /// Whether the job issues syncs in the loop at all.
    pub(super) fn any(&self) -> bool {
        self.every != [0; 3]
    }

    /// A write of `len` bytes at `offset` of `file` completed: its range is to sync.
    #[inline]
    pub(super) fn written(&mut self, file: usize, offset: u64, len: usize) {
        if let Some((first, end)) = self.ranges.get_mut(file) {
            *first = (*first).min(offset);
            *end = (*end).max(offset + len as u64);
        }
    }

    /// A sync of `file` is issued: the offset and length to sync (`0, 0` when no write
    /// completed since the file's last sync), and from now on the range starts afresh.
    /// Every sync starts it afresh, also an fsync and an fdatasync (measured under fio
    /// 3.33 with `fsync=3 sync_file_range=write:2`: the sync_file_range after the 4th
    /// write covers the 4th only).
    fn take_range(&mut self, file: usize) -> (u64, usize) {
        match self.ranges.get_mut(file).map(|r| std::mem::replace(r, (u64::MAX, 0))) {
            Some((first, end)) if end > 0 => (first, (end - first) as usize),
            _ => (0, 0),
        }
    }

    /// The request of `sync`, issued now to the file of the last write; a
    /// `sync_file_range` syncs the range the file's completed writes cover (fio 3.33, under
    /// strace: with `iodepth=4` the writes still in flight are left to the next one).
    pub(super) fn issue(&mut self, sync: Ddir) -> Request {
        let file = self.last_write_file;
        let (offset, len) = match self.take_range(file) {
            range if sync == Ddir::SyncFileRange => range,
            _ => (0, 0),
        };
        self.last_was_sync = true;
        Request { ddir: sync, file, offset, len }
    }

    /// The sync to issue before the next I/O, if `fsync=N`, `fdatasync=N` or
    /// `sync_file_range` asks for one.
    ///
    /// fio 3.33's rule, read off `--write_iolog`: whenever the count of writes issued is a
    /// non-zero multiple of N and the previous I/O was not a sync, the next I/O is a sync.
    /// So a sync follows every Nth write, but only when another I/O follows it (64 writes
    /// with `fsync=8` give 7 syncs), and in a mixed job a sync follows every read issued
    /// until the next write (`W S R S R S W`). With more than one option, each counts on
    /// its own and the first of [`KINDS`] that is due is issued.
    #[inline]
    pub(super) fn due(&self) -> Option<Ddir> {
        let s = self;
        if s.writes == 0 || s.last_was_sync {
            return None;
        }
        let due = s.every.iter().position(|&n| n > 0 && s.writes % n == 0)?;
        Some(KINDS[due])
    }
}

/// `end_fsync` and `fsync_on_close` (of a job that `writes`): an fsync of each of `files`
/// after the I/O loop. As in fio 3.33 they are not in the sync statistics (which count the
/// syncs of `fsync=N`, `fdatasync=N` and `sync_file_range`), and not in the job's runtime.
/// Every file is synced; the error is the first one that failed (an errno).
pub(super) fn at_close(plan: &SyncPlan, writes: bool, files: &[File]) -> Result<(), i32> {
    let mut first = Ok(());
    if plan.end_fsync || (plan.fsync_on_close && writes) {
        for f in files {
            let r = iomark_engine::sync::sync_file(f.as_raw_fd(), false);
            if r < 0 && first.is_ok() {
                first = Err((-r) as i32);
            }
        }
    }
    first
}
