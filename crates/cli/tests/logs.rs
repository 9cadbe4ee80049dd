//! The log files (`write_lat_log`, `write_bw_log`, `write_iops_log`, `write_hist_log`,
//! `write_iolog`) end to end with the `iomark` binary: exact row counts and windows under
//! the fake clock, percentiles checked against a per-I/O log, fio 3.33's names and columns
//! for the same jobs, and fio's own tools reading iomark's logs.
//!
//! Every run happens in a temporary directory that the test creates and removes. Tests
//! that need fio, gnuplot or Python's numpy and pandas print `skipped: …` and pass when the
//! program is missing.

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

// ---------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------

/// Runs `iomark` with `args` in `dir`, under the fake clock (1 µs per read) when `fake`.
fn iomark_in(dir: &Path, args: &[&str], fake: bool) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_iomark"));
    cmd.current_dir(dir).args(args).stdin(Stdio::null()).env_remove("IOMARK_FAKE_CLOCK_NS");
    if fake {
        cmd.env("IOMARK_FAKE_CLOCK_NS", "1000");
    }
    cmd.output().expect("run iomark")
}

/// Runs iomark and requires success.
fn iomark_ok(dir: &Path, args: &[&str], fake: bool) -> Output {
    let out = iomark_in(dir, args, fake);
    assert_eq!(out.status.code(), Some(0), "iomark {args:?}: {}", text(&out.stderr));
    out
}

/// Whether `program` runs (`--version` or the given probe arguments succeed); prints the
/// skip message when it does not.
fn have(program: &str, probe: &[&str]) -> bool {
    let ok = Command::new(program)
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

fn fio_in(dir: &Path, args: &[&str]) -> Output {
    let out = Command::new("fio")
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run fio");
    assert_eq!(out.status.code(), Some(0), "fio {args:?}: {}", text(&out.stderr));
    out
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn tempdir() -> tempfile::TempDir {
    tempfile::tempdir().expect("temporary directory")
}

fn read(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The rows of a log, each split at `, `.
fn rows(dir: &Path, name: &str) -> Vec<Vec<String>> {
    read(dir, name).lines().map(|l| l.split(", ").map(str::to_string).collect()).collect()
}

/// One row of a latency, bandwidth or IOPS log, as numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Row {
    time: u64,
    value: u64,
    dir: u8,
    bs: u64,
}

fn parse_rows(dir: &Path, name: &str) -> Vec<Row> {
    rows(dir, name)
        .iter()
        .map(|r| {
            let n = |i: usize| r[i].parse::<u64>().unwrap_or_else(|e| panic!("{name}: {r:?}: {e}"));
            Row { time: n(0), value: n(1), dir: n(2) as u8, bs: n(3) }
        })
        .collect()
}

/// The names of the files in `dir` that end in `.log`, sorted.
fn logs_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("read dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".log"))
        .collect();
    names.sort();
    names
}

fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not one JSON document ({e}):\n{}", text(&out.stdout)))
}

/// `total_ios` of each direction of the first job.
fn total_ios(report: &Value) -> [u64; 3] {
    ["read", "write", "trim"].map(|d| report["jobs"][0][d]["total_ios"].as_u64().unwrap_or(0))
}

/// The null-engine job of most tests: `number_ios` I/Os, mixed, with the extra options.
fn null_job<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "--output-format=json",
        "--name=j",
        "--ioengine=null",
        "--size=1g",
        "--bs=4k",
        "--rw=randrw",
    ];
    args.extend_from_slice(extra);
    args
}

// ---------------------------------------------------------------------------------------
// Rows and columns under the fake clock
// ---------------------------------------------------------------------------------------

