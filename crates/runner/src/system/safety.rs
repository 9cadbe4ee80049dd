//! The one safety rule of DESIGN.md: iomark writes to a block device only when nothing
//! else uses it, unless the job sets `allow_mounted_write`.
//!
//! A device is in use when it, one of its partitions, or a disk it is a partition of is
//! mounted (`/proc/self/mounts`), is active swap (`/proc/swaps`), or is held by another
//! device (an LVM, dm or RAID member: `/sys/class/block/NAME/holders` is not empty). The
//! message says which.

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// Why the block device at `path` must not be written, or `None` when it is free.
pub fn device_in_use(path: &Path) -> Option<String> {
    let name = block_name(path)?;
    let family = family(&name);
    let mounts = std::fs::read_to_string("/proc/self/mounts").unwrap_or_default();
    let swaps = std::fs::read_to_string("/proc/swaps").unwrap_or_default();
    for member in &family {
        if let Some(at) = mounted_at(&mounts, member) {
            return Some(format!("/dev/{member} is mounted on {at}"));
        }
        if swaps.lines().skip(1).any(|l| dev_name(l.split_whitespace().next()) == Some(member)) {
            return Some(format!("/dev/{member} is active swap"));
        }
        let holders = PathBuf::from(format!("/sys/class/block/{member}/holders"));
        if let Some(holder) = first_entry(&holders) {
            return Some(format!("/dev/{member} is held by {holder} (LVM, dm or RAID)"));
        }
    }
    None
}

/// The kernel's name of the block device at `path` (`sda1`, `loop0`).
fn block_name(path: &Path) -> Option<String> {
    let rdev = std::fs::metadata(path).ok()?.rdev();
    let (major, minor) = (libc_major(rdev), libc_minor(rdev));
    let link = std::fs::read_link(format!("/sys/dev/block/{major}:{minor}")).ok()?;
    Some(link.file_name()?.to_string_lossy().into_owned())
}

/// The device, its partitions, and the disk it is a partition of.
fn family(name: &str) -> Vec<String> {
    let mut out = vec![name.to_string()];
    let sys = PathBuf::from(format!("/sys/class/block/{name}"));
    if sys.join("partition").exists() {
        if let Ok(real) = std::fs::canonicalize(&sys) {
            if let Some(parent) = real.parent().and_then(Path::file_name) {
                out.push(parent.to_string_lossy().into_owned());
            }
        }
    }
    if let Ok(entries) = std::fs::read_dir(&sys) {
        for e in entries.flatten() {
            let child = e.file_name().to_string_lossy().into_owned();
            if child.starts_with(name) && e.path().join("partition").exists() {
                out.push(child);
            }
        }
    }
    out
}

/// Where `/dev/NAME` is mounted, from the text of `/proc/self/mounts`.
fn mounted_at<'a>(mounts: &'a str, name: &str) -> Option<&'a str> {
    mounts.lines().find_map(|l| {
        let mut f = l.split_whitespace();
        let dev = f.next();
        let at = f.next()?;
        (dev_name(dev) == Some(name)).then_some(at)
    })
}

/// `sda1` for `/dev/sda1` (following a `/dev/mapper/…` or `/dev/disk/…` link).
fn dev_name(dev: Option<&str>) -> Option<&str> {
    let dev = dev?.strip_prefix("/dev/")?;
    Some(dev.rsplit('/').next().unwrap_or(dev))
}

fn first_entry(dir: &Path) -> Option<String> {
    let mut entries = std::fs::read_dir(dir).ok()?;
    entries.next()?.ok().map(|e| e.file_name().to_string_lossy().into_owned())
}

/// The major number of a device number (glibc's `gnu_dev_major`).
fn libc_major(dev: u64) -> u64 {
    ((dev >> 32) & 0xffff_f000) | ((dev >> 8) & 0x0000_0fff)
}

/// The minor number of a device number (glibc's `gnu_dev_minor`).
fn libc_minor(dev: u64) -> u64 {
    ((dev >> 12) & 0xffff_ff00) | (dev & 0x0000_00ff)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mount_lines_name_their_device() {
        let mounts = "/dev/vda1 / ext4 rw 0 0\nproc /proc proc rw 0 0\n";
        assert_eq!(mounted_at(mounts, "vda1"), Some("/"));
        assert_eq!(mounted_at(mounts, "vda"), None);
        assert_eq!(dev_name(Some("/dev/mapper/vg-root")), Some("vg-root"));
    }

    #[test]
    fn device_numbers_split_as_glibc_does() {
        let dev = (7u64 << 8) | 3;
        assert_eq!((libc_major(dev), libc_minor(dev)), (7, 3));
    }

    #[test]
    fn a_regular_file_is_no_block_device() {
        let file = tempfile::NamedTempFile::new().unwrap();
        assert_eq!(device_in_use(file.path()), None);
    }

    #[test]
    fn a_device_holding_the_root_file_system_is_in_use() {
        let mounts = std::fs::read_to_string("/proc/self/mounts").unwrap_or_default();
        let Some(root) = mounts.lines().find_map(|l| {
            let mut f = l.split_whitespace();
            let dev = f.next()?;
            (f.next()? == "/" && dev.starts_with("/dev/")).then(|| dev.to_string())
        }) else {
            eprintln!("skipped: the root file system is not on a block device here");
            return;
        };
        let why = device_in_use(Path::new(&root)).expect("the root device must be in use");
        assert!(why.contains("mounted on /"), "{why}");
    }
}
