//! `--block-latency` and `block_latency=1` (docs/block-latency.md): each I/O's latency
//! split at the block layer, checked on a loop device and on the disk under the build
//! directory, against the page cache, and against `btt` (`btt.rs`). Tracing needs root
//! and the block tracepoints; where they are missing a run says so and the tests skip.
//! One test traces at a time (tracefs may be mounted by the run and unmounted after).

mod btt;
mod paths;

use crate::support::blktrace::TRACING;
use crate::support::devices::LoopDevice;
use crate::support::report::report_json;
use crate::support::run::{iomark_in, iomark_ok, text, IOMARK};
use serde_json::Value;
use std::path::Path;

/// The job's `block_latency` object, or `None` (with the skip message) where tracing is
/// not available here.
fn traced(report: &Value) -> Option<Value> {
    let b = report["jobs"][0]["block_latency"].clone();
    assert!(b.is_object(), "no block_latency in {report}");
    let notes = b["notes"].as_array().cloned().unwrap_or_default();
    if let Some(n) = notes.iter().find(|n| n.as_str().is_some_and(|n| n.contains("not available")))
    {
        eprintln!("skipped: {n}");
        return None;
    }
    Some(b)
}

/// A JSON run of iomark in `dir` with `args` and `--block-latency`.
fn run_traced(dir: &Path, args: &[&str]) -> Value {
    let mut all = vec!["--name=j", "--block-latency", "--output-format=json"];
    all.extend_from_slice(args);
    let out = iomark_ok(dir, &all, false);
    report_json(IOMARK, &out)
}

fn n(v: &Value, key: &str) -> u64 {
    v[key].as_u64().unwrap_or_else(|| panic!("{key} missing in {v}"))
}

fn mean(v: &Value, dir: &str, seg: &str) -> f64 {
    v[dir][seg]["mean"].as_f64().unwrap_or_else(|| panic!("{dir}.{seg} missing in {v}"))
}

/// Checks a run of `ios` direct synchronous reads: every I/O matched (unless the kernel
/// dropped records, which the report counts), and at the median I/O the kernel's times lie inside the
/// I/O's own span, so that its four segments add up to its clat with no boundary moved
/// (the clocks agree within the 2 µs the issue allows).
fn check_direct_reads(report: &Value, b: &Value, ios: u64) {
    assert_eq!(n(b, "ios"), ios, "{b}");
    let (matched, lost) = (n(b, "matched"), n(b, "lost_records"));
    assert!(matched == ios || lost > 0, "matched {matched} of {ios}: {b}");
    assert_eq!(n(b, "matched") + n(b, "unmatched") + n(b, "cache_hits"), ios, "{b}");
    assert!(n(b, "reordered") * 2 < matched, "the clocks disagree: {b}");
    let segs = ["pre_ns", "queue_ns", "device_ns", "completion_ns"];
    let sum: f64 = segs.iter().map(|s| mean(b, "read", s)).sum();
    let job = &report["jobs"][0];
    let clat = job["read"]["clat_ns"]["mean"].as_f64().expect("clat mean");
    if matched == ios {
        // For a synchronous read the segments span its clat (lat = clat).
        assert!((sum - clat).abs() <= 2_000.0, "segments {sum} ns, clat {clat} ns: {b}");
    }
    assert!(mean(b, "read", "device_ns") > 0.0, "{b}");
}

#[test]
fn direct_reads_on_a_loop_device_split_into_segments_that_add_up_to_clat() {
    let _one = TRACING.lock().unwrap_or_else(|e| e.into_inner());
    let Some(disk) = LoopDevice::new(16 << 20) else { return };
    let dir = crate::support::run::tempdir();
    let file = format!("--filename={}", disk.dev);
    let args =
        [&file, "--direct=1", "--rw=randread", "--bs=4k", "--ioengine=psync", "--number_ios=3000"];
    let report = run_traced(dir.path(), &args);
    let Some(b) = traced(&report) else { return };
    check_direct_reads(&report, &b, 3000);
    assert_eq!((n(&b, "merged"), n(&b, "split")), (0, 0), "{b}");
}

/// A job in a process of its own (`--job-processes`) traces its I/O as a job thread does:
/// its process makes its own tracer.
#[test]
fn a_job_process_splits_its_reads_as_a_job_thread_does() {
    let _one = TRACING.lock().unwrap_or_else(|e| e.into_inner());
    let Some(disk) = LoopDevice::new(16 << 20) else { return };
    let dir = crate::support::run::tempdir();
    let file = format!("--filename={}", disk.dev);
    let args = [
        "--job-processes",
        &file,
        "--direct=1",
        "--rw=randread",
        "--bs=4k",
        "--ioengine=psync",
        "--number_ios=2000",
    ];
    let report = run_traced(dir.path(), &args);
    let Some(b) = traced(&report) else { return };
    check_direct_reads(&report, &b, 2000);
}

