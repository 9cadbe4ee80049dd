//! Many clients at once: the MPI launch (`mpirun -np N iomark`) and fio's client/server
//! protocol (`iomark --server` driven by fio 3.33's client, `iomark --client` driving fio's
//! servers and iomark's: jobs, command lines, logs, triggers), on loopback only.

mod client;
mod disks;
mod gfio;
mod jobline;
mod logs;
mod mpi;
mod prios;
mod sendfile;
mod server;
mod triggers;

use crate::support::process::poll_until;
use crate::support::run::{command, text, FAKE_STEP_NS, IOMARK};
use serde_json::Value;
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Stdio};

/// The JSON document at the end of a client's output (the servers' text comes first).
pub fn json_of(out: &[u8]) -> Value {
    let text = text(out);
    let start = text.find("\n{").map_or(0, |i| i + 1);
    serde_json::from_str(&text[start..]).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// A latency object's json+ bins, by value.
pub fn bins(lat: &Value) -> std::collections::BTreeMap<u64, u64> {
    lat["bins"]
        .as_object()
        .map(|b| b.iter().map(|(k, v)| (k.parse().unwrap(), v.as_u64().unwrap())).collect())
        .unwrap_or_default()
}

/// A server that answers the probe (`version` in its header) and then does `then` with
/// the connection: what `iomark --client` makes of a bad or lost server. Its port, and
/// the thread to join.
pub fn fake_server<T: Send + 'static>(
    version: u16,
    then: impl FnOnce(&mut TcpStream) -> T + Send + 'static,
) -> (u16, std::thread::JoinHandle<T>) {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let thread = std::thread::spawn(move || {
        let (mut conn, _) = listener.accept().unwrap();
        let mut probe = [0u8; 24 + 136];
        conn.read_exact(&mut probe).unwrap();
        let mut reply = Vec::new();
        iomark_dist::proto::frame::write_message(
            &mut reply,
            iomark_dist::proto::Op::Probe,
            1,
            &[0; 112],
        )
        .unwrap();
        reply[..2].copy_from_slice(&version.to_le_bytes());
        conn.write_all(&reply).unwrap();
        then(&mut conn)
    });
    (port, thread)
}

/// An `iomark --server` on a free loopback port, under the fake clock; killed when dropped.
pub struct Server {
    child: Child,
    /// Its port.
    pub port: u16,
}

impl Server {
    /// Starts a server under the fake clock whose standard error goes to `log`, and waits
    /// until it accepts connections.
    pub fn start(log: &Path) -> Server {
        Server::start_on(log, true)
    }

    /// [`Server::start`], on the real clock unless `fake`.
    pub fn start_on(log: &Path, fake: bool) -> Server {
        let mut cmd = command(IOMARK);
        if fake {
            cmd.env("IOMARK_FAKE_CLOCK_NS", FAKE_STEP_NS);
        }
        Server::spawn(cmd, log)
    }

    /// `fio --server` on a free loopback port.
    pub fn fio(log: &Path) -> Server {
        Server::spawn(command("fio"), log)
    }

    /// Starts `cmd` with `--server` on a free loopback port and waits until it accepts
    /// connections.
    fn spawn(mut cmd: std::process::Command, log: &Path) -> Server {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        // In the log's (temporary) directory: what the jobs write in the current
        // directory (`JOBNAME.prerun.txt`, relative files) stays out of the source tree.
        let child = cmd
            .current_dir(log.parent().expect("the server log's directory"))
            .arg(format!("--server=ip:127.0.0.1,{port}"))
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(log).expect("server log"))
            .spawn()
            .expect("start a server");
        let server = Server { child, port };
        // Nothing announces that it listens: try to connect, for a bounded time.
        poll_until(|| TcpStream::connect(("127.0.0.1", port)).ok()).expect("server listening");
        server
    }

    /// Bytes the server has passed to `write(2)` and its kin so far (`/proc/PID/io`).
    pub fn written(&self) -> Option<u64> {
        let io = std::fs::read_to_string(format!("/proc/{}/io", self.child.id())).ok()?;
        io.lines().find_map(|l| l.strip_prefix("wchar: ")).and_then(|v| v.trim().parse().ok())
    }

    /// The `--client` argument that names it.
    pub fn client_arg(&self) -> String {
        format!("--client=127.0.0.1,{}", self.port)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
