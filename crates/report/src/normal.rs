//! fio 3.33's `normal` output: the per-job blocks, the `Run status group` lines and the disk
//! statistics, printed line for line as fio prints them.
//!
//! The layout, the units and when a line is left out were established by running fio 3.33 on
//! many jobs; the rules are stated next to the code that follows them. The line that fio
//! prints for each job when the run starts (`a: (g=0): rw=randrw, bs=(R) …`) is not part of
//! the final report; [`job_header_line`] gives it to the runner.

use std::fmt::Write as _;

use iomark_stats::report::{
    DirReport, DiskReport, GroupDir, GroupReport, JobHeader, JobReport, LatStats, RunReport,
    SampleStats, SteadyReport,
};

use crate::units::{LatUnit, PrintOptions};

mod block;
mod idle;
mod percentiles;

pub use idle::cpu_idleness;

use percentiles::write_percentiles;

/// Lowercase direction names as the job block shows them.
const DIR_NAMES: [&str; 3] = ["read", "write", "trim"];
/// Uppercase direction names as the group lines show them.
const GROUP_DIR_NAMES: [&str; 3] = ["READ", "WRITE", "TRIM"];

/// fio's normal report for a whole run: every job that did I/O, then every reporting group,
/// then the disks.
///
/// fio prints the same wall-clock time on every job's first line (the time the report was
/// made), so that line shows [`RunReport::time`].
pub fn normal(report: &RunReport, opts: &PrintOptions) -> String {
    let mut out = String::new();
    for job in report.jobs.iter().filter(|job| did_io(job)) {
        write_job(&mut out, job, &report.time, opts);
    }
    for group in &report.groups {
        write_group(&mut out, group, opts);
    }
    if !report.disks.is_empty() {
        out.push_str("\nDisk stats (read/write):\n");
        for disk in &report.disks {
            write_disk(&mut out, disk);
        }
    }
    if let Some(idle) = &report.cpu_idleness {
        out.push('\n');
        out.push_str(&cpu_idleness(idle, true));
    }
    out
}

/// The line fio prints for a job when the run starts, before `fio-3.33` and `Starting N
/// processes`, without a newline:
/// `a: (g=0): rw=randrw, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, ioengine=psync,
/// iodepth=1`.
///
/// fio prints it once per job section; the further clones of `numjobs` get a line `...`
/// instead, which is the runner's to print.
pub fn job_header_line(job: &JobReport, opts: &PrintOptions) -> String {
    start_line(&job.name, job.groupid, &job.header, opts)
}

/// [`job_header_line`] from a job's name, group and header alone, for the runner, which
/// prints it before the job has a report.
pub fn start_line(name: &str, groupid: u32, header: &JobHeader, opts: &PrintOptions) -> String {
    let mut line = format!("{name}: (g={groupid}): rw={}, bs=", header.rw);
    for (i, (tag, (min, max))) in ["R", "W", "T"].iter().zip(header.bs).enumerate() {
        if i > 0 {
            line.push_str(", ");
        }
        let _ = write!(line, "({tag}) {}-{}", opts.size(min), opts.size(max));
    }
    let _ = write!(line, ", ioengine={}, iodepth={}", header.ioengine, header.iodepth);
    line
}

/// fio leaves out jobs that neither moved a byte nor completed an I/O (a job that failed to
/// start, for one).
fn did_io(job: &JobReport) -> bool {
    job.dirs.iter().chain(&job.mixed).any(|d| d.io_bytes > 0 || d.total_ios > 0)
}

