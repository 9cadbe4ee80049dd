//! The control groups of a run's job processes (`cgroup`, `cgroup_weight`,
//! `cgroup_nodelete`), made and removed by the parent iomark around each child.
//!
//! Where, as fio 3.33 puts them (read off its system calls): the hierarchy is the first line
//! of `/proc/mounts` that mounts either cgroup v1 with the `blkio` controller or cgroup v2;
//! the group is the directory `cgroup` names under its mount point, made if missing (its
//! parents must exist), the weight goes to `blkio.weight` (v1) or `io.weight` (v2), and the
//! job's process is written to the group's `cgroup.procs`. After the job the group is
//! removed, unless `cgroup_nodelete`. On a system that mounts both (systemd's hybrid
//! layout) that is the v1 blkio hierarchy, as for fio. A v1 hierarchy without
//! `blkio.weight` (kernels without CFQ) fails fio 3.33's job with `Permission denied`;
//! iomark writes the weight to BFQ's `blkio.bfq.weight` instead when the group has it, and
//! notes so in the job's report; a group with neither fails the job as fio's.
//!
//! On cgroup v2 a weight needs the `io` controller enabled for the group: when the mount's
//! root does not pass it down (`cgroup.subtree_control`) but has it (`cgroup.controllers`),
//! the run enables it and disables it again at its end, unless a group it made stays
//! (`cgroup_nodelete`). Beyond fio: a group that existed before the run is used and left in
//! place, and jobs sharing a group share it until the last one ends.

use std::collections::HashMap;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Why a job process could not be placed in its group; the job fails with its errno, as
/// fio's does.
#[derive(Debug, thiserror::Error)]
#[error("{action}({path}): {}", crate::outcome::errno_text(self.errno()))]
pub struct CgroupError {
    /// What failed, in fio's words (`cgroup mkdir`, `cgroup open weight`…).
    pub action: &'static str,
    /// The file or directory it failed on.
    pub path: String,
    /// The system's error.
    pub source: io::Error,
}

impl CgroupError {
    /// The errno the job fails with.
    pub fn errno(&self) -> i32 {
        self.source.raw_os_error().unwrap_or(libc::EIO)
    }
}

/// Which cgroup version a hierarchy is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Version {
    V1,
    V2,
}

/// The error of `action` on `path`, for `map_err`.
fn fail(action: &'static str, path: &Path) -> impl FnOnce(io::Error) -> CgroupError {
    let path = path.display().to_string();
    move |source| CgroupError { action, path, source }
}

/// The hierarchy fio 3.33 uses: the first cgroup v1 mount with `blkio`, or cgroup v2, in
/// the order of `mounts` (the text of `/proc/mounts`).
fn hierarchy(mounts: &str) -> Option<(PathBuf, Version)> {
    mounts.lines().find_map(|line| {
        let mut fields = line.split_whitespace();
        let (_, dir, kind, options) =
            (fields.next()?, fields.next()?, fields.next()?, fields.next()?);
        match kind {
            "cgroup" if options.split(',').any(|o| o == "blkio") => {
                Some((PathBuf::from(dir), Version::V1))
            }
            "cgroup2" => Some((PathBuf::from(dir), Version::V2)),
            _ => None,
        }
    })
}

/// A group in use by the run's jobs.
#[derive(Debug)]
struct InUse {
    /// How many running jobs are in it.
    users: usize,
    /// The run made it (so may remove it).
    made: bool,
    /// A job asked to keep it.
    keep: bool,
}

/// The groups of a run's job processes, and the controllers it enabled for them.
#[derive(Debug, Default)]
pub(crate) struct Cgroups {
    state: Mutex<(HashMap<PathBuf, InUse>, Vec<PathBuf>, bool)>,
}

impl Cgroups {
    /// Places process `pid` in the group `plan` names, made (with its weight) if it is the
    /// first user; returns the group's directory, for [`Cgroups::leave`], and a note for
    /// the job's report when the weight went to BFQ's file.
    pub(crate) fn enter(
        &self,
        plan: &iomark_plan::process::CgroupPlan,
        pid: u32,
    ) -> Result<(PathBuf, Option<String>), CgroupError> {
        let mounts = fs::read_to_string("/proc/mounts")
            .map_err(fail("cgroup mounts", "/proc/mounts".as_ref()))?;
        let Some(hierarchy) = hierarchy(&mounts) else {
            let source = io::Error::from_raw_os_error(libc::ENOENT);
            return Err(CgroupError {
                action: "cgroup mount",
                path: "blkio or cgroup2".into(),
                source,
            });
        };
        self.enter_at(hierarchy, plan, pid)
    }