#[test]
fn a_per_io_log_has_a_row_per_io() {
    let dir = tempdir();
    let args = null_job(&[
        "--number_ios=3000",
        "--write_lat_log=foo",
        "--write_bw_log=foo",
        "--write_iops_log=foo",
    ]);
    let report = json(&iomark_ok(dir.path(), &args, true));
    let ios = total_ios(&report);
    assert_eq!(ios.iter().sum::<u64>(), 3000);
    assert_eq!(
        logs_in(dir.path()),
        ["foo_bw.1.log", "foo_clat.1.log", "foo_iops.1.log", "foo_lat.1.log", "foo_slat.1.log"]
    );
    // The null engine completes I/Os at once: no submission latency, an empty slat log.
    assert_eq!(read(dir.path(), "foo_slat.1.log"), "");
    for name in ["foo_clat.1.log", "foo_lat.1.log", "foo_bw.1.log", "foo_iops.1.log"] {
        let r = parse_rows(dir.path(), name);
        for (d, &want) in ios.iter().enumerate() {
            let n = r.iter().filter(|r| r.dir == d as u8).count() as u64;
            assert_eq!(n, want, "{name}: rows of direction {d}");
        }
        assert!(r.iter().all(|r| r.bs == 4096), "{name}");
        assert!(r.windows(2).all(|w| w[0].time <= w[1].time), "{name}: times go back");
        assert!(rows(dir.path(), name).iter().all(|r| r.len() == 5 && r[4] == "0"), "{name}");
    }
    let clat = parse_rows(dir.path(), "foo_clat.1.log");
    let bw = parse_rows(dir.path(), "foo_bw.1.log");
    for (c, b) in clat.iter().zip(&bw) {
        assert_eq!(b.value, 4096 * 1_000_000 / c.value, "per-I/O bandwidth, fio 3.33's way");
    }
    assert!(parse_rows(dir.path(), "foo_iops.1.log").iter().all(|r| r.value == 1));
    // The JSON's clat N is the number of rows.
    assert_eq!(report["jobs"][0]["read"]["clat_ns"]["N"].as_u64(), Some(ios[0]));
}

#[test]
fn offset_and_priority_columns_follow_the_options() {
    let dir = tempdir();
    let args = null_job(&["--number_ios=200", "--write_lat_log=a", "--log_offset=1"]);
    let report = json(&iomark_ok(dir.path(), &args, true));
    let r = rows(dir.path(), "a_clat.1.log");
    assert_eq!(r.len() as u64, total_ios(&report).iter().sum::<u64>());
    assert!(r.iter().all(|r| r.len() == 6 && r[5] == "0"));
    // Offsets are block-aligned offsets inside the 1 GiB file.
    assert!(r.iter().all(|r| r[4].parse::<u64>().is_ok_and(|o| o % 4096 == 0 && o < 1 << 30)));

    let dir = tempdir();
    let args = null_job(&["--number_ios=200", "--write_lat_log=a", "--log_prio=1"]);
    iomark_ok(dir.path(), &args, true);
    assert!(rows(dir.path(), "a_lat.1.log").iter().all(|r| r.len() == 5 && r[4] == "0x0000"));

    let dir = tempdir();
    let args =
        null_job(&["--number_ios=9", "--write_iops_log=a", "--log_offset=1", "--log_prio=1"]);
    iomark_ok(dir.path(), &args, true);
    assert!(rows(dir.path(), "a_iops.1.log").iter().all(|r| r.len() == 6 && r[5] == "0x0000"));
}

/// What iomark's windowed latency log should hold, worked out from a per-I/O log of the
/// same run (the fake clock makes both runs do the same I/O at the same times).
fn expected_windows(per_io: &[Row], window: u64, max: bool) -> Vec<Row> {
    let mut out = Vec::new();
    let mut end = window;
    let mut acc: BTreeMap<u8, Vec<u64>> = BTreeMap::new();
    let flush = |acc: &mut BTreeMap<u8, Vec<u64>>, time: u64, out: &mut Vec<Row>| {
        for (&dir, values) in acc.iter() {
            let value = if max {
                *values.iter().max().expect("values")
            } else {
                values.iter().sum::<u64>() / values.len() as u64
            };
            out.push(Row { time, value, dir, bs: 0 });
        }
        acc.clear();
    };
    for r in per_io {
        if r.time >= end {
            flush(&mut acc, r.time, &mut out);
            end = (r.time / window + 1) * window;
        }
        acc.entry(r.dir).or_default().push(r.value);
    }
    let last = per_io.last().map_or(0, |r| r.time);
    flush(&mut acc, last, &mut out);
    out
}

/// The same for the bandwidth and IOPS logs: a sample at the first I/O at or after each
/// window's end, over the time since the previous sample, per direction that moved.
fn expected_rates(per_io: &[Row], window: u64) -> (Vec<Row>, Vec<Row>) {
    let (mut bw, mut iops) = (Vec::new(), Vec::new());
    let (mut due, mut last) = (window, 0);
    let mut moved: BTreeMap<u8, (u64, u64)> = BTreeMap::new();
    for r in per_io {
        let m = moved.entry(r.dir).or_default();
        m.0 += r.bs;
        m.1 += 1;
        if r.time >= due {
            let spent = r.time - last;
            for (&dir, &(bytes, ios)) in &moved {
                let rate =
                    |x: u64, scale: u64| (x * 1000).checked_div(spent).map_or(0, |r| r / scale);
                bw.push(Row { time: r.time, value: rate(bytes, 1024), dir, bs: 0 });
                iops.push(Row { time: r.time, value: rate(ios, 1), dir, bs: 0 });
            }
            moved.clear();
            last = r.time;
            due = (r.time / window + 1) * window;
        }
    }
    bw.sort_by_key(|r| (r.time, r.dir));
    iops.sort_by_key(|r| (r.time, r.dir));
    (bw, iops)
}

