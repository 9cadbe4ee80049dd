//! File options against fio 3.33: `file_append`, `offset_align`, `opendir`, `overwrite` and
//! `unlink_each_loop`.
//!
//! The cases run under both programs as [`crate::support::cases`] says.

use crate::support::cases::{check_against_fio, file, nothing, run, Case, Order};
use crate::support::run::{run_in, tempdir, text, IOMARK};
use crate::support::tools::{engine_available, programs};
use std::os::unix::fs::MetadataExt;
use std::path::Path;

fn f16k(d: &Path) {
    file(d, "f", 16384);
}

fn f1000000(d: &Path) {
    file(d, "f", 1_000_000);
}

fn tree(d: &Path) {
    for (name, len) in
        [("d/a", 8192), ("d/sub/b", 16384), ("d/sub/deep/c", 4096), ("d/other/e", 12288)]
    {
        file(d, name, len);
    }
    // Too small for a block without `size`: no I/O; a link is not followed.
    file(d, "d/.small", 2048);
    file(d, "d/empty", 0);
    std::os::unix::fs::symlink("a", d.join("d/link")).unwrap();
}

const CASES: &[Case] = &[
    Case {
        name: "append: each clone after the one before, whatever offset_increment says",
        setup: f16k,
        args: &[
            "--name=a",
            "--filename=f",
            "--rw=write",
            "--bs=4k",
            "--size=8k",
            "--file_append=1",
            "--numjobs=2",
            "--offset_increment=4k",
        ],
        order: Order::Sorted,
        code: 0,
        ios: Some("f:w:16384+4096 f:w:20480+4096 f:w:24576+4096 f:w:28672+4096"),
        sizes: &[("f", 32768)],
    },
    Case {
        name: "append: a read job lays the new region out first",
        setup: f16k,
        args: &["--name=a", "--filename=f", "--rw=read", "--bs=4k", "--size=8k", "--file_append=1"],
        order: Order::Exact,
        code: 0,
        ios: Some("f:r:16384+4096 f:r:20480+4096"),
        sizes: &[("f", 24576)],
    },
    Case {
        name: "append: one pass only, whatever loops and io_size say",
        setup: f16k,
        args: &[
            "--name=a",
            "--filename=f",
            "--rw=write",
            "--bs=4k",
            "--size=8k",
            "--file_append=1",
            "--loops=3",
            "--io_size=16k",
            "--offset=4k",
        ],
        order: Order::Exact,
        code: 0,
        ios: Some("f:w:16384+4096 f:w:20480+4096"),
        sizes: &[("f", 24576)],
    },
    Case {
        name: "append: a missing file starts at 0",
        setup: nothing,
        args: &[
            "--name=a",
            "--filename=f",
            "--rw=write",
            "--bs=4k",
            "--size=8k",
            "--file_append=1",
        ],
        order: Order::Exact,
        code: 0,
        ios: Some("f:w:0+4096 f:w:4096+4096"),
        sizes: &[("f", 8192)],
    },
    Case {
        name: "offset_align: a percentage rounded up to the smallest block size by default",
        setup: f1000000,
        args: &[
            "--name=o",
            "--filename=f",
            "--rw=read",
            "--bs=8k,4k",
            "--size=16k",
            "--offset=10%",
        ],
        order: Order::Exact,
        code: 0,
        ios: Some("f:r:102400+8192 f:r:110592+8192"),
        sizes: &[("f", 1_000_000)],
    },
    Case {
        name: "offset_align: any alignment, even past the end of the file",
        setup: f1000000,
        args: &[
            "--name=o",
            "--filename=f",
            "--rw=read",
            "--bs=4k",
            "--size=8k",
            "--offset=10%",
            "--offset_align=3000",
        ],
        order: Order::Exact,
        code: 0,
        ios: Some("f:r:102000+4096 f:r:106096+4096"),
        sizes: &[("f", 1_000_000)],
    },
    Case {
        name: "offset_align: the sum of a byte offset and a percentage increment is rounded",
        setup: f1000000,
        args: &[
            "--name=o",
            "--filename=f",
            "--rw=read",
            "--bs=4k",
            "--size=4k",
            "--offset=1000",
            "--offset_increment=1%",
            "--numjobs=3",
        ],
        order: Order::Sorted,
        code: 0,
        ios: Some("f:r:4096+4096 f:r:12288+4096 f:r:24576+4096"),
        sizes: &[("f", 1_000_000)],
    },
    Case {
        name: "offset_align: byte offsets alone are not rounded",
        setup: f1000000,
        args: &[
            "--name=o",
            "--filename=f",
            "--rw=read",
            "--bs=4k",
            "--size=4k",
            "--offset=1000",
            "--offset_align=4k",
        ],
        order: Order::Exact,
        code: 0,
        ios: Some("f:r:1000+4096"),
        sizes: &[("f", 1_000_000)],
    },
    Case {
        name: "opendir: every file whole, depth first in directory order",
        setup: tree,
        args: &["--name=o", "--opendir=d", "--rw=write", "--bs=4k"],
        order: Order::Exact,
        code: 0,
        // The order is the directory's: computed by the test (see `opendir_order`).
        ios: None,
        sizes: &[],
    },
    Case {
        name: "opendir: nrfiles keeps the first files, filename's come in option order",
        setup: tree,
        args: &["--name=o", "--filename=d/a", "--opendir=d", "--nrfiles=3", "--rw=read", "--bs=4k"],
        order: Order::Exact,
        code: 0,
        ios: None,
        sizes: &[],
    },
    Case {
        name: "unlink_each_loop: removed and made anew between loops, kept after the last",
        setup: nothing,
        args: &[
            "--name=u",
            "--rw=write",
            "--bs=4k",
            "--size=8k",
            "--loops=3",
            "--unlink_each_loop=1",
        ],
        order: Order::Exact,
        code: 0,
        ios: Some(
            "u.0.0:w:0+4096 u.0.0:w:4096+4096 u.0.0:w:0+4096 u.0.0:w:4096+4096 \
             u.0.0:w:0+4096 u.0.0:w:4096+4096",
        ),
        sizes: &[("u.0.0", 8192)],
    },
    Case {
        name: "unlink_each_loop: a job ending before its last loop removes its files",
        setup: nothing,
        args: &[
            "--name=u",
            "--rw=write",
            "--bs=4k",
            "--size=8k",
            "--loops=3",
            "--number_ios=1",
            "--unlink_each_loop=1",
        ],
        order: Order::Exact,
        code: 0,
        ios: Some("u.0.0:w:0+4096 u.0.0:w:4096+4096 u.0.0:w:0+4096"),
        sizes: &[],
    },
    Case {
        name: "unlink_each_loop: a job that only reads cannot open its file again",
        setup: nothing,
        args: &[
            "--name=u",
            "--rw=read",
            "--bs=4k",
            "--size=8k",
            "--loops=2",
            "--unlink_each_loop=1",
        ],
        order: Order::Exact,
        code: 1,
        ios: Some("u.0.0:r:0+4096 u.0.0:r:4096+4096"),
        sizes: &[],
    },
    Case {
        name: "opendir: a missing directory is refused",
        setup: nothing,
        args: &["--name=o", "--opendir=nowhere", "--rw=read", "--bs=4k"],
        order: Order::Exact,
        code: 2,
        ios: None,
        sizes: &[],
    },
];

