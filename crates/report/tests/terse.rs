//! Golden tests of the terse printer against real fio 3.33 output, in versions 2 to 5.
//!
//! Each fixture `tests/fixtures/terse/<case>.v<N>.out` is one run of
//! `fio <case>.fio --output-format=terse,json --terse-version=N` (`generate.sh` made them):
//! fio's terse lines, then its JSON document of the same run. The test turns the JSON into a
//! `RunReport` (`golden/convert.rs`), prints it with [`terse`] and compares field by field
//! with fio's lines.
//!
//! fio's JSON gives latency means and deviations in ns with six decimals, so a µs figure
//! that falls halfway between two six-decimal values (118.3125 ns is 0.1183125 µs) may round
//! the other way than fio's unrounded mean did: such a field may differ by one in its last
//! decimal, nothing else.
//!
//! Two fields are not proven by the comparison: the fio version (iomark names itself, by
//! design), and the first µs latency bucket, which needs the unfloored ns shares that fio's
//! JSON does not carry and is therefore taken from fio's own line (the statistics crate's
//! tests check how iomark computes it).

#[path = "golden/convert.rs"]
mod convert;

use std::path::PathBuf;

use iomark_report::{terse, TerseVersion};

const VERSIONS: [u32; 4] = [2, 3, 4, 5];

/// fio's terse lines and the JSON document of one fixture.
fn load(case: &str, version: u32) -> (String, String) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/terse")
        .join(format!("{case}.v{version}.out"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let json_start = text.find("\n{\n").expect("JSON start") + 1;
    (text[..json_start].to_owned(), text[json_start..].to_owned())
}

/// Where the first µs latency bucket sits in a job's line, counted from the line's end
/// before the disks, the error count and the description: 9 more µs and 12 ms buckets
/// follow it.
const FIRST_US_FROM_END: usize = 22;

fn check(case: &str) {
    for version in VERSIONS {
        let what = format!("{case} v{version}");
        let (fios, json) = load(case, version);
        let (mut report, _) = convert::report_from_fio(&json, "");
        let disk_fields = if version >= 3 { 9 * report.disks.len() } else { 0 };
        let job_lines: Vec<&str> = fios.lines().filter(|l| !l.starts_with(';')).collect();
        assert_eq!(job_lines.len(), report.jobs.len(), "{what}: one line per job");
        for (job, line) in report.jobs.iter_mut().zip(&job_lines) {
            let fields: Vec<&str> = line.split(';').collect();
            let desc = usize::from(version >= 3 && job.description.is_some());
            let errors = if job.errors.is_some() { 2 } else { 0 };
            let at = fields.len() - desc - errors - disk_fields - FIRST_US_FROM_END;
            let value = fields[at].strip_suffix('%').expect("a share");
            job.terse_latency_2us = value.parse().expect("a number");
        }
        let ours = terse(&report, TerseVersion::new(version).expect("a version"));
        let expected = fios.replacen(";fio-3.33;", ";iomark-0.1.0 (fio-3.33);", usize::MAX);
        compare(&what, &ours, &expected);
    }
}

/// Compares line by line and field by field, so that a failure names the first field that
/// differs.
fn compare(what: &str, ours: &str, fios: &str) {
    for (i, (a, b)) in ours.lines().zip(fios.lines()).enumerate() {
        let (fa, fb): (Vec<&str>, Vec<&str>) = (a.split(';').collect(), b.split(';').collect());
        for (j, (x, y)) in fa.iter().zip(&fb).enumerate() {
            if !last_decimal_apart(x, y) {
                assert_eq!(x, y, "{what}: line {}, field {} differs", i + 1, j + 1);
            }
        }
        assert_eq!(fa.len(), fb.len(), "{what}: line {}: field counts differ", i + 1);
    }
    let ends = |s: &str| s.split('\n').count();
    assert_eq!(ends(ours), ends(fios), "{what}: line counts or endings differ");
    assert!(!ours.contains('\r') && ours.ends_with('\n'), "{what}: line endings");
}

/// Whether `a` and `b` are decimals with six decimals that differ by one in the last
/// (see the module doc).
fn last_decimal_apart(a: &str, b: &str) -> bool {
    let micro = |s: &str| -> Option<i64> {
        let (int, frac) = s.split_once('.')?;
        (frac.len() == 6).then_some(())?;
        Some(int.parse::<i64>().ok()? * 1_000_000 + frac.parse::<i64>().ok()?)
    };
    matches!((micro(a), micro(b)), (Some(x), Some(y)) if (x - y).abs() == 1)
}

#[test]
fn errors_a_job_went_on_past() {
    check("errors");
}

#[test]
fn randrw_with_a_disk() {
    check("randrw");
}

#[test]
fn two_jobs_with_a_description_fsync_and_percentile_list() {
    check("multi_job");
}

#[test]
fn group_reporting_with_bandwidth_and_iops_samples() {
    check("group_reporting");
}

#[test]
fn two_groups_with_slat_and_trim() {
    check("stonewall");
}

#[test]
fn which_percentiles_are_printed() {
    check("percentiles");
}