#[test]
fn windowed_logs_have_the_right_windows() {
    // Sampled at the millisecond ends of the fake clock: the per-I/O times are then exact
    // enough to predict every window.
    let per_io = tempdir();
    let args = null_job(&["--number_ios=20000", "--write_lat_log=p", "--write_bw_log=p"]);
    iomark_ok(per_io.path(), &args, true);
    let clat = parse_rows(per_io.path(), "p_clat.1.log");
    let lat = parse_rows(per_io.path(), "p_lat.1.log");
    let bw_rows = parse_rows(per_io.path(), "p_bw.1.log");
    for (window, max) in [(5, false), (7, true)] {
        let dir = tempdir();
        let w = format!("--log_avg_msec={window}");
        let mut args = null_job(&[
            "--number_ios=20000",
            "--write_lat_log=w",
            "--write_bw_log=w",
            "--write_iops_log=w",
            &w,
        ]);
        if max {
            args.push("--log_max_value=1");
        }
        iomark_ok(dir.path(), &args, true);
        let got = parse_rows(dir.path(), "w_clat.1.log");
        let want = expected_windows(&clat, window, max);
        assert!(want.len() > 10, "the run spans {} windows only", want.len());
        assert_eq!(got, want, "clat windows of {window} ms");
        assert_eq!(parse_rows(dir.path(), "w_lat.1.log"), expected_windows(&lat, window, max));
        let (bw, iops) = expected_rates(&bw_rows, window);
        assert_eq!(parse_rows(dir.path(), "w_bw.1.log"), bw, "bw windows of {window} ms");
        assert_eq!(parse_rows(dir.path(), "w_iops.1.log"), iops, "iops windows of {window} ms");
        assert!(rows(dir.path(), "w_clat.1.log").iter().all(|r| r.len() == 5 && r[3] == "0"));
    }
}

#[test]
fn ramp_time_ios_are_not_logged() {
    let dir = tempdir();
    let args = null_job(&[
        "--time_based",
        "--runtime=20ms",
        "--ramp_time=10ms",
        "--write_lat_log=r",
        "--write_hist_log=r",
        "--log_hist_msec=5",
    ]);
    let report = json(&iomark_ok(dir.path(), &args, true));
    let ios = total_ios(&report);
    let clat = parse_rows(dir.path(), "r_clat.1.log");
    assert_eq!(clat.len() as u64, ios[0] + ios[1]);
    // Times count from the end of the ramp.
    assert_eq!(clat.first().map(|r| r.time), Some(0));
    assert!(clat.last().is_some_and(|r| r.time <= 20));
    // Dense I/O closes a histogram window at each multiple of 5 ms.
    let hist = rows(dir.path(), "r_clat_hist.1.log");
    let last = clat.last().map_or(0, |r| r.time);
    assert_eq!(hist.len() as u64, 2 * (last / 5), "two directions, a row each per window");
}

// ---------------------------------------------------------------------------------------
// Histogram log
// ---------------------------------------------------------------------------------------

/// Runs a job with a histogram log (and a per-I/O clat log) under the fake clock.
fn hist_run(dir: &Path, extra: &[&str]) -> (Vec<Vec<String>>, Vec<Row>) {
    let mut args = null_job(&[
        "--number_ios=20000",
        "--write_hist_log=h",
        "--write_lat_log=h",
        "--log_hist_msec=10",
    ]);
    args.extend_from_slice(extra);
    iomark_ok(dir, &args, true);
    (rows(dir, "h_clat_hist.1.log"), parse_rows(dir, "h_clat.1.log"))
}

#[test]
fn the_histogram_log_counts_each_window() {
    let dir = tempdir();
    let (hist, clat) = hist_run(dir.path(), &[]);
    assert!(hist.len() >= 6, "{} rows", hist.len());
    assert!(hist.iter().all(|r| r.len() == 3 + 1856), "fio 3.33's 1856 bins");
    // Each window closes at the first completion at least 10 ms after the previous
    // close, and holds the I/Os up to that one; one row per direction.
    let mut start = 0;
    let mut counted = [0u64; 2];
    let mut expected: Vec<(u64, u8, u64)> = Vec::new();
    for r in &clat {
        counted[r.dir as usize] += 1;
        if r.time - start >= 10 {
            expected.push((r.time, 0, counted[0]));
            expected.push((r.time, 1, counted[1]));
            counted = [0, 0];
            start = r.time;
        }
    }
    let got: Vec<(u64, u8, u64)> = hist
        .iter()
        .map(|r| {
            let n: Vec<u64> = r.iter().map(|x| x.parse().expect("number")).collect();
            (n[0], n[1] as u8, n[3..].iter().sum())
        })
        .collect();
    assert_eq!(got, expected);
}

