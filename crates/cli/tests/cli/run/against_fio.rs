//! The same job files under fio 3.33 and iomark: the same I/O counts per direction, the
//! same groups and jobs, the same JSON keys, the same files laid out. Without fio the
//! tests print `skipped: fio not installed` and pass.

use crate::support::report::{count, json_doc};
use crate::support::run::{entries, iomark_in, run_in, tempdir, text, write_job, IOMARK};
use crate::support::tools::{direct_io_works, engine_available, fio_installed};
use serde_json::Value;
use std::collections::BTreeSet;

/// One job file run by both tools.
struct FioCase {
    /// A name for messages.
    name: &'static str,
    /// The job file. No `[global]` section: fio echoes [global] options apart from the
    /// jobs' own ("global options"), which iomark does not yet (see
    /// `global_options_are_echoed_apart_as_fio_does`), and the key sets would differ.
    job: &'static str,
    /// Whether the split between reads and writes is drawn at random (`rwmixread` of a
    /// mixed job): fio's random generator is not iomark's, so only the totals of reads and
    /// writes can agree, not each direction.
    random_split: bool,
    /// Whether the number of I/Os is drawn at random (`bssplit` picks sizes at random):
    /// only the bytes can agree, not the count.
    random_count: bool,
    /// Whether the IO depth, submit and complete distributions and the number of slat
    /// samples must agree too (they do where no real device decides when I/Os complete).
    exact_dists: bool,
    /// An engine the case needs that a sandbox may lack (io_uring): skipped without it.
    needs: Option<&'static str>,
}

