//! fio 3.33 runs seed 001's job (four groups, libaio, direct, one stonewall each) on ext4
//! over a direct-I/O loop device over the export, as fuseuring's README does, scaled to a
//! small machine: 32 MiB per group, iodepth 64.

use super::{can_export, serial, transports, Export};
use crate::support::report::report_json;
use crate::support::run::{command, text};
use crate::support::tools::fio_3_33_installed;
use std::path::{Path, PathBuf};

/// Seed 001's job, scaled.
const SEED_JOB: &str = "\
[global]
ioengine=libaio
direct=1
bs=4k
iodepth=64
size=32m
filename=ssd.test.file

[seq-read]
rw=read
stonewall

[rand-read]
rw=randread
stonewall

[seq-write]
rw=write
stonewall

[rand-write]
rw=randwrite
stonewall
";

/// A loop device (`--direct-io=on`) over a file, with ext4 mounted on it; all taken down
/// when dropped, on failure too.
struct LoopExt4 {
    dev: Option<String>,
    mnt: Option<PathBuf>,
}

impl LoopExt4 {
    fn over(file: &Path, mnt: &Path) -> Option<LoopExt4> {
        let out = command("losetup")
            .args(["--direct-io=on", "--find", "--show"])
            .arg(file)
            .output()
            .ok()
            .filter(|o| o.status.success());
        let Some(out) = out else {
            eprintln!("skipped: losetup --direct-io=on failed");
            return None;
        };
        let mut lo = LoopExt4 { dev: Some(text(&out.stdout).trim().to_string()), mnt: None };
        let dev = lo.dev.clone().unwrap_or_default();
        let made =
            command("mkfs.ext4").args(["-q", "-F", &dev]).status().is_ok_and(|s| s.success());
        assert!(made, "mkfs.ext4 on {dev} over the export");
        std::fs::create_dir_all(mnt).unwrap();
        let mounted = command("mount").arg(&dev).arg(mnt).status().is_ok_and(|s| s.success());
        assert!(mounted, "mount {dev}");
        lo.mnt = Some(mnt.to_path_buf());
        Some(lo)
    }
}

impl Drop for LoopExt4 {
    fn drop(&mut self) {
        if let Some(mnt) = self.mnt.take() {
            let _ = command("umount").arg(&mnt).status();
        }
        if let Some(dev) = self.dev.take() {
            let _ = command("losetup").arg("-d").arg(&dev).status();
        }
    }
}

#[test]
fn fio_runs_seed_001s_four_groups_on_ext4_over_loop_over_the_export() {
    if !can_export() || !fio_3_33_installed() {
        return;
    }
    if command("mkfs.ext4").arg("-V").output().is_err() {
        eprintln!("skipped: mkfs.ext4 not installed");
        return;
    }
    let _one = serial();
    for transport in transports() {
        let export = Export::start(256 << 20, transport, &["--max-write=1m"]);
        let bench = export.dir.path().join("bench");
        let Some(lo) = LoopExt4::over(&export.volume(), &bench) else { return };
        std::fs::write(bench.join("ssd-test.fio"), SEED_JOB).unwrap();
        let out = command("fio")
            .current_dir(&bench)
            .args(["--output-format=json", "ssd-test.fio"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{transport}: fio: {}", text(&out.stderr));
        let report = report_json("fio", &out);
        let jobs = report["jobs"].as_array().unwrap();
        let names: Vec<&str> = jobs.iter().map(|j| j["jobname"].as_str().unwrap()).collect();
        assert_eq!(names, ["seq-read", "rand-read", "seq-write", "rand-write"]);
        for (j, dir) in jobs.iter().zip(["read", "read", "write", "write"]) {
            assert_eq!(j["error"], 0, "{transport}: {j}");
            assert_eq!(j[dir]["io_bytes"], 32 << 20, "{transport}: {}", j["jobname"]);
        }
        drop(lo);
        let summary = export.finish();
        assert!(super::summary_count(&summary, "write", 2) >= 32 << 20, "{summary}");
    }
}
