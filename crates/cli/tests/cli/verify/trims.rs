//! `trim_percentage`, `trim_backlog`, `trim_backlog_batch` and `trim_verify_zero` end to end
//! (docs/verify.md): the trims a verifying job issues, in fio 3.33's order and counts (its
//! `write_iolog` and JSON, measured on a loop device, and compared live where fio, root and
//! `losetup` are there); trimmed blocks verified as zeros; a trimmed block that holds data
//! reported at its offset, as fio 3.33 reports it; bad values refused.
//!
//! Every run happens in a temporary directory (or on a loop device) that the test creates
//! and removes.

use crate::support::devices::LoopDevice;
use crate::support::iolog::read_data_ios;
use crate::support::report::report_json;
use crate::support::run::{run_in, run_job_file, tempdir, text, IOMARK};
use crate::support::tools::{engine_available, fio_installed};
use serde_json::Value;
use std::path::Path;
use std::process::Output;

/// The I/Os of a `write_iolog` file, as `T3`, `W3`, `R3` (the direction, then the offset
/// in 4 KiB blocks); every one is of 4 KiB.
fn log_ios(path: &Path) -> Vec<String> {
    let ios = read_data_ios(path);
    assert!(ios.iter().all(|io| io.len == 4096), "{ios:?}");
    ios.iter().map(|io| format!("{}{}", io.action[..1].to_uppercase(), io.offset / 4096)).collect()
}

/// The I/Os and counts of one job, as fio 3.33 ran it or as iomark must.
#[derive(Debug, PartialEq)]
struct Run {
    ios: Vec<String>,
    /// Per direction (read, write, trim): I/Os and bytes.
    counts: [(u64, u64); 3],
    error: i64,
}

impl Run {
    fn expected(ios: &str, reads: u64, writes: u64, trims: u64) -> Run {
        let count = |n: u64| (n, n * 4096);
        Run {
            ios: ios.split_whitespace().map(str::to_string).collect(),
            counts: [count(reads), count(writes), count(trims)],
            error: 0,
        }
    }
}

/// Runs `program` in `dir` on `target` with the common options and `extra`.
fn run(program: &str, dir: &Path, target: &str, extra: &str) -> (Run, Output) {
    let mut args = vec![
        "--name=j".to_string(),
        format!("--filename={target}"),
        "--size=64k".into(),
        "--bs=4k".into(),
        "--ioengine=psync".into(),
        "--verify=crc32c".into(),
        "--verify_state_save=0".into(),
        "--output-format=json".into(),
        "--write_iolog=io.log".into(),
    ];
    args.extend(extra.split_whitespace().map(|a| format!("--{a}")));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = run_in(dir, program, &args);
    let json = report_json(program, &out);
    let job = &json["jobs"][0];
    let dir_counts = |d: &str| {
        let n = |k: &str| job[d][k].as_u64().expect("count");
        (n("total_ios"), n("io_bytes"))
    };
    let run = Run {
        ios: log_ios(&dir.join("io.log")),
        counts: [dir_counts("read"), dir_counts("write"), dir_counts("trim")],
        error: job["error"].as_i64().expect("error"),
    };
    (run, out)
}

