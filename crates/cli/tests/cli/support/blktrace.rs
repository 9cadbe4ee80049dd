//! Recording a device with `blktrace` (Debian's blktrace package) during a test: debugfs
//! mounted for the test when it is not (and unmounted after), the recorder started and
//! waited for until its per-CPU files exist, stopped when dropped. One tracing test at a
//! time ([`TRACING`]): a test may mount and unmount debugfs or tracefs.

use super::devices::LoopDevice;
use super::process::poll_until;
use super::run::{command, tempdir};
use super::tools::have;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::sync::Mutex;

/// One tracing run at a time.
pub static TRACING: Mutex<()> = Mutex::new(());

/// debugfs, which blktrace needs, mounted for the test when it is not (unmounted after).
pub struct DebugFs {
    mounted: bool,
}

impl DebugFs {
    /// debugfs at /sys/kernel/debug, or `None` (with the skip message) when it is not
    /// mounted and cannot be.
    pub fn ensure() -> Option<DebugFs> {
        let root = Path::new("/sys/kernel/debug");
        if root.join("block").is_dir() {
            return Some(DebugFs { mounted: false });
        }
        let ok = command("mount").args(["-t", "debugfs", "none"]).arg(root).status();
        match ok {
            Ok(s) if s.success() => Some(DebugFs { mounted: true }),
            _ => {
                eprintln!("skipped: debugfs is not mounted and cannot be (needs root)");
                None
            }
        }
    }
}

impl Drop for DebugFs {
    fn drop(&mut self) {
        if self.mounted {
            let _ = command("umount").arg("/sys/kernel/debug").status();
        }
    }
}

/// blktrace on a device, stopped (and waited for) when dropped.
pub struct Blktrace(Child);

impl Blktrace {
    /// blktrace recording `dev` into `dir` (files `trace.blktrace.CPU`), once it records;
    /// `None` with the skip message when it does not start.
    pub fn start(dev: &str, dir: &Path) -> Option<Blktrace> {
        let child = command("blktrace")
            .args(["-d", dev, "-o", "trace", "-D"])
            .arg(dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn();
        let Ok(child) = child else {
            eprintln!("skipped: blktrace did not start");
            return None;
        };
        let mut tracing = Blktrace(child);
        // blktrace announces nothing: it is recording once its per-CPU files exist, and
        // has failed if it has ended (it cannot open debugfs's files in some containers).
        let started = poll_until(|| {
            if tracing.0.try_wait().ok()?.is_some() {
                return Some(false);
            }
            let entries = std::fs::read_dir(dir).ok()?;
            entries
                .flatten()
                .any(|e| e.file_name().to_string_lossy().starts_with("trace.blktrace."))
                .then_some(true)
        });
        if started != Some(true) {
            eprintln!("skipped: blktrace records nothing here (it ended, or wrote no file)");
            return None;
        }
        Some(tracing)
    }
}

impl Drop for Blktrace {
    fn drop(&mut self) {
        let _ = command("kill").args(["-INT", &self.0.id().to_string()]).status();
        let _ = self.0.wait();
    }
}

/// A loop device of its own recorded by blktrace, into a temporary directory; the
/// recording stops before debugfs is unmounted and the device removed.
pub struct Recording {
    tracing: Option<Blktrace>,
    _debugfs: DebugFs,
    /// The recorded device.
    pub disk: LoopDevice,
    /// Where the trace goes (and the test's other files).
    pub dir: tempfile::TempDir,
}

impl Recording {
    /// A loop device of `len` bytes being recorded, or `None` (with the skip message)
    /// without root, blktrace, blkparse or debugfs.
    pub fn start(len: usize) -> Option<Recording> {
        if !have("blktrace", &["-v"]) || !have("blkparse", &["--version"]) {
            return None;
        }
        let disk = LoopDevice::new(len)?;
        let debugfs = DebugFs::ensure()?;
        let dir = tempdir();
        let tracing = Some(Blktrace::start(&disk.dev, dir.path())?);
        Some(Recording { tracing, _debugfs: debugfs, disk, dir })
    }

    /// Stops recording and merges the per-CPU files into one binary trace (`blkparse
    /// -d`), `trace.bin` in the directory.
    pub fn finish(&mut self) -> PathBuf {
        drop(self.tracing.take());
        let parsed = command("blkparse")
            .args(["-i", "trace", "-d", "trace.bin", "-O"])
            .current_dir(self.dir.path())
            .status();
        assert!(parsed.is_ok_and(|s| s.success()), "blkparse failed");
        self.dir.path().join("trace.bin")
    }
}