/// The cases: size-based, deterministic in their totals, a few MiB at most.
const FIO_CASES: &[FioCase] = &[
    FioCase {
        name: "groups, numjobs and the three engines",
        job: "\
[seq-null]
ioengine=null
rw=read
size=1m
bs=4k

[rand-psync]
stonewall
ioengine=psync
rw=randwrite
size=512k
bs=4k
numjobs=2

[seq-sync]
stonewall
ioengine=sync
rw=write
size=1m
bs=64k

[seq-read-sync]
ioengine=sync
rw=read
size=256k
bs=16k
",
        random_split: false,
        random_count: false,
        exact_dists: false,
        needs: None,
    },
    FioCase {
        name: "random map on and off",
        job: "\
[map]
ioengine=psync
rw=randread
size=1m
bs=4k

[nomap]
ioengine=psync
rw=randread
size=1m
bs=4k
norandommap
",
        random_split: false,
        random_count: false,
        exact_dists: false,
        needs: None,
    },
    FioCase {
        name: "rwmix on psync and null, with an I/O budget",
        job: "\
[mix]
ioengine=psync
rw=randrw
rwmixread=70
size=1m
bs=4k

[mix-budget]
stonewall
ioengine=null
rw=randrw
rwmixread=30
size=1m
io_size=3m
bs=4k

[seq-mix]
ioengine=psync
rw=rw
rwmixread=50
size=512k
bs=8k
",
        random_split: true,
        random_count: false,
        exact_dists: false,
        needs: None,
    },
    FioCase {
        name: "bssplit",
        job: "\
[split]
ioengine=psync
rw=randread
size=2m
bssplit=4k/50:16k/30:64k/20

[split-write]
ioengine=null
rw=write
size=1m
bssplit=4k/25:8k/75
",
        random_split: false,
        random_count: true,
        exact_dists: false,
        needs: None,
    },
    FioCase {
        name: "nrfiles, two filenames, io_size beyond size, number_ios, loops",
        job: "\
[nrfiles]
ioengine=psync
rw=write
size=1m
bs=4k
nrfiles=4

[two-files]
ioengine=psync
rw=randwrite
filename=first.dat:second.dat
size=1m
bs=8k

[io-size]
stonewall
ioengine=psync
rw=read
size=512k
io_size=2m
bs=4k

[number-ios]
ioengine=null
rw=randread
size=1m
bs=4k
number_ios=100

[loops]
ioengine=psync
rw=randread
size=256k
bs=4k
loops=3
",
        random_split: false,
        random_count: false,
        exact_dists: false,
        needs: None,
    },
    FioCase {
        name: "offset, offset_increment, size not a multiple of bs",
        job: "\
[offsets]
ioengine=psync
rw=write
filename=shared.dat
size=512k
offset=256k
offset_increment=128k
bs=4k
numjobs=3

[ragged]
stonewall
ioengine=psync
rw=write
size=1000k
bs=64k

[ragged-random]
ioengine=psync
rw=randread
size=100k
bs=8k
",
        random_split: false,
        random_count: false,
        exact_dists: false,
        needs: None,
    },
    FioCase {
        name: "null engine at depth, with submit batches",
        job: "\
[depth-32]
ioengine=null
rw=randread
size=1m
bs=4k
iodepth=32

[batch-8]
ioengine=null
rw=read
size=1m
bs=4k
iodepth=32
iodepth_batch_submit=8

[batch-above-depth]
ioengine=null
rw=randwrite
size=1m
bs=4k
iodepth=4
iodepth_batch_submit=16

[batch-0-is-depth]
ioengine=null
rw=read
size=1m
bs=4k
iodepth=16
iodepth_batch_submit=0
iodepth_batch_complete_max=16

[low-water]
ioengine=null
rw=randread
size=1m
bs=4k
iodepth=16
iodepth_batch=4
iodepth_low=2
",
        random_split: false,
        random_count: false,
        exact_dists: true,
        needs: None,
    },
    FioCase {
        name: "libaio, posixaio and mmap",
        job: "\
[libaio-direct]
ioengine=libaio
direct=1
rw=randwrite
size=1m
bs=4k
iodepth=8

[libaio-batched]
ioengine=libaio
rw=read
size=1m
bs=16k
iodepth=16
iodepth_batch_submit=4
iodepth_batch_complete_min=2
iodepth_batch_complete_max=8

[posixaio]
stonewall
ioengine=posixaio
rw=randrw
rwmixread=50
size=1m
bs=4k
iodepth=4

[mmap]
stonewall
ioengine=mmap
rw=write
size=1m
bs=8k
fsync=16
",
        random_split: true,
        random_count: false,
        exact_dists: false,
        needs: None,
    },
    FioCase {
        name: "io_uring",
        job: "\
[uring-direct]
ioengine=io_uring
direct=1
rw=randread
size=1m
bs=4k
iodepth=16

[uring-buffered]
stonewall
ioengine=io_uring
rw=write
size=1m
bs=8k
iodepth=8
iodepth_batch_submit=4
fsync=32
",
        random_split: false,
        random_count: false,
        exact_dists: false,
        needs: Some("io_uring"),
    },
];

/// What one tool left behind: the JSON document, and the files in its directory (name and
/// size, the job file left out).
struct Ran {
    json: Value,
    files: Vec<(String, u64)>,
}

