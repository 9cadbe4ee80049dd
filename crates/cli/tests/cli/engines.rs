//! Every engine runs the same jobs to the same result: sequential, random and mixed I/O, at
//! depths 1, 8 and 64, buffered and (where the file system allows it) direct. All engines
//! must issue the same I/Os and bytes per direction and leave byte-identical files behind
//! (`refill_buffers` makes every write's data depend only on its place in the job's I/O
//! sequence, so any difference is an engine writing the wrong bytes or the wrong place).
//! Reading data back through every other engine is checked unit by unit in the engine
//! crate's own tests.
//!
//! Each run happens in a temporary directory that the test creates and removes.

use crate::support::run::{iomark_in, run_in, run_job_file, tempdir, text, write_job, IOMARK};
use crate::support::tools::{direct_io_works, engine_available};
use serde_json::Value;
use std::collections::BTreeMap;

/// The jobs every engine runs; the reads follow the writes (stonewall) so that they read
/// the data just written.
fn job_file(engine: &str, depth: u32, direct: bool) -> String {
    let common = format!(
        "[global]\nioengine={engine}\niodepth={depth}\ndirect={}\nbs=4k\nsize=256k\n\
         refill_buffers=1\nrandseed=42\n",
        u8::from(direct)
    );
    format!(
        "{common}\n[seq-write]\nrw=write\nfilename=seq.dat\n\n\
         [rand-write]\nrw=randwrite\nfilename=rand.dat\nbs=8k\n\n\
         [mixed]\nrw=randrw\nrwmixread=60\nfilename=mixed.dat\n\n\
         [seq-read]\nstonewall\nrw=read\nfilename=seq.dat\n\n\
         [rand-read]\nrw=randread\nfilename=rand.dat\nbs=16k\n"
    )
}

/// What one run left: per job and direction the I/O count and bytes, and the files.
#[derive(Debug, PartialEq)]
struct Outcome {
    counts: BTreeMap<String, [(u64, u64); 2]>,
    files: BTreeMap<String, Vec<u8>>,
}

fn run(engine: &str, depth: u32, direct: bool) -> Outcome {
    let dir = tempdir();
    let out = run_job_file(dir.path(), IOMARK, &job_file(engine, depth, direct));
    let what = format!("{engine} iodepth={depth} direct={direct}");
    assert_eq!(out.status.code(), Some(0), "{what}: {}", text(&out.stderr));
    let json: Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    let mut counts = BTreeMap::new();
    for job in json["jobs"].as_array().expect("jobs") {
        assert_eq!(job["error"], 0, "{what}: job {}", job["jobname"]);
        let get = |d: &str, k: &str| job[d][k].as_u64().expect("count");
        let name = job["jobname"].as_str().expect("name").to_string();
        let per_dir = ["read", "write"].map(|d| (get(d, "total_ios"), get(d, "io_bytes")));
        counts.insert(name, per_dir);
    }
    let files = ["seq.dat", "rand.dat", "mixed.dat"]
        .iter()
        .map(|f| (f.to_string(), std::fs::read(dir.path().join(f)).expect("job file")))
        .collect();
    Outcome { counts, files }
}

/// Whether O_DIRECT works in the temporary directory; prints the skip message when not.
fn direct_runs() -> bool {
    let ok = direct_io_works();
    if !ok {
        eprintln!("skipped direct=1 runs: the temporary directory's file system refuses O_DIRECT");
    }
    ok
}

/// Whether an engine can run here (io_uring and libaio may be disabled in a sandbox).
fn available(engine: &str, direct: bool) -> bool {
    engine_available(engine, &iomark_engine::EngineOptions { direct, ..Default::default() })
}

#[test]
fn every_engine_issues_the_same_ios_and_writes_the_same_bytes() {
    let directs: &[bool] = if direct_runs() { &[false, true] } else { &[false] };
    let engines: Vec<&str> = iomark_engine::registry::data_engines().collect();
    for &direct in directs {
        // The data depends on the depth (each unit's buffer is filled from the job's
        // random stream when the pool is made), so the reference is psync at each depth.
        for depth in [1, 8, 64] {
            let reference = run("psync", depth, direct);
            assert_eq!(reference.counts["seq-write"][1], (64, 256 * 1024));
            assert_eq!(reference.counts["rand-write"][1], (32, 256 * 1024));
            assert_eq!(reference.counts["seq-read"][0], (64, 256 * 1024));
            let mixed = reference.counts["mixed"];
            assert_eq!(mixed[0].0 + mixed[1].0, 64, "mixed: every block once");
            for engine in &engines {
                if !available(engine, direct) {
                    continue;
                }
                let got = run(engine, depth, direct);
                let what = format!("{engine} iodepth={depth} direct={direct}");
                assert_eq!(got.counts, reference.counts, "{what}: I/O counts differ from psync");
                for (name, bytes) in &reference.files {
                    assert!(
                        got.files[name] == *bytes,
                        "{what}: {name} differs from what psync wrote"
                    );
                }
            }
        }
    }
}