/// The regular files under `dir` (names relative to `root`) with their sizes, depth first
/// in the directory's own order, as fio walks an `opendir`.
fn walk(root: &Path, dir: &Path, out: &mut Vec<(String, u64)>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let kind = entry.file_type().unwrap();
        let path = entry.path();
        if kind.is_dir() {
            walk(root, &path, out);
        } else if kind.is_file() {
            let name = path.strip_prefix(root).unwrap().display().to_string();
            out.push((name, entry.metadata().unwrap().len()));
        }
    }
}

#[test]
fn file_options_match_fio() {
    check_against_fio(CASES);
}

#[test]
fn opendir_visits_the_directory_in_its_own_order() {
    let case = |prefix: &str| CASES.iter().find(|c| c.name.starts_with(prefix)).unwrap();
    // Round robin over the files, each whole (those of at least one block): the n-th
    // block of every file that has one, in walk order.
    let dir = tempdir();
    tree(dir.path());
    let mut files = Vec::new();
    walk(dir.path(), &dir.path().join("d"), &mut files);
    let mut want = Vec::new();
    for n in 0..4 {
        for (name, len) in &files {
            if (n + 1) * 4096 <= *len {
                want.push(format!("{name}:w:{}+4096", n * 4096));
            }
        }
    }
    assert_eq!(run(IOMARK, case("opendir: every")).ios, want);
    // `filename=d/a` first, then the walk; nrfiles=3 keeps three (small ones included),
    // of which those of at least one block get I/O, in that order.
    let mut named = vec![("d/a".to_string(), 8192)];
    named.extend(files);
    let kept: Vec<String> =
        named.into_iter().take(3).filter(|(_, len)| *len >= 4096).map(|(n, _)| n).collect();
    let ios = run(IOMARK, case("opendir: nrfiles")).ios;
    let first: Vec<&str> =
        ios.iter().take(kept.len()).map(|io| io.split(':').next().unwrap()).collect();
    assert_eq!(first, kept, "{ios:?}");
}

