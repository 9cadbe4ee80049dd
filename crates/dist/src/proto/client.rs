//! `iomark --client=HOST`: fio 3.33's client side, driving fio's servers and iomark's
//! alike. For each host: connect, probe (and check the protocol version), send its
//! command-line options (`JOBLINE`) and job files, run them, pass the servers' text, logs
//! and trigger answers on to a [`Listener`], answer its requests for verify state files,
//! and read back each job's statistics ([`super::decode`]) and the end of the run. A [`Remote`] sends the server a trigger
//! meanwhile.

use super::decode::{self, RemoteJob};
use super::frame::{read_message, write_message};
use super::messages::{self as msg, c_str};
use super::{Op, ProtoError, DEFAULT_PORT};
use iomark_stats::report::{DiskReport, JobHeader};
use std::collections::HashMap;
use std::io::{Read, Write};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// A server to run jobs on, as `--client` names it: `HOST[,PORT]`, `ip6:HOST[,PORT]`,
/// `sock:PATH`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Host {
    /// The name as given (fio's `hostname` in the JSON report).
    pub name: String,
    /// Where it listens.
    pub addr: Addr,
}

/// Where a server listens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Addr {
    /// A TCP host and port.
    Tcp(String, u16),
    /// A Unix socket.
    Unix(PathBuf),
}

impl Host {
    /// Reads one `--client` host.
    pub fn parse(arg: &str) -> Result<Host, String> {
        let arg = arg.trim();
        if let Some(path) = arg.strip_prefix("sock:") {
            return Ok(Host { name: path.to_string(), addr: Addr::Unix(PathBuf::from(path)) });
        }
        let rest = arg.strip_prefix("ip6:").or_else(|| arg.strip_prefix("ip:")).unwrap_or(arg);
        let (host, port) = match rest.rsplit_once(',') {
            Some((h, p)) => (h, p.trim().parse().map_err(|_| format!("bad port '{p}'"))?),
            None => (rest, DEFAULT_PORT),
        };
        let host = host.trim_matches(|c| c == '[' || c == ']');
        if host.is_empty() {
            return Err(format!("no host in '{arg}'"));
        }
        Ok(Host { name: host.to_string(), addr: Addr::Tcp(host.to_string(), port) })
    }
}

/// What one host ran.
#[derive(Debug, Clone)]
pub struct HostRun {
    /// The name the server gave for itself in its probe answer.
    pub server_name: String,
    /// Its fio (or iomark) version.
    pub version: String,
    /// Each job (or group) it reported, in order.
    pub jobs: Vec<RemoteJob>,
    /// The error the run ended with (an errno), 0 if none.
    pub error: i32,
    /// The disks under its jobs' files (`DISK_UTIL`), in the order it sent them.
    pub disks: Vec<DiskReport>,
}

/// Why a host failed.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// It could not be reached.
    #[error("cannot connect: {0}")]
    Connect(std::io::Error),
    /// The conversation failed.
    #[error(transparent)]
    Proto(#[from] ProtoError),
    /// It closed the connection before the end of the run.
    #[error("the server closed the connection before the end of the run")]
    Closed,
}

/// The job files a host runs: sent from here, or read on the server's side.
#[derive(Debug, Clone, Default)]
pub struct JobFiles {
    /// Command-line arguments for the server (`JOBLINE`), the program's name left out;
    /// none sends no `JOBLINE`.
    pub args: Vec<String>,
    /// Name and text of each job file sent.
    pub local: Vec<(String, Vec<u8>)>,
    /// Paths of job files on the server (`--remote-config`).
    pub remote: Vec<String>,
}