/// Runs `job` with fio or iomark in a fresh directory with `--output-format=json`.
fn run_json(program: &str, job: &str, what: &str) -> Ran {
    let dir = tempdir();
    let path = write_job(dir.path(), job);
    let out = run_in(dir.path(), program, &["--output-format=json", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{what}: {program} failed: {}", text(&out.stderr));
    let json = json_doc(&out, &format!("{what} ({program})"));
    let files = entries(dir.path())
        .into_iter()
        .filter(|name| name != "job.fio")
        .map(|name| {
            let len = std::fs::metadata(dir.path().join(&name)).expect("metadata").len();
            (name, len)
        })
        .collect();
    Ran { json, files }
}

/// The names of the jobs of `job` that use the null engine.
fn null_jobs(job: &str) -> Vec<String> {
    let mut section = String::new();
    let mut out = Vec::new();
    for line in job.lines() {
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            section = name.to_string();
        } else if line == "ioengine=null" {
            out.push(section.clone());
        }
    }
    out
}

/// The files both tools lay out must have the same names and sizes. Jobs on the null
/// engine are left out: iomark lays out files for them, fio does not (reported; see
/// `null_engine_lays_out_no_files`).
fn compare_files(case: &FioCase, fio: &Ran, ours: &Ran) -> Vec<String> {
    let nulls = null_jobs(case.job);
    let keep = |files: &[(String, u64)]| -> Vec<(String, u64)> {
        files
            .iter()
            .filter(|(name, _)| !nulls.iter().any(|j| name.starts_with(&format!("{j}."))))
            .cloned()
            .collect()
    };
    let (f, o) = (keep(&fio.files), keep(&ours.files));
    if f == o {
        return Vec::new();
    }
    vec![format!("{}: files laid out: fio {f:?}, iomark {o:?}", case.name)]
}

/// The counts compared per direction.
const COUNTS: [&str; 4] = ["total_ios", "io_bytes", "short_ios", "drop_ios"];

/// Every key path under `v` ("read/clat_ns/percentile"), leaving out "job options"
/// values (names only) and the documented additions.
fn key_paths(v: &Value, prefix: &str, out: &mut BTreeSet<String>) {
    if let Value::Object(map) = v {
        for (k, child) in map {
            if prefix.is_empty() && k == "iomark version" {
                continue;
            }
            let path = if prefix.is_empty() { k.clone() } else { format!("{prefix}/{k}") };
            out.insert(path.clone());
            key_paths(child, &path, out);
        }
    }
}

fn keys_of(v: &Value) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    key_paths(v, "", &mut out);
    out
}

/// Compares fio's and iomark's documents of one case; returns the differences.
fn compare_with_fio(case: &FioCase, fio: &Value, ours: &Value) -> Vec<String> {
    let mut diffs = Vec::new();
    let mut diff = |m: String| diffs.push(format!("{}: {m}", case.name));
    let (fj, oj) = (fio["jobs"].as_array().expect("jobs"), ours["jobs"].as_array().expect("jobs"));
    if fj.len() != oj.len() {
        diff(format!("{} jobs in fio, {} in iomark", fj.len(), oj.len()));
        return diffs;
    }
    // "iomark version" and "iomark notes" are iomark's documented additions; "disk_util" is
    // not measured yet (the run report's disk list is always empty), so fio's is left out.
    let top = |v: &Value| -> BTreeSet<String> {
        let skip = ["iomark version", "iomark notes", "disk_util"];
        v.as_object()
            .expect("object")
            .keys()
            .filter(|k| !skip.contains(&k.as_str()))
            .cloned()
            .collect()
    };
    if top(fio) != top(ours) {
        diff(format!("top-level keys: fio {:?}, iomark {:?}", top(fio), top(ours)));
    }
    let groups = |jobs: &[Value]| -> BTreeSet<u64> {
        jobs.iter().map(|j| j["groupid"].as_u64().expect("groupid")).collect()
    };
    if groups(fj) != groups(oj) {
        diff(format!("groups: fio {:?}, iomark {:?}", groups(fj), groups(oj)));
    }
    for (f, o) in fj.iter().zip(oj) {
        let name = f["jobname"].as_str().unwrap_or("?");
        if f["jobname"] != o["jobname"] || f["groupid"] != o["groupid"] {
            diff(format!(
                "job {name}: fio ({}, g={}), iomark ({}, g={})",
                f["jobname"], f["groupid"], o["jobname"], o["groupid"]
            ));
        }
        for field in COUNTS {
            // Counts drawn at random agree only as totals of reads and writes (bytes of a
            // bssplit job agree per direction; its number of I/Os does not at all).
            let summed = case.random_split && matches!(field, "total_ios" | "io_bytes");
            let skipped = case.random_count && field == "total_ios";
            let dirs: &[&str] =
                if summed || skipped { &["trim"] } else { &["read", "write", "trim"] };
            for dir in dirs {
                let (a, b) = (count(f, dir, field), count(o, dir, field));
                if a != b {
                    diff(format!("job {name}: {dir}.{field}: fio {a}, iomark {b}"));
                }
            }
            let sum = |j: &Value| count(j, "read", field) + count(j, "write", field);
            if summed && !skipped && sum(f) != sum(o) {
                diff(format!("job {name}: read+write {field}: fio {}, iomark {}", sum(f), sum(o)));
            }
        }
        eprintln!(
            "{name}: fio r/w ios {}/{} bytes {}/{}; iomark r/w ios {}/{} bytes {}/{}",
            count(f, "read", "total_ios"),
            count(f, "write", "total_ios"),
            count(f, "read", "io_bytes"),
            count(f, "write", "io_bytes"),
            count(o, "read", "total_ios"),
            count(o, "write", "total_ios"),
            count(o, "read", "io_bytes"),
            count(o, "write", "io_bytes"),
        );
        if case.exact_dists {
            for key in ["iodepth_level", "iodepth_submit", "iodepth_complete"] {
                if f[key] != o[key] {
                    diff(format!("job {name}: {key}: fio {}, iomark {}", f[key], o[key]));
                }
            }
            for dir in ["read", "write"] {
                let (a, b) = (&f[dir]["slat_ns"]["N"], &o[dir]["slat_ns"]["N"]);
                if a != b {
                    diff(format!("job {name}: {dir}.slat_ns.N: fio {a}, iomark {b}"));
                }
            }
        }
        let (fk, ok) = (keys_of(f), keys_of(o));
        for k in fk.difference(&ok) {
            diff(format!("job {name}: key '{k}' missing in iomark"));
        }
        // "iomark notes" is iomark's documented addition (libaio's inline completions).
        for k in ok.difference(&fk).filter(|k| !k.starts_with("iomark notes")) {
            diff(format!("job {name}: key '{k}' not in fio"));
        }
    }
    diffs
}

