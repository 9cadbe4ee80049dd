//! An export's life and its guards: a write acknowledged by fsync survives the exporter's
//! SIGKILL, the next run explains the stale mount it leaves and how to clean it up,
//! `--daemon` returns once the export is ready, `--readonly` refuses writes, a block
//! device in use is refused with the runner's reason, and a switched-off FUSE-over-io_uring
//! is explained rather than used.

use super::{exclusive, unmount, Export, SwitchGuard, SWITCH};
use crate::support::devices::LoopDevice;
use crate::support::process::poll_until;
use crate::support::run::{command, tempdir, text, IOMARK};
use std::os::unix::fs::FileExt;
use std::path::Path;

#[test]
fn an_fsynced_write_survives_sigkill_and_the_next_run_explains_the_stale_mount() {
    let Some(_one) = exclusive() else { return };
    for transport in super::transports() {
        let export = Export::start(1 << 20, transport, &[]);
        let data: Vec<u8> = (0..8192u32).map(|i| (i % 253) as u8 + 1).collect();
        let file = std::fs::OpenOptions::new().write(true).open(export.volume()).unwrap();
        file.write_all_at(&data, 12288).unwrap();
        file.sync_data().unwrap();
        assert!(export.run.signal("KILL"));
        let mut export = export;
        let _ = export.run.wait();
        drop(file);
        // The kernel ends the connection when the last reference to the exporter's
        // /dev/fuse goes; over io_uring that is the ring's teardown, which the kernel
        // defers to a worker and can come after wait() returns. Until then the mount
        // still looks served.
        let ended = poll_until(|| match std::fs::metadata(&export.mnt) {
            Err(e) if e.raw_os_error() == Some(libc::ENOTCONN) => Some(()),
            _ => None,
        });
        assert!(ended.is_some(), "{transport}: the killed exporter's connection never ended");
        let backing = std::fs::read(&export.backing).unwrap();
        assert_eq!(&backing[12288..12288 + 8192], &data[..], "{transport}: acknowledged data lost");

        let out = command(IOMARK)
            .args(["fuse-export", "--transport=dev"])
            .arg(&export.backing)
            .arg(&export.mnt)
            .output()
            .unwrap();
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(
            err.contains("stale") && err.contains(&format!("umount -l {}", export.mnt.display())),
            "{err}"
        );
        unmount(&export.mnt);
    }
}

#[test]
fn a_daemon_returns_once_ready_and_a_readonly_export_refuses_writes() {
    let Some(_one) = exclusive() else { return };
    for transport in super::transports() {
        let _switch = SwitchGuard::new();
        let dir = tempdir();
        let backing = dir.path().join("backing.img");
        std::fs::write(&backing, vec![7u8; 65536]).unwrap();
        let mnt = dir.path().join("mnt");
        std::fs::create_dir(&mnt).unwrap();
        let summary = dir.path().join("summary.txt");
        let out = command(IOMARK)
            .args(["fuse-export", &format!("--transport={transport}"), "--enable-uring"])
            .args(["--daemon", "--readonly"])
            .arg(format!("--summary={}", summary.display()))
            .arg(&backing)
            .arg(&mnt)
            .output()
            .unwrap();
        let guard = Unmount(&mnt);
        assert_eq!(out.status.code(), Some(0), "{transport}: {}", text(&out.stderr));
        let said = text(&out.stdout);
        assert!(said.contains("exported as") && said.contains("running as pid"), "{said}");
        assert!(said.contains(&format!("transport {transport}")), "{said}");
        // Ready means ready: the volume answers at once.
        assert_eq!(std::fs::read(mnt.join("volume")).unwrap(), vec![7u8; 65536]);
        let err = std::fs::OpenOptions::new().write(true).open(mnt.join("volume")).unwrap_err();
        assert_eq!(err.raw_os_error(), Some(libc::EROFS), "{transport}");
        drop(guard);
        let written =
            poll_until(|| std::fs::read_to_string(&summary).ok().filter(|s| s.ends_with('\n')));
        let written = written.expect("the daemon wrote no summary after its unmount");
        let channel = format!("over_{transport}");
        assert!(super::summary_value(&written, &channel) > 0, "{transport}: {written}");
    }
}

/// Unmounts when dropped.
struct Unmount<'a>(&'a Path);

impl Drop for Unmount<'_> {
    fn drop(&mut self) {
        unmount(self.0);
    }
}

#[test]
fn a_mounted_block_device_is_refused_with_the_reason() {
    let Some(_one) = exclusive() else { return };
    let Some(mut dev) = LoopDevice::new(8 << 20) else { return };
    if !dev.mount() {
        eprintln!("skipped: cannot make and mount ext4 on a loop device");
        return;
    }
    let dir = tempdir();
    let out = command(IOMARK).args(["fuse-export", &dev.dev]).arg(dir.path()).output().unwrap();
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("refusing to export") && err.contains("is mounted on"), "{err}");
}

#[test]
fn a_switched_off_uring_transport_is_explained_and_auto_says_what_it_took() {
    let Some(_one) = exclusive() else { return };
    if !Path::new(SWITCH).exists() {
        eprintln!("skipped: this kernel has no FUSE-over-io_uring switch");
        return;
    }
    let switch = SwitchGuard::new();
    switch.set("N");
    let dir = tempdir();
    let backing = dir.path().join("b.img");
    std::fs::write(&backing, vec![0u8; 4096]).unwrap();
    let out = command(IOMARK)
        .args(["fuse-export", "--transport=uring"])
        .arg(&backing)
        .arg(dir.path())
        .output()
        .unwrap();
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("switched off") && err.contains("--enable-uring") && err.contains(SWITCH),
        "{err}"
    );
    drop(dir);

    let export = Export::start(4096, "auto", &[]);
    let said = export.run.stdout.text();
    assert!(said.contains("transport dev (FUSE-over-io_uring is switched off"), "{said}");
    export.finish();
    assert_eq!(std::fs::read_to_string(SWITCH).unwrap().trim(), "N");
    drop(switch);
}

#[test]
fn sigint_and_sigterm_unmount_flush_and_exit_zero_with_the_summary() {
    let Some(_one) = exclusive() else { return };
    let signals = ["INT", "TERM"];
    for (transport, signal) in super::transports().into_iter().flat_map(|t| signals.map(|s| (t, s)))
    {
        let mut export = Export::start(1 << 20, transport, &[]);
        std::fs::write(export.volume(), b"hello").unwrap();
        assert!(export.run.signal(signal));
        let status = export.run.wait();
        assert_eq!(status.code(), Some(0), "{transport}/{signal}: {}", export.run.stderr.text());
        let out = export.run.stdout.text();
        assert!(out.contains("unmounted") && out.contains("summary"), "{out}");
        let mounts = std::fs::read_to_string("/proc/self/mounts").unwrap();
        assert!(!mounts.contains(&export.mnt.display().to_string()), "still mounted");
        assert_eq!(&std::fs::read(&export.backing).unwrap()[..5], b"hello");
    }
}