fn write_job(out: &mut String, job: &JobReport, time: &str, opts: &PrintOptions) {
    let _ = write!(
        out,
        "{}: (groupid={}, jobs={}): err={:2}",
        job.name, job.groupid, job.jobs, job.error
    );
    if job.error != 0 {
        let _ = write!(out, " ({})", job.error_text);
    }
    let _ = writeln!(out, ": pid={}: {time}", job.pid);
    if let Some(description) = job.description.as_deref().filter(|d| !d.is_empty()) {
        let _ = writeln!(out, "  Description  : [{description}]");
    }
    // unified_rw_reporting: the directions, then their sum as `mixed`, as asked.
    let directions: &[DirReport] = if job.unified_rw.directions() { &job.dirs } else { &[] };
    let shown = DIR_NAMES.iter().zip(directions).chain(job.mixed.iter().map(|m| (&"mixed", m)));
    for (name, dir) in shown {
        if dir.io_bytes > 0 {
            write_dir(out, name, dir, opts);
            block::write_dir(out, name, job.block_latency.as_ref());
        }
    }
    block::write_counts(out, job.block_latency.as_ref());
    write_lat_buckets(out, "nsec", &NSEC_LABELS, &job.latency_ns);
    write_lat_buckets(out, "usec", &NSEC_LABELS, &job.latency_us);
    write_lat_buckets(out, "msec", &MSEC_LABELS, &job.latency_ms);
    if job.sync.lat.n > 0 {
        out.push_str("  fsync/fdatasync/sync_file_range:\n");
        write_lat_line(out, "sync", &job.sync.lat);
        write_percentiles(out, "sync", &job.sync.lat);
    }
    let _ = writeln!(
        out,
        "  cpu          : usr={:3.2}%, sys={:3.2}%, ctx={}, majf={}, minf={}",
        job.usr_cpu, job.sys_cpu, job.ctx, job.majf, job.minf
    );
    write_depths(out, "  IO depths    : ", &DEPTH_LABELS, &job.iodepth_level);
    write_depths(out, "     submit    : ", &BATCH_LABELS, &job.iodepth_submit);
    write_depths(out, "     complete  : ", &BATCH_LABELS, &job.iodepth_complete);
    // Under `mixed` fio counts every I/O as a read here.
    let none = DirReport::default();
    let [r, w, t] = match &job.mixed {
        Some(mixed) if !job.unified_rw.directions() => [mixed, &none, &none],
        _ => [&job.dirs[0], &job.dirs[1], &job.dirs[2]],
    };
    let _ = writeln!(
        out,
        "     issued rwts: total={},{},{},{} short={},{},{},0 dropped={},{},{},0",
        r.total_ios,
        w.total_ios,
        t.total_ios,
        job.sync.total_ios,
        r.short_ios,
        w.short_ios,
        t.short_ios,
        r.drop_ios,
        w.drop_ios,
        t.drop_ios
    );
    if let Some(e) = &job.errors {
        let _ = writeln!(
            out,
            "     errors    : total={}, first_error={}/<{}>",
            e.total_err, e.first_error, e.first_error_text
        );
    }
    let target = &job.latency_target;
    let _ = writeln!(
        out,
        "     latency   : target={}, window={}, percentile={:.2}%, depth={}",
        target.target, target.window, target.percentile, target.depth
    );
    if let Some(b) = &job.block_lifetimes {
        crate::lifetimes::write_lifetimes(out, b);
    }
    if let Some(ss) = &job.steadystate {
        write_steadystate(out, ss, opts);
    }
}

/// `  steadystate  : attained=yes, bw=8002KiB/s (8002kB/s), iops=2000, iops slope=-0.025%`.
/// fio 3.33 turns the mean bandwidth into whole KiB/s and prints that number once in binary
/// units and once, as if it were kB/s, in decimal ones; so does this line.
fn write_steadystate(out: &mut String, ss: &SteadyReport, opts: &PrintOptions) {
    let kib = ss.bw_mean / 1024;
    let bw = opts.rate_pair(kib.saturating_mul(1024)).0;
    let bw_alt = opts.rate_pair(kib.saturating_mul(1000)).1;
    let _ = write!(
        out,
        "  steadystate  : attained={}, bw={bw} ({bw_alt}), iops={}, {}=",
        if ss.attained { "yes" } else { "no" },
        opts.count(ss.iops_mean),
        ss.criterion_name
    );
    let _ = if ss.percent {
        writeln!(out, "{:.3}%", ss.criterion)
    } else {
        writeln!(out, "{:.3}", ss.criterion)
    };
}

