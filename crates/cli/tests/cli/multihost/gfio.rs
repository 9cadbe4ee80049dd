//! Debian's gfio, fio's graphical client, against `iomark --server` in a virtual X server
//! (Xvfb): it opens a job file, connects, sends the job and starts it, and shows the job's
//! options and live figures; the test keeps a screenshot (`gfio-iomark.png` in the
//! target directory). gfio is driven with xdotool at the places of its widgets in a
//! 1280x900 screen; each step waits for the window it opens. Skipped where gfio, Xvfb,
//! xdotool or ImageMagick's `import` is missing.

use super::Server;
use crate::support::process::poll_until;
use crate::support::run::{command, tempdir, write_job};
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};

/// Whether `program` is on the PATH; prints the skip message when not.
fn on_path(program: &str) -> bool {
    let found = std::env::var_os("PATH")
        .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join(program).is_file()));
    if !found {
        eprintln!("skipped: {program} not installed");
    }
    found
}

/// A child killed when dropped.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Runs xdotool with `args` on `display` for at most `secs` seconds (a `search --sync`
/// waits); whether it succeeded.
fn xdotool_for(display: &str, secs: u32, args: &[&str]) -> bool {
    command("timeout")
        .arg(secs.to_string())
        .arg("xdotool")
        .args(args)
        .env("DISPLAY", display)
        .stdout(Stdio::null())
        .status()
        .expect("run xdotool")
        .success()
}

/// Runs xdotool with `args` on `display`, for at most 20 s.
fn xdotool(display: &str, args: &[&str]) {
    assert!(xdotool_for(display, 20, args), "xdotool {args:?}");
}

/// Clicks at `(x, y)` on `display`.
fn click(display: &str, x: u32, y: u32) {
    xdotool(display, &["mousemove", &x.to_string(), &y.to_string(), "click", "1"]);
}

/// Waits until a window called `name` is on `display` (without a window manager gfio's
/// main window never counts as visible, so it is looked for mapped or not).
fn main_window(display: &str, name: &str) {
    xdotool(display, &["search", "--sync", "--name", &format!("^{name}$")]);
}

/// Does `act` until a visible window called `name` is on `display`: a click can come
/// before the window it is meant for takes input. Each try waits 2 s for the window.
fn until_shown(display: &str, name: &str, mut act: impl FnMut()) {
    let name = format!("^{name}$");
    let shown = poll_until(|| {
        act();
        xdotool_for(display, 2, &["search", "--sync", "--onlyvisible", "--name", &name])
            .then_some(())
    });
    assert!(shown.is_some(), "no window {name}");
}

/// Replaces the text of the entry at `(x, y)` with `text`.
fn fill(display: &str, (x, y): (u32, u32), text: &str) {
    click(display, x, y);
    // A first key press into an empty GTK entry can be taken by its completion: type one
    // that does not matter, then replace everything.
    xdotool(display, &["type", "x"]);
    xdotool(display, &["key", "ctrl+a"]);
    xdotool(display, &["type", "--delay", "30", text]);
}

/// An X server stopped with SIGTERM when dropped, so that it removes its socket and lock
/// file (SIGKILL leaves them behind, and they use up the display numbers).
struct Terminated(Child);

impl Drop for Terminated {
    fn drop(&mut self) {
        let _ = command("kill").arg("-TERM").arg(self.0.id().to_string()).status();
        let _ = self.0.wait();
    }
}

/// Starts Xvfb on a display it finds free (`-displayfd`: it writes the number once it
/// accepts clients); the display's name (`:93`) and the process.
fn xvfb() -> (String, Terminated) {
    let mut child = command("Xvfb")
        .args(["-displayfd", "1", "-screen", "0", "1280x900x24", "-nolisten", "tcp"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start Xvfb");
    let mut number = String::new();
    let out = child.stdout.take().expect("Xvfb's output");
    let _ = std::io::BufRead::read_line(&mut std::io::BufReader::new(out), &mut number);
    let server = Terminated(child);
    let n: u32 = number.trim().parse().expect("Xvfb's display number");
    let socket = PathBuf::from(format!("/tmp/.X11-unix/X{n}"));
    poll_until(|| socket.exists().then_some(())).expect("Xvfb's socket");
    (format!(":{n}"), server)
}

#[test]
fn gfio_runs_a_job_on_an_iomark_server_and_shows_its_figures() {
    if !["gfio", "Xvfb", "xdotool", "import"].iter().all(|p| on_path(p)) {
        return;
    }
    let dir = tempdir();
    let data = dir.path().join("gfio.data");
    // A job that runs long enough to be watched, writing a file the test can see.
    let job = write_job(
        dir.path(),
        &format!(
            "[gjob]\nioengine=psync\nrw=write\nbs=4k\nsize=4m\nfilename={}\ntime_based\n\
             runtime=60\nrate=8m\n",
            data.display()
        ),
    );
    let server = Server::start_on(&dir.path().join("server.log"), false);
    let (d, _xvfb) = xvfb();
    let d = d.as_str();
    let _gfio = Killed(
        command("gfio")
            .env("DISPLAY", d)
            .current_dir(dir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start gfio"),
    );
    main_window(d, "gfio");
    // File > Open, the job file.
    until_shown(d, "Open File", || {
        click(d, 40, 13);
        click(d, 50, 59);
    });
    click(d, 600, 400);
    xdotool(d, &["key", "ctrl+l"]);
    fill(d, (636, 160), &format!("/{}", job.display()));
    // The server to run it on: host, port, no fio of its own.
    until_shown(d, "Connection details", || click(d, 932, 647));
    fill(d, (600, 289), "127.0.0.1");
    fill(d, (590, 343), &server.port.to_string());
    xdotool(d, &["key", "Tab"]);
    click(d, 514, 453);
    click(d, 556, 491);
    // Connect, send, start: each button answers once the server has answered the one
    // before, so they are pressed until the job writes.
    click(d, 38, 751);
    // The server writes 4 MiB laying the file out, then 8 MiB a second.
    let written = |bytes: u64| server.written().filter(|&w| w >= bytes).map(|_| ());
    let started = poll_until(|| {
        click(d, 121, 751);
        click(d, 184, 751);
        written(5 << 20)
    });
    assert!(started.is_some(), "gfio never started the job");
    // gfio asks for the figures every second: let three seconds of writing go by, so
    // that its charts have points.
    assert!(poll_until(|| written(28 << 20)).is_some(), "the job did not go on");
    let shot = Path::new(env!("CARGO_TARGET_TMPDIR")).join("gfio-iomark.png");
    let status = command("import")
        .args(["-window", "root"])
        .arg(&shot)
        .env("DISPLAY", d)
        .status()
        .expect("run import");
    assert!(status.success());
    assert!(std::fs::metadata(&shot).expect("screenshot").len() > 10_000);
    drop(server);
}
