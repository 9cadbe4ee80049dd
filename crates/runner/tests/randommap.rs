//! The random map end to end: a random writer on the psync engine over a real temporary
//! file touches every block exactly once per pass.
//!
//! No I/O log exists yet, so the test reads the effect off the file itself: the file is
//! first filled with a marker byte, the job writes zeros (`zero_buffers`), and afterwards
//! every block must be zero (each block was written at least once) while the report counts
//! exactly one I/O per block and pass (so none was written twice). The same job with
//! `norandommap` must leave some block unwritten, which shows that the check can fail.
//!
//! The jobs go through the whole runner: the option parser, `JobPlan`, file layout, the job
//! thread with the real engine and clock, and the reduction into the `RunReport`.

use iomark_options::jobfile::Loader;
use iomark_options::value::subst::Keywords;
use iomark_runner::RunOptions;
use iomark_stats::report::RunReport;
use std::path::Path;
use std::sync::atomic::AtomicBool;

/// Blocks in the file.
const BLOCKS: u64 = 256;
/// The block size.
const BS: u64 = 4096;
/// What the file holds before the job.
const MARKER: u8 = 0xa5;

/// Job files are never loaded here: every job comes from the command line.
struct NoFiles;

impl Loader for NoFiles {
    fn load(&self, path: &Path) -> std::io::Result<Vec<u8>> {
        Err(std::io::Error::new(std::io::ErrorKind::NotFound, path.display().to_string()))
    }

    fn env(&self, _: &str) -> Option<String> {
        None
    }

    fn keywords(&self) -> Keywords {
        Keywords { ncpus: 1, pagesize: 4096, mb_memory: 1024 }
    }
}

/// Fills `path` with `BLOCKS` blocks of the marker byte.
fn fill_with_marker(path: &Path) {
    std::fs::write(path, vec![MARKER; (BLOCKS * BS) as usize]).expect("write marker file");
}

/// Runs one job given by command-line options through the runner.
fn run_job(args: &[String]) -> RunReport {
    let cmd = iomark_options::cmdline::parse(args.iter().cloned()).expect("command line");
    let specs = iomark_options::parse_jobs(&cmd, &NoFiles).expect("job");
    let plans = iomark_runner::plans(&specs).expect("plans");
    iomark_runner::run(&plans, &RunOptions::default(), &AtomicBool::new(false), |_| {})
        .expect("run")
}

/// The options of a random zero-writer over the whole file at `path`.
fn random_writer(path: &Path, extra: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = [
        "--name=randmap",
        "--ioengine=psync",
        "--rw=randwrite",
        "--bs=4k",
        "--zero_buffers=1",
        "--fallocate=none",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    args.push(format!("--filename={}", path.display()));
    args.push(format!("--size={}", BLOCKS * BS));
    args.extend(extra.iter().map(|s| s.to_string()));
    args
}

/// The blocks of the file that still hold the marker (never written).
fn unwritten_blocks(path: &Path) -> Vec<u64> {
    let data = std::fs::read(path).expect("read back");
    assert_eq!(data.len() as u64, BLOCKS * BS, "the file keeps its size");
    data.chunks(BS as usize)
        .enumerate()
        .filter(|(_, block)| block.iter().any(|&b| b != 0))
        .map(|(i, _)| i as u64)
        .collect()
}

/// The write counts of the run's only job: (I/Os, bytes, error).
fn write_counts(report: &RunReport) -> (u64, u64, i32) {
    assert_eq!(report.jobs.len(), 1);
    let job = &report.jobs[0];
    (job.dirs[1].total_ios, job.dirs[1].io_bytes, job.error)
}

#[test]
fn random_map_writes_every_block_once() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let path = dir.path().join("data");
    fill_with_marker(&path);
    let report = run_job(&random_writer(&path, &[]));
    assert_eq!(write_counts(&report), (BLOCKS, BLOCKS * BS, 0));
    assert_eq!(unwritten_blocks(&path), Vec::<u64>::new());
}

#[test]
fn random_map_covers_every_block_in_each_loop() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let path = dir.path().join("data");
    fill_with_marker(&path);
    let report = run_job(&random_writer(&path, &["--loops=2"]));
    assert_eq!(write_counts(&report), (2 * BLOCKS, 2 * BLOCKS * BS, 0));
    assert_eq!(unwritten_blocks(&path), Vec::<u64>::new());
}

#[test]
fn random_map_with_io_size_of_one_pass_and_a_half() {
    // After the first full pass the map starts again; the second (half) pass may repeat
    // blocks of the first, but the first pass alone already covered every block.
    let dir = tempfile::tempdir().expect("temporary directory");
    let path = dir.path().join("data");
    fill_with_marker(&path);
    let io_size = format!("--io_size={}", BLOCKS * BS * 3 / 2);
    let report = run_job(&random_writer(&path, &[&io_size]));
    assert_eq!(write_counts(&report), (BLOCKS * 3 / 2, BLOCKS * BS * 3 / 2, 0));
    assert_eq!(unwritten_blocks(&path), Vec::<u64>::new());
}

#[test]
fn without_the_map_some_block_is_missed() {
    // 256 draws with replacement from 256 blocks cover them all with probability
    // 256!/256^256, about 1e-110: with any seed some block keeps its marker.
    let dir = tempfile::tempdir().expect("temporary directory");
    let path = dir.path().join("data");
    fill_with_marker(&path);
    let report = run_job(&random_writer(&path, &["--norandommap"]));
    assert_eq!(write_counts(&report), (BLOCKS, BLOCKS * BS, 0));
    assert!(!unwritten_blocks(&path).is_empty(), "norandommap covered every block");
}
