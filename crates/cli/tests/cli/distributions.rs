//! The corpus files of random distributions, generators and their small options, run under
//! fio 3.33 and iomark (null engine, JSON output) in a temporary directory: the counts of
//! I/Os and bytes must agree. Random offsets are iomark's own, so only counts are compared;
//! the shares themselves are checked in the workload crate's tests.
//!
//! Without `fio` on the `PATH` the test prints `skipped: fio not installed` and passes.

use crate::support::corpus::good;
use crate::support::report::{count, json_doc};
use crate::support::run::{command, run_in, tempdir, text, IOMARK};
use crate::support::tools::fio_installed;
use serde_json::Value;
use std::path::Path;
use std::process::Output;

/// How the counts of one corpus file are compared.
#[derive(Debug, Clone, Copy)]
enum Compare {
    /// I/Os and bytes per direction, exactly.
    Exact,
    /// Reads and writes drawn at random (`randrw`): their sums exactly, trims exactly.
    Summed,
    /// Sizes drawn at random, laid out by iomark's own draws: the bytes of all directions
    /// within this many percent; the number of I/Os is not compared.
    Bytes(f64),
}

/// The corpus files of this test, under `tests/jobs/good`.
const CASES: &[(&str, Compare)] = &[
    ("dist_zipf.fio", Compare::Summed),
    ("dist_pareto.fio", Compare::Exact),
    ("dist_normal.fio", Compare::Exact),
    ("dist_zoned.fio", Compare::Exact),
    ("dist_zoned_abs.fio", Compare::Exact),
    ("random_generator.fio", Compare::Summed),
    ("rw_sequencer.fio", Compare::Exact),
    ("softrandommap.fio", Compare::Exact),
    // fio 3.33's random map leaves a few blocks of a mixed-size job unread (1028096 bytes
    // of 1 MiB for `random-reads`); iomark's covers them all.
    ("bs_is_seq_rand.fio", Compare::Bytes(3.0)),
    // fio draws the largest size of an unaligned range with probability min/max and
    // leaves a tail shorter than the smallest size; iomark's sizes are uniform and it
    // shrinks the last one to fit (see docs/workloads.md).
    ("bs_unaligned.fio", Compare::Bytes(0.5)),
];

/// Runs fio or iomark on `job` with JSON output in a fresh temporary directory.
fn run_json(program: &str, job: &Path) -> Value {
    let dir = tempdir();
    let out = run_in(dir.path(), program, &["--output-format=json", job.to_str().unwrap()]);
    let what = format!("{}: {program}", job.display());
    assert_eq!(out.status.code(), Some(0), "{what}: {}", text(&out.stderr));
    json_doc(&out, &what)
}

/// The differences between fio's and iomark's counts for one file.
fn differences(name: &str, how: Compare, fio: &Value, ours: &Value) -> Vec<String> {
    let (fj, oj) = (fio["jobs"].as_array().unwrap(), ours["jobs"].as_array().unwrap());
    if fj.len() != oj.len() {
        return vec![format!("{name}: {} jobs in fio, {} in iomark", fj.len(), oj.len())];
    }
    let mut diffs = Vec::new();
    for (f, o) in fj.iter().zip(oj) {
        let job = f["jobname"].as_str().unwrap_or("?");
        if let Compare::Bytes(pct) = how {
            let all = |j: &Value| -> u64 {
                ["read", "write", "trim"].iter().map(|d| count(j, d, "io_bytes")).sum()
            };
            let (a, b) = (all(f) as f64, all(o) as f64);
            if (a - b).abs() > a * pct / 100.0 {
                diffs.push(format!("{name} [{job}] bytes: fio {a}, iomark {b} (> {pct}%)"));
            }
        }
        let fields: &[&str] = match how {
            Compare::Bytes(_) => &[],
            _ => &["total_ios", "io_bytes"],
        };
        for &field in fields {
            let get = |j: &Value, dirs: &[&str]| dirs.iter().map(|d| count(j, d, field)).sum();
            let groups: &[&[&str]] = match how {
                Compare::Summed => &[&["read", "write"], &["trim"]],
                _ => &[&["read"], &["write"], &["trim"]],
            };
            for dirs in groups {
                let (a, b): (u64, u64) = (get(f, dirs), get(o, dirs));
                if a != b {
                    diffs.push(format!("{name} [{job}] {dirs:?} {field}: fio {a}, iomark {b}"));
                }
            }
        }
        eprintln!(
            "{name} [{job}]: fio r/w/t ios {}/{}/{}, iomark {}/{}/{}",
            count(f, "read", "total_ios"),
            count(f, "write", "total_ios"),
            count(f, "trim", "total_ios"),
            count(o, "read", "total_ios"),
            count(o, "write", "total_ios"),
            count(o, "trim", "total_ios"),
        );
    }
    diffs
}

