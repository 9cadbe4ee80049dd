//! Latency per I/O priority (`cmdprio_percentage`, `cmdprio_class`, `cmdprio_bssplit`) in
//! json+: in every report the priorities' bins add up, bin for bin and under the same keys,
//! to their direction's bins, and their counts to its count, whatever merges made the
//! report: numjobs clones apart or in a group, `group_reporting` with jobs that have no
//! priorities of their own, `unified_rw_reporting` `mixed` and `both`, interim reports.
//! fio 3.33's json+ has the same property on the same jobs, and lists the same priorities
//! in the same order; both are checked where fio is installed.

use crate::support::process::{Gate, Running};
use crate::support::report::documents;
use crate::support::run::{run_in, tempdir, text, write_job};
use crate::support::tools::{direct_io_works, engine_available, programs};
use serde_json::Value;
use std::collections::BTreeMap;

/// Jobs with mixed priorities: two classes, one per direction, in two clones; priorities
/// by block size; a job with a priority of its own; a job without `cmdprio`. Direct I/O,
/// so that libaio is asynchronous.
const JOBS: &str = "[global]\nioengine=libaio\ndirect=1\niodepth=4\nsize=2m\n\
    filename=prio.dat\nrw=randrw\nnumber_ios=600\n\
    [classes]\ncmdprio_percentage=30,60\ncmdprio_class=1,2\nnumjobs=2\n\
    [split]\nbssplit=4k/50:8k/50\ncmdprio_bssplit=4k/50/2/3:8k/20/3/0\n\
    [own]\nprioclass=2\nprio=4\ncmdprio_percentage=40\n\
    [plain]\n";

/// Whether libaio with direct I/O can run here; prints the skip message when not.
fn libaio_direct() -> bool {
    if !direct_io_works() {
        eprintln!("skipped: O_DIRECT does not work in a temporary directory");
        return false;
    }
    let options = iomark_engine::EngineOptions { direct: true, ..Default::default() };
    engine_available("libaio", &options)
}

/// A latency object's bins.
fn bins(lat: &Value) -> BTreeMap<u64, u64> {
    let Some(bins) = lat["bins"].as_object() else { return BTreeMap::new() };
    bins.iter()
        .map(|(k, v)| (k.parse().expect("a bin value"), v.as_u64().expect("a count")))
        .collect()
}

/// Checks the property on every direction of every job of `doc` that has `prios`, and
/// returns each such direction's priorities as `job direction: [(class, level)…]`.
fn check(doc: &Value, what: &str) -> Vec<String> {
    let mut listed = Vec::new();
    for job in doc["jobs"].as_array().expect("jobs") {
        let name = job["jobname"].as_str().expect("a job name");
        for dir in ["read", "write", "trim", "mixed"] {
            let Some(prios) = job.get(dir).and_then(|d| d.get("prios")) else { continue };
            let prios = prios.as_array().expect("prios");
            let key = if prios[0].get("lat_ns").is_some() { "lat_ns" } else { "clat_ns" };
            let whole = &job[dir][key];
            let mut added: BTreeMap<u64, u64> = BTreeMap::new();
            for p in prios {
                for (value, count) in bins(&p[key]) {
                    *added.entry(value).or_default() += count;
                }
            }
            let at = format!("{what}: {name} {dir} {key}");
            assert!(!added.is_empty(), "{at}: no bins");
            assert_eq!(added, bins(whole), "{at}: the priorities' bins");
            let n: u64 = prios.iter().map(|p| p[key]["N"].as_u64().expect("N")).sum();
            assert_eq!(Some(n), whole["N"].as_u64(), "{at}: the priorities' counts");
            let shape: Vec<(u64, u64)> = prios
                .iter()
                .map(|p| (p["prioclass"].as_u64().unwrap(), p["prio"].as_u64().unwrap()))
                .collect();
            listed.push(format!("{name} {dir}: {shape:?}"));
        }
    }
    listed
}

#[test]
fn priority_bins_add_up_to_their_direction_in_every_merge() {
    if !libaio_direct() {
        return;
    }
    let dir = tempdir();
    let variants = [
        "",
        "group_reporting\n",
        "group_reporting\nunified_rw_reporting=both\nlat_percentiles=1\n",
        "unified_rw_reporting=mixed\n",
    ];
    for extra in variants {
        let job = JOBS.replace("[global]\n", &format!("[global]\n{extra}"));
        let path = write_job(dir.path(), &job);
        let mut shapes = Vec::new();
        for program in programs() {
            let out =
                run_in(dir.path(), program, &["--output-format=json+", path.to_str().unwrap()]);
            assert_eq!(out.status.code(), Some(0), "{program}: {}", text(&out.stderr));
            let doc: Value = serde_json::from_slice(&out.stdout)
                .unwrap_or_else(|e| panic!("{program}: not JSON ({e}): {}", text(&out.stdout)));
            let what = format!("{program} with {extra:?}");
            let listed = check(&doc, &what);
            assert!(listed.len() >= 2, "{what}: no priorities reported: {listed:?}");
            shapes.push(listed);
        }
        // fio 3.33 lists the same priorities in the same order.
        if let [iomark, fio] = &shapes[..] {
            assert_eq!(iomark, fio, "iomark and fio with {extra:?}");
        }
    }
}

