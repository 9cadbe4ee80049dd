//! The metadata engines (`filecreate`, `filestat`, `filedelete`) and the engines that
//! change a file's size or allocation (`ftruncate`, `falloc`), against fio 3.33: the same
//! command lines under both, compared by exit code, each job's error, each direction's
//! I/O count, bytes, clat samples and lat samples, and the files left (size, and whether
//! any block is allocated). iomark alone must also give the values written in each case.

use crate::support::report::report_json;
use crate::support::run::{run_in, tempdir, text, IOMARK};
use crate::support::tools::fio_installed;
use serde_json::Value;
use std::collections::BTreeMap;
use std::os::unix::fs::MetadataExt;

/// One direction of one job: I/Os, bytes, clat samples, lat samples.
type Dir = [u64; 4];

/// What a run gave: exit code, per job its error and its reads, writes and trims, and the
/// files left (name: size, allocated).
#[derive(Debug, PartialEq)]
struct Outcome {
    code: Option<i32>,
    jobs: Vec<(String, u64, [Dir; 3])>,
    files: BTreeMap<String, (u64, bool)>,
}

fn run(program: &str, args: &[&str]) -> Outcome {
    let dir = tempdir();
    let mut all = args.to_vec();
    all.push("--output-format=json");
    let out = run_in(dir.path(), program, &all);
    let json = report_json(program, &out);
    let jobs = json["jobs"].as_array().expect("jobs");
    let dir_of = |job: &Value, d: &str| {
        let n = |v: &Value| v.as_u64().unwrap_or(0);
        let d = &job[d];
        [n(&d["total_ios"]), n(&d["io_bytes"]), n(&d["clat_ns"]["N"]), n(&d["lat_ns"]["N"])]
    };
    let jobs = jobs
        .iter()
        .map(|j| {
            let name = j["jobname"].as_str().unwrap_or("?").to_string();
            let dirs = ["read", "write", "trim"].map(|d| dir_of(j, d));
            (name, j["error"].as_u64().unwrap_or(0), dirs)
        })
        .collect();
    let files = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .map(|e| {
            let m = e.metadata().unwrap();
            (e.file_name().to_string_lossy().into_owned(), (m.len(), m.blocks() > 0))
        })
        .collect();
    Outcome { code: out.status.code(), jobs, files }
}

/// One case: the command line, the exit code, each job's (name, error, reads, writes,
/// trims), and the files left as (name, size, allocated) or `None` when not checked.
struct Case {
    args: &'static [&'static str],
    code: i32,
    jobs: &'static [(&'static str, u64, [Dir; 3])],
    files: Option<&'static [(&'static str, u64, bool)]>,
}

const NONE: Dir = [0; 4];

