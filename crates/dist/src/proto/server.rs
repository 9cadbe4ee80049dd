//! `iomark --server[=ARGS]`: fio 3.33's server side, so that `fio --client=HOST job.fio`
//! (and gfio) run jobs on iomark. One client at a time, as fio: it probes, sends its job
//! files and asks to run them; the server answers each job's options, its start lines,
//! progress figures when asked, and at the end each job's and group's statistics, from
//! which the client prints its normal, terse or JSON report.
//!
//! A client that goes away stops its jobs; the server keeps serving. A message that is
//! malformed, of another protocol version or too large closes that connection only.

use super::frame::{read_message, write_message, Message};
use super::{messages as msg, stats, Op, ProtoError, DEFAULT_PORT};
use iomark_options::jobfile::Loader;
use iomark_options::value::subst::Keywords;
use iomark_plan::JobPlan;
use iomark_runner::{Progress, RunOptions};
use std::io::Write;
use std::net::{TcpListener, TcpStream, ToSocketAddrs};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Where a server listens: fio's `--server` argument (`ip:ADDR[,PORT]`, `ip6:ADDR[,PORT]`,
/// `ADDR[,PORT]`, `sock:PATH`; all IPv4 addresses on port 8765 when empty).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Listen {
    /// A TCP address and port.
    Tcp(String, u16),
    /// A Unix socket's path.
    Unix(PathBuf),
}

impl Listen {
    /// Reads fio's `--server` argument.
    pub fn parse(arg: &str) -> Result<Listen, String> {
        if let Some(path) = arg.strip_prefix("sock:") {
            return Ok(Listen::Unix(PathBuf::from(path)));
        }
        let (v6, rest) = match arg.strip_prefix("ip6:") {
            Some(rest) => (true, rest),
            None => (false, arg.strip_prefix("ip:").unwrap_or(arg)),
        };
        let (host, port) = match rest.rsplit_once(',') {
            Some((h, p)) => {
                let port = p.trim().parse().map_err(|_| format!("bad port '{p}'"))?;
                (h, port)
            }
            None => (rest, DEFAULT_PORT),
        };
        let host = match (host.trim(), v6) {
            ("", false) => "0.0.0.0".to_string(),
            ("", true) => "::".to_string(),
            (h, _) => h.trim_matches(|c| c == '[' || c == ']').to_string(),
        };
        Ok(Listen::Tcp(host, port))
    }
}

/// Why serving stopped.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// The address could not be listened on.
    #[error("cannot listen on {what}: {source}")]
    Listen {
        /// The address.
        what: String,
        /// Why.
        source: std::io::Error,
    },
}

/// Serves clients on `listen` until a client sends `EXIT`, calling `ready` once listening;
/// `local` reads what the clients' job files need from this machine (included files,
/// the environment, keywords) and the job files of `--remote-config`. Each connection's
/// failure is reported to `log` and ends that connection only.
pub fn serve(
    listen: &Listen,
    local: &dyn Loader,
    ready: impl FnOnce(),
    log: &mut dyn FnMut(String),
) -> Result<(), ServerError> {
    let err = |source| ServerError::Listen { what: format!("{listen:?}"), source };
    match listen {
        Listen::Tcp(host, port) => {
            let addrs: Vec<_> = (host.as_str(), *port).to_socket_addrs().map_err(err)?.collect();
            let listener = TcpListener::bind(&addrs[..]).map_err(err)?;
            ready();
            for conn in listener.incoming() {
                let Ok(conn) = conn else { continue };
                let _ = conn.set_nodelay(true);
                match session(conn, local) {
                    Ok(true) => return Ok(()),
                    Ok(false) => {}
                    Err(e) => log(format!("client: {e}")),
                }
            }
            Ok(())
        }
        Listen::Unix(path) => {
            let _ = std::fs::remove_file(path);
            let listener = std::os::unix::net::UnixListener::bind(path).map_err(err)?;
            ready();
            for conn in listener.incoming() {
                let Ok(conn) = conn else { continue };
                match session(conn, local) {
                    Ok(true) => return Ok(()),
                    Ok(false) => {}
                    Err(e) => log(format!("client: {e}")),
                }
            }
            Ok(())
        }
    }
}

