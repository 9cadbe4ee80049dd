//! The `e4defrag` engine against fio 3.33, on an ext4 file system the test makes on a loop
//! device, mounts, and takes down in a guard (it needs root, losetup and mkfs.ext4, and
//! skips with the reason without them). The same command line under both programs, each in
//! a fresh directory of the file system, compared by exit code, the job's error, its reads
//! and writes (I/Os and bytes), the `EXT4_IOC_MOVE_EXT` ioctls and the `fallocate` calls on
//! the donor under strace, and the donor's size afterwards.

use crate::support::devices::LoopDevice;
use crate::support::report::report_json;
use crate::support::run::{iomark_in, text, IOMARK};
use crate::support::tools::{fio_installed, strace_works, traced_run};
use std::path::Path;

/// What a run gave: exit code, the job's error, its (I/Os, bytes) of reads and of writes,
/// the move ioctls, the fallocate calls on the donor, and the donor's size.
#[derive(Debug, PartialEq, Eq)]
struct Outcome {
    code: Option<i32>,
    error: u64,
    reads: (u64, u64),
    writes: (u64, u64),
    moves: usize,
    donor_fallocates: usize,
    donor_size: Option<u64>,
}

/// The ext4 file system of the test, or `None` (having said why) when it cannot be made.
fn ext4() -> Option<LoopDevice> {
    let mut dev = LoopDevice::new(32 << 20)?;
    if !dev.mount() {
        eprintln!("skipped: cannot make and mount ext4 on a loop device (mkfs.ext4, mount)");
        return None;
    }
    Some(dev)
}

/// Runs `program` with `args` (an e4defrag job on `file`, donor `donor`) in a fresh
/// directory `name` of `fs`, under strace.
fn run(fs: &Path, name: &str, program: &str, args: &[&str]) -> Outcome {
    let dir = fs.join(name);
    std::fs::create_dir(&dir).expect("a directory on the ext4 file system");
    let mut all = vec!["--name=d", "--ioengine=e4defrag", "--filename=f"];
    all.extend(args);
    all.push("--output-format=json");
    let calls = "ioctl,fallocate";
    let (out, lines) = traced_run(&dir, program, &all, calls).expect("strace");
    let job = report_json(program, &out)["jobs"][0].clone();
    let n = |d: &str, f: &str| job[d][f].as_u64().unwrap_or(0);
    let outcome = Outcome {
        code: out.status.code(),
        error: job["error"].as_u64().unwrap_or(0),
        reads: (n("read", "total_ios"), n("read", "io_bytes")),
        writes: (n("write", "total_ios"), n("write", "io_bytes")),
        // strace shows EXT4_IOC_MOVE_EXT as _IOC(_IOC_READ|_IOC_WRITE, 0x66, 0xf, 0x28).
        moves: lines.iter().filter(|l| l.contains(" ioctl(") && l.contains("0x66, 0xf")).count(),
        donor_fallocates: lines
            .iter()
            .filter(|l| l.contains(" fallocate(") && l.contains("/donor>"))
            .count(),
        donor_size: std::fs::metadata(dir.join("donor")).ok().map(|m| m.len()),
    };
    std::fs::remove_dir_all(&dir).expect("remove the run's directory");
    outcome
}

#[test]
fn e4defrag_moves_each_write_as_fio_does() {
    if !fio_installed() || !strace_works() {
        return;
    }
    let Some(dev) = ext4() else { return };
    let fs = dev.mounted().expect("mounted");
    let ok = |reads, writes, moves, donor_fallocates, donor_size| Outcome {
        code: Some(0),
        error: 0,
        reads,
        writes,
        moves,
        donor_fallocates,
        donor_size: Some(donor_size),
    };
    let cases: [(&[&str], Outcome); 5] = [
        // The donor is allocated once, over filesize; one move per write.
        (
            &["--rw=write", "--bs=64k", "--filesize=1m", "--donorname=donor"],
            ok((0, 0), (16, 1 << 20), 16, 1, 1 << 20),
        ),
        // inplace: each write allocates its range in the donor, then frees it.
        (
            &["--rw=randwrite", "--bs=4k", "--filesize=256k", "--donorname=donor", "--inplace=1"],
            ok((0, 0), (64, 256 << 10), 64, 64, 0),
        ),
        // Blocks smaller than the file system's: each write moves the block it touches.
        (
            &["--rw=write", "--bs=512", "--filesize=8k", "--donorname=donor"],
            ok((0, 0), (16, 8192), 16, 1, 8192),
        ),
        // A read fails with EINVAL, the job's error.
        (
            &["--rw=randrw", "--bs=64k", "--filesize=512k", "--donorname=donor"],
            Outcome {
                code: Some(1),
                error: 22,
                reads: (1, 0),
                ..ok((0, 0), (0, 0), 0, 1, 512 << 10)
            },
        ),
        // So does a sync.
        (
            &["--rw=write", "--fsync=2", "--bs=64k", "--filesize=256k", "--donorname=donor"],
            Outcome { code: Some(1), error: 22, ..ok((0, 0), (2, 128 << 10), 2, 1, 256 << 10) },
        ),
    ];
    for (i, (args, want)) in cases.iter().enumerate() {
        let fio = run(fs, &format!("fio{i}"), "fio", args);
        let iomark = run(fs, &format!("iomark{i}"), IOMARK, args);
        assert_eq!(iomark, *want, "iomark {args:?}");
        assert_eq!(fio, iomark, "fio and iomark {args:?}");
    }
}

#[test]
fn without_filesize_the_donor_takes_the_files_size_and_without_a_donor_the_job_is_refused() {
    let Some(dev) = ext4() else { return };
    let fs = dev.mounted().expect("mounted");
    // fio 3.33 allocates the donor over `filesize` only, and without it fails the job.
    let args = ["--name=d", "--ioengine=e4defrag", "--filename=f", "--rw=write", "--bs=64k"];
    let out = iomark_in(fs, &[&args[..], &["--size=1m", "--donorname=donor"]].concat(), false);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
    assert_eq!(std::fs::metadata(fs.join("donor")).map(|m| m.len()).ok(), Some(1 << 20));
    let out = iomark_in(fs, &[&args[..], &["--size=1m"]].concat(), false);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("option 'donorname'"), "{}", text(&out.stderr));
}
