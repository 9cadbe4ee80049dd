//! What write jobs put in their files: `buffer_pattern`, `zero_buffers`,
//! `buffer_compress_percentage`, `dedupe_percentage`, and the memory kinds of `mem`.
//!
//! Contents are checked exactly where they are fixed (patterns, zeros), and by their
//! structure where they are random: how well the file compresses (with the system's
//! `gzip`, skipped when it is missing) and how many blocks repeat earlier ones (hashing the
//! file's blocks). Where fio 3.33 is installed, pattern files must be byte-identical to
//! fio's and the compress and dedupe figures close to fio's; without fio those checks print
//! `skipped: fio not installed`.
//!
//! Every run happens in a temporary directory that the test creates and removes.

use crate::support::run::{command, run_job_file, tempdir, text, IOMARK};
use crate::support::tools::fio_installed;
use serde_json::Value;
use std::collections::HashSet;
use std::path::Path;
use std::process::Output;

/// The job every test varies: one sequential writer of `size` bytes in 4k blocks.
fn job(name: &str, size: &str, extra: &str) -> String {
    format!(
        "[global]\nioengine=psync\nbs=4k\nsize={size}\nrandseed=1234\n\n\
         [{name}]\nrw=write\nfilename={name}.dat\n{extra}\n"
    )
}

fn iomark(dir: &Path, job: &str) -> Output {
    run_job_file(dir, IOMARK, job)
}

/// Runs iomark on `job`, which must succeed, and returns the JSON report.
fn iomark_ok(dir: &Path, job: &str) -> Value {
    let out = iomark(dir, job);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{job}\n{err}");
    serde_json::from_slice(&out.stdout).expect("JSON report")
}

/// The file `name.dat` that a job left in `dir`.
fn data(dir: &Path, name: &str) -> Vec<u8> {
    std::fs::read(dir.join(format!("{name}.dat"))).expect("the job's file")
}

/// `bytes` repeated from its first byte at every 4k block, over `len` bytes.
fn pattern_blocks(bytes: &[u8], len: usize) -> Vec<u8> {
    let block: Vec<u8> = bytes.iter().copied().cycle().take(4096).collect();
    block.iter().copied().cycle().take(len).collect()
}

/// The size of `bytes` compressed by `gzip -c`, or `None` (with a message) without gzip.
fn gzip_len(bytes: &[u8]) -> Option<usize> {
    let dir = tempdir();
    let path = dir.path().join("data");
    std::fs::write(&path, bytes).expect("write");
    match command("gzip").arg("-c").arg(&path).output() {
        Ok(out) if out.status.success() => Some(out.stdout.len()),
        _ => {
            eprintln!("skipped: gzip not installed, compression not measured");
            None
        }
    }
}

/// The share of 4k blocks of `bytes` that repeat an earlier block.
fn duplicate_share(bytes: &[u8]) -> f64 {
    let mut seen = HashSet::new();
    let blocks: Vec<&[u8]> = bytes.chunks(4096).collect();
    let dups = blocks.iter().filter(|b| !seen.insert(**b)).count();
    dups as f64 / blocks.len() as f64
}

/// Patterns and the bytes fio 3.33 writes for them (dumped from its files).
const PATTERNS: [(&str, &[u8]); 5] = [
    ("0xdeadface", b"\xde\xad\xfa\xce"),
    ("\"abcd\"", b"abcd"),
    ("-12", b"\xf4\xff\xff\xff"),
    ("0xdeadface\"abcd\"-12", b"\xde\xad\xfa\xce\x61\x62\x63\x64\xf4\xff\xff\xff"),
    ("12\"x\"34 256", b"\x0c\x78\x22\x00\x01"),
];

#[test]
fn a_pattern_job_writes_exactly_the_pattern() {
    let dir = tempdir();
    for (i, (text, bytes)) in PATTERNS.iter().enumerate() {
        let name = format!("pat{i}");
        iomark_ok(dir.path(), &job(&name, "256k", &format!("buffer_pattern={text}")));
        assert!(data(dir.path(), &name) == pattern_blocks(bytes, 256 << 10), "{text}");
    }
    // Random order and several buffers in flight change nothing.
    let extra = "buffer_pattern=0xdeadface\"abc\"\nrw=randwrite\nioengine=libaio\niodepth=8";
    iomark_ok(dir.path(), &job("rand", "256k", extra));
    assert!(data(dir.path(), "rand") == pattern_blocks(b"\xde\xad\xfa\xceabc", 256 << 10));
}

