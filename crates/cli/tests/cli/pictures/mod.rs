//! iomark's pictures of a run: `--output-format=json-stream` (every line parses alone, the
//! intervals add up to the report exactly), the HTML report (self-contained, with the
//! per-I/O timeline when per-I/O latencies are logged), `iomark report` (overlays, SVG and
//! PNG charts), and the pages in a real browser (`browser.rs`).

mod browser;

use crate::support::run::{iomark_in, iomark_ok, tempdir, text};
use serde_json::Value;

/// The lines of a json-stream, each parsed alone.
fn stream(out: &str) -> Vec<Value> {
    out.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"))).collect()
}

#[test]
fn json_stream_lines_parse_alone_and_intervals_add_up_to_the_report() {
    let dir = tempdir();
    let args = [
        "--name=a",
        "--ioengine=null",
        "--rw=randrw",
        "--bs=4k",
        "--size=48m",
        "--name=b",
        "--ioengine=null",
        "--rw=write",
        "--bs=64k",
        "--size=256m",
        "--status-interval=5ms",
        "--output-format=json-stream",
    ];
    let out = iomark_ok(dir.path(), &args, false);
    let lines = stream(&text(&out.stdout));
    let (report, events) = lines.split_last().expect("lines");
    assert!(report.get("event").is_none() && report["jobs"].is_array(), "the report comes last");
    let kinds: Vec<&str> = events.iter().filter_map(|e| e["event"].as_str()).collect();
    assert_eq!(kinds.len(), events.len(), "every other line is an event");
    assert_eq!(kinds.iter().filter(|k| **k == "start").count(), 2);
    assert_eq!(kinds.iter().filter(|k| **k == "end").count(), 2);
    assert_eq!(kinds.last(), Some(&"interval"));
    let intervals: Vec<&Value> = events.iter().filter(|e| e["event"] == "interval").collect();
    for (j, job) in report["jobs"].as_array().expect("jobs").iter().enumerate() {
        for (d, name) in ["read", "write", "trim"].iter().enumerate() {
            let sum = |key: &str| -> u64 {
                intervals
                    .iter()
                    .map(|e| &e["jobs"][j])
                    .filter(|job| job["measured"] == true)
                    .map(|job| job["dirs"][d][key].as_u64().expect(key))
                    .sum()
            };
            assert_eq!(sum("ios"), job[name]["total_ios"].as_u64().unwrap(), "job {j} {name}");
            assert_eq!(sum("bytes"), job[name]["io_bytes"].as_u64().unwrap(), "job {j} {name}");
        }
    }
}

#[test]
fn json_stream_stands_alone_and_html_beside_others_needs_a_file() {
    let dir = tempdir();
    let out = iomark_in(
        dir.path(),
        &["--name=j", "--ioengine=null", "--size=1m", "--output-format=json,json-stream"],
        true,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("json-stream stands alone"), "{}", text(&out.stderr));
    let out = iomark_in(
        dir.path(),
        &["--name=j", "--ioengine=null", "--size=1m", "--output-format=normal,html"],
        true,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--html=FILE"));
}

/// A report's text has no reference to anything outside itself (the SVG namespace is a
/// name, not a request).
fn self_contained(html: &str) -> bool {
    let outside = html.replace("xmlns=\"http://www.w3.org/2000/svg\"", "");
    !outside.contains("http://") && !outside.contains("https://") && !outside.contains(" src=")
}

#[test]
fn the_html_report_is_self_contained_with_the_per_io_timeline() {
    let dir = tempdir();
    let args = [
        "--name=seq",
        "--ioengine=null",
        "--rw=write",
        "--bs=512",
        "--size=256k",
        "--write_lat_log=seq",
        "--log_offset=1",
        "--output-format=normal",
        "--html=r.html",
    ];
    let out = iomark_ok(dir.path(), &args, true);
    assert!(text(&out.stdout).contains("Run status group 0"), "the normal report still prints");
    let html = std::fs::read_to_string(dir.path().join("r.html")).expect("the report");
    assert!(html.starts_with("<!DOCTYPE html>") && self_contained(&html));
    for id in [
        "job0-run0-io-timeline",
        "job0-run0-io-latency",
        "job0-write-latency-histogram",
        "job0-depth-distribution",
    ] {
        assert!(html.contains(&format!("id=\"{id}\"")), "{id} missing");
    }
    assert!(
        html.contains("fio --name=seq --ioengine=null --rw=write --bs=512"),
        "the fio command line"
    );
    // 512 I/Os in the timeline: every submission and completion drawn.
    assert!(html.contains("data-points=\"512\""));
}

#[test]
fn the_timeline_follows_its_job_whatever_the_log_is_called_and_compressed() {
    // The log's prefix is not the job's name, and the logs are stored compressed (.fz).
    let dir = tempdir();
    let args = [
        "--name=j",
        "--ioengine=null",
        "--rw=randread",
        "--bs=4k",
        "--size=1m",
        "--write_lat_log=lat",
        "--log_store_compressed=1",
        "--output-format=json",
        "--html=r.html",
    ];
    iomark_ok(dir.path(), &args, true);
    assert!(dir.path().join("lat_lat.1.log.fz").exists());
    let html = std::fs::read_to_string(dir.path().join("r.html")).expect("the report");
    for id in ["job0-run0-io-timeline", "job0-run0-io-latency"] {
        assert!(html.contains(&format!("id=\"{id}\"")), "{id} missing");
    }
    // 256 I/Os in the timeline.
    assert!(html.contains("data-points=\"256\""));
}

#[test]
fn iomark_report_overlays_runs_and_writes_charts() {
    let dir = tempdir();
    let a = iomark_ok(
        dir.path(),
        &["--name=j", "--ioengine=null", "--size=4m", "--output-format=json+"],
        true,
    );
    std::fs::write(dir.path().join("a.json"), &a.stdout).unwrap();
    let b = iomark_ok(
        dir.path(),
        &["--name=j", "--ioengine=null", "--bs=8k", "--size=4m", "--output-format=json-stream"],
        true,
    );
    std::fs::write(dir.path().join("b.jsonl"), &b.stdout).unwrap();
    iomark_ok(
        dir.path(),
        &["report", "a.json", "b.jsonl", "-o", "ab.html", "--title", "A/B"],
        true,
    );
    let html = std::fs::read_to_string(dir.path().join("ab.html")).expect("the page");
    assert!(html.contains("<title>A/B</title>") && html.contains("id=\"differences\""));
    assert!(html.contains("<th>Δ b</th>") && self_contained(&html));
    let out = iomark_ok(
        dir.path(),
        &["report", "--format=svg", "-o", "charts", "a.json", "b.jsonl"],
        true,
    );
    let files: Vec<String> = text(&out.stdout).lines().map(String::from).collect();
    assert!(files.iter().any(|f| f.ends_with("job0-read-latency-percentiles.svg")), "{files:?}");
    for f in &files {
        let svg = std::fs::read_to_string(dir.path().join(f)).expect("svg");
        assert!(svg.starts_with("<svg") && svg.contains("class=\"series\""), "{f}");
    }
    let out = iomark_ok(dir.path(), &["report", "-f", "png", "-o", "png", "a.json"], true);
    let first = text(&out.stdout).lines().next().map(String::from).expect("a chart");
    let png = std::fs::read(dir.path().join(first)).expect("png");
    assert_eq!(&png[..4], b"\x89PNG");
    let out = iomark_in(dir.path(), &["report", "missing.json"], true);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("missing.json"));
}
