//! Block sizes: how a job chooses them per direction ([`BlockSizes`]: fixed `bs`, `bsrange`
//! or `bssplit`), the choice itself for one direction ([`BsChooser`]), and the rule
//! that shrinks a size to the room left (a region's tail, a run of free blocks).
//!
//! The draws are fio 3.33's (fitted with `--write_iolog`), from the direction's own block
//! size stream (see [`crate::FioSeeds`]):
//!
//! - `bsrange=min-max`: `min + ⌊max × f⌋` for the draw's fraction `f`, rounded down to a
//!   multiple of `min` unless `bs_unaligned`, and cut to `max` when above it
//!   (`bsrange=3000-10000` gives 3000, 6000, 9000 and 10000);
//! - `bssplit`: a blank share takes an equal part (rounded down) of what the explicit shares
//!   leave of 100 (`4k/50:1k/:32k/` is 50/25/25, fio's documented rule); the entries are
//!   sorted by share, smallest first (ties in the order written), and a percentage draw `v`
//!   in 1..=100 takes the first entry whose running sum of shares reaches `v`, or the last
//!   entry when none does (so `4k/30:8k/30` gives 8k 70% of the time, as fio 3.33 does).

use crate::taus::FioRng;

/// One `bssplit` entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SplitEntry {
    /// The block size in bytes.
    pub size: u64,
    /// Its share in percent; `None` is fio's blank share (`64k/`), which takes an equal
    /// part of what the explicit shares leave of 100. Shares are weights: when they add up
    /// to less than 100 (fio accepts `4k/30:8k/30`), each entry gets `share / sum`.
    pub percent: Option<u32>,
}

/// How the block size of one direction is chosen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BlockSizes {
    /// `bs=N`: always N bytes.
    Fixed(u64),
    /// `bsrange=min-max`: uniform in the range, a multiple of `min` unless
    /// [`crate::WorkloadConfig::bs_unaligned`].
    Range {
        /// The smallest size in bytes.
        min: u64,
        /// The largest size in bytes.
        max: u64,
    },
    /// `bssplit=...`: sizes drawn with the given shares.
    Split(Vec<SplitEntry>),
}

impl BlockSizes {
    /// The smallest size this choice can produce (0 for an empty split).
    pub fn min(&self) -> u64 {
        match self {
            BlockSizes::Fixed(bs) => *bs,
            BlockSizes::Range { min, .. } => *min,
            BlockSizes::Split(entries) => entries.iter().map(|e| e.size).min().unwrap_or(0),
        }
    }

    /// The largest size this choice can produce (0 for an empty split).
    pub fn max(&self) -> u64 {
        match self {
            BlockSizes::Fixed(bs) => *bs,
            BlockSizes::Range { max, .. } => *max,
            BlockSizes::Split(entries) => entries.iter().map(|e| e.size).max().unwrap_or(0),
        }
    }
}

/// How many times a size is drawn again before the smallest is taken (see
/// [`BsChooser::within`]); far more than any split with a share for its smallest size needs.
const MAX_REDRAWS: u32 = 10_000;

/// One direction's sizes with their stream: what an I/O's size is drawn from, once its
/// place is known.
///
/// A size must fit before the region's end. fio 3.33 draws a range's size again until it
/// fits; a split's draw takes the first entry (in share order) whose running share it
/// reaches and that fits, else the last entry, and is drawn again when that does not fit
/// either (`bssplit=64k/10:4k/30:16k/60`
/// with 12k left: a draw of 98 reaches only 16k, which does not fit; the next, 85, neither;
/// the next, 4, reaches 64k, which does not fit, then 4k, which does).
pub(crate) struct Sizes<'a> {
    /// The direction's sizes.
    pub(crate) bs: &'a BsChooser,
    /// The direction's block size stream.
    pub(crate) rng: &'a mut FioRng,
}

impl Sizes<'_> {
    /// A size that fits in `avail` bytes, as fio 3.33 chooses it (see [`Sizes`]): a fixed
    /// size if it fits; a size of a range or split drawn until one fits (`bsrange=1k-16k`
    /// over 1 MiB ends with 2k and 2k where the draws gave 5k first). `None` when not even
    /// the smallest fits.
    #[inline]
    pub(crate) fn within(&mut self, avail: u64) -> Option<u64> {
        self.bs.within(self.rng, avail)
    }
}

