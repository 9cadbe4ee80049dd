//! What a job measures and where it runs: `disable_*`, `gtod_reduce`, `clocksource`,
//! CPU affinity, `nice`, I/O priorities, `exec_prerun`/`exec_postrun`, `ioscheduler`.
//!
//! Behaviour and exact counts only: which figures a report carries, which logs are
//! written, which CPUs and priorities a job's thread has (read back from inside the job
//! through `exec_prerun`, whose command runs in the job's thread as fio runs it in the job's
//! process). Where fio 3.33 is installed the same job runs under it and the same facts must
//! hold; without fio those comparisons print `skipped: fio not installed`.
//!
//! Every run happens in a temporary directory that the test creates and removes.

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// Runs `program` with `args` in `dir`.
fn run_in(dir: &Path, program: &str, args: &[&str]) -> Output {
    Command::new(program)
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::null())
        .env_remove("IOMARK_FAKE_CLOCK_NS")
        .output()
        .unwrap_or_else(|e| panic!("run {program}: {e}"))
}

/// Writes `job` to `job.fio` in `dir` and runs `program` on it with a JSON report, which it
/// must print with exit code 0; returns the report.
fn json_of(dir: &Path, program: &str, job: &str) -> Value {
    std::fs::write(dir.join("job.fio"), job).expect("write job file");
    let out = run_in(dir, program, &["--output-format=json", "job.fio"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{program}: {job}\n{err}");
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{program}: not JSON ({e}): {job}"))
}

fn iomark_json(dir: &Path, job: &str) -> Value {
    json_of(dir, env!("CARGO_BIN_EXE_iomark"), job)
}

/// Whether fio can be run; prints the skip message when it cannot.
fn fio_installed() -> bool {
    let ok = Command::new("fio").arg("--version").output().is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("skipped: fio not installed");
    }
    ok
}

/// The programs to compare: iomark, and fio where it is installed.
fn programs() -> Vec<&'static str> {
    let mut p = vec![env!("CARGO_BIN_EXE_iomark")];
    if fio_installed() {
        p.push("fio");
    }
    p
}

fn tempdir() -> tempfile::TempDir {
    tempfile::tempdir().expect("temporary directory")
}

/// `N` of the latency object `kind` (`slat_ns`, `clat_ns`, `lat_ns`) of the first job's reads.
fn samples(report: &Value, kind: &str) -> u64 {
    report["jobs"][0]["read"][kind]["N"].as_u64().expect("N")
}

// ---------------------------------------------------------------------------------------
// disable_*, gtod_reduce, clocksource
// ---------------------------------------------------------------------------------------

/// An asynchronous null-engine job (it has slat) of 256 reads, plus `extra`.
fn null_job(extra: &str) -> String {
    format!("[j]\nioengine=null\niodepth=4\nrw=randread\nsize=1m\n{extra}\n")
}

#[test]
fn disabled_latencies_are_left_out_as_fio_leaves_them_out() {
    // (options, N of slat, clat, lat, whether clat has percentiles)
    let cases: [(&str, [u64; 3], bool); 7] = [
        ("", [256, 256, 256], true),
        ("disable_slat=1", [0, 256, 256], true),
        ("disable_clat=1", [256, 0, 256], false),
        ("disable_lat=1", [256, 256, 0], true),
        ("gtod_reduce=1", [0, 0, 0], false),
        // gtod_reduce turns clat_percentiles off too, unless it is set again after it.
        ("gtod_reduce=1\ndisable_clat=0", [0, 256, 0], false),
        ("gtod_reduce=1\ndisable_clat=0\nclat_percentiles=1", [0, 256, 0], true),
    ];
    for program in programs() {
        for (extra, want, pcts) in cases {
            let dir = tempdir();
            let r = json_of(dir.path(), program, &null_job(extra));
            let got = ["slat_ns", "clat_ns", "lat_ns"].map(|k| samples(&r, k));
            assert_eq!(got, want, "{program} {extra:?}");
            let job = &r["jobs"][0];
            let clat_pcts = job["read"]["clat_ns"].get("percentile").is_some();
            assert_eq!(clat_pcts, pcts, "{program} {extra:?}: clat percentiles");
            // The latency buckets count clat.
            let buckets: f64 = ["latency_ns", "latency_us", "latency_ms"]
                .iter()
                .flat_map(|k| job[k].as_object().expect(k).values())
                .map(|v| v.as_f64().expect("share"))
                .sum();
            assert_eq!(buckets > 99.0, want[1] > 0, "{program} {extra:?}: buckets {buckets}");
            assert_eq!(job["read"]["total_ios"].as_u64(), Some(256), "{program} {extra:?}");
        }
    }
}

