//! The histogram log (`write_hist_log`): a row per direction per window with fio 3.33's
//! 1856 bins (or fewer with `log_hist_coarseness`), read by fio's own
//! `fiologparser_hist.py` and `fio-histo-log-pctiles.py`.

use super::{null_job, parse_rows, rows, Row};
use crate::support::run::{command, iomark_ok, tempdir, text};
use crate::support::tools::have;
use std::path::{Path, PathBuf};
use std::process::Stdio;

/// Runs a job with a histogram log (and a per-I/O clat log) under the fake clock.
fn hist_run(dir: &Path, extra: &[&str]) -> (Vec<Vec<String>>, Vec<Row>) {
    let mut args = null_job(&[
        "--number_ios=20000",
        "--write_hist_log=h",
        "--write_lat_log=h",
        "--log_hist_msec=10",
    ]);
    args.extend_from_slice(extra);
    iomark_ok(dir, &args, true);
    (rows(dir, "h_clat_hist.1.log"), parse_rows(dir, "h_clat.1.log"))
}

#[test]
fn the_histogram_log_counts_each_window() {
    let dir = tempdir();
    let (hist, clat) = hist_run(dir.path(), &[]);
    assert!(hist.len() >= 6, "{} rows", hist.len());
    assert!(hist.iter().all(|r| r.len() == 3 + 1856), "fio 3.33's 1856 bins");
    // Each window closes at the first completion at least 10 ms after the previous
    // close, and holds the I/Os up to that one; one row per direction.
    let mut start = 0;
    let mut counted = [0u64; 2];
    let mut expected: Vec<(u64, u8, u64)> = Vec::new();
    for r in &clat {
        counted[r.dir as usize] += 1;
        if r.time - start >= 10 {
            expected.push((r.time, 0, counted[0]));
            expected.push((r.time, 1, counted[1]));
            counted = [0, 0];
            start = r.time;
        }
    }
    let got: Vec<(u64, u8, u64)> = hist
        .iter()
        .map(|r| {
            let n: Vec<u64> = r.iter().map(|x| x.parse().expect("number")).collect();
            (n[0], n[1] as u8, n[3..].iter().sum())
        })
        .collect();
    assert_eq!(got, expected);
}

#[test]
fn histogram_coarseness_divides_the_bins() {
    for (c, bins) in [(1, 928), (6, 29), (7, 15)] {
        let dir = tempdir();
        let flag = format!("--log_hist_coarseness={c}");
        let (hist, _) = hist_run(dir.path(), &[&flag]);
        assert!(!hist.is_empty());
        assert!(hist.iter().all(|r| r.len() == 3 + bins), "coarseness {c}");
    }
}

/// A Python with numpy and pandas for fiologparser_hist.py: `python3`, else Debian's.
fn python_with_pandas() -> Option<&'static str> {
    ["python3", "/usr/bin/python3"].into_iter().find(|p| {
        command(p)
            .args(["-c", "import numpy, pandas"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    })
}

/// Unpacks one of Debian's fio tools from /usr/share/doc/fio into `dir`.
fn fio_tool(dir: &Path, name: &str) -> Option<PathBuf> {
    let gz = Path::new("/usr/share/doc/fio").join(format!("{name}.gz"));
    if !gz.exists() {
        eprintln!("skipped: {} not found", gz.display());
        return None;
    }
    let out = command("gunzip").arg("-c").arg(&gz).output().ok()?;
    if !out.status.success() {
        eprintln!("skipped: gunzip failed on {}", gz.display());
        return None;
    }
    let path = dir.join(name);
    std::fs::write(&path, out.stdout).expect("write tool");
    Some(path)
}

#[test]
fn fiologparser_hist_reads_iomarks_histogram_log() {
    let dir = tempdir();
    let Some(tool) = fio_tool(dir.path(), "fiologparser_hist.py") else { return };
    let Some(python) = python_with_pandas() else {
        eprintln!("skipped: no python3 with numpy and pandas for fiologparser_hist.py");
        return;
    };
    let (hist, clat) = hist_run(dir.path(), &[]);
    let out = command(python)
        .current_dir(dir.path())
        .arg(&tool)
        .args(["-i", "5", "h_clat_hist.1.log"])
        .output()
        .expect("run fiologparser_hist.py");
    assert!(out.status.success(), "fiologparser_hist.py: {}", text(&out.stderr));
    let report = text(&out.stdout);
    let lines: Vec<&str> = report.lines().collect();
    assert_eq!(lines[0], "end-time, samples, min, avg, median, 90%, 95%, 99%, max");
    // Its sample counts add up to the I/Os of the logged windows (it spreads a window over
    // the intervals it overlaps, so only the total is exact up to rounding).
    let logged: u64 = hist
        .iter()
        .map(|r| r[3..].iter().map(|x| x.parse::<u64>().expect("bin")).sum::<u64>())
        .sum();
    let samples: f64 = lines[1..]
        .iter()
        .map(|l| l.split(", ").nth(1).expect("samples").trim().parse::<f64>().expect("number"))
        .sum();
    assert!(logged > 0 && logged <= clat.len() as u64);
    assert!((samples - logged as f64).abs() <= lines.len() as f64, "{samples} vs {logged}");
}

#[test]
fn fio_histo_log_pctiles_reads_iomarks_histogram_log() {
    let dir = tempdir();
    let Some(tool) = fio_tool(dir.path(), "fio-histo-log-pctiles.py") else { return };
    if !have("python3", &["--version"]) {
        return;
    }
    hist_run(dir.path(), &[]);
    let out = command("python3")
        .current_dir(dir.path())
        .arg(&tool)
        .arg("h_clat_hist.1.log")
        .output()
        .expect("run fio-histo-log-pctiles.py");
    assert!(out.status.success(), "fio-histo-log-pctiles.py: {}", text(&out.stderr));
    assert!(text(&out.stdout).contains("buckets per interval = 1856"), "{}", text(&out.stdout));
}
