//! `ioscheduler`: switching the I/O scheduler of the disks under a job's files.
//!
//! As fio 3.33 does it: when the job starts, before `exec_prerun` and any I/O, the name is
//! written to `/sys/block/DISK/queue/scheduler` of the disk holding each file (the disk
//! itself for a block device or a partition of it, the disk of the file system for a
//! regular file), and it must then be the one selected there (`[mq-deadline]`); otherwise
//! the job fails with `EINVAL` before any I/O. The scheduler is not switched back after the
//! job, as fio leaves it. A file not on a block device (tmpfs, the null engine's jobs) is
//! left alone: fio says nothing of it, iomark notes it. Writing the
//! scheduler needs root.

use iomark_plan::files::FilesPlan;
use iomark_plan::layout::FileKind;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// Why the I/O scheduler of a disk could not be switched (`ioscheduler`).
#[derive(Debug, thiserror::Error)]
#[error("option 'ioscheduler': cannot set the I/O scheduler of {disk} to '{name}': {why}")]
pub struct IoSchedulerError {
    /// The disk (`sda`), or its scheduler file when it has no name.
    pub disk: String,
    /// The scheduler asked for.
    pub name: String,
    /// What went wrong.
    pub why: SwitchFailure,
}

/// What went wrong switching a scheduler.
#[derive(Debug, thiserror::Error)]
pub enum SwitchFailure {
    /// Writing or reading back the disk's `queue/scheduler` file failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// The disk does not offer the scheduler: the file lists the ones it does.
    #[error("the disk offers {0}")]
    NotOffered(String),
}

/// Switches the scheduler of every disk under the files of a job to `ioscheduler`, if it
/// has one, adding to `notes` the files that are on no disk; the error names the disk and
/// the scheduler.
pub fn apply(
    ioscheduler: Option<&str>,
    files: &FilesPlan,
    notes: &mut Vec<String>,
) -> Result<(), IoSchedulerError> {
    let Some(name) = ioscheduler else { return Ok(()) };
    if !files.touched {
        return Ok(());
    }
    let mut done: Vec<PathBuf> = Vec::new();
    for file in &files.list {
        let Some(queue) = scheduler_file(&file.path, file.kind) else {
            notes.push(format!(
                "ioscheduler: '{}' is not on a block device; nothing to switch",
                file.path.display()
            ));
            continue;
        };
        if done.contains(&queue) {
            continue;
        }
        switch(&queue, name)?;
        done.push(queue);
    }
    Ok(())
}

/// Writes `name` to the scheduler file `queue` and checks that it is then selected.
fn switch(queue: &Path, name: &str) -> Result<(), IoSchedulerError> {
    let fail = |why: SwitchFailure| IoSchedulerError {
        // /sys/…/DISK/queue/scheduler → DISK
        disk: queue
            .parent()
            .and_then(Path::parent)
            .and_then(Path::file_name)
            .map_or_else(|| queue.display().to_string(), |d| d.to_string_lossy().into_owned()),
        name: name.to_string(),
        why,
    };
    std::fs::write(queue, name).map_err(|e| fail(e.into()))?;
    let now = std::fs::read_to_string(queue).map_err(|e| fail(e.into()))?;
    if selected(&now) != Some(name) {
        return Err(fail(SwitchFailure::NotOffered(now.trim().to_string())));
    }
    Ok(())
}

/// The scheduler in brackets in a `scheduler` file's text (`none [mq-deadline] kyber`).
fn selected(text: &str) -> Option<&str> {
    text.split_whitespace().find_map(|w| w.strip_prefix('[')?.strip_suffix(']'))
}

/// The `queue/scheduler` file of the disk holding `path`, if it is on a block device.
fn scheduler_file(path: &Path, kind: FileKind) -> Option<PathBuf> {
    let meta = match kind {
        // A file the job creates lives in its directory's file system.
        FileKind::Missing => {
            std::fs::metadata(path.parent().filter(|p| !p.as_os_str().is_empty())?)
                .or_else(|_| std::fs::metadata("."))
                .ok()?
        }
        _ => std::fs::metadata(path).ok()?,
    };
    let dev = if matches!(kind, FileKind::BlockDevice(_)) { meta.rdev() } else { meta.dev() };
    let (major, minor) = (libc::major(dev), libc::minor(dev));
    let mut dir = std::fs::canonicalize(format!("/sys/dev/block/{major}:{minor}")).ok()?;
    if dir.join("partition").exists() {
        dir = dir.parent()?.to_path_buf();
    }
    let file = dir.join("queue/scheduler");
    file.exists().then_some(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_selected_scheduler_is_the_one_in_brackets() {
        assert_eq!(selected("none [mq-deadline] kyber bfq\n"), Some("mq-deadline"));
        assert_eq!(selected("[none] mq-deadline"), Some("none"));
        assert_eq!(selected("none"), None);
    }

    #[test]
    fn a_file_on_tmpfs_has_no_scheduler() {
        let shm = Path::new("/dev/shm");
        if !shm.is_dir() {
            eprintln!("skipped: no /dev/shm");
            return;
        }
        assert_eq!(scheduler_file(&shm.join("iomark-no-such-file"), FileKind::Missing), None);
    }
}