/// Sequential trimwrite jobs of 16 blocks with every write chosen for trimming, each with
/// what fio 3.33 did (its write_iolog and JSON on a loop device).
const MEASURED: &[(&str, &str, [u64; 3])] = &[
    (
        "trim_backlog=4",
        "T0 W0 T1 W1 T2 W2 T3 W3 T0 T1 T2 T3 T4 W4 T4 T5 W5 T6 W6 T7 W7 T5 T6 T7 T8 W8 T8 T9 W9 \
         T9 T10 W10 T11 W11 T10 T11 T12 W12 T12 T13 W13 T13 T14 W14 T14 T15 W15 T15 R0 R1 R2 R3 \
         R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R14 R15",
        [16, 16, 32],
    ),
    (
        "trim_backlog=4 trim_verify_zero=0",
        "T0 W0 T1 W1 T2 W2 T3 W3 T0 T1 T2 T3 T4 W4 T4 T5 W5 T6 W6 T7 W7 T8 W8 T5 T6 T7 T8 T9 W9 \
         T9 T10 W10 T11 W11 T12 W12 T13 W13 T10 T11 T12 T13 T14 W14 T14 T15 W15 R15",
        [1, 16, 31],
    ),
    (
        "trim_backlog=4 trim_backlog_batch=2",
        "T0 W0 T1 W1 T2 W2 T3 W3 T0 T1 T2 T3 T4 W4 T4 T5 W5 T5 T6 W6 T7 W7 T6 T7 T8 W8 T8 T9 W9 \
         T10 W10 T11 W11 T9 T10 T11 T12 W12 T13 W13 T14 W14 T15 W15 T12 T13 T14 T15 R0 R1 R2 R3 \
         R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R14 R15",
        [16, 16, 32],
    ),
    (
        "trim_backlog=3 verify_backlog=5",
        "T0 W0 T1 W1 T2 W2 T0 T1 T2 T3 W3 T3 T4 W4 R0 R1 R2 R3 R4 T5 W5 T6 W6 T7 W7 T5 T6 T7 T8 \
         W8 T8 T9 W9 R5 R6 R7 R8 R9 T10 W10 T11 W11 T12 W12 T10 T11 T12 T13 W13 T13 T14 W14 R10 \
         R11 R12 R13 R14 T15 W15 R15",
        [16, 16, 28],
    ),
    // verify_backlog_batch below verify_backlog: the reads leave a multiple of
    // trim_backlog waiting, and the batch of trims begins after the workload's next trim.
    (
        "trim_backlog=3 verify_backlog=5 verify_backlog_batch=2",
        "T0 W0 T1 W1 T2 W2 T0 T1 T2 T3 W3 T3 T4 W4 R0 R1 T5 T4 W5 T5 T6 W6 R2 R3 T6 T7 W7 T7 \
         T8 W8 R4 R5 T9 T8 W9 T9 T10 W10 R6 R7 T10 T11 W11 T11 T12 W12 R8 R9 T13 T12 W13 T13 \
         T14 W14 R10 R11 T14 T15 W15 T15 R12 R13 R14 R15",
        [16, 16, 32],
    ),
    (
        "trim_backlog=2 trim_backlog_batch=1 verify_backlog=4 verify_backlog_batch=2",
        "T0 W0 T1 W1 T0 T1 T2 W2 T3 W3 R0 R1 T4 T2 T3 W4 T5 W5 R2 R3 T6 T4 T5 W6 T7 W7 R4 R5 \
         T8 T6 T7 W8 T9 W9 R6 R7 T10 T8 T9 W10 T11 W11 R8 R9 T12 T10 T11 W12 T13 W13 R10 R11 \
         T14 T12 T13 W14 T15 W15 R12 R13 R14 R15",
        [16, 16, 30],
    ),
];

const TRIMWRITE: &str = "rw=trimwrite trim_percentage=100";

#[test]
fn trims_come_in_fio_3_33_order_and_counts() {
    // On a regular file iomark punches holes (fio 3.33 cannot trim files: ENOTTY).
    for (options, ios, [r, w, t]) in MEASURED {
        let dir = tempdir();
        let (got, out) = run(IOMARK, dir.path(), "f.dat", &format!("{TRIMWRITE} {options}"));
        if got.error == libc::EOPNOTSUPP as i64 {
            eprintln!("skipped: this file system cannot punch holes");
            return;
        }
        let stderr = text(&out.stderr);
        assert_eq!(got, Run::expected(ios, *r, *w, *t), "{options}: {stderr}");
    }
}

#[test]
fn trims_match_fio_3_33_live_on_a_loop_device() {
    if !fio_installed() {
        return;
    }
    let Some(disk) = LoopDevice::new(16 << 20) else { return };
    let mut cases: Vec<String> = MEASURED.iter().map(|m| m.0.to_string()).collect();
    for tb in [1, 2, 5, 8] {
        for batch in [0, 1, 3] {
            for zero in [0, 1] {
                cases.push(format!(
                    "trim_backlog={tb} trim_backlog_batch={batch} trim_verify_zero={zero}"
                ));
            }
        }
    }
    cases.push("trim_backlog=2 verify_backlog=3 trim_verify_zero=0".into());
    cases.push("trim_backlog=5 verify_backlog=4".into());
    for (vb, batch) in [(5, 2), (4, 1), (3, 7), (6, 4)] {
        for tb in [2, 3] {
            cases.push(format!(
                "trim_backlog={tb} trim_backlog_batch=1 verify_backlog={vb} \
                 verify_backlog_batch={batch}"
            ));
        }
    }
    for options in &cases {
        let options = format!("{TRIMWRITE} {options}");
        let fio_dir = tempdir();
        let (fio, _) = run("fio", fio_dir.path(), &disk.dev, &options);
        let dir = tempdir();
        let (ours, out) = run(IOMARK, dir.path(), &disk.dev, &options);
        let stderr = text(&out.stderr);
        assert_eq!(ours, fio, "{options}: {stderr}");
    }
}

