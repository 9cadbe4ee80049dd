//! The data fio's buffer streams write: files written by fio 3.33 and by iomark with the
//! same job must be byte-identical wherever fio's own bytes do not change from run to
//! run (so with `scramble_buffers=0`: fio's scramble stamps the clock).

use crate::support::run::{run_in, tempdir, text, IOMARK};

/// Jobs (options after `--name=j --ioengine=psync`) whose file must be fio's.
const JOBS: &[&str] = &[
    "--rw=write --bs=4k --size=256k --scramble_buffers=0",
    "--rw=randwrite --bsrange=1k-16k --size=256k --scramble_buffers=0 --randseed=42",
    "--rw=write --bs=4k --size=256k --refill_buffers",
    "--rw=randwrite --bs=4k --size=256k --buffer_compress_percentage=30",
    "--rw=write --bs=4k --size=256k --buffer_compress_percentage=50 --buffer_compress_chunk=1k",
    // The layout of a file a job reads holds the job's own data, then the units' follows.
    "--rw=read --bs=4k,16k --size=64k",
    "--rw=randrw --bs=4k --size=256k --scramble_buffers=0",
    "--rw=read --bs=4k --size=64k --buffer_compress_percentage=50",
    // fio takes its last filled unit first.
    "--rw=write --bs=4k --size=160k --iodepth=8 --ioengine=io_uring --scramble_buffers=0",
    // Deduplication.
    "--rw=write --bs=4k --size=256k --dedupe_percentage=30",
    "--rw=write --bsrange=1k-16k --size=256k --dedupe_percentage=40",
    "--rw=write --bs=4k --size=256k --dedupe_percentage=30 --dedupe_mode=working_set",
    "--rw=write --bssplit=4k/50:16k/50 --size=256k --dedupe_percentage=40 --dedupe_mode=working_set",
    "--rw=randrw --bs=4k --size=256k --dedupe_percentage=30",
];

/// The file `program` writes with `job` in a fresh directory.
fn written(program: &str, job: &str) -> Vec<u8> {
    let dir = tempdir();
    let mut args = vec!["--output=/dev/null", "--name=j", "--ioengine=psync", "--filename=data"];
    args.extend(job.split(' '));
    let out = run_in(dir.path(), program, &args);
    assert_eq!(out.status.code(), Some(0), "{program} {job}: {}", text(&out.stderr));
    std::fs::read(dir.path().join("data")).expect("the job's file")
}

#[test]
fn files_hold_fios_data() {
    if !crate::support::tools::fio_installed() {
        return;
    }
    let diffs: Vec<String> = JOBS
        .iter()
        .filter_map(|job| {
            let (theirs, ours) = (written("fio", job), written(IOMARK, job));
            let at = theirs.iter().zip(&ours).position(|(a, b)| a != b);
            (theirs.len() != ours.len() || at.is_some()).then(|| {
                format!(
                    "{job}: {} / {} bytes, first difference at {at:?}",
                    theirs.len(),
                    ours.len()
                )
            })
        })
        .collect();
    assert!(diffs.is_empty(), "files differ from fio 3.33's:\n{}", diffs.join("\n"));
}