#[test]
fn direct_reads_of_a_file_on_the_build_disk_are_placed_through_its_extents() {
    let _one = TRACING.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("temporary directory");
    let path = dir.path().join("data");
    let file = format!("--filename={}", path.display());
    let args = [
        &file,
        "--size=8m",
        "--direct=1",
        "--rw=randread",
        "--bs=4k",
        "--ioengine=psync",
        "--number_ios=2000",
    ];
    let report = run_traced(dir.path(), &args);
    let Some(b) = traced(&report) else { return };
    if n(&b, "matched") == 0 {
        eprintln!("skipped: the build directory is on no disk whose requests are traced: {b}");
        return;
    }
    check_direct_reads(&report, &b, 2000);
}

#[test]
fn buffered_reads_served_by_the_page_cache_count_as_cache_hits() {
    let _one = TRACING.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("temporary directory");
    let path = dir.path().join("data");
    let file = format!("--filename={}", path.display());
    // invalidate=0: the job does not drop the file's pages (fio's default drops them, and
    // its first read then brings them back through the block layer).
    let args = [&file, "--size=1m", "--rw=read", "--bs=4k", "--ioengine=psync", "--invalidate=0"];
    // The first pass lays the file out and leaves it in the page cache.
    let warm = ["--name=warm", &file, "--size=1m", "--rw=read", "--bs=4k", "--end_fsync=1"];
    iomark_ok(dir.path(), &warm, false);
    let report = run_traced(dir.path(), &args);
    let Some(b) = traced(&report) else { return };
    assert_eq!(n(&b, "ios"), 256, "{b}");
    assert_eq!((n(&b, "cache_hits"), n(&b, "matched")), (256, 0), "{b}");
}

#[test]
fn without_tracing_the_run_goes_on_and_says_why() {
    let dir = crate::support::run::tempdir();
    let args = ["--name=j", "--ioengine=null", "--size=1m", "--block_latency=1"];
    let json = [&args[..], &["--output-format=json"]].concat();
    let out = iomark_in(dir.path(), &json, true);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report = report_json(IOMARK, &out);
    let b = &report["jobs"][0]["block_latency"];
    assert_eq!((n(b, "ios"), n(b, "matched")), (0, 0), "{b}");
    let note = b["notes"][0].as_str().expect("a note");
    assert!(note.contains("the job runs without the split"), "{note}");
    let out = iomark_ok(dir.path(), &args, true);
    let normal = text(&out.stdout);
    assert!(normal.contains("  block latency: ios=0, matched=0, unmatched=0"), "{normal}");
}

/// The block table of an HTML page, with its run labels taken out.
fn block_table(html: &str, label: &str) -> String {
    let start = html.find("<table class=\"summary block\">").expect("a block table");
    let end = start + html[start..].find("</table>").expect("its end");
    html[start..end].replace(&format!("<td>{label}</td>"), "<td></td>")
}

#[test]
fn iomark_report_reads_the_split_back_from_json_and_shows_it_as_the_run_did() {
    let _one = TRACING.lock().unwrap_or_else(|e| e.into_inner());
    let Some(disk) = LoopDevice::new(16 << 20) else { return };
    let dir = crate::support::run::tempdir();
    let file = format!("--filename={}", disk.dev);
    let args = [&file, "--direct=1", "--rw=randread", "--bs=4k", "--number_ios=200"];
    let mut all = vec!["--name=j", "--block-latency", "--output-format=json", "--html=live.html"];
    all.extend_from_slice(&args);
    let out = iomark_ok(dir.path(), &all, false);
    let report = report_json(IOMARK, &out);
    let Some(b) = traced(&report) else { return };
    assert_eq!(n(&b, "matched"), 200, "{b}");
    std::fs::write(dir.path().join("run.json"), &out.stdout).expect("run.json");
    iomark_ok(dir.path(), &["report", "run.json", "-o", "back.html"], false);
    let read = |f: &str| std::fs::read_to_string(dir.path().join(f)).expect("a page");
    let (live, back) = (read("live.html"), read("back.html"));
    let back = block_table(&back, "run");
    assert!(back.contains("<td>device</td>") && back.contains("matched 200"), "{back}");
    assert_eq!(block_table(&live, "iomark"), back);
}

