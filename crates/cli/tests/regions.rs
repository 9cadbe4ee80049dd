//! How far a job's I/O goes in its files, and how large it leaves them, against fio 3.33:
//! the file sizes a layout leaves to the writes (`fallocate=none`/`keep` in a job that only
//! writes).
//!
//! The cases run under both programs as `both/cases.rs` says.

mod both;

use both::cases::{check_against_fio, file, nothing, Case, Order};
use std::path::Path;

fn f5000(d: &Path) {
    file(d, "f", 5000);
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
        name: "fallocate=none: a time-based job stopped by runtime",
        setup: nothing,
        args: &[
            "--name=w",
            "--filename=f",
            "--rw=write",
            "--bs=4k",
            "--size=64k",
            "--fallocate=none",
            "--time_based",
            "--runtime=1",
            "--rate_iops=4",
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
