//! iomark refuses to write to a block device that is in use, and writes to a free one.
//! Needs root, `losetup`, `mkfs.ext4` and `mount`; skips with a message otherwise (CI runs
//! it as root).

use crate::support::devices::LoopDevice;
use crate::support::run::{iomark_in, tempdir, text};
use crate::support::tools::have;

/// Runs iomark with `args` in a temporary directory.
fn iomark(args: &[&str]) -> std::process::Output {
    iomark_in(tempdir().path(), args, false)
}

/// A loop device of 32 MiB; `None` (after saying why) without root, `losetup` or
/// `mkfs.ext4`.
fn setup() -> Option<LoopDevice> {
    let root = std::fs::read_to_string("/proc/self/status").is_ok_and(|s| {
        s.lines().any(|l| l.starts_with("Uid:") && l.split_whitespace().nth(1) == Some("0"))
    });
    if !root {
        eprintln!("skipped: needs root");
        return None;
    }
    if !have("losetup", &["--version"]) || !have("mkfs.ext4", &["-V"]) {
        return None;
    }
    LoopDevice::new(32 << 20)
}

fn write_to(dev: &str, extra: &[&str]) -> std::process::Output {
    let filename = format!("--filename={dev}");
    let mut args = vec!["--name=w", filename.as_str(), "--rw=write", "--bs=64k", "--size=1m"];
    args.extend_from_slice(extra);
    args.push("--output-format=json");
    iomark(&args)
}

#[test]
fn a_free_loop_device_is_written_and_a_mounted_one_refused() {
    let Some(mut dev) = setup() else { return };
    let out = write_to(&dev.dev, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(json["jobs"][0]["write"]["io_bytes"], 1 << 20);

    if !dev.mount() {
        eprintln!("skipped: could not make and mount a file system on {}", dev.dev);
        return;
    }
    let out = write_to(&dev.dev, &[]);
    let err = text(&out.stderr);
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
