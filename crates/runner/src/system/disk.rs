//! Disk statistics: the block devices under the jobs' files, and what their
//! `/sys/block/<dev>/stat` counters moved during the run (fio's `Disk stats` section and JSON
//! `disk_util`).
//!
//! A file's device is its `st_dev` (a block device file's own `st_rdev`), looked up as
//! `/sys/dev/block/MAJOR:MINOR`; a partition stands for its whole disk. Files on filesystems
//! without a block device (tmpfs, overlay, procfs: major 0) have no device, and fio 3.33
//! prints no disk section for them either. The counters are read once before the first wave
//! and once after the last; `util` is the device's busy time (`io_ticks`) over the wall time
//! between the two reads, in percent, at most 100.
//!
//! A dm or md device is followed by its members (`/sys/block/<dev>/slaves`, a partition
//! standing for its disk), and carries their `aggr*` figures, as fio prints them.

use iomark_plan::files::FilesPlan;
use iomark_stats::report::{DiskAggr, DiskReport};
use std::os::unix::fs::{FileTypeExt, MetadataExt};
use std::path::Path;
use std::time::Instant;

/// The counters of one `/sys/block/<dev>/stat` line that fio reports.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DiskStat {
    /// Reads and writes completed.
    pub ios: [u64; 2],
    /// Reads and writes merged.
    pub merges: [u64; 2],
    /// Sectors read and written.
    pub sectors: [u64; 2],
    /// Milliseconds spent reading and writing.
    pub ticks: [u64; 2],
    /// Milliseconds the device had I/O in flight.
    pub io_ticks: u64,
    /// Milliseconds weighted by the number of I/Os in flight.
    pub time_in_queue: u64,
}

/// Parses a `stat` line (the kernel's `Documentation/block/stat.rst` layout: at least 11
/// fields; later kernels append discard and flush counters, which fio does not report).
pub fn parse_stat(line: &str) -> Option<DiskStat> {
    let f: Vec<u64> =
        line.split_whitespace().take(11).map(str::parse).collect::<Result<_, _>>().ok()?;
    if f.len() < 11 {
        return None;
    }
    Some(DiskStat {
        ios: [f[0], f[4]],
        merges: [f[1], f[5]],
        sectors: [f[2], f[6]],
        ticks: [f[3], f[7]],
        io_ticks: f[9],
        time_in_queue: f[10],
    })
}

/// What the counters moved from `before` to `after`, `wall_ms` apart, as fio reports it.
pub fn delta(name: &str, before: &DiskStat, after: &DiskStat, wall_ms: u64) -> DiskReport {
    let d = |a: u64, b: u64| a.wrapping_sub(b);
    let busy = d(after.io_ticks, before.io_ticks);
    let util = if wall_ms == 0 { 0.0 } else { (busy as f64 * 100.0 / wall_ms as f64).min(100.0) };
    DiskReport {
        name: name.to_string(),
        ios: [0, 1].map(|i| d(after.ios[i], before.ios[i])),
        merges: [0, 1].map(|i| d(after.merges[i], before.merges[i])),
        ticks: [0, 1].map(|i| d(after.ticks[i], before.ticks[i])),
        in_queue: d(after.time_in_queue, before.time_in_queue),
        util,
        sectors: [0, 1].map(|i| d(after.sectors[i], before.sectors[i])),
        io_ticks: busy,
        wall_ms,
        aggr: None,
    }
}

