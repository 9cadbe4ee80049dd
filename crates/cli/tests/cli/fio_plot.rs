//! Third-party readers of fio's output, run on iomark's: `fio-plot` (PyPI), which plots
//! IOPS and latency against queue depth from a folder of fio JSON files.
//!
//! The tool is looked up as `fio-plot` on the `PATH` (CI installs it from PyPI into a
//! virtual environment and puts that on the `PATH`). Where it is missing the tests print
//! `skipped: …` and pass.

use crate::support::run::{command, iomark_in, tempdir, text};
use crate::support::tools::have;
use std::path::Path;

/// Whether `fio-plot` can be run; prints the skip message when it cannot.
fn fio_plot_installed() -> bool {
    let ok = have("fio-plot", &["--help"]);
    if !ok {
        eprintln!("  (CI installs it from PyPI: pip install fio-plot)");
    }
    ok
}

/// Runs `fio-plot` with `args` in `dir` and asserts it succeeded and wrote `png`.
fn plot(dir: &Path, args: &[&str], png: &str) {
    let out = command("fio-plot")
        .current_dir(dir)
        .args(args)
        .env("MPLBACKEND", "Agg")
        .output()
        .expect("run fio-plot");
    let stderr = text(&out.stderr);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "fio-plot {args:?} failed:\n{stdout}\n{stderr}");
    assert!(!stderr.contains("Traceback"), "fio-plot {args:?} raised:\n{stderr}");
    let written = std::fs::metadata(dir.join(png)).map(|m| m.len()).unwrap_or(0);
    assert!(written > 0, "fio-plot {args:?} wrote no {png}:\n{stdout}\n{stderr}");
}

/// One null-engine job per queue depth, each written as fio-plot's `rw-depth-jobs.json`.
fn json_per_depth(dir: &Path, depths: &[u32], format: &str) {
    for depth in depths {
        let out = iomark_in(
            dir,
            &[
                "--name=qd",
                "--ioengine=null",
                "--rw=randread",
                "--bs=4k",
                "--size=16m",
                &format!("--iodepth={depth}"),
                "--numjobs=1",
                &format!("--output-format={format}"),
                &format!("--output=randread-{depth}-1.json"),
            ],
            false,
        );
        assert!(out.status.success(), "iomark: {}", text(&out.stderr));
    }
}

#[test]
fn fio_plot_draws_iops_and_latency_against_queue_depth() {
    if !fio_plot_installed() {
        return;
    }
    let dir = tempdir();
    json_per_depth(dir.path(), &[1, 2, 4, 8], "json");
    let args = ["-i", ".", "-T", "iomark", "-l", "-r", "randread", "-d", "1", "2", "4", "8"];
    plot(dir.path(), &[&args[..], &["-n", "1", "-o", "qd.png"]].concat(), "qd.png");
}

#[test]
fn fio_plot_draws_the_latency_histogram_of_json_plus() {
    if !fio_plot_installed() {
        return;
    }
    let dir = tempdir();
    json_per_depth(dir.path(), &[1], "json+");
    let args = ["-i", ".", "-T", "iomark", "-H", "-r", "randread", "-d", "1", "-n", "1"];
    plot(dir.path(), &[&args[..], &["-o", "hist.png"]].concat(), "hist.png");
}

/// fio-plot's log graph reads the `_lat`, `_bw` and `_iops` logs of `write_*_log`, found
/// by bench-fio's naming (`rw-iodepth-N-numjobs-M`).
#[test]
fn fio_plot_draws_iomarks_logs_over_time() {
    if !fio_plot_installed() {
        return;
    }
    let dir = tempdir();
    let log = "--write_{}_log=randread-iodepth-1-numjobs-1";
    let logs: Vec<String> = ["lat", "bw", "iops"].iter().map(|k| log.replace("{}", k)).collect();
    let mut args = vec![
        "--name=logs",
        "--ioengine=null",
        "--rw=randread",
        "--bs=4k",
        "--size=16m",
        "--loops=20",
        "--log_avg_msec=1",
    ];
    args.extend(logs.iter().map(String::as_str));
    let out = iomark_in(dir.path(), &args, false);
    assert!(out.status.success(), "iomark: {}", text(&out.stderr));
    let plot_args = ["-i", ".", "-T", "iomark", "-g", "-r", "randread", "-d", "1", "-n", "1"];
    let kinds = ["-t", "iops", "lat", "bw", "-o", "logs.png"];
    plot(dir.path(), &[&plot_args[..], &kinds[..]].concat(), "logs.png");
}
