//! `group_reporting`: the group's latencies are the exact merge of its jobs' (under the
//! fake clock), the group is named after its first job; and `stats=0` jobs are reported
//! with nothing measured, as fio 3.33 reports them.

use crate::support::report::json_doc;
use crate::support::run::{iomark_in, run_in, tempdir, text, write_job};
use crate::support::tools::fio_installed;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// Two differently named jobs in one group, whose latencies differ under the fake clock.
const GROUP_JOBS: &str = "[global]\nioengine=null\nsize=256k\nbs=4k\nlat_percentiles=1\n\
    percentile_list=10:50:90:99:99.9\n\n\
    [deep]\ndescription=four at a time\nrw=randrw\nrwmixread=60\niodepth=4\n\n\
    [shallow]\nrw=randrw\nrwmixread=80\nbs=8k\n";

/// A group_reporting run's latencies are the exact merge of its jobs' (the same jobs run
/// without it, under the fake clock, which makes every job's numbers the same in both runs):
/// the counts add, the bins add bucket by bucket, the percentiles are those of the added
/// bins, and the mean and deviation are the pooled ones.
#[test]
fn group_reporting_merges_latencies_exactly() {
    let dir = tempdir();
    let run = |job: &str| {
        let path = write_job(dir.path(), job);
        let out = iomark_in(dir.path(), &["--output-format=json+", path.to_str().unwrap()], true);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        json_doc(&out, "group run")
    };
    let apart = run(GROUP_JOBS);
    let together = run(&GROUP_JOBS.replace("[global]\n", "[global]\ngroup_reporting\n"));
    let jobs = apart["jobs"].as_array().expect("jobs");
    assert_eq!(jobs.len(), 2);
    let group = &together["jobs"][0];
    assert_eq!(together["jobs"].as_array().map(Vec::len), Some(1));
    for d in ["read", "write"] {
        for lat in ["clat_ns", "lat_ns"] {
            let what = format!("{d} {lat}");
            let parts: Vec<&Value> = jobs.iter().map(|j| &j[d][lat]).collect();
            let merged = &group[d][lat];
            let u = |v: &Value| v.as_u64().expect("an integer");
            let f = |v: &Value| v.as_f64().expect("a number");
            let n: u64 = parts.iter().map(|p| u(&p["N"])).sum();
            assert_eq!(u(&merged["N"]), n, "{what}");
            let min = parts.iter().map(|p| u(&p["min"])).min().unwrap();
            let max = parts.iter().map(|p| u(&p["max"])).max().unwrap();
            assert_eq!((u(&merged["min"]), u(&merged["max"])), (min, max), "{what}");
            // Pooled mean and deviation (Chan et al.) from each job's N, mean and deviation.
            let (mut count, mut mean, mut m2) = (0.0f64, 0.0f64, 0.0f64);
            for p in &parts {
                let (nb, mb) = (f(&p["N"]), f(&p["mean"]));
                let m2b = f(&p["stddev"]).powi(2) * (nb - 1.0);
                let delta = mb - mean;
                let total = count + nb;
                mean += delta * nb / total;
                m2 += m2b + delta * delta * count * nb / total;
                count = total;
            }
            let stddev = (m2 / (count - 1.0)).sqrt();
            assert!((f(&merged["mean"]) - mean).abs() < 1e-5, "{what}: mean");
            assert!((f(&merged["stddev"]) - stddev).abs() < 1e-5, "{what}: stddev");
            // The jobs' bins, added key by key, are the group's bins (a bin's value is its
            // bucket's alone); added into one histogram they give the group's percentiles.
            let mut hist = iomark_stats::LatHistogram::new();
            let mut bins: BTreeMap<u64, u64> = BTreeMap::new();
            for p in &parts {
                for (value, count) in p["bins"].as_object().expect("bins") {
                    let value: u64 = value.parse().expect("a bin value");
                    hist.record_n(value, u(count));
                    *bins.entry(value).or_default() += u(count);
                }
            }
            let got: BTreeMap<u64, u64> = merged["bins"]
                .as_object()
                .expect("group bins")
                .iter()
                .map(|(k, v)| (k.parse().expect("a bin value"), u(v)))
                .collect();
            assert_eq!(got, bins, "{what}: bins");
            let list = [10.0, 50.0, 90.0, 99.0, 99.9];
            let expected = hist.percentiles(&list, min..=max);
            let pcts: Vec<u64> =
                merged["percentile"].as_object().expect("percentiles").values().map(u).collect();
            assert_eq!(pcts, expected, "{what}: percentiles");
        }
    }
    // Not a trivial merge: the two jobs' latencies differ.
    assert_ne!(jobs[0]["write"]["lat_ns"]["bins"], jobs[1]["write"]["lat_ns"]["bins"]);
}

/// A group is named after its first job and shows that job's options and description
/// (fio 3.33 shows the first job's name and description with the last job's options).
#[test]
fn a_group_is_reported_under_its_first_job() {
    let dir = tempdir();
    let job = GROUP_JOBS.replace("[global]\n", "[global]\ngroup_reporting\n");
    let path = write_job(dir.path(), &job);
    let args = ["--output-format=json,normal", path.to_str().unwrap()];
    let out = iomark_in(dir.path(), &args, true);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let json_start = stdout.find("\n{\n").expect("the JSON document") + 1;
    let json_end = stdout.find("\n}\n").expect("the JSON document") + 3;
    let doc: Value = serde_json::from_str(&stdout[json_start..json_end]).expect("JSON");
    let group = &doc["jobs"][0];
    assert_eq!(group["jobname"], "deep");
    assert_eq!(group["desc"], "four at a time");
    let options = group["job options"].as_object().expect("job options");
    let keys: BTreeSet<&str> = options.keys().map(String::as_str).collect();
    assert_eq!(keys, BTreeSet::from(["description", "rw", "rwmixread", "iodepth"]));
    assert_eq!(options["rwmixread"], "60");
    assert!(stdout.contains("\ndeep: (groupid=0, jobs=2): err= 0"), "{stdout}");
    assert!(stdout.contains("\n  Description  : [four at a time]\n"), "{stdout}");
}

/// `stats=0`: the job runs (its file is laid out and read) but is reported with nothing
/// measured: zeros in JSON, absent from the normal report; fio 3.33 does the same.
#[test]
fn stats_0_reports_the_job_with_nothing_measured() {
    let dir = tempdir();
    let args = ["--name=quiet", "--ioengine=psync", "--rw=read", "--size=64k", "--stats=0"];
    let json_args = [&args[..], &["--output-format=json"]].concat();
    let mut runs = vec![("iomark", iomark_in(dir.path(), &json_args, true))];
    if fio_installed() {
        runs.push(("fio", run_in(dir.path(), "fio", &json_args)));
    }
    for (tool, out) in runs {
        assert_eq!(out.status.code(), Some(0), "{tool}: {}", text(&out.stderr));
        let doc: Value = serde_json::from_slice(&out.stdout).expect("one JSON document");
        let job = &doc["jobs"][0];
        // fio 3.33's record has no name and group 4294967295; iomark names the job.
        if tool == "iomark" {
            assert_eq!(job["jobname"], "quiet");
        }
        assert_eq!(job["read"]["total_ios"], 0, "{tool}");
        assert_eq!(job["job_runtime"], 0, "{tool}");
    }
    assert_eq!(std::fs::metadata(dir.path().join("quiet.0.0")).map(|m| m.len()).ok(), Some(65536));
    let normal = text(&iomark_in(dir.path(), &args, true).stdout);
    assert!(!normal.contains("quiet: (groupid"), "{normal}");
}
