//! Signals, as fio 3.33 takes them: SIGINT and SIGTERM stop the run and print the report of
//! what was done (exit code 128), a second SIGINT exits at once (130), SIGUSR1 and
//! `--status-interval` print interim reports.
//!
//! Each test spawns the binary, waits until its job has written to its data file (so that
//! the job is running and has completed I/O; no fixed sleep), and sends the signal with the
//! `kill` program (the test crates have no `unsafe` for `kill(2)`). No timing is asserted:
//! a generous timeout only keeps a broken build from hanging the test run.

use serde_json::Value;
use std::io::Read;
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Far more than any of these runs needs; only a hang reaches it.
const TIMEOUT: Duration = Duration::from_secs(60);

/// Sends `signal` (`INT`, `TERM`, `USR1`) to `child` with the `kill` program; `false` when
/// there is no `kill` program.
fn kill(child: &Child, signal: &str) -> bool {
    match Command::new("kill").arg(format!("-{signal}")).arg(child.id().to_string()).status() {
        Ok(status) => {
            assert!(status.success(), "kill -{signal} failed");
            true
        }
        Err(_) => false,
    }
}

/// A temporary directory for a test that sends signals; `None` (the test skips) when there
/// is no `kill` program.
fn setup() -> Option<tempfile::TempDir> {
    if Command::new("kill").arg("-l").stdout(Stdio::null()).status().is_err() {
        eprintln!("skipped: no `kill` program to send signals with");
        return None;
    }
    Some(tempfile::tempdir().expect("temporary directory"))
}

/// Everything a stream carries, gathered by a thread of its own (so that the child never
/// blocks on a full pipe), readable while the child runs.
#[derive(Clone, Default)]
struct Gathered(Arc<Mutex<Vec<u8>>>);

impl Gathered {
    fn start(mut stream: impl Read + Send + 'static) -> Gathered {
        let gathered = Gathered::default();
        let sink = gathered.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            while let Ok(n) = stream.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.0.lock().unwrap().extend_from_slice(&buf[..n]);
            }
        });
        gathered
    }

    fn bytes(&self) -> Vec<u8> {
        self.0.lock().unwrap().clone()
    }

    fn text(&self) -> String {
        String::from_utf8_lossy(&self.bytes()).into_owned()
    }
}

/// A running `iomark` with its standard output and error gathered.
struct Run {
    child: Child,
    stdout: Gathered,
    stderr: Gathered,
}

impl Run {
    fn start(args: &[String]) -> Run {
        let mut child = Command::new(env!("CARGO_BIN_EXE_iomark"))
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run iomark");
        let stdout = Gathered::start(child.stdout.take().unwrap());
        let stderr = Gathered::start(child.stderr.take().unwrap());
        Run { child, stdout, stderr }
    }

    /// Waits for the end (killing the child and failing after [`TIMEOUT`]).
    fn wait(&mut self) -> ExitStatus {
        let status = wait_until(|| self.child.try_wait().expect("try_wait"));
        // Let the gathering threads take the last bytes.
        std::thread::sleep(Duration::from_millis(50));
        status.unwrap_or_else(|| {
            let _ = self.child.kill();
            panic!("iomark did not end; stderr: {}", self.stderr.text())
        })
    }
}

