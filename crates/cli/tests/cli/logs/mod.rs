//! The log files (`write_lat_log`, `write_bw_log`, `write_iops_log`, `write_hist_log`,
//! `write_iolog`, `--bandwidth-log`) end to end with the `iomark` binary: exact row counts
//! and windows under the fake clock, percentiles checked against a per-I/O log, fio 3.33's
//! names and columns for the same jobs, fio's own tools reading iomark's logs, and
//! compressed logs (`log_store_compressed`, `--inflate-log`) read by both programs.
//!
//! Every run happens in a temporary directory that the test creates and removes. Tests
//! that need fio, gnuplot or Python's numpy and pandas print `skipped: …` and pass when the
//! program is missing. What the modules share is here.

mod bandwidth;
mod compressed;
mod fio_compare;
mod histogram;
mod iolog;
mod names;
mod plots;
mod rows;

use crate::support::run::{iomark_ok, run_in, tempdir, text};
use crate::support::tools::fio_installed;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Output;

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

/// Runs fio with `args` in `dir` and requires exit code 0.
fn fio_ok(dir: &Path, args: &[&str]) -> Output {
    let out = run_in(dir, "fio", args);
    assert_eq!(out.status.code(), Some(0), "fio {args:?}: {}", text(&out.stderr));
    out
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
    if !fio_installed() {
        return None;
    }
    let (theirs, ours) = (tempdir(), tempdir());
    for d in [&theirs, &ours] {
        std::fs::write(d.path().join("j.fio"), job).expect("job file");
    }
    fio_ok(theirs.path(), &["--output=/dev/null", "j.fio"]);
    iomark_ok(ours.path(), &["--output=/dev/null", "j.fio"], fake);
    Some([shape(theirs.path()), shape(ours.path())])
}
