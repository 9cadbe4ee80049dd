//! `iomark sweep` and `iomark compare` end to end, under the fake clock with the null
//! engine, where every figure is exact.

mod compare;
mod counters;
mod streams;

use crate::support::run::{iomark_in, iomark_ok, tempdir, text, write_job};

const JOB: [&str; 4] = ["--rw=randread", "--bs=4k", "--size=1m", "--time_based=0"];

fn sweep(dir: &std::path::Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["sweep", "--ioengine=null"];
    args.extend(JOB);
    args.extend(extra);
    iomark_in(dir, &args, true)
}

#[test]
fn a_sweep_prints_a_line_per_point_and_writes_its_documents() {
    let dir = tempdir();
    let out = sweep(
        dir.path(),
        &["--iodepth=1,2..8", "--repeat=2", "--json=s.json", "--csv=s.csv", "--html=s.html"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(
        lines[0].starts_with("point") && lines[0].ends_with("calls/io  ctx/io little"),
        "{stdout}"
    );
    // 4 depths × 2 rounds, every depth once a round; each point ran 256 I/Os of 4 KiB.
    let rows: Vec<&str> = lines[1..9].to_vec();
    // Options given one value are the job's, and no label shows them.
    let start: Vec<&str> = rows.iter().map(|r| &r[..13]).collect();
    assert_eq!(
        start,
        [
            "iodepth=1   1",
            "iodepth=2   1",
            "iodepth=4   1",
            "iodepth=8   1",
            "iodepth=1   2",
            "iodepth=2   2",
            "iodepth=4   2",
            "iodepth=8   2"
        ],
        "{stdout}"
    );
    assert!(stdout.contains("all: queue model (seed 003) over iodepth, 4 points"), "{stdout}");
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("s.json")).unwrap()).unwrap();
    assert_eq!(doc["iomark sweep"], 1);
    assert_eq!(doc["runs"].as_array().unwrap().len(), 8);
    let run = &doc["runs"][1];
    assert_eq!(run["point"]["values"][0], serde_json::json!(["iodepth", "2"]));
    assert_eq!((run["repeat"].as_u64(), run["depth"].as_f64()), (Some(1), Some(2.0)));
    // The full fio-format report of each run (one group: the sweep sets group_reporting).
    let job = &run["report"]["jobs"][0];
    assert_eq!(job["read"]["total_ios"], 256);
    assert_eq!(job["read"]["lat_ns"]["percentile"].as_object().unwrap().len(), 3);
    assert_eq!(run["metrics"]["ios"], 256);
    assert_eq!(run["metrics"]["syscalls_per_io"], 0.0);
    assert_eq!(doc["series"][0]["x"], "iodepth");
    let csv = std::fs::read_to_string(dir.path().join("s.csv")).unwrap();
    assert_eq!(csv.lines().count(), 9);
    assert!(csv.lines().nth(1).unwrap().starts_with("1,1,,,1,256000.000,"), "{csv}");
    let html = std::fs::read_to_string(dir.path().join("s.html")).unwrap();
    assert!(html.contains("IOPS against iodepth") && html.contains("<svg"), "{}", &html[..200]);
    // A grid's runs are flat out, and the page says no rate for them (a curve's say "max").
    assert!(!html.contains("<td>max</td>"));
    // `iomark report` of the sweep's JSON draws the same page.
    iomark_ok(dir.path(), &["report", "s.json", "-o", "r.html"], false);
    let again = std::fs::read_to_string(dir.path().join("r.html")).unwrap();
    assert_eq!(again.matches("<svg").count(), html.matches("<svg").count());
    assert_eq!(html.matches("<svg").count(), 2);
}

