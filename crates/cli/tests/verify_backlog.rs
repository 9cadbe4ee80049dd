//! `verify_backlog` with overwrites (docs/verify.md): with `norandommap`, several loops or
//! overlapping block sizes a place is written again while older writes of it wait in the
//! backlog, or are in flight when the backlog reads them. Such a superseded write must be
//! dropped, not read back (its place holds newer data: checking it would report a bad
//! write number for no fault of the storage), and the newest write of every place must
//! still be verified exactly once.
//!
//! Each job logs what it issues (`write_iolog`); the log shows which write each verify
//! read checks (the newest write of its place when it is issued), so the test checks the
//! rule itself, not only the absence of failures, on every engine at depths 1 and 8.

mod verifying;

use std::path::Path;
use verifying::{available, run_json, stderr};

/// One I/O of an iolog: (is a write, file, offset, length).
type Io = (bool, String, u64, u64);

fn read_iolog(path: &Path) -> Vec<Io> {
    let text = std::fs::read_to_string(path).expect("iolog");
    text.lines()
        .filter_map(|line| {
            let f: Vec<&str> = line.split_whitespace().collect();
            let write = match f.get(2) {
                Some(&"write") => true,
                Some(&"read") => false,
                _ => return None,
            };
            let num = |i: usize| f[i].parse::<u64>().expect("number");
            Some((write, f[1].to_string(), num(3), num(4)))
        })
        .collect()
}

/// Checks that every read of `ios` reads back the newest write of its place (the same
/// extent, not overlapped by anything issued since), that no write is read back twice,
/// and that every write nothing overwrote afterwards is read back. Returns the reads.
fn check_reads(ios: &[Io]) -> Result<usize, String> {
    // Per write issued so far: (file, offset, length, times read back, overwritten).
    let mut writes: Vec<(String, u64, u64, u32, bool)> = Vec::new();
    let overlaps =
        |a: (&str, u64, u64), b: (&str, u64, u64)| a.0 == b.0 && a.1 < b.1 + b.2 && b.1 < a.1 + a.2;
    let mut reads = 0;
    for (i, (write, file, offset, len)) in ios.iter().enumerate() {
        let io = (file.as_str(), *offset, *len);
        if *write {
            for w in writes.iter_mut().filter(|w| overlaps((&w.0, w.1, w.2), io)) {
                w.4 = true;
            }
            writes.push((file.clone(), *offset, *len, 0, false));
            continue;
        }
        reads += 1;
        let newest = writes.iter_mut().rev().find(|w| overlaps((&w.0, w.1, w.2), io));
        match newest {
            Some(w) if (w.1, w.2) == (*offset, *len) => {
                w.3 += 1;
                if w.3 > 1 {
                    return Err(format!("I/O {i}: {offset}+{len} of {file} read back twice"));
                }
            }
            other => {
                return Err(format!(
                    "I/O {i}: the read of {offset}+{len} in {file} does not check the \
                     newest write there ({other:?})"
                ))
            }
        }
    }
    match writes.iter().find(|w| !w.4 && w.3 != 1) {
        Some(w) => {
            Err(format!("the last write of {}+{} in {} was read {} times", w.1, w.2, w.0, w.3))
        }
        None => Ok(reads),
    }
}

/// The jobs: overwrites of one block size, of mixed sizes with a lagging backlog
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
    let mut ran = 0;
    for engine in iomark_engine::ENGINES.iter().copied().filter(|&e| e != "null") {
        if !available(engine) {
            continue;
        }
        for depth in [1, 8] {
            // Seeds 1-4 checking on the job's thread, 5-6 on two verify_async helpers.
            for seed in 1..=6 {
                let helpers = if seed > 4 { "verify_async=2\n" } else { "" };
                let dir = tempfile::tempdir().expect("temporary directory");
                let job = format!(
                    "[global]\nioengine={engine}\niodepth={depth}\nsize=64k\nrandseed={seed}\n\
                     verify=crc32c\nverify_state_save=0\nfilename_format=$jobname.dat\n\
                     {helpers}\n{JOBS}"
                );
                let (out, jobs) = run_json(dir.path(), &job);
                let what = format!("{engine} iodepth={depth} randseed={seed}");
                assert_eq!(out.status.code(), Some(0), "{what}: {}", stderr(&out));
                assert_eq!(jobs.len(), 4, "{what}");
                for (name, (error, reads, _)) in &jobs {
                    assert_eq!(*error, 0, "{what} {name}");
                    let log = dir.path().join(format!("{}.log", name.split('#').next().unwrap()));
                    let checked = check_reads(&read_iolog(&log))
                        .unwrap_or_else(|e| panic!("{what} {name}: {e}"));
                    assert_eq!(checked as u64, *reads, "{what} {name}");
                }
                ran += 1;
            }
        }
    }
    assert!(ran >= 8, "no engine ran");
}
