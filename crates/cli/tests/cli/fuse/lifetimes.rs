//! `block_error_percentiles` on an export whose trims (or writes) fail at known blocks:
//! iomark's block lifetime section, exactly; and, where fio 3.33 is installed, the same
//! section as fio's for failing writes (fio 3.33 records only trims, and aborts on an
//! assertion as soon as a job with the option trims, so that is all it can show).

use super::{exclusive, transports, Export};
use crate::support::run::{text, IOMARK};
use crate::support::tools::fio_3_33_installed;
use std::process::Output;

/// The block lifetime section of a normal report: its header to its states line.
fn section(program: &str, out: &Output) -> String {
    let stdout = text(&out.stdout);
    let start = stdout.find("  block lifetime percentiles :").unwrap_or_else(|| {
        panic!("{program}: no block lifetime section: {stdout}{}", text(&out.stderr))
    });
    let rest = &stdout[start..];
    let end = rest.find("write failure=").map(|i| i + rest[i..].find('\n').unwrap_or(0) + 1);
    rest[..end.unwrap_or(rest.len())].to_string()
}

const JOB: [&str; 6] = [
    "--name=j",
    "--bs=4k",
    "--size=64k",
    "--block_error_percentiles=1",
    "--continue_on_error=all",
    "--ioengine=psync",
];

#[test]
fn trims_failing_at_two_blocks_give_their_lifetimes() {
    let Some(_one) = exclusive() else { return };
    for transport in transports() {
        let export =
            Export::start(1 << 20, transport, &["--fail=EIO:100%:trim", "--fail-range=16k-24k"]);
        let out = export.job(JOB.iter().chain(&["--rw=trim", "--loops=3"]));
        assert_eq!(out.status.code(), Some(0), "{transport}: {}", text(&out.stderr));
        // 16 blocks: 14 trimmed three times, the two at 16k and 20k failed every time.
        let want = "  block lifetime percentiles :\n   \
            | 1.00th=3, 5.00th=3, 10.00th=3, 20.00th=3, 30.00th=3, 40.00th=3, 50.00th=3,\n   \
            | 60.00th=3, 70.00th=3, 80.00th=3, 90.00th=0, 95.00th=0, 99.00th=0,\n   \
            | 99.50th=0, 99.90th=0, 99.95th=0, 99.99th=0\n        \
            states               : unwritten=0, trimmed=14, written=0, trim failure=2, \
            write failure=0\n";
        assert_eq!(section(IOMARK, &out), want, "{transport}");
        export.finish();
    }
}

#[test]
fn failing_writes_leave_the_blocks_as_fio_leaves_them() {
    let Some(_one) = exclusive() else { return };
    let fio = fio_3_33_installed();
    let export = Export::start(1 << 20, "dev", &["--fail=EIO:100%:write", "--fail-range=16k-24k"]);
    let want = "  block lifetime percentiles :\n   |        states               : unwritten=0, \
                trimmed=0, written=0, trim failure=0, write failure=0\n";
    let programs: &[&str] = if fio { &[IOMARK, "fio"] } else { &[IOMARK] };
    for program in programs {
        let out = crate::support::run::command(program)
            .args(JOB.iter().chain(&["--rw=write"]))
            .arg(format!("--filename={}", export.volume().display()))
            .output()
            .expect("run");
        // fio 3.33 prints states it never counted when no block was trimmed: whatever its
        // memory held (0 mostly, once `trim failure=1075380224`); only its layout is fio's.
        let digits = |t: &str| t.chars().filter(|c| !c.is_ascii_digit()).collect::<String>();
        let got = section(program, &out);
        if *program == "fio" {
            assert_eq!(digits(&got), digits(want), "{program}");
        } else {
            assert_eq!(got, want, "{program}");
        }
        assert!(text(&out.stdout).contains("errors    : total=2, first_error=5/"), "{program}");
    }
    export.finish();
}