/// A connection both ways: read from one handle, written through a shared one.
trait Conn: std::io::Read + Write + Send + Sized + 'static {
    fn duplicate(&self) -> std::io::Result<Self>;
}

impl Conn for TcpStream {
    fn duplicate(&self) -> std::io::Result<Self> {
        self.try_clone()
    }
}

impl Conn for std::os::unix::net::UnixStream {
    fn duplicate(&self) -> std::io::Result<Self> {
        self.try_clone()
    }
}

/// The job files a client sent, read by the option parser as if from disk; anything else
/// (an `include`, the environment, the machine's keywords) from the server's own `local`.
struct Sent<'a> {
    files: Vec<(PathBuf, Vec<u8>)>,
    local: &'a dyn Loader,
}

impl Loader for Sent<'_> {
    fn load(&self, path: &Path) -> std::io::Result<Vec<u8>> {
        match self.files.iter().find(|f| f.0 == path) {
            Some(f) => Ok(f.1.clone()),
            None => self.local.load(path),
        }
    }
    fn env(&self, name: &str) -> Option<String> {
        self.local.env(name)
    }
    fn keywords(&self) -> Keywords {
        self.local.keywords()
    }
}

/// The stamp of a text message: now, as seconds and microseconds since the epoch.
fn now() -> (u64, u64) {
    let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    (t.as_secs(), u64::from(t.subsec_micros()))
}

type Out<C> = Arc<Mutex<C>>;

fn send<C: Conn>(out: &Out<C>, op: Op, tag: u64, payload: &[u8]) -> std::io::Result<()> {
    let mut conn = out.lock().unwrap_or_else(|e| e.into_inner());
    write_message(&mut *conn, op, tag, payload)
}

