//! Golden tests against real fio 3.33 output.
//!
//! Each fixture under `tests/fixtures/` is one fio run (`generate.sh` made them): the job
//! file `<case>.fio` and fio's standard output `<case>.out` from
//! `fio <case>.fio --output-format=normal,json` (`normal,json+` for the `jsonplus` cases, whose
//! JSON is compared with our json+ printer). fio prints the job header lines, `fio-3.33`,
//! `Starting N processes`, the JSON document, an empty line, then the normal report.
//!
//! The test turns fio's JSON into a `RunReport` (`golden/convert.rs`), prints it with our printers
//! and compares:
//! - the JSON byte for byte, except the documented differences: `"fio version"` names
//!   iomark and the fio release, and `"iomark version"` follows it;
//! - the normal report byte for byte;
//! - each job's header line with fio's.
//!
//! What fio's JSON cannot carry comes from elsewhere, and is therefore not proven by the
//! comparison: the pid and the number of jobs behind a `group_reporting` entry are read from
//! fio's normal report (`name: (groupid=0, jobs=3): err= 0: pid=28001: …`); the resolved
//! block sizes, engine and depth of the header line come from the job options (with fio's
//! defaults); the `Run status group` totals are summed from the jobs the way fio sums them
//! (fio's JSON has no group totals); the job line's date is the JSON `"time"` (fio stamps
//! both at the same moment).

#[path = "golden/convert.rs"]
mod convert;

use std::path::PathBuf;

use iomark_report::{job_header_line, json, json_plus, normal};

struct Fixture {
    /// The lines fio printed before the run, one per job section.
    headers: Vec<String>,
    /// fio's JSON document.
    json: String,
    /// fio's normal report.
    normal: String,
}

fn load(case: &str) -> Fixture {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(format!("{case}.out"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let json_start = text.find("\n{\n").map(|i| i + 1).expect("JSON start");
    let json_end = text[json_start..].find("\n}\n").expect("JSON end") + json_start + 3;
    let headers = text[..json_start]
        .lines()
        .take_while(|line| !line.starts_with("fio-"))
        .filter(|line| *line != "...")
        .map(str::to_owned)
        .collect();
    let normal =
        text[json_end..].strip_prefix('\n').expect("an empty line between JSON and normal output");
    Fixture { headers, json: text[json_start..json_end].to_owned(), normal: normal.to_owned() }
}

/// Compares line by line first, so that a failure names the first line that differs.
fn assert_same(what: &str, ours: &str, fios: &str) {
    for (i, (a, b)) in ours.lines().zip(fios.lines()).enumerate() {
        assert_eq!(a, b, "{what}: line {} differs", i + 1);
    }
    assert_eq!(ours.lines().count(), fios.lines().count(), "{what}: line counts differ");
    assert_eq!(ours, fios, "{what}: whitespace differs");
}

/// fio's JSON with iomark's two documented differences applied.
fn expected_json(fios: &str) -> String {
    let fio_line = "  \"fio version\" : \"fio-3.33\",\n";
    assert!(fios.contains(fio_line));
    fios.replacen(
        fio_line,
        "  \"fio version\" : \"iomark-0.1.0 (fio-3.33)\",\n  \"iomark version\" : \"0.1.0\",\n",
        1,
    )
}

fn check(case: &str) {
    check_with(case, |fios| fios.to_owned());
}

/// [`check`], with fio's normal report amended by `fix` where iomark differs on purpose.
fn check_with(case: &str, fix: impl Fn(&str) -> String) {
    let fixture = load(case);
    let (report, opts) = convert::report_from_fio(&fixture.json, &fixture.normal);
    let printer = if case.starts_with("jsonplus") { json_plus } else { json };
    assert_same(&format!("{case} json"), &printer(&report), &expected_json(&fixture.json));
    assert_same(&format!("{case} normal"), &normal(&report, &opts), &fix(&fixture.normal));
    let headers: Vec<String> = report.jobs.iter().map(|job| job_header_line(job, &opts)).collect();
    assert_eq!(headers, fixture.headers, "{case} header lines");
}

#[test]
fn latency_per_io_priority() {
    check("cmdprio");
}

#[test]
fn errors_a_job_went_on_past() {
    check("errors");
}

#[test]
fn one_randrw_job_with_disk_stats() {
    check("randrw");
}

#[test]
fn two_jobs_with_globals_description_fsync_and_percentile_list() {
    check("multi_job");
}

#[test]
fn group_reporting_with_bandwidth_samples() {
    check("group_reporting");
}

#[test]
fn two_groups_with_stonewall_slat_and_trim() {
    check("stonewall");
}

#[test]
fn kb_base_1000_and_five_significant_figures() {
    check("kb_base");
}

#[test]
fn unit_base_1_shows_bits() {
    check("unit_base");
}

#[test]
fn json_plus_bins_for_clat_lat_slat_and_sync() {
    check("jsonplus");
}

#[test]
fn steadystate_attained_and_not() {
    check("steadystate");
}

#[test]
fn latency_target_depth_window_and_percentile() {
    check("latency_target");
}

#[test]
fn unified_rw_reporting_mixed() {
    check("unified_mixed");
}

/// fio 3.33 prints `mixed: IOPS=0, BW=0 (0)(0B/…)` under `both`, though its JSON has the
/// figures; iomark prints them.
#[test]
fn unified_rw_reporting_both() {
    check_with("unified_both", |fios| {
        fios.replace(
            "  mixed: IOPS=0, BW=0 (0)(0B/1101msec)",
            "  mixed: IOPS=7673, BW=30.0MiB/s (31.4MB/s)(33.0MiB/1101msec)",
        )
        .replace(
            "  mixed: IOPS=0, BW=0 (0)(0B/1100msec)",
            "  mixed: IOPS=2560, BW=10.0MiB/s (10.5MB/s)(11.0MiB/1100msec)",
        )
    });
}

#[test]
fn significant_figures_2() {
    check("sig_figs");
}

/// Under `kb_base=1000` fio labels the bandwidth samples `kB/s`, though they are in KiB/s.
#[test]
fn kb_base_1000_bits_and_six_significant_figures() {
    check("kb_base_bits");
}