#[test]
fn histogram_coarseness_divides_the_bins() {
    for (c, bins) in [(1, 928), (6, 29), (7, 15)] {
        let dir = tempdir();
        let flag = format!("--log_hist_coarseness={c}");
        let (hist, _) = hist_run(dir.path(), &[&flag]);
        assert!(!hist.is_empty());
        assert!(hist.iter().all(|r| r.len() == 3 + bins), "coarseness {c}");
    }
}

/// A Python with numpy and pandas for fiologparser_hist.py: `python3`, else Debian's.
fn python_with_pandas() -> Option<&'static str> {
    ["python3", "/usr/bin/python3"].into_iter().find(|p| {
        Command::new(p)
            .args(["-c", "import numpy, pandas"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    })
}

/// Unpacks one of Debian's fio tools from /usr/share/doc/fio into `dir`.
fn fio_tool(dir: &Path, name: &str) -> Option<PathBuf> {
    let gz = Path::new("/usr/share/doc/fio").join(format!("{name}.gz"));
    if !gz.exists() {
        eprintln!("skipped: {} not found", gz.display());
        return None;
    }
    let out = Command::new("gunzip").arg("-c").arg(&gz).output().ok()?;
    if !out.status.success() {
        eprintln!("skipped: gunzip failed on {}", gz.display());
        return None;
    }
    let path = dir.join(name);
    std::fs::write(&path, out.stdout).expect("write tool");
    Some(path)
}

#[test]
fn fiologparser_hist_reads_iomarks_histogram_log() {
    let dir = tempdir();
    let Some(tool) = fio_tool(dir.path(), "fiologparser_hist.py") else { return };
    let Some(python) = python_with_pandas() else {
        eprintln!("skipped: no python3 with numpy and pandas for fiologparser_hist.py");
        return;
    };
    let (hist, clat) = hist_run(dir.path(), &[]);
    let out = Command::new(python)
        .current_dir(dir.path())
        .arg(&tool)
        .args(["-i", "5", "h_clat_hist.1.log"])
        .output()
        .expect("run fiologparser_hist.py");
    assert!(out.status.success(), "fiologparser_hist.py: {}", text(&out.stderr));
    let report = text(&out.stdout);
    let lines: Vec<&str> = report.lines().collect();
    assert_eq!(lines[0], "end-time, samples, min, avg, median, 90%, 95%, 99%, max");
    // Its sample counts add up to the I/Os of the logged windows (it spreads a window over
    // the intervals it overlaps, so only the total is exact up to rounding).
    let logged: u64 = hist
        .iter()
        .map(|r| r[3..].iter().map(|x| x.parse::<u64>().expect("bin")).sum::<u64>())
        .sum();
    let samples: f64 = lines[1..]
        .iter()
        .map(|l| l.split(", ").nth(1).expect("samples").trim().parse::<f64>().expect("number"))
        .sum();
    assert!(logged > 0 && logged <= clat.len() as u64);
    assert!((samples - logged as f64).abs() <= lines.len() as f64, "{samples} vs {logged}");
}

#[test]
fn fio_histo_log_pctiles_reads_iomarks_histogram_log() {
    let dir = tempdir();
    let Some(tool) = fio_tool(dir.path(), "fio-histo-log-pctiles.py") else { return };
    if !have("python3", &["--version"]) {
        return;
    }
    hist_run(dir.path(), &[]);
    let out = Command::new("python3")
        .current_dir(dir.path())
        .arg(&tool)
        .arg("h_clat_hist.1.log")
        .output()
        .expect("run fio-histo-log-pctiles.py");
    assert!(out.status.success(), "fio-histo-log-pctiles.py: {}", text(&out.stderr));
    assert!(text(&out.stdout).contains("buckets per interval = 1856"), "{}", text(&out.stdout));
}

// ---------------------------------------------------------------------------------------
// Names, sharing and errors
// ---------------------------------------------------------------------------------------

/// Two jobs, the first with two clones, logging with and without a value.
const THREE_JOBS: &str = "[global]
ioengine=null
size=1m
bs=4k
number_ios=40
write_lat_log=foo
write_bw_log
write_iops_log
[a]
numjobs=2
rw=randrw
[b]
rw=write
";

#[test]
fn logs_are_named_by_job_number_and_option_value() {
    let dir = tempdir();
    std::fs::write(dir.path().join("j.fio"), THREE_JOBS).expect("job file");
    iomark_ok(dir.path(), &["--output=/dev/null", "j.fio"], true);
    let mut expected: Vec<String> = Vec::new();
    for (job, n) in [("a", 1), ("a", 2), ("b", 3)] {
        expected.extend(["bw", "iops"].map(|k| format!("{job}_{k}.{n}.log")));
        expected.extend(["clat", "lat", "slat"].map(|k| format!("foo_{k}.{n}.log")));
    }
    expected.sort();
    assert_eq!(logs_in(dir.path()), expected);
    for n in 1..=3 {
        assert_eq!(rows(dir.path(), &format!("foo_clat.{n}.log")).len(), 40);
    }
}

#[test]
fn per_job_logs_0_shares_one_file_and_appends() {
    let dir = tempdir();
    let job = format!("[global]\nper_job_logs=0\n{}", &THREE_JOBS["[global]\n".len()..]);
    std::fs::write(dir.path().join("j.fio"), job).expect("job file");
    iomark_ok(dir.path(), &["--output=/dev/null", "j.fio"], true);
    let expected = ["a_bw.log", "a_iops.log", "b_bw.log", "b_iops.log"]
        .into_iter()
        .chain(["foo_clat.log", "foo_lat.log", "foo_slat.log"])
        .map(str::to_string)
        .collect::<Vec<_>>();
    assert_eq!(logs_in(dir.path()), expected);
    assert_eq!(rows(dir.path(), "foo_clat.log").len(), 120);
    assert_eq!(rows(dir.path(), "a_bw.log").len(), 80);
    // fio 3.33 opens shared logs for appending: a second run adds to them.
    iomark_ok(dir.path(), &["--output=/dev/null", "j.fio"], true);
    assert_eq!(rows(dir.path(), "foo_clat.log").len(), 240);
}

#[test]
fn per_job_logs_are_replaced_by_the_next_run() {
    let dir = tempdir();
    let args = null_job(&["--number_ios=30", "--write_iops_log=x"]);
    iomark_ok(dir.path(), &args, true);
    iomark_ok(dir.path(), &args, true);
    assert_eq!(rows(dir.path(), "x_iops.1.log").len(), 30);
}

#[test]
fn bad_log_options_are_refused() {
    let dir = tempdir();
    // A log in a directory that does not exist: the job fails (fio 3.33 only prints
    // "fopen log" and goes on).
    let out = iomark_in(dir.path(), &null_job(&["--number_ios=3", "--write_bw_log=no/x"]), true);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("no/x_bw.1.log"), "{}", text(&out.stderr));
    // An empty value, as fio: "option write_bw_log requires an argument".
    let out = iomark_in(dir.path(), &null_job(&["--write_bw_log="]), true);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("write_bw_log"), "{}", text(&out.stderr));
    // write_iolog needs a value even in a job file; the other log options do not.
    std::fs::write(dir.path().join("j.fio"), "[j]\nioengine=null\nsize=1m\nwrite_iolog\n")
        .expect("job file");
    let out = iomark_in(dir.path(), &["j.fio"], true);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("write_iolog"), "{}", text(&out.stderr));
    // Options fio 3.33 does not know are unknown, as in fio.
    for option in ["--log_window_value=1", "--log_issue_time=1"] {
        let out = iomark_in(dir.path(), &null_job(&[option]), true);
        assert_eq!(out.status.code(), Some(2), "{option}: {}", text(&out.stderr));
    }
    // Compressed logs are refused, with the reason, never ignored.
    let out = iomark_in(dir.path(), &null_job(&["--log_store_compressed=1"]), true);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("is not supported: compressed log"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn log_unix_epoch_stamps_rows_with_the_time_of_day() {
    let dir = tempdir();
    let before = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("clock")
        .as_millis() as u64;
    let args = null_job(&["--number_ios=500", "--write_lat_log=e", "--log_unix_epoch=1"]);
    iomark_ok(dir.path(), &args, false);
    let after = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("clock")
        .as_millis() as u64;
    let r = parse_rows(dir.path(), "e_clat.1.log");
    assert_eq!(r.len(), 500);
    assert!(r.iter().all(|r| (before..=after).contains(&r.time)), "{before}..{after}: {r:?}");
}

#[test]
fn log_alternate_epoch_counts_from_the_clocks_epoch_as_fio() {
    // CLOCK_MONOTONIC (1) and CLOCK_BOOTTIME (7), with either option, as fio 3.33 reads them.
    let fio = have("fio", &["--version"]);
    for (flag, id) in [("--log_alternate_epoch=1", 1), ("--log_unix_epoch=1", 7)] {
        let clock = format!("--log_alternate_epoch_clock_id={id}");
        let args = null_job(&["--number_ios=500", "--write_lat_log=e", flag, &clock]);
        let mut programs = vec!["iomark"];
        if fio {
            programs.push("fio");
        }
        for program in programs {
            let dir = tempdir();
            let before = iomark_engine::system::clock_ms(id).expect("the clock");
            if program == "fio" {
                fio_in(dir.path(), &args);
            } else {
                iomark_ok(dir.path(), &args, false);
            }
            let after = iomark_engine::system::clock_ms(id).expect("the clock");
            let r = parse_rows(dir.path(), "e_clat.1.log");
            assert_eq!(r.len(), 500, "{program}");
            assert!(
                r.iter().all(|r| (before..=after).contains(&r.time)),
                "{program} {flag} {id}: {before}..{after}: {:?}",
                &r[..3]
            );
        }
    }
    // A clock the system does not have is refused (fio 3.33 logs garbage).
    let dir = tempdir();
    let args = null_job(&["--log_alternate_epoch=1", "--log_alternate_epoch_clock_id=99"]);
    let out = iomark_in(dir.path(), &args, false);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("option 'log_alternate_epoch_clock_id'"));
}