/// Chooses block sizes for one direction. Holds no growing state: the split table is built
/// in `new` and only read afterwards.
#[derive(Debug, Clone)]
pub(crate) struct BsChooser {
    kind: Kind,
    min: u64,
    max: u64,
}

#[derive(Debug, Clone)]
enum Kind {
    Fixed(u64),
    Range {
        unaligned: bool,
    },
    /// Sizes sorted by share with their running sums of shares. Boxed slices rather than
    /// vectors: the enum then has a plain tag, which `choose` tests in one instruction (a
    /// vector's capacity would serve as a niche, decoded at every call).
    Split {
        sizes: Box<[u64]>,
        cumulative: Box<[u32]>,
    },
}

/// Resolves blank shares (see the module note).
pub(crate) fn split_weights(entries: &[SplitEntry]) -> Vec<u32> {
    let explicit: u32 = entries.iter().filter_map(|e| e.percent).sum();
    let blanks = entries.iter().filter(|e| e.percent.is_none()).count() as u32;
    let blank_share = 100u32.saturating_sub(explicit).checked_div(blanks).unwrap_or(0);
    entries.iter().map(|e| e.percent.unwrap_or(blank_share)).collect()
}

impl BsChooser {
    /// A chooser for `bs`; `unaligned` is `bs_unaligned`. `bs` must have been validated.
    pub(crate) fn new(bs: &BlockSizes, unaligned: bool) -> BsChooser {
        let kind = match bs {
            BlockSizes::Fixed(size) => Kind::Fixed(*size),
            // One size, however written (`bsrange=4k-4k`, `bssplit=4k/100`).
            _ if bs.min() == bs.max() => Kind::Fixed(bs.min()),
            BlockSizes::Range { .. } => Kind::Range { unaligned },
            BlockSizes::Split(entries) => {
                let weights = split_weights(entries);
                let mut order: Vec<usize> = (0..entries.len()).collect();
                // A stable sort: ties keep the order written.
                order.sort_by_key(|&i| weights[i]);
                let mut total = 0u32;
                let cumulative = order
                    .iter()
                    .map(|&i| {
                        total = total.saturating_add(weights[i]);
                        total
                    })
                    .collect();
                Kind::Split { sizes: order.iter().map(|&i| entries[i].size).collect(), cumulative }
            }
        };
        BsChooser { kind, min: bs.min(), max: bs.max() }
    }

    /// The size, when it is fixed (`choose` then draws nothing).
    pub(crate) fn fixed(&self) -> Option<u64> {
        match self.kind {
            Kind::Fixed(size) => Some(size),
            _ => None,
        }
    }

    /// The smallest size this chooser produces.
    pub(crate) fn min(&self) -> u64 {
        self.min
    }

    /// The next block size, drawn from `rng`, the direction's block size stream (fixed
    /// sizes draw nothing).
    #[inline]
    pub(crate) fn choose(&self, rng: &mut FioRng) -> u64 {
        match &self.kind {
            Kind::Fixed(size) => *size,
            Kind::Range { unaligned } => {
                let mut size = self.min + (self.max as f64 * rng.fraction()) as u64;
                if !unaligned {
                    size -= size % self.min;
                }
                size.min(self.max)
            }
            Kind::Split { sizes, cumulative } => {
                let v = rng.percent();
                let i = cumulative.partition_point(|&c| c < v);
                sizes[i.min(sizes.len() - 1)]
            }
        }
    }

    /// A size of the direction's that fits in `avail` bytes (see [`Sizes::within`]).
    #[inline]
    pub(crate) fn within(&self, rng: &mut FioRng, avail: u64) -> Option<u64> {
        if let Kind::Fixed(size) = self.kind {
            return (size <= avail).then_some(size);
        }
        if self.min > avail {
            return None;
        }
        // fio 3.33 draws again until a size fits; a bounded number of times here, then
        // the smallest (which fits), so that no split can make this spin for ever.
        for _ in 0..MAX_REDRAWS {
            let size = match &self.kind {
                // A split takes the first entry the draw reaches that fits.
                Kind::Split { sizes, cumulative } => {
                    let v = rng.percent();
                    let fits = |(&size, &cum): (&u64, &u32)| v <= cum && size <= avail;
                    match sizes.iter().zip(cumulative.iter()).find(|e| fits(*e)) {
                        Some((&size, _)) => size,
                        // Past every share: the last entry, if it fits.
                        None => sizes[sizes.len() - 1],
                    }
                }
                _ => self.choose(rng),
            };
            if size <= avail {
                return Some(size);
            }
        }
        Some(self.min)
    }

