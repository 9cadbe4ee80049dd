//! Files and zones against fio 3.33: corpus files of `tests/jobs/good` run under fio and
//! iomark in a temporary directory, each job writing its `write_iolog` there. The I/O
//! counts and bytes per direction must agree, and, job by job, what the iologs show:
//! the whole sequence of I/Os (file, direction, offset, length) where fio's choices are
//! deterministic, the zone of every I/O for random offsets in strided zones, the I/Os per
//! file where only files are drawn at random.
//!
//! Without `fio` on the `PATH` the comparisons print `skipped: fio not installed` and pass.

mod both;

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

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

/// One I/O of an iolog.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Io {
    file: String,
    action: String,
    offset: u64,
    len: u64,
}

/// What one run gave: the JSON report and each job's iolog.
struct Run {
    json: Value,
    iologs: BTreeMap<String, Vec<Io>>,
    /// The size of every other file the run left in its directory.
    files: BTreeMap<String, u64>,
}

fn corpus(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/jobs/good").join(name)
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

/// The data I/Os of an iolog (version 3: `TIME FILE ACTION OFFSET LENGTH`).
fn parse_iolog(text: &str) -> Vec<Io> {
    text.lines()
        .skip(1)
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            match f.as_slice() {
                [_, file, action @ ("read" | "write" | "trim"), off, len] => Some(Io {
                    file: file.to_string(),
                    action: action.to_string(),
                    offset: off.parse().ok()?,
                    len: len.parse().ok()?,
                }),
                _ => None,
            }
        })
        .collect()
}

/// Runs fio or iomark on the corpus file `name` (with iologs), in a fresh temporary
/// directory; `expect` is the exit code wanted, `logged` the jobs that write an iolog.
fn run(fio: bool, name: &str, expect: i32, logged: &[&str]) -> Run {
    let dir = tempfile::tempdir().expect("temporary directory");
    let job = dir.path().join(name);
    let text = std::fs::read_to_string(corpus(name)).expect("corpus file");
    std::fs::write(&job, with_iologs(&text, logged)).expect("write the job file");
    let program = if fio { "fio".into() } else { PathBuf::from(env!("CARGO_BIN_EXE_iomark")) };
    let out = Command::new(program)
        .current_dir(dir.path())
        .env_remove("IOMARK_FAKE_CLOCK_NS")
        .arg("--output-format=json")
        .arg(&job)
        .stdin(Stdio::null())
        .output()
        .expect("run");
    let tool = if fio { "fio" } else { "iomark" };
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(expect), "{name}: {tool}: {stderr}");
    // fio may print a line (`fio: terminating on signal 15`) before the report.
    let start = stdout.find('{').unwrap_or_else(|| panic!("{name}: {tool}: no JSON: {stdout}"));
    let json: Value = serde_json::from_str(&stdout[start..])
        .unwrap_or_else(|e| panic!("{name}: {tool}: not JSON ({e})"));
    let (mut iologs, mut files) = (BTreeMap::new(), BTreeMap::new());
    for entry in std::fs::read_dir(dir.path()).expect("read the directory").flatten() {
        let file = entry.file_name().to_string_lossy().into_owned();
        if let Some(job) = file.strip_suffix(".iolog") {
            let text = std::fs::read_to_string(entry.path()).expect("read an iolog");
            iologs.insert(job.to_string(), parse_iolog(&text));
        } else {
            files.insert(file, entry.metadata().map_or(0, |m| m.len()));
        }
    }
    Run { json, iologs, files }
}

fn count(job: &Value, dir: &str, field: &str) -> u64 {
    job[dir][field].as_u64().unwrap_or_else(|| panic!("{dir}.{field} missing"))
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
        let (fio, ours) = (run(true, file, code, &logged), run(false, file, code, &logged));
        for &(name, check) in jobs {
            diffs.extend(differences(file, name, check, &fio, &ours));
        }
    }
    assert!(diffs.is_empty(), "differences from fio 3.33:\n{}", diffs.join("\n"));
}

/// Runs iomark on a command line in a temporary directory: exit code and stderr.
fn iomark(args: &[&str]) -> (Option<i32>, String) {
    let dir = tempfile::tempdir().expect("temporary directory");
    let out = Command::new(env!("CARGO_BIN_EXE_iomark"))
        .current_dir(dir.path())
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run iomark");
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
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
        let (code, stderr) = iomark(&args);
        assert_eq!(code, Some(2), "{extra}: {stderr}");
        assert!(stderr.contains(says) && stderr.contains("job 'z'"), "{extra}: {stderr}");
    }
}

