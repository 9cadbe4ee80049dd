//! How far a job's I/O goes in its files, and how large it leaves them, against fio 3.33:
//! the last block of a region that the file goes on past, strided zones over the whole
//! file, the file a round robin's next pass starts at, and the file sizes a layout leaves
//! to the writes (`fallocate=none`/`keep` in a job that only writes).
//!
//! The cases run under both programs as [`crate::support::cases`] says.

use crate::support::cases::{check_against_fio, file, nothing, Case, Order};
use crate::support::devices::LoopDevice;
use crate::support::report::report_json;
use crate::support::run::{run_in, tempdir};
use crate::support::tools::programs;
use std::path::Path;

fn f5000(d: &Path) {
    file(d, "f", 5000);
}

fn f12000(d: &Path) {
    file(d, "f", 12000);
}

fn f20000(d: &Path) {
    file(d, "f", 20000);
}

fn f40000(d: &Path) {
    file(d, "f", 40000);
}

fn f64k(d: &Path) {
    file(d, "f", 65536);
}

/// `a` of 20000 bytes and `b` of 10000.
fn a_and_b(d: &Path) {
    file(d, "a", 20000);
    file(d, "b", 10000);
}

/// A job on file `f` with `bs=4k` and `size=9000`.
macro_rules! f9000 {
    ($($extra:literal),*) => {
        &["--name=j", "--filename=f", "--bs=4k", "--size=9000", $($extra),*]
    };
}

