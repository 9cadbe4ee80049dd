//! `fill_device`: a job that writes until its file system is full, on a small tmpfs (root
//! only; skipped with a message otherwise), as fio 3.33 does.

use crate::support::corpus::good;
use crate::support::devices::SmallFs;
use crate::support::report::{count, report_json};
use crate::support::run::{run_in, tempdir, text, IOMARK};
use crate::support::tools::fio_installed;
use std::path::Path;

/// For each job of a run in `dir` of fio or iomark with `args`: name, I/Os, bytes and error.
fn fill_run(program: &str, dir: &Path, args: &[&str]) -> Vec<(String, u64, u64, u64)> {
    let out = run_in(dir, program, &[&["--output-format=json"][..], args].concat());
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", text(&out.stderr));
    let json = report_json(program, &out);
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
    let job = good("fill_device.fio");
    let unbounded = ["--name=unbounded", "--rw=write", "--bs=64k", "--fill_device=1"];
    for args in [vec![job.to_str().unwrap()], unbounded.to_vec()] {
        fs.clear();
        let ours = fill_run(IOMARK, fs.path(), &args);
        // An 8 MiB tmpfs holds 128 blocks of 64 KiB; the write that finds it full counts as
        // issued (with 8 in flight, the 8 that fail do).
        for (name, ios, bytes, error) in &ours {
            assert_eq!((*bytes, *error), (8 << 20, 0), "{name}: {ours:?}");
            let failed = if name == "fill-async" { 8 } else { 1 };
            assert_eq!(*ios, 128 + failed, "{name}: {ours:?}");
        }
        if fio_installed() {
            fs.clear();
            assert_eq!(fill_run("fio", fs.path(), &args), ours, "fio and iomark");
        }
    }
    // A job that reads is refused: fio fills the file system first, iomark does not.
    let args = ["--name=r", "--rw=read", "--size=1m", "--fill_device=1"];
    let out = run_in(tempdir().path(), IOMARK, &args);
    let (code, stderr) = (out.status.code(), text(&out.stderr));
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("option 'fill_device'"), "{stderr}");
}
