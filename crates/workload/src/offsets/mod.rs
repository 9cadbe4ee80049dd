//! Offsets within one file's region: the sequential cursor (with fio's `:N` holes), random
//! offsets (inside the file's strided zone, if it has one), and the random map (`map.rs`)
//! that makes a random pass touch every block once.
//!
//! Positions here are relative to the region start; [`crate::Workload`] adds the region's
//! offset. The rules are fio 3.33's, measured with `--write_iolog` on the null engine:
//!
//! - Sequential: each direction keeps its own position (the end of its previous I/O). The
//!   next offset is that position, plus the `:N` skip unless the position is the region
//!   start. A pass over the file is over when the position has reached the region end, or
//!   when the next block does not fit. A fixed block size fits when the file holds it,
//!   even past the region's end (fio 3.33: `size=9000 bs=4k` reads 0, 4k and 8k of a file
//!   of 12k or more, but only 0 and 4k of a file of 9000 bytes, or of one fio lays out;
//!   `size=18k` gives 4 reads of a file of 18k, 5 of a larger one); the sizes of a
//!   `bsrange` or `bssplit` are shrunk to the region's end, never past it (a tail shorter
//!   than the smallest size is never touched). With a skip, an offset that lands at
//!   or past the end wraps to the region start (`size=31k bs=4k rw=read:4k` reads 0, 8k,
//!   16k, 24k, 0, 8k…), but one that lands inside the tail ends the pass (`size=26k`: 0,
//!   8k, 16k, done, and 24k too when the file holds 28k). It wraps, that direction
//!   alone, only when the region is the whole file (it starts at 0 and the file ends
//!   with it); otherwise it ends the pass of every direction, and a new pass starts only
//!   as any pass does (`loops`, a larger `io_size`, `time_based`). fio 3.33: `size=32k
//!   rw=read:4k` reads 0, 8k, 16k, 24k of a larger file (or with `offset=8k`), and 0,
//!   8k, 16k, 24k, 0, 8k, 16k, 24k of a file of 32k or with `io_size=32k`; `rw=rw:4k`
//!   reads 0, 8k, 16k, writes 0, reads 24k and is done on the larger file, and with
//!   `io_size=48k` starts a new pass there (reads and writes from 0). The follow-ups of a random
//!   mode (`randread:N`, `percentage_random`) fit the same way. (The null engine has no
//!   file: its reach is the region's end.)
//! - Random with the map: the region is cut into blocks of the job's smallest block size;
//!   a random block is drawn and, if already done, the next free block after it (wrapping)
//!   is taken. The I/O's length is shrunk to the run of free blocks there, so with
//!   `bsrange`/`bssplit` no byte is touched twice in a pass (fio 3.33 does the same:
//!   `bsrange=4k-16k` over 64k issues 7 I/Os totalling exactly 64k). The pass is over when
//!   every block is done.
//! - Random without the map: any aligned offset at which the smallest block fits; a pass
//!   never ends by itself (the byte budget ends it).

mod map;

pub(crate) use map::RandomMap;

use crate::bs::Sizes;
use crate::distribution::{Draws, Skew};
use crate::lfsr::Lfsr;
use crate::region::FileRegion;
use crate::taus::FioRng;
use crate::zones::ZoneState;

/// What a follow-up I/O (see [`FileCursor::follow`]) finds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Follow {
    /// It fits: this extent.
    Fits(Extent),
    /// It would start at or past the region's end: a random I/O stands in for it.
    Past,
    /// It starts inside the region but does not fit before its end: the pass is over.
    Tail,
}

/// Where one file stands in the current pass.
#[derive(Debug, Clone)]
pub(crate) struct FileCursor {
    /// The file's region.
    pub(crate) region: FileRegion,
    /// Per direction: the end of the previous I/O (the next sequential offset).
    pub(crate) pos: [u64; 3],
    /// Per direction: the offset of the previous I/O (`rw_sequencer=identical`).
    pub(crate) last: [u64; 3],
    /// The random map, when the job uses one.
    pub(crate) map: Option<RandomMap>,
    /// True once this pass is over for the file.
    pub(crate) done: bool,
    /// The skewed `random_distribution`s of the file (no map then); `None` when every
    /// direction is uniform.
    pub(crate) skew: Option<Box<Skew>>,
    /// `random_generator=lfsr`: the register over the region's blocks (no map then).
    pub(crate) lfsr: Option<Lfsr>,
    /// `zonemode=strided`: the zone the file is in.
    pub(crate) zone: Option<ZoneState>,
    /// Whether a sequential offset that a `:N` skip puts at or past the region's end wraps
    /// to the region's start (else the pass is over): see the module note.
    pub(crate) wraps: bool,
    /// `trimwrite` with trims and writes of different sizes: whether the file's next I/O
    /// is a trim (see `Workload::trimwrite_apart`).
    pub(crate) trim_next: bool,
}