#[test]
fn writes_after_reads_still_carry_the_pattern() {
    // A mixed job reads into the same buffers it writes from: every block of the file is
    // either what was there (never written) or the pattern.
    let dir = tempdir();
    let before: Vec<u8> = (0..256 << 10).map(|i: u32| (i % 251) as u8).collect();
    std::fs::write(dir.path().join("mixed.dat"), &before).expect("prefill");
    let extra = "rw=randrw\nbuffer_pattern=\"abcd\"\niodepth=4\nioengine=libaio";
    let report = iomark_ok(dir.path(), &job("mixed", "256k", extra));
    let after = data(dir.path(), "mixed");
    let pat = pattern_blocks(b"abcd", 4096);
    let written = after.chunks(4096).zip(before.chunks(4096)).filter(|(a, b)| a != b).count();
    for (i, (a, b)) in after.chunks(4096).zip(before.chunks(4096)).enumerate() {
        assert!(a == b || a == &pat[..], "block {i} is neither the old data nor the pattern");
    }
    let writes = report["jobs"][0]["write"]["total_ios"].as_u64().expect("writes");
    assert!(writes > 0 && written as u64 <= writes, "{written} blocks changed, {writes} writes");
}

#[test]
fn zero_buffers_write_zeros() {
    let dir = tempdir();
    iomark_ok(dir.path(), &job("zeros", "256k", "zero_buffers=1"));
    assert!(data(dir.path(), "zeros").iter().all(|&b| b == 0));
}

#[test]
fn pattern_files_match_fio_byte_for_byte() {
    if !fio_installed() {
        return;
    }
    let dir = tempdir();
    let mut cases: Vec<String> =
        PATTERNS.iter().map(|(text, _)| format!("buffer_pattern={text}")).collect();
    cases.push("buffer_pattern=0xdeadface\"abc\"\nrw=randwrite".into());
    cases.push("buffer_pattern=\"abcdefg\"\nbuffer_compress_percentage=100".into());
    cases.push("buffer_pattern=1\nzero_buffers=1\nrefill_buffers=1".into());
    cases.push("zero_buffers=1".into());
    cases.push("buffer_compress_percentage=100".into());
    for extra in &cases {
        let ours = iomark(dir.path(), &job("ours", "128k", extra));
        assert_eq!(ours.status.code(), Some(0), "{extra}");
        let fio = run_job_file(dir.path(), "fio", &job("fio", "128k", extra));
        assert_eq!(fio.status.code(), Some(0), "fio: {extra}");
        assert!(data(dir.path(), "ours") == data(dir.path(), "fio"), "{extra}: files differ");
    }
}

#[test]
fn compress_percentage_50_compresses_by_about_half() {
    let dir = tempdir();
    iomark_ok(dir.path(), &job("half", "1m", "buffer_compress_percentage=50"));
    let bytes = data(dir.path(), "half");
    // Exactly: every 512-byte chunk is 256 random bytes, then 256 zeros.
    for chunk in bytes.chunks(512) {
        assert!(chunk[256..].iter().all(|&b| b == 0));
        assert!(chunk[248..256].iter().any(|&b| b != 0));
    }
    assert_eq!(duplicate_share(&bytes), 0.0, "refilled: every block differs");
    let Some(packed) = gzip_len(&bytes) else { return };
    let ratio = packed as f64 / bytes.len() as f64;
    // fio 3.33 writes a file that gzip takes to 51% (533744 of 1048576 bytes).
    assert!((0.45..0.57).contains(&ratio), "gzip ratio {ratio:.3}");
    if fio_installed() {
        assert_eq!(
            run_job_file(dir.path(), "fio", &job("fio", "1m", "buffer_compress_percentage=50"))
                .status
                .code(),
            Some(0)
        );
        let theirs = gzip_len(&data(dir.path(), "fio")).expect("gzip ran once");
        let theirs = theirs as f64 / bytes.len() as f64;
        assert!((ratio - theirs).abs() < 0.03, "iomark {ratio:.3}, fio {theirs:.3}");
    }
}

