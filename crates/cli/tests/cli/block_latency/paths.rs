//! The two ways of tracing (docs/block-latency.md, "Which records"): a trace instance
//! writing one record per event (the default) and BPF programs writing one per request
//! (`IOMARK_BLOCK_TRACER=bpf`) split the same reads alike, and the job's notes say which
//! ran. The other tests run the default.

use super::{check_direct_reads, n, traced};
use crate::support::blktrace::TRACING;
use crate::support::devices::LoopDevice;
use crate::support::report::report_json;
use crate::support::run::{command, text, IOMARK};
use serde_json::Value;

/// A JSON run of 3000 direct reads of `dev` by `engine` traced by `tracer`, and its split.
fn reads_by(dev: &str, tracer: &str, engine: [&str; 2]) -> Option<(Value, Value)> {
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
        engine[0],
        engine[1],
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
    if let Some(refused) = notes.iter().find(|n| n.contains("not BPF:")) {
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
    for engine in [["--ioengine=psync", "--iodepth=1"], ["--ioengine=libaio", "--iodepth=8"]] {
        for tracer in ["bpf", "tracefs"] {
            let Some((report, b)) = reads_by(&disk.dev, tracer, engine) else { continue };
            let depth = engine[1];
            let (ios, matched, lost) = (n(&b, "ios"), n(&b, "matched"), n(&b, "lost_records"));
            if engine[0].ends_with("psync") && (tracer != "bpf" || matched == ios) {
                // Synchronous: the segments add up to clat.
                check_direct_reads(&report, &b, 3000);
            }
            if tracer == "bpf" {
                // The BPF programs run from perf's tracepoint handler, which can skip one
                // without counting it (docs/block-latency.md, "Which records"): such an
                // I/O is reported unmatched. A few in a thousand, never a pattern.
                assert!(ios - matched <= lost + ios / 100, "{tracer} {depth}: {b}");
            } else {
                assert!(matched == ios || lost > 0, "{tracer} {depth}: {b}");
            }
            // One record per request by BPF; one per event (Q, D, C) by the instance.
            let per_io = if tracer == "bpf" { 1 } else { 3 };
            assert!(n(&b, "records") >= per_io * matched, "{tracer} {depth}: {b}");
            assert!(n(&b, "records") <= per_io * (ios + lost) + 64, "{tracer} {depth}: {b}");
        }
    }
}
