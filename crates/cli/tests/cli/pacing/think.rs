//! Think time: pauses after every N I/Os (counted at issue or completion), by I/O time,
//! made up for by a rate unless told not to, exact under the fake clock and counted as
//! fio 3.33 counts them.

use super::{fio_job, job_json, NULL_READS};
use crate::support::iolog::issue_times;
use crate::support::report::count;
use crate::support::run::{iomark_in, tempdir, text};
use crate::support::tools::fio_installed;
use serde_json::Value;

/// The issue times of a fake-clock run of `args`, in whole milliseconds, and its job.
fn issue_ms(args: &[&str]) -> (Vec<u64>, Value) {
    let dir = tempdir();
    let mut all = args.to_vec();
    all.push("--write_iolog=io.log");
    let job = job_json(dir.path(), &all, true, 0);
    let times = issue_times(&std::fs::read_to_string(dir.path().join("io.log")).expect("iolog"));
    (times.iter().map(|us| us / 1000).collect(), job)
}

#[test]
fn think_time_pauses_after_every_n_ios_counted_as_asked() {
    for kind in ["complete", "issue"] {
        let kind = format!("--thinktime_blocks_type={kind}");
        let args = [
            &NULL_READS[..],
            &["--iodepth=8", "--thinktime=1ms", "--thinktime_blocks=4", "--number_ios=16"],
            &[&kind],
        ]
        .concat();
        let (ms, job) = issue_ms(&args);
        assert_eq!(ms, [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3], "{kind}");
        // The last I/O is followed by its pause too, as in fio.
        assert_eq!(count(&job, "read", "runtime"), 4, "{kind}");
    }
    // A bare number is in microseconds; spinning under the fake clock is a jump too.
    let args =
        [&NULL_READS[..], &["--thinktime=2000", "--thinktime_spin=500", "--number_ios=3"]].concat();
    assert_eq!(issue_ms(&args).0, [0, 2, 4]);
}

#[test]
fn think_time_by_io_time_pauses_iotime_plus_thinktime_apart() {
    // fio 3.33 with thinktime=500ms thinktime_iotime=1: pauses from 1.5 s, 3 s and 4.5 s.
    let args = [
        &NULL_READS[..],
        &["--thinktime=500ms", "--thinktime_iotime=1", "--time_based", "--runtime=6"],
        &["--rate_iops=1000"],
    ]
    .concat();
    let (ms, _) = issue_ms(&args);
    let pauses: Vec<(u64, u64)> =
        ms.windows(2).filter(|w| w[1] - w[0] > 100).map(|w| (w[0], w[1])).collect();
    assert_eq!(pauses.len(), 3, "{pauses:?}");
    // Each pause starts with the first I/O due after its time (1000 IOPS: within a
    // millisecond, which each pause can add) and lasts 500 ms.
    for (k, (last_io, resumed)) in pauses.into_iter().enumerate() {
        let at = 1500 * (k as u64 + 1);
        assert!((at..=at + 3).contains(&last_io), "pause {k} after {last_io} ms");
        assert!((last_io + 499..=last_io + 501).contains(&resumed), "pause {k} to {resumed}");
    }
}

#[test]
fn a_rate_makes_up_for_think_time_unless_told_not_to() {
    let common = [
        &NULL_READS[..],
        &["--number_ios=30", "--rate_iops=1000", "--thinktime=10ms", "--thinktime_blocks=10"],
    ]
    .concat();
    // fio 3.33: the ten I/Os that fell due during the pause go at once...
    let (ms, _) = issue_ms(&common);
    assert_eq!(&ms[..12], &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 19, 19]);
    assert_eq!(&ms[19..22], &[19, 29, 29]);
    // ... and with rate_ignore_thinktime the schedule goes on from the pause's end.
    let (ms, _) = issue_ms(&[&common[..], &["--rate_ignore_thinktime=1"]].concat());
    assert_eq!(&ms[9..14], &[9, 19, 20, 21, 22]);
}

#[test]
fn rate_min_fails_a_thinking_job_as_fio_does() {
    // fio 3.33's own example: 100 IOPS at most against a minimum of 1000.
    let dir = tempdir();
    let args = [
        &NULL_READS[..],
        &["--thinktime=10ms", "--rate_iops_min=1000", "--time_based", "--runtime=10"],
    ]
    .concat();
    let out = iomark_in(dir.path(), &args, true);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("a: rate_iops_min=1000 not met, got 99 IOPS"));
    let report = text(&out.stdout);
    assert!(report.contains("err= 5 (check_min_rate: Input/output error"), "{report}");
    // fio ends it after 3006 ms: 2 s, then a cycle.
    assert!(report.contains("(1204KiB/3010msec)"), "{report}");
    // With `rate_cycle=0` each completion after the first two seconds is a check, of the
    // rate since the one before (fio 3.33 ends such a job after one more I/O, too).
    let out = iomark_in(dir.path(), &[&args[..], &["--rate_cycle=0"]].concat(), true);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("a: rate_iops_min=1000 not met, got 99 IOPS"));
    assert!(text(&out.stdout).contains("(808KiB/2020msec)"), "{}", text(&out.stdout));
}

#[test]
fn think_time_counts_match_fio() {
    if !fio_installed() {
        return;
    }
    let dir = tempdir();
    let cases: [&[&str]; 2] = [
        &["--iodepth=8", "--thinktime=1ms", "--thinktime_blocks=4", "--number_ios=16"],
        &["--thinktime=100", "--thinktime_blocks_type=issue", "--size=64k", "--rw=read"],
    ];
    for case in cases {
        let args = [&NULL_READS[..], case].concat();
        let fio = fio_job(dir.path(), &args);
        let ours = job_json(dir.path(), &args, true, 0);
        assert_eq!(count(&ours, "read", "total_ios"), count(&fio, "read", "total_ios"), "{case:?}");
    }
}
