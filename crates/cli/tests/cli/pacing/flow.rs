//! Flow control between jobs (`flow`, `flow_id`, `flow_sleep`), exactly: a job held at its
//! weight's share while the others of its flow issue nothing, a job that ends leaving the
//! flow to the others, and the counts of fio 3.33 for the same jobs.
//!
//! How close two jobs that run side by side keep to their weights depends on how the
//! machine schedules their threads; `bench/run --checks` prints that ratio for iomark and
//! fio. The rule behind it is checked exactly by the runner's unit tests. Each run is made
//! twice, with the jobs as threads and as job processes, for the same counts.

use crate::support::process::fifo;
use crate::support::report::{count, report_json};
use crate::support::run::{iomark_in, run_in, tempdir, text, IOMARK};
use crate::support::tools::fio_installed;
use serde_json::Value;
use std::path::Path;

/// A null reader of flow 1 with `extra` options.
fn flow_job(name: &str, extra: &[&str]) -> Vec<String> {
    let job = [&format!("--name={name}")[..], "--ioengine=null", "--rw=randread", "--size=1g"];
    job.iter().chain(["--flow_id=1"].iter()).chain(extra).map(|s| s.to_string()).collect()
}

/// The reads of each job of the run of `args` in `dir`, under the fake clock, the same
/// with the jobs as threads and in processes of their own (their flow counters in memory
/// the processes share).
fn reads(dir: &Path, args: &[String]) -> Vec<u64> {
    let run = |model: &str| -> Vec<u64> {
        let mut all = vec!["--output-format=json", model];
        all.extend(args.iter().map(String::as_str));
        let out = iomark_in(dir, &all, true);
        assert_eq!(out.status.code(), Some(0), "{model} {args:?}: {}", text(&out.stderr));
        let doc: Value = serde_json::from_slice(&out.stdout).expect("JSON");
        let jobs = doc["jobs"].as_array().expect("jobs");
        jobs.iter().map(|j| count(j, "read", "total_ios")).collect()
    };
    let threads = run("--thread");
    assert_eq!(run("--job-processes"), threads, "job processes, {args:?}");
    threads
}

#[test]
fn jobs_of_a_flow_keep_to_their_weights() {
    // Job `b` counts in the flow from the start, but waits in its exec_prerun until `a`
    // has ended (a's exec_postrun writes the fifo b reads). Meanwhile `a`, of weight w in a
    // flow of weights W, may only run one I/O's worth ahead of its share: it issues
    // W / (W - w) + 1 I/Os (rounded down), then waits until its 100 ms are up, under the
    // fake clock; then `b` runs alone, all its 1000.
    let dir = tempdir();
    let Some(fifo) = fifo(dir.path(), "a-ended.fifo") else { return };
    let post = format!("--exec_postrun=echo > {}", fifo.display());
    let pre = format!("--exec_prerun=timeout 60 cat {}", fifo.display());
    for (a, b, sleep, want) in
        [(2, 1, 0, 4), (2, 1, 100, 4), (1, 1, 0, 3), (1, 2, 0, 2), (1, 2, 100, 2), (3, 1, 0, 5)]
    {
        let (a_flow, b_flow) = (format!("--flow={a}"), format!("--flow={b}"));
        let sleep = format!("--flow_sleep={sleep}");
        let mut args = flow_job("a", &[&a_flow, &sleep, "--time_based", "--runtime=100ms", &post]);
        args.extend(flow_job("b", &[&b_flow, &sleep, "--number_ios=1000", &pre]));
        assert_eq!(reads(dir.path(), &args), [want, 1000], "flow {a} beside {b}, {sleep}");
    }
}

#[test]
fn a_job_that_ends_leaves_its_flow() {
    // Of the same weight, `long` could run at most one I/O ahead of `short` were `short`
    // still in the flow: it does its 5000 only because `short` left it after its 256.
    // (Were it held, it would stop at its runtime with a few hundred.)
    let dir = tempdir();
    let mut args = flow_job("short", &["--flow=1", "--size=1m"]);
    args.extend(flow_job("long", &["--flow=1", "--number_ios=5000", "--runtime=10"]));
    assert_eq!(reads(dir.path(), &args), [256, 5000]);
}

#[test]
fn flow_counts_match_fio() {
    if !fio_installed() {
        return;
    }
    let dir = tempdir();
    let cases: [&[&str]; 3] = [
        &["--name=short", "--size=1m", "--flow=1", "--name=long", "--number_ios=5000", "--flow=1"],
        &["--name=a", "--number_ios=4000", "--flow=2", "--name=b", "--number_ios=1000", "--flow=1"],
        &["--name=a", "--number_ios=900", "--flow=1", "--flow_sleep=100", "--name=b", "--flow=3"],
    ];
    for case in cases {
        let common = ["--ioengine=null", "--rw=randread", "--size=1g", "--flow_id=2"];
        let args = [&["--output-format=json"][..], &common, case].concat();
        let counts = |program: &str| -> Vec<u64> {
            let out = run_in(dir.path(), program, &args);
            assert_eq!(out.status.code(), Some(0), "{program} {case:?}: {}", text(&out.stderr));
            let doc = report_json(program, &out);
            let jobs = doc["jobs"].as_array().expect("jobs");
            jobs.iter().map(|j| count(j, "read", "total_ios")).collect()
        };
        assert_eq!(counts(IOMARK), counts("fio"), "{case:?}");
    }
}
