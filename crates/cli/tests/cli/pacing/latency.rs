//! Latency limits and targets: `max_latency`, and the depth `latency_target` settles on,
//! exact under the fake clock.

use super::{fio_job, job_json, NULL_READS};
use crate::support::report::count;
use crate::support::run::{iomark_in, tempdir, text};
use crate::support::tools::fio_installed;
use serde_json::Value;

/// A null job whose latency grows with its depth under the fake clock: all of a batch is
/// submitted at once and reaped at once, so an I/O's latency counts the clock reads of
/// the I/Os queued after it (about 1 µs each).
const DEEP_NULL: [&str; 8] = [
    "--name=a",
    "--ioengine=null",
    "--size=1g",
    "--rw=randread",
    "--iodepth=64",
    "--iodepth_batch_submit=64",
    "--iodepth_batch_complete_max=64",
    "--time_based",
];

#[test]
fn latency_target_finds_the_highest_depth_that_meets_it() {
    let dir = tempdir();
    let args =
        [&DEEP_NULL[..], &["--runtime=10", "--latency_target=40us", "--latency_window=10ms"]]
            .concat();
    let job = job_json(dir.path(), &args, true, 0);
    // Depths 1 to 39 keep every I/O within 40 µs; 40 does not.
    assert_eq!(job["latency_depth"], 39);
    assert_eq!(job["latency_target"], 40_000, "fio prints the target in ns");
    assert_eq!(job["latency_window"], 10_000, "and the window in µs");
    assert_eq!(job["latency_percentile"], 100.0);
    // The report is the final window's: 10 ms at depth 39, every I/O within the target.
    assert_eq!(count(&job, "read", "runtime"), 10);
    assert!(job["read"]["lat_ns"]["max"].as_u64() <= Some(40_000), "{}", job["read"]);
    // Half the I/Os may be slower: a deeper queue qualifies.
    let args = [&args[..], &["--latency_percentile=50"]].concat();
    let deeper = job_json(dir.path(), &args, true, 0);
    assert!(deeper["latency_depth"].as_u64() > Some(39), "{}", deeper["latency_depth"]);
    // latency_run keeps adjusting for the whole run, without the final run.
    let args = [
        &DEEP_NULL[..],
        &["--runtime=1", "--latency_target=40us", "--latency_window=10ms", "--latency_run=1"],
    ]
    .concat();
    let job = job_json(dir.path(), &args, true, 0);
    assert_eq!(count(&job, "read", "runtime"), 1000);
    assert!((38..=40).contains(&job["latency_depth"].as_u64().unwrap()), "{job}");
}

#[test]
fn max_latency_ends_the_job_with_etimedout_and_fios_message() {
    let dir = tempdir();
    let args = [&DEEP_NULL[..], &["--runtime=1", "--max_latency=10us"]].concat();
    let mut all = vec!["--output-format=json"];
    all.extend_from_slice(&args);
    let out = iomark_in(dir.path(), &all, true);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(err.contains("latency of 11000 nsec exceeds specified max (10000 nsec): a.0.0 read"));
    let doc: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(doc["jobs"][0]["error"], 110);
    // Within the limit, or on another direction, the job runs to its end.
    let args = [&NULL_READS[..], &["--number_ios=100", "--max_latency=,1us"]].concat();
    assert_eq!(count(&job_json(dir.path(), &args, true, 0), "read", "total_ios"), 100);
    let args = [&NULL_READS[..], &["--number_ios=100", "--max_latency=1"]].concat();
    assert_eq!(count(&job_json(dir.path(), &args, true, 0), "read", "total_ios"), 100);
}

#[test]
fn a_depth_one_that_misses_the_target_fails_the_job() {
    let dir = tempdir();
    // Under the fake clock an asynchronous I/O takes 2 µs even alone: a 1 µs target
    // cannot be met.
    let args = [&DEEP_NULL[..], &["--latency_target=1", "--runtime=1"]].concat();
    let out = iomark_in(dir.path(), &args, true);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("exceeds specified max (1000 nsec)"));
    // Below 100%, the whole first window is judged.
    let args = [&args[..], &["--latency_percentile=50", "--latency_window=1ms"]].concat();
    let out = iomark_in(dir.path(), &args, true);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("not met for 50% of the I/Os even at queue depth 1"));
}

#[test]
fn latency_target_depth_matches_fio_on_the_null_engine() {
    // Null I/Os take far less than 1 ms at any depth: under the fake clock iomark reaches
    // iodepth and stops after the final window of 100 ms, exactly. fio 3.33 does the same
    // on its real clock (depth 32 after about 100 ms); how deep and how long a real run
    // goes is the machine's, so `bench/run --checks` prints both tools' figures and the
    // test compares the settings fio echoes.
    let dir = tempdir();
    let args = [
        &NULL_READS[..],
        &["--iodepth=32", "--latency_target=1ms", "--latency_window=100ms"],
        &["--latency_percentile=99", "--time_based", "--runtime=30"],
    ]
    .concat();
    let ours = job_json(dir.path(), &args, true, 0);
    assert_eq!(ours["latency_depth"], 32);
    assert_eq!(count(&ours, "read", "runtime"), 99, "ended after the final window");
    if !fio_installed() {
        return;
    }
    let fio = fio_job(dir.path(), &args);
    for key in ["latency_target", "latency_window", "latency_percentile"] {
        assert_eq!(ours[key], fio[key], "{key}");
    }
    assert!(fio["latency_depth"].is_u64(), "{fio}");
}
