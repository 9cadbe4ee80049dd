//! fio 3.33 over a direct-I/O loop device over the export: seed 001's job (four groups,
//! libaio, direct, one stonewall each) on ext4, as fuseuring's README does, scaled to a
//! small machine (32 MiB per group, iodepth 64); and fio's trims of the device, which reach
//! the exporter as FALLOCATE punching holes.

use super::{exclusive, transports, Export};
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

/// A loop device (`--direct-io=on`) over a file, optionally with ext4 mounted on it; all
/// taken down when dropped, on failure too.
struct LoopOver {
    dev: Option<String>,
    mnt: Option<PathBuf>,
}

impl LoopOver {
    /// A direct-I/O loop device over `file`; `None` (with the skip message) when losetup
    /// cannot make one.
    fn new(file: &Path) -> Option<LoopOver> {
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
        Some(LoopOver { dev: Some(text(&out.stdout).trim().to_string()), mnt: None })
    }

    /// The device's path.
    fn dev(&self) -> &str {
        self.dev.as_deref().unwrap_or_default()
    }

    /// Makes ext4 on the device and mounts it at `mnt`.
    fn mount_ext4(&mut self, mnt: &Path) {
        let dev = self.dev().to_string();
        let made =
            command("mkfs.ext4").args(["-q", "-F", &dev]).status().is_ok_and(|s| s.success());
        assert!(made, "mkfs.ext4 on {dev} over the export");
        std::fs::create_dir_all(mnt).unwrap();
        let mounted = command("mount").arg(&dev).arg(mnt).status().is_ok_and(|s| s.success());
        assert!(mounted, "mount {dev}");
        self.mnt = Some(mnt.to_path_buf());
    }
}

impl Drop for LoopOver {
    fn drop(&mut self) {
        if let Some(mnt) = self.mnt.take() {
            let _ = command("umount").arg(&mnt).status();
        }
        if let Some(dev) = self.dev.take() {
            let _ = command("losetup").arg("-d").arg(&dev).status();
        }
    }
}

/// Whether fio 3.33 and mkfs.ext4 are here; prints what is missing.
fn tools_installed() -> bool {
    if !fio_3_33_installed() {
        return false;
    }
    if command("mkfs.ext4").arg("-V").output().is_err() {
        eprintln!("skipped: mkfs.ext4 not installed");
        return false;
    }
    true
}

#[test]
fn fio_runs_seed_001s_four_groups_on_ext4_over_loop_over_the_export() {
    let Some(_one) = exclusive().filter(|_| tools_installed()) else { return };
    for transport in transports() {
        let export = Export::start(256 << 20, transport, &["--max-write=1m"]);
        let bench = export.dir.path().join("bench");
        let Some(mut lo) = LoopOver::new(&export.volume()) else { return };
        lo.mount_ext4(&bench);
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

#[test]
fn fios_trims_of_a_loop_device_over_the_export_punch_holes_in_the_backing_file() {
    let Some(_one) = exclusive().filter(|_| tools_installed()) else { return };
    for transport in transports() {
        let export = Export::start(4 << 20, transport, &[]);
        std::fs::write(&export.backing, vec![0x5au8; 4 << 20]).unwrap();
        let Some(lo) = LoopOver::new(&export.volume()) else { return };
        let out = command("fio")
            .current_dir(export.dir.path())
            .args(["--output-format=json", "--name=t", "--ioengine=psync", "--rw=trim"])
            .args(["--bs=64k", "--size=1m", &format!("--filename={}", lo.dev())])
            .output()
            .unwrap();
        assert!(out.status.success(), "{transport}: fio: {}", text(&out.stderr));
        let job = &report_json("fio", &out)["jobs"][0];
        assert_eq!(job["error"], 0, "{transport}: {job}");
        assert_eq!(job["trim"]["total_ios"], 16, "{transport}: {job}");
        drop(lo);
        let backing = std::fs::read(&export.backing).unwrap();
        assert!(backing[..1 << 20].iter().all(|&b| b == 0), "{transport}: not punched");
        assert!(backing[1 << 20..].iter().all(|&b| b == 0x5a), "{transport}: punched too far");
        let summary = export.finish();
        assert!(super::summary_count(&summary, "trim", 1) >= 1, "{summary}");
        assert_eq!(super::summary_count(&summary, "trim", 3), 0, "{summary}");
    }
}