    /// [`Cgroups::enter`] in the hierarchy mounted at `root`, of `version`.
    fn enter_at(
        &self,
        (root, version): (PathBuf, Version),
        plan: &iomark_plan::process::CgroupPlan,
        pid: u32,
    ) -> Result<(PathBuf, Option<String>), CgroupError> {
        let dir = root.join(&plan.name);
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let (groups, enabled, kept) = &mut *state;
        if !groups.contains_key(&dir) {
            let made = match fs::create_dir(&dir) {
                Ok(()) => true,
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => false,
                Err(e) => return Err(fail("cgroup mkdir", &dir)(e)),
            };
            groups.insert(dir.clone(), InUse { users: 0, made, keep: false });
        }
        let group = groups.get_mut(&dir).expect("inserted above");
        group.users += 1;
        group.keep |= plan.nodelete;
        let made = group.made;
        let mut note = None;
        let placed = (|| {
            if let Some(weight) = plan.weight {
                let (file, text) = match version {
                    Version::V1 => {
                        let (cfq, bfq) = (dir.join("blkio.weight"), dir.join("blkio.bfq.weight"));
                        if !cfq.exists() && bfq.exists() {
                            note = Some(format!(
                                "cgroup_weight: {} has no blkio.weight (no CFQ); {weight} went \
                                 to blkio.bfq.weight, which weighs I/O on devices whose \
                                 scheduler is bfq",
                                dir.display()
                            ));
                            (bfq, format!("{weight}\n"))
                        } else {
                            (cfq, format!("{weight}\n"))
                        }
                    }
                    Version::V2 => {
                        let parent = dir.parent().unwrap_or(&root);
                        enable_io(parent, enabled).map_err(fail("cgroup io controller", parent))?;
                        (dir.join("io.weight"), format!("default {weight}\n"))
                    }
                };
                write_existing(&file, &text).map_err(fail("cgroup open weight", &file))?;
            }
            let procs = dir.join("cgroup.procs");
            write_existing(&procs, &format!("{pid}\n")).map_err(fail("cgroup add process", &procs))
        })();
        match placed {
            Ok(()) => {
                *kept |= plan.nodelete && made;
                Ok((dir, note))
            }
            Err(e) => {
                release(groups, &dir);
                Err(e)
            }
        }
    }

    /// A job in group `dir` has ended (its process is gone): the group is removed when it
    /// was the last user, the run made it and no job asked to keep it.
    pub(crate) fn leave(&self, dir: &Path) {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        release(&mut state.0, dir);
    }
}

/// One user of group `dir` is gone: the group goes with its last user if the run made it
/// and no job asked to keep it.
fn release(groups: &mut HashMap<PathBuf, InUse>, dir: &Path) {
    let Some(group) = groups.get_mut(dir) else { return };
    group.users = group.users.saturating_sub(1);
    if group.users == 0 {
        if group.made && !group.keep {
            // A group that cannot go (another process joined it) stays, as in fio.
            let _ = fs::remove_dir(dir);
        }
        groups.remove(dir);
    }
}

impl Drop for Cgroups {
    /// Disables the `io` controller where the run enabled it, unless a group it made
    /// stays.
    fn drop(&mut self) {
        let (_, enabled, kept) = &*self.state.lock().unwrap_or_else(|e| e.into_inner());
        if !kept {
            for file in enabled {
                let _ = fs::write(file, "-io");
            }
        }
    }
}

/// Enables the `io` controller for the children of cgroup v2 group `parent` if it is not
/// yet, noting the file in `enabled`.
fn enable_io(parent: &Path, enabled: &mut Vec<PathBuf>) -> io::Result<()> {
    let control = parent.join("cgroup.subtree_control");
    let on = fs::read_to_string(&control)?;
    if on.split_whitespace().any(|c| c == "io") {
        return Ok(());
    }
    let available = fs::read_to_string(parent.join("cgroup.controllers"))?;
    if !available.split_whitespace().any(|c| c == "io") {
        return Err(io::Error::from_raw_os_error(libc::ENODEV));
    }
    fs::write(&control, "+io")?;
    enabled.push(control);
    Ok(())
}

