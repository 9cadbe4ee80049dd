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

use super::FileKind;
use crate::plan::JobPlan;
use std::collections::HashMap;
use std::path::PathBuf;

/// Moves the regions of the appending jobs of `plans` (in run order) past what the jobs
/// before them lay out in the same files. Each plan's regions were resolved alone, from
/// the sizes the files had then.
pub fn chain(plans: &mut [JobPlan]) {
    if !plans.iter().any(|p| p.file_append) {
        return;
    }
    // The size each file will have once the jobs so far are laid out.
    let mut sizes: HashMap<PathBuf, u64> = HashMap::new();
    for plan in plans.iter_mut() {
        // The null engine lays out nothing.
        if plan.engine == "null" {
            continue;
        }
        let grows = !plan.fill_device && crate::files::sized_by_layout(plan);
        for file in &mut plan.files {
            let on_disk = match file.kind {
                FileKind::Regular(n) => n,
                FileKind::Missing => 0,
                FileKind::BlockDevice(_) | FileKind::CharDevice => continue,
            };
            let before = sizes.get(&file.path).copied().unwrap_or(on_disk);
            if plan.file_append && before != on_disk {
                file.offset = before;
                file.kind = FileKind::Regular(before);
            }
            // A layout that leaves the size to the writes (`fallocate=none` or `keep` in a
            // job that only writes) leaves the file as it is: fio 3.33 then starts the next
            // appending job at the same place.
            let after = before.max(if grows { file.needed_size() } else { 0 });
            sizes.insert(file.path.clone(), after);
        }
    }
}