// ---------------------------------------------------------------------------------------
// write_iolog
// ---------------------------------------------------------------------------------------

/// The iolog's lines without their time stamps.
fn iolog_actions(dir: &Path, name: &str) -> Vec<String> {
    read(dir, name)
        .lines()
        .map(|l| match l.split_once(' ') {
            Some((t, rest)) if t.parse::<u64>().is_ok() => rest.to_string(),
            _ => l.to_string(),
        })
        .collect()
}

#[test]
fn the_iolog_has_a_line_per_io_issued() {
    let dir = tempdir();
    let args = null_job(&["--number_ios=1000", "--write_iolog=io.log", "--log_entries=1024"]);
    let report = json(&iomark_ok(dir.path(), &args, true));
    let lines = iolog_actions(dir.path(), "io.log");
    assert_eq!(lines[..3], ["fio version 3 iolog", "j.0.0 add", "j.0.0 open"]);
    assert_eq!(lines.last().map(String::as_str), Some("j.0.0 close"));
    let ios = total_ios(&report);
    let count = |action: &str| lines.iter().filter(|l| l.contains(action)).count() as u64;
    assert_eq!((count(" read "), count(" write ")), (ios[0], ios[1]));
    assert_eq!(lines.len() as u64, 4 + ios[0] + ios[1]);
    // Time stamps in microseconds never go back.
    let times: Vec<u64> = read(dir.path(), "io.log")
        .lines()
        .skip(1)
        .map(|l| l.split(' ').next().and_then(|t| t.parse().ok()).expect("time"))
        .collect();
    assert!(times.windows(2).all(|w| w[0] <= w[1]));
}