/// One direction of a job: the rate line, the latency lines, the percentile blocks (after
/// all latency lines), then the bandwidth and IOPS sample lines when samples were taken.
fn write_dir(out: &mut String, name: &str, dir: &DirReport, opts: &PrintOptions) {
    // fio's IOPS here is the integer part of I/Os per second.
    let iops = opts.count(dir.iops as u64);
    let (bw, bw_alt) = opts.rate_pair(dir.bw_bytes);
    let _ = write!(
        out,
        "  {name}: IOPS={iops}, BW={bw} ({bw_alt})({}/{}msec)",
        opts.size(dir.io_bytes),
        dir.runtime_ms
    );
    // fio counts zone resets on zoned devices only; iomark does not drive zoned devices.
    out.push_str(if name == "write" { "; 0 zone resets\n" } else { "\n" });
    // A rate-limited job's latency from the intended start comes last (iomark's addition).
    let corrected = dir.lat_corrected.as_ref().map(|c| ("corrected lat", c));
    let lats = [("slat", &dir.slat), ("clat", &dir.clat), (" lat", &dir.lat)];
    for (label, stats) in lats.into_iter().chain(corrected) {
        if stats.n > 0 {
            write_lat_line(out, label, stats);
        }
    }
    // cmdprio_*: a line per priority after the latencies, a percentile block per priority
    // after the others, as fio 3.33 prints them.
    let prio_label = |p: &iomark_stats::report::PrioStats| {
        let kind = if p.total_latency { "lat" } else { "clat" };
        format!("{kind} prio {}/{}", p.prioclass, p.prio)
    };
    for p in &dir.prios {
        write_lat_line(out, &prio_label(p), &p.lat);
    }
    for (label, stats) in lats.into_iter().chain(corrected) {
        write_percentiles(out, label.trim_start(), stats);
    }
    let all: u64 = dir.prios.iter().map(|p| p.lat.n).sum();
    for p in &dir.prios {
        let share = p.lat.n as f64 * 100.0 / all.max(1) as f64;
        write_percentiles(out, &format!("{} ({share:.2}% of IOs)", prio_label(p)), &p.lat);
    }
    write_bw_samples(out, &dir.bw_samples, opts);
    write_iops_samples(out, &dir.iops_samples);
}

/// `    clat (usec): min=17, max=162, avg=67.01, stdev=11.31`: minimum and maximum are
/// truncated to the unit and scaled to at most six figures.
fn write_lat_line(out: &mut String, label: &str, stats: &LatStats) {
    let unit = LatUnit::for_stats(stats.min, stats.max, stats.stddev);
    let div = unit.divisor();
    let scaled = |v: u64| crate::units::scaled(v, 6, false, crate::units::Unit::None);
    let _ = writeln!(
        out,
        "    {label} ({}): min={}, max={}, avg={:5.2}, stdev={:5.2}",
        unit.name(),
        scaled(stats.min / div),
        scaled(stats.max / div),
        stats.mean / div as f64,
        stats.stddev / div as f64
    );
}

/// `   bw (  KiB/s): min=…`: the samples are in KiB/s and switch to MiB/s (divided by
/// `kb_base`) when the mean exceeds `kb_base` squared. fio 3.33 shows this line in bytes
/// even with `unit_base=1`, and with `kb_base=1000` labels the same KiB/s figures `kB/s`
/// (and the divided ones still `MiB/s`).
fn write_bw_samples(out: &mut String, bw: &SampleStats, opts: &PrintOptions) {
    if bw.samples == 0 {
        return;
    }
    let kb = f64::from(opts.kb_base);
    let small = if opts.binary_first() { "KiB" } else { "kB" };
    let (mut min, mut max, mut mean, mut dev, mut unit) =
        (bw.min, bw.max, bw.mean, bw.stddev, small);
    if mean > kb * kb {
        min = (min as f64 / kb) as u64;
        max = (max as f64 / kb) as u64;
        mean /= kb;
        dev /= kb;
        unit = "MiB";
    }
    let _ = writeln!(
        out,
        "   bw ({unit:>5}/s): min={min:5}, max={max:5}, per={:3.2}%, avg={mean:5.2}, \
         stdev={dev:5.2}, samples={}",
        bw.agg_pct, bw.samples
    );
}