/// What a client hears from one server while it runs.
pub trait Listener {
    /// Text the server `server` (its name for itself) printed.
    fn text(&mut self, server: &str, text: &str);
    /// One of its jobs' log files: its name and text.
    fn log(&mut self, name: &str, text: &str);
    /// Its answer to a trigger (the jobs' write states, [`super::trigger::state_files`]).
    fn states(&mut self, payload: &[u8]);
    /// The bytes of the file `name` the server asks for (a verify state file, for its
    /// `verify_state_load`), or the errno why it cannot have them.
    fn file(&mut self, name: &str) -> Result<Vec<u8>, i32>;
    /// The connection is up: `remote` sends the server a trigger.
    fn connected(&mut self, remote: Remote);
    /// Something the server sent could not be used (the run goes on).
    fn failed(&mut self, what: &str);
    /// Who the server is, as fio's client prints it (`hostname=vm, be=0, 64-bit, …`).
    fn probed(&mut self, line: &str);
}

/// The sending half of a connection to a server, shared.
#[derive(Clone)]
pub struct Remote(Arc<Mutex<Box<dyn Write + Send>>>);

impl Remote {
    /// Sends one message.
    fn send(&self, op: Op, tag: u64, payload: &[u8]) -> std::io::Result<()> {
        let mut w = self.0.lock().unwrap_or_else(|e| e.into_inner());
        write_message(&mut *w, op, tag, payload)
    }

    /// Fires a trigger on the server: its jobs stop and it runs `command` (if not empty).
    pub fn trigger(&self, command: &str) -> std::io::Result<()> {
        self.send(Op::VTrigger, 0, &super::trigger::command(command))
    }
}

/// Runs `files` on `host`, telling `listener` what the server sends, and returns what
/// it ran.
pub fn run_host(
    host: &Host,
    files: &JobFiles,
    listener: &mut dyn Listener,
) -> Result<HostRun, ClientError> {
    match &host.addr {
        Addr::Tcp(h, port) => {
            let conn =
                std::net::TcpStream::connect((h.as_str(), *port)).map_err(ClientError::Connect)?;
            let _ = conn.set_nodelay(true);
            let out = conn.try_clone().map_err(ClientError::Connect)?;
            converse(conn, Remote(Arc::new(Mutex::new(Box::new(out)))), host, files, listener)
        }
        Addr::Unix(path) => {
            let conn =
                std::os::unix::net::UnixStream::connect(path).map_err(ClientError::Connect)?;
            let out = conn.try_clone().map_err(ClientError::Connect)?;
            converse(conn, Remote(Arc::new(Mutex::new(Box::new(out)))), host, files, listener)
        }
    }
}

/// What fio's client prints of a server's answer to its probe.
fn probe_line(p: &[u8]) -> String {
    let byte = |at: usize| p.get(at).copied().unwrap_or(0);
    let os = match byte(97) {
        1 => "Linux".to_string(),
        n => format!("os {n}"),
    };
    let arch = match byte(98) {
        1 => "x86-64".to_string(),
        n => format!("arch {n}"),
    };
    let flags = p.get(104..112).map_or(0, |b| u64::from_le_bytes(b.try_into().unwrap_or([0; 8])));
    format!(
        "hostname={}, be={}, {}-bit, os={os}, arch={arch}, fio={}, flags={flags}",
        p.get(..64).map(c_str).unwrap_or_default(),
        byte(64),
        u32::from(byte(99)) * 8,
        p.get(65..97).map(c_str).unwrap_or_default(),
    )
}

/// Sends the job files of `files` and asks the server to run them.
fn send_jobs(out: &Remote, files: &JobFiles) -> std::io::Result<()> {
    if !files.args.is_empty() {
        let mut args = vec!["fio".to_string()];
        args.extend(files.args.iter().cloned());
        out.send(Op::JobLine, 0, &msg::job_line(&args))?;
    }
    for path in &files.remote {
        out.send(Op::LoadFile, 0, &msg::load_file(path))?;
    }
    for (_, bytes) in &files.local {
        let mut pdu = (bytes.len() as u32 + 1).to_le_bytes().to_vec();
        pdu.extend_from_slice(&1u32.to_le_bytes());
        pdu.extend_from_slice(bytes);
        pdu.push(0);
        out.send(Op::Job, 0, &pdu)?;
    }
    out.send(Op::Run, 0, &[])
}

