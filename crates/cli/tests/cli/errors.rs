//! What a job does when its I/Os fail: `continue_on_error`, `ignore_error`, `error_dump`.
//!
//! The failures are real and deterministic: every write to `/dev/full` fails with `ENOSPC`
//! and every read of it succeeds. Counts and exit codes are compared with fio 3.33 where it
//! is installed (else `skipped: fio not installed`). The report layouts themselves (the
//! `errors` line, `total_err`/`first_error`, the terse fields) are compared byte for byte
//! with fio's output in the report crate's golden tests (fixture `errors.fio`).

use crate::support::report::report_json;
use crate::support::run::{run_job_file, tempdir, text, IOMARK};
use crate::support::tools::programs;
use serde_json::Value;
use std::path::Path;
use std::process::Output;

/// Runs `program` on `job` (written to `job.fio` in a fresh directory) with a JSON report.
fn run(program: &str, job: &str) -> Output {
    run_job_file(tempdir().path(), program, job)
}

fn report(program: &str, out: &Output) -> Value {
    report_json(program, out)
}

fn have_dev_full() -> bool {
    let ok = Path::new("/dev/full").exists();
    if !ok {
        eprintln!("skipped: no /dev/full");
    }
    ok
}

/// 16 writes of 4k to /dev/full (each fails with ENOSPC), plus `extra`.
fn full_job(rw: &str, extra: &str) -> String {
    format!("[j]\nioengine=psync\nfilename=/dev/full\nbs=4k\nsize=64k\nrw={rw}\n{extra}\n")
}

/// What the JSON report says of the first job: (error, total_err, first_error, issued
/// reads, issued writes, written bytes).
fn summary(r: &Value) -> (i64, Option<u64>, Option<i64>, u64, u64, u64) {
    let j = &r["jobs"][0];
    let n = |v: &Value| v.as_u64().expect("a count");
    (
        j["error"].as_i64().expect("error"),
        j.get("total_err").map(n),
        j.get("first_error").map(|v| v.as_i64().expect("first_error")),
        n(&j["read"]["total_ios"]),
        n(&j["write"]["total_ios"]),
        n(&j["write"]["io_bytes"]),
    )
}

#[test]
fn the_first_error_ends_a_job_by_default() {
    if !have_dev_full() {
        return;
    }
    for program in programs() {
        let out = run(program, &full_job("write", ""));
        assert_eq!(out.status.code(), Some(1), "{program}");
        // The failed write counts as issued; no error count without continue_on_error.
        assert_eq!(summary(&report(program, &out)), (28, None, None, 0, 1, 0), "{program}");
    }
}

#[test]
fn continue_on_error_goes_on_only_past_eio_and_eilseq() {
    if !have_dev_full() {
        return;
    }
    for program in programs() {
        let out = run(program, &full_job("write", "continue_on_error=all"));
        assert_eq!(out.status.code(), Some(1), "{program}: ENOSPC is fatal");
        assert_eq!(summary(&report(program, &out)), (28, Some(1), Some(28), 0, 1, 0), "{program}");
    }
}

#[test]
fn ignore_error_goes_on_past_its_errors_and_exits_0() {
    if !have_dev_full() {
        return;
    }
    let cases = [
        "continue_on_error=write\nignore_error=,ENOSPC",
        "ignore_error=,ENOSPC",
        "continue_on_error=read\nignore_error=,28",
        "continue_on_error=1\nignore_error=EIO,EIO:-28",
    ];
    for program in programs() {
        for extra in cases {
            let out = run(program, &full_job("write", extra));
            assert_eq!(out.status.code(), Some(0), "{program} {extra:?}");
            let got = summary(&report(program, &out));
            assert_eq!(got, (28, Some(16), Some(28), 0, 16, 0), "{program} {extra:?}");
        }
    }
}

#[test]
fn reads_that_succeed_are_measured_beside_writes_that_fail() {
    if !have_dev_full() {
        return;
    }
    for program in programs() {
        let out = run(program, &full_job("rw", "ignore_error=,ENOSPC"));
        let r = report(program, &out);
        let (error, total, first, reads, writes, bytes) = summary(&r);
        assert_eq!((error, first, bytes), (28, Some(28), 0), "{program}");
        assert_eq!((reads + writes, total), (16, Some(writes)), "{program}");
        let read = &r["jobs"][0]["read"];
        assert_eq!(read["io_bytes"].as_u64(), Some(reads * 4096), "{program}");
        assert_eq!(read["clat_ns"]["N"].as_u64(), Some(reads), "{program}");
        assert_eq!(r["jobs"][0]["write"]["clat_ns"]["N"].as_u64(), Some(0), "{program}");
    }
}

#[test]
fn a_job_without_errors_reports_a_zero_count_when_it_may_go_on() {
    for program in programs() {
        let out = run(program, "[j]\nioengine=null\nsize=64k\ncontinue_on_error=all\n");
        assert_eq!(summary(&report(program, &out)), (0, Some(0), Some(0), 16, 0, 0), "{program}");
    }
}

#[test]
fn error_dump_describes_every_error() {
    if !have_dev_full() {
        return;
    }
    for (dump, lines) in [("0", 0), ("1", 16)] {
        let job = full_job("write", &format!("ignore_error=,ENOSPC\nerror_dump={dump}"));
        let out = run(IOMARK, &job);
        let err = text(&out.stderr);
        let described = err.lines().filter(|l| l.contains("I/O error on file /dev/full")).count();
        assert_eq!(described, lines, "error_dump={dump}:\n{err}");
        if dump == "1" {
            assert!(err.contains("No space left on device: write offset=61440, buflen=4096"));
        }
    }
}

#[test]
fn a_bad_error_list_is_refused_with_the_option() {
    let out = run(IOMARK, &full_job("write", "ignore_error=,ENOSUCH"));
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("job 'j': option 'ignore_error': ',ENOSUCH': unknown error 'ENOSUCH'"));
}

#[test]
fn a_failed_fsync_counts_as_a_sync_issued() {
    // /dev/zero takes writes and refuses fsync with EINVAL.
    if !Path::new("/dev/zero").exists() {
        eprintln!("skipped: no /dev/zero");
        return;
    }
    let job = "[j]\nioengine=psync\nfilename=/dev/zero\nbs=4k\nsize=16k\nrw=write\nfsync=2\n";
    for program in programs() {
        let out = run(program, job);
        assert_eq!(out.status.code(), Some(1), "{program}");
        let r = report(program, &out);
        let j = &r["jobs"][0];
        assert_eq!(j["error"], 22, "{program}");
        assert_eq!(j["write"]["total_ios"], 2, "{program}");
        // Issued, but not in the sync latency.
        assert_eq!(j["sync"]["total_ios"], 1, "{program}");
        assert_eq!(j["sync"]["lat_ns"]["N"], 0, "{program}");
        let err = text(&out.stderr);
        assert!(
            err.contains("error on file /dev/zero: Invalid argument: sync offset="),
            "{program}: {err}"
        );
    }
}
