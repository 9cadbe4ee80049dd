//! An iomark run watched while it goes on: its output gathered as it comes (a test waits
//! for a line or a document to appear, never for a fixed time), signals sent with the
//! `kill` program (the tests have no `unsafe` for `kill(2)`), and a [`Gate`] that holds a
//! run open until the test lets it end.
//!
//! Every wait here is for an event (output arriving, the process ending, a reader opening
//! a fifo) except [`poll_until`], which is for what nothing announces (a file that iomark
//! writes); all give up after [`TIMEOUT`], which only a hang reaches.

use super::run::{command, text, IOMARK};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, ExitStatus, Stdio};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Far more than any watched run needs; only a hang reaches it.
pub const TIMEOUT: Duration = Duration::from_secs(60);

/// What a stream has carried so far, and whether it has ended.
#[derive(Default)]
struct Stream {
    bytes: Vec<u8>,
    ended: bool,
}

/// Everything a stream carries, gathered by a thread of its own (so that the child never
/// blocks on a full pipe), readable and awaitable while the child runs.
#[derive(Clone, Default)]
pub struct Gathered(Arc<(Mutex<Stream>, Condvar)>);

impl Gathered {
    /// Starts gathering `stream`; the thread ends with the stream.
    fn start(mut stream: impl Read + Send + 'static) -> (Gathered, JoinHandle<()>) {
        let gathered = Gathered::default();
        let sink = gathered.clone();
        let thread = std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            loop {
                let n = stream.read(&mut buf).unwrap_or(0);
                let (lock, changed) = &*sink.0;
                let mut s = lock.lock().unwrap();
                s.bytes.extend_from_slice(&buf[..n]);
                s.ended = n == 0;
                changed.notify_all();
                if n == 0 {
                    return;
                }
            }
        });
        (gathered, thread)
    }

    /// Everything so far.
    pub fn bytes(&self) -> Vec<u8> {
        self.0 .0.lock().unwrap().bytes.clone()
    }

    /// Everything so far, as text.
    pub fn text(&self) -> String {
        text(&self.bytes())
    }

    /// Waits until `found` gives something for what has arrived; `None` when the stream
    /// ends first or [`TIMEOUT`] passes.
    pub fn wait_for<T>(&self, mut found: impl FnMut(&[u8]) -> Option<T>) -> Option<T> {
        let end = Instant::now() + TIMEOUT;
        let (lock, changed) = &*self.0;
        let mut s = lock.lock().unwrap();
        loop {
            if let Some(v) = found(&s.bytes) {
                return Some(v);
            }
            let now = Instant::now();
            if s.ended || now >= end {
                return None;
            }
            s = changed.wait_timeout(s, end - now).unwrap().0;
        }
    }
}

/// A running `iomark` with its standard output and error gathered.
pub struct Running {
    /// The process.
    pub child: Child,
    /// Its standard output so far.
    pub stdout: Gathered,
    /// Its standard error so far.
    pub stderr: Gathered,
    gatherers: Vec<JoinHandle<()>>,
}

impl Running {
    /// Starts iomark with `args` in `dir` (on the real clock).
    pub fn start(dir: &Path, args: &[String]) -> Running {
        Running::start_program(IOMARK, dir, args)
    }

