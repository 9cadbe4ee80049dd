//! Turns fio 3.33's JSON document (plus the few facts only its normal report carries) into a
//! `RunReport`, so that our printers can be compared with fio's own output.
//!
//! This is test code: it stands in for the runner and the statistics crate, reading numbers
//! that fio already reduced. A direction, a latency and a disk are read as `iomark report`
//! reads them ([`iomark_web::input::fio_json`]). The group totals, which fio's JSON lacks, are summed here from
//! the jobs the way fio sums them, and so is the terse format's bandwidth share. The terse
//! format's first µs latency bucket needs the ns row unfloored, which fio's JSON lacks: it
//! is estimated here from the floored shares (the terse tests take it from fio's line).
//! A job without a block in `normal` (or with `normal` empty) counts one job and pid 0.

use iomark_report::PrintOptions;
use iomark_stats::report::{
    DirReport, ErrorReport, GroupDir, GroupReport, JobHeader, JobReport, LatencyTarget, RunReport,
    SteadyReport, SyncReport, UnifiedRw, REPORT_VERSION,
};
use iomark_web::input::fio_json::{dir, disk, lat};
use serde_json::Value;

/// The report fio's run amounts to, and the print options its job options ask for.
pub fn report_from_fio(json: &str, normal: &str) -> (RunReport, PrintOptions) {
    let doc: Value = serde_json::from_str(json).expect("fio's JSON parses");
    let global_options = options(doc.get("global options"));
    let mut job_lines = normal.lines().filter(|line| line.contains(": (groupid="));
    let mut jobs: Vec<JobReport> = doc["jobs"]
        .as_array()
        .expect("jobs")
        .iter()
        .map(|job| {
            let mut report = job_report(job, &global_options, &doc["time"]);
            if did_io(&report) {
                if let Some(line) = job_lines.next() {
                    (report.jobs, report.pid) = members_and_pid(line);
                    report.error_text = error_text(line);
                }
            }
            report
        })
        .collect();
    let disks = doc
        .get("disk_util")
        .and_then(Value::as_array)
        .map(|disks| disks.iter().map(disk).collect())
        .unwrap_or_default();
    let opts = print_options(
        jobs.first().map(|job| job.options.as_slice()).unwrap_or_default(),
        &global_options,
    );
    let groups = groups(&jobs);
    terse_shares(&mut jobs, &groups);
    let report = RunReport {
        version: REPORT_VERSION,
        iomark_version: "0.1.0".into(),
        fio_compat: "fio-3.33".into(),
        timestamp: u(&doc["timestamp"]),
        timestamp_ms: u(&doc["timestamp_ms"]),
        time: s(&doc["time"]),
        global_options,
        groups,
        jobs,
        disks,
        notes: Default::default(),
        ranks: Vec::new(),
        clients: Vec::new(),
        cpu_idleness: None,
        act: None,
    };
    (report, opts)
}

fn u(v: &Value) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("not an unsigned integer: {v}"))
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

fn s(v: &Value) -> String {
    v.as_str().unwrap_or_else(|| panic!("not a string: {v}")).to_owned()
}

fn options(v: Option<&Value>) -> Vec<(String, String)> {
    v.and_then(Value::as_object)
        .map(|map| map.iter().map(|(k, v)| (k.clone(), s(v))).collect())
        .unwrap_or_default()
}

fn did_io(job: &JobReport) -> bool {
    job.dirs.iter().chain(&job.mixed).any(|d| d.io_bytes > 0 || d.total_ios > 0)
}

/// `gr: (groupid=0, jobs=3): err= 0: pid=28001: Sun Nov 22 02:52:22 2026` → (3, 28001).
fn members_and_pid(line: &str) -> (u32, u32) {
    let after = |key: &str| -> u32 {
        let rest = &line[line.find(key).expect(key) + key.len()..];
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        digits.parse().expect("a number")
    };
    (after("jobs="), after(": pid="))
}

/// `a: (groupid=0, jobs=1): err=28 (file:x.c:1, error=No space): pid=…` → the text in
/// brackets (empty without an error).
fn error_text(line: &str) -> String {
    let Some(start) = line.find(": err=").filter(|_| !line.contains("err= 0:")) else {
        return String::new();
    };
    let rest = &line[start..];
    rest[rest.find(" (").expect("error text") + 2..rest.find("): pid=").expect("text end")]
        .to_owned()
}

