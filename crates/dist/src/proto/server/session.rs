//! One client's conversation with `iomark --server` (see [`super`]): its job files and
//! command-line options (`JOB`, `LOAD_FILE`, `JOBLINE`), the run (`RUN`), progress
//! (`SEND_ETA`), a trigger (`VTRIGGER`), and the end (`QUIT`, `EXIT`).

use super::super::frame::{read_message, write_message, Message};
use super::super::{messages as msg, stats, trigger, Op, ProtoError};
use super::logs;
use crate::job_request::{ClientJobs, ClientProcesses};
use iomark_options::cmdline::ProgramOptions;
use iomark_options::jobfile::Loader;
use iomark_options::value::subst::Keywords;
use iomark_plan::JobPlan;
use iomark_runner::{Progress, RunOptions};
use std::net::TcpStream;
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// A connection both ways: read from one handle, written through another.
pub(crate) trait Conn: std::io::Read + std::io::Write + Send + Sized + 'static {
    /// A second handle on the same connection.
    fn duplicate(&self) -> std::io::Result<Self>;
    /// What goes before the names of the client's files under `directory`
    /// (`unique_filename`): its address and a dot, as fio's server puts it; nothing for a
    /// client without an address (a Unix socket).
    fn client_prefix(&self) -> String;
}

impl Conn for TcpStream {
    fn duplicate(&self) -> std::io::Result<Self> {
        self.try_clone()
    }
    fn client_prefix(&self) -> String {
        self.peer_addr().map(|a| format!("{}.", a.ip().to_canonical())).unwrap_or_default()
    }
}

impl Conn for UnixStream {
    fn duplicate(&self) -> std::io::Result<Self> {
        self.try_clone()
    }
    fn client_prefix(&self) -> String {
        String::new()
    }
}

/// The job files a client sent, read by the option parser as if from disk; anything else
/// (an `include`, the environment, the machine's keywords) from the server's own `local`.
struct Sent<'a> {
    /// Command-line arguments (`JOBLINE`), the program's name left out.
    args: Vec<String>,
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

/// A run under way: its thread, its progress, when it started and its jobs' shapes for
/// a trigger's answer.
struct Running {
    handle: std::thread::JoinHandle<()>,
    progress: Arc<Progress>,
    started: Instant,
    jobs: Vec<trigger::JobState>,
}

/// Tells the client at `out` that what it sent cannot run (`why`, errno `error`), and ends
/// the conversation as fio's server does.
fn refuse<C: Conn>(out: &Out<C>, why: &str, error: i32) -> std::io::Result<()> {
    send(out, Op::Text, 0, &msg::text(&format!("iomark: {why}\n"), now()))?;
    send(out, Op::Stop, 0, &msg::stop(error, 0))?;
    send(out, Op::Quit, 0, &[])
}

