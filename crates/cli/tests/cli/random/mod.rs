//! fio's random streams end to end: random jobs whose `write_iolog` is fio 3.33's line for
//! line (times aside) across the options that draw (`jobs`), files holding fio's data
//! (`data`), and the counts fio's draws give for mixed jobs. The comparisons with fio print `skipped: fio not installed` and
//! pass when fio is missing; the counts are fio 3.33's, measured, and need no fio.

mod data;
mod jobs;

use crate::support::iolog::without_times;
use crate::support::report::{count, report_json};
use crate::support::run::{iomark_ok, run_in, tempdir, text, IOMARK};
use std::collections::BTreeMap;
use std::path::Path;

/// The iolog at `dir/name` as the lines of each job (without times), by job: the jobs of a
/// run share the iolog, and each program writes them in turns of its own (fio each job's
/// whole log as it ends, iomark chunks of lines as they fill), so they are told apart by
/// their files' names, `j.JOB.FILE` (a job of one named file is a job of its own).
fn job_lines(dir: &Path, name: &str) -> BTreeMap<String, Vec<String>> {
    let text = std::fs::read_to_string(dir.join(name)).unwrap_or_default();
    let mut jobs: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for line in without_times(&text) {
        if line == "fio version 3 iolog" {
            continue;
        }
        let file = line.split(' ').next().unwrap_or_default();
        let job = match file.rsplit_once('.') {
            Some((job, num)) if file.starts_with("j.") && num.parse::<u32>().is_ok() => job,
            _ => file,
        };
        jobs.entry(job.to_string()).or_default().push(line);
    }
    jobs
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

/// Whether every line of the iolog at `path` is whole: fio's clones write one iolog
/// through buffers of their own, and once in a while two of them cut into each other's
/// lines (fio warns that they may).
fn well_formed(path: &Path) -> bool {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines().all(|line| {
        let fields: Vec<&str> = line.split(' ').collect();
        line == "fio version 3 iolog"
            || (fields.len() >= 3
                && fields[0].parse::<u64>().is_ok()
                && ["add", "open", "close", "read", "write", "trim", "sync", "datasync"]
                    .contains(&fields[2]))
    })
}

/// The first difference between fio's and iomark's iologs of the job `args`, if any.
fn iolog_difference(args: &[&str]) -> Option<String> {
    let dir = tempdir();
    let mut fio = logged(dir.path(), "fio", args, "fio.log");
    for _ in 0..3 {
        if fio != Some(0) || well_formed(&dir.path().join("fio.log")) {
            break;
        }
        std::fs::remove_file(dir.path().join("fio.log")).expect("remove the iolog");
        fio = logged(dir.path(), "fio", args, "fio.log");
    }
    let codes = (fio, logged(dir.path(), IOMARK, args, "ours.log"));
    if codes != (Some(0), Some(0)) {
        return Some(format!("{args:?}: exit codes (fio, iomark) {codes:?}"));
    }
    let (theirs, ours) = (job_lines(dir.path(), "fio.log"), job_lines(dir.path(), "ours.log"));
    if theirs == ours {
        return None;
    }
    let fio: Vec<&str> = theirs.values().flatten().map(String::as_str).collect();
    let iomark: Vec<&str> = ours.values().flatten().map(String::as_str).collect();
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

#[test]
fn a_rated_mixed_job_takes_fios_directions() {
    // fio 3.33 `--rw=randrw --bs=4k --size=1m --rate_iops=200,100 --number_ios=60` on the
    // null engine: the mix draws each direction and the rates correct it, in this order
    // (where fio's sleeps end on time; the fake clock's always do).
    let dir = tempdir();
    let args = [
        "--output=/dev/null",
        "--name=j",
        "--ioengine=null",
        "--rw=randrw",
        "--bs=4k",
        "--size=1m",
        "--rate_iops=200,100",
        "--number_ios=60",
        "--write_iolog=io.log",
    ];
    iomark_ok(dir.path(), &args, true);
    let log = std::fs::read_to_string(dir.path().join("io.log")).expect("the iolog");
    let order: String = crate::support::iolog::data_ios(&log)
        .iter()
        .map(|io| io.action.chars().next().unwrap_or('?'))
        .collect();
    assert_eq!(order, "rwrwrrwrrrwrwrrrwrrwrwrrrwrwrrwrrwrrwrrwrrwrrwrrwrrrwrrwrwrr");
}
