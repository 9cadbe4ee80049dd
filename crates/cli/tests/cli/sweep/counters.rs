//! The job's own counters that `iomark sweep` shows per I/O: each engine's count of its
//! system calls, exact under the fake clock for the engines that make one or two per I/O,
//! the same as strace saw for every engine, and the part of a run inside `ramp_time` left
//! out.

use crate::support::run::{iomark_in, tempdir, text};
use crate::support::tools::{engine_available, strace_works, traced};
use std::path::Path;

/// The job of every test here: 256 random 4 KiB reads of a 1 MiB file `f`.
const JOB: [&str; 6] =
    ["--rw=randread", "--bs=4k", "--size=1m", "--time_based=0", "--filename=f", "--iodepth=4"];

/// Per run of the sweep document `s.json` in `dir`: the engine, the I/Os after the ramp and
/// the system calls the engine counted over them.
fn counted(dir: &Path) -> Vec<(String, u64, u64)> {
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("s.json")).unwrap()).unwrap();
    doc["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let m = &r["metrics"];
            let ios = m["ios"].as_u64().unwrap();
            let calls = (m["syscalls_per_io"].as_f64().unwrap() * ios as f64).round() as u64;
            let engine = r["point"]["values"][0][1].as_str().unwrap_or("").to_string();
            (engine, ios, calls)
        })
        .collect()
}

/// Runs `iomark sweep` with the job and `extra` in `dir` under the fake clock, requiring
/// success and a quiet stderr.
fn sweep(dir: &Path, extra: &[&str]) {
    let mut args = vec!["sweep", "--json=s.json"];
    args.extend(JOB);
    args.extend(extra);
    let out = iomark_in(dir, &args, true);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
}

#[test]
fn synchronous_engines_count_one_call_per_transfer() {
    let dir = tempdir();
    sweep(dir.path(), &["--ioengine=psync,sync,vsync,pvsync,pvsync2,threadpool,null"]);
    // sync and vsync seek before each transfer; a thread pool's worker makes one call per
    // request; null makes none.
    let want = [
        ("psync", 256),
        ("sync", 512),
        ("vsync", 512),
        ("pvsync", 256),
        ("pvsync2", 256),
        ("threadpool", 256),
        ("null", 0),
    ];
    let got = counted(dir.path());
    let got: Vec<(&str, u64)> =
        got.iter().inspect(|r| assert_eq!(r.1, 256)).map(|r| (r.0.as_str(), r.2)).collect();
    assert_eq!(got, want);
}

#[test]
fn the_ramp_is_left_out_of_the_counters() {
    let dir = tempdir();
    // Under the fake clock (1 µs a read) the first 100 µs are ramp: fewer I/Os are
    // measured, and psync's calls are exactly the measured ones.
    sweep(dir.path(), &["--ioengine=psync,sync", "--ramp_time=100us"]);
    let got = counted(dir.path());
    for (engine, ios, _) in &got {
        assert!(*ios < 256, "{engine}: {ios} I/Os measured, the ramp left none out");
    }
    assert_eq!(got[0].2, got[0].1, "{got:?}");
    assert_eq!(got[1].2, 2 * got[1].1, "{got:?}");
}

#[test]
fn every_engines_count_is_what_strace_saw() {
    if !strace_works() {
        return;
    }
    let options = iomark_engine::EngineOptions::default();
    // The calls each engine makes for its I/O, and whether they name the data file (the
    // submissions and reaps of libaio and io_uring name a context or a ring instead).
    let engines: [(&str, &[&str], bool); 5] = [
        ("psync", &["pread64"], true),
        ("sync", &["lseek", "read"], true),
        ("threadpool", &["pread64"], true),
        ("libaio", &["io_submit", "io_getevents"], false),
        ("io_uring", &["io_uring_enter"], false),
    ];
    for (engine, calls, on_file) in engines {
        if !engine_available(engine, &options) {
            continue;
        }
        let dir = tempdir();
        let file = format!("<{}>", dir.path().canonicalize().unwrap().join("f").display());
        let engine_flag = format!("--ioengine={engine}");
        let mut args = vec!["sweep", "--json=s.json", &engine_flag];
        args.extend(JOB);
        // A first run lays the file out, so that the traced run's calls on it are the job's.
        sweep(dir.path(), &[&engine_flag]);
        let lines = traced(dir.path(), crate::support::run::IOMARK, &args, &calls.join(","))
            .expect("strace ran once, so it runs");
        // A call interrupted by another thread's is written twice, its start (`name(`) and
        // `<... name resumed>`: count the starts.
        let seen = lines
            .iter()
            .filter(|l| calls.iter().any(|c| l.contains(&format!(" {c}("))))
            .filter(|l| !on_file || l.contains(&file))
            .count() as u64;
        let (_, ios, counted) = counted(dir.path()).remove(0);
        assert_eq!(ios, 256, "{engine}");
        assert_eq!(counted, seen, "{engine}: counted {counted} calls, strace saw {seen}");
        assert!(seen > 0, "{engine}");
    }
}
