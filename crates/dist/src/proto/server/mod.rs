//! `iomark --server[=ARGS]`: fio 3.33's server side, so that `fio --client=HOST job.fio`
//! (and gfio) run jobs on iomark. Every connection is served on a thread of its own (fio
//! forks a process for each), so that several clients run jobs at once; `session` is
//! one client's conversation: it probes, sends its job files and command-line options and
//! asks to run them; the server answers each job's options, its start lines, progress
//! figures when asked, the job's log files (`logs`), its verify state on a trigger, and
//! at the end each job's, group's and disk's statistics (`DISK_UTIL`), from which the client prints its normal,
//! terse or JSON report.
//!
//! A client that goes away stops its jobs; the server keeps serving. A message that is
//! malformed, of another protocol version or too large closes that connection only.

mod logs;
mod session;

pub use session::plans_of;

use super::DEFAULT_PORT;
use iomark_options::jobfile::Loader;
use session::Conn;
use std::net::{TcpListener, TcpStream, ToSocketAddrs};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

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

/// What every session shares: the loader of this machine's files and the log of
/// failed connections.
#[derive(Clone)]
pub struct Shared {
    /// Reads what the clients' job files need from this machine (included files, the
    /// environment, keywords) and the job files of `--remote-config`.
    pub local: Arc<dyn Loader + Send + Sync>,
    /// Told of each connection's failure (which ends that connection only).
    pub log: Arc<dyn Fn(String) + Send + Sync>,
}

/// Serves clients on `listen`, each on a thread of its own, until a client sends `EXIT`,
/// calling `ready` once listening.
pub fn serve(listen: &Listen, shared: Shared, ready: impl FnOnce()) -> Result<(), ServerError> {
    let err = |source| ServerError::Listen { what: format!("{listen:?}"), source };
    let exit = Arc::new(AtomicBool::new(false));
    match listen {
        Listen::Tcp(host, port) => {
            let addrs: Vec<_> = (host.as_str(), *port).to_socket_addrs().map_err(err)?.collect();
            let listener = TcpListener::bind(&addrs[..]).map_err(err)?;
            let here = listener.local_addr().map_err(err)?;
            // An `EXIT` wakes the accepting loop with a connection of its own.
            let wake = move || {
                let _ = TcpStream::connect(here);
            };
            ready();
            accept(listener.incoming(), &shared, &exit, wake, |c| {
                let _ = c.set_nodelay(true);
            });
        }
        Listen::Unix(path) => {
            let _ = std::fs::remove_file(path);
            let listener = UnixListener::bind(path).map_err(err)?;
            let at = path.clone();
            let wake = move || {
                let _ = UnixStream::connect(&at);
            };
            ready();
            accept(listener.incoming(), &shared, &exit, wake, |_| {});
        }
    }
    Ok(())
}

/// Starts a session for every connection of `incoming` until one asks the server to exit.
fn accept<C: Conn>(
    incoming: impl Iterator<Item = std::io::Result<C>>,
    shared: &Shared,
    exit: &Arc<AtomicBool>,
    wake: impl Fn() + Clone + Send + 'static,
    setup: impl Fn(&C),
) {
    for conn in incoming {
        if exit.load(Ordering::SeqCst) {
            return;
        }
        let Ok(conn) = conn else { continue };
        setup(&conn);
        let (mine, exit, wake) = (shared.clone(), Arc::clone(exit), wake.clone());
        let started = std::thread::Builder::new().name("iomark-session".into()).spawn(move || {
            match session::session(conn, &*mine.local) {
                Ok(true) => {
                    exit.store(true, Ordering::SeqCst);
                    wake();
                }
                Ok(false) => {}
                Err(e) => (mine.log)(format!("client: {e}")),
            }
        });
        if let Err(e) = started {
            (shared.log)(format!("client: cannot start a session: {e}"));
        }
    }
}
