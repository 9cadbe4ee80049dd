//! What the tracer asks of the system besides the rings: the online CPUs, the page size,
//! `CLOCK_MONOTONIC`, where a file's blocks are on its device (`FIEMAP`), and the device
//! numbers of the kernel's trace records.
#![allow(unsafe_code)]

use std::fs::File;
use std::os::fd::AsRawFd;
use std::path::Path;

/// The online CPUs (`/sys/devices/system/cpu/online`: `0-3,6`).
pub fn online_cpus() -> Vec<i32> {
    let text = std::fs::read_to_string("/sys/devices/system/cpu/online").unwrap_or_default();
    parse_cpu_list(text.trim())
}

/// A CPU list in the kernel's layout (`0-3,6`).
pub fn parse_cpu_list(text: &str) -> Vec<i32> {
    let mut cpus = Vec::new();
    for part in text.split(',').filter(|p| !p.is_empty()) {
        let mut ends = part.splitn(2, '-').map(|n| n.trim().parse::<i32>());
        match (ends.next(), ends.next()) {
            (Some(Ok(a)), None) => cpus.push(a),
            (Some(Ok(a)), Some(Ok(b))) => cpus.extend(a..=b),
            _ => {}
        }
    }
    cpus
}

/// The page size.
pub fn page_size() -> usize {
    // SAFETY: sysconf reads a constant of the system.
    let n = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    usize::try_from(n).unwrap_or(4096)
}

/// `CLOCK_MONOTONIC` in nanoseconds (the perf records' clock).
pub fn monotonic_ns() -> u64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid timespec the call writes.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

/// Whether the kernel keeps time by the TSC (its clock source is `tsc`: the TSC is
/// stable and agrees across CPUs), on x86-64, so that trace records can be stamped with
/// it (`x86-tsc`) and mapped onto `CLOCK_MONOTONIC` here.
pub fn tsc_is_clock() -> bool {
    let path = "/sys/devices/system/clocksource/clocksource0/current_clocksource";
    cfg!(target_arch = "x86_64") && std::fs::read_to_string(path).is_ok_and(|s| s.trim() == "tsc")
}

/// The TSC (0 off x86-64).
pub fn tsc() -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: `rdtsc` reads a counter; it touches no memory.
        unsafe { core::arch::x86_64::_rdtsc() }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        0
    }
}

/// The TSC and `CLOCK_MONOTONIC` (ns) at one moment: of a few tries, the one whose
/// clock reading took the fewest ticks, with the TSC halfway between the two around it.
pub fn tsc_pair() -> (u64, u64) {
    let mut best = (u64::MAX, 0, 0);
    for _ in 0..8 {
        let a = tsc();
        let m = monotonic_ns();
        let gap = tsc().wrapping_sub(a);
        if gap < best.0 {
            best = (gap, a + gap / 2, m);
        }
    }
    (best.1, best.2)
}

/// `t` (TSC) on `CLOCK_MONOTONIC`, by the line through the pairs `a` and `b` (see
/// [`tsc_pair`]; `b` after `a`).
pub fn tsc_to_mono(a: (u64, u64), b: (u64, u64), t: u64) -> u64 {
    let ticks = b.0.wrapping_sub(a.0) as i64;
    let ns = b.1.wrapping_sub(a.1) as i64;
    if ticks <= 0 {
        return a.1;
    }
    let rate = ns as f64 / ticks as f64;
    let off = (t.wrapping_sub(a.0) as i64) as f64 * rate;
    (a.1 as i64).saturating_add(off as i64).max(0) as u64
}

/// A user-space device number as the kernel's trace records write it (`major << 20 | minor`).
pub fn kernel_dev(major: u32, minor: u32) -> u32 {
    (major << 20) | minor
}

/// The whole disk under block device `major:minor` and the first sector of the
/// partition on it (0 for a whole disk): the trace records of requests name the disk.
pub fn whole_disk(major: u32, minor: u32) -> (u32, u32, u64) {
    let dir = Path::new("/sys/dev/block").join(format!("{major}:{minor}"));
    let Ok(start) = std::fs::read_to_string(dir.join("start")) else {
        return (major, minor, 0);
    };
    let start = start.trim().parse().unwrap_or(0);
    let parent = std::fs::read_to_string(dir.join("../dev")).unwrap_or_default();
    let mut mm = parent.trim().split(':').map(|n| n.parse::<u32>());
    match (mm.next(), mm.next()) {
        (Some(Ok(a)), Some(Ok(b))) => (a, b, start),
        _ => (major, minor, 0),
    }
}

/// Whether the descriptor was opened with `O_DIRECT` (from `/proc/self/fdinfo`).
pub fn is_direct(file: &File) -> bool {
    let path = format!("/proc/self/fdinfo/{}", file.as_raw_fd());
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let flags = text
        .lines()
        .find_map(|l| l.strip_prefix("flags:"))
        .and_then(|f| u64::from_str_radix(f.trim(), 8).ok())
        .unwrap_or(0);
    flags & libc::O_DIRECT as u64 != 0
}