fn write_iops_samples(out: &mut String, iops: &SampleStats) {
    if iops.samples == 0 {
        return;
    }
    let _ = writeln!(
        out,
        "   iops        : min={:5}, max={:5}, avg={:5.2}, stdev={:5.2}, samples={}",
        iops.min, iops.max, iops.mean, iops.stddev, iops.samples
    );
}

const NSEC_LABELS: [&str; 10] = ["2", "4", "10", "20", "50", "100", "250", "500", "750", "1000"];
const MSEC_LABELS: [&str; 12] =
    ["2", "4", "10", "20", "50", "100", "250", "500", "750", "1000", "2000", ">=2000"];
const DEPTH_LABELS: [&str; 7] = ["1", "2", "4", "8", "16", "32", ">=64"];
const BATCH_LABELS: [&str; 7] = ["0", "4", "8", "16", "32", "64", ">=64"];

/// `  lat (usec)   : 4=43.95%, 10=8.79%`: only buckets above zero, five to a line, each
/// line with its own prefix.
fn write_lat_buckets(out: &mut String, unit: &str, labels: &[&str], shares: &[f64]) {
    let shown = labels.iter().zip(shares).filter(|(_, share)| **share > 0.0);
    for (i, (label, share)) in shown.enumerate() {
        if i % 5 == 0 {
            if i > 0 {
                out.push('\n');
            }
            let _ = write!(out, "  lat ({unit})   : ");
        } else {
            out.push_str(", ");
        }
        let _ = write!(out, "{label}={share:3.2}%");
    }
    if shares.iter().any(|share| *share > 0.0) {
        out.push('\n');
    }
}

fn write_depths(out: &mut String, prefix: &str, labels: &[&str], shares: &[f64]) {
    out.push_str(prefix);
    for (i, (label, share)) in labels.iter().zip(shares).enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        let _ = write!(out, "{label}={share:3.1}%");
    }
    out.push('\n');
}

/// `Run status group 0 (all jobs):` and one line per direction that moved data (and the
/// `MIXED` line of `unified_rw_reporting`). The group header is printed even when no job of
/// the group did I/O.
fn write_group(out: &mut String, group: &GroupReport, opts: &PrintOptions) {
    let _ = writeln!(out, "\nRun status group {} (all jobs):", group.groupid);
    let directions: &[GroupDir] = if group.unified_rw.directions() { &group.dirs } else { &[] };
    let lines =
        GROUP_DIR_NAMES.iter().zip(directions).chain(group.mixed.iter().map(|m| (&"MIXED", m)));
    for (name, dir) in lines {
        if dir.io_bytes == 0 {
            continue;
        }
        let (agg, agg_alt) = opts.rate_pair(dir.agg_bw);
        let (min, min_alt) = opts.rate_pair(dir.min_bw);
        let (max, max_alt) = opts.rate_pair(dir.max_bw);
        let (io, io_alt) = opts.size_pair(dir.io_bytes);
        let _ = writeln!(
            out,
            "{name:>7}: bw={agg} ({agg_alt}), {min}-{max} ({min_alt}-{max_alt}), \
             io={io} ({io_alt}), run={}-{}msec",
            dir.min_run_ms, dir.max_run_ms
        );
    }
}

