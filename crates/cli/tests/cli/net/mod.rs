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

/// How many UDP sockets are bound to `port` (the local addresses of `/proc/net/udp` and
/// `/proc/net/udp6`).
fn udp_bound(port: u16) -> usize {
    let needle = format!(":{port:04X}");
    let bound = |l: &&str| l.split_whitespace().nth(1).is_some_and(|a| a.ends_with(&needle));
    ["/proc/net/udp", "/proc/net/udp6"]
        .iter()
        .map(|t| std::fs::read_to_string(t).unwrap_or_default())
        .map(|table| table.lines().skip(1).filter(bound).count())
        .sum()
}

/// Whether loopback has IPv6 (`::1`); prints why not.
fn ipv6_loopback() -> bool {
    let ok = std::net::UdpSocket::bind("[::1]:0").is_ok();
    if !ok {
        eprintln!("skipped: no IPv6 on loopback (::1)");
    }
    ok
}

/// Starts `program` receiving with `args` in `dir`, and returns once it is ready: a
/// stream listener has said so, a UDP reader's port `udp_port` has that many sockets bound
/// (the second of a port shared by two readers: 2).
pub(super) fn receive(
    dir: &Path,
    program: &'static str,
    args: &[&str],
    udp_port: Option<(u16, usize)>,
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
    if let Some((port, sockets)) = udp_port {
        // Bounded: ten seconds at most for the reader to bind.
        let deadline = Instant::now() + Duration::from_secs(10);
        while udp_bound(port) < sockets {
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
    let rx = receive(dir.path(), receiver, &r, udp.then_some((port, 1)));
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

#[test]
fn iomark_and_fio_exchange_over_ipv6() {
    if !ipv6_loopback() {
        return;
    }
    for (proto, size, ios) in [("tcpv6", "1m", 256), ("udpv6", "64k", 16)] {
        let (r, w) = transfer(IOMARK, IOMARK, "net", proto, size, &[]);
        assert_eq!(counts(&w, "write"), (ios, ios * 4096, 0), "{proto}: sender");
        assert_eq!(counts(&r, "read"), (ios, ios * 4096, 0), "{proto}: receiver");
        if !fio_installed() {
            continue;
        }
        let (r, w) = transfer(IOMARK, "fio", "net", proto, size, &[]);
        assert_eq!(counts(&w, "write"), (ios, ios * 4096, 0), "{proto}: fio sender");
        assert_eq!(counts(&r, "read"), (ios, ios * 4096, 0), "{proto}: iomark receiver");
        let (r, w) = transfer("fio", IOMARK, "net", proto, size, &[]);
        assert_eq!(counts(&w, "write"), (ios, ios * 4096, 0), "{proto}: iomark sender");
        assert_eq!(r["error"].as_u64(), Some(0), "{proto}: fio receiver");
    }
}

/// The multicast group of the tests (administratively scoped, never routed).
const GROUP: &str = "239.255.77.1";

/// Whether the kernel delivers a multicast datagram sent on loopback to a member that
/// joined on loopback; prints why not.
fn multicast_on_loopback() -> bool {
    let probe = || -> std::io::Result<bool> {
        let group: std::net::Ipv4Addr = GROUP.parse().unwrap();
        let lo = std::net::Ipv4Addr::LOCALHOST;
        let member = std::net::UdpSocket::bind((group, 0))?;
        member.join_multicast_v4(&group, &lo)?;
        member.set_read_timeout(Some(Duration::from_secs(2)))?;
        let port = member.local_addr()?.port();
        let sender = std::net::UdpSocket::bind("127.0.0.1:0")?;
        sender.set_multicast_loop_v4(true)?;
        sender.send_to(b"probe", (group, port))?;
        let mut buf = [0u8; 8];
        Ok(member.recv(&mut buf)? == 5)
    };
    let ok = probe().unwrap_or(false);
    if !ok {
        eprintln!("skipped: the kernel does not deliver multicast on loopback here");
    }
    ok
}

#[test]
fn a_multicast_sender_reaches_every_member_of_its_group() {
    if !multicast_on_loopback() {
        return;
    }
    let group = format!("--hostname={GROUP}");
    let common = ["--ioengine=net", "--protocol=udp", "--bs=4k", "--interface=127.0.0.1"];
    let programs: Vec<&'static str> =
        if fio_installed() { vec![IOMARK, "fio"] } else { vec![IOMARK] };
    for &sender in &programs {
        let dir = tempdir();
        let port = free_port(true);
        let port_arg = format!("--port={port}");
        // Two members wait on the same group and port at once (fio's receivers, and
        // iomark's, share the port): iomark and, when installed, fio.
        let r = [&common[..], &["--name=r", "--rw=read", "--size=8m", &group, &port_arg]].concat();
        let mut members = Vec::new();
        for (k, &program) in [IOMARK, programs[programs.len() - 1]].iter().enumerate() {
            members.push(receive(dir.path(), program, &r, Some((port, k + 1))));
        }
        let w =
            [&common[..], &["--name=w", "--rw=write", "--size=64k", "--ttl=1", &group, &port_arg]]
                .concat();
        let wrote = send(dir.path(), sender, &w);
        assert_eq!(counts(&wrote, "write"), (16, 65536, 0), "{sender}: sender");
        for rx in members {
            let program = rx.program;
            assert_eq!(counts(&rx.report(), "read"), (16, 65536, 0), "{sender} to {program}");
        }
    }
}

#[test]
fn a_udp_receiver_refuses_a_hostname_that_is_no_ipv4_group_as_fio_does() {
    for (proto, host) in [("udp", "127.0.0.1"), ("udpv6", "ff01::1:3")] {
        let dir = tempdir();
        let args = [
            "--name=r",
            "--ioengine=net",
            "--rw=read",
            "--size=1m",
            &format!("--protocol={proto}"),
            "--port=9",
            &format!("--hostname={host}"),
        ];
        let args: Vec<&str> = args.iter().map(|a| a.as_ref()).collect();
        let out = run_in(dir.path(), IOMARK, &args);
        assert_eq!(out.status.code(), Some(1), "{proto}: {}", text(&out.stderr));
        let err = text(&out.stderr);
        assert!(err.contains("hostname not valid for non-multicast inbound network IO"), "{err}");
        if fio_installed() {
            let out = run_in(dir.path(), "fio", &args);
            assert!(text(&out.stderr).contains("hostname not valid for non-multicast"), "fio");
        }
    }
}
