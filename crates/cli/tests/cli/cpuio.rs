//! The `cpuio` engine: I/Os that burn the CPU and move no data, with the think time that
//! `cpuload` sets. Under the fake clock a job's I/O count is exact; against fio 3.33 the
//! report's shape is compared (no bytes, no rates, one clat and lat per I/O, no slat),
//! since how many chunks fit in a real second depends on the machine.

use crate::support::report::report_json;
use crate::support::run::{iomark_in, iomark_ok, run_in, tempdir, text, IOMARK};
use crate::support::tools::fio_installed;
use serde_json::Value;

const JOB: &[&str] = &["--name=c", "--ioengine=cpuio", "--cpuload=50", "--cpuchunks=1000"];

fn args<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut all = JOB.to_vec();
    all.extend_from_slice(extra);
    all
}

/// (total_ios, io_bytes, runtime, clat N, lat N, slat N) of the job's reads.
fn shape(job: &Value) -> [u64; 6] {
    let r = &job["read"];
    let n = |v: &Value| v.as_u64().unwrap_or(0);
    let (ios, bytes, runtime) = (n(&r["total_ios"]), n(&r["io_bytes"]), n(&r["runtime"]));
    [ios, bytes, runtime, n(&r["clat_ns"]["N"]), n(&r["lat_ns"]["N"]), n(&r["slat_ns"]["N"])]
}

#[test]
fn a_cpuio_job_counts_its_chunks_without_bytes() {
    let dir = tempdir();
    let out = iomark_ok(dir.path(), &args(&["--runtime=100ms", "--output-format=json"]), true);
    let json = report_json(IOMARK, &out);
    // Each cycle: a chunk, then 1000 µs of think time (cpuload=50).
    assert_eq!(shape(&json["jobs"][0]), [100, 0, 0, 100, 100, 0]);
    let out = iomark_ok(dir.path(), &args(&["--runtime=100ms"]), true);
    let normal = text(&out.stdout);
    assert!(
        normal.starts_with("c (noop): ioengine=cpuio, cpuload=50, cpucycle=1000\n"),
        "{normal}"
    );
    assert!(!normal.contains("read: IOPS"), "{normal}");
    assert!(normal.contains("issued rwts: total=100,0,0,0"), "{normal}");
}

#[test]
fn cpuio_reports_as_fio_does() {
    if !fio_installed() {
        return;
    }
    let all = args(&["--runtime=200ms", "--cpumode=qsort", "--output-format=json"]);
    for program in [IOMARK, "fio"] {
        let dir = tempdir();
        let out = run_in(dir.path(), program, &all);
        assert_eq!(out.status.code(), Some(0), "{program}: {}", text(&out.stderr));
        let [ios, bytes, runtime, clat, lat, slat] = shape(&report_json(program, &out)["jobs"][0]);
        assert!(ios > 0, "{program}");
        assert_eq!([bytes, runtime, clat, lat, slat], [0, 0, ios, ios, 0], "{program}");
    }
}

#[test]
fn cpuio_needs_cpuload_and_a_runtime() {
    let dir = tempdir();
    let out = iomark_in(dir.path(), &["--name=c", "--ioengine=cpuio", "--runtime=1"], true);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("cpuload"), "{}", text(&out.stderr));
    let out = iomark_in(dir.path(), &["--name=c", "--ioengine=cpuio", "--cpuload=10"], true);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("runtime"), "{}", text(&out.stderr));
}

#[test]
fn exit_on_io_done_ends_the_cpuio_job_with_the_io_jobs() {
    let dir = tempdir();
    let all = args(&[
        "--runtime=10s",
        "--exit_on_io_done=1",
        "--name=io",
        "--ioengine=null",
        "--size=64k",
        "--output-format=json",
    ]);
    let json = report_json(IOMARK, &iomark_ok(dir.path(), &all, true));
    // Alone, the cpuio job would burn 5000 chunks of a real millisecond each.
    let ios = shape(&json["jobs"][0])[0];
    // (None at all when the io job ends before the first chunk, on a busy machine.)
    assert!(ios < 5000, "{ios}");
    assert_eq!(shape(&json["jobs"][1])[0], 16);
}