#[test]
fn overwrite_writes_the_file_before_a_write_job() {
    // With `fallocate=none`, one 4k write leaves a file mostly holes unless it was laid out.
    let allocated = |program: &str, overwrite: &str| -> u64 {
        let dir = tempdir();
        let arg = format!("--overwrite={overwrite}");
        let args = [
            "--name=o",
            "--rw=write",
            "--bs=4k",
            "--size=64k",
            "--number_ios=1",
            "--fallocate=none",
            arg.as_str(),
            "--output-format=terse",
        ];
        let out = run_in(dir.path(), program, &args);
        assert_eq!(out.status.code(), Some(0), "{program} {args:?}");
        std::fs::metadata(dir.path().join("o.0.0")).unwrap().blocks() * 512
    };
    for program in programs() {
        assert!(allocated(program, "1") >= 65536, "{program}: overwrite=1");
        assert!(allocated(program, "0") < 65536, "{program}: overwrite=0");
    }
}

#[test]
fn unlink_each_loop_gives_io_uring_the_new_files() {
    // With registered files, io_uring must write the second loop to the new file, not to
    // the removed one: the file left holds the loop's 8 KiB.
    let options = iomark_engine::EngineOptions { registerfiles: true, ..Default::default() };
    if !engine_available("io_uring", &options) {
        return;
    }
    let dir = tempdir();
    let args = [
        "--name=u",
        "--ioengine=io_uring",
        "--registerfiles=1",
        "--iodepth=4",
        "--rw=write",
        "--bs=4k",
        "--size=8k",
        "--loops=2",
        "--unlink_each_loop=1",
        "--output-format=terse",
    ];
    let out = run_in(dir.path(), IOMARK, &args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let meta = std::fs::metadata(dir.path().join("u.0.0")).expect("the file of the last loop");
    assert_eq!((meta.len(), meta.blocks() * 512 >= 8192), (8192, true));
}

#[test]
fn unlink_each_loop_is_refused_with_mmap_when_the_job_loops() {
    // fio 3.33 dies of SIGBUS on the second loop; one loop runs, in fio and here.
    let dir = tempdir();
    let args = ["--name=u", "--ioengine=mmap", "--rw=write", "--size=8k", "--unlink_each_loop=1"];
    let out = run_in(dir.path(), IOMARK, &[&args[..], &["--loops=2"]].concat());
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("option 'unlink_each_loop'") && stderr.contains("SIGBUS"), "{stderr}");
    let out = run_in(dir.path(), IOMARK, &args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}