/// The members of device `name` (`/sys/block/NAME/slaves`), each as its whole disk, sorted.
pub fn slaves_of(sys: &Path, name: &str) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(sys.join("block").join(name).join("slaves")) else {
        return Vec::new();
    };
    let mut out: Vec<String> = entries
        .filter_map(|e| {
            let member = e.ok()?.file_name().into_string().ok()?;
            let class = std::fs::canonicalize(sys.join("class/block").join(&member)).ok()?;
            let disk = if class.join("partition").exists() { class.parent()? } else { &class };
            Some(disk.file_name()?.to_str()?.to_string())
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The name under `/sys/block` of the disk holding `path` (a file, a directory, or a block
/// device file), or `None` when it is on no block device.
pub fn device_of(path: &Path) -> Option<String> {
    // A file not created yet (`create_on_open`) lives where its directory lives.
    let meta = match std::fs::metadata(path) {
        Ok(meta) => meta,
        Err(_) => std::fs::metadata(path.parent().filter(|p| !p.as_os_str().is_empty())?).ok()?,
    };
    let dev = if meta.file_type().is_block_device() { meta.rdev() } else { meta.dev() };
    device_by_number(Path::new("/sys"), libc::major(dev), libc::minor(dev))
}

/// The disk with device number `major:minor` under the sysfs mounted at `sys`; a partition
/// resolves to its whole disk.
pub fn device_by_number(sys: &Path, major: u32, minor: u32) -> Option<String> {
    if major == 0 {
        return None;
    }
    let mut dir = std::fs::canonicalize(sys.join(format!("dev/block/{major}:{minor}"))).ok()?;
    if dir.join("partition").exists() {
        dir = dir.parent()?.to_path_buf();
    }
    let name = dir.file_name()?.to_str()?.to_string();
    sys.join("block").join(&name).join("stat").exists().then_some(name)
}

fn read_stat(name: &str) -> Option<DiskStat> {
    parse_stat(&std::fs::read_to_string(Path::new("/sys/block").join(name).join("stat")).ok()?)
}

/// The devices under a run's files and their counters at the start.
#[derive(Debug)]
pub struct DiskWatch {
    start: Instant,
    /// Each device, its counters, and the indexes of its members in this list.
    disks: Vec<(String, DiskStat, Vec<usize>)>,
}

impl DiskWatch {
    /// Adds `name` (and, after it, its members) unless already watched; returns its index.
    fn watch(&mut self, sys: &Path, name: &str, depth: u32) -> Option<usize> {
        if let Some(i) = self.disks.iter().position(|(n, _, _)| n == name) {
            return Some(i);
        }
        let stat = read_stat(name)?;
        let index = self.disks.len();
        self.disks.push((name.to_string(), stat, Vec::new()));
        if depth < 4 {
            let members: Vec<usize> =
                slaves_of(sys, name).iter().filter_map(|m| self.watch(sys, m, depth + 1)).collect();
            self.disks[index].2 = members;
        }
        Some(index)
    }
}

impl DiskWatch {
    /// Finds the devices under the files of jobs (each once, in order of first use) and
    /// reads their counters.
    pub fn start<'a>(jobs: impl IntoIterator<Item = &'a FilesPlan>) -> DiskWatch {
        let mut watch = DiskWatch { start: Instant::now(), disks: Vec::new() };
        for files in jobs {
            for file in &files.list {
                if let Some(name) = device_of(&file.path) {
                    watch.watch(Path::new("/sys"), &name, 0);
                }
            }
        }
        watch.start = Instant::now();
        watch
    }

    /// Reads the counters again and reports what moved, one entry per device still readable.
    pub fn finish(self) -> Vec<DiskReport> {
        self.now()
    }

    /// What moved so far (for an interim report); the watch goes on.
    pub fn now(&self) -> Vec<DiskReport> {
        let wall_ms = self.start.elapsed().as_millis() as u64;
        let after: Vec<Option<DiskReport>> = self
            .disks
            .iter()
            .map(|(name, before, _)| Some(delta(name, before, &read_stat(name)?, wall_ms)))
            .collect();
        let mut out = Vec::new();
        for (i, (_, _, members)) in self.disks.iter().enumerate() {
            let Some(mut report) = after[i].clone() else { continue };
            let members: Vec<&DiskReport> =
                members.iter().filter_map(|&m| after[m].as_ref()).collect();
            report.aggr = DiskAggr::of(&members);
            out.push(report);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINE: &str =
        "  1513371     8348 19103282   135288   175563    29334 46059816   276771        \
                        0    74244   432723    14353       85 15248056     7829     1400    12834";

    #[test]
    fn a_stat_line_parses_into_fios_fields() {
        let s = parse_stat(LINE).expect("parses");
        assert_eq!(s.ios, [1_513_371, 175_563]);
        assert_eq!(s.merges, [8348, 29_334]);
        assert_eq!(s.sectors, [19_103_282, 46_059_816]);
        assert_eq!(s.ticks, [135_288, 276_771]);
        assert_eq!(s.io_ticks, 74_244);
        assert_eq!(s.time_in_queue, 432_723);
    }

    #[test]
    fn old_eleven_field_lines_parse_and_short_or_bad_lines_do_not() {
        assert!(parse_stat("1 2 3 4 5 6 7 8 9 10 11").is_some());
        assert_eq!(parse_stat("1 2 3 4 5 6 7 8 9 10"), None);
        assert_eq!(parse_stat("1 2 3 4 x 6 7 8 9 10 11"), None);
        assert_eq!(parse_stat(""), None);
    }

    #[test]
    fn deltas_and_util_come_from_two_snapshots() {
        let before = parse_stat("100 1 800 50 200 2 1600 70 0 1000 3000").unwrap();
        let after = parse_stat("182268 1 1458800 2736 200 2 1600 70 1 3620 5688").unwrap();
        let r = delta("vda", &before, &after, 4000);
        assert_eq!(r.name, "vda");
        assert_eq!(r.ios, [182_168, 0]);
        assert_eq!(r.merges, [0, 0]);
        assert_eq!(r.ticks, [2686, 0]);
        assert_eq!(r.in_queue, 2688);
        assert!((r.util - 65.5).abs() < 1e-9, "{}", r.util);
    }

    #[test]
    fn util_is_capped_at_100_and_zero_without_time() {
        let before = DiskStat::default();
        let after = DiskStat { io_ticks: 5000, ..DiskStat::default() };
        assert_eq!(delta("d", &before, &after, 4000).util, 100.0);
        assert_eq!(delta("d", &before, &after, 0).util, 0.0);
    }

    #[test]
    fn members_resolve_partitions_to_their_disks() {
        // A fake sysfs: dm-0 built on sda2 and sdb (a partition and a whole disk).
        let sys = tempfile::tempdir().expect("tempdir");
        let root = sys.path();
        let devices = root.join("devices/virtual/block");
        std::fs::create_dir_all(devices.join("sda/sda2")).unwrap();
        std::fs::write(devices.join("sda/sda2/partition"), "2").unwrap();
        std::fs::create_dir_all(devices.join("sdb")).unwrap();
        std::fs::create_dir_all(root.join("class/block")).unwrap();
        std::os::unix::fs::symlink(devices.join("sda/sda2"), root.join("class/block/sda2"))
            .unwrap();
        std::os::unix::fs::symlink(devices.join("sdb"), root.join("class/block/sdb")).unwrap();
        std::fs::create_dir_all(root.join("block/dm-0/slaves/sda2")).unwrap();
        std::fs::create_dir_all(root.join("block/dm-0/slaves/sdb")).unwrap();
        assert_eq!(slaves_of(root, "dm-0"), ["sda", "sdb"]);
        assert!(slaves_of(root, "sdb").is_empty());
    }

    #[test]
    fn members_aggregate_as_fio_does() {
        let member = |ios: u64, util: f64| DiskReport {
            ios: [ios, 1],
            merges: [3, 4],
            ticks: [10, 21],
            in_queue: 7,
            util,
            ..DiskReport::default()
        };
        let (a, b) = (member(65536, 97.41), member(65537, 97.52));
        let aggr = DiskAggr::of(&[&a, &b]).expect("two members");
        assert_eq!(aggr.ios, [65536, 1]);
        assert_eq!(aggr.merges, [3, 4]);
        assert_eq!(aggr.ticks, [10, 21]);
        assert_eq!(aggr.in_queue, 7);
        assert_eq!(aggr.util, 97.52);
        assert_eq!(DiskAggr::of(&[]), None);
    }

    #[test]
    fn anonymous_devices_have_no_disk() {
        assert_eq!(device_by_number(Path::new("/sys"), 0, 33), None);
    }

    #[test]
    fn a_temporary_file_resolves_to_a_disk_under_sys_block() {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("f");
        std::fs::write(&file, b"x").expect("write");
        match device_of(&file) {
            Some(name) => {
                assert!(Path::new("/sys/block").join(&name).join("stat").exists(), "{name}");
                assert!(read_stat(&name).is_some(), "{name}: stat unreadable");
            }
            None => eprintln!(
                "skipped: {} is on a filesystem without a block device",
                dir.path().display()
            ),
        }
    }
}
