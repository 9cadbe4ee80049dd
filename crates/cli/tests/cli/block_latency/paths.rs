//! The two ways of tracing (docs/block-latency.md, "How the records are taken"): BPF
//! programs writing one record per request (the default) and a trace instance writing
//! one per event (the fallback, or `IOMARK_BLOCK_TRACER=tracefs`) split the same reads
//! alike, and the job's notes say which ran. The other tests run the default.

use super::{check_direct_reads, n, traced};
use crate::support::blktrace::TRACING;
use crate::support::devices::LoopDevice;
use crate::support::report::report_json;
use crate::support::run::{command, text, IOMARK};
use serde_json::Value;

/// A JSON run of 3000 direct reads of `dev` traced by `tracer`, and its split.
fn reads_by(dev: &str, tracer: &str, depth: &str) -> Option<(Value, Value)> {
    let dir = crate::support::run::tempdir();
    let file = format!("--filename={dev}");
    let args = [
        "--name=j",
        "--block-latency",
        "--output-format=json",
        &file,
        "--direct=1",
        "--rw=randread",
        "--bs=4k",
        "--ioengine=libaio",
        depth,
        "--number_ios=3000",
    ];
    let out = command(IOMARK)
        .current_dir(dir.path())
        .args(args)
        .env("IOMARK_BLOCK_TRACER", tracer)
        .output()
        .expect("run iomark");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report = report_json(IOMARK, &out);
    let b = traced(&report)?;
    let notes: Vec<&str> = b["notes"].as_array()?.iter().filter_map(Value::as_str).collect();
    if let Some(refused) = notes.iter().find(|n| n.contains("BPF:")) {
        eprintln!("skipped: the BPF path here: {refused}");
        return None;
    }
    let says = if tracer == "bpf" { "traced by BPF programs" } else { "through a trace instance" };
    assert!(notes.iter().any(|n| n.contains(says)), "no note of the path in {notes:?}");
    Some((report, b))
}

#[test]
fn bpf_programs_and_a_trace_instance_split_direct_reads_alike() {
    let _one = TRACING.lock().unwrap_or_else(|e| e.into_inner());
    let Some(disk) = LoopDevice::new(16 << 20) else { return };
    for depth in ["--iodepth=1", "--iodepth=8"] {
        for tracer in ["bpf", "tracefs"] {
            let Some((report, b)) = reads_by(&disk.dev, tracer, depth) else { continue };
            if depth.ends_with("=1") {
                check_direct_reads(&report, &b, 3000);
            }
            let (ios, matched, lost) = (n(&b, "ios"), n(&b, "matched"), n(&b, "lost_records"));
            assert!(matched == ios || lost > 0, "{tracer} {depth}: {b}");
            // One record per request by BPF; one per event (Q, D, C) by the instance.
            let per_io = if tracer == "bpf" { 1 } else { 3 };
            assert!(n(&b, "records") >= per_io * matched, "{tracer} {depth}: {b}");
            assert!(n(&b, "records") <= per_io * (ios + lost) + 64, "{tracer} {depth}: {b}");
        }
    }
}
