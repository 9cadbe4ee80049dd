//! The syncs a job issues: `fsync=N`/`fdatasync=N` inside the loop, `end_fsync` and
//! `fsync_on_close` after it.

use super::Loop;
use crate::plan::JobPlan;
use iomark_engine::Ddir;
use std::fs::File;
use std::os::fd::AsRawFd;

/// The state of `fsync=N`/`fdatasync=N` in the loop (see [`Loop::sync_due`]).
pub(super) struct SyncState {
    /// Writes issued so far.
    pub(super) writes: u64,
    /// The file of the last write, which a sync goes to.
    pub(super) last_write_file: usize,
    /// Whether the last I/O issued was a sync.
    pub(super) last_was_sync: bool,
    /// N of `fsync=N` or `fdatasync=N`, 0 for neither.
    pub(super) every: u64,
    /// The sync they issue.
    ddir: Ddir,
    /// The request drawn from the workload that a sync went before.
    pub(super) held: Option<(Ddir, usize, u64, usize)>,
}

impl SyncState {
    /// Nothing issued yet, with the job's `fsync=N`/`fdatasync=N`.
    pub(super) fn of(plan: &JobPlan) -> SyncState {
        let (every, ddir) = match (plan.fsync_every, plan.fdatasync_every) {
            (n, _) if n > 0 => (n, Ddir::Sync),
            (_, n) => (n, Ddir::Datasync),
        };
        SyncState { writes: 0, last_write_file: 0, last_was_sync: false, every, ddir, held: None }
    }
}

impl Loop<'_, '_> {
    /// The sync to issue before the next I/O, if `fsync=N` or `fdatasync=N` asks for one.
    ///
    /// fio 3.33's rule, read off `--write_iolog`: whenever the count of writes issued is a
    /// non-zero multiple of N and the previous I/O was not a sync, the next I/O is a sync.
    /// So a sync follows every Nth write, but only when another I/O follows it (64 writes
    /// with `fsync=8` give 7 syncs), and in a mixed job a sync follows every read issued
    /// until the next write (`W S R S R S W`).
    #[inline]
    pub(super) fn sync_due(&self) -> Option<Ddir> {
        let s = &self.sync_state;
        if s.every == 0 {
            return None;
        }
        (s.writes > 0 && s.writes % s.every == 0 && !s.last_was_sync).then_some(s.ddir)
    }

    /// `end_fsync` and `fsync_on_close`: an fsync of each file after the I/O loop. As in
    /// fio 3.33 they are not in the sync statistics (which count the syncs of `fsync=N`
    /// and `fdatasync=N`), and not in the job's runtime.
    pub(super) fn finish(&mut self, files: &[File]) {
        if self.plan.end_fsync || (self.plan.fsync_on_close && self.plan.writes()) {
            for f in files {
                let r = iomark_engine::sync::sync_file(f.as_raw_fd(), false);
                if r < 0 {
                    self.set_error((-r) as i32, "fsync");
                }
            }
        }
    }
}
