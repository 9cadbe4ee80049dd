//! fio's own tools on iomark's output: `fio_jsonplus_clat2csv` reads iomark's json+.
//! Without the tool or python3 the test prints `skipped: …` and passes.

use crate::support::run::{command, iomark_in, tempdir, text};
use crate::support::tools::have;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;

/// Debian's package of fio installs its json+ converter here.
const CLAT2CSV: &str = "/usr/bin/fio_jsonplus_clat2csv";

/// Whether `python3` runs and fio's json+ converter is installed; prints what is missing.
fn clat2csv_installed() -> bool {
    if !Path::new(CLAT2CSV).exists() {
        eprintln!("skipped: {CLAT2CSV} not installed (Debian's fio package has it)");
        return false;
    }
    have("python3", &["--version"])
}

/// fio's `fio_jsonplus_clat2csv` reads iomark's json+ and writes one CSV per job with a
/// header and one row per distinct bin value of the job's slat, clat and lat histograms;
/// its `--validate` checks every count against the JSON.
#[test]
fn fio_jsonplus_clat2csv_reads_our_json_plus() {
    if !clat2csv_installed() {
        return;
    }
    let dir = tempdir();
    let args = [
        "--output-format=json+",
        "--output=out.json",
        "--ioengine=null",
        "--size=4m",
        "--lat_percentiles=1",
        "--name=mixed",
        "--rw=randrw",
        "--name=reads",
        "--rw=read",
    ];
    let out = iomark_in(dir.path(), &args, false);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let json = std::fs::read_to_string(dir.path().join("out.json")).expect("json+ output");
    let doc: Value = serde_json::from_str(&json).expect("one JSON document");
    let convert = |extra: &[&str]| {
        command("python3")
            .current_dir(dir.path())
            .args([CLAT2CSV, "out.json", "out.csv"])
            .args(extra)
            .output()
            .expect("run python3")
    };
    let made = convert(&[]);
    assert!(made.status.success(), "clat2csv: {}", text(&made.stderr));
    assert_eq!(text(&made.stdout), "out_job0.csv generated\nout_job1.csv generated\n");
    let checked = convert(&["--validate"]);
    assert!(checked.status.success(), "clat2csv --validate: {}", text(&checked.stderr));
    assert_eq!(text(&checked.stdout), "out_job0.csv validated\nout_job1.csv validated\n");
    for (i, job) in doc["jobs"].as_array().expect("jobs").iter().enumerate() {
        let mut values = BTreeSet::new();
        for d in ["read", "write", "trim"] {
            for lat in ["slat_ns", "clat_ns", "lat_ns"] {
                if let Some(bins) = job[d][lat].get("bins").and_then(Value::as_object) {
                    values.extend(bins.keys().map(|k| k.parse::<u64>().expect("a bin value")));
                }
            }
        }
        assert!(job["read"]["clat_ns"]["bins"].is_object(), "job {i} has clat bins");
        let csv = std::fs::read_to_string(dir.path().join(format!("out_job{i}.csv")))
            .expect("the job's CSV");
        let rows: Vec<u64> = csv
            .lines()
            .skip(1)
            .map(|l| l.split(',').next().unwrap().trim().parse().expect("nsec"))
            .collect();
        assert!(csv.starts_with("nsec, read_slat_ns_count,"), "{csv}");
        assert_eq!(rows, values.into_iter().collect::<Vec<_>>(), "job {i}: one row per bin");
    }
}
