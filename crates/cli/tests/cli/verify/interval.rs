//! `verify_interval` as fio 3.33 lays it out: an interval larger than the block size, one
//! that does not divide it, and block sizes that vary. Both programs write the same job;
//! the headers of the two files (where each starts and the length it covers) must be the
//! same, and with fixed block sizes each program verifies the other's file.

use crate::support::run::{command, tempdir, text, IOMARK};
use crate::support::tools::fio_installed;
use std::path::Path;

/// Jobs, as arguments after `--rw=write --size=96k --verify=crc32c`; `true` where the
/// blocks are the same in both programs (fixed sizes), so that the header positions and
/// the cross-verification are compared too; otherwise only the lengths the headers cover.
const CASES: &[(&[&str], bool)] = &[
    (&["--bs=4k", "--verify_interval=8k"], true),
    (&["--bs=4k", "--verify_interval=1536"], true),
    (&["--bs=4k", "--verify_interval=1k"], true),
    (&["--bs=6k", "--verify_interval=1536"], true),
    (&["--bs=6k", "--verify_interval=4k"], true),
    (&["--bs=4k,8k", "--verify_interval=6k"], true),
    (&["--bs=4k,8k", "--verify_interval=64k"], true),
    (&["--bsrange=1k-16k", "--verify_interval=8k"], false),
    (&["--bsrange=6k-8k"], false),
    (&["--bsrange=6k-8k", "--verify_interval=3k"], false),
    (&["--bsrange=4k-8k", "--verify_interval=1536"], false),
];

/// Each header of the file at `path`: its offset and the length it covers (fio's magic
/// 0xacca at a multiple of 512, the length at byte 4).
fn headers(path: &Path) -> Vec<(usize, u32)> {
    let data = std::fs::read(path).expect("the file");
    (0..data.len())
        .step_by(512)
        .filter(|&at| data[at..at + 2] == [0xca, 0xac])
        .map(|at| (at, u32::from_le_bytes(data[at + 4..at + 8].try_into().unwrap())))
        .collect()
}

/// Runs `program` with the job of `args` on `file` in `dir`, then `extra`: the exit code
/// and standard output.
fn run(dir: &Path, program: &str, file: &str, args: &[&str], extra: &str) -> (Option<i32>, String) {
    let out = command(program)
        .current_dir(dir)
        .args(["--name=j", "--rw=write", "--size=96k", "--verify=crc32c"])
        .arg(format!("--filename={file}"))
        .args(["--verify_state_save=0", extra])
        .args(args)
        .output()
        .expect("run");
    (out.status.code(), format!("{}{}", text(&out.stdout), text(&out.stderr)))
}

#[test]
fn headers_are_laid_out_as_fio_lays_them_out() {
    if !fio_installed() {
        return;
    }
    for &(args, fixed) in CASES {
        let dir = tempdir();
        let (code, out) = run(dir.path(), IOMARK, "mine.dat", args, "--do_verify=1");
        assert_eq!(code, Some(0), "{args:?}: {out}");
        let (code, out) = run(dir.path(), "fio", "theirs.dat", args, "--do_verify=1");
        assert_eq!(code, Some(0), "{args:?}: {out}");
        let (mine, theirs) =
            (headers(&dir.path().join("mine.dat")), headers(&dir.path().join("theirs.dat")));
        assert!(!theirs.is_empty(), "{args:?}");
        if fixed {
            assert_eq!(mine, theirs, "{args:?}");
            let (code, out) = run(dir.path(), "fio", "mine.dat", args, "--verify_only=1");
            assert!(
                code == Some(0) && out.contains("err= 0"),
                "fio verifying iomark's {args:?}: {out}"
            );
            let (code, out) = run(dir.path(), IOMARK, "theirs.dat", args, "--verify_only=1");
            assert_eq!(code, Some(0), "iomark verifying fio's {args:?}: {out}");
        } else {
            let lengths = |h: &[(usize, u32)]| {
                let mut l: Vec<u32> = h.iter().map(|&(_, len)| len).collect();
                l.sort_unstable();
                l.dedup();
                l
            };
            assert_eq!(lengths(&mine), lengths(&theirs), "{args:?}");
        }
    }
}
