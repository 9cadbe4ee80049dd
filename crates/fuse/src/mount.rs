//! The mount and what surrounds it: mounting with `mount(2)` (as root, no `fusermount3`),
//! the guard that unmounts on every way out, finding a stale mount left by an exporter
//! that was killed, the kernel's `enable_uring` switch (flipped only on request and put
//! back), and the number of possible CPUs (the uring transport's queues).

use crate::sys;
use std::io;
use std::path::{Path, PathBuf};

/// The file system type iomark mounts: FUSE with the subtype `iomark`.
pub const FSTYPE: &str = "fuse.iomark";

/// The kernel's switch for FUSE-over-io_uring.
pub const URING_SWITCH: &str = "/sys/module/fuse/parameters/enable_uring";

/// A mounted export; unmounted (lazily, `MNT_DETACH`) when dropped.
#[derive(Debug)]
pub struct Mounted {
    at: PathBuf,
    done: bool,
}

impl Mounted {
    /// Mounts the FUSE connection of `fd` at `at`, with `source` shown as its device.
    pub fn new(fd: i32, source: &Path, at: &Path, readonly: bool) -> io::Result<Mounted> {
        // The root's mode is S_IFDIR, in octal as the kernel reads it.
        let (uid, gid) = ids();
        let data = format!(
            "fd={fd},rootmode={:o},user_id={uid},group_id={gid},allow_other,default_permissions",
            libc::S_IFDIR
        );
        let mut flags = libc::MS_NOSUID | libc::MS_NODEV;
        if readonly {
            flags |= libc::MS_RDONLY;
        }
        sys::mount(source, at, FSTYPE, flags, &data)?;
        Ok(Mounted { at: at.to_path_buf(), done: false })
    }

    /// Where it is mounted.
    pub fn path(&self) -> &Path {
        &self.at
    }

    /// Unmounts now (lazily: files still open keep being served until closed).
    pub fn unmount(&mut self) {
        if !self.done {
            self.done = true;
            let _ = sys::umount2(&self.at, libc::MNT_DETACH);
        }
    }
}

impl Drop for Mounted {
    fn drop(&mut self) {
        self.unmount();
    }
}

/// The caller's user and group ids.
fn ids() -> (u32, u32) {
    use std::os::unix::fs::MetadataExt;
    // The owner of /proc/self is the process's effective user and group.
    std::fs::metadata("/proc/self").map_or((0, 0), |m| (m.uid(), m.gid()))
}

/// What is wrong with mounting at `at`, if anything: a stale FUSE mount (a server that
/// ended without unmounting, such as an exporter killed with SIGKILL), a live iomark
/// export, or no directory.
pub fn check_mountpoint(at: &Path) -> Result<(), String> {
    let shown = at.display();
    let stale = || {
        format!(
            "{shown} is a stale FUSE mount (its server ended without unmounting it: \
             'Transport endpoint is not connected'); clean it up with: umount -l {shown}"
        )
    };
    let dead =
        |e: &io::Error| matches!(e.raw_os_error(), Some(libc::ENOTCONN | libc::ECONNABORTED));
    match std::fs::metadata(at) {
        Err(e) if dead(&e) => return Err(stale()),
        Err(e) => return Err(format!("mount point {shown}: {e}")),
        Ok(m) if !m.is_dir() => return Err(format!("mount point {shown} is not a directory")),
        Ok(_) => {}
    }
    let canonical = std::fs::canonicalize(at).unwrap_or_else(|_| at.to_path_buf());
    let mountinfo = std::fs::read_to_string("/proc/self/mountinfo").unwrap_or_default();
    if let Some(source) = mounted_here(&mountinfo, &canonical) {
        if sys::statfs_ok(at).is_err_and(|e| dead(&e)) {
            return Err(stale());
        }
        return Err(format!(
            "{shown} is already the mount point of a running iomark fuse-export (of {source}); \
             stop it (umount {shown}) before starting another"
        ));
    }
    Ok(())
}