const EDGES: &[Case] = &[
    Case {
        name: "the block that starts in the region's tail is read whole when the file holds it",
        setup: f20000,
        args: f9000!("--rw=read"),
        order: Order::Exact,
        code: 0,
        ios: Some("f:r:0+4096 f:r:4096+4096 f:r:8192+4096"),
        sizes: &[("f", 20000)],
    },
    Case {
        name: "not when the file ends before the block does",
        setup: f12000,
        args: f9000!("--rw=read"),
        order: Order::Exact,
        code: 0,
        ios: Some("f:r:0+4096 f:r:4096+4096"),
        sizes: &[("f", 12000)],
    },
    Case {
        name: "nor in a file laid out for the region",
        setup: nothing,
        args: f9000!("--rw=read"),
        order: Order::Exact,
        code: 0,
        ios: Some("f:r:0+4096 f:r:4096+4096"),
        sizes: &[("f", 9000)],
    },
    Case {
        name: "writes too, and from an offset",
        setup: f20000,
        args: f9000!("--rw=write", "--offset=100"),
        order: Order::Exact,
        code: 0,
        ios: Some("f:w:100+4096 f:w:4196+4096 f:w:8292+4096"),
        sizes: &[("f", 20000)],
    },
    Case {
        name: "every pass, up to io_size",
        setup: f20000,
        args: f9000!("--rw=read", "--io_size=20000"),
        order: Order::Exact,
        code: 0,
        ios: Some("f:r:0+4096 f:r:4096+4096 f:r:8192+4096 f:r:0+4096 f:r:4096+4096"),
        sizes: &[("f", 20000)],
    },
    Case {
        name: "a split of one size is a fixed size",
        setup: f20000,
        args: f9000!("--rw=read", "--bssplit=4k/50:4k/50"),
        order: Order::Exact,
        code: 0,
        ios: Some("f:r:0+4096 f:r:4096+4096 f:r:8192+4096"),
        sizes: &[("f", 20000)],
    },
    Case {
        name: "random offsets stay in the region",
        setup: f20000,
        args: f9000!("--rw=randread"),
        order: Order::Sorted,
        code: 0,
        ios: Some("f:r:0+4096 f:r:4096+4096"),
        sizes: &[("f", 20000)],
    },
    Case {
        name: "the null engine has no file to go on in",
        setup: f20000,
        args: f9000!("--rw=read", "--ioengine=null"),
        order: Order::Exact,
        code: 0,
        ios: Some("f:r:0+4096 f:r:4096+4096"),
        sizes: &[("f", 20000)],
    },
    Case {
        name: "a :N skip may land in the tail too",
        setup: f64k,
        args: &["--name=j", "--filename=f", "--bs=4k", "--size=26k", "--rw=read:4k", "--io_size=28k"],
        order: Order::Exact,
        code: 0,
        ios: Some("f:r:0+4096 f:r:8192+4096 f:r:16384+4096 f:r:24576+4096 f:r:0+4096 f:r:8192+4096 f:r:16384+4096"),
        sizes: &[("f", 65536)],
    },
    Case {
        name: "a job after a stonewall sees the file as the jobs before it left it",
        setup: nothing,
        args: &[
            "--filename=f",
            "--bs=4k",
            "--name=w",
            "--rw=write",
            "--size=20000",
            "--name=r",
            "--stonewall",
            "--rw=read",
            "--size=9000",
        ],
        order: Order::Exact,
        code: 0,
        // Each job writes the one iolog anew: the second job's is left.
        ios: Some("f:r:0+4096 f:r:4096+4096 f:r:8192+4096"),
        sizes: &[("f", 20000)],
    },
    Case {
        name: "strided zones cover the file, size is only the budget",
        setup: f40000,
        args: &[
            "--name=z",
            "--filename=f",
            "--bs=4k",
            "--rw=read",
            "--size=16k",
            "--zonemode=strided",
            "--zonesize=4k",
            "--zoneskip=4k",
            "--io_size=28k",
        ],
        order: Order::Exact,
        code: 0,
        ios: Some("f:r:0+4096 f:r:8192+4096 f:r:16384+4096 f:r:24576+4096 f:r:32768+4096 f:r:0+4096 f:r:8192+4096"),
        sizes: &[("f", 40000)],
    },
    Case {
        name: "a round robin's next pass starts after the file found done last",
        setup: a_and_b,
        args: &["--name=j", "--filename=a:b", "--bs=4k", "--rw=read", "--size=18000", "--loops=2"],
        order: Order::Exact,
        code: 0,
        ios: Some("a:r:0+4096 b:r:0+4096 a:r:4096+4096 b:r:4096+4096 a:r:8192+4096 b:r:0+4096 a:r:0+4096 b:r:4096+4096 a:r:4096+4096"),
        sizes: &[("a", 20000), ("b", 10000)],
    },
    Case {
        name: "filesize is the file's size: the region runs from offset to it",
        setup: nothing,
        args: &["--name=j", "--filename=f", "--bs=1k", "--rw=write", "--offset=512", "--filesize=4k"],
        order: Order::Exact,
        code: 0,
        ios: Some("f:w:512+1024 f:w:1536+1024 f:w:2560+1024"),
        sizes: &[("f", 4096)],
    },
    Case {
        name: "and size only caps it",
        setup: nothing,
        args: &["--name=j", "--filename=f", "--bs=1k", "--rw=write", "--offset=1k", "--filesize=4k", "--size=8k"],
        order: Order::Exact,
        code: 0,
        ios: Some("f:w:1024+1024 f:w:2048+1024 f:w:3072+1024"),
        sizes: &[("f", 4096)],
    },
    Case {
        name: "a larger file keeps its size",
        setup: f20000,
        args: &["--name=j", "--filename=f", "--bs=1k", "--rw=write", "--offset=3k", "--filesize=4k"],
        order: Order::Exact,
        code: 0,
        ios: Some("f:w:3072+1024"),
        sizes: &[("f", 20000)],
    },
];

#[test]
fn the_region_ends_as_in_fio() {
    check_against_fio(EDGES);
}

/// A write job whose file is `f`, stopped after `number_ios=3`.
macro_rules! write3 {
    ($($extra:literal),*) => {
        &["--name=w", "--filename=f", "--rw=write", "--bs=4k", "--size=1m", "--number_ios=3",
          $($extra),*]
    };
}

