//! `--profile=act` (the Aerospike Certification Tool's load): the jobs it makes of its
//! options, the I/Os they do, its preparation, and the latency table and verdict printed
//! before the reports, against fio 3.33 where it is installed. Latencies are made exact by
//! the fake clock: every I/O takes one step of it.

use crate::support::report::{count, json_doc, report_json};
use crate::support::run::{command, run_in, tempdir, text, IOMARK};
use crate::support::tools::{direct_io_works, engine_available, fio_3_33_installed};
use serde_json::{json, Value};
use std::path::Path;
use std::process::Output;

/// Runs iomark's act in `dir` on a 4 MiB file `dev` there, with `args`, under a fake clock
/// of `step_ns` nanoseconds (each I/O takes one step).
fn act(dir: &Path, step_ns: &str, args: &[&str]) -> Output {
    let dev = device(dir);
    let out = command(IOMARK)
        .current_dir(dir)
        .env("IOMARK_FAKE_CLOCK_NS", step_ns)
        .arg("--profile=act")
        .arg(format!("--device-names={dev}"))
        .args(args)
        .output()
        .expect("run iomark");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
    out
}

/// The 4 MiB file `dev` in `dir` that the runs use as their device, made on first use; its
/// name is relative, as fio 3.33 aborts (a buffer overflow) on a long device name.
fn device(dir: &Path) -> String {
    let path = dir.join("dev");
    if !path.exists() {
        std::fs::write(&path, vec![0u8; 4 << 20]).expect("write the device file");
    }
    "dev".to_string()
}

/// The report's global options and each job's name, group, options and I/O counts (only
/// when `counts`).
fn shape(report: &Value, counts: bool) -> Vec<String> {
    let mut rows = vec![format!("global {}", report["global options"])];
    for job in report["jobs"].as_array().expect("jobs") {
        let mut row = format!("{} g={} {}", job["jobname"], job["groupid"], job["job options"]);
        if counts {
            let (reads, writes) =
                (count(job, "read", "total_ios"), count(job, "write", "total_ios"));
            row += &format!(" read={reads} write={writes}");
        }
        rows.push(row);
    }
    rows
}

