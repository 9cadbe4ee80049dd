//! `--web[=ADDR:PORT]`: the live page, served while the run goes on (the successor of fio's
//! gfio), read-only and on loopback unless told otherwise.
//!
//! [`Live::start`] binds the address (by default `127.0.0.1` and a free port) and serves on a
//! thread of its own; the run hands it each interval ([`Live::update`]); at the end
//! [`Live::finish`] puts the final HTML report in the live page's place. A page that was
//! polling then loads it, and `finish` waits (a few seconds at most) until it has, so
//! that the browser shows the final report even though iomark then exits.

mod page;
mod response;
mod server;
mod state;

use iomark_stats::interval::IntervalEvent;
use iomark_stats::report::RunReport;
use state::Shared;
use std::net::{SocketAddr, TcpListener, ToSocketAddrs};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long [`Live::finish`] waits for a page that polled lately to load the final report.
const HANDOVER: Duration = Duration::from_secs(5);

/// Why the live page could not start.
#[derive(Debug, thiserror::Error)]
pub enum LiveError {
    /// The address was not `ADDR:PORT`, `ADDR` or `PORT`.
    #[error("--web: '{0}' is not an address (ADDR:PORT, ADDR or PORT)")]
    Address(String),
    /// Binding it failed.
    #[error("--web: cannot listen on {addr}: {source}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// The error.
        source: std::io::Error,
    },
}

/// The address `--web=SPEC` asks for: empty for `127.0.0.1` and a free port, `PORT` alone
/// on `127.0.0.1`, `ADDR` alone with a free port, or `ADDR:PORT` (`[::1]:8080`).
pub fn address(spec: &str) -> Result<SocketAddr, LiveError> {
    let spec = spec.trim();
    let bad = || LiveError::Address(spec.to_string());
    if spec.is_empty() {
        return Ok(SocketAddr::from(([127, 0, 0, 1], 0)));
    }
    if let Ok(port) = spec.parse::<u16>() {
        return Ok(SocketAddr::from(([127, 0, 0, 1], port)));
    }
    if let Ok(ip) = spec.trim_start_matches('[').trim_end_matches(']').parse::<std::net::IpAddr>() {
        return Ok(SocketAddr::new(ip, 0));
    }
    spec.to_socket_addrs().map_err(|_| bad())?.next().ok_or_else(bad)
}

/// The running live page.
pub struct Live {
    shared: Arc<Shared>,
    addr: SocketAddr,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Live {
    /// Listens on `addr` and serves the live page of a run called `title`.
    pub fn start(addr: SocketAddr, title: &str) -> Result<Live, LiveError> {
        let listener =
            TcpListener::bind(addr).map_err(|source| LiveError::Bind { addr, source })?;
        let addr = listener.local_addr().map_err(|source| LiveError::Bind { addr, source })?;
        let shared = Arc::new(Shared::new(title));
        let serving = Arc::clone(&shared);
        let thread = std::thread::spawn(move || server::serve(listener, serving));
        Ok(Live { shared, addr, thread: Some(thread) })
    }

    /// Where the page is: `http://127.0.0.1:PORT/`.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// Takes in one interval and the interim report it came from.
    pub fn update(&self, event: &IntervalEvent, report: &RunReport) {
        self.shared.lock().update(event, report);
    }

    /// The run is over: `final_html` replaces the live page. Waits until a page that
    /// polled in the last few seconds has loaded it (at most a few seconds), then stops.
    pub fn finish(mut self, final_html: String) {
        let mut s = self.shared.lock();
        s.final_html = Some(final_html);
        s.seq += 1;
        let watched = s.last_poll.is_some_and(|t| t.elapsed() < HANDOVER);
        let until = Instant::now() + HANDOVER;
        while watched && !s.final_sent {
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break;
            }
            s = self.shared.sent.wait_timeout(s, left).unwrap_or_else(|e| e.into_inner()).0;
        }
        drop(s);
        self.stop();
    }

    fn stop(&mut self) {
        self.shared.stop.store(true, std::sync::atomic::Ordering::SeqCst);
        server::wake(self.addr);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        self.stop();
    }
}

#[cfg(test)]
mod tests;