/// Writes `text` to `file`, which must exist (a control file: creating one in a cgroup
/// file system is refused, as fio's open is).
fn write_existing(file: &Path, text: &str) -> io::Result<()> {
    use std::io::Write;
    let mut f = fs::OpenOptions::new().write(true).open(file).map_err(|e| match e.kind() {
        // fio opens for writing with O_CREAT, which a cgroup directory refuses so.
        io::ErrorKind::NotFound => io::Error::from_raw_os_error(libc::EACCES),
        _ => e,
    })?;
    f.write_all(text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use iomark_plan::process::CgroupPlan;

    /// A made-up cgroup v2 root in a temporary directory that has the io controller
    /// without passing it down, and a group `g` already there (a plain directory does not
    /// grow a cgroup's files by itself).
    fn fake_v2() -> tempfile::TempDir {
        let root = tempfile::tempdir().unwrap();
        fs::write(root.path().join("cgroup.controllers"), "cpu io memory\n").unwrap();
        fs::write(root.path().join("cgroup.subtree_control"), "cpu\n").unwrap();
        fs::create_dir(root.path().join("g")).unwrap();
        fs::write(root.path().join("g/io.weight"), "default 100\n").unwrap();
        fs::write(root.path().join("g/cgroup.procs"), "").unwrap();
        root
    }

    #[test]
    fn a_v2_weight_enables_io_for_the_run_and_a_group_found_stays() {
        let root = fake_v2();
        let r = root.path().to_path_buf();
        let plan = CgroupPlan { name: "g".into(), weight: Some(1000), nodelete: false };
        let cgroups = Cgroups::default();
        let (dir, note) = cgroups.enter_at((r.clone(), Version::V2), &plan, 4321).unwrap();
        assert_eq!((&dir, note), (&r.join("g"), None));
        assert_eq!(fs::read_to_string(r.join("g/io.weight")).unwrap(), "default 1000\n");
        assert_eq!(fs::read_to_string(r.join("g/cgroup.procs")).unwrap(), "4321\n");
        assert_eq!(fs::read_to_string(r.join("cgroup.subtree_control")).unwrap(), "+io");
        cgroups.leave(&dir);
        assert!(r.join("g").is_dir(), "a group the run did not make is removed");
        drop(cgroups);
        assert_eq!(fs::read_to_string(r.join("cgroup.subtree_control")).unwrap(), "-io");
    }

    #[test]
    fn a_missing_weight_file_fails_as_fios_and_a_made_group_goes() {
        let root = fake_v2();
        let r = root.path().to_path_buf();
        let plan = CgroupPlan { name: "new".into(), weight: Some(500), nodelete: false };
        let e = Cgroups::default().enter_at((r.clone(), Version::V1), &plan, 1).unwrap_err();
        assert_eq!(e.errno(), libc::EACCES);
        let expected = format!(
            "cgroup open weight({}): Permission denied",
            r.join("new/blkio.weight").display()
        );
        assert_eq!(e.to_string(), expected);
        assert!(!r.join("new").exists(), "the group made for the failed job stays");
    }

    #[test]
    fn a_v1_group_without_cfq_takes_the_weight_in_bfqs_file_with_a_note() {
        let root = tempfile::tempdir().unwrap();
        let r = root.path().to_path_buf();
        fs::create_dir(r.join("g")).unwrap();
        fs::write(r.join("g/blkio.bfq.weight"), "100\n").unwrap();
        fs::write(r.join("g/cgroup.procs"), "").unwrap();
        let plan = CgroupPlan { name: "g".into(), weight: Some(700), nodelete: false };
        let cgroups = Cgroups::default();
        let (dir, note) = cgroups.enter_at((r.clone(), Version::V1), &plan, 77).unwrap();
        assert_eq!(fs::read_to_string(r.join("g/blkio.bfq.weight")).unwrap(), "700\n");
        assert_eq!(fs::read_to_string(r.join("g/cgroup.procs")).unwrap(), "77\n");
        let note = note.expect("a note names the file the weight went to");
        assert!(note.contains("blkio.bfq.weight"), "{note}");
        cgroups.leave(&dir);
    }

    #[test]
    fn without_the_io_controller_a_v2_weight_fails() {
        let root = fake_v2();
        let r = root.path().to_path_buf();
        fs::write(r.join("cgroup.controllers"), "cpu\n").unwrap();
        let plan = CgroupPlan { name: "g".into(), weight: Some(500), nodelete: true };
        let e = Cgroups::default().enter_at((r, Version::V2), &plan, 1).unwrap_err();
        assert_eq!(e.errno(), libc::ENODEV);
    }

    #[test]
    fn the_hierarchy_is_the_first_blkio_or_v2_mount() {
        let hybrid = "tmpfs /sys/fs/cgroup tmpfs rw 0 0\n\
                      cgroup /sys/fs/cgroup/cpu cgroup rw,relatime,cpu 0 0\n\
                      cgroup /sys/fs/cgroup/blkio cgroup rw,relatime,blkio 0 0\n\
                      cgroup2 /sys/fs/cgroup/unified cgroup2 rw,relatime 0 0\n";
        assert_eq!(hierarchy(hybrid), Some(("/sys/fs/cgroup/blkio".into(), Version::V1)));
        let unified = "proc /proc proc rw 0 0\ncgroup2 /sys/fs/cgroup cgroup2 rw 0 0\n";
        assert_eq!(hierarchy(unified), Some(("/sys/fs/cgroup".into(), Version::V2)));
        assert_eq!(hierarchy("proc /proc proc rw 0 0\n"), None);
    }
}