/// What the system calls `errno` (`Success` for 0), as fio prints it.
fn errno_text(errno: i32) -> String {
    if errno == 0 {
        return "Success".into();
    }
    let text = std::io::Error::from_raw_os_error(errno).to_string();
    text[..text.rfind(" (os error").unwrap_or(text.len())].to_owned()
}

/// The option's value from the job's own options, else the global ones.
fn option<'a>(
    job: &'a [(String, String)],
    global: &'a [(String, String)],
    name: &str,
) -> Option<&'a str> {
    job.iter().chain(global).find(|(k, _)| k == name).map(|(_, v)| v.as_str())
}

/// A size as the fixtures write them (`4k`, `64k`, `4096`); `k` is `kb_base` bytes.
fn size(text: &str, kb: u64) -> u64 {
    let (digits, unit) =
        text.split_at(text.find(|c: char| !c.is_ascii_digit()).unwrap_or(text.len()));
    let n: u64 = digits.parse().expect("a size");
    n * match unit.to_ascii_lowercase().as_str() {
        "" => 1,
        "k" => kb,
        "m" => kb * kb,
        other => panic!("unit {other}"),
    }
}

fn print_options(job: &[(String, String)], global: &[(String, String)]) -> PrintOptions {
    let number = |name: &str, default: u32| {
        option(job, global, name).map_or(default, |v| v.parse().expect(name))
    };
    PrintOptions {
        kb_base: number("kb_base", 1024),
        unit_base: number("unit_base", 0),
        sig_figs: number("significant_figures", 4) as usize,
    }
}

fn job_report(job: &Value, global: &[(String, String)], time: &Value) -> JobReport {
    let options = options(job.get("job options"));
    let kb = option(&options, global, "kb_base").map_or(1024, |v| v.parse().expect("kb_base"));
    let bs = option(&options, global, "bs").map_or(4096, |v| size(v, kb));
    let header = JobHeader {
        rw: option(&options, global, "rw").unwrap_or("read").to_owned(),
        bs: [(bs, bs); 3],
        ioengine: option(&options, global, "ioengine").unwrap_or("psync").to_owned(),
        iodepth: option(&options, global, "iodepth").map_or(1, |v| v.parse().expect("iodepth")),
    };
    let shares =
        |key: &str| -> Vec<f64> { job[key].as_object().expect(key).values().map(f).collect() };
    let latency_ns: [f64; 10] = shares("latency_ns").try_into().expect("10 buckets");
    let latency_us: [f64; 10] = shares("latency_us").try_into().expect("10 buckets");
    let percentile_list = percentile_list(&options, global);
    JobReport {
        name: s(&job["jobname"]),
        description: job.get("desc").map(s),
        groupid: u(&job["groupid"]) as u32,
        jobs: 1,
        error: job["error"].as_i64().expect("error") as i32,
        error_text: String::new(),
        notes: Vec::new(),
        pid: 0,
        start_time: s(time),
        elapsed_s: u(&job["elapsed"]),
        options,
        header,
        // unified_rw_reporting=mixed leaves out the directions and `sync`; `both` has all.
        dirs: ["read", "write", "trim"].map(|d| job.get(d).map(dir).unwrap_or_default()),
        unified_rw: match (job.get("mixed"), job.get("read")) {
            (None, _) => UnifiedRw::None,
            (Some(_), None) => UnifiedRw::Mixed,
            (Some(_), Some(_)) => UnifiedRw::Both,
        },
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
        iodepth_level: shares("iodepth_level").try_into().expect("7 depths"),
        iodepth_submit: shares("iodepth_submit").try_into().expect("7 batches"),
        iodepth_complete: shares("iodepth_complete").try_into().expect("7 batches"),
        terse_latency_2us: latency_us[0] + latency_ns.iter().sum::<f64>(),
        counters: Default::default(),
        latency_ns,
        latency_us,
        latency_ms: shares("latency_ms").try_into().expect("12 buckets"),
        percentile_list,
        latency_target: LatencyTarget {
            depth: u(&job["latency_depth"]) as u32,
            target: u(&job["latency_target"]),
            percentile: f(&job["latency_percentile"]),
            window: u(&job["latency_window"]),
        },
        steadystate: job.get("steadystate").map(steadystate),
        errors: job.get("total_err").map(|total| {
            let first = job["first_error"].as_i64().expect("first_error") as i32;
            ErrorReport {
                total_err: u(total),
                first_error: first,
                first_error_text: errno_text(first),
                fatal: false,
            }
        }),
        block_latency: None,
        block_lifetimes: None,
    }
}

