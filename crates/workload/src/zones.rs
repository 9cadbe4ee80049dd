//! fio's `zonemode=strided`: each file works on one zone at a time and moves to the next
//! once the job has done `zonesize` bytes there. [`StridedZones`] gives the rules, as
//! measured on fio 3.33; this module holds a file's zone ([`ZoneState`]). The zone turn is
//! the workload's (`Workload::generate_zoned`), and a file's cursor moves through its zones
//! (`FileCursor::enter_zone`, `FileCursor::zoned_random` in `offsets`).
//!
//! A file's cursor keeps its whole region; positions stay relative to the region start.
//! Only the cursor's sequential wrap (`FileCursor::sequential`) and its random offsets
//! (`FileCursor::zoned_random`) look at the zone.

/// fio's `zonemode=strided`: the job works on `size` bytes of one zone of `range` bytes,
/// then moves to the next zone, `range + skip` bytes further (measured on fio 3.33 with
/// `--write_iolog`):
///
/// - Zones are counted from each file's region start, and cover the file as far as it
///   goes ([`crate::FileRegion::reach`]): `size` is only the byte budget (fio 3.33,
///   `size=16k zonesize=4k zoneskip=4k io_size=64k` on a 40000-byte file reads 0, 8k,
///   16k, 24k, 32k, 0…; on the null engine, with no file, 0, 8k, 0…). After the last zone
///   that starts inside, the next is the first again.
/// - The bytes of every I/O of the job, whatever its file and direction, count towards
///   `size`; once `size` is reached, the file that serves the next I/O moves to its next
///   zone (with several files, fio moves only that file on).
/// - Inside a zone, sequential I/O starts at the zone start (every direction) and goes
///   back to it when it reaches the zone's end, so `size` larger than `range` reads the
///   zone several times. An I/O may run past the zone's end when the zone is not a whole
///   number of blocks. Random I/O takes offsets inside the zone; with the random map, each
///   visit of a zone starts with a clear map and a visit longer than the zone clears it
///   again when it is full.
/// - A zone cut short by the end of the region ends the file's pass when its I/O reaches
///   the region end (sequential) or every block of it is done (random).
/// - The job ends on its byte budget (`io_size` × `loops`) or `number_ios`; `loops` does
///   not send the zones back to the first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StridedZones {
    /// `zonesize`: bytes of I/O per zone visit (> 0).
    pub size: u64,
    /// `zonerange`: the zone's length (> 0; fio's default is `zonesize`).
    pub range: u64,
    /// `zoneskip`: the gap between zones.
    pub skip: u64,
}

/// The zone a file is in.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ZoneState {
    /// The zone's start, relative to the region start.
    pub(crate) start: u64,
    /// `zonerange`.
    range: u64,
    /// `zonerange + zoneskip`: from one zone's start to the next one's.
    stride: u64,
    /// The map block (the job's smallest block size), for zone maps.
    unit: u64,
}

impl ZoneState {
    /// The first zone of a file.
    pub(crate) fn first(zones: &StridedZones, unit: u64) -> ZoneState {
        ZoneState { start: 0, range: zones.range, stride: zones.range + zones.skip, unit }
    }

    /// Where the zone ends, were the region long enough.
    pub(crate) fn end(&self) -> u64 {
        self.start.saturating_add(self.range)
    }

    /// Where the next zone starts, were the region long enough.
    pub(crate) fn next_start(&self) -> u64 {
        self.start.saturating_add(self.stride)
    }

    /// The map blocks of the zone's part inside a region of `len` bytes.
    pub(crate) fn blocks_in(&self, len: u64) -> u64 {
        self.len_in(len) / self.unit
    }

    /// The zone's bytes inside a region of `len` bytes.
    pub(crate) fn len_in(&self, len: u64) -> u64 {
        self.range.min(len.saturating_sub(self.start))
    }

    /// True when the region's end cuts the zone short.
    pub(crate) fn clipped(&self, len: u64) -> bool {
        self.end() > len
    }
}