/// The source of an iomark export mounted at `at`, from the text of `/proc/self/mountinfo`.
fn mounted_here(mountinfo: &str, at: &Path) -> Option<String> {
    let at = at.to_string_lossy();
    mountinfo.lines().find_map(|line| {
        let fields: Vec<&str> = line.split(' ').collect();
        let dash = fields.iter().position(|f| *f == "-")?;
        let point = unescape(fields.get(4)?);
        let fstype = fields.get(dash + 1)?;
        (point == at && *fstype == FSTYPE).then(|| unescape(fields.get(dash + 2).unwrap_or(&"?")))
    })
}

/// Undoes mountinfo's octal escapes (`\040` for a space).
fn unescape(field: &str) -> String {
    let bytes = field.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\\'
            && i + 3 < bytes.len()
            && bytes[i + 1..i + 4].iter().all(u8::is_ascii_digit)
        {
            let digits = std::str::from_utf8(&bytes[i + 1..i + 4]).ok();
            let code = digits.and_then(|s| u8::from_str_radix(s, 8).ok());
            if let Some(c) = code {
                out.push(c);
                i += 4;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The kernel's `enable_uring` switch: whether the kernel has it, and whether it is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UringSwitch {
    /// This kernel has no FUSE-over-io_uring.
    Absent,
    /// Built in, switched off.
    Off,
    /// Built in and on.
    On,
}

impl UringSwitch {
    /// The switch as it is now.
    pub fn read() -> UringSwitch {
        match std::fs::read_to_string(URING_SWITCH) {
            Err(_) => UringSwitch::Absent,
            Ok(v) if v.trim() == "Y" || v.trim() == "1" => UringSwitch::On,
            Ok(_) => UringSwitch::Off,
        }
    }
}

/// The switch turned on by `--enable-uring`; put back to off when dropped.
#[derive(Debug)]
pub struct SwitchedOn {
    restore: bool,
}

impl SwitchedOn {
    /// Turns the switch on if it is off (remembering to turn it off again).
    pub fn new() -> io::Result<SwitchedOn> {
        if UringSwitch::read() == UringSwitch::Off {
            std::fs::write(URING_SWITCH, "Y")?;
            return Ok(SwitchedOn { restore: true });
        }
        Ok(SwitchedOn { restore: false })
    }

    /// Puts the switch back now.
    pub fn restore(&mut self) {
        if std::mem::take(&mut self.restore) {
            let _ = std::fs::write(URING_SWITCH, "N");
        }
    }
}

impl Drop for SwitchedOn {
    fn drop(&mut self) {
        self.restore();
    }
}

/// How to switch FUSE-over-io_uring on, for messages.
pub fn how_to_switch_on() -> String {
    format!("run with --enable-uring (iomark switches it on and back off), or switch it on yourself: echo Y > {URING_SWITCH}")
}

/// The number of possible CPUs (`/sys/devices/system/cpu/possible`, such as `0-1`): the
/// kernel's number of FUSE uring queues.
pub fn possible_cpus() -> usize {
    let text = std::fs::read_to_string("/sys/devices/system/cpu/possible").unwrap_or_default();
    let highest = text
        .trim()
        .split(',')
        .filter_map(|part| part.rsplit('-').next()?.parse::<usize>().ok())
        .max();
    highest.map_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()), |h| h + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_iomark_mount_is_found_by_its_mount_point_and_type() {
        let info = "36 25 0:32 / /mnt/a\\040b rw,nosuid - fuse.iomark /tmp/back\\040ing rw\n\
                    37 25 0:33 / /mnt/c rw - fuse.other x rw\n";
        assert_eq!(mounted_here(info, Path::new("/mnt/a b")).as_deref(), Some("/tmp/back ing"));
        assert_eq!(mounted_here(info, Path::new("/mnt/c")), None);
    }

    #[test]
    fn a_missing_mount_point_is_refused_with_its_name() {
        let err = check_mountpoint(Path::new("/nonexistent/iomark-mnt")).unwrap_err();
        assert!(err.contains("/nonexistent/iomark-mnt"), "{err}");
    }

    #[test]
    fn there_is_at_least_one_possible_cpu() {
        assert!(possible_cpus() >= 1);
    }
}
