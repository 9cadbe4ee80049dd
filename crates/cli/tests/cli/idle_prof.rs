//! `--idle-prof`: fio 3.33's `CPU idleness` section in the normal report and its
//! `cpu_idleness` object in JSON, with the same lines and keys as fio's (compared when fio
//! is installed) and shares between 0 and 100%; `calibrate` prints the unit of work alone
//! and runs no job. The figures themselves depend on the machine: none is asserted.

use crate::support::run::{command, iomark_ok, tempdir, text};
use crate::support::tools::fio_3_33_installed;
use serde_json::Value;

/// The job of every test here, and `--idle-prof=HOW` with `format`.
fn args(how: &str, format: &str) -> Vec<String> {
    [
        format!("--idle-prof={how}"),
        format!("--output-format={format}"),
        "--name=idle".into(),
        "--ioengine=null".into(),
        "--size=4m".into(),
    ]
    .to_vec()
}

/// The CPUs iomark and fio count (`getconf _NPROCESSORS_ONLN`).
fn cpus() -> usize {
    let out = command("getconf").arg("_NPROCESSORS_ONLN").output().expect("getconf");
    text(&out.stdout).trim().parse().expect("a CPU count")
}

/// A share in percent, `NN.NN%`, between 0 and 100.
fn share(s: &str) -> f64 {
    let v: f64 = s.strip_suffix('%').expect("a %").parse().expect("a number");
    assert!((0.0..=100.0).contains(&v), "{s}");
    v
}

/// The section's lines with their figures replaced by `N`, checking the shares' range.
fn section_shape(report: &str) -> Vec<String> {
    let at = report.find("\nCPU idleness:\n").expect("the CPU idleness section");
    let mut shape = Vec::new();
    for line in report[at + 1..].lines() {
        let shaped = match line.split_once(": ") {
            Some(("  system", s)) => {
                share(s);
                "  system: N%".to_string()
            }
            Some(("  percpu", list)) => {
                let n = list.split(", ").map(share).count();
                format!("  percpu: {n} shares")
            }
            Some(("  unit work", rest)) => {
                let (mean, stddev) = rest.split_once(", ").expect("mean, stddev");
                let mean = mean.strip_prefix("mean=").and_then(|m| m.strip_suffix("us"));
                assert!(mean.expect("mean=…us").parse::<f64>().unwrap() > 0.0, "{line}");
                let stddev = stddev.strip_prefix("stddev=").expect("stddev=");
                assert!(stddev.parse::<f64>().unwrap() >= 0.0, "{line}");
                "  unit work: mean=Nus, stddev=N".to_string()
            }
            _ => line.to_string(),
        };
        shape.push(shaped);
    }
    shape
}

/// The keys of the JSON document's `cpu_idleness`, checking the shares' range.
fn json_keys(doc: &Value) -> Vec<String> {
    let idle = doc["cpu_idleness"].as_object().expect("cpu_idleness");
    for (key, v) in idle {
        let v = v.as_f64().expect("a number");
        if key == "system" || key.starts_with("cpu-") {
            assert!((0.0..=100.0).contains(&v), "{key}: {v}");
        } else {
            assert!(v >= 0.0, "{key}: {v}");
        }
    }
    idle.keys().cloned().collect()
}

fn iomark(args: &[String]) -> String {
    let dir = tempdir();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    text(&iomark_ok(dir.path(), &args, false).stdout)
}

fn fio(args: &[String]) -> Option<String> {
    if !fio_3_33_installed() {
        eprintln!("skipped: the comparison with fio 3.33 (not installed)");
        return None;
    }
    let dir = tempdir();
    let out = command("fio").current_dir(dir.path()).args(args).output().expect("run fio");
    Some(text(&out.stdout))
}

#[test]
fn percpu_shows_every_cpu_in_the_text_and_the_json_as_fio() {
    let n = cpus();
    let shape = section_shape(&iomark(&args("percpu", "normal")));
    let expected = [
        "CPU idleness:".to_string(),
        "  system: N%".into(),
        format!("  percpu: {n} shares"),
        "  unit work: mean=Nus, stddev=N".into(),
    ];
    assert_eq!(shape, expected);
    let doc: Value = serde_json::from_str(&iomark(&args("percpu", "json"))).expect("JSON");
    let mut keys = vec!["system".to_string()];
    keys.extend((0..n).map(|c| format!("cpu-{c}")));
    keys.extend(["unit_mean".into(), "unit_stddev".into()]);
    assert_eq!(json_keys(&doc), keys);
    if let Some(fio_text) = fio(&args("percpu", "normal")) {
        assert_eq!(section_shape(&fio_text), expected, "fio: {fio_text}");
        let fio_json: Value = serde_json::from_str(&fio(&args("percpu", "json")).unwrap()).unwrap();
        assert_eq!(fio_json["cpu_idleness"].as_object().unwrap().keys().len(), keys.len());
    }
}

#[test]
fn system_shows_the_system_alone() {
    let shape = section_shape(&iomark(&args("system", "normal")));
    let expected = ["CPU idleness:", "  system: N%", "  unit work: mean=Nus, stddev=N"];
    assert_eq!(shape, expected);
    let doc: Value = serde_json::from_str(&iomark(&args("system", "json"))).expect("JSON");
    assert_eq!(json_keys(&doc), ["system", "unit_mean", "unit_stddev"]);
    if let Some(fio_json) = fio(&args("system", "json")) {
        let fio_doc: Value = serde_json::from_str(&fio_json).unwrap();
        assert_eq!(json_keys(&fio_doc), ["system", "unit_mean", "unit_stddev"]);
    }
}

/// `calibrate`: the unit of work alone, as text even with JSON asked, and no job runs.
#[test]
fn calibrate_prints_the_unit_and_runs_nothing() {
    let dir = tempdir();
    let args = args("calibrate", "json");
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = text(&iomark_ok(dir.path(), &argv, false).stdout);
    let shape = section_shape(&format!("\n{out}"));
    assert_eq!(shape, ["CPU idleness:", "  unit work: mean=Nus, stddev=N"]);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "a job ran");
    if let Some(fio_out) = fio(&args) {
        assert_eq!(section_shape(&format!("\n{fio_out}")), shape);
    }
}
