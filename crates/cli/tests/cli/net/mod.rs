//! The `net` engine on loopback: a receiving job and a sending one, each its own program
//! (iomark or fio 3.33), over TCP, UDP and a Unix socket in a temporary directory. The
//! receiver starts first; the sender starts once it listens (a stream listener prints
//! `waiting for connection`; a UDP reader's port shows in `/proc/net/udp`). The receiver
//! ends when the sender closes, with exact counts; a receiver still running when the test
//! ends is killed by its guard. The `netsplice` engine's tests are in [`splice`].

mod splice;

use crate::support::report::{count, report_json};
use crate::support::run::{command, run_in, tempdir, text, IOMARK};
use crate::support::tools::fio_installed;
use serde_json::Value;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Child, ChildStdout, Stdio};
use std::time::{Duration, Instant};

/// A receiving job, killed if the test leaves it running.
pub(super) struct Receiver {
    child: Child,
    program: &'static str,
    out: BufReader<ChildStdout>,
}

impl Drop for Receiver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A port free on loopback now (TCP or UDP).
pub(super) fn free_port(udp: bool) -> u16 {
    if udp {
        std::net::UdpSocket::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
    } else {
        std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
    }
}

/// Whether a UDP socket is bound to `port` (the local addresses of `/proc/net/udp`).
fn udp_bound(port: u16) -> bool {
    let needle = format!(":{port:04X} ");
    let table = std::fs::read_to_string("/proc/net/udp").unwrap_or_default();
    let needle = needle.trim_end();
    table.lines().skip(1).any(|l| l.split_whitespace().nth(1).is_some_and(|a| a.ends_with(needle)))
}

/// Starts `program` receiving with `args` in `dir`, and returns once it is ready.
pub(super) fn receive(
    dir: &Path,
    program: &'static str,
    args: &[&str],
    udp_port: Option<u16>,
) -> Receiver {
    let mut child = command(program)
        .current_dir(dir)
        .args(args)
        .arg("--output-format=json")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("start {program}: {e}"));
    let mut out = BufReader::new(child.stdout.take().expect("stdout"));
    if let Some(port) = udp_port {
        // Bounded: ten seconds at most for the reader to bind.
        let deadline = Instant::now() + Duration::from_secs(10);
        while !udp_bound(port) {
            assert!(Instant::now() < deadline, "{program} never bound UDP port {port}");
            std::thread::yield_now();
        }
    } else {
        let mut line = String::new();
        out.read_line(&mut line).expect("the receiver's first line");
        assert!(line.ends_with("waiting for connection\n"), "{program}: {line:?}");
    }
    Receiver { child, program, out }
}

impl Receiver {
    /// Waits for the receiver's end, which must be a success; its job's JSON object.
    pub(super) fn report(self) -> Value {
        let program = self.program;
        let (output, job) = self.end();
        assert!(output.status.success(), "{program}: {}: {}", output.status, text(&output.stderr));
        job
    }

    /// Waits for the receiver's end; what it printed, and its job's JSON object.
    fn end(mut self) -> (std::process::Output, Value) {
        let mut stdout = Vec::new();
        self.out.read_to_end(&mut stdout).expect("the receiver's report");
        let mut stderr = Vec::new();
        if let Some(mut e) = self.child.stderr.take() {
            let _ = e.read_to_end(&mut stderr);
        }
        let status = self.child.wait().expect("wait for the receiver");
        let output = std::process::Output { status, stdout, stderr };
        let job = report_json(self.program, &output)["jobs"][0].clone();
        (output, job)
    }
}

/// Runs `program` sending with `args` in `dir`; its job's JSON object.
fn send(dir: &Path, program: &str, args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.push("--output-format=json");
    let out = run_in(dir, program, &all);
    assert!(out.status.success(), "{program} {args:?}: {}", text(&out.stderr));
    report_json(program, &out)["jobs"][0].clone()
}

/// A job's I/Os and bytes in `dir`, and its error.
pub(super) fn counts(job: &Value, dir: &str) -> (u64, u64, u64) {
    (count(job, dir, "total_ios"), count(job, dir, "io_bytes"), job["error"].as_u64().unwrap())
}

/// A transfer of `size` in 4 KiB blocks from `sender` to `receiver` over `proto` with
/// `engine` on both sides; the receiver's and the sender's jobs.
///
/// fio 3.33's netsplice receiver never ends at the end of a TCP stream (it calls `splice`
/// again and again, each answering 0), so it is given `size` exactly.
pub(super) fn transfer(
    receiver: &'static str,
    sender: &'static str,
    engine: &str,
    proto: &str,
    size: &str,
    extra: &[&str],
) -> (Value, Value) {
    let dir = tempdir();
    let udp = proto.starts_with("udp");
    let port = free_port(udp);
    let socket = dir.path().join("sock");
    let place = if proto == "unix" {
        format!("--filename={}", socket.display())
    } else {
        format!("--port={port}")
    };
    let protocol = format!("--protocol={proto}");
    let ioengine = format!("--ioengine={engine}");
    let size = format!("--size={size}");
    let exact = receiver == "fio" && engine == "netsplice" && proto.starts_with("tcp");
    let mut r = vec!["--name=r", &ioengine, "--rw=read", "--bs=4k"];
    r.extend([if exact { &size } else { "--size=8m" }, &protocol, &place]);
    if proto.starts_with("tcp") {
        r.push("--listen");
    }
    r.extend(extra);
    let rx = receive(dir.path(), receiver, &r, udp.then_some(port));
    let host = if proto.ends_with("v6") { "--hostname=::1" } else { "--hostname=127.0.0.1" };
    let mut w = vec!["--name=w", &ioengine, "--rw=write", "--bs=4k", &size];
    w.extend([protocol.as_str(), place.as_str()]);
    if proto != "unix" {
        w.push(host);
    }
    w.extend(extra);
    let wrote = send(dir.path(), sender, &w);
    (rx.report(), wrote)
}

