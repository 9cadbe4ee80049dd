//! fio 3.33's terse output (`--output-format=terse`, `--minimal`): one line of
//! `;`-separated fields per job — per reporting group under `group_reporting` — in the
//! layouts of terse versions 2, 3 (fio's default), 4 and 5.
//!
//! The layout was established by running fio 3.33 with `--output-format=terse,json` and
//! `--terse-version=N` and matching every field with the JSON document of the same run (the
//! fixtures under `tests/fixtures/terse/` are such runs), and from fio's HOWTO ("Terse
//! output"). A line is:
//!
//! - `version;fio version;name;groupid;error` (version 2 has no fio version field);
//! - per direction — read and write in version 3; read, write and trim in 2, 4 and 5:
//!   I/O in KiB, bandwidth in KiB/s, IOPS (truncated to an integer), runtime in ms; then
//!   slat, clat and lat as `min;max;mean;stddev` in µs (min and max truncated, mean and
//!   deviation with six decimals), with the 20 percentile fields between clat and lat;
//!   then bandwidth samples `min;max;share%;mean;stddev` in KiB/s, and in version 5 the
//!   number of bandwidth samples and the IOPS samples `min;max;mean;stddev;samples`;
//! - CPU `usr%;sys%;ctx;majf;minf`, the 7 I/O depth shares (`%.1f%%`), and the latency
//!   shares in µs (10) and ms (12) (`%.2f%%`), where the first µs bucket also counts every
//!   I/O of the ns row ([`JobReport::terse_latency_2us`]);
//! - from version 3 on, every disk of the run, 9 fields each (name, read and write ios,
//!   merges and ticks, time in queue, `util%`), on every job's line, and none when the run
//!   touched no block device (the null engine, files on tmpfs); dm/md aggregates are not
//!   printed (the HOWTO lists 9 fields per disk; fio 3.33 could not be run on a dm device
//!   here);
//! - the job's `description`, if any: one more field from version 3 on; in version 2 on a
//!   line of its own that starts with `;`.
//!
//! The 20 percentile fields are `P%=V` with `P` in six decimals and `V` in µs (truncated):
//! the lat percentiles when `lat_percentiles` is on, else the clat ones; the values are 0
//! in a direction without samples; the list is padded with `0%=0` to 20 fields, and is 20
//! times `0%=0` when clat and lat percentiles are both off. slat percentiles never appear.
//!
//! fio prints a line for every job, also one that did no I/O (which the normal report
//! leaves out). The fio version field names iomark and the fio release it follows
//! (`iomark-0.1.0 (fio-3.33)`), as the JSON document's `"fio version"` does.
//!
//! A job that may go on past errors (`continue_on_error`, `ignore_error`) has two more
//! fields after the disks, before the description: its error count and first error.

use std::fmt::{Display, Write as _};

use iomark_stats::report::{DirReport, DiskReport, JobReport, LatStats, RunReport, SampleStats};

/// A terse layout version (`--terse-version`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct TerseVersion(u32);

impl TerseVersion {
    /// fio's default, version 3.
    pub const DEFAULT: TerseVersion = TerseVersion(3);

    /// Version `n`, if fio 3.33 has it (2, 3, 4 or 5).
    pub fn new(n: u32) -> Option<TerseVersion> {
        (2..=5).contains(&n).then_some(TerseVersion(n))
    }

    /// The version's number, the line's first field.
    pub fn number(self) -> u32 {
        self.0
    }

    /// How many directions a line has: read and write in version 3, trim too otherwise.
    fn directions(self) -> usize {
        if self.0 == 3 {
            2
        } else {
            3
        }
    }
}

impl Default for TerseVersion {
    fn default() -> Self {
        TerseVersion::DEFAULT
    }
}

/// How many percentile fields every direction has.
const PERCENTILE_FIELDS: usize = 20;

/// fio's terse lines for a whole run, one per job (or reporting group), each ending with a
/// newline.
pub fn terse(report: &RunReport, version: TerseVersion) -> String {
    let mut out = String::new();
    let fio_version = format!("iomark-{} ({})", report.iomark_version, report.fio_compat);
    for job in &report.jobs {
        let mut line = Fields::default();
        line.push(version.number());
        if version.number() >= 3 {
            line.push(&fio_version);
        }
        line.push(&job.name);
        line.push(job.groupid);
        line.push(job.error);
        // unified_rw_reporting: `mixed` replaces the directions, `both` follows them.
        let dirs =
            if job.unified_rw.directions() { &job.dirs[..version.directions()] } else { &[] };
        for dir in dirs.iter().chain(&job.mixed) {
            direction(&mut line, dir, &job.percentile_list, version);
        }
        cpu_and_shares(&mut line, job);
        if version.number() >= 3 {
            report.disks.iter().for_each(|disk| self::disk(&mut line, disk));
        }
        if let Some(e) = &job.errors {
            line.push(e.total_err);
            line.push(e.first_error);
        }
        let description = job.description.as_deref().filter(|d| !d.is_empty());
        match description {
            Some(text) if version.number() == 2 => {
                line.text.push_str("\n;");
                line.text.push_str(text);
            }
            Some(text) => line.push(text),
            None => {}
        }
        out.push_str(&line.text);
        out.push('\n');
    }
    out
}

