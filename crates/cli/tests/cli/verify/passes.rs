//! Verifying after every pass over the file (docs/verify.md): fio 3.33 reads a job's
//! writes back after each of `loops`, and after each pass that `io_size` adds beyond them,
//! counting the verify reads against `io_size` before such a pass and against
//! `number_ios` throughout. iomark must issue the same writes and reads in the same order
//! (compared with fio's `write_iolog`, recorded here and live where fio is installed).

use super::runs::logged_run;
use crate::support::run::IOMARK;
use crate::support::tools::fio_installed;

/// `rw=write size=32k` (8 blocks) with these options: fio 3.33's I/Os (`W0-7` the writes
/// of blocks 0 to 7 in order) and its counts of reads and writes.
const MEASURED: &[(&str, &str, [u64; 2])] = &[
    ("--loops=2", "W0-7 R0-7 W0-7 R0-7", [16, 16]),
    (
        "--loops=3 --verify_backlog=3",
        "W0-2 R0-2 W3-5 R3-5 W6-7 R6-7 W0-2 R0-2 W3-5 R3-5 W6-7 R6-7 W0-2 R0-2 W3-5 R3-5 W6-7 R6-7",
        [24, 24],
    ),
    ("--io_size=40k", "W0-7 R0-7", [8, 8]),
    ("--io_size=65k", "W0-7 R0-7", [8, 8]),
    ("--io_size=68k", "W0-7 R0-7 W0-7 R0-7", [16, 16]),
    ("--io_size=160k", "W0-7 R0-7 W0-7 R0-7 W0-7 R0-7", [24, 24]),
    ("--loops=2 --io_size=16k", "W0-7 R0-7", [8, 8]),
    ("--loops=2 --io_size=140k", "W0-7 R0-7 W0-7 R0-7 W0-7 R0-7", [24, 24]),
    ("--loops=3 --io_size=20k", "W0-7 R0-7 W0-6 R0-6", [15, 15]),
    ("--number_ios=10 --loops=2", "W0-7 R0-7 W0-3 R0-3", [12, 12]),
    ("--number_ios=3 --loops=3", "W0-7 R0-7", [8, 8]),
    (
        "--io_size=72k --verify_backlog=3",
        "W0-2 R0-2 W3-5 R3-5 W6-7 R6-7 W0-2 R0-2 W3-5 R3-5 W6-7 R6-7",
        [16, 16],
    ),
    (
        "--loops=2 --verify_backlog=5 --verify_backlog_batch=2",
        "W0-4 R0-1 W5-6 R2-3 W7 R4-7 W0-4 R0-1 W5-6 R2-3 W7 R4-7",
        [16, 16],
    ),
];

/// `W0-2 R5` as `W0 W1 W2 R5`.
fn expand(ranges: &str) -> Vec<String> {
    let mut ios = Vec::new();
    for r in ranges.split_whitespace() {
        let (letter, span) = r.split_at(1);
        let (a, b) = span.split_once('-').unwrap_or((span, span));
        let (a, b): (u64, u64) = (a.parse().expect("block"), b.parse().expect("block"));
        ios.extend((a..=b).map(|n| format!("{letter}{n}")));
    }
    ios
}

fn run(program: &str, options: &str) -> (Vec<String>, [u64; 2]) {
    let mut args = vec!["--size=32k", "--rw=write"];
    args.extend(options.split_whitespace());
    logged_run(program, &args)
}

#[test]
fn each_pass_is_verified_in_fio_3_33_order() {
    for (options, ios, counts) in MEASURED {
        assert_eq!(run(IOMARK, options), (expand(ios), *counts), "{options}");
    }
}

#[test]
fn each_pass_is_verified_as_fio_3_33_does_live() {
    if !fio_installed() {
        return;
    }
    for (options, _, _) in MEASURED {
        assert_eq!(run(IOMARK, options), run("fio", options), "{options}");
    }
    // Random writes with the random map: each pass covers the file once, in another
    // order than fio's, and is verified after it; without the map (norandommap) the
    // job is verified once, after all its writes, as in fio (the counts depend on the
    // offsets drawn, so only the shape is compared).
    for options in ["--rw=randwrite --loops=2", "--rw=randwrite --io_size=68k"] {
        let (ours, fio) = (run(IOMARK, options), run("fio", options));
        assert_eq!(ours.1, fio.1, "{options}");
        let letters = |ios: &[String]| ios.iter().map(|io| &io[..1]).collect::<String>();
        assert_eq!(letters(&ours.0), letters(&fio.0), "{options}");
    }
}
