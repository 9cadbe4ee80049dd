//! fio's JSON document (`json` and `json+`), from fio 3.33 or iomark, read into a
//! [`RunReport`] for the page.
//!
//! Reading is forgiving: a field the document lacks (an older fio, a `mixed`-only job)
//! reads as zero or empty rather than failing, since the page shows what there is. fio's
//! JSON lacks the group totals; they are summed from the jobs as fio sums them (per
//! direction, over the jobs that ran in it: bytes summed, shortest and longest runtime,
//! lowest and highest job bandwidth, all bytes over the longest runtime). Bins and
//! percentiles are put in increasing order of value, whatever the order of their keys.

use iomark_stats::block::{BlockCounts, BlockDirReport, BlockLatencyReport, ClockMap};
use iomark_stats::report::{
    DirReport, DiskAggr, DiskReport, GroupDir, GroupReport, JobHeader, JobReport, LatStats,
    PrioStats, RunReport, SampleStats, SyncReport, REPORT_VERSION,
};
use serde_json::Value;

fn u(v: &Value) -> u64 {
    v.as_u64().or_else(|| v.as_f64().map(|f| f.max(0.0) as u64)).unwrap_or(0)
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or(0.0)
}

fn s(v: &Value) -> String {
    v.as_str().unwrap_or_default().to_owned()
}

fn options(v: Option<&Value>) -> Vec<(String, String)> {
    v.and_then(Value::as_object)
        .map(|map| map.iter().map(|(k, v)| (k.clone(), s(v))).collect())
        .unwrap_or_default()
}

/// The numbers of an object of shares (`latency_us`, `iodepth_level`…), in key order.
fn shares<const N: usize>(v: &Value) -> [f64; N] {
    let mut out = [0.0; N];
    if let Some(map) = v.as_object() {
        for (slot, value) in out.iter_mut().zip(map.values()) {
            *slot = f(value);
        }
    }
    out
}

/// The report a fio (or iomark) JSON document holds.
pub fn report(doc: &Value) -> RunReport {
    let global_options = options(doc.get("global options"));
    let mut jobs: Vec<JobReport> = doc["jobs"]
        .as_array()
        .map(|jobs| jobs.iter().map(|j| job(j, &global_options, &doc["time"])).collect())
        .unwrap_or_default();
    jobs.sort_by_key(|j| j.groupid);
    let disks =
        doc["disk_util"].as_array().map(|d| d.iter().map(disk).collect()).unwrap_or_default();
    let version = s(&doc["fio version"]);
    RunReport {
        version: REPORT_VERSION,
        iomark_version: doc.get("iomark version").map_or_else(|| version.clone(), s),
        fio_compat: version,
        timestamp: u(&doc["timestamp"]),
        timestamp_ms: u(&doc["timestamp_ms"]),
        time: s(&doc["time"]),
        groups: groups(&jobs),
        global_options,
        jobs,
        disks,
        notes: doc["iomark notes"]
            .as_array()
            .map(|n| n.iter().filter_map(|n| n.as_str()).map(String::from).collect())
            .unwrap_or_default(),
        ranks: Vec::new(),
        clients: Vec::new(),
        cpu_idleness: idleness(&doc["cpu_idleness"]),
        act: None,
    }
}

/// `--idle-prof`'s `cpu_idleness` object, if the document has one.
fn idleness(idle: &Value) -> Option<iomark_stats::report::IdleReport> {
    let f = |key: &str| idle.get(key).and_then(Value::as_f64);
    let percpu = (0..).map_while(|cpu| f(&format!("cpu-{cpu}"))).collect();
    Some(iomark_stats::report::IdleReport {
        system: f("system")?,
        percpu,
        unit_mean_us: f("unit_mean")?,
        unit_stddev_us: f("unit_stddev").unwrap_or(0.0),
    })
}

fn option<'a>(
    job: &'a [(String, String)],
    global: &'a [(String, String)],
    name: &str,
) -> Option<&'a str> {
    job.iter().chain(global).find(|(k, _)| k == name).map(|(_, v)| v.as_str())
}