/// A line under construction: fields joined by `;`.
#[derive(Default)]
struct Fields {
    text: String,
    any: bool,
}

impl Fields {
    fn push(&mut self, value: impl Display) {
        if std::mem::replace(&mut self.any, true) {
            self.text.push(';');
        }
        let _ = write!(self.text, "{value}");
    }

    /// A float with six decimals (`%f`).
    fn float(&mut self, value: f64) {
        self.push(format_args!("{value:.6}"));
    }

    /// A share with `decimals` decimals and a `%` sign.
    fn share(&mut self, value: f64, decimals: usize) {
        self.push(format_args!("{value:.decimals$}%"));
    }
}

fn direction(line: &mut Fields, dir: &DirReport, list: &[f64], version: TerseVersion) {
    line.push(dir.io_bytes >> 10);
    line.push(dir.bw_bytes / 1024);
    // Truncated, as fio prints it.
    line.push(dir.iops as u64);
    line.push(dir.runtime_ms);
    latency(line, &dir.slat);
    latency(line, &dir.clat);
    percentiles(line, dir, list);
    latency(line, &dir.lat);
    samples(line, &dir.bw_samples, true);
    if version.number() >= 5 {
        line.push(dir.bw_samples.samples);
        samples(line, &dir.iops_samples, false);
        line.push(dir.iops_samples.samples);
    }
}

/// `min;max;mean;stddev` in microseconds.
fn latency(line: &mut Fields, stats: &LatStats) {
    line.push(stats.min / 1000);
    line.push(stats.max / 1000);
    line.float(stats.mean / 1000.0);
    line.float(stats.stddev / 1000.0);
}

/// The 20 percentile fields: see the module doc.
fn percentiles(line: &mut Fields, dir: &DirReport, list: &[f64]) {
    let pairs: Vec<(f64, u64)> = match measured(&dir.lat).or_else(|| measured(&dir.clat)) {
        Some(pairs) => pairs.to_vec(),
        None => list.iter().map(|&p| (p, 0)).collect(),
    };
    for (p, ns) in pairs.iter().take(PERCENTILE_FIELDS) {
        line.push(format_args!("{p:.6}%={}", ns / 1000));
    }
    for _ in pairs.len()..PERCENTILE_FIELDS {
        line.push("0%=0");
    }
}

/// A latency's percentiles, if it has them and samples.
fn measured(stats: &LatStats) -> Option<&[(f64, u64)]> {
    stats.percentiles.as_deref().filter(|_| stats.n > 0)
}

/// Bandwidth (`min;max;share%;mean;stddev`) or IOPS (`min;max;mean;stddev`) samples.
fn samples(line: &mut Fields, stats: &SampleStats, with_share: bool) {
    line.push(stats.min);
    line.push(stats.max);
    if with_share {
        line.share(stats.agg_pct_terse, 6);
    }
    line.float(stats.mean);
    line.float(stats.stddev);
}

fn cpu_and_shares(line: &mut Fields, job: &JobReport) {
    line.share(job.usr_cpu, 6);
    line.share(job.sys_cpu, 6);
    line.push(job.ctx);
    line.push(job.majf);
    line.push(job.minf);
    job.iodepth_level.iter().for_each(|&d| line.share(d, 1));
    line.share(job.terse_latency_2us, 2);
    job.latency_us[1..].iter().chain(&job.latency_ms).for_each(|&l| line.share(l, 2));
}

/// The line fio 3.33's client prints in terse output for a disk a server reported
/// (`;vda;ios;ios;merges;merges;ticks;ticks;in_queue;util%`, the fields a local run puts
/// on each job's line, on a line of their own after the server's jobs), with its newline.
pub fn client_disk_line(disk: &DiskReport) -> String {
    let mut line = Fields::default();
    line.push("");
    self::disk(&mut line, disk);
    line.text.push('\n');
    line.text
}

fn disk(line: &mut Fields, disk: &DiskReport) {
    line.push(&disk.name);
    let counts = [disk.ios, disk.merges, disk.ticks];
    counts.iter().flatten().for_each(|&n| line.push(n));
    line.push(disk.in_queue);
    line.share(disk.util, 2);
}

#[cfg(test)]
mod tests {
    use super::*;
    use iomark_core::Ddir;
    use iomark_stats::report::REPORT_VERSION;
    use iomark_stats::{reduce, JobMeta, JobRecorder, JobTimes, PercentileList};

