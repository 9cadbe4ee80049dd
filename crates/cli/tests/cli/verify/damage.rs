//! Data verification end to end (docs/verify.md): corruption injected into files written
//! with `verify` is found at the right offset by a `verify_only` run, for every method;
//! jobs without damage pass on every engine, with random maps, `norandommap` overwrites,
//! bssplit, several files and `numjobs`; `verify_state_save`/`verify_state_load` resume;
//! fio 3.33 and iomark read each other's blocks.
//!
//! Every run happens in a temporary directory that the test creates and removes; many
//! small jobs share one process (one job file) to keep the test fast.

use super::runs::{inject, iomark, run_json, undamaged_on_every_engine, Damage, METHODS};
use crate::support::run::{command, iomark_in, tempdir, text, IOMARK};
use crate::support::tools::fio_installed;

#[test]
fn every_injected_corruption_is_found_at_its_offset() {
    let all = [Damage::BitFlip, Damage::Sector, Damage::Swap];
    // 16 methods × 3 damages × 22 = 1056 cases, plus meta's header damage (swaps).
    let mut n = 0;
    for (chunk, seed) in METHODS.chunks(4).zip(1u64..) {
        n += inject(chunk, &all, 22, seed * 7919, "");
    }
    n += inject(&["meta"], &[Damage::Swap], 20, 99, "");
    assert!(n >= 1000, "only {n} cases");
}

#[test]
fn undamaged_jobs_pass_on_every_engine() {
    let runs = undamaged_on_every_engine("");
    assert!(runs.len() >= 2, "no engine ran");
}

#[test]
fn a_bad_block_ends_the_job_with_error_84_and_names_everything() {
    let dir = tempdir();
    let job = "[global]\nrw=write\nbs=4k\nsize=32k\nverify=crc32c\nverify_state_save=0\n\
               [j]\nfilename=f.dat\n";
    std::fs::write(dir.path().join("w.fio"), job.replace("[j]", "do_verify=0\n[j]")).expect("job");
    assert_eq!(iomark(dir.path(), &["w.fio"]).status.code(), Some(0));
    let path = dir.path().join("f.dat");
    let mut data = std::fs::read(&path).expect("file");
    data[3 * 4096 + 2000] ^= 0x80;
    std::fs::write(&path, &data).expect("damage");
    let dumped = job.replace("[j]", "verify_only=1\nverify_dump=1\n[j]");
    let (out, jobs) = run_json(dir.path(), &dumped);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains(
            "crc32c: verify failed at file f.dat offset 12288, length 4096 (requested block: \
             offset=12288, length=4096)"
        ),
        "{err}"
    );
    assert!(err.contains("Expected CRC: ") && err.contains("Received CRC: "), "{err}");
    assert!(err.contains("header found: magic=0xacca type=5 len=4096 offset=12288"), "{err}");
    // The job stopped at the bad block (fio 3.33 does the same), error 84 (EILSEQ).
    assert_eq!(jobs["j#0"], (84, 4, 0));
    let received = std::fs::read(dir.path().join("f.dat.12288.received")).expect("dump");
    assert_eq!(received, &data[12288..16384]);
    assert!(dir.path().join("f.dat.12288.expected").exists());
}

#[test]
fn verify_state_resumes_exactly_what_was_written() {
    let dir = tempdir();
    let job = "[global]\nrw=randwrite\nbs=4k\nsize=128k\nverify=md5\nrandseed=11\n[j]\n\
               filename=f.dat\n";
    // The first run stops after 10 of 32 writes and saves its state.
    let first = job.replace("[j]", "do_verify=0\nnumber_ios=10\n[j]");
    let (out, jobs) = run_json(dir.path(), &first);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(jobs["j#0"], (0, 0, 10));
    let state = std::fs::read_to_string(dir.path().join("local-j-0-verify.state")).expect("state");
    assert_eq!(state, "iomark verify state 1\nwrites=10\n");
    // Without the state, verify_only expects all 32 blocks and finds unwritten ones.
    let (out, _) = run_json(dir.path(), &job.replace("[j]", "verify_only=1\n[j]"));
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    // With it, exactly the 10 written blocks are verified.
    let resume = job.replace("[j]", "verify_only=1\nverify_state_load=1\n[j]");
    let (out, jobs) = run_json(dir.path(), &resume);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(jobs["j#0"], (0, 10, 0));
}