/// fio's JSON: an asynchronous job has a submission latency for every I/O and counts its
/// submit and complete calls; a synchronous job has no submission latency.
#[test]
fn async_jobs_carry_slat_and_sync_jobs_do_not() {
    let dir = tempdir();
    let job = "[global]\nsize=256k\nbs=4k\nrw=randread\n\n\
               [async]\nioengine=threadpool\niodepth=8\nfilename=a.dat\n\n\
               [sync]\nioengine=psync\nfilename=b.dat\n";
    write_job(dir.path(), job);
    let out = run_in(dir.path(), IOMARK, &["--output-format=json,normal", "job.fio"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let text = text(&out.stdout);
    // The start lines, the JSON document, then the normal report.
    let from = text.find("\n{\n").expect("a JSON document") + 1;
    let (json, normal) = text[from..].split_once("\n}\n").expect("JSON, then the normal report");
    let json: Value = serde_json::from_str(&format!("{json}\n}}")).expect("JSON");
    let jobs = json["jobs"].as_array().expect("jobs");
    let share_sum = |v: &Value| -> f64 {
        v.as_object().expect("shares").values().filter_map(Value::as_f64).sum()
    };
    let (a, s) = (&jobs[0], &jobs[1]);
    assert_eq!(a["read"]["slat_ns"]["N"], 64);
    assert!(a["read"]["slat_ns"]["max"].as_u64().expect("max") > 0);
    assert!((share_sum(&a["iodepth_submit"]) - 100.0).abs() < 0.01);
    assert!((share_sum(&a["iodepth_complete"]) - 100.0).abs() < 0.01);
    assert_eq!(s["read"]["slat_ns"]["N"], 0);
    let blocks: Vec<&str> = normal.split("groupid=").collect();
    assert!(blocks[1].contains("slat ("), "async job prints slat:\n{}", blocks[1]);
    assert!(!blocks[2].contains("slat ("), "sync job prints no slat:\n{}", blocks[2]);
}

/// `io_submit_mode=offload` runs a synchronous engine's calls on a pool of threads: the same
/// I/Os, now with a submission stage. An asynchronous engine runs too (fio 3.33 runs it,
/// though at depth 1 and with hangs, and refuses io_uring), submitting as with `inline`,
/// with a note in the report and nothing on standard error.
#[test]
fn offload_runs_sync_engines_on_a_pool_and_async_ones_inline() {
    let dir = tempdir();
    let run = |engine: &str| {
        let args = [
            "--output-format=json",
            "--name=off",
            "--filename=off.dat",
            "--size=256k",
            "--bs=4k",
            "--rw=randwrite",
            "--iodepth=8",
            "--io_submit_mode=offload",
            &format!("--ioengine={engine}"),
        ];
        let out = iomark_in(dir.path(), &args, false);
        assert_eq!(out.status.code(), Some(0), "{engine}: {}", text(&out.stderr));
        assert_eq!(text(&out.stderr), "", "{engine}");
        serde_json::from_slice::<Value>(&out.stdout).expect("JSON report")
    };
    let json = run("psync");
    let job = &json["jobs"][0];
    assert_eq!(job["write"]["total_ios"], 64);
    assert_eq!(job["write"]["slat_ns"]["N"], 64);
    assert!(json.get("iomark notes").is_none(), "{json}");
    for engine in ["null", "libaio", "io_uring", "posixaio"] {
        if !available(engine, false) {
            continue;
        }
        let json = run(engine);
        assert_eq!(json["jobs"][0]["write"]["total_ios"], 64, "{engine}");
        let notes = json["iomark notes"].to_string();
        let want = format!("io_submit_mode=offload with ioengine={engine}");
        assert!(notes.contains(&want), "{engine}: {notes}");
    }
}