#[test]
fn act_runs_fios_jobs_at_fios_rates() {
    let dir = tempdir();
    let dev = device(dir.path());
    let out = act(dir.path(), "1000", &["--test-duration=1", "--output-format=json"]);
    let report = json_doc(&out, "act in JSON");
    let global = r#"{"device-names":"dev","test-duration":"1","direct":"1","ioengine":"sync","random_generator":"lfsr","group_reporting":"1","runtime":"1s","time_based":"1"}"#;
    // The group's first job's options (fio 3.33: its last job's, docs/running.md).
    let read = r#"{"name":"act-read-dev","filename":"dev","rw":"randread","numjobs":"8","rate_iops":"250","bs":"1536"}"#;
    // Eight readers at 250 reads a second, one writer at 12 large blocks, for a second.
    assert_eq!(
        shape(&report, true),
        [format!("global {global}"), format!(r#""act-read-dev" g=0 {read} read=2000 write=12"#)]
    );
    let table = json!({"slices": [{"slice": 1, "ios": 2012, "over_ms_pct": {"1": 0.0, "8": 0.0, "64": 0.0}}], "result": "PASSED"});
    assert_eq!(report["act"], table);
    if fio_3_33_installed() && direct_io_works() {
        let args = [
            "--profile=act".to_string(),
            format!("--device-names={dev}"),
            "--test-duration=1".into(),
            "--output-format=json".into(),
        ];
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let fio = run_in(dir.path(), "fio", &args);
        assert_eq!(fio.status.code(), Some(0), "fio: {}", text(&fio.stderr));
        let fio = report_json("fio", &fio);
        let write = r#"{"name":"act-write-dev","filename":"dev","rw":"randwrite","rate_iops":"12","bs":"131072"}"#;
        let ours = shape(&report, false).join("\n").replace(read, write);
        assert_eq!(ours, shape(&fio, false).join("\n"));
    }
}

/// The lines from the table's head to the verdict, with every figure written `N`.
fn table_skeleton(stdout: &str) -> Vec<String> {
    let lines: Vec<&str> = stdout.lines().collect();
    let start = lines.iter().position(|l| l.trim_start().starts_with("trans")).expect("table");
    let end = lines.iter().position(|l| l.starts_with("act: test complete")).expect("verdict");
    let figures = |l: &str| {
        let mut out = String::new();
        for c in l.chars() {
            match (c.is_ascii_digit(), out.ends_with('N')) {
                (true, true) => {}
                (true, false) => out.push('N'),
                (false, _) => out.push(c),
            }
        }
        out
    };
    // The header's bounds stay as they are; the rows' figures and the verdict's word go.
    let mut skeleton: Vec<String> = lines[start..start + 4].iter().map(|l| l.to_string()).collect();
    skeleton.extend(lines[start + 4..end].iter().map(|l| figures(l).replace("N.N", "F")));
    skeleton.push(lines[end].trim_end_matches("PASSED").trim_end_matches("FAILED").into());
    skeleton.push(lines.get(end + 1).unwrap_or(&"(end)").to_string());
    skeleton
}

#[test]
fn act_prints_its_table_and_verdict_before_the_report_as_fio_does() {
    let dir = tempdir();
    // Every I/O takes 3 ms: all of them fall between 1 and 8 ms, and the device fails.
    let out = act(dir.path(), "3000000", &["--test-duration=1"]);
    let stdout = text(&out.stdout);
    let want = "        trans                   device\n        %>(ms)                  %>(ms)\n \
                slice\t  1\t  8\t 64\t  1\t  8\t 64\n \
                -----  -----   -----  ------   -----   -----  ------\n    \
                1\t100.00\t0.00\t0.00\t100.00\t0.00\t0.00\n\nact: test complete, device(s): FAILED\n\n";
    let starting = "Starting 9 threads\n";
    assert!(stdout.contains(&format!("{starting}{want}act-read-")), "{stdout}");
    // fio's text formats all carry it; JSON alone holds it in the document.
    let terse = text(&act(dir.path(), "3000000", &["--test-duration=1", "--minimal"]).stdout);
    assert!(terse.starts_with(want.trim_end_matches('\n')), "{terse}");
    if !fio_3_33_installed() || !direct_io_works() {
        return;
    }
    let dev = device(dir.path());
    let fio = run_in(
        dir.path(),
        "fio",
        &["--profile=act", &format!("--device-names={dev}"), "--test-duration=1"],
    );
    assert_eq!(fio.status.code(), Some(0), "fio: {}", text(&fio.stderr));
    let fio = text(&fio.stdout);
    assert_eq!(table_skeleton(&stdout), table_skeleton(&fio), "fio:\n{fio}");
    assert!(fio.contains(starting), "{fio}");
}

#[test]
fn act_prep_zeroes_then_salts_each_device_as_fio_does() {
    let aio = iomark_engine::EngineOptions::default();
    if !direct_io_works() || !engine_available("libaio", &aio) {
        eprintln!("skipped: O_DIRECT or libaio does not work in a temporary directory here");
        return;
    }
    let dir = tempdir();
    let dev = device(dir.path());
    let out = act(dir.path(), "1000", &["--prep", "--test-duration=1", "--output-format=json"]);
    let report = json_doc(&out, "act --prep in JSON");
    let ours = shape(&report, true);
    // The whole device in 1 MiB of zeroes, then in 4 KiB random writes, one group each.
    assert_eq!(ours.len(), 3, "{ours:?}");
    assert!(ours[1].starts_with(r#""act-prep-zeroes-dev" g=0"#) && ours[1].ends_with("write=4"));
    assert!(ours[2].starts_with(r#""act-prep-salt-dev" g=1"#) && ours[2].ends_with("write=1024"));
    let zeros = json!({"slices": [{"slice": 1, "ios": 0, "over_ms_pct": {"1": 0.0, "8": 0.0, "64": 0.0}}], "result": "PASSED"});
    assert_eq!(report["act"], zeros);
    if fio_3_33_installed() {
        // A test-duration, which the preparation does not use: without one, fio 3.33 spins
        // a minute after the jobs.
        let fio = run_in(
            dir.path(),
            "fio",
            &[
                "--profile=act",
                "--prep",
                &format!("--device-names={dev}"),
                "--test-duration=1",
                "--output-format=json",
            ],
        );
        assert_eq!(fio.status.code(), Some(0), "fio: {}", text(&fio.stderr));
        assert_eq!(ours, shape(&report_json("fio", &fio), true));
    }
}

/// The lines from the table's head to the verdict.
fn table(stdout: &str) -> String {
    let start = stdout.find("        trans").expect("table");
    let end = stdout.find("act: test complete").expect("verdict");
    stdout[start..stdout[end..].find('\n').map_or(stdout.len(), |i| end + i + 1)].to_string()
}

#[test]
fn act_tables_have_a_row_per_hour_of_test_duration_reached_or_not() {
    let aio = iomark_engine::EngineOptions::default();
    if !direct_io_works() || !engine_available("libaio", &aio) {
        eprintln!("skipped: O_DIRECT or libaio does not work in a temporary directory here");
        return;
    }
    let dir = tempdir();
    let dev = device(dir.path());
    // The preparation runs for seconds whatever test-duration says: its rows are all zeros.
    for (duration, rows) in [("0", 0), ("3601", 2), ("7201", 3)] {
        let duration = format!("--test-duration={duration}");
        let ours = table(&text(&act(dir.path(), "1000", &["--prep", &duration]).stdout));
        let zeros = "\t0.00".repeat(6);
        let want: String = (1..=rows).map(|r| format!("{r:>5}{zeros}\n")).collect();
        assert!(
            ours.contains(&format!("------\n{want}\nact: test complete, device(s): PASSED")),
            "{ours}"
        );
        if fio_3_33_installed() {
            let fio = run_in(
                dir.path(),
                "fio",
                &["--profile=act", "--prep", &format!("--device-names={dev}"), &duration],
            );
            assert_eq!(fio.status.code(), Some(0), "fio: {}", text(&fio.stderr));
            assert_eq!(ours, table(&text(&fio.stdout)), "{duration}");
        }
    }
}

#[test]
fn act_refuses_what_fio_dies_of_naming_the_option() {
    let dir = tempdir();
    let dev = format!("--device-names={}", device(dir.path()));
    let cases: &[(&[&str], &str)] = &[
        (&["--profile=act"], "device-names"),
        (&["--profile=act", &dev, "--threads-per-queue=0"], "threads-per-queue"),
        (&["--profile=act", &dev, "--read-req-num-512-blocks=0"], "read-req-num-512-blocks"),
        (&["--profile=act", &dev, "--large-block-op-kbytes=1024"], "large-block-op-kbytes"),
        (&["--profile=act", &dev, "--test-duration=1x"], "test-duration"),
    ];
    for (args, option) in cases {
        let out = command(IOMARK).current_dir(dir.path()).args(*args).output().expect("iomark");
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", text(&out.stdout));
        assert!(text(&out.stderr).contains(option), "{args:?}: {}", text(&out.stderr));
    }
}
