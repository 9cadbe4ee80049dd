//! What the signals do, as in fio 3.33: SIGINT (Ctrl-C) and SIGTERM stop the run (the jobs
//! finish their in-flight I/O, the report shows what was done, and the exit code is
//! [`STOPPED_EXIT`]); a second one exits at once with 128 + the signal's number. SIGUSR1
//! asks for an interim report. SIGHUP keeps its default action (fio does not catch it).
//!
//! The signals are taken by a thread of their own (`signal-hook`), which sets the flags
//! below: the one global state of the binary.

use signal_hook::consts::{SIGINT, SIGTERM, SIGUSR1};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::Instant;

/// The exit code of a run stopped by a signal: fio 3.33 exits with 128 after SIGINT and
/// SIGTERM alike, having printed its report.
pub const STOPPED_EXIT: u8 = 128;

/// The run's stop flag, the signal that set it, and the requests for interim reports.
pub struct Control {
    /// Set by the first SIGINT or SIGTERM: the jobs finish their in-flight I/O and stop.
    pub stop: AtomicBool,
    /// The signal that stopped the run, 0 if none.
    stopped_by: AtomicI32,
    wake: Mutex<Wake>,
    changed: Condvar,
    /// A file to remove if a second signal exits at once (the default suite's).
    cleanup: Mutex<Option<PathBuf>>,
    /// A job process says nothing on a stop: its parent says it (or stopped it).
    quiet: AtomicBool,
}

/// What the reporting thread waits for.
struct Wake {
    /// SIGUSR1s received.
    usr1: u64,
    /// Whether the run under way has ended.
    over: bool,
}

/// Why [`Control::wait`] returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Woken {
    /// The deadline passed.
    Tick,
    /// A SIGUSR1 came.
    Usr1,
    /// The run ended.
    Over,
}

impl Control {
    /// No signal yet.
    pub const fn new() -> Self {
        Control {
            stop: AtomicBool::new(false),
            stopped_by: AtomicI32::new(0),
            wake: Mutex::new(Wake { usr1: 0, over: false }),
            changed: Condvar::new(),
            cleanup: Mutex::new(None),
            quiet: AtomicBool::new(false),
        }
    }

    fn wake(&self) -> MutexGuard<'_, Wake> {
        self.wake.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// From now on a stop is not announced on standard error (a job process's).
    pub fn quiet(&self) {
        self.quiet.store(true, Ordering::SeqCst);
    }

    /// Takes SIGINT, SIGTERM and SIGUSR1 from now on, on a thread of its own.
    pub fn install(&'static self) -> std::io::Result<()> {
        let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGUSR1])?;
        std::thread::Builder::new().name("signals".into()).spawn(move || {
            for signal in signals.forever() {
                self.on_signal(signal);
            }
        })?;
        Ok(())
    }

    fn on_signal(&self, signal: i32) {
        if signal == SIGUSR1 {
            self.wake().usr1 += 1;
            self.changed.notify_all();
            return;
        }
        if self.stop.swap(true, Ordering::SeqCst) {
            if let Some(path) = self.cleanup.lock().unwrap_or_else(|e| e.into_inner()).take() {
                let _ = std::fs::remove_file(path);
            }
            std::process::exit(128 + signal);
        }
        self.stopped_by.store(signal, Ordering::SeqCst);
        if self.quiet.load(Ordering::SeqCst) {
            return;
        }
        // fio's words (it starts them on a new line, after the ETA line).
        eprintln!("\niomark: terminating on signal {signal}");
    }

    /// The signal that stopped the run, if one did.
    pub fn stopped_by(&self) -> Option<i32> {
        Some(self.stopped_by.load(Ordering::SeqCst)).filter(|&s| s != 0)
    }

    /// Removes `path` if a second signal exits at once (`None`: nothing to remove).
    pub fn remove_on_exit(&self, path: Option<PathBuf>) {
        *self.cleanup.lock().unwrap_or_else(|e| e.into_inner()) = path;
    }

    /// The number of SIGUSR1s so far, for [`Control::wait`].
    pub fn usr1_seen(&self) -> u64 {
        self.wake().usr1
    }

    /// A run begins (`true`) or ends (`false`): ending wakes [`Control::wait`].
    pub fn set_running(&self, running: bool) {
        self.wake().over = !running;
        self.changed.notify_all();
    }

    /// Waits until the run ends, a SIGUSR1 comes after the `seen` ones (then counts it as
    /// seen), or `deadline` passes (never, if `None`).
    pub fn wait(&self, seen: &mut u64, deadline: Option<Instant>) -> Woken {
        let mut wake = self.wake();
        loop {
            if wake.over {
                return Woken::Over;
            }
            if wake.usr1 != *seen {
                *seen = wake.usr1;
                return Woken::Usr1;
            }
            wake = match deadline {
                None => self.changed.wait(wake).unwrap_or_else(|e| e.into_inner()),
                Some(deadline) => {
                    let now = Instant::now();
                    if now >= deadline {
                        return Woken::Tick;
                    }
                    self.changed
                        .wait_timeout(wake, deadline - now)
                        .unwrap_or_else(|e| e.into_inner())
                        .0
                }
            };
        }
    }
}