const CASES: &[Case] = &[
    // One operation per file and loop: 40 I/Os counted, 10 timed (as clat only).
    Case {
        args: &["--name=c", "--ioengine=filecreate", "--filesize=16k", "--bs=4k", "--nrfiles=3"],
        code: 0,
        jobs: &[("c", 0, [[12, 49152, 3, 0], NONE, NONE])],
        files: Some(&[("c.0.0", 0, false), ("c.0.1", 0, false), ("c.0.2", 0, false)]),
    },
    Case {
        args: &[
            "--name=c",
            "--ioengine=filecreate",
            "--filesize=4k",
            "--nrfiles=5",
            "--loops=3",
            "--numjobs=2",
            "--rw=write",
        ],
        code: 0,
        jobs: &[
            ("c", 0, [NONE, [15, 61440, 15, 0], NONE]),
            ("c", 0, [NONE, [15, 61440, 15, 0], NONE]),
        ],
        files: None,
    },
    Case {
        args: &[
            "--name=s",
            "--ioengine=filestat",
            "--filesize=8k",
            "--bs=4k",
            "--nrfiles=2",
            "--stat_type=statx",
        ],
        code: 0,
        jobs: &[("s", 0, [[4, 16384, 2, 0], NONE, NONE])],
        files: Some(&[("s.0.0", 8192, true), ("s.0.1", 8192, true)]),
    },
    Case {
        args: &["--name=s", "--ioengine=filestat", "--filesize=4k", "--stat_type=lstat"],
        code: 0,
        jobs: &[("s", 0, [[1, 4096, 1, 0], NONE, NONE])],
        files: Some(&[("s.0.0", 4096, true)]),
    },
    Case {
        args: &["--name=d", "--ioengine=filedelete", "--filesize=4k", "--nrfiles=6"],
        code: 0,
        jobs: &[("d", 0, [[6, 24576, 6, 0], NONE, NONE])],
        files: Some(&[]),
    },
    // The second loop finds the files gone: ENOENT, no I/O counted for it.
    Case {
        args: &["--name=d", "--ioengine=filedelete", "--filesize=4k", "--nrfiles=2", "--loops=2"],
        code: 1,
        jobs: &[("d", 2, [[2, 8192, 2, 0], NONE, NONE])],
        files: Some(&[]),
    },
    Case {
        args: &["--name=t", "--ioengine=ftruncate", "--size=64k", "--bs=4k", "--rw=write"],
        code: 0,
        jobs: &[("t", 0, [NONE, [16, 65536, 16, 16], NONE])],
        files: Some(&[("t.0.0", 61440, false)]),
    },
    Case {
        args: &["--name=t", "--ioengine=ftruncate", "--size=64k", "--bs=4k", "--rw=read"],
        code: 1,
        jobs: &[("t", 22, [[1, 0, 0, 0], NONE, NONE])],
        files: Some(&[("t.0.0", 65536, true)]),
    },
    Case {
        args: &["--name=f", "--ioengine=falloc", "--size=64k", "--bs=16k", "--rw=trim"],
        code: 0,
        jobs: &[("f", 0, [NONE, NONE, [4, 65536, 4, 4]])],
        files: Some(&[("f.0.0", 65536, false)]),
    },
    Case {
        args: &["--name=f", "--ioengine=falloc", "--size=64k", "--bs=4k", "--rw=read"],
        code: 0,
        jobs: &[("f", 0, [[16, 65536, 16, 16], NONE, NONE])],
        files: Some(&[("f.0.0", 65536, true)]),
    },
];

#[test]
fn metadata_engines_count_and_time_as_fio_does() {
    let fio = fio_installed();
    let mut diffs = Vec::new();
    for case in CASES {
        let ours = run(IOMARK, case.args);
        let want_jobs: Vec<(String, u64, [Dir; 3])> =
            case.jobs.iter().map(|&(n, e, d)| (n.to_string(), e, d)).collect();
        if ours.code != Some(case.code) || ours.jobs != want_jobs {
            diffs.push(format!("{:?}: iomark {ours:?}, want {want_jobs:?}", case.args));
        }
        if let Some(files) = case.files {
            let want: BTreeMap<String, (u64, bool)> =
                files.iter().map(|&(n, len, a)| (n.to_string(), (len, a))).collect();
            if ours.files != want {
                diffs.push(format!("{:?}: iomark left {:?}, want {want:?}", case.args, ours.files));
            }
        }
        if fio {
            let theirs = run("fio", case.args);
            if theirs != ours {
                diffs.push(format!("{:?}:\n  fio    {theirs:?}\n  iomark {ours:?}", case.args));
            }
        }
    }
    assert!(diffs.is_empty(), "differences:\n{}", diffs.join("\n"));
}

/// The normal report of a metadata job prints clat alone (no lat line, no latency
/// distribution), as fio's.
#[test]
fn a_metadata_job_reports_clat_alone() {
    let dir = tempdir();
    let args = ["--name=c", "--ioengine=filecreate", "--filesize=4k", "--nrfiles=20"];
    let out = run_in(dir.path(), IOMARK, &args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    assert!(report.contains("    clat ("), "{report}");
    assert!(!report.contains("     lat ("), "{report}");
    assert!(!report.contains("lat (usec)   :") && !report.contains("lat (nsec)   :"), "{report}");
    assert!(report.contains("issued rwts: total=20,0,0,0"), "{report}");
}
