//! `write_iolog`: a line per I/O issued, and the same lines (without their times) as
//! fio 3.33's for a sequential job.

use super::{fio_ok, json, null_job, read, total_ios};
use crate::support::iolog::without_times;
use crate::support::run::{iomark_ok, tempdir};
use crate::support::tools::fio_installed;
use std::path::Path;

/// The iolog's lines without their time stamps.
fn iolog_actions(dir: &Path, name: &str) -> Vec<String> {
    without_times(&read(dir, name))
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
    if !fio_installed() {
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
    fio_ok(dir.path(), &fio_args);
    let mut ours = args.to_vec();
    ours.push("--write_iolog=ours.log");
    iomark_ok(dir.path(), &ours, false);
    let (theirs, ours) =
        (iolog_actions(dir.path(), "fio.log"), iolog_actions(dir.path(), "ours.log"));
    assert_eq!(ours, theirs, "iolog lines (without times) differ from fio 3.33's");
}