#[test]
fn fio_and_iomark_verify_each_others_blocks() {
    if !fio_installed() {
        return;
    }
    for method in
        ["md5", "crc64", "crc32c", "crc32", "crc16", "crc7", "sha1", "sha3-512", "xxhash", "meta"]
    {
        let dir = tempdir();
        let args = |file: &str, extra: &str| {
            let mut v: Vec<String> = [
                "--name=j",
                &format!("--filename={file}"),
                "--size=64k",
                "--bs=4k",
                "--rw=randwrite",
                &format!("--verify={method}"),
                "--verify_interval=1k",
                "--verify_state_save=0",
            ]
            .iter()
            .map(|s| s.to_string())
            .collect();
            v.push(extra.to_string());
            v
        };
        let run = |prog: &str, a: Vec<String>| {
            let out = command(prog).current_dir(dir.path()).args(&a).output().expect("run");
            (out.status.code(), text(&out.stdout))
        };
        let me = IOMARK;
        let (code, _) = run(me, args("mine.dat", "--do_verify=0"));
        assert_eq!(code, Some(0), "{method}");
        let (code, text) = run("fio", args("mine.dat", "--verify_only=1"));
        assert_eq!(code, Some(0), "fio verifying iomark's {method}: {text}");
        assert!(text.contains("err= 0"), "fio verifying iomark's {method}: {text}");
        let (code, _) = run("fio", args("theirs.dat", "--do_verify=0"));
        assert_eq!(code, Some(0), "{method}");
        let (code, text) = run(me, args("theirs.dat", "--verify_only=1"));
        assert_eq!(code, Some(0), "iomark verifying fio's {method}: {text}");
        assert!(text.contains("read: IOPS"), "{text}");
    }
}

#[test]
fn damaged_header_fields_are_reported_as_fio_reports_them() {
    if !fio_installed() {
        return;
    }
    let dir = tempdir();
    let base = ["--name=j", "--filename=f.dat", "--size=256k", "--bs=4k", "--rw=write"];
    let run = |prog: &str, extra: &[&str]| {
        let out = command(prog)
            .current_dir(dir.path())
            .args(base)
            .args(["--verify=crc32c", "--verify_state_save=0", "--output=/dev/null"])
            .args(extra)
            .output()
            .expect("run");
        let text = text(&out.stderr);
        // The failure lines and fio's checksum lines (iomark adds the header it found).
        let failures: Vec<String> = text
            .lines()
            .filter(|l| l.contains("verify") || l.contains(" CRC: "))
            .map(str::to_string)
            .collect();
        (out.status.code(), failures)
    };
    assert_eq!(run("fio", &["--do_verify=0"]).0, Some(0));
    // Two bytes of each header field of one block each: magic, type, length, seed, offset,
    // time, thread, write number, header CRC; and the data under the checksum.
    let mut data = std::fs::read(dir.path().join("f.dat")).expect("read the file");
    for (block, at) in [0, 2, 5, 9, 17, 25, 32, 34, 37, 100].into_iter().enumerate() {
        let i = (block + 1) * 4096 + at;
        data[i] ^= 0x5a;
        data[i + 1] ^= 0xa5;
    }
    std::fs::write(dir.path().join("f.dat"), &data).expect("write the file");
    let check = ["--verify_only=1", "--continue_on_error=verify"];
    let (_, mut fio) = run("fio", &check);
    // fio adds its I/O unit's internal flags to a checksum failure; iomark has none.
    for line in &mut fio {
        if let Some(at) = line.find(", flags=") {
            line.replace_range(at..line.len() - 1, "");
        }
    }
    let (code, ours) = run(IOMARK, &check);
    assert_eq!(fio.len(), 12, "{fio:#?}");
    assert_eq!(ours, fio);
    assert_eq!(code, Some(1));
    // Each bad block the job went on past is an error of the job, as in fio.
    let errors = |prog: &str| {
        let out = command(prog)
            .current_dir(dir.path())
            .args(base)
            .args(["--verify=crc32c", "--verify_state_save=0", "--output-format=json"])
            .args(check)
            .output()
            .expect("run");
        let text = text(&out.stdout);
        let json: serde_json::Value =
            serde_json::from_str(&text[text.find('{').expect("a report")..]).expect("JSON");
        let job = &json["jobs"][0];
        ["error", "total_err", "first_error"].map(|k| job[k].as_u64())
    };
    assert_eq!(errors(IOMARK), errors("fio"));
    assert_eq!(errors("fio"), [Some(84), Some(10), Some(84)]);
}

