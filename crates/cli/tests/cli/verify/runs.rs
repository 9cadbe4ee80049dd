//! What the verify tests share: injecting damage into files written with `verify` and
//! checking that a `verify_only` run finds each at its offset, undamaged jobs of every
//! layout on every engine, and the I/Os and counts of a logged verifying run.

use crate::support::iolog::read_data_ios;
use crate::support::report::report_json;
use crate::support::run::{run_in, run_job_file, tempdir, text, IOMARK};
use crate::support::tools::engine_available;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Output;

/// Runs iomark in `dir` with `args` (on the real clock).
pub fn iomark(dir: &Path, args: &[&str]) -> Output {
    run_in(dir, IOMARK, args)
}

/// A small deterministic generator (xorshift64*) for the places of the damage.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// The block size of the damaged files.
const BS: u64 = 1024;
/// The blocks of a damaged file.
const BLOCKS: u64 = 16;

/// The checksum methods, and the pattern ones (with `%o` so that a swap is caught).
pub const METHODS: &[&str] = &[
    "md5",
    "crc64",
    "crc32c",
    "crc32",
    "crc16",
    "crc7",
    "sha1",
    "sha256",
    "sha512",
    "sha3-224",
    "sha3-256",
    "sha3-384",
    "sha3-512",
    "xxhash",
    "pattern",
    "pattern_hdr",
];

/// A kind of damage done to a written block.
#[derive(Clone, Copy, Debug)]
pub enum Damage {
    /// One bit flipped.
    BitFlip,
    /// One 512-byte sector overwritten with noise.
    Sector,
    /// The block swapped with another of the file.
    Swap,
}

/// One injected case: its job's file, the damage, and the offset where it must be found
/// (or, for a swap, either of two: the one of the two blocks read back first).
struct Case {
    file: String,
    method: &'static str,
    damage: Damage,
    expect_offset: u64,
    or_offset: Option<u64>,
}

fn job_section(name: &str, method: &str, extra: &str) -> String {
    let pattern =
        if method.starts_with("pattern") { "verify_pattern=0x5a%o\"iomark\"\n" } else { "" };
    format!("[{name}]\nfilename={name}.dat\nverify={method}\n{pattern}{extra}")
}