#[test]
fn the_iolog_matches_fios_for_a_sequential_job() {
    if !have("fio", &["--version"]) {
        return;
    }
    let dir = tempdir();
    let data = dir.path().join("data");
    let file = format!("--filename={}", data.display());
    let args = [
        "--output=/dev/null",
        "--name=j",
        "--ioengine=psync",
        file.as_str(),
        "--size=64k",
        "--bs=4k",
        "--rw=write",
        // Not a divisor of the 16 writes: fio 3.33 issues no sync after the last write,
        // where iomark does (a difference of the runner, not of the log).
        "--fsync=3",
    ];
    let mut fio_args = args.to_vec();
    fio_args.push("--write_iolog=fio.log");
    fio_in(dir.path(), &fio_args);
    let mut ours = args.to_vec();
    ours.push("--write_iolog=ours.log");
    iomark_ok(dir.path(), &ours, false);
    let (theirs, ours) =
        (iolog_actions(dir.path(), "fio.log"), iolog_actions(dir.path(), "ours.log"));
    assert_eq!(ours, theirs, "iolog lines (without times) differ from fio 3.33's");
}

// ---------------------------------------------------------------------------------------
// Against fio 3.33: the same jobs, the same files, rows and columns
// ---------------------------------------------------------------------------------------

/// Each log file's row count and the column counts its rows have.
type Shape = BTreeMap<String, (usize, Vec<usize>)>;

/// The [`Shape`] of the logs in `dir`.
fn shape(dir: &Path) -> Shape {
    logs_in(dir)
        .into_iter()
        .map(|name| {
            let r = rows(dir, &name);
            let mut columns: Vec<usize> = r.iter().map(Vec::len).collect();
            columns.sort_unstable();
            columns.dedup();
            (name, (r.len(), columns))
        })
        .collect()
}