#[test]
fn same_counts_as_fio_for_every_distribution_file() {
    if !fio_installed() {
        return;
    }
    let mut diffs = Vec::new();
    for &(name, how) in CASES {
        let path = good(name);
        let (fio, ours) = (run_json("fio", &path), run_json(IOMARK, &path));
        diffs.extend(differences(name, how, &fio, &ours));
    }
    assert!(diffs.is_empty(), "differences from fio 3.33:\n{}", diffs.join("\n"));
}

/// The rows of a genzipf table: (hits %, sum %), and the total.
fn genzipf_rows(out: &Output) -> (Vec<(f64, f64)>, u64) {
    let stdout = text(&out.stdout);
    let rows = stdout
        .lines()
        .filter(|l| l.starts_with("Top") || l.starts_with("|->"))
        .map(|l| {
            let f: Vec<&str> = l[4..].split_whitespace().collect();
            let pct = |s: &str| s.trim_end_matches('%').parse::<f64>().expect("a percentage");
            (pct(f[1]), pct(f[2]))
        })
        .collect();
    let total = stdout
        .lines()
        .find_map(|l| l.strip_prefix("Total"))
        .and_then(|t| t.trim().parse().ok())
        .expect("a Total line");
    (rows, total)
}

#[test]
fn genzipf_prints_fio_genzipf_table_with_the_same_shares() {
    let found = command("fio-genzipf").arg("-h").output().is_ok();
    if !found {
        eprintln!("skipped: fio-genzipf not installed");
        return;
    }
    for line in [
        "-t zipf -i 1.2 -g 1 -b 4096 -o 10",
        "-t pareto -i 0.3 -g 1 -b 4096 -o 5",
        "-t normal -i 30 -g 1 -b 8192 -o 8",
    ] {
        let args: Vec<&str> = line.split(' ').collect();
        let fio = command("fio-genzipf").args(&args).output().expect("run fio-genzipf");
        let ours = command(IOMARK).arg("genzipf").args(&args).output().expect("run iomark genzipf");
        assert_eq!(ours.status.code(), Some(0), "{line}: {}", text(&ours.stderr));
        let first = |o: &Output| text(&o.stdout).lines().next().unwrap_or_default().to_string();
        assert_eq!(first(&fio), first(&ours), "{line}: header");
        let ((f, ft), (o, ot)) = (genzipf_rows(&fio), genzipf_rows(&ours));
        assert_eq!((f.len(), ft), (o.len(), ot), "{line}: rows and total");
        // Sampling noise: the rows are shares of the values hit, which vary by a few
        // percent; 1.5 points per row, 2 points on the running sum.
        for (i, (a, b)) in f.iter().zip(&o).enumerate() {
            assert!((a.0 - b.0).abs() < 1.5, "{line}: row {i} hits {} vs {}", a.0, b.0);
            assert!((a.1 - b.1).abs() < 2.0, "{line}: row {i} sum {} vs {}", a.1, b.1);
        }
    }
}
