//! Running iomark and fio 3.33 alike, for the test binaries that compare them (`sched`,
//! `errors`, `replay`, `files_zones`, `file_options`, `job_options`, `trim_verify`,
//! `regions`): each uses what it needs.
#![allow(dead_code)]

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output, Stdio};

pub mod cases;

/// The iomark binary under test.
pub const IOMARK: &str = env!("CARGO_BIN_EXE_iomark");

/// Whether fio can be run; prints the skip message when it cannot.
pub fn fio_installed() -> bool {
    let ok = Command::new("fio").arg("--version").output().is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("skipped: fio not installed");
    }
    ok
}

/// The programs to compare: iomark, and fio where it is installed.
pub fn programs() -> Vec<&'static str> {
    let mut p = vec![IOMARK];
    if fio_installed() {
        p.push("fio");
    }
    p
}

/// A fresh temporary directory.
pub fn tempdir() -> tempfile::TempDir {
    tempfile::tempdir().expect("temporary directory")
}

/// Runs `program` with `args` in `dir` (without the fake clock).
pub fn run_in(dir: &Path, program: &str, args: &[&str]) -> Output {
    Command::new(program)
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::null())
        .env_remove("IOMARK_FAKE_CLOCK_NS")
        .output()
        .unwrap_or_else(|e| panic!("run {program}: {e}"))
}

/// The JSON report on a run's standard output. fio 3.33 may print lines before it (a
/// fatal error's `fio: pid=…`, `NAME : Saving output of prerun in …`), which iomark prints
/// on standard error; they are skipped.
pub fn report_json(program: &str, out: &Output) -> Value {
    let text = String::from_utf8_lossy(&out.stdout);
    let json = &text[text.find("\n{").map_or(0, |i| i + 1)..];
    serde_json::from_str(json).unwrap_or_else(|e| panic!("{program}: not JSON ({e}): {text}"))
}

/// The lines strace writes for the system calls `calls` of `program` run with `args` in
/// `dir` (file descriptors shown with their paths); `None` when strace cannot trace here.
pub fn traced(
    dir: &Path,
    program: impl AsRef<std::ffi::OsStr>,
    args: &[&str],
    calls: &str,
) -> Option<Vec<String>> {
    let trace = dir.join("strace.out");
    let status = Command::new("strace")
        .current_dir(dir)
        .args(["-f", "-y", "-qq", "-e", &format!("trace={calls}"), "-o"])
        .arg(&trace)
        .arg(program)
        .args(args)
        .env_remove("IOMARK_FAKE_CLOCK_NS")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .ok()?;
    if !status.success() {
        return None;
    }
    Some(std::fs::read_to_string(&trace).ok()?.lines().map(String::from).collect())
}

/// A loop device over a 16 MiB file of zeros in a temporary directory, detached when
/// dropped.
pub struct LoopDevice {
    /// The device's path (`/dev/loopN`).
    pub dev: String,
    _dir: tempfile::TempDir,
}

impl LoopDevice {
    /// A new loop device, or `None` (with the skip message) without root or `losetup`.
    pub fn new() -> Option<LoopDevice> {
        let dir = tempdir();
        let image = dir.path().join("disk.img");
        std::fs::write(&image, vec![0u8; 16 << 20]).expect("write image");
        let out = Command::new("losetup").args(["-f", "--show"]).arg(&image).output();
        match out {
            Ok(o) if o.status.success() => {
                let dev = String::from_utf8_lossy(&o.stdout).trim().to_string();
                Some(LoopDevice { dev, _dir: dir })
            }
            _ => {
                eprintln!("skipped: cannot set up a loop device (needs root and losetup)");
                None
            }
        }
    }
}

impl Drop for LoopDevice {
    fn drop(&mut self) {
        let _ = Command::new("losetup").arg("-d").arg(&self.dev).status();
    }
}