fn job(job: &Value, global: &[(String, String)], time: &Value) -> JobReport {
    let options = options(job.get("job options"));
    let header = JobHeader {
        rw: option(&options, global, "rw").unwrap_or("read").to_owned(),
        bs: [(0, 0); 3],
        ioengine: option(&options, global, "ioengine").unwrap_or("psync").to_owned(),
        iodepth: option(&options, global, "iodepth").and_then(|v| v.parse().ok()).unwrap_or(1),
    };
    let notes =
        job["iomark notes"].as_array().map(|n| n.iter().map(s).collect()).unwrap_or_default();
    JobReport {
        name: s(&job["jobname"]),
        description: job.get("desc").map(s),
        groupid: u(&job["groupid"]) as u32,
        jobs: 1,
        error: job["error"].as_i64().unwrap_or(0) as i32,
        error_text: String::new(),
        notes,
        pid: 0,
        start_time: s(time),
        elapsed_s: u(&job["elapsed"]),
        options,
        header,
        dirs: ["read", "write", "trim"].map(|d| job.get(d).map(dir).unwrap_or_default()),
        unified_rw: Default::default(),
        mixed: job.get("mixed").map(dir),
        sync: job
            .get("sync")
            .map(|sync| SyncReport { total_ios: u(&sync["total_ios"]), lat: lat(&sync["lat_ns"]) })
            .unwrap_or_default(),
        runtime_ms: u(&job["job_runtime"]),
        usr_cpu: f(&job["usr_cpu"]),
        sys_cpu: f(&job["sys_cpu"]),
        ctx: u(&job["ctx"]),
        majf: u(&job["majf"]),
        minf: u(&job["minf"]),
        iodepth_level: shares(&job["iodepth_level"]),
        iodepth_submit: shares(&job["iodepth_submit"]),
        iodepth_complete: shares(&job["iodepth_complete"]),
        latency_ns: shares(&job["latency_ns"]),
        latency_us: shares(&job["latency_us"]),
        latency_ms: shares(&job["latency_ms"]),
        terse_latency_2us: 0.0,
        counters: Default::default(),
        percentile_list: Vec::new(),
        latency_target: Default::default(),
        steadystate: None,
        errors: None,
        block_latency: job.get("block_latency").map(block_latency),
        block_lifetimes: None,
    }
}

/// iomark's `block_latency` object (docs/block-latency.md): each direction's segments,
/// the counts, the clock map and the notes.
pub fn block_latency(v: &Value) -> BlockLatencyReport {
    let dirs = ["read", "write", "trim"].map(|d| {
        v.get(d).map(|d| BlockDirReport {
            pre: lat(&d["pre_ns"]),
            queue: lat(&d["queue_ns"]),
            device: lat(&d["device_ns"]),
            completion: lat(&d["completion_ns"]),
        })
    });
    let counts = BlockCounts {
        ios: u(&v["ios"]),
        matched: u(&v["matched"]),
        unmatched: u(&v["unmatched"]),
        cache_hits: u(&v["cache_hits"]),
        merged: u(&v["merged"]),
        split: u(&v["split"]),
        inserted: u(&v["inserted"]),
        lost_records: u(&v["lost_records"]),
        records: u(&v["records"]),
        reordered: u(&v["reordered"]),
        reorder_max_ns: u(&v["reorder_max_ns"]),
    };
    let clock =
        ClockMap { points: u(&v["clock_points"]), max_rate_ppm: f(&v["clock_max_rate_ppm"]) };
    let notes: Vec<String> =
        v["notes"].as_array().map(|n| n.iter().map(s).collect()).unwrap_or_default();
    // A job that could not have the split says so in its first note.
    let unavailable =
        counts.ios == 0 && notes.first().is_some_and(|n| n.contains("without the split"));
    BlockLatencyReport { dirs, counts, clock, notes, unavailable }
}

/// One direction of a job (`read`, `write`, `trim`, `mixed`).
pub fn dir(v: &Value) -> DirReport {
    let samples = |prefix: &str, dev: &str| SampleStats {
        min: u(&v[format!("{prefix}_min")]),
        max: u(&v[format!("{prefix}_max")]),
        agg_pct: if prefix == "bw" { f(&v["bw_agg"]) } else { 0.0 },
        agg_pct_terse: 0.0,
        mean: f(&v[format!("{prefix}_mean")]),
        stddev: f(&v[dev]),
        samples: u(&v[format!("{prefix}_samples")]),
    };
    DirReport {
        io_bytes: u(&v["io_bytes"]),
        bw_bytes: u(&v["bw_bytes"]),
        iops: f(&v["iops"]),
        runtime_ms: u(&v["runtime"]),
        total_ios: u(&v["total_ios"]),
        short_ios: u(&v["short_ios"]),
        drop_ios: u(&v["drop_ios"]),
        slat: lat(&v["slat_ns"]),
        clat: lat(&v["clat_ns"]),
        lat: lat(&v["lat_ns"]),
        lat_corrected: v.get("lat_ns_corrected").map(lat),
        bw_samples: samples("bw", "bw_dev"),
        iops_samples: samples("iops", "iops_stddev"),
        prios: v.get("prios").and_then(Value::as_array).map_or_else(Vec::new, |list| {
            list.iter()
                .map(|p| {
                    let total_latency = p.get("lat_ns").is_some();
                    PrioStats {
                        prioclass: u(&p["prioclass"]) as u32,
                        prio: u(&p["prio"]) as u32,
                        total_latency,
                        lat: lat(&p[if total_latency { "lat_ns" } else { "clat_ns" }]),
                    }
                })
                .collect()
        }),
    }
}

