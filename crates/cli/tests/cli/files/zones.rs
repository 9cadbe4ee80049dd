//! Files and zones against fio 3.33: corpus files of `tests/jobs/good` run under fio and
//! iomark in a temporary directory, each job writing its `write_iolog` there. The I/O
//! counts and bytes per direction must agree, and, job by job, what the iologs show:
//! the whole sequence of I/Os (file, direction, offset, length) where fio's choices are
//! deterministic, the zone of every I/O for random offsets in strided zones, the I/Os per
//! file where only files are drawn at random.
//!
//! Without `fio` on the `PATH` the comparisons print `skipped: fio not installed` and pass.

use crate::support::corpus::good;
use crate::support::iolog::{data_ios, Io};
use crate::support::report::{count, report_json};
use crate::support::run::{run_in, tempdir, text, IOMARK};
use crate::support::tools::fio_installed;
use serde_json::Value;
use std::collections::BTreeMap;

/// What is compared of one job, besides its counts.
#[derive(Debug, Clone, Copy)]
enum Check {
    /// Every I/O, in order.
    Sequence,
    /// Every I/O's file, direction and zone, in order: the zone is `(offset - base) /
    /// stride`.
    Zones { base: u64, stride: u64 },
    /// The number of I/Os per file.
    PerFile,
    /// The counts only.
    Counts,
    /// Not the counts: in each run, the job's files have sizes in `lo..=hi`, multiples of
    /// `align`, and the job wrote them whole.
    FileSizes { lo: u64, hi: u64, align: u64 },
    /// Not the counts: in each run, the job was stopped before doing its `size` of 1 TiB.
    Stopped,
    /// Not the counts: in each run, the job ended with this error (an errno).
    Error(u64),
}

/// The corpus files of this test and what is compared for each of their jobs.
const CASES: &[(&str, &[(&str, Check)])] = &[
    (
        "zones_strided.fio",
        &[
            ("seq-skip", Check::Sequence),
            ("seq-twice", Check::Sequence),
            ("seq-cut", Check::Sequence),
            ("seq-unaligned", Check::Sequence),
            ("two-files", Check::Sequence),
            ("offset-loops", Check::Sequence),
            ("random", Check::Zones { base: 0, stride: 32 * 1024 }),
        ],
    ),
    (
        "file_service.fio",
        &[
            ("roundrobin", Check::Sequence),
            ("roundrobin-3", Check::Sequence),
            ("sequential", Check::Sequence),
            ("random", Check::PerFile),
            ("random-4", Check::PerFile),
            // The files drawn are iomark's own; the shares are checked in the workload
            // crate (files.rs).
            ("zipf", Check::Counts),
            ("pareto", Check::Counts),
            ("gauss", Check::Counts),
            ("openfiles-2", Check::Sequence),
            ("openfiles-3-rr2", Check::Sequence),
            ("openfiles-random", Check::PerFile),
        ],
    ),
    (
        "file_create.fio",
        &[
            ("filesize-cap", Check::Sequence),
            ("filesize-range", Check::FileSizes { lo: 64 << 10, hi: 256 << 10, align: 4096 }),
            ("create-only", Check::Sequence),
            ("parallel-layout", Check::Sequence),
            ("on-open", Check::Sequence),
        ],
    ),
    (
        "lockfile.fio",
        &[
            ("writer", Check::Sequence),
            ("reader", Check::Sequence),
            ("random-reader", Check::Counts),
            ("exclusive-writer", Check::Counts),
            ("exclusive-reader", Check::Sequence),
            ("async-two-files", Check::Sequence),
            ("async-two-files-too", Check::Sequence),
        ],
    ),
    ("pre_read.fio", &[("pre-read", Check::Counts)]),
    (
        "exitall_group.fio",
        &[
            ("first", Check::Counts),
            ("long", Check::Stopped),
            ("other-group", Check::Counts),
            ("next-wave", Check::Counts),
        ],
    ),
    (
        "exitall_stonewall.fio",
        &[
            ("first", Check::Counts),
            ("long", Check::Stopped),
            ("other-group", Check::Stopped),
            ("next-wave", Check::Counts),
        ],
    ),
    (
        "exitall_all.fio",
        &[
            ("first", Check::Counts),
            ("long", Check::Stopped),
            ("other-group", Check::Stopped),
            ("next-wave", Check::Counts),
        ],
    ),
    (
        "exitall_on_error.fio",
        &[("fails", Check::Error(28)), ("long", Check::Stopped), ("other-group", Check::Counts)],
    ),
];

