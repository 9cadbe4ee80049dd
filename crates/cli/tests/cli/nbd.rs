//! The `nbd` engine against a real NBD server: `nbdkit memory` on a Unix socket that the
//! test starts (in nbdkit's captive mode, which prints the socket once it listens) and
//! stops in a guard. Counts are compared with fio 3.33 on the same server; data written by
//! one run is read back and verified by another (a fresh connection), and a region never
//! written fails verification, so the data really went to the server and back.

use crate::support::report::report_json;
use crate::support::run::{command, run_in, tempdir, text, IOMARK};
use crate::support::tools::{fio_installed, have};
use std::io::{BufRead, BufReader};
use std::process::{Child, ChildStdin, Stdio};

/// An `nbdkit memory` server, stopped when dropped.
struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    uri: String,
}

impl Server {
    /// A RAM disk of `size` on a Unix socket; `None` (with the skip message) without nbdkit.
    fn memory(size: &str) -> Option<Server> {
        if !have("nbdkit", &["--version"]) {
            return None;
        }
        // Captive mode: nbdkit runs the script once it listens and stops when it ends; the
        // script prints the socket and waits for its standard input to close.
        let mut child = command("nbdkit")
            .args(["-U", "-", "memory", &format!("size={size}"), "--run"])
            .arg("echo \"$unixsocket\"; read _")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start nbdkit");
        let stdin = child.stdin.take();
        let mut line = String::new();
        let mut out = BufReader::new(child.stdout.take().expect("nbdkit stdout"));
        out.read_line(&mut line).expect("nbdkit's socket");
        let socket = line.trim().to_string();
        assert!(!socket.is_empty(), "nbdkit printed no socket");
        Some(Server { child, stdin, uri: format!("nbd+unix:///?socket={socket}") })
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        // Closing the script's input ends it, and nbdkit with it. (Killing the process
        // started would leave the server it forked running.)
        drop(self.stdin.take());
        let _ = self.child.wait();
    }
}

/// Per direction: I/Os and bytes; and the job's error.
fn counts(program: &str, args: &[&str]) -> (Option<i32>, u64, [(u64, u64); 3]) {
    let dir = tempdir();
    let mut all = args.to_vec();
    all.push("--output-format=json");
    let out = run_in(dir.path(), program, &all);
    if out.status.code() != Some(0) {
        return (out.status.code(), 0, [(0, 0); 3]);
    }
    let json = report_json(program, &out);
    let job = &json["jobs"][0];
    let n = |d: &str, k: &str| job[d][k].as_u64().unwrap_or(0);
    let dirs = ["read", "write", "trim"].map(|d| (n(d, "total_ios"), n(d, "io_bytes")));
    (out.status.code(), job["error"].as_u64().unwrap_or(0), dirs)
}

/// Reads, writes and trims issued.
type Ios = (u64, u64, u64);

#[test]
fn nbd_jobs_issue_fios_counts_on_nbdkit() {
    let Some(server) = Server::memory("2M") else { return };
    let uri = format!("--uri={}", server.uri);
    let cases: &[(&[&str], Ios)] = &[
        // The whole export (no size): writes, then the verify pass reads it all back.
        (&["--rw=randwrite", "--bs=4k", "--iodepth=4", "--verify=crc32c"], (512, 512, 0)),
        (&["--rw=randrw", "--bs=8k", "--iodepth=8", "--size=1m"], (0, 0, 0)),
        (&["--rw=trim", "--bs=64k", "--iodepth=2"], (0, 0, 32)),
        (&["--rw=write", "--bs=4k", "--size=64k", "--fsync=4"], (0, 16, 0)),
    ];
    let fio = fio_installed();
    for (args, expected) in cases {
        let mut all = vec!["--name=j", "--ioengine=nbd", uri.as_str(), "--randseed=7"];
        all.extend_from_slice(args);
        let ours = counts(IOMARK, &all);
        assert_eq!((ours.0, ours.1), (Some(0), 0), "iomark {args:?}");
        let ios = (ours.2[0].0, ours.2[1].0, ours.2[2].0);
        if expected != &(0, 0, 0) {
            assert_eq!(&ios, expected, "iomark {args:?}");
        }
        if fio {
            assert_eq!(counts("fio", &all), ours, "fio vs iomark {args:?}");
        }
    }
}

#[test]
fn data_written_over_nbd_is_read_back_by_another_connection() {
    let Some(server) = Server::memory("4M") else { return };
    let dir = tempdir();
    let uri = format!("--uri={}", server.uri);
    let job = |extra: &[&str]| {
        let mut all = vec!["--name=v", "--ioengine=nbd", uri.as_str(), "--rw=randwrite"];
        all.extend_from_slice(&["--bs=16k", "--size=1m", "--iodepth=8", "--verify=crc32c"]);
        all.extend_from_slice(extra);
        run_in(dir.path(), IOMARK, &all)
    };
    let write = job(&["--do_verify=0"]);
    assert_eq!(write.status.code(), Some(0), "{}", text(&write.stderr));
    let read = job(&["--verify_only=1"]);
    assert_eq!(read.status.code(), Some(0), "{}", text(&read.stderr));
    assert!(text(&read.stdout).contains("read: IOPS="), "{}", text(&read.stdout));
    // The second megabyte was never written: its blocks carry no header.
    let unwritten = job(&["--verify_only=1", "--offset=1m"]);
    assert_ne!(unwritten.status.code(), Some(0), "{}", text(&unwritten.stdout));
    assert!(text(&unwritten.stderr).contains("verify"), "{}", text(&unwritten.stderr));
}

#[test]
fn a_bad_uri_or_a_missing_server_names_the_uri() {
    let dir = tempdir();
    let out = run_in(dir.path(), IOMARK, &["--name=j", "--ioengine=nbd", "--uri=nbds://h/"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("uri") && text(&out.stderr).contains("TLS"));
    let missing = format!("--uri=nbd+unix:///?socket={}", dir.path().join("none").display());
    let out = run_in(dir.path(), IOMARK, &["--name=j", "--ioengine=nbd", &missing]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("cannot connect"), "{}", text(&out.stderr));
}