#[test]
fn dedupe_percentage_50_repeats_about_half_the_blocks() {
    let dir = tempdir();
    for mode in ["repeat", "working_set"] {
        let extra = format!("dedupe_percentage=50\ndedupe_mode={mode}");
        iomark_ok(dir.path(), &job("dedupe", "4m", &extra));
        let share = duplicate_share(&data(dir.path(), "dedupe"));
        // 1024 blocks at p=0.5: one standard deviation is 1.6%; the bound is 4 of them.
        assert!((0.435..0.565).contains(&share), "{mode}: {share:.3} of blocks repeat");
        if fio_installed() {
            let fio = run_job_file(dir.path(), "fio", &job("fio", "4m", &extra));
            assert_eq!(fio.status.code(), Some(0));
            let theirs = duplicate_share(&data(dir.path(), "fio"));
            assert!((0.435..0.565).contains(&theirs), "fio {mode}: {theirs:.3}");
        }
    }
    iomark_ok(dir.path(), &job("none", "1m", ""));
    assert_eq!(duplicate_share(&data(dir.path(), "none")), 0.0, "scrambled by default");
}

/// The (reads, writes) I/O counts and the file of a refilled randrw job under `mem`, on a
/// file laid out afresh (a laid-out file holds the job's own data, so a run on the file
/// another left writes other data, in fio too).
fn run_with_mem(dir: &Path, mem: &str) -> ((u64, u64), Vec<u8>) {
    let _ = std::fs::remove_file(dir.join("mem.dat"));
    let extra = format!("rw=randrw\nrefill_buffers=1\niodepth=4\nioengine=libaio\nmem={mem}");
    let report = iomark_ok(dir, &job("mem", "256k", &extra));
    let count = |d: &str| report["jobs"][0][d]["total_ios"].as_u64().expect("count");
    ((count("read"), count("write")), data(dir, "mem"))
}

#[test]
fn every_memory_kind_runs_the_same_ios_and_writes_the_same_data() {
    let dir = tempdir();
    let want = run_with_mem(dir.path(), "malloc");
    let file = dir.path().join("buffers.map");
    let mapped = format!("mmapshared:{}", file.display());
    for mem in ["mmap", "mmapshared", "shm", mapped.as_str()] {
        assert!(run_with_mem(dir.path(), mem) == want, "mem={mem}");
    }
    assert!(!file.exists(), "the mapped file iomark made is gone");
}

#[test]
fn huge_page_memory_needs_huge_pages() {
    let dir = tempdir();
    let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
    let none = meminfo.lines().any(|l| l.split_whitespace().eq(["HugePages_Total:", "0"]));
    for mem in ["shmhuge", "mmaphuge"] {
        let extra = format!("mem={mem}");
        if none {
            let out = iomark(dir.path(), &job("huge", "64k", &extra));
            let err = text(&out.stderr);
            assert_eq!(out.status.code(), Some(1), "{err}");
            assert!(err.contains("job 'huge': option 'mem': "), "{err}");
            assert!(err.contains(&format!("{mem} needs huge pages")), "{err}");
            eprintln!("skipped: a {mem} run (the system has no huge pages reserved)");
        } else {
            let want = run_with_mem(dir.path(), "malloc");
            assert!(run_with_mem(dir.path(), mem) == want, "mem={mem}");
        }
    }
}

#[test]
fn a_bad_pattern_is_refused_with_the_job_option_and_value() {
    let dir = tempdir();
    for (pattern, why) in [
        ("1|2", "unexpected '|'"),
        ("\"\"", "empty string"),
        ("4294967296", "does not fit in 32 bits"),
        ("'missing.bin'", "file 'missing.bin'"),
    ] {
        let out = iomark(dir.path(), &job("bad", "64k", &format!("buffer_pattern={pattern}")));
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{pattern}: {err}");
        let want = format!("job 'bad': option 'buffer_pattern': '{pattern}': ");
        assert!(err.contains(&want) && err.contains(why), "{pattern}: {err}");
    }
}

#[test]
fn a_pattern_file_is_read() {
    let dir = tempdir();
    std::fs::write(dir.path().join("pat.bin"), b"HELLO").expect("pattern file");
    iomark_ok(dir.path(), &job("file", "64k", "buffer_pattern=0x01'pat.bin'\"z\""));
    assert!(data(dir.path(), "file") == pattern_blocks(b"\x01HELLOz", 64 << 10));
}
