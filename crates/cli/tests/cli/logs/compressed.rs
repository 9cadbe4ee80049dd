//! Compressed logs (`log_store_compressed`, `log_compression`, `log_compression_cpus`) and
//! `--inflate-log`, in fio 3.33's format: iomark's `.fz` files read back (by iomark, and by
//! fio where installed) as the plain logs of the same run, and fio's read back by iomark
//! as fio reads them.

use super::{fio_ok, logs_in, read};
use crate::support::run::{iomark_in, iomark_ok, tempdir, text};
use crate::support::tools::fio_installed;
use std::path::Path;

/// Every kind of log, per I/O and windowed, with the optional columns; two clones.
const JOBS: &str = "[global]
ioengine=null
size=1g
bs=4k
number_ios=3000
write_lat_log=l
write_bw_log=b
write_iops_log=i
write_hist_log=h
log_hist_msec=1
log_offset=1
[per_io]
rw=randrw
numjobs=2
[windowed]
rw=randrw
log_avg_msec=2
log_prio=1
log_hist_coarseness=2
";

/// The job file with `extra` options in its global section.
fn jobs(extra: &str) -> String {
    JOBS.replace("[global]\n", &format!("[global]\n{extra}"))
}

/// `program --inflate-log=name` in `dir`, which must succeed.
fn inflate(program: &str, dir: &Path, name: &str) -> String {
    let arg = format!("--inflate-log={name}");
    let out = match program {
        "fio" => fio_ok(dir, &[&arg]),
        _ => iomark_ok(dir, &[&arg], false),
    };
    text(&out.stdout)
}

#[test]
fn compressed_logs_inflate_to_the_plain_logs_of_the_same_run() {
    // Under the fake clock a run's logs are the same every time: the plain run's files
    // are what the compressed run's must read back as.
    let (plain, packed) = (tempdir(), tempdir());
    std::fs::write(plain.path().join("j.fio"), JOBS).expect("job file");
    iomark_ok(plain.path(), &["--output=/dev/null", "j.fio"], true);
    let names = logs_in(plain.path());
    assert_eq!(names.len(), 3 * 6, "{names:?}");
    for extra in ["log_store_compressed=1\n", "log_store_compressed=1\nlog_compression=1k\n"] {
        std::fs::write(packed.path().join("j.fio"), jobs(extra)).expect("job file");
        iomark_ok(packed.path(), &["--output=/dev/null", "j.fio"], true);
        assert!(logs_in(packed.path()).is_empty(), "{extra}: plain logs written too");
        for name in &names {
            let expected = read(plain.path(), name);
            assert!(!expected.is_empty() || name.contains("slat"), "{name} is empty");
            let fz = format!("{name}.fz");
            assert_eq!(inflate("iomark", packed.path(), &fz), expected, "{extra}: {fz}");
            // fio reads iomark's files; not the histogram logs, whose rows fio 3.33 does
            // not store (it stores the address of their bins).
            if fio_installed() && !name.contains("hist") {
                assert_eq!(inflate("fio", packed.path(), &fz), expected, "fio: {extra}: {fz}");
            }
        }
    }
    // log_compression alone keeps the plain logs, as in fio.
    let alone = tempdir();
    std::fs::write(alone.path().join("j.fio"), jobs("log_compression=4k\n")).expect("job file");
    iomark_ok(alone.path(), &["--output=/dev/null", "j.fio"], true);
    for name in &names {
        assert_eq!(read(alone.path(), name), read(plain.path(), name), "{name}");
    }
}

#[test]
fn shared_compressed_logs_hold_every_jobs_rows() {
    // per_job_logs=0: the jobs append their streams to one file.
    let (plain, packed) = (tempdir(), tempdir());
    let shared = "per_job_logs=0\nlog_compression_cpus=0\n";
    std::fs::write(plain.path().join("j.fio"), jobs(shared)).expect("job file");
    iomark_ok(plain.path(), &["--output=/dev/null", "j.fio"], true);
    let packed_jobs = jobs(&format!("{shared}log_store_compressed=1\n"));
    std::fs::write(packed.path().join("j.fio"), packed_jobs).expect("job file");
    iomark_ok(packed.path(), &["--output=/dev/null", "j.fio"], true);
    let sorted = |s: String| {
        let mut lines: Vec<String> = s.lines().map(str::to_string).collect();
        lines.sort();
        lines
    };
    for name in logs_in(plain.path()) {
        let got = inflate("iomark", packed.path(), &format!("{name}.fz"));
        assert_eq!(sorted(got), sorted(read(plain.path(), &name)), "{name}");
    }
}

#[test]
fn fios_compressed_logs_inflate_as_fio_inflates_them() {
    if !fio_installed() {
        return;
    }
    let dir = tempdir();
    std::fs::write(dir.path().join("j.fio"), jobs("log_store_compressed=1\nlog_compression=4k\n"))
        .expect("job file");
    fio_ok(dir.path(), &["--output=/dev/null", "j.fio"]);
    let mut files: Vec<String> = std::fs::read_dir(dir.path())
        .expect("read dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".log.fz"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 3 * 6, "{files:?}");
    for fz in files {
        // fio 3.33 leaves some logs without rows empty, and cannot read them back.
        if std::fs::metadata(dir.path().join(&fz)).is_ok_and(|m| m.len() == 0) {
            let out = iomark_in(dir.path(), &[&format!("--inflate-log={fz}")], false);
            assert_eq!(out.status.code(), Some(2), "{fz}: {}", text(&out.stderr));
            assert!(text(&out.stderr).contains("the file is empty"), "{}", text(&out.stderr));
            continue;
        }
        let theirs = inflate("fio", dir.path(), &fz);
        assert_eq!(inflate("iomark", dir.path(), &fz), theirs, "{fz}");
    }
}

#[test]
fn inflate_log_refuses_what_is_no_compressed_log() {
    let dir = tempdir();
    std::fs::write(dir.path().join("plain.log"), "0, 10, 0, 4096, 0\n").expect("file");
    for (name, why) in [("missing.fz", "No such file"), ("plain.log", "not a compressed log")] {
        let out = iomark_in(dir.path(), &[&format!("--inflate-log={name}")], false);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        assert!(err.contains(&format!("--inflate-log '{name}'")) && err.contains(why), "{err}");
        assert!(out.stdout.is_empty(), "{name}");
    }
    // A CPU the system does not have.
    let args = ["--name=j", "--ioengine=null", "--size=1m", "--write_lat_log=j"];
    let out = iomark_in(dir.path(), &[&args[..], &["--log_compression_cpus=4095"]].concat(), true);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("log_compression_cpus"), "{}", text(&out.stderr));
}
