//! `read_iolog`: replaying fio's and iomark's I/O logs, exactly.
//!
//! A replay is checked I/O by I/O: the replaying job writes a completion-latency log with
//! offsets (`write_lat_log`, `log_offset=1`, one row per I/O of a synchronous engine, in issue
//! order), whose direction, length and offset columns must list the log's data I/Os in the
//! log's order; its syncs are counted in the JSON report. iomark's own `write_iolog` of a
//! replay must repeat the log's I/O lines. Logs written by fio 3.33 and by iomark are
//! replayed by both programs where fio is installed (else `skipped: fio not installed`).
//!
//! Every run happens in a temporary directory that the test creates and removes; the jobs
//! name their files relative to it. blktrace traces: `blktrace.rs`.

mod blktrace;

use crate::support::iolog::without_times;
use crate::support::report::report_json;
use crate::support::run::{run_in, tempdir, text, IOMARK};
use crate::support::tools::programs;
use serde_json::Value;
use std::path::Path;

/// Runs `program` with `args` and a JSON report in `dir` (it must succeed); the report.
fn run(dir: &Path, program: &str, args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.push("--output-format=json");
    let out = run_in(dir, program, &all);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{program} {args:?}: {stderr}");
    report_json(program, &out)
}

/// A data I/O: direction (0 read, 1 write, 2 trim), length, offset.
type Io = (u8, u64, u64);

/// The data I/Os and the number of syncs of an iolog (version 2 or 3).
fn log_ios(text: &str) -> (Vec<Io>, u64) {
    let mut ios = Vec::new();
    let mut syncs = 0;
    let v3 = text.starts_with("fio version 3");
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split_whitespace().skip(usize::from(v3)).collect();
        let ddir = match f.get(1).copied() {
            Some("read") => 0,
            Some("write") => 1,
            Some("trim") => 2,
            Some("sync" | "datasync") => {
                syncs += 1;
                continue;
            }
            _ => continue,
        };
        ios.push((ddir, f[3].parse().expect("length"), f[2].parse().expect("offset")));
    }
    (ios, syncs)
}

/// The I/Os of a latency log written with `log_offset=1`.
fn lat_log_ios(dir: &Path, name: &str) -> Vec<Io> {
    let text = std::fs::read_to_string(dir.join(name)).expect("latency log");
    text.lines()
        .map(|l| {
            let f: Vec<u64> = l.split(", ").map(|x| x.trim().parse().expect("a number")).collect();
            (f[2] as u8, f[3], f[4])
        })
        .collect()
}

