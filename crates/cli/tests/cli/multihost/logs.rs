//! Log files over the protocol (`IOLOG`): a server sends its jobs' latency, bandwidth,
//! IOPS and histogram logs back, and the client writes each as `NAME.HOST`. Under the
//! fake clock, what iomark's and fio's clients write from an iomark server is byte for
//! byte what iomark writes running the job itself; from a fio server, iomark's client
//! writes the files fio writes running the job itself, with the same rows where the job
//! decides them (fio 3.33's own client loses the last rows of a compressed log).

use super::Server;
use crate::support::run::{command, entries, iomark_ok, tempdir, text, write_job, IOMARK};
use crate::support::tools::fio_3_33_installed;
use std::path::Path;

const JOB: &str = "[global]\nioengine=null\nrw=randrw\nsize=16m\nbs=4k\nrandrepeat=1\n\
                   write_lat_log=lat\nwrite_bw_log=bw\nwrite_iops_log=iops\nlog_offset=1\n\
                   write_hist_log=hist\nlog_hist_msec=1\nlog_hist_coarseness=2\n[j]\nnumjobs=2\n";

/// The log files in `dir` (those whose name has `.log`), with `suffix` taken off.
fn logs(dir: &Path, suffix: &str) -> Vec<(String, String)> {
    let mut found: Vec<(String, String)> = entries(dir)
        .into_iter()
        .filter(|n| n.contains(".log") && n.ends_with(suffix))
        .map(|n| {
            let bytes = std::fs::read_to_string(dir.join(&n)).expect("a log");
            (n.trim_end_matches(suffix).to_string(), bytes)
        })
        .collect();
    found.sort();
    found
}

/// Fails unless `got` and `want` are the same files with the same rows (`row` makes of
/// each line what is compared), naming the first row that differs.
fn same(got: &[(String, String)], want: &[(String, String)], row: fn(&str) -> String, who: &str) {
    let names = |l: &[(String, String)]| l.iter().map(|f| f.0.clone()).collect::<Vec<_>>();
    assert_eq!(names(got), names(want), "{who}: the files");
    for ((name, a), (_, b)) in got.iter().zip(want) {
        let (a, b): (Vec<String>, Vec<String>) =
            (a.lines().map(row).collect(), b.lines().map(row).collect());
        if let Some(i) = (0..a.len().max(b.len())).find(|&i| a.get(i) != b.get(i)) {
            panic!("{who}: {name} row {}: {:?} against {:?}", i + 1, a.get(i), b.get(i));
        }
    }
}

/// Runs `client` against `server` from a directory of its own; the logs it wrote there.
fn client_logs(client: &str, server: &Server, job: &Path) -> Vec<(String, String)> {
    let here = tempdir();
    let out = command(client)
        .current_dir(here.path())
        .arg(server.client_arg())
        .arg(job)
        .output()
        .expect("run a client");
    assert_eq!(out.status.code(), Some(0), "{client}: {}", text(&out.stderr));
    logs(here.path(), ".127.0.0.1")
}

#[test]
fn an_iomark_server_sends_the_logs_it_would_have_written() {
    let dir = tempdir();
    let job = write_job(dir.path(), JOB);
    let own = tempdir();
    iomark_ok(own.path(), &[job.to_str().unwrap(), "--output-format=terse"], true);
    let want = logs(own.path(), "");
    assert_eq!(want.len(), 2 * 6, "lat, slat, clat, bw, iops, hist for each job: {want:?}");
    assert!(want.iter().any(|(n, t)| n == "hist_clat_hist.1.log" && !t.is_empty()));
    let server = Server::start(&dir.path().join("iomark.log"));
    let whole = |l: &str| l.to_string();
    same(&client_logs(IOMARK, &server, &job), &want, whole, "iomark's client");
    if fio_3_33_installed() {
        same(&client_logs("fio", &server, &job), &want, whole, "fio's client");
    }
    // The server keeps none of them (it runs in this test's directory).
    for (name, _) in &want {
        assert!(!Path::new(name).exists(), "{name} left on the server's side");
    }
}

#[test]
fn iomark_writes_the_logs_of_a_fio_server_as_fio_writes_them() {
    if !fio_3_33_installed() {
        return;
    }
    let dir = tempdir();
    let job = write_job(dir.path(), JOB);
    let own = tempdir();
    let out = command("fio").current_dir(own.path()).arg(&job).output().expect("run fio");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let fios = logs(own.path(), "");
    let server = Server::fio(&dir.path().join("fio.log"));
    let ours = client_logs(IOMARK, &server, &job);
    // Direction, block size and offset are the job's (randrepeat); times, latencies and
    // rates are the run's, and so are the rows of windows (the histograms).
    let ours: Vec<_> = ours.into_iter().filter(|f| !f.0.starts_with("hist")).collect();
    let fios: Vec<_> = fios.into_iter().filter(|f| !f.0.starts_with("hist")).collect();
    let job_columns = |l: &str| l.split(", ").skip(2).collect::<Vec<_>>().join(", ");
    same(&ours, &fios, job_columns, "iomark's client");
}
