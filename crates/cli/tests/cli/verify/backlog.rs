//! `verify_backlog` with overwrites (docs/verify.md): with `norandommap`, several loops or
//! overlapping block sizes a place is written again while older writes of it wait in the
//! backlog, or are in flight when the backlog reads them. Such a superseded write must be
//! dropped, not read back (its place holds newer data: checking it would report a bad
//! write number for no fault of the storage), and the newest write of every place must
//! still be verified exactly once. The workload's own trims (`trimwrite`) change their
//! place as writes do.
//!
//! Each job logs what it issues (`write_iolog`); the log shows which write each verify
//! read checks (the newest write of its place when it is issued), so the test checks the
//! rule itself, not only the absence of failures, on every engine at depths 1 and 8.

use super::reads::check_reads;
use super::runs::{available, logged_run, run_json};
use crate::support::iolog::read_data_ios;
use crate::support::run::{tempdir, text, IOMARK};
use crate::support::tools::fio_installed;

/// The jobs: overwrites of one block size, of mixed sizes with a batch below the backlog
/// (`verify_backlog_batch` below `verify_backlog`), a batch larger than the backlog, and
/// sequential passes over a small file.
const JOBS: &str = "\
    [same]\nwrite_iolog=same.log\nrw=randwrite\nnorandommap=1\nbs=4k\nloops=20\nverify_backlog=4\n\n\
    [mixed]\nwrite_iolog=mixed.log\nrw=randwrite\nnorandommap=1\nbsrange=4k-16k\nloops=10\nverify_backlog=5\n\
    verify_backlog_batch=3\n\n\
    [bigbatch]\nwrite_iolog=bigbatch.log\nrw=randwrite\nnorandommap=1\nbs=4k\nloops=10\nverify_backlog=6\n\
    verify_backlog_batch=9\n\n\
    [passes]\nwrite_iolog=passes.log\nrw=write\nbs=4k\nsize=32k\nloops=6\nverify_backlog=3\n";

#[test]
fn backlog_reads_skip_overwritten_writes_and_verify_every_newest_one_once() {
    // Seeds 1-4 checking on the job's thread, 5-6 on two verify_async helpers.
    assert!(on_every_engine(JOBS, 1..=6, false) >= 8, "no engine ran");
}

/// `trimwrite` jobs: the workload trims each block before it writes it. A verify read of
/// an older write of a place that a trim has zeroed since (done or in flight) would fail
/// for no fault of the storage: the trim supersedes the older write as a write does, and
/// the rewrite is verified in its turn. With `verify_backlog` (batches below, at and
/// above it), without it, over mixed block sizes, `:N` runs, sequential passes and
/// with `trim_percentage` trimming some of the writes too.
const TRIMWRITE_JOBS: &str = "\
    [rtw]\nwrite_iolog=rtw.log\nrw=randtrimwrite\nnorandommap=1\nbs=4k\nloops=8\nverify_backlog=4\n\n\
    [lag]\nwrite_iolog=lag.log\nrw=randtrimwrite\nnorandommap=1\nbsrange=4k-16k\nloops=6\n\
    verify_backlog=5\nverify_backlog_batch=3\n\n\
    [split]\nwrite_iolog=split.log\nrw=randtrimwrite\nnorandommap=1\nbssplit=4k/50:8k/25:16k/25\n\
    loops=6\nverify_backlog=6\nverify_backlog_batch=9\n\n\
    [runs]\nwrite_iolog=runs.log\nrw=randtrimwrite:4\nnorandommap=1\nbs=4k\nloops=6\nverify_backlog=7\n\n\
    [end]\nwrite_iolog=end.log\nrw=randtrimwrite\nnorandommap=1\nbsrange=4k-8k\nloops=6\n\n\
    [passes]\nwrite_iolog=passes.log\nrw=trimwrite\nbs=4k\nsize=32k\nloops=4\nverify_backlog=3\n";

#[test]
fn trims_of_the_workload_supersede_older_writes_as_writes_do() {
    assert!(on_every_engine(TRIMWRITE_JOBS, 1..=6, false) >= 8, "no engine ran");
}

/// `trimwrite` with `trim_percentage`: the verify side trims some writes too, and those
/// blocks are read back as zeros.
const TRIMWRITE_PERCENT_JOBS: &str = "\
    [rtw]\nwrite_iolog=rtw.log\nrw=randtrimwrite\nnorandommap=1\nbs=4k\nloops=8\nverify_backlog=4\n\
    trim_percentage=40\ntrim_backlog=3\n\n\
    [end]\nwrite_iolog=end.log\nrw=randtrimwrite\nnorandommap=1\nbsrange=4k-8k\nloops=6\n\
    trim_percentage=60\ntrim_backlog=2\n\n\
    [passes]\nwrite_iolog=passes.log\nrw=trimwrite\nbs=4k\nsize=32k\nloops=4\nverify_backlog=5\n\
    trim_percentage=50\ntrim_backlog=4\ntrim_backlog_batch=2\n";

#[test]
fn trims_of_the_workload_and_of_trim_percentage_together() {
    assert!(on_every_engine(TRIMWRITE_PERCENT_JOBS, 1..=4, true) >= 8, "no engine ran");
}

/// Rate-limited `time_based` jobs: the I/O due after the end of the runtime (a write, a
/// backlog read, a trim) is drawn and held, and must not be issued in the verify phase,
/// where a write would overwrite a block the phase checks.
const HELD_JOBS: &str = "\
    [write]\nwrite_iolog=write.log\nrw=randwrite\nnorandommap=1\nsize=16k\nbs=4k\n\
    rate_iops=300\ntime_based\nruntime=60ms\n\n\
    [read]\nwrite_iolog=read.log\nrw=randwrite\nnorandommap=1\nsize=16k\nbs=4k\n\
    rate_iops=300\ntime_based\nruntime=60ms\nverify_backlog=1\n";

