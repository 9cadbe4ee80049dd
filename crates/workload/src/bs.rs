//! Block sizes: how a job chooses them per direction ([`BlockSizes`]: fixed `bs`, `bsrange`
//! or `bssplit`), the choice itself for one direction ([`BsChooser`]), and the rule
//! that shrinks a size to the room left (a region's tail, a run of free blocks).
//!
//! `bssplit` shares are resolved once, in [`BsChooser::new`]: a blank share takes an equal
//! part of what the explicit shares leave of 100 (`4k/50:1k/:32k/` is 50/25/25, fio's
//! documented rule), and the shares are then weights, so a split whose shares add up to less
//! than 100 (fio 3.33 runs `4k/30:8k/30`) draws each size with `share / sum`.

use crate::rng::Rng;

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
    /// Sizes with cumulative weights; `total` is the last cumulative weight. Boxed slices
    /// rather than vectors: the enum then has a plain tag, which `choose` tests in one
    /// instruction (a vector's capacity would serve as a niche, decoded at every call).
    Split {
        sizes: Box<[u64]>,
        cumulative: Box<[u64]>,
        total: u64,
    },
}

/// Resolves blank shares to weights (see the module note).
pub(crate) fn split_weights(entries: &[SplitEntry]) -> Vec<u64> {
    let explicit: u64 = entries.iter().filter_map(|e| e.percent).map(u64::from).sum();
    let blanks = entries.iter().filter(|e| e.percent.is_none()).count() as u64;
    let blank_share = 100u64.saturating_sub(explicit).checked_div(blanks).unwrap_or(0);
    let weights: Vec<u64> =
        entries.iter().map(|e| e.percent.map_or(blank_share, u64::from)).collect();
    if weights.iter().all(|&w| w == 0) {
        // Nothing to weigh by: every size equally likely.
        return vec![1; entries.len()];
    }
    weights
}

impl BsChooser {
    /// A chooser for `bs`; `unaligned` is `bs_unaligned`. `bs` must have been validated.
    pub(crate) fn new(bs: &BlockSizes, unaligned: bool) -> BsChooser {
        let kind = match bs {
            BlockSizes::Fixed(size) => Kind::Fixed(*size),
            BlockSizes::Range { min, max } if min == max => Kind::Fixed(*min),
            BlockSizes::Range { .. } => Kind::Range { unaligned },
            BlockSizes::Split(entries) => {
                let weights = split_weights(entries);
                let mut cumulative = Vec::with_capacity(weights.len());
                let mut total = 0u64;
                for w in &weights {
                    total += w;
                    cumulative.push(total);
                }
                Kind::Split {
                    sizes: entries.iter().map(|e| e.size).collect(),
                    cumulative: cumulative.into_boxed_slice(),
                    total,
                }
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

    /// True when every size is the same (a fixed `bs`, `bsrange=4k-4k`, `bssplit=4k/100`).
    pub(crate) fn uniform(&self) -> bool {
        self.min == self.max
    }

    /// The next block size, drawn from `rng` (fixed sizes draw nothing).
    #[inline]
    pub(crate) fn choose(&self, rng: &mut Rng) -> u64 {
        match &self.kind {
            Kind::Fixed(size) => *size,
            Kind::Range { unaligned: true } => self.min + rng.below(self.max - self.min + 1),
            Kind::Range { unaligned: false } => {
                let multiples = self.max / self.min;
                self.min * (1 + rng.below(multiples))
            }
            Kind::Split { sizes, cumulative, total } => {
                let r = rng.below(*total);
                let i = cumulative.partition_point(|&c| c <= r);
                sizes[i.min(sizes.len() - 1)]
            }
        }
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

    #[test]
    fn bssplit_shares_within_one_percent_over_100k_draws() {
        // bssplit=4k/10:64k/50:32k/40 with a fixed seed; tolerance ±1 point.
        let c = BsChooser::new(
            &split(&[(4096, Some(10)), (65536, Some(50)), (32768, Some(40))]),
            false,
        );
        let mut rng = Rng::from_seed(42);
        let n = 100_000;
        let mut counts = [0u32; 3];
        for _ in 0..n {
            match c.choose(&mut rng) {
                4096 => counts[0] += 1,
                65536 => counts[1] += 1,
                32768 => counts[2] += 1,
                other => panic!("unexpected size {other}"),
            }
        }
        for (count, want) in counts.iter().zip([10.0, 50.0, 40.0]) {
            let pct = f64::from(*count) * 100.0 / f64::from(n);
            assert!((pct - want).abs() < 1.0, "{counts:?}");
        }
    }

    #[test]
    fn shares_under_100_are_weights() {
        let c = BsChooser::new(&split(&[(4096, Some(30)), (8192, Some(30))]), false);
        let mut rng = Rng::from_seed(1);
        let small = (0..10_000).filter(|_| c.choose(&mut rng) == 4096).count();
        assert!((4_700..5_300).contains(&small), "{small}");
    }

    #[test]
    fn range_sizes_are_multiples_of_min_unless_unaligned() {
        let range = BlockSizes::Range { min: 4096, max: 16384 };
        let c = BsChooser::new(&range, false);
        let mut rng = Rng::from_seed(9);
        let mut seen = [false; 4];
        for _ in 0..1000 {
            let s = c.choose(&mut rng);
            assert!(s % 4096 == 0 && (4096..=16384).contains(&s));
            seen[(s / 4096 - 1) as usize] = true;
        }
        assert_eq!(seen, [true; 4]);
        let u = BsChooser::new(&range, true);
        assert!((0..1000).any(|_| u.choose(&mut rng) % 4096 != 0));
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