/// One client, until it quits or goes away; `Ok(true)` when it asked the server to exit.
fn session<C: Conn>(conn: C, local: &dyn Loader) -> Result<bool, ProtoError> {
    let out: Out<C> = Arc::new(Mutex::new(conn.duplicate()?));
    let mut input = conn;
    let mut sent = Sent { files: Vec::new(), local };
    let mut plans: Vec<JobPlan> = Vec::new();
    let stop = Arc::new(AtomicBool::new(false));
    let mut running: Option<(std::thread::JoinHandle<()>, Arc<Progress>, Instant)> = None;
    let mut last_eta = (0u64, [0u64; 3], [0u64; 3]);
    let result = loop {
        let message = match read_message(&mut input) {
            Ok(Some(m)) => m,
            Ok(None) => break Ok(false),
            Err(e) => break Err(e),
        };
        let Message { op, tag, payload } = message;
        match op {
            Op::Probe => {
                let host = crate::launch::hostname();
                let cpus = iomark_engine::system::online_cpus() as u32;
                let version = format!("iomark-{}", env!("CARGO_PKG_VERSION"));
                send(&out, Op::Probe, tag, &msg::probe_reply(&host, &version, cpus))?;
            }
            Op::Job | Op::LoadFile => {
                let short = || ProtoError::Short { op, len: payload.len() };
                let file = match op {
                    Op::Job => {
                        let text = msg::job_text(&payload).ok_or_else(short)?;
                        let name = PathBuf::from(format!("<client job {}>", sent.files.len() + 1));
                        Ok((name, text.into_bytes()))
                    }
                    // A job file of the server's own (`--remote-config`).
                    _ => {
                        let path = PathBuf::from(msg::load_file_path(&payload).ok_or_else(short)?);
                        sent.local
                            .load(&path)
                            .map(|bytes| (path.clone(), bytes))
                            .map_err(|e| format!("'{}': {e}", path.display()))
                    }
                };
                let file = match file {
                    Ok(f) => f,
                    Err(e) => {
                        send(&out, Op::Text, 0, &msg::text(&format!("iomark: {e}\n"), now()))?;
                        send(&out, Op::Stop, 0, &msg::stop(2, 0))?;
                        send(&out, Op::Quit, 0, &[])?;
                        continue;
                    }
                };
                sent.files.push(file);
                // As fio: the jobs are read at once, their options and start lines sent.
                match prepare(&sent) {
                    Ok(all) => {
                        announce(&out, &all, plans.len())?;
                        plans = all;
                    }
                    Err(e) => {
                        send(&out, Op::Text, 0, &msg::text(&format!("iomark: {e}\n"), now()))?;
                        send(&out, Op::Stop, 0, &msg::stop(22, 0))?;
                        send(&out, Op::Quit, 0, &[])?;
                    }
                }
            }
            Op::Run if running.is_none() && !plans.is_empty() => {
                let plans = std::mem::take(&mut plans);
                sent.files.clear();
                let progress = Arc::new(Progress::new(&plans));
                let (o, s, p) = (Arc::clone(&out), Arc::clone(&stop), Arc::clone(&progress));
                let handle = std::thread::spawn(move || {
                    let _ = run(&o, &plans, &s, p);
                });
                running = Some((handle, progress, Instant::now()));
            }
            Op::SendEta => {
                let payload = match &running {
                    Some((_, progress, started)) => eta(progress, started, &mut last_eta),
                    None => msg::eta(0, [0; 3], [0; 3], 0, ""),
                };
                send(&out, Op::Eta, tag, &payload)?;
            }
            Op::Quit => break Ok(false),
            Op::Exit => break Ok(true),
            Op::VTrigger => {
                // fio's --trigger-remote: the run stops (its report goes out as usual) and
                // the command runs, as fio's server does.
                stop.store(true, Ordering::SeqCst);
                let command = msg::vtrigger_command(&payload).unwrap_or_default();
                if !command.is_empty() {
                    if let Err(e) =
                        std::process::Command::new("sh").arg("-c").arg(&command).status()
                    {
                        let text = format!("iomark: --trigger-remote '{command}': {e}\n");
                        send(&out, Op::Text, 0, &msg::text(&text, now()))?;
                    }
                }
            }
            Op::JobLine | Op::UpdateJob => {
                let text = format!("iomark: {op:?} is not supported by iomark's server\n");
                send(&out, Op::Text, 0, &msg::text(&text, now()))?;
            }
            _ => {}
        }
    };
    // A client gone (or done) stops what it started.
    stop.store(true, Ordering::SeqCst);
    if let Some((handle, ..)) = running {
        let _ = handle.join();
    }
    result
}

/// The plans of the job files a client sent.
fn prepare(sent: &Sent) -> Result<Vec<JobPlan>, String> {
    let files = &sent.files;
    let args: Vec<std::ffi::OsString> =
        files.iter().map(|f| f.0.clone().into_os_string()).collect();
    let cmd = iomark_options::cmdline::parse(args).map_err(|e| e.to_string())?;
    let mut jobs = iomark_options::parse_jobs(&cmd, sent).map_err(|e| e.to_string())?;
    crate::launch::localize(&mut jobs, 0, &crate::launch::hostname());
    iomark_runner::plans(&jobs).map_err(|e| e.to_string())
}