/// As `HELD_JOBS`, for a trim of `trim_percentage`.
const HELD_TRIM_JOBS: &str = "\
    [trim]\nwrite_iolog=trim.log\nrw=randwrite\nnorandommap=1\nsize=16k\nbs=4k\n\
    rate_iops=300\ntime_based\nruntime=60ms\ntrim_percentage=100\ntrim_backlog=1\n";

#[test]
fn requests_held_when_the_writes_end_are_not_issued_in_the_verify_phase() {
    assert!(on_every_engine(HELD_JOBS, 1..=3, false) >= 8, "no engine ran");
    assert!(on_every_engine(HELD_TRIM_JOBS, 1..=3, true) >= 8, "no engine ran");
}

/// Runs the sections `jobs` (each with its `write_iolog`) on every engine at depths 1 and
/// 8 with each of `seeds` (the last two with two `verify_async` helpers), checks that all
/// pass and that each log's reads are right (see `check_reads`); returns the runs.
fn on_every_engine(jobs: &str, seeds: std::ops::RangeInclusive<u64>, zeros_read: bool) -> usize {
    let mut ran = 0;
    let sections = jobs.matches("\n[").count() + 1;
    let helpers_from = seeds.end().saturating_sub(1);
    for engine in iomark_engine::registry::data_engines() {
        if !available(engine) {
            continue;
        }
        for depth in [1, 8] {
            for seed in seeds.clone() {
                let helpers = if seed >= helpers_from { "verify_async=2\n" } else { "" };
                let dir = tempdir();
                let job = format!(
                    "[global]\nioengine={engine}\niodepth={depth}\nsize=64k\nrandseed={seed}\n\
                     verify=crc32c\nverify_state_save=0\nfilename_format=$jobname.dat\n\
                     {helpers}\n{jobs}"
                );
                let (out, counts) = run_json(dir.path(), &job);
                let what = format!("{engine} iodepth={depth} randseed={seed}");
                let err = text(&out.stderr);
                if err.contains("Operation not supported") {
                    eprintln!("skipped: this file system cannot punch holes");
                    return usize::MAX;
                }
                assert_eq!(out.status.code(), Some(0), "{what}: {err}");
                assert_eq!(counts.len(), sections, "{what}");
                for (name, (error, reads, _)) in &counts {
                    assert_eq!(*error, 0, "{what} {name}");
                    let log = dir.path().join(format!("{}.log", name.split('#').next().unwrap()));
                    let checked = check_reads(&read_data_ios(&log), zeros_read)
                        .unwrap_or_else(|e| panic!("{what} {name}: {e}"));
                    assert_eq!(checked as u64, *reads, "{what} {name}");
                }
                ran += 1;
            }
        }
    }
    ran
}

/// (`verify_backlog`, `verify_backlog_batch`) pairs: batches below, at and above the
/// backlog, 0 (the default: the backlog).
const PAIRS: &[(u64, u64)] = &[
    (8, 3),
    (8, 8),
    (8, 1),
    (4, 2),
    (5, 3),
    (6, 4),
    (3, 1),
    (1, 1),
    (3, 5),
    (4, 9),
    (2, 7),
    (7, 0),
];

/// fio 3.33's backlog as read off its `write_iolog` (`W3` a write of block 3, `R3` its
/// verify read), for `writes` sequential blocks: whenever `backlog` writes wait
/// unverified, a batch of `batch` reads begins, oldest write first; a batch that owes
/// more reads than writes wait reads each next write as soon as it is written. What
/// waits when the writes end is read after them.
fn fio_backlog(writes: u64, backlog: u64, batch: u64) -> Vec<String> {
    let batch = if batch == 0 { backlog } else { batch };
    let (mut ios, mut next_read, mut left) = (Vec::new(), 0, 0);
    for w in 0..writes {
        ios.push(format!("W{w}"));
        loop {
            let waiting = w + 1 - next_read;
            if left == 0 && waiting >= backlog {
                left = batch;
            }
            if left == 0 || waiting == 0 {
                break;
            }
            ios.push(format!("R{next_read}"));
            next_read += 1;
            left -= 1;
        }
    }
    ios.extend((next_read..writes).map(|r| format!("R{r}")));
    ios
}

/// Runs `program` writing 64 blocks of 4 KiB with `verify_backlog` and
/// `verify_backlog_batch`: its I/Os (as in [`fio_backlog`]) and its counts.
fn backlog_run(program: &str, backlog: u64, batch: u64) -> (Vec<String>, [u64; 2]) {
    let (backlog, batch) =
        (format!("--verify_backlog={backlog}"), format!("--verify_backlog_batch={batch}"));
    logged_run(program, &["--size=256k", "--rw=write", &backlog, &batch])
}

#[test]
fn backlog_batches_come_in_fio_3_33_order() {
    for &(backlog, batch) in PAIRS {
        let what = format!("verify_backlog={backlog} verify_backlog_batch={batch}");
        let ours = backlog_run(IOMARK, backlog, batch);
        assert_eq!(ours, (fio_backlog(64, backlog, batch), [64, 64]), "{what}");
    }
}

#[test]
fn backlog_batches_match_fio_3_33_live() {
    if !fio_installed() {
        return;
    }
    for &(backlog, batch) in PAIRS {
        let what = format!("verify_backlog={backlog} verify_backlog_batch={batch}");
        assert_eq!(
            backlog_run(IOMARK, backlog, batch),
            backlog_run("fio", backlog, batch),
            "{what}"
        );
    }
}
