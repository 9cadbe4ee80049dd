//! Signals, as fio 3.33 takes them: SIGINT and SIGTERM stop the run and print the report of
//! what was done (exit code 128), a second SIGINT exits at once (130), SIGUSR1 and
//! `--status-interval` print interim reports.
//!
//! Each test spawns the binary, waits until its job has written to its data file (so that
//! the job is running and has completed I/O; no fixed sleep), and sends the signal with the
//! `kill` program (see [`crate::support::process`]). No timing is asserted: a generous
//! timeout only keeps a broken build from hanging the test run.

use crate::support::process::{fifo, poll_until, Gate, Running};
use crate::support::report::documents;
use crate::support::run::{run_in, tempdir, text, IOMARK};
use serde_json::Value;
use std::path::Path;
use std::process::{ExitStatus, Stdio};

/// A temporary directory for a test that sends signals; `None` (the test skips) when there
/// is no `kill` program.
fn setup() -> Option<tempfile::TempDir> {
    let kill = crate::support::run::command("kill").arg("-l").stdout(Stdio::null()).status();
    if kill.is_err() {
        eprintln!("skipped: no `kill` program to send signals with");
        return None;
    }
    Some(tempdir())
}

/// Waits until block `block` (of 4 KiB) of the job's data file holds written data: the
/// job runs and has done that much I/O. Nothing announces a write to the file, so the
/// test looks at it.
fn wait_for_block(run: &mut Running, data: &Path, block: usize) {
    let written = poll_until(|| {
        run.assert_running();
        let bytes = std::fs::read(data).ok()?;
        let block = bytes.get(block * 4096..(block + 1) * 4096)?;
        block.iter().any(|&b| b != 0).then_some(())
    });
    assert!(written.is_some(), "the job never wrote; stderr: {}", run.stderr.text());
}

/// Waits until the job's data file holds written data: the job runs and has completed I/O.
fn wait_for_writes(run: &mut Running, data: &Path) {
    wait_for_block(run, data, 0);
}

