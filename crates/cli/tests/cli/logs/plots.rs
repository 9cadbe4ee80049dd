//! fio's plotting tools (`fio_generate_plots`, `fio2gnuplot`) draw iomark's logs.

use super::null_job;
use crate::support::run::{command, iomark_ok, tempdir, text};
use crate::support::tools::have;
use std::path::Path;

/// A windowed run of every log, under the fake clock.
fn plot_run(dir: &Path) {
    let args = null_job(&[
        "--number_ios=20000",
        "--write_lat_log=plot",
        "--write_bw_log=plot",
        "--write_iops_log=plot",
        "--log_avg_msec=2",
    ]);
    iomark_ok(dir, &args, true);
}

#[test]
fn fio_generate_plots_draws_iomarks_logs() {
    if !have("gnuplot", &["--version"]) || !have("sh", &["-c", "command -v fio_generate_plots"]) {
        return;
    }
    let dir = tempdir();
    plot_run(dir.path());
    let out = command("fio_generate_plots")
        .current_dir(dir.path())
        .arg("iomark")
        .output()
        .expect("run fio_generate_plots");
    assert!(out.status.success(), "fio_generate_plots: {}", text(&out.stderr));
    for kind in ["bw", "iops", "lat", "clat"] {
        let svg = dir.path().join(format!("iomark-{kind}.svg"));
        let size = std::fs::metadata(&svg).map(|m| m.len()).unwrap_or(0);
        assert!(size > 1000, "{}: {size} bytes", svg.display());
    }
}

#[test]
fn fio2gnuplot_draws_iomarks_logs() {
    if !have("gnuplot", &["--version"]) || !have("sh", &["-c", "command -v fio2gnuplot"]) {
        return;
    }
    let dir = tempdir();
    plot_run(dir.path());
    for flag in ["-b", "-i"] {
        let out = command("fio2gnuplot")
            .current_dir(dir.path())
            .args([flag, "-g"])
            .output()
            .expect("run fio2gnuplot");
        assert!(out.status.success(), "fio2gnuplot {flag}: {}", text(&out.stderr));
    }
    let pngs = std::fs::read_dir(dir.path())
        .expect("read dir")
        .filter(|e| {
            let e = e.as_ref().expect("entry");
            e.file_name().to_string_lossy().ends_with(".png")
                && e.metadata().is_ok_and(|m| m.len() > 1000)
        })
        .count();
    assert!(pngs >= 6, "{pngs} plots");
}