/// An offset and length relative to the region start.
pub(crate) type Extent = (u64, u64);

impl FileCursor {
    /// A cursor at the start of `region`; `map_unit` is the map's block size, or `None`
    /// for no map.
    pub(crate) fn new(region: FileRegion, map_unit: Option<u64>) -> FileCursor {
        // A region reaches at least to its end.
        let region = FileRegion { reach: region.reach.max(region.len), ..region };
        FileCursor {
            region,
            pos: [0; 3],
            last: [0; 3],
            map: map_unit.map(|unit| RandomMap::new(region.len / unit)),
            done: false,
            skew: None,
            lfsr: None,
            zone: None,
            wraps: true,
            trim_next: true,
        }
    }

    /// Back to the region start with a clear map (a new pass).
    pub(crate) fn reset(&mut self) {
        self.pos = [0; 3];
        self.last = [0; 3];
        if let Some(map) = &mut self.map {
            map.reset();
        }
        if let Some(lfsr) = &mut self.lfsr {
            lfsr.reset();
        }
        if self.zone.is_some() {
            self.enter_zone(0);
        }
        self.done = false;
        self.trim_next = true;
    }

    /// Records an I/O of direction `dir` at `ext`.
    #[inline]
    pub(crate) fn advance(&mut self, dir: usize, ext: Extent) {
        self.last[dir] = ext.0;
        self.pos[dir] = ext.0 + ext.1;
    }

    /// The next sequential I/O of direction `dir` with the `:N` skip, or `None` when the
    /// pass is over (see the module note for fio's rules).
    pub(crate) fn sequential(&self, dir: usize, skip: u64, sizes: &mut Sizes) -> Option<Extent> {
        let len = self.region.len;
        let mut pos = self.pos[dir];
        if let Some(zone) = &self.zone {
            // At the zone's end, back to its start (see `StridedZones`).
            if pos >= zone.end() {
                pos = zone.start;
            }
        }
        if pos >= len {
            return None;
        }
        let mut off = if pos == 0 { 0 } else { pos + skip };
        if off >= len {
            if !self.wraps {
                return None;
            }
            off = 0;
        }
        self.extent_at(off, sizes)
    }

    /// An I/O continuing from `from` (a follow-up of a random mode's `:N`, or a
    /// sequential pick of `percentage_random`). Neither consults nor marks the map, as in
    /// fio. One that would start at or past the region's end is [`Follow::Past`] (a random
    /// I/O stands in for it); one that starts inside the region but does not fit before
    /// its end is [`Follow::Tail`], which ends the file's pass (fio 3.33: `randread:2
    /// bs=8k size=60k` reads 0, 8k, 40k, 48k, 48k and is done, the follow-up at 56k not
    /// fitting).
    pub(crate) fn follow(&self, from: u64, sizes: &mut Sizes) -> Follow {
        if from >= self.region.len {
            return Follow::Past;
        }
        match self.extent_at(from, sizes) {
            Some(ext) => Follow::Fits(ext),
            None => Follow::Tail,
        }
    }

    /// The sequential I/O at `off` (inside the region): a fixed size whole if the file
    /// holds it (it may pass the region's end, up to `reach`), a size of a range or split
    /// drawn until it fits before the region's end; `None` if it does not fit.
    #[inline]
    fn extent_at(&self, off: u64, sizes: &mut Sizes) -> Option<Extent> {
        if let Some(size) = sizes.bs.fixed() {
            return (off + size <= self.region.reach).then_some((off, size));
        }
        sizes.within(self.region.len - off).map(|l| (off, l))
    }

