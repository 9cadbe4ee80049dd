//! `file_append`: a job's region in each regular file starts at the file's end.
//!
//! What fio 3.33 does (checked with `--write_iolog`): the region starts at the size the
//! file has when the job's files are laid out, whatever `offset` and `offset_increment`
//! say (a missing file starts at 0); the layout then extends the file over the region (and,
//! for a job that reads, writes it), unless it leaves the size to the writes (see
//! `files::sized_by_layout`). Jobs are laid out in order, so a second job appending
//! to the same file starts where the first one's region ends. Block devices and character
//! devices are not appended to ("ignored on non-regular files").
//!
//! An appending job makes one pass only: fio 3.33 reopens the file for a second loop, a
//! `time_based` turn or an `io_size` beyond the region, finds nothing beyond its new end,
//! and ends. The plan says so (one loop, not time based, the I/O capped at the region), so
//! `runtime` still ends such a job early.
//!
//! Planning a run places each appending job's regions as it goes ([`FileSizes`]): the
//! planner records what each job's layout leaves, and the next appending job starts there.

use super::{FileKind, FilePlan};
use std::collections::HashMap;
use std::path::PathBuf;

/// The size each file will have once the jobs planned so far are laid out (files no job
/// has laid out yet are not in it: they keep the size they have on disk).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FileSizes {
    sizes: HashMap<PathBuf, u64>,
}

impl FileSizes {
    /// Moves the regions of an appending job's regular files (`list`, each resolved from
    /// the size the file has on disk) past what the jobs before it lay out there.
    pub(crate) fn place(&self, list: &mut [FilePlan]) {
        for file in list {
            let on_disk = match file.kind {
                FileKind::Regular(n) => n,
                FileKind::Missing => 0,
                FileKind::BlockDevice(_) | FileKind::CharDevice => continue,
            };
            let before = self.sizes.get(&file.path).copied().unwrap_or(on_disk);
            if before != on_disk {
                file.offset = before;
                file.kind = FileKind::Regular(before);
            }
        }
    }

    /// Records what laying out a job's files (`list`) leaves: each as large as its region
    /// needs when the layout `grows` it. A layout that leaves the size to the writes
    /// (`fallocate=none` or `keep` in a job that only writes) leaves the file as it is: fio
    /// 3.33 then starts the next appending job at the same place.
    pub(crate) fn laid_out(&mut self, list: &[FilePlan], grows: bool) {
        for file in list {
            let on_disk = match file.kind {
                FileKind::Regular(n) => n,
                FileKind::Missing => 0,
                FileKind::BlockDevice(_) | FileKind::CharDevice => continue,
            };
            let before = self.sizes.get(&file.path).copied().unwrap_or(on_disk);
            let after = before.max(if grows { file.needed_size() } else { 0 });
            self.sizes.insert(file.path.clone(), after);
        }
    }
}