#[test]
fn priority_bins_add_up_in_interim_reports() {
    if !libaio_direct() {
        return;
    }
    // Clones in a group, running for an hour, with an interim report every 250 ms; when
    // two have come the test opens the gate, whose job's end stops the others (exitall).
    let dir = tempdir();
    let Some(mut gate) = Gate::new(dir.path()) else { return };
    let mut args: Vec<String> = [
        "--output-format=json+",
        "--status-interval=250ms",
        "--name=p",
        "--ioengine=libaio",
        "--direct=1",
        "--iodepth=4",
        "--filename=prio.dat",
        "--size=2m",
        "--rw=randrw",
        "--time_based",
        "--runtime=1h",
        "--cmdprio_percentage=30,60",
        "--cmdprio_class=1,2",
        "--numjobs=2",
        "--group_reporting",
    ]
    .map(String::from)
    .to_vec();
    args.extend(gate.job());
    let mut run = Running::start(dir.path(), &args);
    let interims = run.stdout.wait_for(|out| Some(documents(out).len()).filter(|&n| n >= 2));
    assert!(interims.is_some(), "no interim reports: {}", run.stderr.text());
    gate.open();
    let status = run.wait();
    assert_eq!(status.code(), Some(0), "stderr: {}", run.stderr.text());
    let docs = documents(&run.stdout.bytes());
    assert!(docs.len() >= 3, "interim reports, then the final one: {} documents", docs.len());
    for (i, doc) in docs.iter().enumerate() {
        let listed = check(doc, &format!("report {i}"));
        assert_eq!(listed, ["p read: [(0, 0), (1, 0)]", "p write: [(0, 0), (2, 0)]"], "report {i}");
    }
}

/// Direction, length and priority of each I/O of a latency log written with `log_prio=1`.
fn logged_prios(path: &std::path::Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .map(|l| l.split(',').skip(2).map(str::trim).collect::<Vec<_>>().join(","))
        .collect()
}

#[test]
fn each_io_takes_fios_priority() {
    if !libaio_direct() {
        return;
    }
    // At depth 1 the log's rows come in issue order; fio draws each I/O's priority from
    // its stream 19, only where the I/O's rule gives a share above 0.
    let jobs: [(&[&str], usize); 4] = [
        (&["--rw=read", "--cmdprio_percentage=30"], 68),
        (&["--rw=randrw", "--cmdprio_percentage=30,0"], 0),
        (&["--rw=randread", "--bssplit=4k/50:8k/50", "--cmdprio_bssplit=4k/30:8k/60"], 0),
        (&["--rw=randrw", "--cmdprio_percentage=100,30", "--numjobs=2", "--randseed=7"], 0),
    ];
    let fio = programs().len() > 1;
    for (extra, high) in jobs {
        let dir = tempdir();
        let mut logs = Vec::new();
        for (i, program) in programs().into_iter().enumerate() {
            let mut args = vec![
                "--name=j",
                "--filename=prio.dat",
                "--size=1m",
                "--ioengine=libaio",
                "--direct=1",
                "--iodepth=1",
                "--log_prio=1",
                "--output=/dev/null",
            ];
            args.extend(extra);
            let prefix = format!("--write_lat_log=p{i}");
            args.push(&prefix);
            let out = run_in(dir.path(), program, &args);
            assert_eq!(out.status.code(), Some(0), "{program} {extra:?}: {}", text(&out.stderr));
            let clones = if extra.contains(&"--numjobs=2") { 2 } else { 1 };
            let rows: Vec<Vec<String>> = (1..=clones)
                .map(|n| logged_prios(&dir.path().join(format!("p{i}_lat.{n}.log"))))
                .collect();
            if high > 0 {
                let got = rows[0].iter().filter(|r| !r.ends_with("0x0000")).count();
                assert_eq!(got, high, "{program} {extra:?}: I/Os with the priority");
            }
            logs.push(rows);
        }
        if fio {
            assert_eq!(logs[0], logs[1], "{extra:?}: iomark's priorities, I/O for I/O, and fio's");
        }
    }
}