/// Writes with verify, damages each file once, and checks that `verify_only` (with the
/// options `verify_extra` added, one per line) finds every damage at its block.
pub fn inject(
    methods: &[&'static str],
    damages: &[Damage],
    per: usize,
    seed: u64,
    verify_extra: &str,
) -> usize {
    let dir = tempdir();
    let global = format!(
        "[global]\nioengine=psync\nrw=randwrite\nbs={BS}\nsize={}\nrandseed=7\n\
         verify_state_save=0\n",
        BS * BLOCKS
    );
    let mut jobs = global.clone();
    let mut cases = Vec::new();
    for &method in methods {
        for &damage in damages {
            for i in 0..per {
                let name = format!("{method}-{damage:?}-{i}");
                jobs.push_str(&job_section(&name, method, ""));
                cases.push(Case {
                    file: format!("{name}.dat"),
                    method,
                    damage,
                    expect_offset: 0,
                    or_offset: None,
                });
            }
        }
    }
    let job = dir.path().join("write.fio");
    std::fs::write(&job, jobs.replace("[global]\n", "[global]\ndo_verify=0\n")).expect("job file");
    let out = iomark(dir.path(), &["--output-format=terse", "write.fio"]);
    assert_eq!(out.status.code(), Some(0), "write run: {}", text(&out.stderr));
    let mut rng = Rng(seed);
    for case in &mut cases {
        let path = dir.path().join(&case.file);
        let mut data = std::fs::read(&path).expect("written file");
        assert_eq!(data.len() as u64, BS * BLOCKS);
        let block = rng.below(BLOCKS);
        match case.damage {
            Damage::BitFlip => {
                let byte = block * BS + rng.below(BS);
                data[byte as usize] ^= 1 << rng.below(8);
            }
            Damage::Sector => {
                let sector = block * BS + rng.below(BS / 512) * 512;
                for b in &mut data[sector as usize..sector as usize + 512] {
                    *b = rng.next() as u8;
                }
            }
            Damage::Swap => {
                let other = (block + 1 + rng.below(BLOCKS - 1)) % BLOCKS;
                let (a, b) = (block.min(other), block.max(other));
                let (lo, hi) = data.split_at_mut((b * BS) as usize);
                lo[(a * BS) as usize..((a + 1) * BS) as usize]
                    .swap_with_slice(&mut hi[..BS as usize]);
                // With the random map, blocks are read back in the order they were
                // written, as fio 3.33 reads them: the first of the two read is found.
                case.expect_offset = a * BS;
                case.or_offset = Some(b * BS);
                std::fs::write(&path, &data).expect("damaged file");
                continue;
            }
        }
        case.expect_offset = block * BS;
        std::fs::write(&path, &data).expect("damaged file");
    }
    let verify = jobs.replace("[global]\n", &format!("[global]\nverify_only=1\n{verify_extra}"));
    std::fs::write(dir.path().join("verify.fio"), verify).expect("job file");
    let out = iomark(dir.path(), &["--output-format=terse", "verify.fio"]);
    assert_eq!(out.status.code(), Some(1), "every job must fail: {}", text(&out.stderr));
    let err = text(&out.stderr);
    // "…verify failed at file NAME offset O, length …" or "verify: … at file NAME offset O,"
    let mut found: BTreeMap<String, u64> = BTreeMap::new();
    for line in err.lines() {
        let Some(rest) = line.split(" at file ").nth(1) else { continue };
        let Some((file, tail)) = rest.split_once(" offset ") else { continue };
        let offset: u64 = tail.split(',').next().and_then(|o| o.parse().ok()).expect("offset");
        let name = Path::new(file).file_name().expect("name").to_string_lossy().into_owned();
        found.entry(name).or_insert(offset);
    }
    for case in &cases {
        let got = found.get(&case.file);
        let got =
            got.filter(|&&o| Some(o) == case.or_offset).map_or(got, |_| Some(&case.expect_offset));
        assert_eq!(
            got,
            Some(&case.expect_offset),
            "{} {:?} in {}: {err}",
            case.method,
            case.damage,
            case.file
        );
    }
    cases.len()
}

/// Per job (`NAME#INDEX`): (error, blocks read, blocks written).
pub type Counts = BTreeMap<String, (i64, u64, u64)>;

/// Runs `job_file` in `dir` with JSON output; the counts of its jobs.
pub fn run_json(dir: &Path, job_file: &str) -> (Output, Counts) {
    let out = run_job_file(dir, IOMARK, job_file);
    let mut jobs = BTreeMap::new();
    if let Ok(json) = serde_json::from_slice::<Value>(&out.stdout) {
        for (i, job) in json["jobs"].as_array().expect("jobs").iter().enumerate() {
            let name = format!("{}#{i}", job["jobname"].as_str().expect("name"));
            let ios = |d: &str| job[d]["total_ios"].as_u64().expect("ios");
            jobs.insert(name, (job["error"].as_i64().expect("error"), ios("read"), ios("write")));
        }
    }
    (out, jobs)
}

/// Whether an engine can run here (io_uring and libaio may be disabled in a sandbox).
pub fn available(engine: &str) -> bool {
    engine_available(engine, &iomark_engine::EngineOptions::default())
}

/// Runs jobs of every layout (sequential, random, mixed, bssplit, three files,
/// `norandommap` overwrites, clones, intervals, patterns, backlog) without damage on every
/// engine at depths 1 and 8, with the options `extra` (one per line) added, and checks that
/// all pass; returns each run's counts per job, by engine and depth.
pub fn undamaged_on_every_engine(extra: &str) -> Vec<(String, Counts)> {
    let layouts = "\
        [seq]\nrw=write\nfilename=seq.dat\nverify=crc32c\n\n\
        [rand]\nrw=randwrite\nfilename=rand.dat\nverify=md5\nbs=8k\n\n\
        [mixed]\nrw=randrw\nfilename=mixed.dat\nverify=xxhash\n\n\
        [split]\nrw=randwrite\nfilename=split.dat\nbssplit=4k/50:8k/25:16k/25\nverify=sha1\n\n\
        [files]\nrw=randwrite\nnrfiles=3\nfilename_format=multi.$filenum\nverify=crc64\n\n\
        [overlap]\nrw=randwrite\nnorandommap=1\nio_size=1m\nfilename=overlap.dat\n\
        bsrange=4k-16k\nverify=crc32c\n\n\
        [clones]\nrw=randwrite\nnumjobs=3\nfilename_format=clone.$jobnum\nverify=sha256\n\n\
        [interval]\nrw=randwrite\nfilename=interval.dat\nbs=16k\nverify=md5\n\
        verify_interval=4k\nverify_offset=100\n\n\
        [pattern]\nrw=write\nfilename=pattern.dat\nverify_pattern=0x11%o\n\n\
        [backlog]\nrw=randwrite\nfilename=backlog.dat\nverify=crc16\nverify_backlog=5\n\
        verify_backlog_batch=3\n";
    let mut runs = Vec::new();
    for engine in iomark_engine::registry::data_engines() {
        if !available(engine) {
            continue;
        }
        for depth in [1, 8] {
            let dir = tempdir();
            let job = format!(
                "[global]\nioengine={engine}\niodepth={depth}\nsize=256k\nrandseed=3\n\
                 verify_state_save=0\n{extra}\n{layouts}"
            );
            let (out, jobs) = run_json(dir.path(), &job);
            let what = format!("{engine} iodepth={depth}");
            assert_eq!(out.status.code(), Some(0), "{what}: {}", text(&out.stderr));
            assert_eq!(jobs.len(), 12, "{what}");
            for (name, (error, reads, writes)) in &jobs {
                assert_eq!(*error, 0, "{what} {name}");
                assert!(*reads > 0 && *writes > 0, "{what} {name}: {reads} {writes}");
                if name.starts_with("seq") || name.starts_with("rand#") {
                    // The random map writes each block once: each is read back once.
                    assert_eq!(reads, writes, "{what} {name}");
                }
            }
            runs.push((what, jobs));
        }
    }
    runs
}

/// Runs `program` with `extra` options on a new file of 4 KiB blocks (`psync`,
/// `verify=crc32c`), logging its I/Os: the I/Os (`W3` a write of block 3, `R3` a read,
/// `T3` a trim) and its JSON counts of reads and writes.
pub fn logged_run(program: &str, extra: &[&str]) -> (Vec<String>, [u64; 2]) {
    let dir = tempdir();
    let mut args = vec![
        "--name=j",
        "--filename=f.dat",
        "--bs=4k",
        "--ioengine=psync",
        "--verify=crc32c",
        "--verify_state_save=0",
        "--write_iolog=io.log",
        "--output-format=json",
    ];
    args.extend_from_slice(extra);
    let out = run_in(dir.path(), program, &args);
    let json = report_json(program, &out);
    let job = &json["jobs"][0];
    assert_eq!(job["error"], 0, "{program} {extra:?}: {}", text(&out.stderr));
    let ios = read_data_ios(&dir.path().join("io.log"))
        .iter()
        .map(|io| format!("{}{}", io.action[..1].to_uppercase(), io.offset / 4096))
        .collect();
    let count = |d: &str| job[d]["total_ios"].as_u64().expect("total_ios");
    (ios, [count("read"), count("write")])
}