/// `"key" : count` pairs with numeric keys, in increasing key order.
fn pairs<K: std::str::FromStr + PartialOrd + Copy>(v: Option<&Value>) -> Option<Vec<(K, u64)>> {
    let map = v?.as_object()?;
    let mut out: Vec<(K, u64)> =
        map.iter().filter_map(|(k, v)| Some((k.parse().ok()?, u(v)))).collect();
    out.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap_or(std::cmp::Ordering::Equal));
    Some(out)
}

/// A latency object (`clat_ns`…): its moments, percentiles and json+ bins.
pub fn lat(v: &Value) -> LatStats {
    LatStats {
        n: u(&v["N"]),
        min: u(&v["min"]),
        max: u(&v["max"]),
        mean: f(&v["mean"]),
        stddev: f(&v["stddev"]),
        percentiles: pairs::<f64>(v.get("percentile")),
        bins: pairs::<u64>(v.get("bins")),
    }
}

/// One disk of `disk_util`, with its members' `aggr_*` figures when it has some.
pub fn disk(v: &Value) -> DiskReport {
    DiskReport {
        name: s(&v["name"]),
        ios: [u(&v["read_ios"]), u(&v["write_ios"])],
        merges: [u(&v["read_merges"]), u(&v["write_merges"])],
        ticks: [u(&v["read_ticks"]), u(&v["write_ticks"])],
        in_queue: u(&v["in_queue"]),
        util: f(&v["util"]),
        aggr: v.get("aggr_read_ios").map(|_| DiskAggr {
            ios: [u(&v["aggr_read_ios"]), u(&v["aggr_write_ios"])],
            merges: [u(&v["aggr_read_merges"]), u(&v["aggr_write_merge"])],
            ticks: [u(&v["aggr_read_ticks"]), u(&v["aggr_write_ticks"])],
            in_queue: u(&v["aggr_in_queue"]),
            util: f(&v["aggr_util"]),
        }),
        ..DiskReport::default()
    }
}

/// fio's group totals, from the jobs (see the module doc).
fn groups(jobs: &[JobReport]) -> Vec<GroupReport> {
    let mut ids: Vec<u32> = jobs.iter().map(|job| job.groupid).collect();
    ids.dedup();
    ids.into_iter()
        .map(|groupid| {
            let members: Vec<&JobReport> = jobs.iter().filter(|j| j.groupid == groupid).collect();
            let dirs = [0, 1, 2].map(|d| group_dir(members.iter().map(|job| &job.dirs[d])));
            GroupReport { groupid, dirs, unified_rw: Default::default(), mixed: None }
        })
        .collect()
}

fn group_dir<'a>(dirs: impl Iterator<Item = &'a DirReport>) -> GroupDir {
    let ran: Vec<&DirReport> = dirs.filter(|dir| dir.runtime_ms > 0).collect();
    let io_bytes = ran.iter().map(|dir| dir.io_bytes).sum();
    let max_run_ms = ran.iter().map(|dir| dir.runtime_ms).max().unwrap_or(0);
    let bw = |dir: &&DirReport| dir.io_bytes * 1000 / dir.runtime_ms;
    GroupDir {
        io_bytes,
        agg_bw: (io_bytes * 1000).checked_div(max_run_ms).unwrap_or(0),
        min_bw: ran.iter().map(bw).min().unwrap_or(0),
        max_bw: ran.iter().map(bw).max().unwrap_or(0),
        min_run_ms: ran.iter().map(|dir| dir.runtime_ms).min().unwrap_or(0),
        max_run_ms,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fios_cpu_idleness_is_read() {
        let doc: Value = serde_json::from_str(
            r#"{"fio version": "fio-3.33", "jobs": [], "cpu_idleness": {"system": 22.9,
                "cpu-0": 1.5, "cpu-1": 44.25, "unit_mean": 11.18, "unit_stddev": 4.1}}"#,
        )
        .unwrap();
        let idle = report(&doc).cpu_idleness.expect("cpu_idleness");
        assert_eq!((idle.system, idle.percpu), (22.9, vec![1.5, 44.25]));
        assert_eq!((idle.unit_mean_us, idle.unit_stddev_us), (11.18, 4.1));
        let none: Value = serde_json::from_str(r#"{"jobs": []}"#).unwrap();
        assert_eq!(report(&none).cpu_idleness, None);
    }
}