impl Drop for Run {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Polls `f` every 10 ms until it gives something, for at most [`TIMEOUT`].
fn wait_until<T>(mut f: impl FnMut() -> Option<T>) -> Option<T> {
    let end = Instant::now() + TIMEOUT;
    while Instant::now() < end {
        if let Some(v) = f() {
            return Some(v);
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    None
}

/// Waits until the job's data file holds written data: the job runs and has completed I/O.
fn wait_for_writes(run: &mut Run, data: &Path) {
    let written = wait_until(|| {
        if let Ok(Some(status)) = run.child.try_wait() {
            panic!("iomark ended early ({status}); stderr: {}", run.stderr.text());
        }
        let bytes = std::fs::read(data).ok()?;
        bytes.iter().any(|&b| b != 0).then_some(())
    });
    assert!(written.is_some(), "the job never wrote; stderr: {}", run.stderr.text());
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

/// Starts `args` (whose first job writes `dir/data`), waits until it writes, sends `signal`
/// and waits for the end.
fn stop_running(dir: &Path, args: &[String], signal: &str) -> (Run, ExitStatus) {
    let mut run = Run::start(args);
    wait_for_writes(&mut run, &dir.join("data"));
    assert!(kill(&run.child, signal));
    let status = run.wait();
    (run, status)
}

/// Every whole JSON document in `bytes`, in order.
fn documents(bytes: &[u8]) -> Vec<Value> {
    serde_json::Deserializer::from_slice(bytes).into_iter::<Value>().map_while(Result::ok).collect()
}

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
    let (run, status) = stop_running(dir.path(), &writer(dir.path(), &[]), signal);
    let (out, err) = (run.stdout.bytes(), run.stderr.text());
    assert_eq!(status.code(), Some(128), "exit code after SIG{signal}; stderr: {err}");
    assert!(err.contains(&format!("iomark: terminating on signal {number}")), "stderr: {err}");
    let doc: Value = serde_json::from_slice(&out).expect("standard output is one JSON document");
    assert!(total_ios(&doc) > 0, "the report shows the I/O done");
    let job = &doc["jobs"][0];
    assert!(job["job_runtime"].as_u64().unwrap() > 0, "the job's real runtime");
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
    let (run, status) = stop_running(dir.path(), &args, "INT");
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
    let mut run = Run::start(&args);
    // The output file is made after the signals are taken, before the layout.
    assert!(wait_until(|| output.exists().then_some(())).is_some());
    assert!(kill(&run.child, "INT"));
    let status = run.wait();
    assert_eq!(status.code(), Some(128), "stderr: {}", run.stderr.text());
    assert!(!big.exists(), "the partly laid out file is removed");
    let doc: Value = serde_json::from_slice(&std::fs::read(&output).unwrap()).expect("one JSON");
    assert_eq!(doc["jobs"][0]["read"]["total_ios"], 0);
}

#[test]
fn a_second_sigint_exits_at_once() {
    let Some(dir) = setup() else { return };
    let fifo = dir.path().join("report.fifo");
    match Command::new("mkfifo").arg(&fifo).status() {
        Ok(s) if s.success() => {}
        _ => {
            eprintln!("skipped: no `mkfifo` program");
            return;
        }
    }
    // A reader that never reads: the report (32 jobs, far more than a pipe holds) cannot be
    // written, so the run is still finishing when the second signal comes.
    use std::os::unix::fs::OpenOptionsExt;
    let _reader = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(&fifo)
        .expect("open the fifo");
    let output = format!("--output={}", fifo.display());
    let mut run = Run::start(&writer(dir.path(), &["--numjobs=32", &output]));
    wait_for_writes(&mut run, &dir.path().join("data"));
    assert!(kill(&run.child, "INT"));
    let message = "iomark: terminating on signal 2";
    assert!(wait_until(|| run.stderr.text().contains(message).then_some(())).is_some());
    assert!(kill(&run.child, "INT"));
    let status = run.wait();
    assert_eq!(status.code(), Some(130), "128 + SIGINT; stderr: {}", run.stderr.text());
}

#[test]
fn sigusr1_prints_one_interim_report() {
    let Some(dir) = setup() else { return };
    let mut run = Run::start(&writer(dir.path(), &[]));
    wait_for_writes(&mut run, &dir.path().join("data"));
    assert!(kill(&run.child, "USR1"));
    let interim = wait_until(|| documents(&run.stdout.bytes()).into_iter().next());
    let interim = interim.expect("an interim report");
    assert!(total_ios(&interim) > 0);
    assert!(kill(&run.child, "INT"));
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
    let out = Command::new(env!("CARGO_BIN_EXE_iomark"))
        .args([
            "--name=s",
            "--ioengine=null",
            "--size=1g",
            "--time_based",
            "--runtime=3",
            "--output-format=json",
            "--status-interval=1",
        ])
        .stdin(Stdio::null())
        .output()
        .expect("run iomark");
    assert_eq!(out.status.code(), Some(0), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    let docs: Vec<Value> = serde_json::Deserializer::from_slice(&out.stdout)
        .into_iter::<Value>()
        .map(|d| d.expect("every document parses"))
        .collect();
    assert!(docs.len() >= 2, "interim reports, then the final one: {} documents", docs.len());
    let ios: Vec<u64> =
        docs.iter().map(|d| d["jobs"][0]["read"]["total_ios"].as_u64().unwrap()).collect();
    assert!(ios.windows(2).all(|w| w[0] <= w[1]), "cumulative since the start: {ios:?}");
    let last = &docs[docs.len() - 1]["jobs"][0];
    assert!(last["job_runtime"].as_u64().unwrap() >= 3000, "the last is the final report");
}

#[test]
fn a_status_interval_below_one_millisecond_is_refused() {
    let out = Command::new(env!("CARGO_BIN_EXE_iomark"))
        .args(["--name=s", "--ioengine=null", "--size=1m", "--status-interval=0"])
        .output()
        .expect("run iomark");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--status-interval: too small (1msec min)"), "stderr: {err}");
}
