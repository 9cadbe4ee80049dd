//! The HTML report and the live page in Debian's headless chromium, driven by Selenium with
//! chromedriver (`crates/web/tests/browser/check.py`): no console error, every chart drew,
//! the live figures change while the run goes on and the page becomes the final report; a
//! screenshot of each (in `$IOMARK_SHOTS` when set). Skips without chromium, chromedriver
//! or Selenium (CI installs them: `.ci/run`).

use crate::support::process::Gate;
use crate::support::run::{command, iomark_ok, tempdir, text, IOMARK};
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::Stdio;

/// The Python that has Selenium (CI's venv first), if chromium and chromedriver are there.
fn selenium() -> Option<String> {
    for program in ["/usr/bin/chromium", "/usr/bin/chromedriver"] {
        if !Path::new(program).exists() {
            eprintln!("skipped: {program} not installed");
            return None;
        }
    }
    for python in ["/tmp/iomark-ci-venv/bin/python3", "python3"] {
        let ok = command(python).args(["-c", "import selenium"]).output();
        if ok.is_ok_and(|o| o.status.success()) {
            return Some(python.to_string());
        }
    }
    eprintln!("skipped: Selenium (PyPI) not installed");
    None
}

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../web/tests/browser/check.py")
}

fn shot(dir: &Path, name: &str) -> String {
    let base = std::env::var_os("IOMARK_SHOTS").map_or_else(|| dir.to_path_buf(), PathBuf::from);
    base.join(name).display().to_string()
}

fn check(python: &str, args: &[&str]) {
    let out = command(python).arg(script()).args(args).output().expect("run check.py");
    assert!(out.status.success(), "{}{}", text(&out.stdout), text(&out.stderr));
}

#[test]
fn the_html_report_draws_every_chart_in_chromium() {
    let Some(python) = selenium() else { return };
    let dir = tempdir();
    let args = [
        "--name=seq",
        "--ioengine=null",
        "--rw=randrw",
        "--bs=512",
        "--size=1m",
        "--write_lat_log=seq",
        "--log_offset=1",
        "--output-format=html",
        "--output=r.html",
        "--status-interval=20ms",
    ];
    iomark_ok(dir.path(), &args, false);
    let page = dir.path().join("r.html").display().to_string();
    check(&python, &["report", &page, &shot(dir.path(), "report.png")]);
}

#[test]
fn the_live_page_changes_and_becomes_the_report_in_chromium() {
    let Some(python) = selenium() else { return };
    let dir = tempdir();
    // The run goes on until the page has shown two updates: check.py then opens the gate,
    // whose job's end stops the live job (`exitall`), however slow the machine is.
    let Some(gate) = Gate::new(dir.path()) else { return };
    let live = [
        "--name=live",
        "--ioengine=null",
        "--rw=randread",
        "--rate_iops=4000",
        "--size=1g",
        "--time_based",
        "--runtime=600",
        "--status-interval=300ms",
        "--web",
    ];
    let mut child = command(IOMARK)
        .current_dir(dir.path())
        .args(live)
        .args(gate.job())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start iomark");
    let stdout = child.stdout.take().expect("stdout");
    let mut lines = std::io::BufReader::new(stdout).lines();
    let first = lines.next().expect("a first line").expect("text");
    let url =
        first.strip_prefix("iomark: live view at ").expect("the live page's address").to_string();
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");
    // Keep reading so that iomark never blocks on a full pipe.
    let rest = std::thread::spawn(move || lines.map_while(Result::ok).collect::<Vec<_>>());
    let fifo = gate.fifo().display().to_string();
    check(&python, &["live", &url, &shot(dir.path(), "live.png"), &fifo]);
    let status = child.wait().expect("iomark ends");
    let report = rest.join().expect("reader");
    assert!(status.success());
    assert!(report.iter().any(|l| l.starts_with("Run status group 0")), "{report:?}");
}