#[test]
fn iomark_sends_to_iomark_over_tcp_udp_and_a_unix_socket_with_net_and_netsplice() {
    let cases = [("tcp", "1m", 256), ("udp", "64k", 16), ("unix", "1m", 256)];
    for (engine, (proto, size, ios)) in
        ["net", "netsplice"].into_iter().flat_map(|e| cases.map(|c| (e, c)))
    {
        let (r, w) = transfer(IOMARK, IOMARK, engine, proto, size, &[]);
        assert_eq!(counts(&w, "write"), (ios, ios * 4096, 0), "{engine} {proto}: sender");
        // The receiver's job ends at the sender's close, before its own size.
        assert_eq!(counts(&r, "read"), (ios, ios * 4096, 0), "{engine} {proto}: receiver");
        assert_eq!(count(&r, "read", "short_ios"), 0, "{engine} {proto}");
    }
}

#[test]
fn pingpong_brings_every_block_back_with_net_and_netsplice() {
    for engine in ["net", "netsplice"] {
        let (r, w) = transfer(IOMARK, IOMARK, engine, "tcp", "64k", &["--pingpong"]);
        assert_eq!(counts(&w, "write"), (16, 65536, 0), "{engine}");
        assert_eq!(counts(&r, "read"), (16, 65536, 0), "{engine}");
    }
}

#[test]
fn iomark_and_fio_exchange_over_tcp_and_udp() {
    if !fio_installed() {
        return;
    }
    // UDP drops what the reader's socket has no room for: 16 datagrams fit.
    for (proto, size, ios) in [("tcp", "1m", 256), ("udp", "64k", 16)] {
        // fio sends: iomark receives every block, and ends at fio's closing message.
        let (r, w) = transfer(IOMARK, "fio", "net", proto, size, &[]);
        assert_eq!(counts(&w, "write"), (ios, ios * 4096, 0), "{proto}: fio sender");
        assert_eq!(counts(&r, "read"), (ios, ios * 4096, 0), "{proto}: iomark receiver");
        // iomark sends: fio ends at iomark's closing message, without error. (fio counts
        // a TCP block that came in pieces as several I/Os, so only UDP's counts are exact.)
        let (r, w) = transfer("fio", IOMARK, "net", proto, size, &[]);
        assert_eq!(counts(&w, "write"), (ios, ios * 4096, 0), "{proto}: iomark sender");
        assert_eq!(r["error"].as_u64(), Some(0), "{proto}: fio receiver");
        if proto == "udp" {
            assert_eq!(counts(&r, "read"), (ios, ios * 4096, 0), "fio receiver");
        }
    }
}

#[test]
fn fio_and_iomark_exchange_over_a_unix_socket_with_net_and_netsplice() {
    if !fio_installed() {
        return;
    }
    for engine in ["net", "netsplice"] {
        for (receiver, sender) in [(IOMARK, "fio"), ("fio", IOMARK)] {
            let dir = tempdir();
            let socket = dir.path().join("s");
            let place = format!("--filename={}", socket.display());
            let ioengine = format!("--ioengine={engine}");
            let job = ["--protocol=unix", "--bs=4k", "--size=1m", &place];
            let r = [&["--name=r", &ioengine, "--rw=read"][..], &job].concat();
            let rx = receive(dir.path(), receiver, &r, None);
            let w = [&["--name=w", &ioengine, "--rw=write"][..], &job].concat();
            let out = run_in(dir.path(), sender, &[&w[..], &["--output-format=json"]].concat());
            let sent = report_json(sender, &out)["jobs"][0].clone();
            let (_, got) = rx.end();
            // fio 3.33 ends a Unix socket's job with EISCONN (106), its job's error, on
            // either side (a sender's closing message fails; so does whatever a receiver
            // tries last); iomark's sender sends no closing message there and its receiver
            // ends at the end of the stream. fio's receiver never ends at the end of the
            // stream, so every receiver here has the size sent.
            let (fio, iomark) = if sender == "fio" { (&sent, &got) } else { (&got, &sent) };
            let (fio_dir, iomark_dir) =
                if sender == "fio" { ("write", "read") } else { ("read", "write") };
            assert_eq!(counts(fio, fio_dir), (256, 1 << 20, 106), "{engine}: fio {fio_dir}s");
            assert_eq!(counts(iomark, iomark_dir), (256, 1 << 20, 0), "{engine}: iomark");
        }
    }
}