#[test]
fn the_workloads_own_trims_count_as_in_fio_3_33_on_a_loop_device() {
    // trimwrite trims each block, then writes it; the rewrites are verified (fio 3.33 on
    // a regular file fails its first trim with error 25, so only a device compares).
    if !fio_installed() {
        return;
    }
    let Some(disk) = LoopDevice::new(16 << 20) else { return };
    for options in [
        "rw=trimwrite",
        "rw=trimwrite verify_backlog=3",
        "rw=trimwrite verify_backlog=4 trim_percentage=100 trim_backlog=2",
        "rw=randtrimwrite",
        "rw=randtrimwrite verify_backlog=5",
        "rw=randtrimwrite verify_backlog=4 verify_backlog_batch=2",
    ] {
        let fio_dir = tempdir();
        let (fio, _) = run("fio", fio_dir.path(), &disk.dev, options);
        let dir = tempdir();
        let (mut ours, out) = run(IOMARK, dir.path(), &disk.dev, options);
        let stderr = text(&out.stderr);
        if options.contains("rand") {
            // Other offsets, the same counts.
            ours.ios.clone_from(&fio.ios);
        }
        assert_eq!(ours, fio, "{options}: {stderr}");
    }
}

/// Runs iomark's job file `job` in `dir`: the exit code, the JSON report, standard error.
fn job(dir: &Path, job: &str) -> (Option<i32>, Value, String) {
    let out = run_job_file(dir, IOMARK, job);
    let json = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (out.status.code(), json, text(&out.stderr))
}

fn ios(json: &Value, d: &str) -> u64 {
    json["jobs"][0][d]["total_ios"].as_u64().expect("total_ios")
}

const RANDOM: &str = "[j]\nfilename=f.dat\nsize=1m\nbs=4k\nrw=randwrite\nverify=crc32c\n\
                      verify_state_save=0\nrandseed=7\ntrim_percentage=30\ntrim_backlog=8\n";

#[test]
fn trimmed_blocks_read_back_as_zeros_on_every_engine() {
    for engine in ["psync", "io_uring", "libaio", "posixaio", "threadpool", "mmap"] {
        if !engine_available(engine, &iomark_engine::EngineOptions::default()) {
            continue;
        }
        for zero in [1, 0] {
            let dir = tempdir();
            let text = format!("{RANDOM}ioengine={engine}\niodepth=4\ntrim_verify_zero={zero}\n");
            let (code, json, stderr) = job(dir.path(), &text);
            if stderr.contains("Operation not supported") {
                eprintln!("skipped: this file system cannot punch holes");
                return;
            }
            let what = format!("{engine} trim_verify_zero={zero}: {stderr}");
            assert_eq!(code, Some(0), "{what}");
            let (reads, writes, trims) =
                (ios(&json, "read"), ios(&json, "write"), ios(&json, "trim"));
            assert_eq!(writes, 256, "{what}");
            // About 30% of the writes are trimmed (each one drawn at random).
            assert!((40..=115).contains(&trims), "{what}: {trims} trims");
            // With trim_verify_zero=0 a trimmed block is no longer read back.
            let expect_reads = if zero == 1 { writes } else { writes - trims };
            assert_eq!(reads, expect_reads, "{what}");
        }
    }
}

#[test]
fn overwrites_backlog_and_helpers_never_fail_a_good_trimmed_block() {
    // Writes overwrite older ones (norandommap, mixed sizes, more I/O than the file), and
    // a trim may come for an older write while a newer one is in flight or done: what is
    // verified is what the file holds.
    let mut sections = String::new();
    for zero in [0, 1] {
        for (name, extra) in [
            ("plain", ""),
            ("backlog", "verify_backlog=5\n"),
            ("batch", "verify_backlog=5\nverify_backlog_batch=2\n"),
            ("helpers", "verify_async=2\n"),
            ("both", "verify_backlog=7\nverify_async=2\n"),
        ] {
            sections.push_str(&format!(
                "[{name}{zero}]\nfilename={name}{zero}.dat\ntrim_verify_zero={zero}\n{extra}\n"
            ));
        }
    }
    for engine in ["psync", "io_uring", "libaio", "threadpool"] {
        if !engine_available(engine, &iomark_engine::EngineOptions::default()) {
            continue;
        }
        let dir = tempdir();
        let text = format!(
            "[global]\nioengine={engine}\niodepth=8\nsize=256k\nio_size=1m\nrw=randwrite\n\
             norandommap=1\nbsrange=4k-16k\nverify=crc32c\nverify_state_save=0\n\
             randseed=5\ntrim_percentage=50\ntrim_backlog=3\n\n{sections}"
        );
        let (code, json, stderr) = job(dir.path(), &text);
        if stderr.contains("Operation not supported") {
            eprintln!("skipped: this file system cannot punch holes");
            return;
        }
        assert_eq!(code, Some(0), "{engine}: {stderr}");
        // A trim is due when the count of writes waiting is a multiple of trim_backlog as
        // the job looks; completions reaped in batches (io_uring at depth 8 on a busy
        // machine) can step over every multiple in one job, rarely in all of them.
        let jobs = json["jobs"].as_array().expect("jobs");
        let trims = |j: &Value| j["trim"]["total_ios"].as_u64().expect("trims");
        let trimming = jobs.iter().filter(|j| trims(j) > 0).count();
        assert!(trimming * 2 > jobs.len(), "{engine}: {trimming} of {} jobs trimmed", jobs.len());
    }
}