#[test]
fn a_synchronous_job_without_clat_still_reports_lat() {
    for program in programs() {
        let dir = tempdir();
        let job = "[j]\nioengine=null\nrw=read\nsize=64k\ndisable_clat=1\n";
        let r = json_of(dir.path(), program, job);
        let got = ["slat_ns", "clat_ns", "lat_ns"].map(|k| samples(&r, k));
        assert_eq!(got, [0, 0, 16], "{program}");
    }
}

#[test]
fn the_normal_report_drops_the_lines_of_what_is_not_measured() {
    let dir = tempdir();
    let job = null_job("disable_clat=1\ndisable_slat=1");
    std::fs::write(dir.path().join("job.fio"), job).expect("write job file");
    let out = run_in(dir.path(), env!("CARGO_BIN_EXE_iomark"), &["job.fio"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("     lat (nsec)") || text.contains("     lat (usec)"), "{text}");
    for absent in ["slat (", "clat (", "clat percentiles", "lat (nsec)   :", "lat (usec)   :"] {
        assert!(!text.contains(absent), "{absent:?} in\n{text}");
    }
}

/// The number of lines of each log file in `dir`, by name.
fn log_lines(dir: &Path) -> Vec<(String, usize)> {
    let mut logs: Vec<(String, usize)> = std::fs::read_dir(dir)
        .expect("read dir")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "log"))
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("read log");
            (p.file_name().unwrap().to_string_lossy().into_owned(), text.lines().count())
        })
        .collect();
    logs.sort();
    logs
}

#[test]
fn logs_of_what_is_not_measured_are_missing_or_empty_as_in_fio() {
    let logs = "write_lat_log=L\nwrite_bw_log=L\nwrite_iops_log=L\n";
    let cases: [(&str, &[(&str, bool)]); 3] = [
        (
            "disable_clat=1\ndisable_bw_measurement=1",
            &[
                ("L_bw.1.log", false),
                ("L_iops.1.log", true),
                ("L_lat.1.log", true),
                ("L_slat.1.log", true),
            ],
        ),
        (
            "disable_lat=1\ndisable_slat=1",
            &[("L_bw.1.log", true), ("L_clat.1.log", true), ("L_iops.1.log", true)],
        ),
        ("gtod_reduce=1", &[("L_bw.1.log", false), ("L_iops.1.log", false)]),
    ];
    for program in programs() {
        for (extra, want) in cases {
            let dir = tempdir();
            json_of(dir.path(), program, &null_job(&format!("{logs}{extra}")));
            let got = log_lines(dir.path());
            let names: Vec<&str> = got.iter().map(|(n, _)| n.as_str()).collect();
            let want_names: Vec<&str> = want.iter().map(|(n, _)| *n).collect();
            assert_eq!(names, want_names, "{program} {extra:?}");
            for ((name, lines), (_, rows)) in got.iter().zip(want.iter()) {
                assert_eq!(*lines > 0, *rows, "{program} {extra:?}: {name} has {lines} lines");
            }
        }
    }
}

#[test]
fn clocksource_gettimeofday_measures_whole_microseconds() {
    let dir = tempdir();
    let r = iomark_json(dir.path(), &null_job("clocksource=gettimeofday"));
    for kind in ["slat_ns", "clat_ns", "lat_ns"] {
        let lat = &r["jobs"][0]["read"][kind];
        for end in ["min", "max"] {
            let ns = lat[end].as_u64().expect("ns");
            assert_eq!(ns % 1000, 0, "{kind} {end} = {ns}");
        }
    }
    for source in ["clock_gettime", "cpu"] {
        let r = iomark_json(dir.path(), &null_job(&format!("clocksource={source}")));
        assert_eq!(samples(&r, "clat_ns"), 256, "{source}");
    }
}