/// fio's `steadystate` object. The normal report's criterion name is not in it: it follows
/// from the criterion in `ss`.
fn steadystate(v: &Value) -> SteadyReport {
    let ss = s(&v["ss"]);
    let criterion = s(&v["criterion"]);
    let list = |key: &str| v["data"][key].as_array().expect(key).iter().map(u).collect();
    SteadyReport {
        criterion_name: match ss.split(':').next() {
            Some("iops") => "iops mean dev",
            Some("iops_slope") => "iops slope",
            Some("bw") => "bw mean dev",
            _ => "bw slope",
        }
        .into(),
        percent: criterion.ends_with('%'),
        criterion: criterion.trim_end_matches('%').parse().expect("a criterion"),
        ss,
        duration_s: u(&v["duration"]),
        attained: u(&v["attained"]) == 1,
        max_deviation: f(&v["max_deviation"]),
        slope: f(&v["slope"]),
        bw_mean: u(&v["data"]["bw_mean"]),
        iops_mean: u(&v["data"]["iops_mean"]),
        iops: list("iops"),
        bw: list("bw"),
    }
}

/// The job's `percentile_list` (fio's default without one), sorted; empty when
/// `clat_percentiles` and `lat_percentiles` are both off.
fn percentile_list(job: &[(String, String)], global: &[(String, String)]) -> Vec<f64> {
    let on = |name: &str, default: &str| option(job, global, name).unwrap_or(default) != "0";
    if !on("clat_percentiles", "1") && !on("lat_percentiles", "0") {
        return Vec::new();
    }
    let mut list: Vec<f64> = match option(job, global, "percentile_list") {
        Some(text) => text.split(':').map(|p| p.parse().expect("a percentile")).collect(),
        None => vec![
            1.0, 5.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0, 95.0, 99.0, 99.5, 99.9,
            99.95, 99.99,
        ],
    };
    list.sort_by(f64::total_cmp);
    list
}

/// The terse format's bandwidth share of each job's group: the mean over the group's
/// aggregate bandwidth in whole KiB/s, at most 100, 100 when that is 0, 0 without samples.
fn terse_shares(jobs: &mut [JobReport], groups: &[GroupReport]) {
    for job in jobs {
        let group = groups.iter().find(|g| g.groupid == job.groupid).expect("the job's group");
        for (dir, total) in job.dirs.iter_mut().zip(&group.dirs) {
            let bw = &mut dir.bw_samples;
            let kib = total.agg_bw / 1024;
            bw.agg_pct_terse = match (bw.samples, kib) {
                (0, _) => 0.0,
                (_, 0) => 100.0,
                _ => (bw.mean * 100.0 / kib as f64).min(100.0),
            };
        }
    }
}

/// fio's group totals: per direction, over the group's jobs that ran in it, the summed
/// bytes, the shortest and longest runtime, the lowest and highest job bandwidth, and the
/// aggregate bandwidth of all bytes over the longest runtime. The `MIXED` line (under
/// `unified_rw_reporting`) does the same over each job's reported directions: a `mixed`
/// job's mixed figures, or each of a `both` job's directions.
fn groups(jobs: &[JobReport]) -> Vec<GroupReport> {
    let mut ids: Vec<u32> = jobs.iter().map(|job| job.groupid).collect();
    ids.dedup();
    ids.into_iter()
        .map(|groupid| {
            let members: Vec<&JobReport> = jobs.iter().filter(|j| j.groupid == groupid).collect();
            let dirs = [0, 1, 2].map(|d| group_dir(members.iter().map(|job| &job.dirs[d])));
            let unified_rw = members[0].unified_rw;
            let reported = members.iter().flat_map(|job| match (&job.mixed, job.unified_rw) {
                (Some(mixed), UnifiedRw::Mixed) => vec![mixed],
                _ => job.dirs.iter().collect(),
            });
            let mixed = unified_rw.mixed().then(|| group_dir(reported));
            GroupReport { groupid, dirs, unified_rw, mixed }
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
