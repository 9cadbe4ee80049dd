//! `iomark fuse-export` end to end (docs/fuse-export.md): both transports serving iomark's
//! own verified jobs on every engine, faults seen by iomark jobs exactly as injected, no
//! acknowledged write lost to SIGKILL, the stale mount it leaves explained, the daemon, the
//! safety guard, and fio 3.33 running seed 001's four groups on ext4 over a direct-I/O loop
//! device over the export.
//!
//! They need root and `/dev/fuse` and skip with a message otherwise. Every export is
//! unmounted by a guard that runs on failure too, and the kernel's `enable_uring` switch is
//! put back by a guard; the tests take one lock, so that no two exports (and no two
//! flips of the switch) overlap.

mod data;
mod faults;
mod fio;
mod life;
mod lifetimes;
mod ops;

use crate::support::process::Running;
use crate::support::run::{command, tempdir, IOMARK};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::{Mutex, MutexGuard};

/// The kernel's FUSE-over-io_uring switch.
const SWITCH: &str = "/sys/module/fuse/parameters/enable_uring";

/// One export at a time.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// The one-export-at-a-time lock (whether or not a test that held it failed), or `None`
/// (after saying why) where exports cannot be made: the test skips.
fn exclusive() -> Option<MutexGuard<'static, ()>> {
    can_export().then(|| ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner()))
}

/// Whether exports can be made here; prints why not.
fn can_export() -> bool {
    let root = std::fs::metadata("/proc/self").is_ok_and(|m| {
        use std::os::unix::fs::MetadataExt;
        m.uid() == 0
    });
    if !root {
        eprintln!("skipped: fuse-export needs root");
        return false;
    }
    if std::fs::OpenOptions::new().read(true).write(true).open("/dev/fuse").is_err() {
        eprintln!("skipped: /dev/fuse cannot be opened");
        return false;
    }
    true
}

/// The transports to test: dev, and uring where the kernel has it.
fn transports() -> Vec<&'static str> {
    if Path::new(SWITCH).exists() {
        vec!["uring", "dev"]
    } else {
        eprintln!("skipped the uring transport: this kernel has no FUSE-over-io_uring");
        vec!["dev"]
    }
}

/// The `enable_uring` switch as it was, put back when dropped.
struct SwitchGuard(Option<String>);

impl SwitchGuard {
    fn new() -> SwitchGuard {
        SwitchGuard(std::fs::read_to_string(SWITCH).ok())
    }

    /// Sets the switch (`Y` or `N`).
    fn set(&self, value: &str) {
        if self.0.is_some() {
            std::fs::write(SWITCH, value).expect("write enable_uring");
        }
    }
}

impl Drop for SwitchGuard {
    fn drop(&mut self) {
        if let Some(v) = &self.0 {
            let _ = std::fs::write(SWITCH, v.trim());
        }
    }
}

/// A running export of a backing file in a temporary directory, unmounted (and the
/// exporter stopped) when dropped.
struct Export {
    /// The exporter.
    run: Running,
    /// The backing file.
    backing: PathBuf,
    /// The mount point.
    mnt: PathBuf,
    /// The directory holding both (and anything else the test writes).
    dir: tempfile::TempDir,
    /// The switch, put back after the exporter ends.
    _switch: SwitchGuard,
}

impl Export {
    /// Exports a new file of `size` bytes (zeros) with `transport` and the `extra` flags;
    /// returns once the exporter says it is ready.
    fn start(size: u64, transport: &str, extra: &[&str]) -> Export {
        let dir = tempdir();
        let backing = dir.path().join("backing.img");
        std::fs::File::create(&backing).unwrap().set_len(size).unwrap();
        Export::over(dir, backing, transport, extra)
    }

    /// Exports `backing` (in `dir`).
    fn over(dir: tempfile::TempDir, backing: PathBuf, transport: &str, extra: &[&str]) -> Export {
        let mnt = dir.path().join("mnt");
        std::fs::create_dir_all(&mnt).unwrap();
        let switch = SwitchGuard::new();
        let mut args = vec!["fuse-export".to_string(), format!("--transport={transport}")];
        if transport == "uring" {
            args.push("--enable-uring".into());
        }
        args.extend(extra.iter().map(|s| s.to_string()));
        args.push(backing.display().to_string());
        args.push(mnt.display().to_string());
        let run = Running::start(dir.path(), &args);
        let export = Export { run, backing, mnt, dir, _switch: switch };
        let ready = export
            .run
            .stdout
            .wait_for(|b| String::from_utf8_lossy(b).contains("exported as").then_some(()));
        assert!(ready.is_some(), "the export never got ready: {}", export.run.stderr.text());
        export
    }

    /// The exported file.
    fn volume(&self) -> PathBuf {
        self.mnt.join("volume")
    }

    /// Runs an iomark job on the volume (`--filename` added to `args`) to its end, in the
    /// export's directory (where files a job leaves, such as a failed verify's state, land).
    fn job<S: AsRef<OsStr>>(&self, args: impl IntoIterator<Item = S>) -> Output {
        command(IOMARK)
            .current_dir(self.dir.path())
            .args(args)
            .arg(format!("--filename={}", self.volume().display()))
            .output()
            .expect("run iomark")
    }

    /// Unmounts, waits for the exporter's end and returns its standard output (the
    /// summary at its end); the exporter must exit 0.
    fn finish(mut self) -> String {
        unmount(&self.mnt);
        let status = self.run.wait();
        assert_eq!(status.code(), Some(0), "exporter: {}", self.run.stderr.text());
        assert_eq!(self.run.stderr.text(), "", "a run that succeeds writes nothing to stderr");
        self.run.stdout.text()
    }
}

impl Drop for Export {
    fn drop(&mut self) {
        unmount(&self.mnt);
        let _ = self.dir.path();
    }
}

/// Unmounts `mnt` lazily if it is mounted.
fn unmount(mnt: &Path) {
    let mounts = std::fs::read_to_string("/proc/self/mounts").unwrap_or_default();
    let at = mnt.display().to_string();
    if mounts.lines().any(|l| l.split(' ').nth(1) == Some(at.as_str())) {
        let _ = command("umount").arg("-l").arg(mnt).status();
    }
}

/// The number on the summary's line for `kind` in column `col` (1 requests, 2 bytes,
/// 3 injected, 4 backing errors).
fn summary_count(summary: &str, kind: &str, col: usize) -> u64 {
    let line = summary
        .lines()
        .find(|l| l.split_whitespace().next() == Some(kind))
        .unwrap_or_else(|| panic!("no {kind} line in the summary:\n{summary}"));
    line.split_whitespace().nth(col).and_then(|n| n.parse().ok()).expect("a count")
}

/// The value of `name=N` on the summary's last line (`delayed`, `over_uring`…).
fn summary_value(summary: &str, name: &str) -> u64 {
    let field = format!("{name}=");
    summary
        .split_whitespace()
        .find_map(|w| w.strip_prefix(field.as_str()))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no {name}= in the summary:\n{summary}"))
}