    /// A random I/O of direction `dir`, from the offsets' stream (and a skewed
    /// distribution's). With the map: a free block and the free
    /// run after it, marked done; `None` when the map is full. Without: an `align`-aligned
    /// offset where the direction's smallest block fits, uniform or from the direction's
    /// picker. `mark` is false for the random I/O that stands in for a follow-up that did
    /// not fit (a random mode's `:N` at the region's end): fio 3.33 takes a free block for
    /// it but leaves it free in the map.
    #[inline]
    pub(crate) fn random(
        &mut self,
        dir: usize,
        draws: &mut Draws,
        sizes: &mut Sizes,
        (unit, align): (u64, u64),
        mark: bool,
    ) -> Option<Extent> {
        let rng = &mut *draws.offsets;
        if self.zone.is_some() {
            return self.zoned_random(rng, sizes, unit, align);
        }
        let len = self.region.len;
        match &mut self.map {
            Some(map) => {
                if unit != align {
                    // The direction's smallest size is not the map's block (see `run_at`).
                    let b = map.next_free(rng.below(len / align))?;
                    return run_at(map, b, len, sizes, align, mark);
                }
                let b = map.next_free(rng.below(map.blocks()))?;
                if sizes.bs.fixed() == Some(unit) {
                    // One block, free: what `run_at` gives (a run of 1, which fits since
                    // `b < len / unit`), without its arithmetic.
                    if mark {
                        map.mark_one(b);
                    }
                    return Some((b * unit, unit));
                }
                run_at(map, b, len, sizes, unit, mark)
            }
            None => {
                let positions = self.positions(sizes.bs.min(), align);
                let skewed = self.skew.as_deref_mut().and_then(|s| s.position(dir, draws));
                let pos = match (skewed, &mut self.lfsr) {
                    (Some(p), _) => p?,
                    // fio 3.33 issues no I/O of a direction whose sizes are larger than
                    // the register's block: `randrw bs=4k,8k` reads until its first write
                    // ends the pass, `randwrite bs=4k,8k` writes nothing.
                    (None, Some(_)) if sizes.bs.min() > unit => return None,
                    (None, Some(lfsr)) => return lfsr_extent(lfsr, len, sizes, unit),
                    (None, None) => draws.offsets.below(positions),
                };
                let off = pos * align;
                sizes.within(len - off).map(|l| (off, l))
            }
        }
    }
}

/// Offsets without the map.
impl FileCursor {
    /// Whether a random offset is a plain uniform draw over the region: no map, no skewed
    /// distribution, no LFSR, no zone.
    pub(crate) fn is_uniform_without_map(&self) -> bool {
        self.map.is_none() && self.skew.is_none() && self.lfsr.is_none() && self.zone.is_none()
    }

    /// How many `align`-aligned offsets of the region a block of `min` bytes fits at.
    pub(crate) fn positions(&self, min: u64, align: u64) -> u64 {
        self.region.len.saturating_sub(min) / align + 1
    }
}

/// Strided zones (see [`crate::StridedZones`]).
impl FileCursor {
    /// Moves into the zone that starts at `start` (relative): every direction's position at
    /// its start, and a clear map over its blocks.
    pub(crate) fn enter_zone(&mut self, start: u64) {
        let Some(zone) = &mut self.zone else { return };
        zone.start = start;
        let (zone, len) = (*zone, self.region.len);
        self.pos = [start; 3];
        self.last = [start; 3];
        if let Some(map) = &mut self.map {
            map.reset_to(zone.blocks_in(len));
        }
    }

    /// Moves to the next zone, or back to the first after the last one.
    pub(crate) fn next_zone(&mut self) {
        let Some(zone) = &self.zone else { return };
        let next = zone.next_start();
        self.enter_zone(if next >= self.region.len { 0 } else { next });
    }

    /// A random I/O inside the zone: as `FileCursor::random`, over the zone's blocks. A
    /// zone map that fills up starts over, unless the region's end cuts the zone short:
    /// then the file's pass is over once it is full (`None`).
    pub(crate) fn zoned_random(
        &mut self,
        rng: &mut FioRng,
        sizes: &mut Sizes,
        unit: u64,
        align: u64,
    ) -> Option<Extent> {
        let zone = self.zone?;
        let len = self.region.len;
        let zlen = zone.len_in(len);
        let (start, min) = (zone.start, sizes.bs.min());
        match &mut self.map {
            Some(map) => {
                let b = map.next_free(rng.below(map.blocks()))?;
                let ext = run_at(map, b, zlen, sizes, unit, true).map(|(off, l)| (start + off, l));
                // A full map starts over at once, so that the caller's check for a full
                // map (the end of a pass) only ends a zone cut short.
                if map.is_full() && !zone.clipped(len) {
                    map.reset_to(zlen / unit);
                }
                ext
            }
            None => {
                if zlen < min {
                    return None;
                }
                let off = start + rng.below((zlen - min) / align + 1) * align;
                sizes.within(len - off).map(|l| (off, l))
            }
        }
    }
}