/// The lines strace writes for the system calls `calls` of `program` (with `args`, in a
/// fresh temporary directory, file descriptors shown with their paths); `None` when
/// strace cannot trace here.
fn traced(program: &Path, args: &[&str], calls: &str) -> Option<Vec<String>> {
    let dir = tempfile::tempdir().expect("temporary directory");
    both::traced(dir.path(), program, args, calls)
}

/// The `fsync` and `fdatasync` calls of `program` with `args` (see [`traced`]).
fn syncs_traced(program: &Path, args: &[&str]) -> Option<usize> {
    let lines = traced(program, args, "fsync,fdatasync")?;
    Some(lines.iter().filter(|l| l.contains("sync(")).count())
}

#[test]
fn create_fsync_syncs_each_laid_out_file_as_fio() {
    let iomark = PathBuf::from(env!("CARGO_BIN_EXE_iomark"));
    let fio = fio_installed().then(|| PathBuf::from("fio"));
    for (flag, want) in [("--create_fsync=1", 2), ("--create_fsync=0", 0)] {
        let args = [
            "--name=c",
            "--rw=read",
            "--bs=4k",
            "--size=128k",
            "--nrfiles=2",
            flag,
            "--output-format=terse",
        ];
        let Some(ours) = syncs_traced(&iomark, &args) else {
            eprintln!("skipped: strace missing or not allowed to trace");
            return;
        };
        assert_eq!(ours, want, "{flag}");
        if let Some(fio) = &fio {
            assert_eq!(syncs_traced(fio, &args), Some(want), "fio {flag}");
        }
    }
}

#[test]
fn pre_read_reads_the_region_before_the_job_as_fio() {
    // Both read the region with read(2) before the job, whose psync I/O is pread64(2).
    let job = corpus("pre_read.fio");
    let args = [job.to_str().unwrap(), "--output-format=terse"];
    let read_bytes = |program: &Path| -> Option<u64> {
        let lines = traced(program, &args, "read")?;
        let bytes = lines
            .iter()
            .filter(|l| l.contains(" read(") && l.contains("pre-read.0.0>"))
            .filter_map(|l| l.rsplit(' ').next()?.parse::<u64>().ok())
            .sum();
        Some(bytes)
    };
    let Some(ours) = read_bytes(Path::new(env!("CARGO_BIN_EXE_iomark"))) else {
        eprintln!("skipped: strace missing or not allowed to trace");
        return;
    };
    assert_eq!(ours, 256 * 1024);
    if fio_installed() {
        assert_eq!(read_bytes(Path::new("fio")), Some(256 * 1024), "fio");
    }
}

#[test]
fn locked_jobs_never_do_io_to_a_shared_file_at_once() {
    // strace shows a system call that another thread's call interrupts as `<unfinished
    // ...>`: with the lock, no two jobs' I/Os to the shared file overlap. (Without it,
    // about a third of them do here; that is not asserted, as it depends on the machine.)
    let dir = tempfile::tempdir().expect("temporary directory");
    let job = dir.path().join("locks.fio");
    std::fs::write(
        &job,
        "[global]\nioengine=psync\nbs=4k\nsize=2m\nfilename=shared.dat\n\
         [writer]\nrw=randwrite\n[reader]\nrw=randread\n[reader-too]\nrw=read\n",
    )
    .expect("write the job file");
    for mode in ["exclusive", "readwrite"] {
        let flag = format!("--lockfile={mode}");
        let args = [flag.as_str(), job.to_str().unwrap(), "--output-format=terse"];
        let Some(lines) =
            traced(Path::new(env!("CARGO_BIN_EXE_iomark")), &args, "pread64,pwrite64")
        else {
            eprintln!("skipped: strace missing or not allowed to trace");
            return;
        };
        let on_file: Vec<&String> = lines.iter().filter(|l| l.contains("shared.dat>")).collect();
        assert!(on_file.len() >= 3 * 512, "{mode}: {} calls", on_file.len());
        // readwrite lets the readers overlap with each other, never with the writer.
        let mut inside: Vec<&str> = Vec::new();
        for l in on_file.iter().filter(|l| l.contains("unfinished") || l.contains("resumed")) {
            let call = if l.contains("pwrite64") { "write" } else { "read" };
            inside.push(call);
        }
        if mode == "exclusive" {
            assert!(inside.is_empty(), "{mode}: {} overlapping calls", inside.len());
        } else {
            assert!(!inside.contains(&"write"), "{mode}: a write overlapped another call");
        }
    }
}

/// A small tmpfs mounted for a test, unmounted when dropped.
struct SmallFs {
    dir: tempfile::TempDir,
}

