//! Rate limits, think time, latency targets, steady state and flow, end to end with the
//! `iomark` binary. The tests assert counts, schedules and distributions, never how long a
//! real run took: runs that would take time use the fake clock, under which a wait is a
//! jump of the clock, and the few real-clock runs check only what a slow machine cannot
//! change. Timing figures against fio (how far a real run's latency target goes, how
//! close a flow keeps to its weights) are printed by `bench/run --checks`.
//!
//! Every run happens in a temporary directory that the test creates and removes. The
//! comparisons with fio 3.33 print `skipped: fio not installed` and pass without it.

mod flow;
mod latency;
mod rate;
mod steady;
mod think;

use crate::support::report::report_json;
use crate::support::run::{iomark_in, run_in, text};
use serde_json::Value;
use std::path::Path;

/// A null-engine reader of 1 GiB, the job most tests vary.
const NULL_READS: [&str; 4] = ["--name=a", "--ioengine=null", "--size=1g", "--rw=randread"];

/// Runs iomark (JSON output) in `dir`, under the fake clock when `fake`, and returns its
/// one job, requiring exit code `code`.
fn job_json(dir: &Path, args: &[&str], fake: bool, code: i32) -> Value {
    let all = [&["--output-format=json"][..], args].concat();
    let out = iomark_in(dir, &all, fake);
    assert_eq!(out.status.code(), Some(code), "iomark {args:?}: {}", text(&out.stderr));
    let doc: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}): {}", text(&out.stdout)));
    doc["jobs"][0].clone()
}

/// Runs fio (JSON output) in `dir` and returns its one job.
fn fio_job(dir: &Path, args: &[&str]) -> Value {
    let out = run_in(dir, "fio", &[&["--output-format=json"][..], args].concat());
    report_json("fio", &out)["jobs"][0].clone()
}
