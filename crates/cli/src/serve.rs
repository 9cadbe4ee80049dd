//! `iomark --server[=ARGS]` (and `--daemonize=PIDFILE`): fio 3.33's server side
//! ([`iomark_dist::proto::server`]), so that fio's client and gfio run jobs here.

use iomark_dist::proto::server::{serve, Listen, Shared};
use iomark_options::cmdline::ProgramOptions;
use std::process::ExitCode;
use std::sync::Arc;

/// Serves until a client asks the server to exit; with `--daemonize`, starts the server in
/// the background (its own process group, no terminal), writes its process id to the
/// pid file and returns at once. Err is a usage message (exit code 2).
pub fn main(arg: &str, program: &ProgramOptions) -> Result<ExitCode, String> {
    let listen = Listen::parse(arg).map_err(|e| format!("--server={arg}: {e}"))?;
    if let Some(pidfile) = &program.daemonize {
        return daemonize(pidfile);
    }
    let shared = Shared {
        local: Arc::new(crate::loader::FsLoader),
        log: Arc::new(|m| eprintln!("iomark: {m}")),
    };
    serve(&listen, shared, || {}).map_err(|e| format!("--server={arg}: {e}"))?;
    Ok(ExitCode::SUCCESS)
}

/// Starts this program again with the same arguments but `--daemonize`, detached, and
/// writes its process id to `pidfile`.
fn daemonize(pidfile: &std::path::Path) -> Result<ExitCode, String> {
    use std::os::unix::process::CommandExt;
    let exe = std::env::current_exe().map_err(|e| format!("--daemonize: {e}"))?;
    let mut args: Vec<std::ffi::OsString> = Vec::new();
    let mut skip = false;
    for a in std::env::args_os().skip(1) {
        if std::mem::take(&mut skip) {
            continue;
        }
        match a.to_str() {
            Some("--daemonize") => skip = true,
            Some(s) if s.starts_with("--daemonize=") => {}
            _ => args.push(a),
        }
    }
    let child = std::process::Command::new(exe)
        .args(args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .process_group(0)
        .spawn()
        .map_err(|e| format!("--daemonize: cannot start the server: {e}"))?;
    std::fs::write(pidfile, format!("{}\n", child.id()))
        .map_err(|e| format!("--daemonize '{}': {e}", pidfile.display()))?;
    Ok(ExitCode::SUCCESS)
}