const SIZES: &[Case] = &[
    Case {
        name: "fallocate=none: a write job's file grows by its writes",
        setup: nothing,
        args: write3!("--fallocate=none"),
        order: Order::Exact,
        code: 0,
        ios: Some("f:w:0+4096 f:w:4096+4096 f:w:8192+4096"),
        sizes: &[("f", 12288)],
    },
    Case {
        name: "fallocate=keep: the space is reserved, the size is the writes'",
        setup: nothing,
        args: write3!("--fallocate=keep"),
        order: Order::Exact,
        code: 0,
        ios: Some("f:w:0+4096 f:w:4096+4096 f:w:8192+4096"),
        sizes: &[("f", 12288)],
    },
    Case {
        name: "fallocate=native (the default): the file has the region's size at once",
        setup: nothing,
        args: write3!(),
        order: Order::Exact,
        code: 0,
        ios: Some("f:w:0+4096 f:w:4096+4096 f:w:8192+4096"),
        sizes: &[("f", 1 << 20)],
    },
    Case {
        name: "fallocate=truncate: the file has the region's size at once",
        setup: nothing,
        args: write3!("--fallocate=truncate"),
        order: Order::Exact,
        code: 0,
        ios: Some("f:w:0+4096 f:w:4096+4096 f:w:8192+4096"),
        sizes: &[("f", 1 << 20)],
    },
    Case {
        name: "fallocate=none: a file too small for the region is made anew",
        setup: f5000,
        args: &[
            "--name=w",
            "--filename=f",
            "--rw=write",
            "--bs=4k",
            "--size=64k",
            "--number_ios=1",
            "--fallocate=none",
        ],
        order: Order::Exact,
        code: 0,
        ios: Some("f:w:0+4096"),
        sizes: &[("f", 4096)],
    },
    Case {
        name: "fallocate=none: a job stopped by number_ios",
        setup: nothing,
        args: &[
            "--name=w",
            "--filename=f",
            "--rw=write",
            "--bs=4k",
            "--size=64k",
            "--fallocate=none",
            "--number_ios=4",
        ],
        order: Order::Exact,
        code: 0,
        ios: Some("f:w:0+4096 f:w:4096+4096 f:w:8192+4096 f:w:12288+4096"),
        sizes: &[("f", 16384)],
    },
    Case {
        name: "fallocate=none: the unwritten tail of the region is left out",
        setup: nothing,
        args: &[
            "--name=w",
            "--filename=f",
            "--rw=write",
            "--bs=4k",
            "--size=9000",
            "--fallocate=none",
        ],
        order: Order::Exact,
        code: 0,
        ios: Some("f:w:0+4096 f:w:4096+4096"),
        sizes: &[("f", 8192)],
    },
    Case {
        name: "fallocate=none: verify reads back what was written, no more",
        setup: nothing,
        args: write3!("--fallocate=none", "--verify=crc32c", "--verify_state_save=0"),
        order: Order::Exact,
        code: 0,
        ios: Some("f:w:0+4096 f:w:4096+4096 f:w:8192+4096 f:r:0+4096 f:r:4096+4096 f:r:8192+4096"),
        sizes: &[("f", 12288)],
    },
    Case {
        name: "fallocate=none: a job that reads lays the region out whole",
        setup: f5000,
        args: &[
            "--name=r",
            "--filename=f",
            "--rw=rw",
            "--bs=4k",
            "--size=64k",
            "--number_ios=1",
            "--fallocate=none",
            "--rwmixread=100",
        ],
        order: Order::Exact,
        code: 0,
        ios: Some("f:r:0+4096"),
        sizes: &[("f", 65536)],
    },
    Case {
        name: "fallocate=none: the mmap engine maps the region, so it extends the file",
        setup: nothing,
        args: write3!("--fallocate=none", "--ioengine=mmap", "--offset=8k"),
        order: Order::Exact,
        code: 0,
        ios: Some("f:w:8192+4096 f:w:12288+4096 f:w:16384+4096"),
        sizes: &[("f", (1 << 20) + 8192)],
    },
];

#[test]
fn write_jobs_leave_the_size_to_their_writes_as_fio() {
    check_against_fio(SIZES);
}

#[test]
fn a_region_ends_at_the_end_of_its_device_as_in_fio() {
    let Some(disk) = LoopDevice::new(16 << 20) else { return };
    let dir = tempdir();
    let filename = format!("--filename={}", disk.dev);
    for program in programs() {
        // 16 MiB device: `size=32m` does 16 MiB; one block before the end, one block.
        for (extra, want) in [
            (&["--rw=write", "--size=32m", "--bs=1m"][..], [0, 16 << 20]),
            (&["--rw=read", "--size=32m", "--bs=1m"][..], [16 << 20, 0]),
            (&["--rw=read", "--size=9000", "--bs=4k", "--offset=16773120"][..], [4096, 0]),
        ] {
            let mut args = vec!["--name=d", filename.as_str(), "--output-format=json"];
            args.extend(extra);
            let out = run_in(dir.path(), program, &args);
            assert_eq!(out.status.code(), Some(0), "{program} {args:?}");
            let job = &report_json(program, &out)["jobs"][0];
            let got = ["read", "write"].map(|d| job[d]["io_bytes"].as_u64().unwrap_or(0));
            assert_eq!(got, want, "{program} {args:?}");
        }
    }
}