fn converse(
    mut conn: impl Read,
    out: Remote,
    host: &Host,
    files: &JobFiles,
    listener: &mut dyn Listener,
) -> Result<HostRun, ClientError> {
    // Flags: bit 0, this client takes compressed logs.
    let mut probe = msg::Le::zeros(136);
    probe.u64(0, 1);
    probe.str(8, 128, &host.name);
    out.send(Op::Probe, 1, &probe.0).map_err(ProtoError::from)?;
    listener.connected(out.clone());
    let mut run = HostRun {
        server_name: host.name.clone(),
        version: String::new(),
        jobs: Vec::new(),
        error: 0,
        disks: Vec::new(),
    };
    let mut headers: HashMap<u32, JobHeader> = HashMap::new();
    let mut options: Vec<(String, String)> = Vec::new();
    let mut sent = false;
    loop {
        let Some(m) = read_message(&mut conn)? else {
            return Err(ClientError::Closed);
        };
        match m.op {
            Op::Probe => {
                run.server_name = m.payload.get(..64).map(c_str).unwrap_or_default();
                run.version = m.payload.get(65..97).map(c_str).unwrap_or_default();
                listener.probed(&probe_line(&m.payload));
                if !sent {
                    send_jobs(&out, files).map_err(ProtoError::from)?;
                    sent = true;
                }
            }
            Op::Text => {
                if let Some(t) = msg::text_of(&m.payload) {
                    listener.text(&run.server_name, &t);
                }
            }
            Op::IoLog => match super::logs::read_iolog(&m.payload) {
                Ok((name, text)) => listener.log(&name, &text),
                Err(e) => listener.failed(&e.to_string()),
            },
            Op::VTrigger => listener.states(&m.payload),
            Op::SendFile => {
                let name = super::trigger::wanted_file(&m.payload);
                let file = listener.file(&name);
                let reply = super::trigger::file_reply(file.as_deref().map_err(|e| *e));
                out.send(Op::SendFile, m.tag, &reply).map_err(ProtoError::from)?;
            }
            Op::AddJob => {
                let (number, header) = decode::add_job(&m.payload);
                headers.insert(number, header);
            }
            Op::JobOpt => {
                let name = m.payload.get(8..72).map(c_str).unwrap_or_default();
                let value = m.payload.get(72..200).map(c_str).unwrap_or_default();
                options.push((name, value));
            }
            Op::Ts => {
                let header_of = |n: u32| headers.get(&n).cloned();
                let mut job = decode::thread_stat(&m.payload, std::mem::take(&mut options), None)?;
                job.meta.header = header_of(job.number)
                    .or_else(|| headers.values().next().cloned())
                    .unwrap_or_default();
                run.jobs.push(job);
            }
            Op::DiskUtil => match super::disk::read_disk_util(&m.payload) {
                Some(disk) => run.disks.push(disk),
                None => return Err(ProtoError::Short { op: m.op, len: m.payload.len() }.into()),
            },
            Op::Stop => {
                run.error = msg::u32_at(&m.payload, 0).unwrap_or(0) as i32;
            }
            Op::Quit => {
                let _ = out.send(Op::Quit, 0, &[]);
                return Ok(run);
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_are_read_as_fio_reads_them() {
        assert_eq!(
            Host::parse("node1").unwrap(),
            Host { name: "node1".into(), addr: Addr::Tcp("node1".into(), 8765) }
        );
        assert_eq!(
            Host::parse("127.0.0.1,8766").unwrap().addr,
            Addr::Tcp("127.0.0.1".into(), 8766)
        );
        assert_eq!(Host::parse("ip6:[::1],9000").unwrap().addr, Addr::Tcp("::1".into(), 9000));
        assert_eq!(Host::parse("sock:/run/fio").unwrap().addr, Addr::Unix("/run/fio".into()));
        assert!(Host::parse("h,port").is_err());
    }
}