/// One disk line; a device with members is indented further and ends with their `aggr*`
/// figures (fio 3.33's layout).
fn write_disk(out: &mut String, disk: &DiskReport) {
    if disk.aggr.is_some() {
        out.push_str("  ");
    }
    let _ = write!(
        out,
        "  {}: ios={}/{}, merge={}/{}, ticks={}/{}, in_queue={}, util={:3.2}%",
        disk.name,
        disk.ios[0],
        disk.ios[1],
        disk.merges[0],
        disk.merges[1],
        disk.ticks[0],
        disk.ticks[1],
        disk.in_queue,
        disk.util
    );
    if let Some(a) = &disk.aggr {
        let _ =
            write!(
            out,
            ", aggrios={}/{}, aggrmerge={}/{}, aggrticks={}/{}, aggrin_queue={}, aggrutil={:3.2}%",
            a.ios[0], a.ios[1], a.merges[0], a.merges[1], a.ticks[0], a.ticks[1], a.in_queue, a.util
        );
    }
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;
    use iomark_stats::report::{JobHeader, LatencyTarget, SyncReport, UnifiedRw};

    fn job(name: &str) -> JobReport {
        JobReport {
            name: name.into(),
            description: None,
            groupid: 0,
            jobs: 1,
            error: 0,
            error_text: String::new(),
            notes: Vec::new(),
            pid: 4609,
            start_time: String::new(),
            elapsed_s: 1,
            options: Vec::new(),
            header: JobHeader {
                rw: "read".into(),
                bs: [(4096, 4096); 3],
                ioengine: "psync".into(),
                iodepth: 1,
            },
            dirs: Default::default(),
            unified_rw: UnifiedRw::None,
            mixed: None,
            sync: SyncReport::default(),
            runtime_ms: 1,
            usr_cpu: 0.0,
            sys_cpu: 0.0,
            ctx: 0,
            majf: 0,
            minf: 18,
            iodepth_level: [100.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
            iodepth_submit: [0.0, 100.0, 0.0, 0.0, 0.0, 0.0, 0.0],
            iodepth_complete: [0.0, 100.0, 0.0, 0.0, 0.0, 0.0, 0.0],
            latency_ns: [0.0; 10],
            latency_us: [0.0; 10],
            latency_ms: [0.0; 12],
            terse_latency_2us: 0.0,
            counters: Default::default(),
            percentile_list: Vec::new(),
            latency_target: LatencyTarget { depth: 1, target: 0, percentile: 100.0, window: 0 },
            steadystate: None,
            errors: None,
            block_latency: None,
            block_lifetimes: None,
        }
    }

    fn report(jobs: Vec<JobReport>) -> RunReport {
        RunReport {
            version: 1,
            iomark_version: "0.1.0".into(),
            fio_compat: "fio-3.33".into(),
            timestamp: 0,
            timestamp_ms: 0,
            time: "Sun Nov 22 02:46:37 2026".into(),
            global_options: Vec::new(),
            jobs,
            groups: vec![GroupReport {
                groupid: 0,
                dirs: Default::default(),
                unified_rw: UnifiedRw::None,
                mixed: None,
            }],
            disks: Vec::new(),
            notes: Default::default(),
            ranks: Vec::new(),
            clients: Vec::new(),
            cpu_idleness: None,
            act: None,
        }
    }

    const TAIL: &str = "  cpu          : usr=0.00%, sys=0.00%, ctx=0, majf=0, minf=18\n  \
        IO depths    : 1=100.0%, 2=0.0%, 4=0.0%, 8=0.0%, 16=0.0%, 32=0.0%, >=64=0.0%\n     \
        submit    : 0=0.0%, 4=100.0%, 8=0.0%, 16=0.0%, 32=0.0%, 64=0.0%, >=64=0.0%\n     \
        complete  : 0=0.0%, 4=100.0%, 8=0.0%, 16=0.0%, 32=0.0%, 64=0.0%, >=64=0.0%\n";

    #[test]
    fn a_job_without_io_is_left_out_but_its_group_is_shown() {
        let out = normal(&report(vec![job("x")]), &PrintOptions::default());
        assert_eq!(out, "\nRun status group 0 (all jobs):\n");
    }

    /// fio's cpuio engine completes I/Os that move no bytes: no direction block.
    #[test]
    fn ios_without_bytes_show_the_job_but_no_direction() {
        let mut cpu = job("c");
        cpu.dirs[0].total_ios = 334;
        cpu.latency_ms[1] = 100.0;
        let out = normal(&report(vec![cpu]), &PrintOptions::default());
        let expected = format!(
            "c: (groupid=0, jobs=1): err= 0: pid=4609: Sun Nov 22 02:46:37 2026\n  \
             lat (msec)   : 4=100.00%\n{TAIL}     \
             issued rwts: total=334,0,0,0 short=0,0,0,0 dropped=0,0,0,0\n     \
             latency   : target=0, window=0, percentile=100.00%, depth=1\n\n\
             Run status group 0 (all jobs):\n"
        );
        assert_eq!(out, expected);
    }

    #[test]
    fn error_and_description_lines() {
        let mut failed = job("v");
        failed.error = 84;
        failed.error_text = "file:io_u.c:2152, func=io_u_sync_complete, error=Invalid or \
                             incomplete multibyte or wide character"
            .into();
        failed.description = Some("verify".into());
        failed.dirs[0].total_ios = 1;
        let out = normal(&report(vec![failed]), &PrintOptions::default());
        assert!(out.starts_with(
            "v: (groupid=0, jobs=1): err=84 (file:io_u.c:2152, func=io_u_sync_complete, \
             error=Invalid or incomplete multibyte or wide character): pid=4609: \
             Sun Nov 22 02:46:37 2026\n  Description  : [verify]\n"
        ));
    }

    /// A real fio 3.x report of an md device on two NVMe disks: the aggregate is the
    /// members' mean (integer division) and the busiest member's util.
    #[test]
    fn a_device_with_members_prints_their_aggregate() {
        use iomark_stats::report::{DiskAggr, DiskReport};
        let disk = |name: &str, ios: u64, ticks: u64, in_queue: u64, util: f64| DiskReport {
            name: name.into(),
            ios: [ios, 0],
            ticks: [ticks, 0],
            in_queue,
            util,
            ..DiskReport::default()
        };
        let nvme2 = disk("nvme2n1", 419_092, 26_124, 26_125, 99.88);
        let nvme1 = disk("nvme1n1", 419_028, 26_120, 26_120, 99.88);
        let mut md0 = disk("md0", 836_698, 51_308, 51_308, 99.91);
        md0.aggr = DiskAggr::of(&[&nvme2, &nvme1]);
        let mut r = report(vec![job("x")]);
        r.disks = vec![md0, nvme2, nvme1];
        let out = normal(&r, &PrintOptions::default());
        let expected = "\nDisk stats (read/write):\n    \
            md0: ios=836698/0, merge=0/0, ticks=51308/0, in_queue=51308, util=99.91%, \
            aggrios=419060/0, aggrmerge=0/0, aggrticks=26122/0, aggrin_queue=26122, \
            aggrutil=99.88%\n  \
            nvme2n1: ios=419092/0, merge=0/0, ticks=26124/0, in_queue=26125, util=99.88%\n  \
            nvme1n1: ios=419028/0, merge=0/0, ticks=26120/0, in_queue=26120, util=99.88%\n";
        assert!(out.ends_with(expected), "{out}");
    }

    #[test]
    fn slow_latencies_show_in_msec() {
        let mut out = String::new();
        let stats = LatStats {
            n: 6,
            min: 149_000_123,
            max: 160_500_000,
            mean: 151_234_567.0,
            stddev: 4_000_000.0,
            ..LatStats::default()
        };
        write_lat_line(&mut out, "clat", &stats);
        assert_eq!(out, "    clat (msec): min=149, max=160, avg=151.23, stdev= 4.00\n");
    }

    #[test]
    fn header_line_scales_block_sizes() {
        let mut w = job("w");
        w.header.rw = "write".into();
        w.header.bs = [(65536, 65536); 3];
        assert_eq!(
            job_header_line(&w, &PrintOptions::default()),
            "w: (g=0): rw=write, bs=(R) 64.0KiB-64.0KiB, (W) 64.0KiB-64.0KiB, \
             (T) 64.0KiB-64.0KiB, ioengine=psync, iodepth=1"
        );
    }
}