    /// A run of one read job with four I/Os of 1.5 µs, reduced by the statistics crate.
    fn report(description: Option<&str>, disks: Vec<DiskReport>) -> RunReport {
        let mut rec = JobRecorder::new(Default::default(), 0).expect("a recorder");
        for _ in 0..4 {
            rec.record_io(Ddir::Read, 4096, 4096, None, Some(1_500), Some(1_600));
        }
        let meta = JobMeta {
            name: "j".into(),
            description: description.map(str::to_owned),
            jobs: 1,
            ..Default::default()
        };
        let times = JobTimes { runtime_ms: [3, 0, 0], total_run_ms: 3, ..Default::default() };
        let list = PercentileList::new(&[50.0, 99.0]).expect("a list");
        let mut jobs = vec![reduce::job_report(&rec, meta, &times, &list)];
        let groups = reduce::group_reports(&mut jobs);
        RunReport {
            version: REPORT_VERSION,
            iomark_version: "0.1.0".into(),
            fio_compat: "fio-3.33".into(),
            timestamp: 0,
            timestamp_ms: 0,
            time: String::new(),
            global_options: Vec::new(),
            jobs,
            groups,
            disks,
            notes: Default::default(),
            ranks: Vec::new(),
            clients: Vec::new(),
            cpu_idleness: None,
            act: None,
        }
    }

    fn disk(name: &str, util: f64) -> DiskReport {
        let (ios, merges, ticks) = ([1, 2], [3, 4], [5, 6]);
        let in_queue = 7;
        DiskReport { name: name.into(), ios, merges, ticks, in_queue, util, ..Default::default() }
    }

    fn fields(line: &str) -> Vec<&str> {
        line.split(';').collect()
    }

    #[test]
    fn field_counts_per_version() {
        let run = report(None, Vec::new());
        for (version, count) in [(2, 161), (3, 121), (4, 162), (5, 180)] {
            let text = terse(&run, TerseVersion::new(version).expect("a version"));
            assert_eq!(text.lines().count(), 1, "v{version}");
            assert_eq!(fields(text.trim_end()).len(), count, "v{version}");
        }
    }

    #[test]
    fn every_disk_follows_on_every_line_from_version_3() {
        let run = report(None, vec![disk("loop0", 12.345), disk("vda", 100.0)]);
        let v3 = terse(&run, TerseVersion::DEFAULT);
        let f = fields(v3.trim_end());
        assert_eq!(f.len(), 121 + 18);
        assert_eq!(f[121..130], ["loop0", "1", "2", "3", "4", "5", "6", "7", "12.35%"]);
        assert_eq!(f[130..], ["vda", "1", "2", "3", "4", "5", "6", "7", "100.00%"]);
        let v2 = terse(&run, TerseVersion::new(2).expect("v2"));
        assert_eq!(fields(v2.trim_end()).len(), 161, "version 2 has no disks");
    }

    #[test]
    fn description_is_a_last_field_or_in_version_2_a_line() {
        let run = report(Some("a job"), vec![disk("vda", 0.0)]);
        let v3 = terse(&run, TerseVersion::DEFAULT);
        assert!(v3.ends_with(";vda;1;2;3;4;5;6;7;0.00%;a job\n"), "{v3}");
        let v2 = terse(&run, TerseVersion::new(2).expect("v2"));
        assert!(v2.ends_with("0.00%\n;a job\n"), "{v2}");
        let empty = terse(&report(Some(""), Vec::new()), TerseVersion::DEFAULT);
        assert_eq!(fields(empty.trim_end()).len(), 121, "an empty description is left out");
    }

    #[test]
    fn head_latencies_and_percentiles() {
        let line = terse(&report(None, Vec::new()), TerseVersion::DEFAULT);
        let f = fields(line.trim_end());
        assert_eq!(f[..5], ["3", "iomark-0.1.0 (fio-3.33)", "j", "0", "0"]);
        // 16 KiB in 3 ms: 5461333 B/s is 5333 KiB/s; 1333.33 IOPS, truncated.
        assert_eq!(f[5..9], ["16", "5333", "1333", "3"]);
        assert_eq!(f[9..17], ["0", "0", "0.000000", "0.000000", "1", "1", "1.500000", "0.000000"]);
        assert_eq!(f[17..20], ["50.000000%=1", "99.000000%=1", "0%=0"]);
        assert_eq!(f[36], "0%=0");
        assert_eq!(f[37..41], ["1", "1", "1.600000", "0.000000"]);
        // The write direction: the list with zero values.
        assert_eq!(f[46 + 12..46 + 15], ["50.000000%=0", "99.000000%=0", "0%=0"]);
        // lat (usec) 2: all four I/Os.
        assert_eq!(f[99], "100.00%");
    }

    #[test]
    fn only_versions_2_to_5_exist() {
        assert_eq!(TerseVersion::new(1), None);
        assert_eq!(TerseVersion::new(6), None);
        assert_eq!(TerseVersion::new(5).map(TerseVersion::number), Some(5));
        assert_eq!(TerseVersion::default(), TerseVersion::DEFAULT);
    }
}
