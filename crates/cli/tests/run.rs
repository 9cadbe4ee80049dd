//! Running jobs end to end with the `iomark` binary: golden reports under the fake clock,
//! exact I/O counts against fio 3.33 on the same job files, exit codes and what goes to
//! standard output and standard error.
//!
//! Every run happens inside a temporary directory that the test creates and removes; job
//! files and the files the jobs lay out live there. Tests that need fio print
//! `skipped: fio not installed` and pass when `fio` is not on the `PATH`.
//!
//! Golden files live in `tests/golden/`: `<case>.fio` is the job, `<case>.<format>` the
//! expected output (`json,normal` is stored as `<case>.json_normal`). `IOMARK_BLESS=1`
//! rewrites them from the current output; check the diff by eye against fio's layout before
//! committing.

use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

// ---------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------

/// The fake clock's step for golden runs, in nanoseconds.
const FAKE_STEP_NS: &str = "1000";

/// Runs `iomark` with `args` in `dir`; `fake` selects the fake clock.
fn iomark_in(dir: &Path, args: &[&str], fake: bool) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_iomark"));
    cmd.current_dir(dir).args(args).stdin(Stdio::null()).env_remove("IOMARK_FAKE_CLOCK_NS");
    if fake {
        cmd.env("IOMARK_FAKE_CLOCK_NS", FAKE_STEP_NS);
    }
    cmd.output().expect("run iomark")
}

/// Whether fio can be run; prints the skip message when it cannot.
fn fio_installed() -> bool {
    let ok = Command::new("fio")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        eprintln!("skipped: fio not installed");
    }
    ok
}

/// Runs fio with `args` in `dir`.
fn fio_in(dir: &Path, args: &[&str]) -> Output {
    Command::new("fio").current_dir(dir).args(args).stdin(Stdio::null()).output().expect("run fio")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A fresh temporary directory.
fn tempdir() -> tempfile::TempDir {
    tempfile::tempdir().expect("temporary directory")
}

/// Writes `job` as `job.fio` in `dir` and returns its path.
fn write_job(dir: &Path, job: &str) -> PathBuf {
    let path = dir.join("job.fio");
    std::fs::write(&path, job).expect("write job file");
    path
}

/// The names of the entries of `dir`, sorted.
fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("read dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Parses a whole standard output as one JSON document (nothing before or after it).
fn parse_json(out: &Output, what: &str) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!("{what}: stdout is not one JSON document ({e}):\n{}", text(&out.stdout))
    })
}

