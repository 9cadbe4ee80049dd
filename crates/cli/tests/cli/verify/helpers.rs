//! `verify_async` and `verify_async_cpus` end to end (docs/verify.md): blocks checked on
//! helper threads give what checking on the job's thread gives. Undamaged jobs pass on
//! every engine at depths 1 and 8 with the same counts; injected corruptions are found at
//! their offsets; the reports, counts and errors of bad blocks are those of synchronous
//! checking; the CPU list is applied, and bad values are refused with exit code 2.

use super::runs::{inject, iomark, run_json, undamaged_on_every_engine, Damage, METHODS};
use crate::support::run::{tempdir, text};
use std::path::Path;

#[test]
fn undamaged_jobs_pass_on_every_engine_with_the_counts_of_synchronous_checks() {
    let sync = undamaged_on_every_engine("");
    let helpers = undamaged_on_every_engine("verify_async=2\n");
    assert!(helpers.len() >= 2, "no engine ran");
    assert_eq!(helpers, sync);
    // More helpers than blocks in flight, all pinned to the first CPU.
    assert_eq!(undamaged_on_every_engine("verify_async=5\nverify_async_cpus=0\n"), sync);
}

#[test]
fn injected_corruptions_are_found_at_their_offsets_by_helpers() {
    let all = [Damage::BitFlip, Damage::Sector, Damage::Swap];
    // 4 methods × 3 damages × 3, twice: 72 cases, each stopping the job at its first bad
    // block, then each reporting every bad block (the first found is checked).
    let mut n = inject(&METHODS[..4], &all, 3, 31, "verify_async=2\n");
    n += inject(&METHODS[8..12], &all, 3, 37, "verify_async=2\ncontinue_on_error=verify\n");
    assert_eq!(n, 72);
}

/// Writes `f.dat` (256 blocks of 4k, crc32c), damages blocks 5, 40, 41 and 200 (a bit
/// each) and verifies it with `extra`: (exit code, standard error, error, reads).
fn verify_damaged(dir: &Path, extra: &str) -> (Option<i32>, String, i64, u64) {
    let job = "[global]\nrw=randwrite\nbs=4k\nsize=1m\nverify=crc32c\nrandseed=3\n\
               verify_state_save=0\nioengine=psync\n[j]\nfilename=f.dat\n";
    let path = dir.join("f.dat");
    if !path.exists() {
        let (out, _) = run_json(dir, &job.replace("[j]", "do_verify=0\n[j]"));
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let mut data = std::fs::read(&path).expect("file");
        for block in [5, 40, 41, 200] {
            data[block * 4096 + 1000] ^= 4;
        }
        std::fs::write(&path, &data).expect("damage");
    }
    let (out, jobs) = run_json(dir, &job.replace("[j]", &format!("verify_only=1\n{extra}[j]")));
    let (error, reads, _) = jobs["j#0"];
    (out.status.code(), text(&out.stderr), error, reads)
}

#[test]
fn bad_blocks_give_the_reports_counts_and_errors_of_synchronous_checks() {
    let dir = tempdir();
    let dir = dir.path();
    for depth in [1, 8] {
        let engine = format!("iodepth={depth}\n");
        // Every bad block reported, in the order read, with the same counts.
        let keep = format!("{engine}continue_on_error=verify\n");
        let sync = verify_damaged(dir, &keep);
        assert_eq!((sync.0, sync.2, sync.3), (Some(1), 84, 256), "{}", sync.1);
        assert_eq!(sync.1.matches("verify failed").count(), 4, "{}", sync.1);
        for helpers in [1, 2, 4] {
            let got = verify_damaged(dir, &format!("{keep}verify_async={helpers}\n"));
            assert_eq!(got, sync, "verify_async={helpers} iodepth={depth}");
        }
        // The first bad block ends the job, and it alone is reported (verify_fatal=0
        // reports each of its bad chunks: it has one).
        let sync = verify_damaged(dir, &engine);
        assert_eq!((sync.0, sync.2), (Some(1), 84));
        assert_eq!(sync.1.matches("verify failed").count(), 1, "{}", sync.1);
        for helpers in [1, 2, 4] {
            for _ in 0..5 {
                let got = verify_damaged(dir, &format!("{engine}verify_async={helpers}\n"));
                assert_eq!((got.0, &got.1, got.2), (sync.0, &sync.1, sync.2));
                // The job stops once it learns of the bad block: a few more reads may
                // have completed by then (fio 3.33 too).
                assert!(got.3 >= sync.3, "{} reads, {} without helpers", got.3, sync.3);
            }
        }
    }
}

#[test]
fn verify_async_cpus_is_applied_and_bad_values_are_refused_by_name() {
    let dir = tempdir();
    let job = "[j]\nrw=randwrite\nbs=4k\nsize=64k\nverify=md5\nverify_state_save=0\n\
               filename=f.dat\nverify_async=2\n";
    let (out, jobs) = run_json(dir.path(), &format!("{job}verify_async_cpus=0\n"));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(jobs["j#0"], (0, 16, 16));
    let lacking = iomark_engine::thread::configured_cpus();
    // (option, value, what the message must name: the value, or the CPU it lacks)
    let mut bad = vec![
        // (`x-y` runs, read as fio 3.33 reads it: CPU 0; a reversed range is refused.)
        ("verify_async_cpus", "1-x".to_string(), "1-x".to_string()),
        ("verify_async", "-1".into(), "-1".into()),
    ];
    if lacking < 1024 {
        bad.push(("verify_async_cpus", format!("0,{lacking}"), format!("CPU {lacking}")));
    }
    for (option, value, named) in bad {
        let file = dir.path().join("bad.fio");
        std::fs::write(&file, format!("{job}{option}={value}\n")).expect("job file");
        let out = iomark(dir.path(), &["bad.fio"]);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{option}={value}: {err}");
        assert!(
            err.contains("'j'") && err.contains(option) && err.contains(named.as_str()),
            "{option}={value}: {err}"
        );
    }
}