#[test]
fn a_trimmed_block_holding_data_fails_at_its_offset() {
    let dir = tempdir();
    let text = RANDOM.replace("rw=randwrite", "rw=write");
    let (code, json, stderr) = job(dir.path(), &text);
    if stderr.contains("Operation not supported") {
        eprintln!("skipped: this file system cannot punch holes");
        return;
    }
    assert_eq!(code, Some(0), "{stderr}");
    let trims = ios(&json, "trim");
    // The trimmed blocks are the ones that read as zeros (a written block has a header).
    let data = std::fs::read(dir.path().join("f.dat")).expect("read the file");
    let zero_blocks: Vec<usize> =
        (0..256).filter(|b| data[b * 4096..(b + 1) * 4096].iter().all(|&x| x == 0)).collect();
    assert_eq!(zero_blocks.len() as u64, trims);

    // verify_only makes the same choices: everything passes, and nothing is issued.
    let only = format!("{text}verify_only=1\n");
    let (code, json, stderr) = job(dir.path(), &only);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!((ios(&json, "read"), ios(&json, "trim")), (256, 0));

    // Data written back over one trimmed block, 100 bytes into it.
    let block = zero_blocks[zero_blocks.len() / 2];
    let mut data = data;
    data[block * 4096 + 100..block * 4096 + 103].copy_from_slice(b"abc");
    std::fs::write(dir.path().join("f.dat"), &data).expect("write the file");
    let (code, json, stderr) = job(dir.path(), &only);
    assert_eq!(code, Some(1), "{stderr}");
    assert_eq!(json["jobs"][0]["error"], 84);
    let offset = block * 4096;
    let line = format!(
        "trim: verify failed at file f.dat offset {offset}, length 4096, block offset 100\n"
    );
    assert_eq!(stderr.matches("verify failed").count(), 1, "{stderr}");
    assert!(stderr.contains(&line), "{stderr}");

    // The same with the checks on helper threads.
    let (code, _, async_stderr) = job(dir.path(), &format!("{only}verify_async=2\n"));
    assert_eq!(code, Some(1), "{async_stderr}");
    assert_eq!(async_stderr, stderr);

    // trim_verify_zero=0: trimmed blocks are not read back, so nothing fails.
    let (code, json, stderr) = job(dir.path(), &format!("{only}trim_verify_zero=0\n"));
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(ios(&json, "read"), 256 - trims);
}

#[test]
fn verify_only_reports_trimmed_blocks_as_fio_3_33_does() {
    // verify_only issues no trims, so blocks that the job would have trimmed still hold
    // their data and fail as trimmed blocks: the same blocks, in the same words, as fio.
    if !fio_installed() {
        return;
    }
    for options in ["trim_backlog=4", "trim_backlog=3 trim_backlog_batch=1", "trim_backlog=5"] {
        let mut results = Vec::new();
        for program in [IOMARK, "fio"] {
            let dir = tempdir();
            let (write, _) = run(program, dir.path(), "f.dat", "rw=write do_verify=0");
            assert_eq!(write.error, 0, "{program}");
            let extra = format!("{TRIMWRITE} {options} verify_only=1 continue_on_error=verify");
            let (got, out) = run(program, dir.path(), "f.dat", &extra);
            let mut lines: Vec<String> = text(&out.stderr)
                .lines()
                .filter(|l| l.starts_with("trim: "))
                .map(str::to_string)
                .collect();
            lines.sort();
            // iomark counts no I/O that verify_only does not issue; fio counts them.
            results.push((got.error, got.counts[0], lines));
        }
        assert_eq!(results[0], results[1], "{options}");
        assert!(!results[0].2.is_empty(), "{options}");
    }
}

#[test]
fn bad_values_are_refused_with_the_option_named() {
    for (option, value) in [
        ("trim_percentage", "101"),
        ("trim_percentage", "-1"),
        ("trim_percentage", "many"),
        ("trim_backlog", "-1"),
        ("trim_backlog", "often"),
        ("trim_backlog_batch", "x"),
        ("trim_verify_zero", "maybe"),
    ] {
        let dir = tempdir();
        let (code, _, stderr) = job(dir.path(), &format!("{RANDOM}{option}={value}\n"));
        assert_eq!(code, Some(2), "{option}={value}: {stderr}");
        assert!(stderr.contains("job 'j'"), "{stderr}");
        assert!(stderr.contains(&format!("option '{option}'")), "{stderr}");
        assert!(stderr.contains(value), "{stderr}");
    }
}
