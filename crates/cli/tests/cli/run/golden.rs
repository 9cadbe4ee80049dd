//! Golden reports: job files run under the fake clock (null engine, fixed seed) whose
//! output must equal the golden files byte for byte in every format (see
//! [`crate::support::golden`] for where they live and how to bless them), and the limits
//! of `percentile_list`.

use crate::support::golden;
use crate::support::report::json_doc;
use crate::support::run::{iomark_in, tempdir, text};
use serde_json::Value;

/// Runs `tests/golden/<case>.fio` in each output format and compares the output byte for
/// byte with `tests/golden/<case>.<format>` (or rewrites it under `IOMARK_BLESS=1`).
fn check_golden(case: &str) {
    check_golden_formats(
        case,
        &[("normal", "normal"), ("json", "json"), ("json,normal", "json_normal")],
    );
}

/// [`check_golden`] in the given `(--output-format, file suffix)` pairs.
fn check_golden_formats(case: &str, formats: &[(&str, &str)]) {
    let job = golden::job(case);
    let mut failures = Vec::new();
    for &(format, suffix) in formats {
        let dir = tempdir();
        let flag = format!("--output-format={format}");
        let out = iomark_in(dir.path(), &[&flag, &job], true);
        assert_eq!(out.status.code(), Some(0), "{case} {format}: {}", text(&out.stderr));
        assert!(out.stderr.is_empty(), "{case} {format}: stderr: {}", text(&out.stderr));
        if format.starts_with("json") && !format.contains("normal") {
            json_doc(&out, &format!("{case} {format}"));
        }
        if let Err(e) = golden::compare(&format!("{case}.{suffix}"), &out.stdout) {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn golden_single_read() {
    check_golden("single_read");
}

#[test]
fn golden_randrw_mix_70() {
    check_golden("randrw70");
}

#[test]
fn golden_numjobs_3_with_group_reporting() {
    check_golden("numjobs3_group");
}

#[test]
fn golden_two_groups_with_stonewall() {
    check_golden("two_groups");
}

#[test]
fn golden_bssplit() {
    check_golden("bssplit");
}

#[test]
fn golden_percentile_list() {
    check_golden("percentile_list");
}

#[test]
fn golden_lat_percentiles() {
    check_golden("lat_percentiles");
}

#[test]
fn golden_unified_rw_reporting_mixed() {
    check_golden("unified_mixed");
}

#[test]
fn golden_unified_rw_reporting_both() {
    check_golden("unified_both");
}

#[test]
fn golden_rate_limited() {
    check_golden("rate_limited");
}

#[test]
fn golden_units() {
    check_golden_formats("units", &[("normal", "normal")]);
}

/// fio 3.33 keeps the first 20 of more percentiles ("the list exceeding max length 20"),
/// stops the list at a value above 100 ("value out of range") or at a 0, and refuses a
/// negative one; iomark reads them as fio does, with a note (docs/job-files.md, Malformed
/// values), and refuses the negative one with exit code 2.
#[test]
fn percentile_list_limits() {
    let dir = tempdir();
    let run = |list: &str| {
        let flag = format!("--percentile_list={list}");
        let args = ["--output-format=json", "--name=p", "--ioengine=null", "--size=64k", &flag];
        iomark_in(dir.path(), &args, true)
    };
    let twenty: Vec<String> = (1..=20).map(|p| p.to_string()).collect();
    let out = run(&twenty.join(":"));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let pcts = &json_doc(&out, "20 percentiles")["jobs"][0]["read"]["clat_ns"]["percentile"];
    assert_eq!(pcts.as_object().map(|m| m.len()), Some(20));
    for (list, kept) in [
        (format!("{}:21", twenty.join(":")), 20),
        ("50:101".to_string(), 1),
        ("50:0:99".to_string(), 1),
    ] {
        let out = run(&list);
        assert_eq!(out.status.code(), Some(0), "{list}: {}", text(&out.stderr));
        let doc = json_doc(&out, &list);
        let pcts = &doc["jobs"][0]["read"]["clat_ns"]["percentile"];
        assert_eq!(pcts.as_object().map(|m| m.len()), Some(kept), "{list}");
        assert!(doc["iomark notes"].to_string().contains("'percentile_list'"), "{list}: {doc}");
    }
    let out = run("-1");
    assert_eq!(out.status.code(), Some(2), "-1");
    let err = text(&out.stderr);
    assert!(err.contains("job 'p'") && err.contains("'percentile_list'"), "{err}");
}

#[test]
fn golden_json_plus() {
    check_golden_formats("json_plus", &[("json", "json"), ("json+", "json_plus")]);
    // json+ is json with bins beside every percentile object, and nothing else.
    fn without_bins(v: &mut Value) -> usize {
        match v {
            Value::Object(map) => {
                let own = usize::from(map.remove("bins").is_some());
                own + map.values_mut().map(without_bins).sum::<usize>()
            }
            Value::Array(items) => items.iter_mut().map(without_bins).sum(),
            _ => 0,
        }
    }
    let read = |suffix: &str| -> Value {
        serde_json::from_slice(&golden::read(&format!("json_plus.{suffix}"))).expect("JSON")
    };
    let (mut plus, mut plain) = (read("json_plus"), read("json"));
    assert_eq!(without_bins(&mut plain), 0);
    let percentiles = read("json").to_string().matches("\"percentile\"").count();
    assert_eq!(without_bins(&mut plus), percentiles);
    assert_eq!(plus, plain);
}

/// fio prints one document, with the bins, when both json and json+ are asked.
#[test]
fn json_and_json_plus_print_one_json_plus_document() {
    let job = golden::job("json_plus");
    let dir = tempdir();
    let out = iomark_in(dir.path(), &["--output-format=json,json+", &job], true);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), text(&golden::read("json_plus.json_plus")));
}

#[test]
fn fake_clock_runs_are_byte_stable() {
    let job = golden::job("randrw70");
    let (a, b) = (tempdir(), tempdir());
    let first = iomark_in(a.path(), &["--output-format=json,normal", &job], true);
    let second = iomark_in(b.path(), &["--output-format=json,normal", &job], true);
    assert_eq!(first.status.code(), Some(0), "{}", text(&first.stderr));
    assert_eq!(text(&first.stdout), text(&second.stdout));
}
