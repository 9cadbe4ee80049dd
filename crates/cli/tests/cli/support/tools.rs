//! What the machine offers the tests: fio, other programs, engines, direct I/O, strace.
//! Each check prints `skipped: …` when what it looks for is missing, so that a test that
//! returns early says why.

use super::run::{command, tempdir, IOMARK};
use std::path::Path;
use std::process::Stdio;

/// Whether `program` runs with the `probe` arguments; prints the skip message when not.
pub fn have(program: &str, probe: &[&str]) -> bool {
    let ok = command(program)
        .args(probe)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        eprintln!("skipped: {program} not installed");
    }
    ok
}

/// Whether fio can be run; prints the skip message when it cannot.
pub fn fio_installed() -> bool {
    have("fio", &["--version"])
}

/// Whether fio 3.33 itself, whose layouts iomark follows, can be run; prints why not.
pub fn fio_3_33_installed() -> bool {
    match command("fio").arg("--version").output() {
        Ok(out) if out.stdout.starts_with(b"fio-3.33") => true,
        Ok(out) => {
            let version = String::from_utf8_lossy(&out.stdout);
            eprintln!("skipped: fio is {}, the layout is checked against fio-3.33", version.trim());
            false
        }
        Err(_) => {
            eprintln!("skipped: fio not installed");
            false
        }
    }
}

/// The programs to compare: iomark, and fio where it is installed.
pub fn programs() -> Vec<&'static str> {
    let mut p = vec![IOMARK];
    if fio_installed() {
        p.push("fio");
    }
    p
}

/// Whether `engine` can run here with `options` (io_uring and libaio may be disabled in a
/// sandbox); prints the skip message when not.
pub fn engine_available(engine: &str, options: &iomark_engine::EngineOptions) -> bool {
    match iomark_engine::create(engine, options) {
        Ok(_) => true,
        Err(e) => {
            eprintln!("skipped {engine}: {e}");
            false
        }
    }
}

/// Whether O_DIRECT works in a temporary directory (tmpfs refuses it).
pub fn direct_io_works() -> bool {
    use std::os::unix::fs::OpenOptionsExt;
    let dir = tempdir();
    std::fs::OpenOptions::new()
        .create(true)
        .truncate(true)
        .write(true)
        .custom_flags(libc::O_DIRECT)
        .open(dir.path().join("probe"))
        .is_ok()
}

/// The lines strace writes for the system calls `calls` of `program` run with `args` in
/// `dir` (file descriptors shown with their paths); `None` when strace cannot trace here.
pub fn traced(
    dir: &Path,
    program: impl AsRef<std::ffi::OsStr>,
    args: &[&str],
    calls: &str,
) -> Option<Vec<String>> {
    let (out, lines) = traced_run(dir, program, args, calls)?;
    out.status.success().then_some(lines)
}

/// Runs `program` with `args` in `dir` under strace, whatever its exit status: what it
/// printed, and the lines strace wrote for the system calls `calls` (file descriptors shown
/// with their paths); `None` when strace cannot trace here. The trace is written to
/// `strace.out` in `dir`.
pub fn traced_run(
    dir: &Path,
    program: impl AsRef<std::ffi::OsStr>,
    args: &[&str],
    calls: &str,
) -> Option<(std::process::Output, Vec<String>)> {
    let trace = dir.join("strace.out");
    let out = command("strace")
        .current_dir(dir)
        .args(["-f", "-y", "-qq", "-e", &format!("trace={calls}"), "-o"])
        .arg(&trace)
        .arg(program)
        .args(args)
        .output()
        .ok()?;
    let lines = std::fs::read_to_string(&trace).ok()?.lines().map(String::from).collect();
    Some((out, lines))
}

/// Whether strace can trace here; prints the skip message when not.
pub fn strace_works() -> bool {
    let dir = tempdir();
    let ok = traced(dir.path(), IOMARK, &["--version"], "write").is_some();
    if !ok {
        eprintln!("skipped: strace missing or not allowed to trace");
    }
    ok
}