#[test]
fn same_io_counts_groups_and_keys_as_fio() {
    if !fio_installed() {
        return;
    }
    let mut diffs = Vec::new();
    for case in FIO_CASES {
        if let Some(engine) = case.needs {
            if !engine_available(engine, &iomark_engine::EngineOptions::default()) {
                eprintln!("skipped case '{}'", case.name);
                continue;
            }
        }
        if case.job.contains("direct=1") && !direct_io_works() {
            eprintln!("skipped case '{}': the temporary directory refuses O_DIRECT", case.name);
            continue;
        }
        let fio = run_json("fio", case.job, case.name);
        let ours = run_json(IOMARK, case.job, case.name);
        diffs.extend(compare_with_fio(case, &fio.json, &ours.json));
        diffs.extend(compare_files(case, &fio, &ours));
    }
    assert!(diffs.is_empty(), "differences from fio 3.33:\n{}", diffs.join("\n"));
}

/// With a `[global]` section fio prints its options once, as "global options", and each
/// job's "job options" hold only the job's own.
#[test]
fn global_options_are_echoed_apart_as_fio_does() {
    if !fio_installed() {
        return;
    }
    let job = "[global]\nioengine=null\nsize=256k\n\n[a]\nrw=read\n\n[b]\nrw=write\nbs=8k\n";
    let fio = run_json("fio", job, "globals").json;
    let ours = run_json(IOMARK, job, "globals").json;
    assert_eq!(ours["global options"], fio["global options"]);
    for i in 0..2 {
        assert_eq!(ours["jobs"][i]["job options"], fio["jobs"][i]["job options"], "job {i}");
    }
}

/// fio's null engine does no file I/O and lays out no file.
#[test]
fn null_engine_lays_out_no_files() {
    let dir = tempdir();
    let out = iomark_in(
        dir.path(),
        &["--output-format=json", "--name=nofile", "--ioengine=null", "--size=1m", "--rw=read"],
        true,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(entries(dir.path()), Vec::<String>::new());
}
