//! fio's built-in profiles (`--profile=tiobench`): the jobs a profile stands for, its own
//! options, and its `--cmdhelp`, against fio 3.33 where it is installed.

use crate::support::report::{count, report_json};
use crate::support::run::{command, iomark_in, iomark_ok, run_in, tempdir, text, IOMARK};
use crate::support::tools::fio_3_33_installed;
use serde_json::Value;
use std::path::Path;
use std::process::Output;

/// The jobs' names, groups, echoed options and counts: what must match fio's.
fn shape(report: &Value) -> Vec<String> {
    let mut rows = vec![format!("global {}", report["global options"])];
    for job in report["jobs"].as_array().expect("jobs") {
        rows.push(format!(
            "{} g={} {} read={}/{} write={}/{}",
            job["jobname"],
            job["groupid"],
            job["job options"],
            count(job, "read", "total_ios"),
            count(job, "read", "io_bytes"),
            count(job, "write", "total_ios"),
            count(job, "write", "io_bytes"),
        ));
    }
    rows
}

/// Runs iomark's tiobench in `dir` under the fake clock, with `args` after the profile, on
/// a machine of 4 MiB: 4 × 4 × 1024 = 16 KiB over four files, one 4 KiB block each.
fn small_tiobench(dir: &Path, args: &[&str]) -> Output {
    let out = command(IOMARK)
        .current_dir(dir)
        .env("IOMARK_FAKE_CLOCK_NS", "1000")
        .env("IOMARK_MB_MEMORY", "4")
        .arg("--profile=tiobench")
        .args(args)
        .output()
        .expect("run iomark");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    out
}

fn tio_files(dir: &Path) -> Vec<(String, u64)> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("read dir")
        .map(|e| e.expect("entry"))
        .filter(|e| e.file_name().to_string_lossy().starts_with(".fio.tio."))
        .map(|e| (e.file_name().to_string_lossy().into_owned(), e.metadata().expect("meta").len()))
        .collect();
    files.sort();
    files
}

#[test]
fn tiobench_runs_four_groups_over_four_files_sized_from_memory() {
    let dir = tempdir();
    let out = small_tiobench(dir.path(), &["--block=8192", "--numruns=2x", "--output-format=json"]);
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
    let report = report_json("iomark", &out);
    let global = r#"{"buffered":"0","size":"16384","bs":"4096","loops":"1","directory":"./","numjobs":"1","runtime":"600","overwrite":"1","filename":".fio.tio.1:.fio.tio.2:.fio.tio.3:.fio.tio.4","ioengine":"sync"}"#;
    let want = [
        format!("global {global}"),
        r#""seqwrite" g=0 {"name":"seqwrite","rw":"write","end_fsync":"1"} read=0/0 write=4/16384"#.into(),
        r#""randwrite" g=1 {"name":"randwrite","rw":"randwrite","end_fsync":"1"} read=0/0 write=4/16384"#.into(),
        r#""seqread" g=2 {"name":"seqread","rw":"read"} read=4/16384 write=0/0"#.into(),
        r#""randread" g=3 {"name":"randread","rw":"randread"} read=4/16384 write=0/0"#.into(),
    ];
    assert_eq!(shape(&report), want);
    let files = tio_files(dir.path());
    let want: Vec<_> = (1..=4).map(|i| (format!(".fio.tio.{i}"), 4096)).collect();
    assert_eq!(files, want);
}

#[test]
fn tiobench_prints_no_version_line_and_starts_threads() {
    let dir = tempdir();
    let out = small_tiobench(dir.path(), &[]);
    let stdout = text(&out.stdout);
    let head: Vec<_> = stdout.lines().take(5).collect();
    assert!(head[0].starts_with("seqwrite: (g=0): rw=write, bs=(R) 4096B-4096B"), "{stdout}");
    assert!(head[3].starts_with("randread: (g=3): rw=randread"), "{stdout}");
    assert_eq!(head[4], "Starting 4 threads", "{stdout}");
}

#[test]
fn tiobench_matches_fio() {
    if !fio_3_33_installed() {
        return;
    }
    let mb = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|m| {
            let kb = m.lines().find_map(|l| l.strip_prefix("MemTotal:"))?;
            kb.trim().trim_end_matches("kB").trim().parse::<u64>().ok()
        })
        .unwrap_or(u64::MAX)
        / 1024;
    // fio 3.33's files total 4 KiB per MiB of memory, and its options cannot shrink them.
    if mb > 64 * 1024 {
        eprintln!("skipped: tiobench would write {} MiB on this machine", mb * 4 / 1024);
        return;
    }
    let mut shapes = Vec::new();
    for program in ["fio", IOMARK] {
        let dir = tempdir();
        let out = run_in(dir.path(), program, &["--profile=tiobench", "--output-format=json"]);
        assert_eq!(out.status.code(), Some(0), "{program}: {}", text(&out.stderr));
        shapes.push(shape(&report_json(program, &out)));
    }
    assert_eq!(shapes[0], shapes[1]);
}

#[test]
fn profile_options_are_parsed_as_fio_parses_them() {
    let dir = tempdir();
    let ok = ["--block=8192", "--numruns=2x", "--threads=4", "--dir=/nowhere", "--size=12"];
    for arg in ok {
        iomark_ok(dir.path(), &["--profile=tiobench", arg, "--parse-only"], false);
    }
    // Given before the profile too, as fio reads them.
    iomark_ok(dir.path(), &["--block=8", "--profile=tiobench", "--parse-only"], false);
    let bad: &[&[&str]] = &[
        &["--profile=tiobench", "--block=abc"],
        &["--profile=tiobench", "--threads=x"],
        &["--profile=tiobench", "--dir="],
        &["--profile=tiobench", "--load=2"],
        &["--profile=nothing"],
        &["--block=8"],
        &["--name=j", "--profile=tiobench"],
    ];
    for args in bad {
        let args: Vec<_> = args.iter().copied().chain(["--parse-only"]).collect();
        let out = iomark_in(dir.path(), &args, false);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", text(&out.stdout));
        assert!(!out.stderr.is_empty(), "{args:?}");
    }
}

#[test]
fn profile_cmdhelp_is_fios() {
    let cases: &[&[&str]] = &[
        &["--profile=tiobench", "--cmdhelp"],
        &["--profile=act", "--cmdhelp"],
        &["--profile=tiobench", "--cmdhelp=block"],
        &["--profile=act", "--cmdhelp=test-duration"],
        &["--profile=act", "--cmdhelp=prep"],
    ];
    let dir = tempdir();
    for args in cases {
        let ours = iomark_ok(dir.path(), args, false);
        let ours = text(&ours.stdout);
        assert!(ours.contains(": "), "{args:?}: {ours}");
        if fio_3_33_installed() {
            let fio = text(&run_in(dir.path(), "fio", args).stdout);
            assert_eq!(ours, fio, "{args:?}");
        }
    }
}

#[test]
fn profile_in_a_job_file_runs_the_job_as_written() {
    let dir = tempdir();
    let job = "[global]\nprofile=tiobench\n[j]\nioengine=null\nsize=1m\nrw=read\n";
    let path = crate::support::run::write_job(dir.path(), job);
    let path = path.to_str().expect("path");
    let out = iomark_ok(dir.path(), &[path, "--output-format=json"], true);
    let report = report_json(IOMARK, &out);
    assert_eq!(report["global options"]["profile"], "tiobench");
    assert_eq!(count(&report["jobs"][0], "read", "total_ios"), 256);
    assert!(tio_files(dir.path()).is_empty());
}