/// The progress figures since the last ones asked for.
fn eta(progress: &Progress, started: &Instant, last: &mut (u64, [u64; 3], [u64; 3])) -> Vec<u8> {
    let sample = progress.sample();
    let mut bytes = [0u64; 3];
    let mut ios = [0u64; 3];
    let mut running = 0;
    for job in &sample.jobs {
        running += u32::from(job.state == iomark_stats::progress::JobState::Running);
        for d in 0..3 {
            bytes[d] += job.bytes[d];
            ios[d] += job.ios[d];
        }
    }
    let dt = sample.now_ms.saturating_sub(last.0).max(1);
    let rate = [0, 1, 2].map(|d| bytes[d].saturating_sub(last.1[d]) * 1000 / dt / 1024);
    let iops = [0, 1, 2].map(|d| (ios[d].saturating_sub(last.2[d]) * 1000 / dt) as u32);
    *last = (sample.now_ms, bytes, ios);
    let run = if running > 0 { format!("R({running})") } else { String::new() };
    msg::eta(running, rate, iops, started.elapsed().as_secs(), &run)
}

/// Tells the client at `out` of the jobs of `plans` from `from` on: their options and
/// start lines, and how many jobs there are in all.
fn announce<C: Conn>(out: &Out<C>, plans: &[JobPlan], from: usize) -> std::io::Result<()> {
    let groups = iomark_runner::group_ids(plans);
    let print = iomark_report::PrintOptions::default();
    let mut lines = String::new();
    for (i, (plan, &group)) in plans.iter().zip(&groups).enumerate().skip(from) {
        let header = iomark_runner::header(plan);
        let size = plan.files.list.iter().map(|f| f.len).sum();
        send(
            out,
            Op::AddJob,
            0,
            &msg::add_job(i as u32 + 1, group, &plan.job.name, size, &header),
        )?;
        if plan.job.jobnum == 1 {
            lines.push_str("...\n");
        }
        if plan.job.jobnum == 0 {
            lines.push_str(&iomark_report::start_line(&plan.job.name, group, &header, &print));
            lines.push('\n');
        }
    }
    send(out, Op::Text, 0, &msg::text(&lines, now()))?;
    send(out, Op::Start, 0, &msg::start(plans.len() as u32))
}

/// Runs `plans` for the client at `out` (told of them by [`announce`]): the run, then
/// every job's and group's statistics and the end of the run.
fn run<C: Conn>(
    out: &Out<C>,
    plans: &[JobPlan],
    stop: &AtomicBool,
    progress: Arc<Progress>,
) -> std::io::Result<()> {
    let n = plans.len();
    let noun = if n == 1 { "process" } else { "processes" };
    send(out, Op::Text, 0, &msg::text(&format!("Starting {n} {noun}\n"), now()))?;
    send(out, Op::ServerStart, 0, &[])?;
    let step = std::env::var("IOMARK_FAKE_CLOCK_NS").ok().and_then(|v| v.parse().ok());
    let options =
        RunOptions { fake_clock_step_ns: step, progress: Some(progress), ..RunOptions::default() };
    let outcomes = match iomark_runner::run_outcomes(plans, &options, stop, |_| {}) {
        Ok(o) => o,
        Err(e) => {
            send(out, Op::Text, 0, &msg::text(&format!("iomark: {e}\n"), now()))?;
            send(out, Op::Stop, 0, &msg::stop(5, 0))?;
            return send(out, Op::Quit, 0, &[]);
        }
    };
    let (report, raw) = iomark_runner::reduce(plans, outcomes, step.is_some());
    let mut error = 0;
    for (k, (job, raw)) in report.jobs.iter().zip(&raw).enumerate() {
        for (name, value) in &job.options {
            send(out, Op::JobOpt, 0, &msg::job_opt(name, value))?;
        }
        let Some(group) = report.groups.iter().find(|g| g.groupid == job.groupid) else {
            continue;
        };
        send(out, Op::Ts, 0, &stats::thread_stat(k as u32 + 1, job, raw, group))?;
        if error == 0 {
            error = job.error;
        }
    }
    for group in &report.groups {
        send(out, Op::Gs, 0, &stats::group_stat(group))?;
    }
    let signal = if stop.load(Ordering::SeqCst) { 2 } else { 0 };
    send(out, Op::Stop, 0, &msg::stop(error, signal))?;
    send(out, Op::Quit, 0, &[])
}
