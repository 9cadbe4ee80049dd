//! `mpirun -np 4 iomark job.fio`: rank 0's report merges the four ranks exactly (counts,
//! bytes, every histogram bin, each priority's bins), `$rank` gives each rank its files,
//! and a build without MPI refuses a launch of several ranks. The launch itself needs the
//! `mpi` feature (`cargo test -p iomark --features mpi --test cli multihost`) and Open
//! MPI's `mpirun`.

use crate::support::run::{command, iomark_in, tempdir, text, write_job, FAKE_STEP_NS, IOMARK};
use crate::support::tools::{direct_io_works, engine_available, have};
use serde_json::Value;
use std::collections::BTreeMap;

/// Whether this binary can join an MPI launch and `mpirun` is there; prints why not.
fn mpi_ready() -> bool {
    if !cfg!(feature = "mpi") {
        eprintln!("skipped: iomark built without the mpi feature (cargo test --features mpi)");
        return false;
    }
    have("mpirun", &["--version"])
}

/// Runs `mpirun -np NP iomark EXTRA JOB --output-format=json+` in `dir` (under the fake
/// clock when `fake`), asserts it succeeds, and returns the one JSON document it prints.
fn mpirun_json(
    dir: &std::path::Path,
    np: &str,
    extra: &[&str],
    job: &std::path::Path,
    fake: bool,
) -> Value {
    let mut cmd = command("mpirun");
    cmd.current_dir(dir);
    if fake {
        cmd.env("IOMARK_FAKE_CLOCK_NS", FAKE_STEP_NS);
    }
    let out = cmd
        .args(["--allow-run-as-root", "--oversubscribe", "-np", np, IOMARK])
        .args(extra)
        .arg(job)
        .arg("--output-format=json+")
        .output()
        .expect("run mpirun");
    assert_eq!(out.status.code(), Some(0), "{extra:?}: {}", text(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("one JSON document")
}

/// Adds the bins of `lat` (json+'s `bins`, value to count) into `sum`.
fn add_bins(sum: &mut BTreeMap<u64, u64>, lat: &Value) {
    for (v, c) in lat["bins"].as_object().expect("bins") {
        *sum.entry(v.parse().expect("bin value")).or_insert(0) += c.as_u64().expect("count");
    }
}

#[test]
fn four_ranks_report_once_with_every_rank_merged_exactly() {
    if !mpi_ready() {
        return;
    }
    let dir = tempdir();
    let job = write_job(
        dir.path(),
        "[global]\nioengine=null\nrw=randrw\nbs=4k\nsize=1m\ngroup_reporting\n\
         filename_format=f.$rank.$jobnum.$filenum\n[j]\nnumjobs=2\n",
    );
    // One document: rank 0's.
    let doc = mpirun_json(dir.path(), "4", &[], &job, true);
    let job = &doc["jobs"][0];
    let ranks = doc["ranks"].as_array().expect("ranks");
    assert_eq!(ranks.len(), 4);
    assert_eq!(job["job options"]["numjobs"], "2");
    for dir in ["read", "write"] {
        let total = |j: &Value, k: &str| j[dir][k].as_u64().expect(k);
        for key in ["total_ios", "io_bytes"] {
            let sum: u64 = ranks.iter().map(|r| total(&r["jobs"][0], key)).sum();
            assert_eq!(total(job, key), sum, "{dir} {key}");
        }
        let (mut sum, mut merged) = (BTreeMap::new(), BTreeMap::new());
        for r in ranks {
            add_bins(&mut sum, &r["jobs"][0][dir]["clat_ns"]);
        }
        add_bins(&mut merged, &job[dir]["clat_ns"]);
        assert_eq!(merged, sum, "{dir} bins");
        let max = ranks.iter().map(|r| r["jobs"][0][dir]["clat_ns"]["max"].as_u64().unwrap());
        assert_eq!(job[dir]["clat_ns"]["max"].as_u64(), max.max());
    }
    let ios = |d: &str| job[d]["total_ios"].as_u64().unwrap();
    assert_eq!(ios("read") + ios("write"), 4 * 2 * 256);
}

#[test]
fn a_build_without_mpi_refuses_a_launch_of_several_ranks() {
    if cfg!(feature = "mpi") {
        eprintln!("skipped: this iomark is built with MPI");
        return;
    }
    let dir = tempdir();
    let out = command(IOMARK)
        .current_dir(dir.path())
        .env("OMPI_COMM_WORLD_RANK", "1")
        .env("OMPI_COMM_WORLD_SIZE", "4")
        .args(["--name=j", "--ioengine=null", "--size=64k"])
        .output()
        .expect("run iomark");
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("rank 1 of 4") && err.contains("--features mpi"), "{err}");
}

#[test]
fn rank_and_hostname_name_the_files_of_a_single_run() {
    let dir = tempdir();
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap_or_default();
    let args = [
        "--name=j",
        "--ioengine=psync",
        "--rw=write",
        "--size=8k",
        "--filename_format=f.$rank.$hostname.$jobnum",
    ];
    let out = iomark_in(dir.path(), &args, true);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(dir.path().join(format!("f.0.{}.0", host.trim())).exists());
}

/// Under `mpirun`, jobs in processes of their own (`--job-processes`) run on every rank and
/// rank 0's report is the one of the same jobs as threads, every rank's and the merge.
#[test]
fn job_processes_under_mpi_report_as_threads_do() {
    if !mpi_ready() {
        return;
    }
    let dir = tempdir();
    let job = write_job(
        dir.path(),
        "[global]\nioengine=null\nrw=randrw\nbs=4k\nsize=1m\nrandrepeat=1\n\
         filename_format=f.$rank.$jobnum\n[a]\n[b]\nstonewall\nnumjobs=2\n",
    );
    let run = |extra: &[&str]| mpirun_json(dir.path(), "2", extra, &job, true);
    let threads = run(&[]);
    let processes = run(&["--job-processes"]);
    assert_eq!(processes["jobs"], threads["jobs"]);
    assert_eq!(processes["ranks"], threads["ranks"]);
    assert_eq!(threads["jobs"][1]["read"]["total_ios"].as_u64().map(|n| n > 0), Some(true));
}

/// The bins of `lat` (json+'s `bins`, value to count), none when it has none.
fn bins_of(lat: &Value) -> BTreeMap<u64, u64> {
    let mut out = BTreeMap::new();
    if lat["bins"].is_object() {
        add_bins(&mut out, lat);
    }
    out
}

/// Priorities across ranks (`cmdprio_percentage` with two classes, two clones per rank,
/// `group_reporting`): in rank 0's merged report each direction's priorities' json+ bins
/// add up, bin for bin and under the same keys, to the direction's bins, and each
/// priority's count is the ranks' counts of it summed.
#[test]
fn two_ranks_merge_the_priorities_exactly() {
    if !mpi_ready() {
        return;
    }
    let options = iomark_engine::EngineOptions { direct: true, ..Default::default() };
    if !direct_io_works() || !engine_available("libaio", &options) {
        eprintln!("skipped: libaio with O_DIRECT does not work here");
        return;
    }
    let dir = tempdir();
    let job = write_job(
        dir.path(),
        "[global]\nioengine=libaio\ndirect=1\niodepth=4\nsize=1m\nrw=randrw\n\
         number_ios=300\nfilename_format=p.$rank.$jobnum\ngroup_reporting\n\
         [classes]\ncmdprio_percentage=30,60\ncmdprio_class=1,2\nnumjobs=2\n",
    );
    let doc = mpirun_json(dir.path(), "2", &[], &job, false);
    let job = &doc["jobs"][0];
    let ranks = doc["ranks"].as_array().expect("ranks");
    assert_eq!(ranks.len(), 2);
    let key = |p: &Value| (p["prioclass"].as_u64(), p["prio"].as_u64());
    let count = |p: &Value| p["clat_ns"]["N"].as_u64().unwrap_or(0);
    for d in ["read", "write"] {
        let prios = job[d]["prios"].as_array().cloned().unwrap_or_default();
        assert!(prios.len() >= 2, "{d}: no priorities: {}", job[d]);
        let mut added = BTreeMap::new();
        for p in &prios {
            for (v, c) in bins_of(&p["clat_ns"]) {
                *added.entry(v).or_insert(0) += c;
            }
        }
        assert_eq!(added, bins_of(&job[d]["clat_ns"]), "{d}: the priorities' bins");
        for p in &prios {
            let ranks_count: u64 = ranks
                .iter()
                .filter_map(|r| r["jobs"][0][d]["prios"].as_array())
                .flatten()
                .filter(|q| key(q) == key(p))
                .map(count)
                .sum();
            assert_eq!(count(p), ranks_count, "{d} {:?}: the ranks' counts", key(p));
        }
    }
}
