//! `iomark fuse-export`: exports one backing file (or block device) through FUSE as the
//! single file `MOUNTPOINT/volume`, serving the kernel's requests through io_uring, with
//! optional fault and latency injection.
//!
//! Two transports: the kernel's FUSE-over-io_uring (`uring.rs`: one queue per possible
//! CPU, requests arriving as completions of FUSE uring commands) and classic `/dev/fuse`
//! (`dev.rs`: reads and writes of the device through io_uring, one queue per cloned
//! descriptor). Both share one request life (`queue.rs`): the volume answers
//! (`volume.rs`), injection decides (`inject.rs`), the backing I/O goes to the same ring.
//! The protocol layer is written here from the kernel's documented ABI (`abi.rs`, `wire.rs`,
//! `request.rs`): no FUSE crate of the ecosystem serves both transports with the backing
//! I/O on the ring the request came from (docs/fuse-export.md says what each offers). [`export`] runs an export from mount to summary;
//! [`run`] adds `--daemon`.
//!
//! The one crate besides the engines allowed `unsafe` (io_uring submissions, the kernel's
//! structures as bytes, mount(2), fork(2)); every block carries a `// SAFETY:` line.

pub mod abi;
mod channel;
mod config;
mod dev;
mod export;
pub mod inject;
pub mod mount;
mod queue;
pub mod request;
pub mod summary;
mod sys;
mod uring;
pub mod volume;
pub mod wire;

pub use config::{Config, ExportError, Transport};
pub use export::Running;
pub use inject::{DelayDist, DelayRule, FailRule, FaultConfig};
pub use summary::Counters;

use std::io::{Read, Write};

/// Starts an export; notes and the ready line go to `out`. [`Running::wait`] serves it.
pub fn export(config: &Config, out: &mut dyn Write) -> Result<Running, ExportError> {
    export::start(config, out)
}

/// Runs the export of `config` to its end (in the background with `--daemon`, returning
/// once it is ready) and prints the summary; the exit code.
pub fn run(config: &Config) -> u8 {
    if config.daemon {
        return daemon(config);
    }
    let mut stdout = std::io::stdout();
    let result = export(config, &mut stdout).and_then(Running::wait);
    finish(config, result)
}

/// Prints the summary or the error; the exit code.
fn finish(config: &Config, result: Result<Counters, ExportError>) -> u8 {
    match result {
        Ok(counters) => {
            let text = counters.text();
            let written = match &config.summary {
                Some(path) => std::fs::write(path, &text),
                None => std::io::stdout().write_all(text.as_bytes()),
            };
            match written {
                Ok(()) => 0,
                Err(e) => {
                    eprintln!("iomark fuse-export: cannot write the summary: {e}");
                    1
                }
            }
        }
        Err(e) => {
            eprintln!("iomark fuse-export: {e}");
            e.exit_code()
        }
    }
}

/// `--daemon`: forks; the child exports, tells the parent through a pipe when the export
/// is ready (or why it failed), then carries on without a terminal; the parent prints what
/// it was told and exits.
fn daemon(config: &Config) -> u8 {
    let (mut from_child, to_parent) = match sys::pipe() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("iomark fuse-export: --daemon: {e}");
            return 1;
        }
    };
    match sys::fork() {
        Err(e) => {
            eprintln!("iomark fuse-export: --daemon: fork: {e}");
            1
        }
        Ok(sys::Forked::Parent) => {
            drop(to_parent);
            let mut told = String::new();
            let _ = from_child.read_to_string(&mut told);
            // The child's last line is its status: "ready" or "failed CODE".
            let (text, status) = told.trim_end().rsplit_once('\n').unwrap_or(("", told.trim_end()));
            match status.strip_prefix("failed ") {
                None if status == "ready" => {
                    println!("{text}");
                    0
                }
                Some(code) => {
                    eprintln!("{text}");
                    code.parse().unwrap_or(1)
                }
                None => {
                    eprintln!(
                        "iomark fuse-export: --daemon: the exporter ended before it was ready"
                    );
                    1
                }
            }
        }
        Ok(sys::Forked::Child) => {
            drop(from_child);
            let _ = sys::setsid();
            let mut told = Vec::new();
            let mut to_parent = to_parent;
            match export(config, &mut told) {
                Err(e) => {
                    let _ = write!(
                        to_parent,
                        "{}iomark fuse-export: {e}\nfailed {}\n",
                        String::from_utf8_lossy(&told),
                        e.exit_code()
                    );
                    e.exit_code()
                }
                Ok(running) => {
                    let pid = std::process::id();
                    let _ = write!(
                        to_parent,
                        "{}iomark fuse-export: running as pid {pid}\nready\n",
                        String::from_utf8_lossy(&told)
                    );
                    drop(to_parent);
                    if let Ok(null) =
                        std::fs::OpenOptions::new().read(true).write(true).open("/dev/null")
                    {
                        for fd in 0..3 {
                            let _ = sys::dup_onto(&null, fd);
                        }
                    }
                    finish(config, running.wait())
                }
            }
        }
    }
}
