//! The live page's server: `std::net` and a handler of a few lines, on one thread.
//!
//! Why no HTTP crate: the server answers `GET` (and `HEAD`) for three paths with a complete
//! body and closes the connection; it never reads a request body, keeps no connection
//! open, and writes nothing anywhere. What an HTTP library adds (keep-alive, chunked
//! bodies, TLS, routing) would be unused weight. Requests are read with a timeout and a
//! size limit, so a silent or flooding client holds the thread for two seconds at most.
//! Anything but `GET`/`HEAD` gets `405`: the server is read-only.

use super::response::Response;
use super::state::Shared;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

/// The most bytes of a request head read.
const HEAD_LIMIT: usize = 8192;

/// Serves `shared` on `listener` until `shared.stop` is set (and a connection wakes it).
pub(super) fn serve(listener: TcpListener, shared: Arc<Shared>) {
    for stream in listener.incoming() {
        if shared.stop.load(Ordering::SeqCst) {
            break;
        }
        if let Ok(stream) = stream {
            let _ = handle(stream, &shared);
        }
    }
}

/// Wakes the accepting thread so that it sees the stop flag.
pub(super) fn wake(addr: SocketAddr) {
    let _ = TcpStream::connect_timeout(&addr, Duration::from_secs(1));
}

fn handle(mut stream: TcpStream, shared: &Shared) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(2)))?;
    stream.set_write_timeout(Some(Duration::from_secs(2)))?;
    let mut head = Vec::with_capacity(1024);
    let mut buf = [0u8; 1024];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") && head.len() < HEAD_LIMIT {
        let n = stream.read(&mut buf)?;
        if n == 0 {
            break;
        }
        head.extend_from_slice(&buf[..n]);
    }
    let text = String::from_utf8_lossy(&head);
    let mut words = text.split_whitespace();
    let (method, target) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
    let path = target.split('?').next().unwrap_or("");
    let response = match method {
        "GET" | "HEAD" => shared.answer(path),
        _ => Response::text(405, "read-only: GET only\n"),
    };
    let reason = match response.status {
        200 => "OK",
        404 => "Not Found",
        _ => "Method Not Allowed",
    };
    let mut out = format!(
        "HTTP/1.1 {} {reason}\r\nContent-Type: {}\r\nContent-Length: {}\r\n\
         Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n",
        response.status,
        response.content_type,
        response.body.len()
    )
    .into_bytes();
    if method != "HEAD" {
        out.extend_from_slice(&response.body);
    }
    stream.write_all(&out)?;
    stream.flush()
}