    /// Starts `program` (iomark, fio) with `args` in `dir`.
    pub fn start_program(program: &str, dir: &Path, args: &[String]) -> Running {
        let mut child = command(program)
            .current_dir(dir)
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("run {program}: {e}"));
        let (stdout, out_thread) = Gathered::start(child.stdout.take().unwrap());
        let (stderr, err_thread) = Gathered::start(child.stderr.take().unwrap());
        Running { child, stdout, stderr, gatherers: vec![out_thread, err_thread] }
    }

    /// Sends `signal` (`INT`, `TERM`, `USR1`) with the `kill` program; `false` when there
    /// is no `kill` program.
    pub fn signal(&self, signal: &str) -> bool {
        match command("kill").arg(format!("-{signal}")).arg(self.child.id().to_string()).status() {
            Ok(status) => {
                assert!(status.success(), "kill -{signal} failed");
                true
            }
            Err(_) => false,
        }
    }

    /// Fails the test if the process has already ended.
    pub fn assert_running(&mut self) {
        if let Ok(Some(status)) = self.child.try_wait() {
            panic!("iomark ended early ({status}); stderr: {}", self.stderr.text());
        }
    }

    /// Waits for the end of the process and of its output (a watchdog kills it and the
    /// test fails after [`TIMEOUT`]).
    pub fn wait(&mut self) -> ExitStatus {
        let pid = self.child.id().to_string();
        let (done, watched) = mpsc::channel::<()>();
        let watchdog = std::thread::spawn(move || {
            let hung = matches!(watched.recv_timeout(TIMEOUT), Err(RecvTimeoutError::Timeout));
            if hung {
                let _ = command("kill").args(["-KILL", &pid]).status();
            }
            hung
        });
        let status = self.child.wait().expect("wait for iomark");
        let _ = done.send(());
        let hung = watchdog.join().expect("the watchdog");
        for gatherer in self.gatherers.drain(..) {
            gatherer.join().expect("a gathering thread");
        }
        assert!(!hung, "iomark did not end; stderr: {}", self.stderr.text());
        status
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Looks at `f` every 10 ms until it gives something, for at most [`TIMEOUT`]: for what no
/// event announces (iomark writing a file). `None` after the timeout.
pub fn poll_until<T>(mut f: impl FnMut() -> Option<T>) -> Option<T> {
    let end = Instant::now() + TIMEOUT;
    while Instant::now() < end {
        if let Some(v) = f() {
            return Some(v);
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    None
}

/// A job that holds a run open until the test opens the gate: its `exec_prerun` reads a
/// fifo, so it starts its one I/O only when the test writes to the fifo, and with
/// `exitall` its end then stops the other jobs of its group. A run that would go on for an
/// hour thus ends as soon as the test has seen what it waits for, whatever the speed of
/// the machine.
pub struct Gate {
    fifo: PathBuf,
    opened: bool,
}

impl Gate {
    /// A gate in `dir`; `None` (with the skip message) without the `mkfifo` or `timeout`
    /// program.
    pub fn new(dir: &Path) -> Option<Gate> {
        let have = |program: &str| command(program).arg("--version").output().is_ok();
        if !have("timeout") {
            eprintln!("skipped: no `timeout` program");
            return None;
        }
        Some(Gate { fifo: fifo(dir, "gate.fifo")?, opened: false })
    }

    /// The gate job's arguments (job `gate`, one 4 KiB null read, `exitall`). The reader
    /// gives up after [`TIMEOUT`] should the test never open the gate.
    pub fn job(&self) -> Vec<String> {
        let wait =
            format!("--exec_prerun=timeout {} cat {}", TIMEOUT.as_secs(), self.fifo.display());
        ["--name=gate", "--ioengine=null", "--rw=read", "--size=4k", "--exitall", &wait]
            .map(String::from)
            .to_vec()
    }

    /// The fifo the gate job reads: writing a line to it opens the gate (for a program
    /// that opens it itself, as the browser check does).
    pub fn fifo(&self) -> &Path {
        &self.fifo
    }

    /// Opens the gate: waits until the gate job reads the fifo (the test fails if it has
    /// not after [`TIMEOUT`]), and lets it go on.
    pub fn open(&mut self) {
        let fifo = self.fifo.clone();
        let (done, written) = mpsc::channel();
        std::thread::spawn(move || {
            let _ = done.send(std::fs::write(&fifo, "go\n"));
        });
        match written.recv_timeout(TIMEOUT) {
            Ok(result) => result.expect("open the gate"),
            Err(_) => panic!("the gate job never read {}", self.fifo.display()),
        }
        self.opened = true;
    }
}

impl Drop for Gate {
    /// A gate the test did not open (it failed first) lets a waiting reader go.
    fn drop(&mut self) {
        use std::os::unix::fs::OpenOptionsExt;
        if !self.opened {
            let _ = std::fs::OpenOptions::new()
                .write(true)
                .custom_flags(libc::O_NONBLOCK)
                .open(&self.fifo);
        }
    }
}

/// A new fifo `dir/name`; `None` (with the skip message) without the `mkfifo` program.
pub fn fifo(dir: &Path, name: &str) -> Option<PathBuf> {
    let fifo = dir.join(name);
    match command("mkfifo").arg(&fifo).status() {
        Ok(s) if s.success() => Some(fifo),
        _ => {
            eprintln!("skipped: no `mkfifo` program");
            None
        }
    }
}