/// Runs the job file `job` with fio and with iomark, each in its own directory, and
/// returns the shapes of their logs.
fn both(job: &str, fake: bool) -> Option<[Shape; 2]> {
    if !have("fio", &["--version"]) {
        return None;
    }
    let (theirs, ours) = (tempdir(), tempdir());
    for d in [&theirs, &ours] {
        std::fs::write(d.path().join("j.fio"), job).expect("job file");
    }
    fio_in(theirs.path(), &["--output=/dev/null", "j.fio"]);
    iomark_ok(ours.path(), &["--output=/dev/null", "j.fio"], fake);
    Some([shape(theirs.path()), shape(ours.path())])
}

#[test]
fn per_io_logs_match_fio_in_names_rows_and_columns() {
    let Some([theirs, ours]) = both(THREE_JOBS, true) else { return };
    assert_eq!(ours, theirs);
    let shared = format!("[global]\nper_job_logs=0\nlog_offset=1\n{}", &THREE_JOBS[9..]);
    let Some([theirs, ours]) = both(&shared, true) else { return };
    assert_eq!(ours, theirs);
    let prio = format!("[global]\nlog_prio=1\n{}", &THREE_JOBS[9..]);
    let Some([theirs, ours]) = both(&prio, true) else { return };
    assert_eq!(ours, theirs);
}

#[test]
fn windowed_and_histogram_logs_match_fio_in_names_and_columns() {
    let job = "[global]
ioengine=null
size=1g
bs=4k
time_based
runtime=450ms
write_lat_log=w
write_bw_log=w
write_iops_log=w
write_hist_log=w
log_avg_msec=100
log_hist_msec=100
[r]
rw=randread
[m]
rw=randrw
log_hist_coarseness=3
";
    let Some([theirs, ours]) = both(job, false) else { return };
    let names = |m: &Shape| m.keys().cloned().collect::<Vec<_>>();
    assert_eq!(names(&ours), names(&theirs));
    for (name, (rows, columns)) in &theirs {
        let (our_rows, our_columns) = &ours[name];
        assert_eq!(our_columns, columns, "{name}: columns");
        // Row counts depend on timing: both have rows, or both none (the slat logs).
        assert_eq!(*our_rows == 0, *rows == 0, "{name}: {our_rows} rows, fio {rows}");
    }
}

// ---------------------------------------------------------------------------------------
// Percentiles against the exact values of a per-I/O log
// ---------------------------------------------------------------------------------------

#[test]
fn reported_percentiles_are_within_the_histogram_bound_of_the_logged_latencies() {
    let dir = tempdir();
    let data = dir.path().join("data");
    let file = format!("--filename={}", data.display());
    let args = [
        "--output-format=json",
        "--name=p",
        "--ioengine=psync",
        file.as_str(),
        "--size=8m",
        "--bs=4k",
        "--rw=randread",
        "--number_ios=4000",
        "--write_lat_log=p",
        "--percentile_list=1:10:25:50:75:90:99:99.9:100",
    ];
    let report = json(&iomark_ok(dir.path(), &args, false));
    let mut clat: Vec<u64> =
        parse_rows(dir.path(), "p_clat.1.log").iter().map(|r| r.value).collect();
    assert_eq!(clat.len(), 2048, "8 MiB of 4 KiB reads, each block once");
    clat.sort_unstable();
    let n = clat.len() as u64;
    let reported = report["jobs"][0]["read"]["clat_ns"]["percentile"]
        .as_object()
        .expect("clat percentiles")
        .clone();
    assert_eq!(reported.len(), 9);
    for (p, value) in reported {
        let p: f64 = p.parse().expect("percentile");
        let got = value.as_u64().expect("value");
        // fio's rank (and iomark's): the smallest value whose rank reaches p% of N, the
        // log holding each latency exactly, in ns (fio 3.33's unit for latency logs).
        let rank = ((p / 100.0 * n as f64).ceil() as u64).clamp(1, n);
        let exact = clat[rank as usize - 1];
        // hist.rs: |reported − exact| ≤ exact / 1024, and exact below 1024 ns.
        let bound = exact as f64 / 1024.0;
        assert!(
            (got as f64 - exact as f64).abs() <= bound,
            "p{p}: reported {got}, exact {exact} (rank {rank} of {n})"
        );
    }
}

// ---------------------------------------------------------------------------------------
// fio's plotting tools on iomark's logs
// ---------------------------------------------------------------------------------------

/// A windowed run of every log, under the fake clock.
fn plot_run(dir: &Path) {
    let args = null_job(&[
        "--number_ios=20000",
        "--write_lat_log=plot",
        "--write_bw_log=plot",
        "--write_iops_log=plot",
        "--log_avg_msec=2",
    ]);
    iomark_ok(dir, &args, true);
}