/// The next I/O of a register over blocks of `unit` bytes: the next block where a size
/// fits before the region end; `None` once the register has given every block of this pass.
fn lfsr_extent(lfsr: &mut Lfsr, len: u64, sizes: &mut Sizes, unit: u64) -> Option<Extent> {
    loop {
        let off = lfsr.next_value()? * unit;
        if let Some(l) = sizes.within(len - off) {
            return Some((off, l));
        }
    }
}

/// The I/O at free block `b` of a region of `len` bytes: a size drawn until it fits before
/// the region's end, then shrunk to the run of free blocks there (fio 3.33 does both:
/// `bsrange=1k-16k` over 1 MiB), marked done; unless `mark` is false, for the stand-in of a
/// follow-up, which is neither shrunk nor marked.
///
/// `unit` is the direction's smallest size. When it is larger than the map's block (the
/// smallest size of all directions), fio 3.33 still counts the map's bits in the
/// direction's unit: a write of `bs=4k,8k` drawn at 8k-block 3 takes bit 3 of the map of
/// 4k blocks and is issued at 24k, and marks as many bits as it has 8k blocks. A free bit
/// found past the direction's last block ends the file's pass.
pub(crate) fn run_at(
    map: &mut RandomMap,
    b: u64,
    len: u64,
    sizes: &mut Sizes,
    unit: u64,
    mark: bool,
) -> Option<Extent> {
    let off = b * unit;
    if off >= len {
        return None;
    }
    let want = sizes.within(len - off)?;
    if !mark {
        // The stand-in for a follow-up past the end keeps its drawn size, free run or not
        // (fio 3.33: `randrw:2 bsrange=1k-8k size=256k` writes 5k over a done block).
        return Some((off, want));
    }
    let run = map.free_run(b, blocks_of(want, unit));
    let l = sizes.bs.fit(want, run * unit, unit)?;
    map.mark(b, blocks_of(l, unit));
    Some((off, l))
}

