//! Block devices and file systems made for a test (they need root): a loop device over a
//! file of zeros, optionally with an ext4 file system mounted on it, and a small tmpfs.
//! Each is taken down when dropped; without root or the programs they need, [`LoopDevice::new`]
//! and [`SmallFs::mount`] print why and give `None`, and the test skips.

use super::run::{command, tempdir};
use std::path::{Path, PathBuf};
use std::process::Stdio;

/// A loop device over a file of zeros in a temporary directory, detached (and unmounted)
/// when dropped.
pub struct LoopDevice {
    /// The device's path (`/dev/loopN`).
    pub dev: String,
    /// Where its file system is mounted, if [`LoopDevice::mount`] made one.
    mounted: Option<PathBuf>,
    dir: tempfile::TempDir,
}

impl LoopDevice {
    /// A new loop device of `len` bytes, or `None` (with the skip message) without root
    /// or `losetup`.
    pub fn new(len: usize) -> Option<LoopDevice> {
        let dir = tempdir();
        let image = dir.path().join("disk.img");
        std::fs::write(&image, vec![0u8; len]).expect("write image");
        let out = command("losetup").args(["-f", "--show"]).arg(&image).output();
        match out {
            Ok(o) if o.status.success() => {
                let dev = String::from_utf8_lossy(&o.stdout).trim().to_string();
                Some(LoopDevice { dev, mounted: None, dir })
            }
            _ => {
                eprintln!("skipped: cannot set up a loop device (needs root and losetup)");
                None
            }
        }
    }

    /// Makes an ext4 file system on the device and mounts it; false when that fails.
    pub fn mount(&mut self) -> bool {
        let at = self.dir.path().join("mnt");
        let ok = std::fs::create_dir(&at).is_ok()
            && command("mkfs.ext4").args(["-q", &self.dev]).status().is_ok_and(|s| s.success())
            && command("mount").arg(&self.dev).arg(&at).status().is_ok_and(|s| s.success());
        if ok {
            self.mounted = Some(at);
        }
        ok
    }

    /// Where [`LoopDevice::mount`] mounted its file system, if it did.
    pub fn mounted(&self) -> Option<&Path> {
        self.mounted.as_deref()
    }
}

impl Drop for LoopDevice {
    fn drop(&mut self) {
        if let Some(at) = &self.mounted {
            let _ = command("umount").arg(at).status();
        }
        let _ = command("losetup").arg("-d").arg(&self.dev).status();
    }
}

/// A small tmpfs mounted for a test, unmounted when dropped.
pub struct SmallFs {
    dir: tempfile::TempDir,
}

impl SmallFs {
    /// An 8 MiB tmpfs; `None` (after saying why) when it cannot be mounted here.
    pub fn mount() -> Option<SmallFs> {
        let dir = tempdir();
        let ok = command("mount")
            .args(["-t", "tmpfs", "-o", "size=8m", "tmpfs"])
            .arg(dir.path())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !ok {
            eprintln!("skipped: cannot mount a small tmpfs (needs root)");
            return None;
        }
        Some(SmallFs { dir })
    }

    /// Where it is mounted.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Removes every file in it.
    pub fn clear(&self) {
        for entry in std::fs::read_dir(self.dir.path()).expect("read the tmpfs").flatten() {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

impl Drop for SmallFs {
    fn drop(&mut self) {
        self.clear();
        let _ = command("umount").arg(self.dir.path()).status();
    }
}