    /// `want` if it fits in `avail` bytes; otherwise `avail` rounded down to a multiple of
    /// `unit` (not rounded for `bs_unaligned` ranges), if that is at least `unit`; else
    /// `None`. `unit` is the direction's minimum block size for sequential tails, and the
    /// random map's block for free runs.
    #[inline]
    pub(crate) fn fit(&self, want: u64, avail: u64, unit: u64) -> Option<u64> {
        if want <= avail {
            return Some(want);
        }
        let shrunk = match self.kind {
            Kind::Range { unaligned: true } => avail,
            _ => avail / unit * unit,
        };
        (shrunk >= unit.max(1)).then_some(shrunk)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(entries: &[(u64, Option<u32>)]) -> BlockSizes {
        BlockSizes::Split(
            entries.iter().map(|&(size, percent)| SplitEntry { size, percent }).collect(),
        )
    }

    #[test]
    fn blank_shares_take_equal_parts_of_the_rest() {
        let entries = [(4096, Some(50)), (1024, None), (32768, None)];
        let BlockSizes::Split(e) = split(&entries) else { unreachable!() };
        assert_eq!(split_weights(&e), vec![50, 25, 25]);
    }

    /// The first sizes of `bs` from the read size stream of `randseed=1`, in KiB or bytes.
    fn draws(bs: &BlockSizes, unaligned: bool) -> Vec<u64> {
        let c = BsChooser::new(bs, unaligned);
        let mut rng = crate::FioSeeds::repeatable(1, 1).rng(crate::FioStream::BsRead);
        (0..16).map(|_| c.choose(&mut rng)).collect()
    }

    #[test]
    fn ranges_draw_fio_3_33_sizes() {
        // fio 3.33, `--rw=read --randseed=1 --bsrange=3000-10000` (and `1k-8k` unaligned).
        assert_eq!(
            draws(&BlockSizes::Range { min: 3000, max: 10000 }, false),
            [
                6000, 9000, 6000, 3000, 6000, 9000, 3000, 6000, 3000, 9000, 3000, 9000, 3000,
                10000, 10000, 6000
            ]
        );
        assert_eq!(
            draws(&BlockSizes::Range { min: 1024, max: 8192 }, true),
            [
                4112, 7453, 5160, 2674, 3771, 6984, 1255, 5464, 2520, 7169, 1738, 6760, 3295, 8192,
                8192, 5382
            ]
        );
    }

    #[test]
    fn splits_draw_fio_3_33_sizes() {
        // fio 3.33, `--rw=read --randseed=1 --bssplit=4k/50:8k/30:16k/20` and `4k/30:8k/30`.
        let kib = |v: Vec<u64>| v.into_iter().map(|b| b / 1024).collect::<Vec<_>>();
        let s = split(&[(4096, Some(50)), (8192, Some(30)), (16384, Some(20))]);
        assert_eq!(kib(draws(&s, false)), [8, 4, 4, 8, 8, 4, 16, 4, 16, 4, 16, 4, 8, 4, 4, 4]);
        let s = split(&[(4096, Some(30)), (8192, Some(30))]);
        assert_eq!(kib(draws(&s, false)), [8, 8, 8, 4, 8, 8, 4, 8, 4, 8, 4, 8, 4, 8, 8, 8]);
    }

    #[test]
    fn fit_shrinks_to_the_room_left() {
        let c = BsChooser::new(&BlockSizes::Range { min: 4096, max: 8192 }, false);
        assert_eq!(c.fit(8192, 10240, 4096), Some(8192));
        assert_eq!(c.fit(8192, 6144, 4096), Some(4096));
        assert_eq!(c.fit(8192, 2048, 4096), None);
        let f = BsChooser::new(&BlockSizes::Fixed(4096), false);
        assert_eq!(f.fit(4096, 4095, 4096), None);
        assert_eq!(f.fit(4096, 4096, 4096), Some(4096));
    }
}
