//! `--bandwidth-log`: fio's aggregate bandwidth logs, sampled while the ETA line runs, as
//! fio 3.33 writes them.

use super::{fio_ok, logs_in, parse_rows, read, rows, shape};
use crate::support::process::{poll_until, Gate, Running};
use crate::support::run::{iomark_ok, tempdir};
use crate::support::tools::fio_installed;

const AGG: [&str; 3] = ["agg-read_bw.log", "agg-trim_bw.log", "agg-write_bw.log"];

/// A read job with `--bandwidth-log` and the ETA line as `eta` says, of one second unless a
/// later `--runtime` says otherwise.
fn agg_args(eta: &str) -> Vec<&str> {
    vec![
        "--bandwidth-log",
        eta,
        "--eta-interval=250ms",
        "--output=/dev/null",
        "--name=j",
        "--ioengine=null",
        "--size=1g",
        "--rw=read",
        "--time_based",
        "--runtime=1s",
    ]
}

#[test]
fn the_bandwidth_log_samples_all_jobs_while_the_eta_line_runs() {
    // The reader would run an hour: it runs until the log holds two samples, when the
    // test opens the gate and the gate job's end stops it (exitall). The log's rows come
    // from a thread on a timer, which tells nobody: the test looks at the file.
    let dir = tempdir();
    let Some(mut gate) = Gate::new(dir.path()) else { return };
    let mut args: Vec<String> = agg_args("--eta=always").into_iter().map(String::from).collect();
    args.push("--runtime=1h".into());
    args.extend(gate.job());
    let mut run = Running::start(dir.path(), &args);
    let log = dir.path().join("agg-read_bw.log");
    let sampled = poll_until(|| {
        run.assert_running();
        let rows = std::fs::read_to_string(&log).unwrap_or_default().lines().count();
        (rows >= 2).then_some(())
    });
    assert!(sampled.is_some(), "no two samples; stderr: {}", run.stderr.text());
    gate.open();
    assert_eq!(run.wait().code(), Some(0), "{}", run.stderr.text());
    assert_eq!(logs_in(dir.path()), AGG);
    let read = parse_rows(dir.path(), "agg-read_bw.log");
    assert!(read.len() >= 2, "{read:?}");
    assert!(read.iter().all(|r| r.dir == 0 && r.value > 0 && r.bs == 0));
    assert!(read.windows(2).all(|w| w[0].time < w[1].time));
    for (name, d) in [("agg-write_bw.log", 1), ("agg-trim_bw.log", 2)] {
        let rows = parse_rows(dir.path(), name);
        assert_eq!(rows.len(), read.len(), "{name}");
        assert!(rows.iter().all(|r| r.dir == d && r.value == 0), "{name}");
    }
    assert!(rows(dir.path(), "agg-read_bw.log").iter().all(|r| r.len() == 5));
}

#[test]
fn the_bandwidth_log_stays_empty_without_the_eta_line_as_in_fio() {
    let dir = tempdir();
    iomark_ok(dir.path(), &agg_args("--eta=never"), false);
    assert_eq!(logs_in(dir.path()), AGG);
    for name in AGG {
        assert_eq!(read(dir.path(), name), "", "{name}");
    }
}

#[test]
fn the_bandwidth_log_matches_fios_files_and_columns() {
    if !fio_installed() {
        return;
    }
    let (theirs, ours) = (tempdir(), tempdir());
    let args = agg_args("--eta=always");
    fio_ok(theirs.path(), &args);
    iomark_ok(ours.path(), &args, false);
    let (theirs, ours) = (shape(theirs.path()), shape(ours.path()));
    assert_eq!(ours.keys().collect::<Vec<_>>(), theirs.keys().collect::<Vec<_>>());
    for (name, (rows, columns)) in &theirs {
        assert_eq!(&ours[name].1, columns, "{name}");
        assert!(*rows > 0 && ours[name].0 > 0, "{name}");
    }
}