impl SmallFs {
    /// An 8 MiB tmpfs; `None` (after saying why) when it cannot be mounted here.
    fn mount() -> Option<SmallFs> {
        let dir = tempfile::tempdir().expect("temporary directory");
        let ok = Command::new("mount")
            .args(["-t", "tmpfs", "-o", "size=8m", "tmpfs"])
            .arg(dir.path())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !ok {
            eprintln!("skipped: cannot mount a small tmpfs (needs root)");
            return None;
        }
        Some(SmallFs { dir })
    }

    /// Removes every file in it.
    fn clear(&self) {
        for entry in std::fs::read_dir(self.dir.path()).expect("read the tmpfs").flatten() {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

impl Drop for SmallFs {
    fn drop(&mut self) {
        self.clear();
        let _ = Command::new("umount").arg(self.dir.path()).status();
    }
}

/// For each job of a run in `dir` of fio or iomark with `args`: name, I/Os, bytes and error.
fn fill_run(fio: bool, dir: &Path, args: &[&str]) -> Vec<(String, u64, u64, u64)> {
    let program = if fio { "fio".into() } else { PathBuf::from(env!("CARGO_BIN_EXE_iomark")) };
    let out = Command::new(program)
        .current_dir(dir)
        .env_remove("IOMARK_FAKE_CLOCK_NS")
        .arg("--output-format=json")
        .args(args)
        .output()
        .expect("run");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    let json: Value = serde_json::from_str(&stdout[stdout.find('{').expect("JSON")..]).unwrap();
    let jobs = json["jobs"].as_array().expect("jobs").iter();
    jobs.map(|j| {
        let name = j["jobname"].as_str().unwrap_or("?").to_string();
        (
            name,
            count(j, "write", "total_ios"),
            count(j, "write", "io_bytes"),
            j["error"].as_u64().unwrap_or(0),
        )
    })
    .collect()
}

#[test]
fn fill_device_writes_until_the_file_system_is_full_as_fio() {
    let Some(fs) = SmallFs::mount() else { return };
    let job = corpus("fill_device.fio");
    let unbounded = ["--name=unbounded", "--rw=write", "--bs=64k", "--fill_device=1"];
    for args in [vec![job.to_str().unwrap()], unbounded.to_vec()] {
        fs.clear();
        let ours = fill_run(false, fs.dir.path(), &args);
        // An 8 MiB tmpfs holds 128 blocks of 64 KiB; the write that finds it full counts as
        // issued (with 8 in flight, the 8 that fail do).
        for (name, ios, bytes, error) in &ours {
            assert_eq!((*bytes, *error), (8 << 20, 0), "{name}: {ours:?}");
            let failed = if name == "fill-async" { 8 } else { 1 };
            assert_eq!(*ios, 128 + failed, "{name}: {ours:?}");
        }
        if fio_installed() {
            fs.clear();
            assert_eq!(fill_run(true, fs.dir.path(), &args), ours, "fio and iomark");
        }
    }
    // A job that reads is refused: fio fills the file system first, iomark does not.
    let (code, stderr) = iomark(&["--name=r", "--rw=read", "--size=1m", "--fill_device=1"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("option 'fill_device'"), "{stderr}");
}

#[test]
fn fadvise_hint_gives_fios_advice() {
    let fio = fio_installed().then(|| PathBuf::from("fio"));
    let iomark = PathBuf::from(env!("CARGO_BIN_EXE_iomark"));
    for (rw, hint, want) in [
        ("randread", None, "RANDOM"),
        ("read", None, "SEQUENTIAL"),
        ("randrw", None, "RANDOM"),
        ("randread", Some("0"), ""),
        ("read", Some("random"), "RANDOM"),
        ("randread", Some("sequential"), "SEQUENTIAL"),
    ] {
        let rw = format!("--rw={rw}");
        let hint = hint.map(|h| format!("--fadvise_hint={h}"));
        let mut args = vec!["--name=f", "--bs=4k", "--size=256k", rw.as_str()];
        args.extend(hint.as_deref());
        args.push("--output-format=terse");
        // The advice of the access pattern (invalidate's DONTNEED aside).
        let advice = |program: &Path| -> Option<String> {
            let lines = traced(program, &args, "fadvise64")?;
            let advice: Vec<&str> = lines
                .iter()
                .filter_map(|l| l.split("POSIX_FADV_").nth(1)?.split(')').next())
                .filter(|a| *a != "DONTNEED")
                .collect();
            Some(advice.join(" "))
        };
        let Some(ours) = advice(&iomark) else {
            eprintln!("skipped: strace missing or not allowed to trace");
            return;
        };
        assert_eq!(ours, want, "{args:?}");
        if let Some(fio) = &fio {
            assert_eq!(advice(fio).as_deref(), Some(want), "fio {args:?}");
        }
    }
}