/// What one run gave: the JSON report and each job's iolog.
struct Run {
    json: Value,
    iologs: BTreeMap<String, Vec<Io>>,
    /// The size of every other file the run left in its directory.
    files: BTreeMap<String, u64>,
}

/// `text` with `write_iolog=NAME.iolog` after the section header of each job of `logged`.
/// Only jobs whose check reads the iolog write one: a job stopped by another can run
/// millions of I/Os first (a loaded machine delays the job that stops it), which would
/// make a log of gigabytes.
fn with_iologs(text: &str, logged: &[&str]) -> String {
    let mut out = String::new();
    for line in text.lines() {
        out.push_str(line);
        out.push('\n');
        let t = line.trim();
        if let Some(name) = t.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
            if logged.contains(&name) {
                out.push_str(&format!("write_iolog={name}.iolog\n"));
            }
        }
    }
    out
}

/// Runs fio or iomark on the corpus file `name` (with iologs), in a fresh temporary
/// directory; `expect` is the exit code wanted, `logged` the jobs that write an iolog.
fn run(program: &str, name: &str, expect: i32, logged: &[&str]) -> Run {
    let dir = tempdir();
    let source = std::fs::read_to_string(good(name)).expect("corpus file");
    std::fs::write(dir.path().join(name), with_iologs(&source, logged)).expect("the job file");
    let out = run_in(dir.path(), program, &["--output-format=json", name]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(expect), "{name}: {program}: {stderr}");
    let json = report_json(program, &out);
    let (mut iologs, mut files) = (BTreeMap::new(), BTreeMap::new());
    for entry in std::fs::read_dir(dir.path()).expect("read the directory").flatten() {
        let file = entry.file_name().to_string_lossy().into_owned();
        if let Some(job) = file.strip_suffix(".iolog") {
            let text = std::fs::read_to_string(entry.path()).expect("read an iolog");
            iologs.insert(job.to_string(), data_ios(&text));
        } else {
            files.insert(file, entry.metadata().map_or(0, |m| m.len()));
        }
    }
    Run { json, iologs, files }
}

/// The report of job `name`.
fn job<'a>(run: &'a Run, name: &str) -> &'a Value {
    let jobs = run.json["jobs"].as_array().expect("jobs");
    jobs.iter().find(|j| j["jobname"] == name).unwrap_or_else(|| panic!("no job {name}"))
}