#[test]
fn fio_generate_plots_draws_iomarks_logs() {
    if !have("gnuplot", &["--version"]) || !have("sh", &["-c", "command -v fio_generate_plots"]) {
        return;
    }
    let dir = tempdir();
    plot_run(dir.path());
    let out = Command::new("fio_generate_plots")
        .current_dir(dir.path())
        .arg("iomark")
        .output()
        .expect("run fio_generate_plots");
    assert!(out.status.success(), "fio_generate_plots: {}", text(&out.stderr));
    for kind in ["bw", "iops", "lat", "clat"] {
        let svg = dir.path().join(format!("iomark-{kind}.svg"));
        let size = std::fs::metadata(&svg).map(|m| m.len()).unwrap_or(0);
        assert!(size > 1000, "{}: {size} bytes", svg.display());
    }
}

#[test]
fn fio2gnuplot_draws_iomarks_logs() {
    if !have("gnuplot", &["--version"]) || !have("sh", &["-c", "command -v fio2gnuplot"]) {
        return;
    }
    let dir = tempdir();
    plot_run(dir.path());
    for flag in ["-b", "-i"] {
        let out = Command::new("fio2gnuplot")
            .current_dir(dir.path())
            .args([flag, "-g"])
            .output()
            .expect("run fio2gnuplot");
        assert!(out.status.success(), "fio2gnuplot {flag}: {}", text(&out.stderr));
    }
    let pngs = std::fs::read_dir(dir.path())
        .expect("read dir")
        .filter(|e| {
            let e = e.as_ref().expect("entry");
            e.file_name().to_string_lossy().ends_with(".png")
                && e.metadata().is_ok_and(|m| m.len() > 1000)
        })
        .count();
    assert!(pngs >= 6, "{pngs} plots");
}

// ---------------------------------------------------------------------------------------
// --bandwidth-log
// ---------------------------------------------------------------------------------------

const AGG: [&str; 3] = ["agg-read_bw.log", "agg-trim_bw.log", "agg-write_bw.log"];

/// A one-second read job with `--bandwidth-log` and the ETA line as `eta` says.
fn agg_args(eta: &str) -> Vec<&str> {
    vec![
        "--bandwidth-log",
        eta,
        "--eta-interval=250ms",
        "--output=/dev/null",
        "--name=j",
        "--ioengine=null",
        "--size=1g",
        "--rw=read",
        "--time_based",
        "--runtime=1s",
    ]
}

#[test]
fn the_bandwidth_log_samples_all_jobs_while_the_eta_line_runs() {
    let dir = tempdir();
    iomark_ok(dir.path(), &agg_args("--eta=always"), false);
    assert_eq!(logs_in(dir.path()), AGG);
    let read = parse_rows(dir.path(), "agg-read_bw.log");
    assert!(read.len() >= 2, "{read:?}");
    assert!(read.iter().all(|r| r.dir == 0 && r.value > 0 && r.bs == 0));
    assert!(read.windows(2).all(|w| w[0].time < w[1].time));
    for (name, d) in [("agg-write_bw.log", 1), ("agg-trim_bw.log", 2)] {
        let rows = parse_rows(dir.path(), name);
        assert_eq!(rows.len(), read.len(), "{name}");
        assert!(rows.iter().all(|r| r.dir == d && r.value == 0), "{name}");
    }
    assert!(rows(dir.path(), "agg-read_bw.log").iter().all(|r| r.len() == 5));
}

#[test]
fn the_bandwidth_log_stays_empty_without_the_eta_line_as_in_fio() {
    let dir = tempdir();
    iomark_ok(dir.path(), &agg_args("--eta=never"), false);
    assert_eq!(logs_in(dir.path()), AGG);
    for name in AGG {
        assert_eq!(read(dir.path(), name), "", "{name}");
    }
}

#[test]
fn the_bandwidth_log_matches_fios_files_and_columns() {
    if !have("fio", &["--version"]) {
        return;
    }
    let (theirs, ours) = (tempdir(), tempdir());
    let args = agg_args("--eta=always");
    fio_in(theirs.path(), &args);
    iomark_ok(ours.path(), &args, false);
    let (theirs, ours) = (shape(theirs.path()), shape(ours.path()));
    assert_eq!(ours.keys().collect::<Vec<_>>(), theirs.keys().collect::<Vec<_>>());
    for (name, (rows, columns)) in &theirs {
        assert_eq!(&ours[name].1, columns, "{name}");
        assert!(*rows > 0 && ours[name].0 > 0, "{name}");
    }
}