/// One client, until it quits or goes away; `Ok(true)` when it asked the server to exit.
pub(super) fn session<C: Conn>(conn: C, local: &dyn Loader) -> Result<bool, ProtoError> {
    let out: Out<C> = Arc::new(Mutex::new(conn.duplicate()?));
    let prefix = conn.client_prefix();
    let mut input = conn;
    let mut sent = Sent { args: Vec::new(), files: Vec::new(), local };
    // Whether the client takes compressed logs (bit 0 of its probe's flags).
    let mut zlib = false;
    let mut plans: Vec<JobPlan> = Vec::new();
    let stop = Arc::new(AtomicBool::new(false));
    let triggered = Arc::new(AtomicBool::new(false));
    let mut running: Option<Running> = None;
    // Whether the client's output has fio's normal format (else the start lines are
    // not sent, as fio's server does not print them).
    let mut text = true;
    // Whether the client asked for fio's process model (`--job-processes`).
    let mut fio_processes = false;
    let mut last_eta = (0u64, [0u64; 3], [0u64; 3]);
    // Every way out of the conversation, an error included, comes back here.
    let mut converse = || -> Result<bool, ProtoError> {
        loop {
            let message = match read_message(&mut input) {
                Ok(Some(m)) => m,
                Ok(None) => return Ok(false),
                Err(e) => return Err(e),
            };
            let Message { op, tag, payload } = message;
            let short = || ProtoError::Short { op, len: payload.len() };
            match op {
                Op::Probe => {
                    zlib = payload.first().is_some_and(|f| f & 1 == 1);
                    let host = crate::launch::hostname();
                    let cpus = iomark_engine::system::online_cpus() as u32;
                    let version = format!("iomark-{}", env!("CARGO_PKG_VERSION"));
                    send(&out, Op::Probe, tag, &msg::probe_reply(&host, &version, cpus))?;
                }
                Op::Job | Op::LoadFile | Op::JobLine => {
                    let added = match op {
                        Op::Job => {
                            let text = msg::job_text(&payload).ok_or_else(short)?;
                            let name =
                                PathBuf::from(format!("<client job {}>", sent.files.len() + 1));
                            sent.files.push((name, text.into_bytes()));
                            Ok(())
                        }
                        // Command-line arguments, the program's name first.
                        Op::JobLine => {
                            let args = msg::job_line_args(&payload).ok_or_else(short)?;
                            sent.args.extend(args.into_iter().skip(1));
                            Ok(())
                        }
                        // A job file of the server's own (`--remote-config`).
                        _ => {
                            let path =
                                PathBuf::from(msg::load_file_path(&payload).ok_or_else(short)?);
                            match sent.local.load(&path) {
                                Ok(bytes) => {
                                    sent.files.push((path, bytes));
                                    Ok(())
                                }
                                Err(e) => Err(format!("'{}': {e}", path.display())),
                            }
                        }
                    };
                    if let Err(e) = added {
                        refuse(&out, &e, 2)?;
                        continue;
                    }
                    // As fio: the jobs are read at once, their options and start lines sent.
                    match prepare(&sent, &prefix) {
                        Ok((all, program)) => {
                            text = program.formats.normal;
                            fio_processes = program.job_processes;
                            announce(&out, &all, plans.len(), text)?;
                            plans = all;
                        }
                        Err(e) => refuse(&out, &e, 22)?,
                    }
                }
                Op::Run if running.is_none() => {
                    let mut plans = std::mem::take(&mut plans);
                    // What a job process of the run plans it again from.
                    let client = ClientJobs {
                        args: sent.args.clone(),
                        files: sent.files.clone(),
                        prefix: prefix.clone(),
                    };
                    let processes = (Arc::new(ClientProcesses(client)), fio_processes);
                    sent.files.clear();
                    sent.args.clear();
                    if plans.is_empty() {
                        refuse(&out, "no job to run", 22)?;
                        continue;
                    }
                    let logs = match logs::redirect(&mut plans) {
                        Ok(logs) => logs,
                        Err(e) => {
                            refuse(&out, &format!("cannot keep the jobs' logs: {e}"), 5)?;
                            continue;
                        }
                    };
                    let jobs = plans
                        .iter()
                        .map(|p| trigger::JobState {
                            name: p.job.name.clone(),
                            depth: p.engine.iodepth,
                            files: p.files.list.len() as u32,
                            writes: 0,
                        })
                        .collect();
                    let progress = Arc::new(Progress::new(&plans));
                    let (o, p) = (Arc::clone(&out), Arc::clone(&progress));
                    let (s, t) = (Arc::clone(&stop), Arc::clone(&triggered));
                    let handle = std::thread::spawn(move || {
                        let logs = logs.map(|l| (l, zlib));
                        let _ = run(&o, &plans, (&s, &t), (p, processes), (logs, text));
                    });
                    running = Some(Running { handle, progress, started: Instant::now(), jobs });
                }
                Op::SendEta => {
                    let payload = match &running {
                        Some(r) => eta(&r.progress, &r.started, &mut last_eta),
                        None => msg::eta(0, [0; 3], [0; 3], 0, ""),
                    };
                    send(&out, Op::Eta, tag, &payload)?;
                }
                Op::VTrigger => {
                    triggered.store(true, Ordering::SeqCst);
                    fire(&out, &payload, running.as_ref(), &stop)?;
                }
                Op::Quit => return Ok(false),
                Op::Exit => return Ok(true),
                Op::UpdateJob => {
                    let text = format!("iomark: {op:?} is not supported by iomark's server\n");
                    send(&out, Op::Text, 0, &msg::text(&text, now()))?;
                }
                _ => {}
            }
        }
    };
    let result = converse();
    // A client gone (or done) stops what it started.
    stop.store(true, Ordering::SeqCst);
    if let Some(r) = running {
        let _ = r.handle.join();
    }
    result
}

/// A trigger (`VTRIGGER`): the jobs' write states go to the client, the jobs stop as on
/// SIGTERM, and the client's command runs here.
fn fire<C: Conn>(
    out: &Out<C>,
    payload: &[u8],
    running: Option<&Running>,
    stop: &AtomicBool,
) -> std::io::Result<()> {
    let mut jobs = Vec::new();
    if let Some(r) = running {
        let sample = r.progress.sample();
        jobs = r.jobs.clone();
        for (job, now) in jobs.iter_mut().zip(&sample.jobs) {
            job.writes = now.ios[1];
        }
    }
    send(out, Op::VTrigger, 0, &trigger::states(&jobs))?;
    stop.store(true, Ordering::SeqCst);
    let command = trigger::command_of(payload);
    if !command.is_empty() {
        let status = std::process::Command::new("sh").arg("-c").arg(&command).status();
        if !status.as_ref().is_ok_and(|s| s.success()) {
            let why = match status {
                Ok(s) => s.to_string(),
                Err(e) => e.to_string(),
            };
            let text = format!("iomark: --trigger-remote '{command}': {why}\n");
            send(out, Op::Text, 0, &msg::text(&text, now()))?;
        }
    }
    Ok(())
}