/// The differences between fio's and iomark's runs for one job.
fn differences(file: &str, name: &str, check: Check, fio: &Run, ours: &Run) -> Vec<String> {
    let mut diffs = Vec::new();
    if let Check::FileSizes { lo, hi, align } = check {
        for (tool, run) in [("fio", fio), ("iomark", ours)] {
            let prefix = format!("{name}.");
            let sizes: Vec<u64> =
                run.files.iter().filter(|(f, _)| f.starts_with(&prefix)).map(|(_, &n)| n).collect();
            let bad = sizes.iter().any(|&n| !(lo..=hi).contains(&n) || n % align != 0);
            let written = count(job(run, name), "write", "io_bytes");
            if sizes.is_empty() || bad || written != sizes.iter().sum::<u64>() {
                diffs.push(format!("{file} [{name}] {tool}: sizes {sizes:?}, wrote {written}"));
            }
        }
        return diffs;
    }
    if let Check::Stopped | Check::Error(_) = check {
        for (tool, run) in [("fio", fio), ("iomark", ours)] {
            let j = job(run, name);
            let bytes: u64 =
                ["read", "write", "trim"].iter().map(|d| count(j, d, "io_bytes")).sum();
            let error = j["error"].as_u64().unwrap_or(0);
            let ok = match check {
                Check::Error(e) => error == e,
                _ => bytes < 1 << 40 && error == 0,
            };
            if !ok {
                diffs.push(format!("{file} [{name}] {tool}: {bytes} bytes, error {error}"));
            }
        }
        return diffs;
    }
    let (f, o) = (job(fio, name), job(ours, name));
    for dir in ["read", "write", "trim"] {
        for field in ["total_ios", "io_bytes"] {
            let (a, b) = (count(f, dir, field), count(o, dir, field));
            if a != b {
                diffs.push(format!("{file} [{name}] {dir} {field}: fio {a}, iomark {b}"));
            }
        }
    }
    let empty = Vec::new();
    let (fl, ol) =
        (fio.iologs.get(name).unwrap_or(&empty), ours.iologs.get(name).unwrap_or(&empty));
    let same = match check {
        Check::Counts | Check::FileSizes { .. } | Check::Stopped | Check::Error(_) => true,
        Check::Sequence => fl == ol,
        Check::Zones { base, stride } => {
            let zones = |l: &[Io]| -> Vec<(String, String, u64)> {
                l.iter()
                    .map(|io| (io.file.clone(), io.action.clone(), (io.offset - base) / stride))
                    .collect()
            };
            zones(fl) == zones(ol)
        }
        Check::PerFile => {
            let per_file = |l: &[Io]| {
                let mut m = BTreeMap::new();
                for io in l {
                    *m.entry(io.file.clone()).or_insert(0u64) += 1;
                }
                m
            };
            per_file(fl) == per_file(ol)
        }
    };
    if !same {
        let show = |l: &[Io]| -> String {
            let items: Vec<String> = l
                .iter()
                .take(40)
                .map(|io| format!("{}:{}:{}+{}", io.file, &io.action[..1], io.offset, io.len))
                .collect();
            items.join(" ")
        };
        diffs.push(format!(
            "{file} [{name}] {check:?} differs:\n  fio    {}\n  iomark {}",
            show(fl),
            show(ol)
        ));
    }
    diffs
}

#[test]
fn files_and_zones_match_fio() {
    if !fio_installed() {
        return;
    }
    let mut diffs = Vec::new();
    for &(file, jobs) in CASES {
        // A job that fails makes both exit with 1.
        let code = i32::from(jobs.iter().any(|(_, c)| matches!(c, Check::Error(_))));
        let logged: Vec<&str> = jobs
            .iter()
            .filter(|(_, c)| matches!(c, Check::Sequence | Check::Zones { .. } | Check::PerFile))
            .map(|&(name, _)| name)
            .collect();
        let (fio, ours) = (run("fio", file, code, &logged), run(IOMARK, file, code, &logged));
        for &(name, check) in jobs {
            diffs.extend(differences(file, name, check, &fio, &ours));
        }
    }
    assert!(diffs.is_empty(), "differences from fio 3.33:\n{}", diffs.join("\n"));
}

#[test]
fn zone_settings_fio_refuses_are_refused() {
    let base = ["--name=z", "--ioengine=null", "--size=64k", "--output-format=terse"];
    for (extra, says) in [
        ("--zonesize=16k", "option 'zonesize'"),
        ("--zonemode=strided", "option 'zonesize' must be given"),
        ("--zonemode=zbd", "option 'zonemode': zbd"),
    ] {
        let mut args = base.to_vec();
        args.push(extra);
        let out = run_in(tempdir().path(), IOMARK, &args);
        let (code, stderr) = (out.status.code(), text(&out.stderr));
        assert_eq!(code, Some(2), "{extra}: {stderr}");
        assert!(stderr.contains(says) && stderr.contains("job 'z'"), "{extra}: {stderr}");
    }
}
