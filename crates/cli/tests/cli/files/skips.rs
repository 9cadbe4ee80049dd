//! The holes of a sequential `rw=MODE:N` against fio 3.33: a skip that puts the next
//! offset at or past the region's end wraps that direction to the start only when the
//! region is the whole file; otherwise the pass (of every direction) is over, and the job
//! ends unless `loops` or a larger `io_size` start another. And a random mode's `:N`
//! counts its I/Os over every direction (`randrw:3`: every fourth I/O a new offset).
//!
//! The cases run under both programs as [`crate::support::cases`] says.

use crate::support::cases::{check_against_fio, file, Case, Order};
use std::path::Path;

fn f32k(d: &Path) {
    file(d, "f", 32 << 10);
}

fn f40k(d: &Path) {
    file(d, "f", 40 << 10);
}

fn f64k(d: &Path) {
    file(d, "f", 64 << 10);
}

fn f256k(d: &Path) {
    file(d, "f", 256 << 10);
}

/// A job on file `f` with `bs=4k` and the given `rw` and options.
macro_rules! job {
    ($($extra:literal),*) => {
        &["--name=j", "--filename=f", "--bs=4k", $($extra),*]
    };
}

const CASES: &[Case] = &[
    Case {
        name: "read:4k over part of a file: one pass",
        setup: f64k,
        args: job!("--rw=read:4k", "--size=32k"),
        order: Order::Exact,
        code: 0,
        ios: Some("f:r:0+4096 f:r:8192+4096 f:r:16384+4096 f:r:24576+4096"),
        sizes: &[("f", 64 << 10)],
    },
    Case {
        name: "write:4k over part of a file: one pass",
        setup: f64k,
        args: job!("--rw=write:4k", "--size=32k"),
        order: Order::Exact,
        code: 0,
        ios: Some("f:w:0+4096 f:w:8192+4096 f:w:16384+4096 f:w:24576+4096"),
        sizes: &[("f", 64 << 10)],
    },
    Case {
        name: "randread:2 over part of a file",
        setup: f64k,
        args: job!("--rw=randread:2", "--size=32k"),
        order: Order::Exact,
        code: 0,
        ios: Some("f:r:0+4096 f:r:4096+4096 f:r:20480+4096 f:r:24576+4096 f:r:24576+4096 f:r:28672+4096 f:r:12288+4096 f:r:16384+4096"),
        sizes: &[("f", 64 << 10)],
    },
    Case {
        name: "randrw:3 counts its follow-ups over both directions",
        setup: f256k,
        args: job!("--rw=randrw:3", "--number_ios=16"),
        order: Order::Exact,
        code: 0,
        ios: Some("f:r:12288+4096 f:r:16384+4096 f:r:20480+4096 f:w:192512+4096 f:r:24576+4096 f:r:28672+4096 f:w:217088+4096 f:w:221184+4096 f:w:225280+4096 f:r:122880+4096 f:w:229376+4096 f:r:126976+4096 f:w:102400+4096 f:r:131072+4096 f:r:135168+4096 f:r:221184+4096"),
        sizes: &[("f", 256 << 10)],
    },
    Case {
        name: "read:4k over a region that starts past 0: one pass",
        setup: f40k,
        args: job!("--rw=read:4k", "--offset=8k"),
        order: Order::Exact,
        code: 0,
        ios: Some("f:r:8192+4096 f:r:16384+4096 f:r:24576+4096 f:r:32768+4096"),
        sizes: &[("f", 40 << 10)],
    },
    Case {
        name: "read:4k over the whole file wraps",
        setup: f32k,
        args: job!("--rw=read:4k", "--size=32k"),
        order: Order::Exact,
        code: 0,
        ios: Some("f:r:0+4096 f:r:8192+4096 f:r:16384+4096 f:r:24576+4096 f:r:0+4096 f:r:8192+4096 f:r:16384+4096 f:r:24576+4096"),
        sizes: &[("f", 32 << 10)],
    },
    Case {
        name: "rw:4k over part of a file: the reads' end ends the writes too",
        setup: f64k,
        args: job!("--rw=rw:4k", "--size=32k"),
        order: Order::Exact,
        code: 0,
        ios: Some("f:r:0+4096 f:r:8192+4096 f:r:16384+4096 f:w:0+4096 f:r:24576+4096"),
        sizes: &[("f", 64 << 10)],
    },
    Case {
        name: "rw:4k over the whole file: each direction wraps alone",
        setup: f40k,
        args: job!("--rw=rw:4k"),
        order: Order::Exact,
        code: 0,
        ios: Some("f:r:0+4096 f:r:8192+4096 f:r:16384+4096 f:w:0+4096 f:r:24576+4096 f:r:32768+4096 f:w:8192+4096 f:w:16384+4096 f:w:24576+4096 f:r:0+4096"),
        sizes: &[("f", 40 << 10)],
    },
    Case {
        name: "rw:4k with a larger io_size: a new pass for both directions",
        setup: f64k,
        args: job!("--rw=rw:4k", "--size=32k", "--io_size=48k"),
        order: Order::Exact,
        code: 0,
        ios: Some("f:r:0+4096 f:r:8192+4096 f:r:16384+4096 f:w:0+4096 f:r:24576+4096 f:r:0+4096 f:r:8192+4096 f:r:16384+4096 f:w:0+4096 f:w:8192+4096 f:r:24576+4096 f:r:0+4096"),
        sizes: &[("f", 64 << 10)],
    },
    Case {
        name: "read:4k with loops=2: one pass per loop",
        setup: f64k,
        args: job!("--rw=read:4k", "--size=32k", "--loops=2"),
        order: Order::Exact,
        code: 0,
        ios: Some("f:r:0+4096 f:r:8192+4096 f:r:16384+4096 f:r:24576+4096 f:r:0+4096 f:r:8192+4096 f:r:16384+4096 f:r:24576+4096"),
        sizes: &[("f", 64 << 10)],
    },
];

#[test]
fn skips_end_the_pass_as_in_fio() {
    check_against_fio(CASES);
}