/// The plans of the command-line options and job files a client sent (none before it
/// sent any job), its files under `directory` named with `prefix` before them, and the
/// program options of its command line.
fn prepare(sent: &Sent, prefix: &str) -> Result<(Vec<JobPlan>, ProgramOptions), String> {
    plans_of(&sent.args, &sent.files, prefix, sent.local).map(|(program, plans)| (plans, program))
}

/// The program options and plans of a client's command-line options `args` and job
/// `files` (none before it sent any job), its files under `directory` named with `prefix`
/// before them; what the job files include is read through `local`. A job process of the
/// client's run plans it again with this (see [`crate::job_request`]).
pub fn plans_of(
    args: &[String],
    files: &[(PathBuf, Vec<u8>)],
    prefix: &str,
    local: &dyn Loader,
) -> Result<(ProgramOptions, Vec<JobPlan>), String> {
    let sent = Sent { args: args.to_vec(), files: files.to_vec(), local };
    let mut all: Vec<std::ffi::OsString> = sent.args.iter().map(Into::into).collect();
    all.extend(sent.files.iter().map(|f| f.0.clone().into_os_string()));
    let cmd = iomark_options::cmdline::parse(all).map_err(|e| e.to_string())?;
    if cmd.jobs.is_empty() && cmd.files.is_empty() {
        return Ok((cmd.program, Vec::new()));
    }
    let mut jobs = iomark_options::parse_jobs(&cmd, &sent).map_err(|e| e.to_string())?;
    crate::launch::localize(&mut jobs, 0, &crate::launch::hostname());
    jobs.iter_mut().for_each(|j| j.client_prefix = prefix.to_string());
    Ok((cmd.program, iomark_runner::plans(&jobs).map_err(|e| e.to_string())?))
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

/// Tells the client at `out` of the jobs of `plans` from `from` on: their options, their
/// start lines when its output is `text`, and how many jobs there are in all.
fn announce<C: Conn>(
    out: &Out<C>,
    plans: &[JobPlan],
    from: usize,
    text: bool,
) -> std::io::Result<()> {
    let groups = iomark_runner::group_ids(plans);
    let print = iomark_report::PrintOptions::default();
    let mut lines = Vec::new();
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
            lines.push("...\n".to_string());
        }
        if plan.job.jobnum == 0 {
            let line = iomark_report::start_line(&plan.job.name, group, &header, &print);
            lines.push(format!("{line}\n"));
        }
    }
    // One message a line: fio's client puts the host before each message.
    for line in lines.iter().filter(|_| text) {
        send(out, Op::Text, 0, &msg::text(line, now()))?;
    }
    send(out, Op::Start, 0, &msg::start(plans.len() as u32))
}

/// Runs `plans` for the client at `out` (told of them by [`announce`]), its jobs that
/// need a process of their own started by `processes` (every job without `thread` with
/// `fio_processes`): the run, then
/// the jobs' logs (`logs`, compressed if the client takes zlib), every job's and group's
/// statistics and the end of the run. A stop not `triggered` ends the run as SIGINT.
fn run<C: Conn>(
    out: &Out<C>,
    plans: &[JobPlan],
    (stop, triggered): (&AtomicBool, &AtomicBool),
    (progress, (processes, fio_processes)): (Arc<Progress>, (Arc<ClientProcesses>, bool)),
    (logs, text): (Option<(logs::Redirected, bool)>, bool),
) -> std::io::Result<()> {
    let n = plans.len();
    let noun = if n == 1 { "process" } else { "processes" };
    if text {
        send(out, Op::Text, 0, &msg::text(&format!("Starting {n} {noun}\n"), now()))?;
    }
    send(out, Op::ServerStart, 0, &[])?;
    let step = std::env::var("IOMARK_FAKE_CLOCK_NS").ok().and_then(|v| v.parse().ok());
    let options = RunOptions {
        fake_clock_step_ns: step,
        progress: Some(progress),
        processes: Some(processes),
        fio_processes,
        ..RunOptions::default()
    };
    let outcomes = iomark_runner::run_outcomes(plans, &options, stop, |_| {});
    let logs = logs.map(|(l, zlib)| l.take(zlib)).unwrap_or_default();
    let outcomes = match outcomes {
        Ok(o) => o,
        Err(e) => {
            send(out, Op::Text, 0, &msg::text(&format!("iomark: {e}\n"), now()))?;
            send(out, Op::Stop, 0, &msg::stop(5, 0))?;
            return send(out, Op::Quit, 0, &[]);
        }
    };
    let (report, raw) = iomark_runner::reduce(plans, outcomes, step.is_some());
    for log in &logs {
        send(out, Op::IoLog, 0, log)?;
    }
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
    for disk in &report.disks {
        send(out, Op::DiskUtil, 0, &super::super::disk::disk_util(disk))?;
    }
    let stopped = stop.load(Ordering::SeqCst) && !triggered.load(Ordering::SeqCst);
    let signal = if stopped { 2 } else { 0 };
    send(out, Op::Stop, 0, &msg::stop(error, signal))?;
    send(out, Op::Quit, 0, &[])
}