#[test]
fn a_job_that_only_reads_checks_every_read_as_fio_does() {
    if !fio_installed() {
        return;
    }
    let dir = tempdir();
    let run = |prog: &str, args: &[&str]| {
        let out = command(prog)
            .current_dir(dir.path())
            .args(["--name=j", "--filename=f.dat", "--size=128k", "--bs=4k", "--verify=md5"])
            .args(["--verify_state_save=0", "--output=/dev/null"])
            .args(args)
            .output()
            .expect("run");
        let text = text(&out.stderr);
        let failures: Vec<String> =
            text.lines().filter(|l| l.contains("verify")).map(str::to_string).collect();
        (out.status.code(), failures)
    };
    let me = IOMARK;
    // Written by iomark, read back by both (do_verify=0 does not stop a read job's checks).
    assert_eq!(run(me, &["--rw=randwrite", "--do_verify=0"]), (Some(0), vec![]));
    for prog in [me, "fio"] {
        for rw in ["--rw=read", "--rw=randread"] {
            assert_eq!(run(prog, &[rw, "--do_verify=0"]), (Some(0), vec![]), "{prog} {rw}");
        }
    }
    // Two damaged blocks: both tools report the same, and a mixed job checks nothing.
    let mut data = std::fs::read(dir.path().join("f.dat")).expect("read the file");
    data[3 * 4096 + 20] ^= 1;
    data[9 * 4096 + 1000] ^= 1;
    std::fs::write(dir.path().join("f.dat"), &data).expect("write the file");
    let go_on = ["--rw=read", "--continue_on_error=verify"];
    let (_, mut fio) = run("fio", &go_on);
    for line in &mut fio {
        if let Some(at) = line.find(", flags=") {
            line.replace_range(at..line.len() - 1, "");
        }
    }
    assert_eq!(fio.len(), 2, "{fio:?}");
    assert_eq!(run(me, &go_on), (Some(1), fio.clone()));
    assert_eq!(run(me, &["--rw=read"]), (Some(1), fio[..1].to_vec()));
    let (code, failures) = run(me, &["--rw=randrw", "--do_verify=0"]);
    assert_eq!((code, failures.len()), (Some(0), 0));
}

#[test]
fn the_writes_after_ramp_time_stay_counted_through_the_verify_phase() {
    // Under the fake clock the ramp ends at the same write every run: the writes counted
    // after it are the same with and without verification (the verify phase once ended
    // the ramp a second time, clearing them).
    let mut writes = Vec::new();
    for verify in ["verify=crc32c", "verify=0"] {
        let dir = tempdir();
        let verify_arg = format!("--{verify}");
        let args = ["--name=j", "--filename=f.dat", "--size=1m", "--bs=4k", "--rw=write"];
        let more = ["--ramp_time=100us", "--verify_state_save=0", "--output-format=json"];
        let out = iomark_in(dir.path(), &[&args[..], &more, &[&verify_arg]].concat(), true);
        assert_eq!(out.status.code(), Some(0), "{verify}: {}", text(&out.stderr));
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
        let ios = |d: &str| json["jobs"][0][d]["total_ios"].as_u64().expect("total_ios");
        assert_eq!(ios("read"), if verify == "verify=0" { 0 } else { 256 }, "{verify}");
        writes.push(ios("write"));
    }
    assert!(writes[0] > 0 && writes[0] < 256, "{writes:?}");
    assert_eq!(writes[0], writes[1]);
}