#[test]
fn warnings_fatal_fails_a_run_whose_job_asked_for_the_split_and_cannot_have_it() {
    let _one = TRACING.lock().unwrap_or_else(|e| e.into_inner());
    let dir = crate::support::run::tempdir();
    let args =
        ["--warnings-fatal", "--name=j", "--ioengine=null", "--size=1m", "--block_latency=1"];
    // No tracer at all (the fake clock): the run stops before it starts.
    let out = iomark_in(dir.path(), &args, true);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(err.contains("not available under the fake clock (--warnings-fatal)"), "{err}");
    assert!(out.stdout.is_empty(), "{}", text(&out.stdout));
    // A tracer, and a job it cannot follow (no device under the null engine): the job runs,
    // its report is printed, and the run fails. (Without root there is no tracer: the
    // run stops before it starts, as above.)
    let out = iomark_in(dir.path(), &args, false);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(err.contains("(--warnings-fatal)"), "{err}");
    if !err.contains("not available") {
        assert!(err.contains("the job has no file on a device"), "{err}");
        assert!(text(&out.stdout).contains("block latency: ios=0"), "{}", text(&out.stdout));
    }
    // Without --warnings-fatal the same run succeeds.
    iomark_ok(dir.path(), &args[1..], false);
}

#[test]
fn interim_reports_carry_the_split_so_far() {
    let _one = TRACING.lock().unwrap_or_else(|e| e.into_inner());
    let Some(disk) = LoopDevice::new(16 << 20) else { return };
    let dir = crate::support::run::tempdir();
    let file = format!("--filename={}", disk.dev);
    let args = [
        "--name=j",
        "--block-latency",
        "--output-format=json",
        "--status-interval=200ms",
        &file,
        "--direct=1",
        "--rw=randread",
        "--bs=4k",
        "--runtime=1",
        "--time_based",
    ];
    let out = iomark_ok(dir.path(), &args, false);
    let docs: Vec<Value> = serde_json::Deserializer::from_slice(&out.stdout)
        .into_iter::<Value>()
        .collect::<Result<_, _>>()
        .expect("JSON documents");
    assert!(docs.len() >= 2, "no interim report in {}", text(&out.stdout));
    let Some(last) = traced(&docs[docs.len() - 1]) else { return };
    let mut before = 0;
    for doc in &docs {
        let b = &doc["jobs"][0]["block_latency"];
        let ios = n(b, "ios");
        // Every I/O completed by the report was handed over and matched.
        assert_eq!(ios, n(&doc["jobs"][0]["read"], "total_ios"), "{b}");
        assert!(ios >= before, "{b}");
        assert!(n(b, "matched") == ios || n(b, "lost_records") > 0, "{b}");
        before = ios;
    }
    assert!(n(&last, "matched") > 0, "{last}");
}

#[test]
fn per_io_segment_logs_add_up_to_the_latency_log_row_by_row() {
    let _one = TRACING.lock().unwrap_or_else(|e| e.into_inner());
    let Some(disk) = LoopDevice::new(16 << 20) else { return };
    let dir = crate::support::run::tempdir();
    let file = format!("--filename={}", disk.dev);
    let logs = ["--write_lat_log=j", "--log_avg_msec=0", "--log_offset=1"];
    let mut args = vec![&file[..], "--direct=1", "--rw=randread", "--bs=4k", "--number_ios=500"];
    args.extend_from_slice(&logs);
    let report = run_traced(dir.path(), &args);
    let Some(b) = traced(&report) else { return };
    if n(&b, "matched") != 500 {
        assert!(n(&b, "lost_records") > 0, "{b}");
        return;
    }
    let rows = |name: &str| -> Vec<Vec<u64>> {
        let text = std::fs::read_to_string(dir.path().join(name)).expect(name);
        text.lines()
            .map(|l| l.split(", ").map(|v| v.parse().expect("a number")).collect())
            .collect()
    };
    let lat = rows("j_lat.1.log");
    let segs =
        ["pre", "queue", "device", "completion"].map(|s| rows(&format!("j-blk-{s}_lat.1.log")));
    assert_eq!(lat.len(), 500);
    for (i, row) in lat.iter().enumerate() {
        // time, value, direction, block size, offset, priority
        let sum: u64 = segs.iter().map(|s| s[i][1]).sum();
        assert_eq!(sum, row[1], "row {i}");
        for s in &segs {
            assert_eq!((s[i][0], s[i][2], s[i][3], s[i][4]), (row[0], row[2], row[3], row[4]));
        }
    }
}
