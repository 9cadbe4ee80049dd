//! Latency per I/O priority (`cmdprio_*`) across fio's client/server protocol: iomark's
//! server sends each priority's statistics as fio 3.33's does (after the job's, with their
//! offsets and counts in its `thread_stat`), and iomark's client reads them from fio's
//! servers and iomark's. In every report, "All clients" too, the priorities' json+ bins
//! add up, bin for bin, to their direction's, and "All clients" adds each priority's
//! counts over the servers.

use super::{bins, json_of, Server};
use crate::support::run::{command, tempdir, text, write_job, IOMARK};
use crate::support::tools::{direct_io_works, engine_available, fio_3_33_installed};
use serde_json::Value;
use std::collections::BTreeMap;

/// The job, its file (`FILE`, which the servers open from their own directory) given
/// whole.
const JOB: &str = "[global]\nioengine=libaio\ndirect=1\niodepth=4\nsize=2m\n\
    filename=FILE\nrw=randrw\nnumber_ios=300\ngroup_reporting\n\
    [classes]\ncmdprio_percentage=30,60\ncmdprio_class=1,2\n";

/// Each direction's priorities of `host` as (class, level, count), after checking that
/// their bins and counts add up to the direction's.
fn prios(host: &Value, what: &str) -> Vec<Vec<(u64, u64, u64)>> {
    let mut out = Vec::new();
    for d in ["read", "write"] {
        let prios = host[d]["prios"].as_array().cloned().unwrap_or_default();
        assert!(prios.len() >= 2, "{what} {d}: no priorities: {}", host[d]);
        let mut added = BTreeMap::new();
        for p in &prios {
            for (v, c) in bins(&p["clat_ns"]) {
                *added.entry(v).or_insert(0) += c;
            }
        }
        assert_eq!(added, bins(&host[d]["clat_ns"]), "{what} {d}: the priorities' bins");
        let n = |p: &Value, k: &str| p[k].as_u64().unwrap();
        let list: Vec<_> = prios
            .iter()
            .map(|p| (n(p, "prioclass"), n(p, "prio"), n(&p["clat_ns"], "N")))
            .collect();
        let total: u64 = list.iter().map(|p| p.2).sum();
        assert_eq!(Some(total), host[d]["clat_ns"]["N"].as_u64(), "{what} {d}: the counts");
        out.push(list);
    }
    out
}

#[test]
fn priorities_cross_the_protocol_and_merge_exactly() {
    let options = iomark_engine::EngineOptions { direct: true, ..Default::default() };
    if !direct_io_works() || !engine_available("libaio", &options) {
        eprintln!("skipped: libaio with O_DIRECT does not work here");
        return;
    }
    let dir = tempdir();
    let file = dir.path().join("prio.dat");
    let job = write_job(dir.path(), &JOB.replace("FILE", file.to_str().unwrap()));
    let mut servers = vec![Server::start(&dir.path().join("iomark.log"))];
    let fio = fio_3_33_installed();
    if fio {
        servers.push(Server::fio(&dir.path().join("fio.log")));
    }
    let mut cmd = command(IOMARK);
    cmd.current_dir(dir.path()).arg("--output-format=json+");
    for s in &servers {
        cmd.arg(s.client_arg()).arg(&job);
    }
    let out = cmd.output().expect("run iomark --client");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let doc = json_of(&out.stdout);
    let stats = doc["client_stats"].as_array().expect("client_stats");
    let hosts: Vec<_> = stats.iter().map(|h| prios(h, h["jobname"].as_str().unwrap())).collect();
    assert_eq!(hosts.len(), servers.len() + usize::from(servers.len() > 1));
    if servers.len() > 1 {
        // "All clients" (group_reporting): each priority's count is the servers' summed.
        let all = hosts.last().unwrap();
        for (d, list) in all.iter().enumerate() {
            for &(class, level, n) in list {
                let sum: u64 = hosts[..servers.len()]
                    .iter()
                    .flat_map(|h| h[d].iter().filter(|p| (p.0, p.1) == (class, level)))
                    .map(|p| p.2)
                    .sum();
                assert_eq!(n, sum, "All clients: priority {class}/{level}");
            }
        }
    }
    if fio {
        // fio's client reads iomark's server's priorities.
        let out = command("fio")
            .current_dir(dir.path())
            .args(["--output-format=json+", &servers[0].client_arg(), job.to_str().unwrap()])
            .output()
            .expect("run fio --client");
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let doc = json_of(&out.stdout);
        let host = &doc["client_stats"][0];
        let theirs = prios(host, "fio's client");
        assert_eq!(theirs, hosts[0], "fio's client reads what iomark's client reads");
    }
}
