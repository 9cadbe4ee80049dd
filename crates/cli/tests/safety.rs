//! iomark refuses to write to a block device that is in use, and writes to a free one.
//! Needs root, `losetup`, `mkfs.ext4` and `mount`; skips with a message otherwise (CI runs
//! it as root).

use std::path::PathBuf;
use std::process::Command;

fn iomark(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_iomark")).args(args).output().expect("iomark runs")
}

fn have(program: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// A loop device over a temporary image, detached (and unmounted) on drop.
struct LoopDevice {
    dev: String,
    mount: Option<PathBuf>,
    _dir: tempfile::TempDir,
}

impl LoopDevice {
    fn new() -> Option<LoopDevice> {
        let dir = tempfile::tempdir().ok()?;
        let image = dir.path().join("disk.img");
        std::fs::File::create(&image).ok()?.set_len(32 << 20).ok()?;
        let out = Command::new("losetup").args(["-f", "--show"]).arg(&image).output().ok()?;
        if !out.status.success() {
            return None;
        }
        let dev = String::from_utf8_lossy(&out.stdout).trim().to_string();
        Some(LoopDevice { dev, mount: None, _dir: dir })
    }

    fn mount(&mut self) -> bool {
        let at = self._dir.path().join("mnt");
        let ok = std::fs::create_dir(&at).is_ok()
            && Command::new("mkfs.ext4")
                .args(["-q", &self.dev])
                .status()
                .is_ok_and(|s| s.success())
            && Command::new("mount").arg(&self.dev).arg(&at).status().is_ok_and(|s| s.success());
        if ok {
            self.mount = Some(at);
        }
        ok
    }
}

impl Drop for LoopDevice {
    fn drop(&mut self) {
        if let Some(at) = &self.mount {
            let _ = Command::new("umount").arg(at).status();
        }
        let _ = Command::new("losetup").args(["-d", &self.dev]).status();
    }
}

fn setup() -> Option<LoopDevice> {
    let root = std::fs::read_to_string("/proc/self/status").is_ok_and(|s| {
        s.lines().any(|l| l.starts_with("Uid:") && l.split_whitespace().nth(1) == Some("0"))
    });
    if !root || !have("losetup") || !have("mkfs.ext4") {
        eprintln!("skipped: needs root, losetup and mkfs.ext4");
        return None;
    }
    let dev = LoopDevice::new();
    if dev.is_none() {
        eprintln!("skipped: no loop device could be attached");
    }
    dev
}

fn write_job(dev: &str, extra: &[&str]) -> std::process::Output {
    let filename = format!("--filename={dev}");
    let mut args = vec!["--name=w", filename.as_str(), "--rw=write", "--bs=64k", "--size=1m"];
    args.extend_from_slice(extra);
    args.push("--output-format=json");
    iomark(&args)
}

#[test]
fn a_free_loop_device_is_written_and_a_mounted_one_refused() {
    let Some(mut dev) = setup() else { return };
    let out = write_job(&dev.dev, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(json["jobs"][0]["write"]["io_bytes"], 1 << 20);

    if !dev.mount() {
        eprintln!("skipped: could not make and mount a file system on {}", dev.dev);
        return;
    }
    let out = write_job(&dev.dev, &[]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("is mounted on") && err.contains(&dev.dev), "{err}");
    assert!(out.stdout.is_empty(), "nothing runs, nothing is printed");
    let out = iomark(&[
        "--name=r",
        &format!("--filename={}", dev.dev),
        "--rw=read",
        "--size=1m",
        "--output-format=json",
    ]);
    assert_eq!(out.status.code(), Some(0), "reading a mounted device is allowed");
}
