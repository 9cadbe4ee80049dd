//! Running jobs end to end with the `iomark` binary: golden reports under the fake clock,
//! exact I/O counts against fio 3.33 on the same job files, exit codes and what goes to
//! standard output and standard error.
//!
//! Every run happens inside a temporary directory that the test creates and removes; job
//! files and the files the jobs lay out live there. Tests that need fio print
//! `skipped: fio not installed` and pass when `fio` is not on the `PATH`.
//!
//! Golden files live in `tests/golden/`: `<case>.fio` is the job, `<case>.<format>` the
//! expected output (`json,normal` is stored as `<case>.json_normal`). `IOMARK_BLESS=1`
//! rewrites them from the current output; check the diff by eye against fio's layout before
//! committing.

use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

// ---------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------

/// The fake clock's step for golden runs, in nanoseconds.
const FAKE_STEP_NS: &str = "1000";

/// Runs `iomark` with `args` in `dir`; `fake` selects the fake clock.
fn iomark_in(dir: &Path, args: &[&str], fake: bool) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_iomark"));
    cmd.current_dir(dir).args(args).stdin(Stdio::null()).env_remove("IOMARK_FAKE_CLOCK_NS");
    if fake {
        cmd.env("IOMARK_FAKE_CLOCK_NS", FAKE_STEP_NS);
    }
    cmd.output().expect("run iomark")
}

/// Whether fio can be run; prints the skip message when it cannot.
fn fio_installed() -> bool {
    let ok = Command::new("fio")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        eprintln!("skipped: fio not installed");
    }
    ok
}

/// Runs fio with `args` in `dir`.
fn fio_in(dir: &Path, args: &[&str]) -> Output {
    Command::new("fio")
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run fio")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A fresh temporary directory.
fn tempdir() -> tempfile::TempDir {
    tempfile::tempdir().expect("temporary directory")
}

/// Writes `job` as `job.fio` in `dir` and returns its path.
fn write_job(dir: &Path, job: &str) -> PathBuf {
    let path = dir.join("job.fio");
    std::fs::write(&path, job).expect("write job file");
    path
}

/// The names of the entries of `dir`, sorted.
fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("read dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Parses a whole standard output as one JSON document (nothing before or after it).
fn parse_json(out: &Output, what: &str) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!("{what}: stdout is not one JSON document ({e}):\n{}", text(&out.stdout))
    })
}

// ---------------------------------------------------------------------------------------
// Golden reports (fake clock, null engine, fixed seed)
// ---------------------------------------------------------------------------------------

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

/// Runs `tests/golden/<case>.fio` in each output format and compares the output byte for
/// byte with `tests/golden/<case>.<format>` (or rewrites it under `IOMARK_BLESS=1`).
fn check_golden(case: &str) {
    let bless = std::env::var_os("IOMARK_BLESS").is_some_and(|v| v == "1");
    let job = golden_dir().join(format!("{case}.fio"));
    let job = job.to_str().expect("utf-8 path");
    let mut failures = Vec::new();
    for (format, suffix) in [("normal", "normal"), ("json", "json"), ("json,normal", "json_normal")]
    {
        let dir = tempdir();
        let flag = format!("--output-format={format}");
        let out = iomark_in(dir.path(), &[&flag, job], true);
        assert_eq!(out.status.code(), Some(0), "{case} {format}: {}", text(&out.stderr));
        assert!(out.stderr.is_empty(), "{case} {format}: stderr: {}", text(&out.stderr));
        if format == "json" {
            parse_json(&out, &format!("{case} json"));
        }
        let expected_path = golden_dir().join(format!("{case}.{suffix}"));
        if bless {
            std::fs::write(&expected_path, &out.stdout).expect("write golden file");
            continue;
        }
        let expected = std::fs::read(&expected_path).unwrap_or_else(|e| {
            panic!("{}: {e} (IOMARK_BLESS=1 writes it)", expected_path.display())
        });
        if expected != out.stdout {
            failures.push(first_difference(&format!("{case}.{suffix}"), &expected, &out.stdout));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The first line where `got` differs from `expected`, for the failure message.
fn first_difference(name: &str, expected: &[u8], got: &[u8]) -> String {
    let (e, g) = (text(expected), text(got));
    let (el, gl): (Vec<&str>, Vec<&str>) = (e.lines().collect(), g.lines().collect());
    for i in 0..el.len().max(gl.len()) {
        let (a, b) = (el.get(i).copied(), gl.get(i).copied());
        if a != b {
            return format!("{name}: line {}:\n  want {a:?}\n  got  {b:?}", i + 1);
        }
    }
    format!("{name}: differs (line endings or final newline)")
}

#[test]
fn golden_single_read() {
    check_golden("single_read");
}

#[test]
fn golden_randrw_mix_70() {
    check_golden("randrw70");
}

#[test]
fn golden_numjobs_3_with_group_reporting() {
    check_golden("numjobs3_group");
}

#[test]
fn golden_two_groups_with_stonewall() {
    check_golden("two_groups");
}

#[test]
fn golden_bssplit() {
    check_golden("bssplit");
}

#[test]
fn golden_percentile_list() {
    check_golden("percentile_list");
}

#[test]
fn golden_lat_percentiles() {
    check_golden("lat_percentiles");
}

#[test]
fn fake_clock_runs_are_byte_stable() {
    let job = golden_dir().join("randrw70.fio");
    let job = job.to_str().expect("utf-8 path");
    let (a, b) = (tempdir(), tempdir());
    let first = iomark_in(a.path(), &["--output-format=json,normal", job], true);
    let second = iomark_in(b.path(), &["--output-format=json,normal", job], true);
    assert_eq!(first.status.code(), Some(0), "{}", text(&first.stderr));
    assert_eq!(text(&first.stdout), text(&second.stdout));
}
