//! The operations of a single-file export, seen from its users: STATFS, SETATTR of the size
//! and writes past the end (a regular backing file follows), FALLOCATE punching holes
//! (iomark's trims on the volume, with injected trim faults), ENOSYS for what a single file
//! does not do, and a block device as the backing store (its size, held exclusively, no
//! writes past its end).

use super::{exclusive, summary_count, transports, Export};
use crate::support::devices::LoopDevice;
use crate::support::report::report_json;
use crate::support::run::{command, text, IOMARK};
use std::os::unix::fs::{FileExt, OpenOptionsExt};

/// `stat -f` of `path`: (total blocks, fundamental block size).
fn statfs(path: &std::path::Path) -> (u64, u64) {
    let out = command("stat").args(["-f", "-c", "%b %S"]).arg(path).output().unwrap();
    let said = text(&out.stdout);
    let mut fields = said.split_whitespace().map(|n| n.parse::<u64>().expect("a number"));
    (fields.next().unwrap(), fields.next().unwrap())
}

#[test]
fn statfs_truncate_and_writes_past_the_end_follow_the_backing_file_and_the_rest_is_enosys() {
    let Some(_one) = exclusive() else { return };
    for transport in transports() {
        let export = Export::start(1 << 20, transport, &[]);
        assert_eq!(statfs(&export.mnt), (256, 4096), "{transport}: STATFS");
        let file = std::fs::OpenOptions::new().read(true).write(true).open(export.volume());
        let file = file.unwrap();
        file.set_len(8192).unwrap();
        assert_eq!(std::fs::metadata(&export.backing).unwrap().len(), 8192, "{transport}");
        assert_eq!(file.metadata().unwrap().len(), 8192, "{transport}");
        file.write_all_at(b"past", 16384).unwrap();
        assert_eq!(std::fs::metadata(&export.backing).unwrap().len(), 16388, "{transport}");
        let mut back = [0u8; 4];
        file.read_exact_at(&mut back, 16384).unwrap();
        assert_eq!(&back, b"past");
        drop(file);
        let err = std::fs::create_dir(export.mnt.join("dir")).unwrap_err();
        assert_eq!(err.raw_os_error(), Some(libc::ENOSYS), "{transport}: MKDIR");
        let err = std::fs::rename(export.volume(), export.mnt.join("other")).unwrap_err();
        assert_eq!(err.raw_os_error(), Some(libc::ENOSYS), "{transport}: RENAME");
        export.finish();
    }
}

/// An iomark trim job (psync, 64 KiB) over the first 512 KiB of `export`'s volume, with
/// `extra` options; its JSON job.
fn trim_job(export: &Export, extra: &[&str]) -> serde_json::Value {
    let job = ["--output-format=json", "--name=t", "--ioengine=psync", "--rw=trim"];
    let out = export.job(job.iter().chain(&["--bs=64k", "--size=512k"]).chain(extra));
    report_json(IOMARK, &out)["jobs"][0].clone()
}

#[test]
fn trims_punch_holes_in_the_backing_file_and_injected_trim_faults_are_the_jobs_errors() {
    let Some(_one) = exclusive() else { return };
    for transport in transports() {
        let export = Export::start(1 << 20, transport, &[]);
        std::fs::write(&export.backing, vec![0x5au8; 1 << 20]).unwrap();
        let job = trim_job(&export, &[]);
        assert_eq!(job["error"], 0, "{transport}: {job}");
        let backing = std::fs::read(&export.backing).unwrap();
        assert_eq!(backing.len(), 1 << 20, "{transport}: a punched hole keeps the size");
        assert!(backing[..512 << 10].iter().all(|&b| b == 0), "{transport}: not punched");
        assert!(backing[512 << 10..].iter().all(|&b| b == 0x5a), "{transport}: punched too far");
        let summary = export.finish();
        assert_eq!(summary_count(&summary, "trim", 1), 8, "{summary}");

        let export = Export::start(1 << 20, transport, &["--fail=EIO:100%:trim"]);
        let job = trim_job(&export, &["--continue_on_error=all"]);
        assert_eq!(job["total_err"], 8, "{transport}: {job}");
        assert_eq!(job["first_error"], libc::EIO, "{transport}: {job}");
        let summary = export.finish();
        assert_eq!(summary_count(&summary, "trim", 3), 8, "{summary}");
    }
}

#[test]
fn a_free_block_device_is_exported_whole_and_held_exclusively() {
    let Some(_one) = exclusive() else { return };
    for transport in transports() {
        let Some(dev) = LoopDevice::new(4 << 20) else { return };
        let dir = crate::support::run::tempdir();
        let export = Export::over(dir, dev.dev.clone().into(), transport, &[]);
        assert_eq!(std::fs::metadata(export.volume()).unwrap().len(), 4 << 20, "{transport}");
        // The exporter holds the device exclusively: nothing else can claim (mount) it.
        let claim =
            std::fs::OpenOptions::new().read(true).custom_flags(libc::O_EXCL).open(&dev.dev);
        assert_eq!(claim.unwrap_err().raw_os_error(), Some(libc::EBUSY), "{transport}");
        let file = std::fs::OpenOptions::new().read(true).write(true).open(export.volume());
        let file = file.unwrap();
        file.write_all_at(b"block", 4096).unwrap();
        file.sync_data().unwrap();
        let err = file.write_at(b"beyond", 4 << 20).unwrap_err();
        assert_eq!(err.raw_os_error(), Some(libc::ENOSPC), "{transport}: past the end");
        drop(file);
        let mut back = [0u8; 5];
        let raw = std::fs::File::open(&dev.dev).unwrap();
        raw.read_exact_at(&mut back, 4096).unwrap();
        assert_eq!(&back, b"block", "{transport}: the data is on the device");
        drop(raw);
        export.finish();
    }
}