/// How many map blocks of `unit` bytes `len` bytes cover: a shift for the usual power-of-two
/// block, a division otherwise (this runs once or twice per random I/O).
#[inline]
fn blocks_of(len: u64, unit: u64) -> u64 {
    if unit.is_power_of_two() {
        let shift = unit.trailing_zeros();
        (len >> shift) + u64::from(len & (unit - 1) != 0)
    } else {
        len.div_ceil(unit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bs::{BlockSizes, BsChooser};

    fn fixed(bs: u64) -> BsChooser {
        BsChooser::new(&BlockSizes::Fixed(bs), false)
    }

    /// A block size stream (fixed sizes draw nothing from it).
    fn bs_rng() -> FioRng {
        FioRng::new(1, false)
    }

    #[test]
    fn blocks_of_rounds_up_like_a_division() {
        for unit in [1, 512, 4096, 3000, 65536] {
            for len in [0, 1, unit - 1, unit, unit + 1, 5 * unit, 5 * unit + 7] {
                assert_eq!(blocks_of(len, unit), len.div_ceil(unit), "{len} / {unit}");
            }
        }
    }

    #[test]
    fn one_block_shortcut_gives_what_the_free_run_rule_gives() {
        for (blocks, tail) in [(1, 0), (63, 100), (64, 0), (1000, 4095)] {
            let len = blocks * 4096 + tail;
            let bs = fixed(4096);
            let mut c = FileCursor::new(FileRegion::new(0, len), Some(4096));
            let mut general = c.map.clone().unwrap();
            let mut rng = FioRng::new(blocks, false);
            let mut from_rng = rng.clone();
            let (mut zone, mut r) = (bs_rng(), bs_rng());
            loop {
                let mut sizes = Sizes { bs: &bs, rng: &mut r };
                let mut draws = Draws { offsets: &mut rng, zone: &mut zone };
                let got = c.random(0, &mut draws, &mut sizes, (4096, 4096), true);
                let b = general.next_free(from_rng.below(general.blocks()));
                let Some((off, l)) = got else {
                    assert_eq!(b, None);
                    break;
                };
                let mut sizes = Sizes { bs: &bs, rng: &mut r };
                let want = run_at(&mut general, b.unwrap(), len, &mut sizes, 4096, true);
                assert_eq!(want, Some((off, l)));
                assert_eq!(c.map.as_ref(), Some(&general));
            }
            assert!(general.is_full());
        }
    }

    #[test]
    fn sequential_skips_and_wraps_like_fio() {
        // fio 3.33, rw=read:4k bs=4k: size=31k gives 0,8k,16k,24k,0,...; size=26k stops
        // after 16k; size=28k stops after 24k.
        let bs = fixed(4096);
        let walk = |len: u64, steps: usize| {
            let mut c = FileCursor::new(FileRegion::new(0, len), None);
            let mut r = bs_rng();
            let mut offs = Vec::new();
            for _ in 0..steps {
                match c.sequential(0, 4096, &mut Sizes { bs: &bs, rng: &mut r }) {
                    Some(ext) => {
                        offs.push(ext.0 / 1024);
                        c.advance(0, ext);
                    }
                    None => break,
                }
            }
            offs
        };
        assert_eq!(walk(31 * 1024, 6), [0, 8, 16, 24, 0, 8]);
        assert_eq!(walk(26 * 1024, 6), [0, 8, 16]);
        assert_eq!(walk(28 * 1024, 6), [0, 8, 16, 24]);
    }

    #[test]
    fn a_fixed_size_may_end_past_the_region_as_far_as_the_file_goes() {
        // fio 3.33, size=9000: 3 reads of a 20000-byte file, 2 of a 12000-byte one; with
        // `bsrange=1k-4k` nothing starts in the tail past the last size that fits.
        let walk = |bs: &BsChooser, reach: u64| {
            let region = FileRegion { offset: 0, len: 9000, reach };
            let mut c = FileCursor::new(region, None);
            let mut r = bs_rng();
            let mut ext = Vec::new();
            while let Some(e) = c.sequential(0, 0, &mut Sizes { bs, rng: &mut r }) {
                ext.push(e);
                c.advance(0, e);
            }
            ext
        };
        let k4 = [(0, 4096), (4096, 4096)];
        assert_eq!(walk(&fixed(4096), 20000), [k4[0], k4[1], (8192, 4096)]);
        assert_eq!(walk(&fixed(4096), 12288), [k4[0], k4[1], (8192, 4096)]);
        assert_eq!(walk(&fixed(4096), 12000), k4);
        let range = BsChooser::new(&BlockSizes::Range { min: 1024, max: 4096 }, false);
        let ext = walk(&range, 20000);
        let end = ext.last().map_or(0, |&(o, l)| o + l);
        assert!(end <= 9000 && 9000 - end < 1024, "{ext:?}");
        // A follow-up too, from inside the region only.
        let c = FileCursor::new(FileRegion { offset: 0, len: 9000, reach: 20000 }, None);
        let (bs, mut r) = (fixed(4096), bs_rng());
        let mut sizes = Sizes { bs: &bs, rng: &mut r };
        assert_eq!(c.follow(8192, &mut sizes), Follow::Fits((8192, 4096)));
        assert_eq!(c.follow(9000, &mut sizes), Follow::Past);
        let c = FileCursor::new(FileRegion { offset: 0, len: 9000, reach: 9000 }, None);
        assert_eq!(c.follow(8192, &mut sizes), Follow::Tail);
    }

    #[test]
    fn random_with_map_shrinks_to_the_free_run() {
        let bs = BsChooser::new(&BlockSizes::Range { min: 4096, max: 16384 }, false);
        let mut c = FileCursor::new(FileRegion::new(0, 65536), Some(4096));
        let (mut rng, mut r) = (FioRng::new(3, false), bs_rng());
        let mut zone = bs_rng();
        let mut total = 0;
        loop {
            let mut sizes = Sizes { bs: &bs, rng: &mut r };
            let mut draws = Draws { offsets: &mut rng, zone: &mut zone };
            let Some((off, len)) = c.random(0, &mut draws, &mut sizes, (4096, 4096), true) else {
                break;
            };
            assert!(off + len <= 65536 && len % 4096 == 0);
            total += len;
        }
        assert_eq!(total, 65536);
    }
}