/// Replays `log` (in `dir`) with `program` and returns the I/Os it did and its syncs.
fn replay(dir: &Path, program: &str, log: &str, extra: &[&str]) -> (Vec<Io>, u64) {
    for f in ["R_clat.1.log", "R_slat.1.log", "R_lat.1.log"] {
        let _ = std::fs::remove_file(dir.join(f));
    }
    let mut args = vec![
        "--name=r".to_string(),
        format!("--read_iolog={log}"),
        "--write_lat_log=R".into(),
        "--log_offset=1".into(),
        "--replay_no_stall=1".into(),
    ];
    args.extend(extra.iter().map(|a| a.to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let r = run(dir, program, &args);
    let syncs = r["jobs"][0]["sync"]["total_ios"].as_u64().expect("sync ios");
    (lat_log_ios(dir, "R_clat.1.log"), syncs)
}

/// Writes `log` with `program` from a mixed random job with syncs on `data` (256 KiB).
fn record(dir: &Path, program: &str, log: &str) -> String {
    let iolog = format!("--write_iolog={log}");
    let args = [
        "--name=w",
        "--filename=data",
        "--size=256k",
        "--rw=randrw",
        "--bs=4k",
        "--fsync=4",
        "--randrepeat=0",
        &iolog,
    ];
    run(dir, program, &args);
    std::fs::read_to_string(dir.join(log)).expect("the iolog")
}

#[test]
fn logs_of_both_programs_replay_exactly_under_both() {
    let recorders = programs();
    for recorder in &recorders {
        let dir = tempdir();
        let text = record(dir.path(), recorder, "w.log");
        let (want, syncs) = log_ios(&text);
        assert!(want.len() == 64 && syncs > 0, "{recorder}: {} I/Os, {syncs} syncs", want.len());
        for player in programs() {
            let got = replay(dir.path(), player, "w.log", &[]);
            assert_eq!(got, (want.clone(), syncs), "log of {recorder} replayed by {player}");
        }
    }
}

#[test]
fn a_replay_logged_again_gives_the_same_log() {
    let dir = tempdir();
    let text = record(dir.path(), IOMARK, "w.log");
    let args = ["--name=r", "--read_iolog=w.log", "--write_iolog=again.log", "--replay_no_stall=1"];
    run(dir.path(), IOMARK, &args);
    let again = std::fs::read_to_string(dir.path().join("again.log")).expect("the new log");
    // The same lines but for their times.
    assert_eq!(without_times(&again), without_times(&text));
}

#[test]
fn a_chunked_replay_is_the_whole_replay_under_both() {
    // More than two of iomark's chunks (4096 I/Os each), reads and writes over 16 MiB.
    let dir = tempdir();
    std::fs::write(dir.path().join("data"), vec![3u8; 16 << 20]).expect("write file");
    let mut text = String::from("fio version 3 iolog\n0 data add\n0 data open\n");
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    for i in 0..10_000u64 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let action = if x % 3 == 0 { "write" } else { "read" };
        let len = 4096 * (1 + (x >> 8) % 4);
        let offset = (x >> 16) % ((16 << 20) / 4096 - 4) * 4096;
        text.push_str(&format!("{} data {action} {offset} {len}\n", i + 1));
    }
    text.push_str("10001 data close\n");
    std::fs::write(dir.path().join("long.log"), &text).expect("write log");
    let (want, _) = log_ios(&text);
    for program in programs() {
        let whole = replay(dir.path(), program, "long.log", &[]);
        let chunked = replay(dir.path(), program, "long.log", &["--read_iolog_chunked=1"]);
        assert_eq!(whole.0, want, "{program}: whole");
        assert_eq!(chunked, whole, "{program}: chunked");
    }
}

/// A version 2 log on two files, with a wait (milliseconds, as fio 3.33 reads them). (No
/// `datasync`: fio 3.33 leaves those out of its sync count.)
const V2: &str = "fio version 2 iolog\na add\nb add\na open\nb open\na write 0 4096\n\
                  b write 8192 8192\na wait 1 0\nb read 8192 512\na sync 0 0\n\
                  a read 4096 4096\nb sync 0 0\na close\nb close\n";

#[test]
fn a_version_2_log_on_two_files_replays_as_in_fio() {
    for program in programs() {
        let dir = tempdir();
        for (name, len) in [("a", 65536), ("b", 65536)] {
            std::fs::write(dir.path().join(name), vec![7u8; len]).expect("write file");
        }
        std::fs::write(dir.path().join("v2.log"), V2).expect("write log");
        let got = replay(dir.path(), program, "v2.log", &[]);
        let want = vec![(1, 4096, 0), (1, 8192, 8192), (0, 512, 8192), (0, 4096, 4096)];
        assert_eq!(got, (want, 2), "{program}");
    }
}

/// Where an offset of the log ends up.
type Move = fn(u64) -> u64;

#[test]
fn scale_align_and_redirect_move_the_ios_as_in_fio() {
    let cases: [(&[&str], Move); 3] = [
        (&["--replay_scale=2"], |o| o / 2),
        (&["--replay_align=16384"], |o| o & !16383),
        (&["--replay_scale=2", "--replay_align=16384"], |o| (o / 2) & !16383),
    ];
    let dir = tempdir();
    let text = record(dir.path(), IOMARK, "w.log");
    let (want, syncs) = log_ios(&text);
    for program in programs() {
        for (extra, moved) in cases {
            let want: Vec<Io> = want.iter().map(|&(d, l, o)| (d, l, moved(o))).collect();
            let got = replay(dir.path(), program, "w.log", extra);
            assert_eq!(got, (want, syncs), "{program} {extra:?}");
        }
        // All of it onto another file of the same size.
        std::fs::write(dir.path().join("other"), vec![1u8; 256 << 10]).expect("write file");
        let got = replay(dir.path(), program, "w.log", &["--replay_redirect=other"]);
        assert_eq!(got.0, want, "{program} redirect");
        let written = std::fs::read(dir.path().join("other")).expect("other");
        assert!(written.iter().any(|&b| b != 1), "{program}: the writes went to 'other'");
    }
}

/// Clone N replays log N mod count, as fio's HOWTO says ("sequentially assigned"); fio 3.33
/// deals them in another order (with two logs and three clones: first, first, second), so
/// this is iomark's alone.
#[test]
fn clones_take_the_logs_in_turn() {
    let dir = tempdir();
    let one = "fio version 3 iolog\n0 data add\n0 data open\n1 data write 0 4096\n";
    let two = "fio version 3 iolog\n0 data add\n0 data open\n1 data read 0 4096\n\
               2 data read 4096 4096\n";
    std::fs::write(dir.path().join("one.log"), one).expect("write log");
    std::fs::write(dir.path().join("two.log"), two).expect("write log");
    std::fs::write(dir.path().join("data"), vec![0u8; 8192]).expect("write file");
    let args = ["--name=r", "--read_iolog=one.log:two.log", "--numjobs=3"];
    let r = run(dir.path(), IOMARK, &args);
    let ios: Vec<(u64, u64)> = (0..3)
        .map(|j| {
            let job = &r["jobs"][j];
            let n = |d: &str| job[d]["total_ios"].as_u64().expect("total_ios");
            (n("read"), n("write"))
        })
        .collect();
    assert_eq!(ios, [(0, 1), (2, 0), (0, 1)]);
}

#[test]
fn a_file_that_is_not_an_iolog_is_refused() {
    let dir = tempdir();
    std::fs::write(dir.path().join("bad.log"), "hello\n").expect("write log");
    std::fs::write(dir.path().join("nofile.log"), "fio version 3 iolog\n0 x read 0 1\n")
        .expect("write log");
    for (log, says) in [("bad.log", "neither a fio iolog"), ("nofile.log", "line 2: file 'x'")] {
        let out = run_in(dir.path(), IOMARK, &["--name=r", &format!("--read_iolog={log}")]);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains("job 'r': option 'read_iolog'") && err.contains(says), "{err}");
    }
}
