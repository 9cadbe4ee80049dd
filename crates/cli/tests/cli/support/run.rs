//! Running iomark and fio: commands on the real clock unless the fake one is asked for,
//! temporary directories, job files, and the text of what a run printed.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The iomark binary under test.
pub const IOMARK: &str = env!("CARGO_BIN_EXE_iomark");

/// The fake clock's step in nanoseconds (the hidden `IOMARK_FAKE_CLOCK_NS`): under it a
/// null-engine job with a fixed seed gives the same report every time, and a wait is a
/// jump of the clock.
pub const FAKE_STEP_NS: &str = "1000";

/// A command for `program` with no standard input, on the real clock whatever the test's
/// own environment says.
pub fn command(program: impl AsRef<OsStr>) -> Command {
    let mut cmd = Command::new(program);
    cmd.stdin(Stdio::null()).env_remove("IOMARK_FAKE_CLOCK_NS");
    cmd
}

/// Runs `program` with `args` in `dir` (on the real clock).
pub fn run_in(dir: &Path, program: &str, args: &[&str]) -> Output {
    command(program)
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("run {program}: {e}"))
}

/// Runs iomark with `args` in `dir`, under the fake clock when `fake`.
pub fn iomark_in(dir: &Path, args: &[&str], fake: bool) -> Output {
    let mut cmd = command(IOMARK);
    cmd.current_dir(dir).args(args);
    if fake {
        cmd.env("IOMARK_FAKE_CLOCK_NS", FAKE_STEP_NS);
    }
    cmd.output().expect("run iomark")
}

/// [`iomark_in`], requiring exit code 0.
pub fn iomark_ok(dir: &Path, args: &[&str], fake: bool) -> Output {
    let out = iomark_in(dir, args, fake);
    assert_eq!(out.status.code(), Some(0), "iomark {args:?}: {}", text(&out.stderr));
    out
}

/// Bytes a program printed, as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A fresh temporary directory, removed when dropped.
pub fn tempdir() -> tempfile::TempDir {
    tempfile::tempdir().expect("temporary directory")
}

/// Writes `job` as `job.fio` in `dir` and returns its path.
pub fn write_job(dir: &Path, job: &str) -> PathBuf {
    let path = dir.join("job.fio");
    std::fs::write(&path, job).expect("write job file");
    path
}

/// The names of the entries of `dir`, sorted.
pub fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("read dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Writes `job` as `job.fio` in `dir` and runs `program` on it there with a JSON report.
pub fn run_job_file(dir: &Path, program: &str, job: &str) -> Output {
    write_job(dir, job);
    run_in(dir, program, &["--output-format=json", "job.fio"])
}
