//! Injected faults reach iomark's jobs exactly as injected: the errors a job counts
//! (`total_err`, `first_error` with `continue_on_error`) are the ones the exporter's
//! summary says it injected, reads corrupted on the way fail verification, and delays
//! delay without failing.

use super::{exclusive, summary_count, summary_value, transports, Export};
use crate::support::report::report_json;
use crate::support::run::{text, IOMARK};
use serde_json::Value;

/// Runs an iomark job (psync, 4 KiB, direct) on `export`'s volume with `extra` options;
/// its JSON job and exit code.
fn job(export: &Export, extra: &[&str]) -> (Value, Option<i32>) {
    let job = ["--output-format=json", "--name=j", "--ioengine=psync", "--bs=4k", "--direct=1"];
    let out = export.job(job.iter().chain(extra));
    (report_json(IOMARK, &out)["jobs"][0].clone(), out.status.code())
}

#[test]
fn read_errors_in_a_range_are_every_read_there_and_nothing_else() {
    let Some(_one) = exclusive() else { return };
    for transport in transports() {
        let export =
            Export::start(4 << 20, transport, &["--fail=EIO:100%:read", "--fail-range=1m-2m"]);
        let (j, _) = job(&export, &["--rw=read", "--size=4m", "--continue_on_error=read"]);
        assert_eq!(j["total_err"], 256, "{transport}: {j}");
        assert_eq!(j["first_error"], libc::EIO, "{transport}");
        let summary = export.finish();
        assert_eq!(summary_count(&summary, "read", 1), 1024, "{summary}");
        assert_eq!(summary_count(&summary, "read", 3), 256, "{summary}");
        assert!(summary.contains("first injected error: EIO (5)"), "{summary}");
    }
}

#[test]
fn a_share_of_failures_is_the_count_the_job_sees_and_the_same_for_a_seed() {
    let Some(_one) = exclusive() else { return };
    let mut counts = Vec::new();
    for transport in transports() {
        let export = Export::start(4 << 20, transport, &["--fail=EIO:10%:read", "--seed=42"]);
        let (j, _) = job(
            &export,
            &["--rw=randread", "--size=4m", "--randseed=7", "--continue_on_error=read"],
        );
        let summary = export.finish();
        let injected = summary_count(&summary, "read", 3);
        assert!(injected > 0, "{summary}");
        assert_eq!(j["total_err"].as_u64(), Some(injected), "{transport}: {summary}");
        counts.push(injected);
    }
    // The same requests, the same seed: the same faults whatever the transport.
    assert!(counts.windows(2).all(|w| w[0] == w[1]), "{counts:?}");
}

#[test]
fn writes_fail_with_enospc_once_the_threshold_has_gone_through() {
    let Some(_one) = exclusive() else { return };
    for transport in transports() {
        let export =
            Export::start(4 << 20, transport, &["--fail=ENOSPC:100%:write", "--fail-after=1m"]);
        // As fio 3.33 does, a job stops at ENOSPC whatever continue_on_error says: the
        // 257th write is the first and only one to fail.
        let (j, _) = job(&export, &["--rw=write", "--size=3m", "--continue_on_error=write"]);
        assert_eq!(
            (j["total_err"].as_u64(), j["error"].as_i64()),
            (Some(1), Some(28)),
            "{transport}"
        );
        assert_eq!(j["first_error"], libc::ENOSPC, "{transport}");
        assert_eq!(j["write"]["io_bytes"], 1 << 20, "{transport}");
        let summary = export.finish();
        assert_eq!(summary_count(&summary, "write", 3), 1, "{summary}");
        assert_eq!(summary_count(&summary, "write", 2), 1 << 20, "{summary}");
    }
}

#[test]
fn an_injected_fsync_failure_is_the_callers_error() {
    let Some(_one) = exclusive() else { return };
    for transport in transports() {
        let export = Export::start(1 << 20, transport, &["--fail=EIO:100%:fsync"]);
        let file = std::fs::OpenOptions::new().write(true).open(export.volume()).unwrap();
        let err = file.sync_all().unwrap_err();
        assert_eq!(err.raw_os_error(), Some(libc::EIO), "{transport}");
        drop(file);
        let summary = export.finish();
        assert_eq!(summary_count(&summary, "fsync", 3), 1, "{summary}");
    }
}

#[test]
fn corrupted_reads_fail_verification_and_delays_only_delay() {
    let Some(_one) = exclusive() else { return };
    for transport in transports() {
        let export = Export::start(2 << 20, transport, &["--corrupt=100%"]);
        let write = ["--name=v", "--ioengine=psync", "--rw=write", "--bs=4k", "--size=64k"];
        let out = export.job(write.iter().chain(&["--direct=1", "--verify=crc32c"]));
        assert_eq!(out.status.code(), Some(1), "{transport}: a corrupted read must fail verify");
        assert!(text(&out.stderr).contains("verify"), "{}", text(&out.stderr));
        let summary = export.finish();
        assert!(summary_count(&summary, "read", 1) > 0);
        assert!(summary_value(&summary, "corrupted") > 0, "{summary}");

        let export = Export::start(2 << 20, transport, &["--delay=1ms", "--delay-dist=uniform"]);
        let (j, code) = job(&export, &["--rw=randrw", "--size=256k", "--verify=md5"]);
        assert_eq!((j["error"].as_u64(), code), (Some(0), Some(0)), "{transport}");
        let summary = export.finish();
        let kinds = ["read", "write", "fsync", "trim"];
        let data: u64 = kinds.iter().map(|k| summary_count(&summary, k, 1)).sum();
        assert_eq!(summary_value(&summary, "delayed"), data, "{summary}");
    }
}
