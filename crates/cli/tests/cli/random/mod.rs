//! fio's random streams end to end: random jobs whose `write_iolog` is fio 3.33's line for
//! line (times aside) across the options that draw (`jobs`), files holding fio's data
//! (`data`), and the counts fio's draws give for mixed jobs. The comparisons with fio print `skipped: fio not installed` and
//! pass when fio is missing; the counts are fio 3.33's, measured, and need no fio.

mod data;
mod jobs;

use crate::support::iolog::without_times;
use crate::support::report::{count, report_json};
use crate::support::run::{iomark_ok, run_in, tempdir, text, IOMARK};
use std::path::Path;

/// The iolog at `dir/name` as its jobs' blocks (each the lines after one `fio version 3
/// iolog` line, without times), sorted: jobs that share an iolog add their blocks in the
/// order they end, which depends on the machine.
fn job_blocks(dir: &Path, name: &str) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(dir.join(name)).unwrap_or_default();
    let mut blocks: Vec<Vec<String>> = Vec::new();
    for line in without_times(&text) {
        if line == "fio version 3 iolog" {
            blocks.push(Vec::new());
        } else if let Some(block) = blocks.last_mut() {
            block.push(line);
        }
    }
    blocks.sort();
    blocks
}

/// Runs `program` with `args` and `--write_iolog=NAME` in `dir`; its exit code.
fn logged(dir: &Path, program: &str, args: &[&str], name: &str) -> Option<i32> {
    let log = format!("--write_iolog={name}");
    let mut all = vec!["--output=/dev/null"];
    all.extend_from_slice(args);
    all.push(&log);
    let out = run_in(dir, program, &all);
    if out.status.code() != Some(0) {
        eprintln!("{program} {all:?}: {}", text(&out.stderr));
    }
    out.status.code()
}

/// The first difference between fio's and iomark's iologs of the job `args`, if any.
fn iolog_difference(args: &[&str]) -> Option<String> {
    let dir = tempdir();
    let codes =
        (logged(dir.path(), "fio", args, "fio.log"), logged(dir.path(), IOMARK, args, "ours.log"));
    if codes != (Some(0), Some(0)) {
        return Some(format!("{args:?}: exit codes (fio, iomark) {codes:?}"));
    }
    let (theirs, ours) = (job_blocks(dir.path(), "fio.log"), job_blocks(dir.path(), "ours.log"));
    if theirs == ours {
        return None;
    }
    let fio: Vec<&str> = theirs.iter().flatten().map(String::as_str).collect();
    let iomark: Vec<&str> = ours.iter().flatten().map(String::as_str).collect();
    let at =
        fio.iter().zip(&iomark).position(|(a, b)| a != b).unwrap_or(fio.len().min(iomark.len()));
    let around = |v: &[&str]| v[at.saturating_sub(1)..(at + 3).min(v.len())].join(" | ");
    Some(format!(
        "{args:?}: line {at} of {} (fio) / {} (iomark): fio {:?}, iomark {:?}",
        fio.len(),
        iomark.len(),
        around(&fio),
        around(&iomark)
    ))
}

/// Every job of `table` (the options after `--name=j --ioengine=null`, separated by
/// spaces) against fio; fails with each difference.
fn check(table: &[&str]) {
    if !crate::support::tools::fio_installed() {
        return;
    }
    let diffs: Vec<String> = table
        .iter()
        .filter_map(|job| {
            let mut args = vec!["--name=j", "--ioengine=null"];
            args.extend(job.split(' '));
            iolog_difference(&args)
        })
        .collect();
    let n = diffs.len();
    assert!(n == 0, "{n} of {} jobs differ from fio 3.33:\n{}", table.len(), diffs.join("\n"));
}

/// The JSON report of iomark's run of `args` in a fresh directory (the real clock).
fn report(args: &[&str]) -> serde_json::Value {
    let dir = tempdir();
    let mut all = vec!["--output-format=json"];
    all.extend_from_slice(args);
    report_json("iomark", &iomark_ok(dir.path(), &all, false))
}

#[test]
fn a_mixed_job_with_a_backlog_writes_fios_bytes() {
    // fio 3.33: a 32 MiB `rw=readwrite` job verifying each write at once (`verify_backlog=1`)
    // writes 16568 KiB: its read/write choices are fio's draws.
    let dir = tempdir();
    let file = format!("--filename={}", dir.path().join("data").display());
    let args = [
        "--name=j",
        "--ioengine=psync",
        "--rw=readwrite",
        "--size=32m",
        "--verify=crc32c",
        "--verify_backlog=1",
        file.as_str(),
    ];
    let mut all = vec!["--output-format=json"];
    all.extend_from_slice(&args);
    let json = report_json("iomark", &iomark_ok(dir.path(), &all, false));
    let job = &json["jobs"][0];
    assert_eq!(count(job, "write", "io_kbytes"), 16568);
    assert_eq!(count(job, "read", "io_kbytes"), 32768);
}

#[test]
fn each_direction_of_a_mixed_job_takes_its_own_sizes() {
    // fio 3.33 `--rw=randrw --bs=4k,8k --size=4m` on the null engine: 222 reads of 4 KiB
    // and 245 writes of 8 KiB.
    let json = report(&["--name=j", "--ioengine=null", "--rw=randrw", "--bs=4k,8k", "--size=4m"]);
    let job = &json["jobs"][0];
    let ios = |d: &str| (count(job, d, "total_ios"), count(job, d, "io_kbytes"));
    assert_eq!(ios("read"), (222, 888));
    assert_eq!(ios("write"), (245, 1960));
}