/// One extent of a file: `len` bytes at file offset `logical` are at byte `physical` of
/// the file system's device.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Extent {
    /// Offset in the file.
    pub logical: u64,
    /// Offset on the device.
    pub physical: u64,
    /// Length in bytes.
    pub len: u64,
}

const FS_IOC_FIEMAP: libc::c_ulong = 0xC020_660B;
const FIEMAP_FLAG_SYNC: u32 = 1;
const EXTENTS_PER_CALL: usize = 256;

#[repr(C)]
#[derive(Clone, Copy, Default)]
struct FiemapExtent {
    logical: u64,
    physical: u64,
    length: u64,
    reserved64: [u64; 2],
    flags: u32,
    reserved: [u32; 3],
}

#[repr(C)]
struct Fiemap {
    start: u64,
    length: u64,
    flags: u32,
    mapped_extents: u32,
    extent_count: u32,
    reserved: u32,
    extents: [FiemapExtent; EXTENTS_PER_CALL],
}

/// The extents of `file` (`FIEMAP`, after flushing delayed allocations), `None` where the
/// file system cannot tell.
pub fn extents(file: &File) -> Option<Vec<Extent>> {
    const LAST: u32 = 1;
    let mut out = Vec::new();
    let mut start = 0u64;
    loop {
        let mut map = Box::new(Fiemap {
            start,
            length: u64::MAX - start,
            flags: FIEMAP_FLAG_SYNC,
            mapped_extents: 0,
            extent_count: EXTENTS_PER_CALL as u32,
            reserved: 0,
            extents: [FiemapExtent::default(); EXTENTS_PER_CALL],
        });
        // SAFETY: `map` is a struct fiemap with room for `extent_count` extents, alive
        // across the call, which writes within it.
        let r =
            unsafe { libc::ioctl(file.as_raw_fd(), FS_IOC_FIEMAP as _, &mut *map as *mut Fiemap) };
        if r < 0 {
            return None;
        }
        let n = (map.mapped_extents as usize).min(EXTENTS_PER_CALL);
        if n == 0 {
            return Some(out);
        }
        for e in &map.extents[..n] {
            out.push(Extent { logical: e.logical, physical: e.physical, len: e.length });
        }
        let last = map.extents[n - 1];
        if last.flags & LAST != 0 || n < EXTENTS_PER_CALL {
            return Some(out);
        }
        start = last.logical + last.length;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_lists_read_as_the_kernel_writes_them() {
        assert_eq!(parse_cpu_list("0-3,6"), vec![0, 1, 2, 3, 6]);
        assert_eq!(parse_cpu_list("0"), vec![0]);
        assert_eq!(parse_cpu_list(""), Vec::<i32>::new());
    }

    #[test]
    fn tsc_times_map_onto_the_line_through_two_pairs() {
        let (a, b) = ((1_000, 5_000), (3_000, 6_000));
        assert_eq!(tsc_to_mono(a, b, 1_000), 5_000);
        assert_eq!(tsc_to_mono(a, b, 3_000), 6_000);
        assert_eq!(tsc_to_mono(a, b, 2_000), 5_500);
        // Before the first pair and past the second, the same line.
        assert_eq!(tsc_to_mono(a, b, 0), 4_500);
        assert_eq!(tsc_to_mono(a, b, 5_000), 7_000);
        assert_eq!(tsc_to_mono(a, a, 9), 5_000);
    }

    #[test]
    fn a_tsc_pair_reads_the_monotonic_clock_between_two_tsc_readings() {
        if !tsc_is_clock() {
            eprintln!("skipped: the kernel's clock source is not the TSC");
            return;
        }
        let m0 = monotonic_ns();
        let (t, m) = tsc_pair();
        assert!(m >= m0 && m <= monotonic_ns() && t > 0);
    }

    #[test]
    fn kernel_device_numbers_put_the_major_above_bit_20() {
        assert_eq!(kernel_dev(7, 0), 0x70_0000);
        assert_eq!(kernel_dev(254, 1), (254 << 20) | 1);
    }

    #[test]
    fn a_file_written_has_extents_and_a_new_one_is_not_direct() {
        let dir = std::env::temp_dir().join(format!("iomark-blklat-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("f");
        std::fs::write(&path, vec![7u8; 1 << 16]).unwrap();
        let f = File::open(&path).unwrap();
        assert!(!is_direct(&f));
        // tmpfs has no FIEMAP; a disk file system maps the 64 KiB.
        if let Some(ext) = extents(&f) {
            assert_eq!(ext.iter().map(|e| e.len).sum::<u64>(), 1 << 16);
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