// ---------------------------------------------------------------------------------------
// Golden reports (fake clock, null engine, fixed seed)
// ---------------------------------------------------------------------------------------

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

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
    let bless = std::env::var_os("IOMARK_BLESS").is_some_and(|v| v == "1");
    let job = golden_dir().join(format!("{case}.fio"));
    let job = job.to_str().expect("utf-8 path");
    let mut failures = Vec::new();
    for &(format, suffix) in formats {
        let dir = tempdir();
        let flag = format!("--output-format={format}");
        let out = iomark_in(dir.path(), &[&flag, job], true);
        assert_eq!(out.status.code(), Some(0), "{case} {format}: {}", text(&out.stderr));
        assert!(out.stderr.is_empty(), "{case} {format}: stderr: {}", text(&out.stderr));
        if format.starts_with("json") && !format.contains("normal") {
            parse_json(&out, &format!("{case} {format}"));
        }
        let expected_path = golden_dir().join(format!("{case}.{suffix}"));
        if bless {
            std::fs::write(&expected_path, &out.stdout).expect("write golden file");
            continue;
        }
        let expected = std::fs::read(&expected_path).unwrap_or_else(|e| {
            panic!("{}: {e} (IOMARK_BLESS=1 writes it)", expected_path.display())
        });
        if expected != out.stdout {
            failures.push(first_difference(&format!("{case}.{suffix}"), &expected, &out.stdout));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The first line where `got` differs from `expected`, for the failure message.
fn first_difference(name: &str, expected: &[u8], got: &[u8]) -> String {
    let (e, g) = (text(expected), text(got));
    let (el, gl): (Vec<&str>, Vec<&str>) = (e.lines().collect(), g.lines().collect());
    for i in 0..el.len().max(gl.len()) {
        let (a, b) = (el.get(i).copied(), gl.get(i).copied());
        if a != b {
            return format!("{name}: line {}:\n  want {a:?}\n  got  {b:?}", i + 1);
        }
    }
    format!("{name}: differs (line endings or final newline)")
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
/// negative one; iomark refuses all of them with exit code 2 and keeps 20.
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
    let pcts = &parse_json(&out, "20 percentiles")["jobs"][0]["read"]["clat_ns"]["percentile"];
    assert_eq!(pcts.as_object().map(|m| m.len()), Some(20));
    for (list, why) in [
        (format!("{}:21", twenty.join(":")), "at most 20 values"),
        ("50:101".to_string(), "'101' is outside 0..100"),
        ("-1".to_string(), "'-1' is outside 0..100"),
        ("50:0:99".to_string(), "percentile 0 is not allowed"),
    ] {
        let out = run(&list);
        assert_eq!(out.status.code(), Some(2), "{list}");
        let err = text(&out.stderr);
        assert!(err.contains("job 'p'") && err.contains("'percentile_list'"), "{err}");
        assert!(err.contains(why), "{list}: {err}");
    }
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
        let path = golden_dir().join(format!("json_plus.{suffix}"));
        serde_json::from_slice(&std::fs::read(path).expect("golden")).expect("JSON")
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
    let job = golden_dir().join("json_plus.fio");
    let dir = tempdir();
    let out = iomark_in(dir.path(), &["--output-format=json,json+", job.to_str().unwrap()], true);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let expected = std::fs::read(golden_dir().join("json_plus.json_plus")).expect("golden");
    assert_eq!(text(&out.stdout), text(&expected));
}

#[test]
fn fake_clock_runs_are_byte_stable() {
    let job = golden_dir().join("randrw70.fio");
    let job = job.to_str().expect("utf-8 path");
    let (a, b) = (tempdir(), tempdir());
    let first = iomark_in(a.path(), &["--output-format=json,normal", job], true);
    let second = iomark_in(b.path(), &["--output-format=json,normal", job], true);
    assert_eq!(first.status.code(), Some(0), "{}", text(&first.stderr));
    assert_eq!(text(&first.stdout), text(&second.stdout));
}

// ---------------------------------------------------------------------------------------
// Against fio 3.33: the same job file, the same I/O
// ---------------------------------------------------------------------------------------

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

/// Whether O_DIRECT works in a temporary directory (tmpfs refuses it).
fn direct_io_works() -> bool {
    use std::os::unix::fs::OpenOptionsExt;
    let dir = tempdir();
    std::fs::OpenOptions::new()
        .create(true)
        .truncate(true)
        .write(true)
        .custom_flags(libc::O_DIRECT)
        .open(dir.path().join("probe"))
        .is_ok()
}

/// What one tool left behind: the JSON document, and the files in its directory (name and
/// size, the job file left out).
struct Ran {
    json: Value,
    files: Vec<(String, u64)>,
}

/// Runs `job` with fio or iomark in a fresh directory with `--output-format=json`.
fn run_json(fio: bool, job: &str, what: &str) -> Ran {
    let dir = tempdir();
    let path = write_job(dir.path(), job);
    let path = path.to_str().expect("utf-8 path");
    let args = ["--output-format=json", path];
    let (out, tool) = if fio {
        (fio_in(dir.path(), &args), "fio")
    } else {
        (iomark_in(dir.path(), &args, false), "iomark")
    };
    assert_eq!(out.status.code(), Some(0), "{what}: {tool} failed: {}", text(&out.stderr));
    let json = parse_json(&out, &format!("{what} ({tool})"));
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

fn count(job: &Value, dir: &str, field: &str) -> u64 {
    job[dir][field].as_u64().unwrap_or_else(|| panic!("{dir}.{field} missing in {job}"))
}

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
    // "iomark version" is iomark's documented addition; "disk_util" is not measured yet
    // (the run report's disk list is always empty), so fio's is left out.
    let top = |v: &Value| -> BTreeSet<String> {
        let skip = ["iomark version", "disk_util"];
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
            let options = iomark_engine::EngineOptions::default();
            if let Err(e) = iomark_engine::create(engine, &options) {
                eprintln!("skipped case '{}': {e}", case.name);
                continue;
            }
        }
        if case.job.contains("direct=1") && !direct_io_works() {
            eprintln!("skipped case '{}': the temporary directory refuses O_DIRECT", case.name);
            continue;
        }
        let fio = run_json(true, case.job, case.name);
        let ours = run_json(false, case.job, case.name);
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
    let fio = run_json(true, job, "globals").json;
    let ours = run_json(false, job, "globals").json;
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

// ---------------------------------------------------------------------------------------
// Errors, exit codes and what goes where
// ---------------------------------------------------------------------------------------

/// Asserts exit code `code` and a message on standard error that contains every one of
/// `names`; returns standard error.
fn assert_fails(out: &Output, code: i32, names: &[&str], what: &str) -> String {
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "{what}: exit code; stderr: {err}");
    for name in names {
        assert!(err.contains(name), "{what}: stderr lacks '{name}': {err}");
    }
    err
}

#[test]
fn a_file_that_cannot_be_opened_fails_the_job_with_exit_1() {
    let dir = tempdir();
    let file = dir.path().join("no/such/dir/data");
    let file = file.to_str().expect("utf-8 path");
    for format in ["normal", "json"] {
        let out = iomark_in(
            dir.path(),
            &[
                &format!("--output-format={format}"),
                "--name=lost",
                &format!("--filename={file}"),
                "--size=1m",
                "--rw=read",
            ],
            false,
        );
        assert_fails(&out, 1, &["'lost'", file], format);
        if format == "json" {
            assert_eq!(text(&out.stdout), "", "json: nothing but JSON on stdout");
        }
    }
    assert_eq!(entries(dir.path()), Vec::<String>::new(), "nothing created");
}

#[test]
fn a_read_job_without_size_or_file_is_a_configuration_error() {
    let dir = tempdir();
    let out = iomark_in(dir.path(), &["--name=nosize", "--rw=read"], false);
    assert_fails(&out, 2, &["'nosize'", "'size'"], "no size");
    assert_eq!(text(&out.stdout), "", "nothing runs, nothing is printed");
    assert_eq!(entries(dir.path()), Vec::<String>::new());
}

/// fio: "size too small, must not be less than minimum block size", before any job runs.
#[test]
fn a_block_size_larger_than_size_is_a_configuration_error() {
    let dir = tempdir();
    let out = iomark_in(
        dir.path(),
        &["--name=big", "--ioengine=null", "--size=1m", "--bs=2m", "--rw=read"],
        false,
    );
    assert_fails(&out, 2, &["'big'", "'bs'"], "bs > size");
    assert_eq!(text(&out.stdout), "", "nothing runs, nothing is printed");
}

#[test]
fn json_output_is_the_json_document_alone() {
    let dir = tempdir();
    let out = iomark_in(
        dir.path(),
        &[
            "--output-format=json",
            "--debug=parse",
            "--name=quiet",
            "--ioengine=psync",
            "--rw=randrw",
            "--size=256k",
        ],
        false,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // serde_json refuses anything before or after the one document.
    let json = parse_json(&out, "json");
    assert_eq!(json["jobs"][0]["jobname"], "quiet");
    let stdout = text(&out.stdout);
    assert!(stdout.starts_with('{') && stdout.ends_with("}\n"), "{stdout}");
    // The diagnostics went to standard error.
    let err = text(&out.stderr);
    assert!(err.lines().any(|l| l.starts_with("parse: job 'quiet'")), "stderr: {err}");
}

#[test]
fn json_then_normal_prints_the_document_first() {
    let dir = tempdir();
    let out = iomark_in(
        dir.path(),
        &["--output-format=json,normal", "--name=both", "--ioengine=null", "--size=64k"],
        true,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    // As fio: the start lines, the document, one blank line, the normal report.
    let start = stdout.find("Starting 1 process\n{\n").expect("start lines, then JSON") + 19;
    let end = stdout.find("\n}\n").expect("end of the JSON document") + 3;
    let json: Value = serde_json::from_str(&stdout[start..end]).expect("JSON");
    assert_eq!(json["jobs"][0]["jobname"], "both");
    assert!(stdout[end..].starts_with("\nboth: (groupid=0, jobs=1)"), "{}", &stdout[end..]);
}

// ---------------------------------------------------------------------------------------
// --readonly and --parse-only
// ---------------------------------------------------------------------------------------

#[test]
fn readonly_refuses_a_write_job_and_runs_nothing() {
    let dir = tempdir();
    let job =
        write_job(dir.path(), "[reader]\nrw=read\nsize=64k\n\n[writer]\nrw=randwrite\nsize=64k\n");
    let out = iomark_in(dir.path(), &["--readonly", job.to_str().expect("utf-8")], false);
    assert_fails(&out, 2, &["'writer'", "readonly"], "readonly");
    assert_eq!(text(&out.stdout), "");
    assert_eq!(entries(dir.path()), ["job.fio"], "no job ran, no file was laid out");
}

#[test]
fn readonly_runs_a_read_job_and_leaves_its_file_alone() {
    let dir = tempdir();
    let data = dir.path().join("data");
    let contents: Vec<u8> = (0..65536u32).map(|i| (i % 251) as u8).collect();
    std::fs::write(&data, &contents).expect("write data");
    let out = iomark_in(
        dir.path(),
        &[
            "--readonly",
            "--output-format=json",
            "--name=reader",
            "--rw=randread",
            "--bs=4k",
            &format!("--filename={}", data.display()),
        ],
        false,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(parse_json(&out, "readonly")["jobs"][0]["read"]["total_ios"], 16);
    assert_eq!(std::fs::read(&data).expect("read back"), contents);
}

/// fio with `--readonly` refuses to create a missing file ("refusing extend of file due to
/// read-only"), and the job fails.
#[test]
fn readonly_creates_no_file() {
    let dir = tempdir();
    let out = iomark_in(
        dir.path(),
        &["--readonly", "--output-format=json", "--name=reader", "--rw=read", "--size=64k"],
        false,
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert_eq!(entries(dir.path()), Vec::<String>::new());
}

#[test]
fn parse_only_runs_nothing() {
    let dir = tempdir();
    let job =
        write_job(dir.path(), "[writer]\nrw=write\nsize=64k\n\n[reader]\nrw=read\nsize=64k\n");
    let out = iomark_in(dir.path(), &["--parse-only", job.to_str().expect("utf-8")], false);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "");
    assert_eq!(text(&out.stderr), "");
    assert_eq!(entries(dir.path()), ["job.fio"], "no file was laid out");
}

// ---------------------------------------------------------------------------------------
// fio's own tools on iomark's output
// ---------------------------------------------------------------------------------------

/// Debian's package of fio installs its json+ converter here.
const CLAT2CSV: &str = "/usr/bin/fio_jsonplus_clat2csv";

/// Whether `python3` runs and fio's json+ converter is installed; prints what is missing.
fn clat2csv_installed() -> bool {
    if !Path::new(CLAT2CSV).exists() {
        eprintln!("skipped: {CLAT2CSV} not installed (Debian's fio package has it)");
        return false;
    }
    let python = Command::new("python3").arg("--version").output();
    if !python.is_ok_and(|o| o.status.success()) {
        eprintln!("skipped: python3 not found");
        return false;
    }
    true
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
        Command::new("python3")
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

// ---------------------------------------------------------------------------------------
// group_reporting: exact merges, and the group's name and options
// ---------------------------------------------------------------------------------------

/// Two differently named jobs in one group, whose latencies differ under the fake clock.
const GROUP_JOBS: &str = "[global]\nioengine=null\nsize=256k\nbs=4k\nlat_percentiles=1\n\
    percentile_list=10:50:90:99:99.9\n\n\
    [deep]\ndescription=four at a time\nrw=randrw\nrwmixread=60\niodepth=4\n\n\
    [shallow]\nrw=randrw\nrwmixread=80\nbs=8k\n";

/// A group_reporting run's latencies are the exact merge of its jobs' (the same jobs run
/// without it, under the fake clock, which makes every job's numbers the same in both runs):
/// the counts add, the bins add bucket by bucket, the percentiles are those of the added
/// bins, and the mean and deviation are the pooled ones.
#[test]
fn group_reporting_merges_latencies_exactly() {
    let dir = tempdir();
    let run = |job: &str| {
        let path = write_job(dir.path(), job);
        let out = iomark_in(dir.path(), &["--output-format=json+", path.to_str().unwrap()], true);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        parse_json(&out, "group run")
    };
    let apart = run(GROUP_JOBS);
    let together = run(&GROUP_JOBS.replace("[global]\n", "[global]\ngroup_reporting\n"));
    let jobs = apart["jobs"].as_array().expect("jobs");
    assert_eq!(jobs.len(), 2);
    let group = &together["jobs"][0];
    assert_eq!(together["jobs"].as_array().map(Vec::len), Some(1));
    for d in ["read", "write"] {
        for lat in ["clat_ns", "lat_ns"] {
            let what = format!("{d} {lat}");
            let parts: Vec<&Value> = jobs.iter().map(|j| &j[d][lat]).collect();
            let merged = &group[d][lat];
            let u = |v: &Value| v.as_u64().expect("an integer");
            let f = |v: &Value| v.as_f64().expect("a number");
            let n: u64 = parts.iter().map(|p| u(&p["N"])).sum();
            assert_eq!(u(&merged["N"]), n, "{what}");
            let min = parts.iter().map(|p| u(&p["min"])).min().unwrap();
            let max = parts.iter().map(|p| u(&p["max"])).max().unwrap();
            assert_eq!((u(&merged["min"]), u(&merged["max"])), (min, max), "{what}");
            // Pooled mean and deviation (Chan et al.) from each job's N, mean and deviation.
            let (mut count, mut mean, mut m2) = (0.0f64, 0.0f64, 0.0f64);
            for p in &parts {
                let (nb, mb) = (f(&p["N"]), f(&p["mean"]));
                let m2b = f(&p["stddev"]).powi(2) * (nb - 1.0);
                let delta = mb - mean;
                let total = count + nb;
                mean += delta * nb / total;
                m2 += m2b + delta * delta * count * nb / total;
                count = total;
            }
            let stddev = (m2 / (count - 1.0)).sqrt();
            assert!((f(&merged["mean"]) - mean).abs() < 1e-5, "{what}: mean");
            assert!((f(&merged["stddev"]) - stddev).abs() < 1e-5, "{what}: stddev");
            // The jobs' bins, added into one histogram, give the group's bins and percentiles.
            let mut hist = iomark_stats::LatHistogram::new();
            for p in &parts {
                for (value, count) in p["bins"].as_object().expect("bins") {
                    hist.record_n(value.parse().expect("a bin value"), u(count));
                }
            }
            let bins: Vec<(String, u64)> =
                hist.bins(min..=max).map(|(v, c)| (v.to_string(), c)).collect();
            let got: Vec<(String, u64)> = merged["bins"]
                .as_object()
                .expect("group bins")
                .iter()
                .map(|(k, v)| (k.clone(), u(v)))
                .collect();
            assert_eq!(got, bins, "{what}: bins");
            let list = [10.0, 50.0, 90.0, 99.0, 99.9];
            let expected = hist.percentiles(&list, min..=max);
            let pcts: Vec<u64> =
                merged["percentile"].as_object().expect("percentiles").values().map(u).collect();
            assert_eq!(pcts, expected, "{what}: percentiles");
        }
    }
    // Not a trivial merge: the two jobs' latencies differ.
    assert_ne!(jobs[0]["write"]["lat_ns"]["bins"], jobs[1]["write"]["lat_ns"]["bins"]);
}

/// A group is named after its first job and shows that job's options and description
/// (fio 3.33 shows the first job's name and description with the last job's options).
#[test]
fn a_group_is_reported_under_its_first_job() {
    let dir = tempdir();
    let job = GROUP_JOBS.replace("[global]\n", "[global]\ngroup_reporting\n");
    let path = write_job(dir.path(), &job);
    let args = ["--output-format=json,normal", path.to_str().unwrap()];
    let out = iomark_in(dir.path(), &args, true);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let json_start = stdout.find("\n{\n").expect("the JSON document") + 1;
    let json_end = stdout.find("\n}\n").expect("the JSON document") + 3;
    let doc: Value = serde_json::from_str(&stdout[json_start..json_end]).expect("JSON");
    let group = &doc["jobs"][0];
    assert_eq!(group["jobname"], "deep");
    assert_eq!(group["desc"], "four at a time");
    let options = group["job options"].as_object().expect("job options");
    let keys: BTreeSet<&str> = options.keys().map(String::as_str).collect();
    assert_eq!(keys, BTreeSet::from(["description", "rw", "rwmixread", "iodepth"]));
    assert_eq!(options["rwmixread"], "60");
    assert!(stdout.contains("\ndeep: (groupid=0, jobs=2): err= 0"), "{stdout}");
    assert!(stdout.contains("\n  Description  : [four at a time]\n"), "{stdout}");
}

/// `stats=0`: the job runs (its file is laid out and read) but is reported with nothing
/// measured: zeros in JSON, absent from the normal report; fio 3.33 does the same.
#[test]
fn stats_0_reports_the_job_with_nothing_measured() {
    let dir = tempdir();
    let args = ["--name=quiet", "--ioengine=psync", "--rw=read", "--size=64k", "--stats=0"];
    let json_args = [&args[..], &["--output-format=json"]].concat();
    let mut runs = vec![("iomark", iomark_in(dir.path(), &json_args, true))];
    if fio_installed() {
        runs.push(("fio", fio_in(dir.path(), &json_args)));
    }
    for (tool, out) in runs {
        assert_eq!(out.status.code(), Some(0), "{tool}: {}", text(&out.stderr));
        let doc: Value = serde_json::from_slice(&out.stdout).expect("one JSON document");
        let job = &doc["jobs"][0];
        // fio 3.33's record has no name and group 4294967295; iomark names the job.
        if tool == "iomark" {
            assert_eq!(job["jobname"], "quiet");
        }
        assert_eq!(job["read"]["total_ios"], 0, "{tool}");
        assert_eq!(job["job_runtime"], 0, "{tool}");
    }
    assert_eq!(std::fs::metadata(dir.path().join("quiet.0.0")).map(|m| m.len()).ok(), Some(65536));
    let normal = text(&iomark_in(dir.path(), &args, true).stdout);
    assert!(!normal.contains("quiet: (groupid"), "{normal}");
}