/// The blocks of a zone map a file needs: those of its longest zone.
pub(crate) fn map_blocks(zones: &StridedZones, region_len: u64, unit: u64) -> u64 {
    zones.range.min(region_len) / unit
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BlockSizes, FileRegion, IoRequest, Workload, WorkloadConfig};
    use iomark_core::{PerDir, RwMode};

    const K: u64 = 1024;

    fn zoned(rw: RwMode, len: u64, size: u64, range: u64, skip: u64) -> WorkloadConfig {
        WorkloadConfig {
            zones: Some(StridedZones { size, range, skip }),
            ..WorkloadConfig::single_file(rw, 4 * K, len)
        }
    }

    fn offsets_k(cfg: &WorkloadConfig) -> Vec<u64> {
        Workload::new(cfg).unwrap().map(|r| r.offset / K).collect()
    }

    #[test]
    fn sequential_zones_follow_fio() {
        // fio 3.33: size=256k zonesize=16k zonerange=64k zoneskip=16k reads 0-12k, 80k-92k,
        // 160k-172k, 240k-252k, then wraps.
        let offs = offsets_k(&zoned(RwMode::Read, 256 * K, 16 * K, 64 * K, 16 * K));
        assert_eq!(offs.len(), 64);
        assert_eq!(
            &offs[..16],
            [0, 4, 8, 12, 80, 84, 88, 92, 160, 164, 168, 172, 240, 244, 248, 252]
        );
        assert_eq!(offs[..16], offs[16..32]);
        // zonesize 32k over zones of 16k: each zone twice.
        let offs = offsets_k(&zoned(RwMode::Read, 64 * K, 32 * K, 16 * K, 0));
        assert_eq!(offs, [0, 4, 8, 12, 0, 4, 8, 12, 16, 20, 24, 28, 16, 20, 24, 28]);
        // A zone cut by the region end ends the pass: size=56k zonesize=12k zonerange=16k
        // zoneskip=8k gives 8 reads.
        let offs = offsets_k(&zoned(RwMode::Read, 56 * K, 12 * K, 16 * K, 8 * K));
        assert_eq!(offs, [0, 4, 8, 24, 28, 32, 48, 52]);
        // Zones not a whole number of blocks: zonesize=6k reads 0, 4k, 6k, 10k, 12k...
        let offs = offsets_k(&zoned(RwMode::Read, 32 * K, 6 * K, 6 * K, 0));
        assert_eq!(offs, [0, 4, 6, 10, 12, 16, 18, 22]);
    }

    #[test]
    fn mixed_directions_start_each_zone_together() {
        // fio 3.33, rw=rw (rwmixread=50): r0 r4 | r16 w16 | r0 r4 | w16 w20 for its draws;
        // whatever the draws, every I/O is inside the zone of its turn.
        let cfg = zoned(RwMode::ReadWrite, 32 * K, 8 * K, 16 * K, 0);
        let reqs: Vec<IoRequest> = Workload::new(&cfg).unwrap().collect();
        assert_eq!(reqs.len(), 8);
        for (i, r) in reqs.iter().enumerate() {
            let zone = if (i / 2) % 2 == 0 { 0 } else { 16 * K };
            assert!((zone..zone + 16 * K).contains(&r.offset), "{i}: {r:?}");
        }
    }

    #[test]
    fn several_files_move_on_the_shared_count() {
        // fio 3.33, nrfiles=2 of 32k, zonesize=12k zonerange=16k, round robin: f0:0 f1:0
        // f0:4 f1:16 f0:8 f1:20 f0:16 f1:24 f0:20 f1:0 ...
        let mut cfg = zoned(RwMode::Read, 32 * K, 12 * K, 16 * K, 0);
        cfg.files = vec![FileRegion::new(0, 32 * K); 2];
        cfg.io_limit = 64 * K;
        let got: Vec<(usize, u64)> =
            Workload::new(&cfg).unwrap().map(|r| (r.file, r.offset / K)).take(10).collect();
        let want = [(0, 0), (1, 0), (0, 4), (1, 16), (0, 8), (1, 20), (0, 16), (1, 24), (0, 20)];
        assert_eq!(got[..9], want);
        assert_eq!(got[9], (1, 0));
    }

    #[test]
    fn random_zones_stay_inside_and_clear_their_map_per_visit() {
        for (size, range) in [(16 * K, 32 * K), (64 * K, 16 * K), (8 * K, 32 * K)] {
            let cfg = zoned(RwMode::RandRead, 128 * K, size, range, 0);
            let reqs: Vec<IoRequest> = Workload::new(&cfg).unwrap().collect();
            assert_eq!(reqs.len(), 32, "{size} {range}");
            let per_visit = (size / (4 * K)) as usize;
            let zone_blocks = (range / (4 * K)) as usize;
            for (v, visit) in reqs.chunks(per_visit).enumerate() {
                let zone = (v as u64 * range) % (128 * K);
                for r in visit {
                    assert!((zone..zone + range).contains(&r.offset), "visit {v}: {r:?}");
                }
                // No block twice until the zone's blocks are all done.
                for group in visit.chunks(zone_blocks) {
                    let mut offs: Vec<u64> = group.iter().map(|r| r.offset).collect();
                    offs.sort_unstable();
                    offs.dedup();
                    assert_eq!(offs.len(), group.len(), "visit {v}");
                }
            }
        }
    }

    #[test]
    fn loops_do_not_send_zones_back() {
        // fio 3.33: size=32k zonesize=12k zonerange=16k loops=2: 0 4 8 16 20 24 0 4 8 16...
        let mut cfg = zoned(RwMode::Read, 32 * K, 12 * K, 16 * K, 0);
        cfg.loops = 2;
        let offs = offsets_k(&cfg);
        assert_eq!(offs, [0, 4, 8, 16, 20, 24, 0, 4, 8, 16, 20, 24, 0, 4, 8, 16]);
    }

    #[test]
    fn bad_zone_settings_are_refused() {
        let mut cfg = zoned(RwMode::Read, 32 * K, 0, 16 * K, 0);
        assert!(Workload::new(&cfg).unwrap_err().to_string().contains("zonesize"));
        cfg = zoned(RwMode::RandRead, 32 * K, 8 * K, 16 * K, 0);
        cfg.lfsr = true;
        assert!(Workload::new(&cfg).unwrap_err().to_string().contains("lfsr"));
        cfg.lfsr = false;
        cfg.distribution = PerDir::all(crate::Distribution::Zipf { theta: 1.2, center: None });
        assert!(Workload::new(&cfg).is_err());
        cfg.distribution = PerDir::all(crate::Distribution::Random);
        cfg.bs = PerDir::all(BlockSizes::Fixed(4 * K));
        assert!(Workload::new(&cfg).is_ok());
    }
}