/// A time-based psync writer over `dir/data` that would run 60 s, with `extra` options.
fn writer(dir: &Path, extra: &[&str]) -> Vec<String> {
    let data = dir.join("data");
    let mut args: Vec<String> = [
        "--name=w",
        "--ioengine=psync",
        "--rw=write",
        "--bs=4k",
        "--size=1m",
        "--time_based",
        "--runtime=60",
        "--output-format=json",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    args.push(format!("--filename={}", data.display()));
    args.extend(extra.iter().map(|s| s.to_string()));
    args
}

/// Starts `args` (whose first job writes `dir/data`), waits until it has written block
/// `block`, sends `signal` and waits for the end.
fn stop_running(dir: &Path, args: &[String], block: usize, signal: &str) -> (Running, ExitStatus) {
    let mut run = Running::start(dir, args);
    wait_for_block(&mut run, &dir.join("data"), block);
    assert!(run.signal(signal));
    let status = run.wait();
    (run, status)
}

/// The writes of every job of a report.
fn total_ios(doc: &Value) -> u64 {
    doc["jobs"]
        .as_array()
        .expect("jobs")
        .iter()
        .map(|j| j["write"]["total_ios"].as_u64().unwrap())
        .sum()
}

/// Stops a running writer with `signal` and checks what fio 3.33 does: one message on
/// standard error, the whole report of what was done as one JSON document, exit code 128.
fn stops_with(signal: &str, number: i32) {
    let Some(dir) = setup() else { return };
    // 1000 writes a second: the second block is written 1 ms into the job, so the job has
    // run at least that long when the signal comes.
    let writer = writer(dir.path(), &["--rate_iops=1000"]);
    let (run, status) = stop_running(dir.path(), &writer, 1, signal);
    let (out, err) = (run.stdout.bytes(), run.stderr.text());
    assert_eq!(status.code(), Some(128), "exit code after SIG{signal}; stderr: {err}");
    assert!(err.contains(&format!("iomark: terminating on signal {number}")), "stderr: {err}");
    let doc: Value = serde_json::from_slice(&out).expect("standard output is one JSON document");
    assert!(total_ios(&doc) >= 2, "the report shows the I/O done");
    let job = &doc["jobs"][0];
    assert!(job["job_runtime"].as_u64().unwrap() >= 1, "the job's real runtime");
    assert_eq!(job["error"], 0);
}

#[test]
fn sigint_stops_the_run_and_prints_its_report() {
    stops_with("INT", 2);
}

#[test]
fn sigterm_stops_the_run_and_prints_its_report() {
    stops_with("TERM", 15);
}

#[test]
fn a_stop_ends_a_startdelay_and_the_jobs_not_started_show_nothing() {
    let Some(dir) = setup() else { return };
    // The first job writes; the second, beside it, waits 600 s before its start
    // (startdelay); the third would start after both (stonewall).
    let data2 = dir.path().join("data2");
    let mut args = writer(dir.path(), &[]);
    args.extend([
        "--name=delayed".to_string(),
        "--startdelay=600".to_string(),
        "--size=1m".to_string(),
        format!("--filename={}", data2.display()),
        "--name=later".to_string(),
        "--stonewall".to_string(),
        "--size=1m".to_string(),
        format!("--filename={}", data2.display()),
    ]);
    let (run, status) = stop_running(dir.path(), &args, 0, "INT");
    assert_eq!(status.code(), Some(128), "stderr: {}", run.stderr.text());
    let doc: Value = serde_json::from_slice(&run.stdout.bytes()).expect("one JSON document");
    let jobs = doc["jobs"].as_array().expect("jobs");
    let names: Vec<&str> = jobs.iter().map(|j| j["jobname"].as_str().unwrap()).collect();
    assert_eq!(names, ["w", "delayed", "later"], "every job is in the report");
    assert!(jobs[0]["write"]["total_ios"].as_u64().unwrap() > 0);
    for job in &jobs[1..] {
        assert_eq!(job["write"]["total_ios"], 0, "{} did nothing", job["jobname"]);
        assert_eq!(job["job_runtime"], 0);
    }
}

#[test]
fn a_stop_during_layout_removes_the_partial_file() {
    let Some(dir) = setup() else { return };
    let output = dir.path().join("report.json");
    let big = dir.path().join("big");
    // A reader's file is written out first: 2 GiB would take seconds.
    let args: Vec<String> = vec![
        "--name=r".into(),
        "--ioengine=psync".into(),
        "--rw=read".into(),
        "--size=2g".into(),
        format!("--filename={}", big.display()),
        "--output-format=json".into(),
        format!("--output={}", output.display()),
    ];
    let mut run = Running::start(dir.path(), &args);
    // The output file is made after the signals are taken, before the layout (nothing
    // announces it: the test looks).
    assert!(poll_until(|| output.exists().then_some(())).is_some());
    assert!(run.signal("INT"));
    let status = run.wait();
    assert_eq!(status.code(), Some(128), "stderr: {}", run.stderr.text());
    assert!(!big.exists(), "the partly laid out file is removed");
    let doc: Value = serde_json::from_slice(&std::fs::read(&output).unwrap()).expect("one JSON");
    assert_eq!(doc["jobs"][0]["read"]["total_ios"], 0);
}

#[test]
fn a_second_sigint_exits_at_once() {
    let Some(dir) = setup() else { return };
    let Some(fifo) = fifo(dir.path(), "report.fifo") else { return };
    // A reader that never reads: the report (32 jobs, far more than a pipe holds) cannot be
    // written, so the run is still finishing when the second signal comes.
    use std::os::unix::fs::OpenOptionsExt;
    let _reader = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(&fifo)
        .expect("open the fifo");
    let output = format!("--output={}", fifo.display());
    let mut run = Running::start(dir.path(), &writer(dir.path(), &["--numjobs=32", &output]));
    wait_for_writes(&mut run, &dir.path().join("data"));
    assert!(run.signal("INT"));
    let message = "iomark: terminating on signal 2";
    let said = run.stderr.wait_for(|err| text(err).contains(message).then_some(()));
    assert!(said.is_some(), "stderr: {}", run.stderr.text());
    assert!(run.signal("INT"));
    let status = run.wait();
    assert_eq!(status.code(), Some(130), "128 + SIGINT; stderr: {}", run.stderr.text());
}

#[test]
fn sigusr1_prints_one_interim_report() {
    let Some(dir) = setup() else { return };
    let mut run = Running::start(dir.path(), &writer(dir.path(), &[]));
    wait_for_writes(&mut run, &dir.path().join("data"));
    assert!(run.signal("USR1"));
    let interim = run.stdout.wait_for(|out| documents(out).into_iter().next());
    let interim = interim.expect("an interim report");
    assert!(total_ios(&interim) > 0);
    assert!(run.signal("INT"));
    let status = run.wait();
    assert_eq!(status.code(), Some(128), "stderr: {}", run.stderr.text());
    let out = run.stdout.bytes();
    let docs = documents(&out);
    assert_eq!(docs.len(), 2, "the interim report and the final one");
    assert!(total_ios(&docs[1]) >= total_ios(&docs[0]), "the final report counts everything");
    // Nothing but the two documents.
    let mut stream = serde_json::Deserializer::from_slice(&out).into_iter::<Value>();
    assert!(stream.by_ref().take(2).all(|d| d.is_ok()));
    assert!(stream.next().is_none());
}

#[test]
fn status_interval_prints_cumulative_reports_then_the_final_one() {
    // A reader that would run an hour, printing a report every 250 ms; when two have come
    // the test opens the gate, whose job's end stops the reader (exitall). The gate job's
    // one read shows in the final report alone.
    let dir = tempdir();
    let Some(mut gate) = Gate::new(dir.path()) else { return };
    let mut args: Vec<String> = [
        "--output-format=json",
        "--status-interval=250ms",
        "--name=s",
        "--ioengine=null",
        "--size=1g",
        "--time_based",
        "--runtime=1h",
    ]
    .map(String::from)
    .to_vec();
    args.extend(gate.job());
    let mut run = Running::start(dir.path(), &args);
    let interims = run.stdout.wait_for(|out| Some(documents(out).len()).filter(|&n| n >= 2));
    let interims = interims.unwrap_or_else(|| panic!("no interim reports: {}", run.stderr.text()));
    gate.open();
    let status = run.wait();
    assert_eq!(status.code(), Some(0), "stderr: {}", run.stderr.text());
    let out = run.stdout.bytes();
    let docs: Vec<Value> = serde_json::Deserializer::from_slice(&out)
        .into_iter::<Value>()
        .map(|d| d.expect("every document parses"))
        .collect();
    assert!(docs.len() >= 3, "interim reports, then the final one: {} documents", docs.len());
    let reads = |d: &Value, job: usize| d["jobs"][job]["read"]["total_ios"].as_u64().unwrap();
    let ios: Vec<u64> = docs.iter().map(|d| reads(d, 0)).collect();
    assert!(ios.windows(2).all(|w| w[0] <= w[1]), "cumulative since the start: {ios:?}");
    // The reports printed before the gate opened have nothing of the gate job; the last,
    // the final report, has its read.
    let gated: Vec<u64> = docs.iter().map(|d| reads(d, 1)).collect();
    assert!(gated[..interims].iter().all(|&n| n == 0), "{gated:?}");
    assert_eq!(gated.last(), Some(&1), "the last is the final report: {gated:?}");
}

#[test]
fn a_status_interval_below_one_millisecond_is_refused() {
    let args = ["--name=s", "--ioengine=null", "--size=1m", "--status-interval=0"];
    let out = run_in(tempdir().path(), IOMARK, &args);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("--status-interval: too small (1msec min)"), "stderr: {err}");
}
