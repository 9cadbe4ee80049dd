//! A disk's statistics (`DISK_UTIL`), which a server sends after its jobs' and groups'
//! for each disk under the jobs' files, and from which fio's client prints the
//! "Disk stats (read/write):" block and JSON `disk_util`.
//!
//! The layout, 256 bytes little-endian, was learnt from captures of fio 3.33's server on
//! loopback (a run on `/dev/vda` whose figures the client printed beside them) and, for
//! the members of a dm or md device, by sending fio 3.33's client payloads with each field
//! set to a distinct value and reading what it printed:
//!
//! | bytes | field |
//! |---|---|
//! | 0..64 | device name, NUL-terminated |
//! | 64..80 | reads, writes completed |
//! | 80..96 | reads, writes merged |
//! | 96..112 | sectors read, written |
//! | 112..128 | milliseconds reading, writing |
//! | 128..136 | milliseconds busy (`io_ticks`) |
//! | 136..144 | milliseconds weighted by queue length (`in_queue`) |
//! | 144..152 | milliseconds between the two readings; `util` is busy over this |
//! | 152..232 | the members' sums, the ten fields above in the same order from 64 |
//! | 232..236 | how many members (0: none, no `aggr*` figures) |
//! | 240..248 | the busiest member's `util`, a double, in percent |
//!
//! The client prints each member figure as the sum divided by the number of members.

use super::messages::{c_str, Le};
use iomark_stats::report::{DiskAggr, DiskReport};

/// The size of a `DISK_UTIL` payload.
pub const SIZE: usize = 256;

/// Where the members' sums start.
const AGGR: usize = 152;

/// The `DISK_UTIL` payload of `disk`. Its members' figures (already per member) go as
/// the sums of one member, so that the client prints them as they are.
pub fn disk_util(disk: &DiskReport) -> Vec<u8> {
    let mut p = Le::zeros(SIZE);
    p.str(0, 64, &disk.name);
    let fields = [
        disk.ios[0],
        disk.ios[1],
        disk.merges[0],
        disk.merges[1],
        disk.sectors[0],
        disk.sectors[1],
        disk.ticks[0],
        disk.ticks[1],
        disk.io_ticks,
        disk.in_queue,
        disk.wall_ms,
    ];
    for (i, v) in fields.into_iter().enumerate() {
        p.u64(64 + 8 * i, v);
    }
    if let Some(a) = &disk.aggr {
        let sums = [a.ios[0], a.ios[1], a.merges[0], a.merges[1], 0, 0, a.ticks[0], a.ticks[1]];
        for (i, v) in sums.into_iter().enumerate() {
            p.u64(AGGR + 8 * i, v);
        }
        p.u64(AGGR + 72, a.in_queue);
        p.u32(232, 1);
        p.f64(240, a.util);
    }
    p.0
}

/// The disk of a `DISK_UTIL` payload, with `util` worked out as fio's client does (busy
/// over wall time, at most 100%); `None` if the payload is too short.
pub fn read_disk_util(p: &[u8]) -> Option<DiskReport> {
    if p.len() < SIZE {
        return None;
    }
    let u64_at = |at: usize| u64::from_le_bytes(p[at..at + 8].try_into().unwrap_or_default());
    let pair = |at: usize| [u64_at(at), u64_at(at + 8)];
    let (io_ticks, wall_ms) = (u64_at(128), u64_at(144));
    let util = |busy: u64, wall: u64| match wall {
        0 => 0.0,
        w => (busy as f64 * 100.0 / w as f64).min(100.0),
    };
    let members = u64::from(super::messages::u32_at(p, 232)?);
    let aggr = (members > 0).then(|| {
        let per = |at: usize| u64_at(at) / members;
        DiskAggr {
            ios: [per(AGGR), per(AGGR + 8)],
            merges: [per(AGGR + 16), per(AGGR + 24)],
            ticks: [per(AGGR + 48), per(AGGR + 56)],
            in_queue: per(AGGR + 72),
            util: f64::from_le_bytes(p[240..248].try_into().unwrap_or_default()),
        }
    });
    Some(DiskReport {
        name: c_str(&p[..64]),
        ios: pair(64),
        merges: pair(80),
        sectors: pair(96),
        ticks: pair(112),
        io_ticks,
        in_queue: u64_at(136),
        wall_ms,
        util: util(io_ticks, wall_ms),
        aggr,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// fio 3.33's server's `DISK_UTIL` after a 2-second random read and write on `vda`
    /// (captured), whose client printed `vda: ios=12345/10573, merge=25/6,
    /// ticks=6490/418, in_queue=6936, util=41.88%`.
    fn captured() -> Vec<u8> {
        let mut p = vec![0u8; SIZE];
        p[..3].copy_from_slice(b"vda");
        let words: [u64; 11] = [12345, 10573, 25, 6, 206_648, 93_600, 6490, 418, 836, 6936, 1996];
        for (i, w) in words.iter().enumerate() {
            p[64 + 8 * i..72 + 8 * i].copy_from_slice(&w.to_le_bytes());
        }
        p
    }

    #[test]
    fn fios_disk_util_reads_as_its_client_prints_it() {
        let d = read_disk_util(&captured()).expect("whole");
        assert_eq!(d.name, "vda");
        assert_eq!(
            (d.ios, d.merges, d.ticks, d.in_queue),
            ([12345, 10573], [25, 6], [6490, 418], 6936)
        );
        assert_eq!(format!("{:.2}", d.util), "41.88");
        assert_eq!(d.aggr, None);
        // And it goes back out byte for byte.
        assert_eq!(disk_util(&d), captured());
        assert_eq!(read_disk_util(&captured()[..200]), None);
    }

    #[test]
    fn members_travel_as_one_member_and_are_divided_by_their_count() {
        // fio's client printed `aggrios=500/501, aggrmerge=501/502, aggrticks=503/504,
        // aggrin_queue=505, aggrutil=77.50%` for these sums over two members.
        let mut p = captured();
        for (i, v) in (1001u64..=1010).enumerate() {
            p[AGGR + 8 * i..AGGR + 8 * i + 8].copy_from_slice(&v.to_le_bytes());
        }
        p[232..236].copy_from_slice(&2u32.to_le_bytes());
        p[240..248].copy_from_slice(&77.5f64.to_le_bytes());
        let a = read_disk_util(&p).and_then(|d| d.aggr).expect("members");
        let want = DiskAggr {
            ios: [500, 501],
            merges: [501, 502],
            ticks: [503, 504],
            in_queue: 505,
            util: 77.5,
        };
        assert_eq!(a, want);
        let d = DiskReport { aggr: Some(want.clone()), ..DiskReport::default() };
        assert_eq!(read_disk_util(&disk_util(&d)).and_then(|d| d.aggr), Some(want));
    }
}