#[test]
fn a_job_file_is_swept_and_engines_are_series() {
    let dir = tempdir();
    let job = write_job(dir.path(), "[global]\nrw=randread\nbs=4k\nsize=1m\ntime_based=0\n[one]\n");
    let out = iomark_in(
        dir.path(),
        &[
            "sweep",
            "-e",
            "null",
            "--vary=bs=4k,8k",
            "-d",
            "1..4",
            "--json=-",
            job.to_str().unwrap(),
        ],
        true,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // --json=- takes standard output: one JSON document, no table.
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let labels: Vec<&str> =
        doc["series"].as_array().unwrap().iter().map(|s| s["label"].as_str().unwrap()).collect();
    assert_eq!(labels, ["bs=4k", "bs=8k"]);
    assert_eq!(doc["runs"][3]["report"]["jobs"][0]["read"]["total_ios"], 128);
}

#[test]
fn a_curve_runs_at_fractions_of_the_maximum() {
    let dir = tempdir();
    let out = sweep(dir.path(), &["--curve=50,100", "--json=c.json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("c.json")).unwrap()).unwrap();
    assert_eq!(doc["mode"], "curve");
    let runs = doc["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 3);
    assert!(runs[0]["fraction"].is_null());
    let max = runs[0]["metrics"]["iops"].as_f64().unwrap();
    assert_eq!(runs[1]["fraction"], 50.0);
    assert_eq!(runs[1]["rate_iops"].as_f64().unwrap(), (max / 2.0).round());
    assert_eq!(runs[2]["fraction"], 100.0);
}

#[test]
fn the_stop_rule_ends_a_curve_and_only_that_curve() {
    let dir = tempdir();
    // Under the fake clock a null job at depth 8 takes 3 µs an I/O rate-limited, 1 µs at
    // depth 1. The run flat out that finds the maximum does not stop anything (it passes
    // every limit by design); depth 8's curve ends at its first fraction, depth 1's runs on.
    let out = sweep(
        dir.path(),
        &["--iodepth=8,1", "--curve=10,50,100", "--stop-at-latency=2us:mean", "--json=c.json"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("\n# iodepth=8: stopped, mean latency > 2 us\n"), "{stdout}");
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("c.json")).unwrap()).unwrap();
    let runs: Vec<(String, serde_json::Value)> = doc["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["point"]["values"][0][1].as_str().unwrap().to_string(), r["fraction"].clone()))
        .collect();
    // (depth, fraction): the run flat out has none.
    let want = [
        ("8", None),
        ("8", Some(10.0)),
        ("1", None),
        ("1", Some(10.0)),
        ("1", Some(50.0)),
        ("1", Some(100.0)),
    ];
    let want: Vec<(String, serde_json::Value)> =
        want.iter().map(|(d, f)| (d.to_string(), serde_json::json!(f))).collect();
    assert_eq!(runs, want);
}

#[test]
fn the_stop_rule_ends_a_series() {
    let dir = tempdir();
    // Under the fake clock depth 1 has a p99 of 1 µs and deeper queues more: stop past 1.5 µs.
    // Depth 2 passes it: depths 4 to 16 never run, depths 1 and 2 run in both rounds.
    let out = sweep(
        dir.path(),
        &["--iodepth=1..16", "--stop-at-latency=1500ns:99", "--repeat=2", "--json=s.json"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert_eq!(stdout.matches("# all: stopped, p99 latency > 1.5 us").count(), 1, "{stdout}");
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("s.json")).unwrap()).unwrap();
    let depths: Vec<f64> =
        doc["runs"].as_array().unwrap().iter().map(|r| r["depth"].as_f64().unwrap()).collect();
    assert_eq!(depths, [1.0, 2.0, 1.0, 2.0]);
}

#[test]
fn bad_sweeps_are_refused_with_the_reason() {
    let dir = tempdir();
    for (args, want) in [
        (vec!["--iodepth=8..2"], "invalid range '8..2'"),
        (vec!["--vary=blocksise=4k,8k"], "--vary: no job option 'blocksise'"),
        (vec!["--iodepth=1,x"], "option 'iodepth'"),
        (vec!["--repeat=0"], "--repeat: '0'"),
        (vec!["--stop-at-latency=soon"], "--stop-at-latency: 'soon'"),
    ] {
        let out = sweep(dir.path(), &args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(text(&out.stderr).contains(want), "{args:?}: {}", text(&out.stderr));
        assert!(out.stdout.is_empty(), "{args:?}: nothing runs before every point is checked");
    }
}

#[test]
fn the_help_comes_from_the_flag_table() {
    let dir = tempdir();
    let out = iomark_ok(dir.path(), &["sweep", "--help"], false);
    assert!(text(&out.stdout).contains("-d, --iodepth=LIST"), "{}", text(&out.stdout));
    let out = iomark_ok(dir.path(), &["compare", "-h"], false);
    assert!(text(&out.stdout).contains("-r, --rounds=N"));
}

#[test]
fn a_series_over_jobs_gets_the_universal_scalability_law() {
    let dir = tempdir();
    let out = sweep(dir.path(), &["--numjobs=1..8", "--json=s.json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // Under the fake clock each job's thread has its own clock: 8 jobs do 8 times the
    // I/Os in the same time, which the law says with λ = one job's IOPS and no contention.
    assert!(text(&out.stdout).contains(
        "all: Universal Scalability Law over numjobs, 4 points, unweighted\n  \
         lambda 256000 IOPS [256000, 256000]   sigma 0 [0, 0]   kappa 0 [0, 0]"
    ));
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("s.json")).unwrap()).unwrap();
    let series = &doc["series"][0];
    assert_eq!((&series["x"], &series["fit"]["model"]), (&"numjobs".into(), &"usl".into()));
    let depths: Vec<f64> =
        doc["runs"].as_array().unwrap().iter().map(|r| r["depth"].as_f64().unwrap()).collect();
    assert_eq!(depths, [1.0, 2.0, 4.0, 8.0]);
    assert_eq!(doc["runs"][3]["report"]["jobs"][0]["read"]["total_ios"], 8 * 256);
}
