//! Skewed random offsets: fio's `random_distribution` (zipf, pareto, normal, zoned,
//! zoned_abs), as a [`Picker`] per file and direction that turns random draws into an
//! offset position.
//!
//! The draws are fio 3.33's, measured with `--write_iolog` on the null engine:
//!
//! - **zipf**, **pareto** and **normal** draw from a random state of the file's own (see
//!   `laws` for the laws and how a value is scattered over the file, and
//!   [`crate::FioSeeds::file_seed`] for the seed), over `n` values: the file's region in
//!   units of the job's smallest read or write block size, rounded up. Value `p` is the
//!   offset `p × align` of the direction; one that does not fit the direction's blocks
//!   (a larger block size or `blockalign` than that unit) ends the file's pass, as in fio
//!   3.33 (`rw=randwrite bs=4k,16k` with zipf issues one write).
//! - **zoned** and **zoned_abs** pick a zone by its access share (one draw in 1..=100 from
//!   the job's zone stream), then a uniform position inside the zone from the offsets'
//!   stream. Zone bounds are rounded down to whole positions; an empty zone with a share
//!   sends its I/Os to its first position (fio 3.33: `zoned:100/0:0/100` hits a single
//!   block). Zones that cover less than the region leave the rest untouched.
//!
//! Any skewed distribution turns the random map off (fio's HOWTO: "If a non-uniform model
//! is used, fio will disable use of the random map"), so a pass ends on the byte budget, as
//! with `norandommap`.

pub(crate) mod hits;
pub(crate) mod laws;

use crate::region::FileRegion;
use crate::taus::FioRng;
use laws::{gauss_shift, scatter, Law};

/// One direction's `random_distribution`.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Distribution {
    /// Uniform (fio's default).
    #[default]
    Random,
    /// Zipf with exponent `theta` (not 1; 0 is uniform).
    Zipf {
        /// The exponent.
        theta: f64,
        /// Where rank 0 sits, as a fraction (0..=1) of the region; `None`: at random.
        center: Option<f64>,
    },
    /// Pareto with power `power` (0 < power < 1).
    Pareto {
        /// The power.
        power: f64,
        /// As for [`Distribution::Zipf`].
        center: Option<f64>,
    },
    /// A bell curve widened by `deviation` percent of the range.
    Normal {
        /// The deviation in percent (0 <= dev < 100; above 50 acts as 50).
        deviation: f64,
        /// As for [`Distribution::Zipf`]; `None` is 0.5.
        center: Option<f64>,
    },
    /// Zones sized in percent of the region.
    Zoned(Vec<Zone>),
    /// Zones sized in bytes from the region start.
    ZonedAbs(Vec<AbsZone>),
}

impl Distribution {
    /// True for every distribution but [`Distribution::Random`].
    pub fn is_skewed(&self) -> bool {
        !matches!(self, Distribution::Random)
    }

    /// Checks the numbers against fio's limits (θ > 0 and not 1, 0 < power < 1,
    /// 0 <= dev < 100, center in 0..=1, access shares adding up to 100, zone sizes adding
    /// up to at most 100%, at most 256 zones); the reason otherwise.
    pub fn validate(&self) -> Result<(), String> {
        let center_ok = |c: &Option<f64>| c.is_none_or(|c| (0.0..=1.0).contains(&c));
        let fail = |why: &str| Err(format!("{why} ({self:?})"));
        let shares = |access: &mut dyn Iterator<Item = u32>, zones: usize| {
            if zones > 256 {
                return Err(format!("more than 256 zones ({self:?})"));
            }
            let sum: u32 = access.sum();
            if sum != 100 {
                return Err(format!("access shares add up to {sum}%, not 100%"));
            }
            Ok(())
        };
        match self {
            Distribution::Random => Ok(()),
            Distribution::Zipf { theta, .. } if *theta == 1.0 => fail("zipf theta must not be 1"),
            Distribution::Pareto { power, .. } if !(*power > 0.0 && *power < 1.0) => {
                fail("pareto power must be between 0 and 1")
            }
            Distribution::Normal { deviation, .. } if !(0.0..100.0).contains(deviation) => {
                fail("normal deviation must be in 0 <= dev < 100")
            }
            Distribution::Zipf { center, .. }
            | Distribution::Pareto { center, .. }
            | Distribution::Normal { center, .. } => {
                if center_ok(center) {
                    Ok(())
                } else {
                    fail("the center must be in 0..=1")
                }
            }
            Distribution::Zoned(zones) => {
                shares(&mut zones.iter().map(|z| z.access), zones.len())?;
                let size: f64 = zones.iter().map(|z| z.percent).sum();
                if zones.iter().any(|z| z.percent < 0.0) || size > 100.0 + 1e-9 {
                    return fail("zone sizes must add up to at most 100%");
                }
                Ok(())
            }
            Distribution::ZonedAbs(zones) => {
                shares(&mut zones.iter().map(|z| z.access), zones.len())
            }
        }
    }
}

/// One zone of [`Distribution::Zoned`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Zone {
    /// The share of random I/Os that land in the zone, in percent (shares add up to 100).
    pub access: u32,
    /// The zone's size in percent of the region (sizes add up to at most 100).
    pub percent: f64,
}

/// One zone of [`Distribution::ZonedAbs`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AbsZone {
    /// The share of random I/Os that land in the zone, in percent (shares add up to 100).
    pub access: u32,
    /// The zone's size in bytes.
    pub bytes: u64,
}

/// Draws values of a zipf, pareto or normal law over `n` values as fio 3.33 draws them,
/// before they are scattered over a file: the part of a distribution that does not depend
/// on where the values land. `iomark genzipf` shows its shares ([`Hits`](crate::Hits)).
#[derive(Debug, Clone)]
pub struct RankSampler {
    n: u64,
    law: Law,
}

impl RankSampler {
    /// The sampler of `dist` over `n` values (`n` ≥ 1); `None` for the distributions
    /// without ranks (`random`, `zoned`, `zoned_abs`).
    pub fn new(dist: &Distribution, n: u64) -> Option<RankSampler> {
        let n = n.max(1);
        let law = match *dist {
            Distribution::Zipf { theta, .. } => Law::zipf(n, theta),
            Distribution::Pareto { power, .. } => Law::pareto(power),
            Distribution::Normal { deviation, .. } => Law::gauss(n, deviation),
            _ => return None,
        };
        Some(RankSampler { n, law })
    }

    /// How many values the ranks cover.
    pub fn values(&self) -> u64 {
        self.n
    }

    /// One value in `0..n` from `rng` (zipf's and pareto's 0 is the most likely, normal's
    /// the middle; a value past either end is taken as that end).
    pub fn rank(&self, rng: &mut FioRng) -> u64 {
        self.law.unsigned_value(self.n, rng).min(self.n - 1)
    }
}

/// The streams a random offset draws from.
pub(crate) struct Draws<'a> {
    /// The offsets' stream.
    pub(crate) offsets: &'a mut FioRng,
    /// The zone stream of `zoned` and `zoned_abs`.
    pub(crate) zone: &'a mut FioRng,
}

/// Turns random draws into positions of one file region for one direction.
#[derive(Debug, Clone)]
pub(crate) struct Picker {
    /// Positions of the direction: offsets `p × align` where its smallest block fits.
    positions: u64,
    how: How,
}

#[derive(Debug, Clone)]
enum How {
    /// A law of fio's over `n` values, scattered, then shifted by `shift`.
    Skewed { law: Law, n: u64, shift: u64 },
    /// Zones: `zone_of[v - 1]` is the zone of a percentage draw `v`; zone `i` has
    /// `bounds[i].1` positions from position `bounds[i].0`.
    Zoned { zone_of: Box<[u16]>, bounds: Box<[(u64, u64)]> },
}

/// What a file's skewed laws draw from: its own state (see
/// [`crate::FioSeeds::file_seed`]) and that state's first draw, the shift of zipf and
/// pareto when no center is given.
#[derive(Debug, Clone)]
pub(crate) struct FileState {
    /// The state.
    pub(crate) rng: FioRng,
    /// Its first draw (taken when some direction's law is zipf or pareto).
    first: u64,
}

impl FileState {
    /// The state seeded with `seed`, its first draw taken when `dists` hold a zipf or a
    /// pareto law, as fio 3.33 takes it.
    pub(crate) fn new<'a>(seed: u64, mut dists: impl Iterator<Item = &'a Distribution>) -> Self {
        let mut rng = FioRng::new(seed, false);
        let shifted =
            dists.any(|d| matches!(d, Distribution::Zipf { .. } | Distribution::Pareto { .. }));
        let first = if shifted { rng.next_raw() } else { 0 };
        FileState { rng, first }
    }
}

/// A file's skewed distributions: its state and the picker of each direction.
#[derive(Debug, Clone)]
pub(crate) struct Skew {
    /// The file's state.
    pub(crate) state: FileState,
    /// Per direction, the picker of a skewed distribution (`None`: uniform).
    pub(crate) pickers: [Option<Picker>; 3],
}

impl Skew {
    /// The next position of direction `dir`: `None` when the direction is uniform,
    /// `Some(None)` when the draw lands where its blocks do not fit.
    #[inline]
    pub(crate) fn position(&mut self, dir: usize, draws: &mut Draws) -> Option<Option<u64>> {
        let picker = self.pickers[dir].as_ref()?;
        Some(picker.position(draws, &mut self.state.rng))
    }
}

impl Picker {
    /// The picker of `dist` for a direction whose `positions` positions are `align` bytes
    /// apart in a region of `values` of fio's ranges (for zipf, pareto and normal) and
    /// with `state` as the file's state; `None` for [`Distribution::Random`].
    pub(crate) fn new(
        dist: &Distribution,
        (positions, values): (u64, u64),
        align: u64,
        state: &FileState,
    ) -> Option<Picker> {
        let positions = positions.max(1);
        let n = values.max(1);
        let how = match dist {
            Distribution::Random => return None,
            Distribution::Zoned(zones) => {
                // fio 3.33: a zone starts at ⌊(the shares before it) × positions / 100⌋ and
                // has ⌊share × positions / 100⌋ positions (`zoned:60/10:30/20:10/70` over
                // 1024 blocks: 102 from 0, 204 from 102, 716 from 307).
                let part = |percent: f64| (percent * positions as f64 / 100.0) as u64;
                let mut before = 0.0;
                let bounds = zones.iter().map(|z| {
                    let lo = part(before);
                    before += z.percent;
                    (lo, part(z.percent))
                });
                zoned(zones.iter().map(|z| z.access), bounds, positions)
            }
            Distribution::ZonedAbs(zones) => {
                let mut before = 0u64;
                let bounds = zones.iter().map(|z| {
                    let lo = before / align;
                    before = before.saturating_add(z.bytes);
                    (lo, z.bytes / align)
                });
                zoned(zones.iter().map(|z| z.access), bounds, positions)
            }
            Distribution::Zipf { center, .. } | Distribution::Pareto { center, .. } => {
                let law = RankSampler::new(dist, n)?.law;
                let shift = center.map_or(state.first, |c| (c * n as f64) as u64);
                How::Skewed { law, n, shift }
            }
            Distribution::Normal { center, .. } => {
                let law = RankSampler::new(dist, n)?.law;
                How::Skewed { law, n, shift: gauss_shift(*center, n) }
            }
        };
        Some(Picker { positions, how })
    }

    /// The next position: skewed from the file's state (`skew`), `None` when the value
    /// lands where the direction's blocks do not fit; zoned as fio 3.33 draws it (the zone
    /// from a percentage draw of the job's zone stream, then `⌊size × f⌋` into it from the
    /// offsets' stream).
    #[inline]
    pub(crate) fn position(&self, draws: &mut Draws, skew: &mut FioRng) -> Option<u64> {
        match &self.how {
            How::Skewed { law, n, shift } => {
                let p = scatter(law.unsigned_value(*n, skew)).wrapping_add(*shift) % n;
                (p < self.positions).then_some(p)
            }
            How::Zoned { zone_of, bounds } => {
                let v = draws.zone.percent() as usize;
                let (lo, size) = bounds[usize::from(zone_of[v - 1])];
                Some((lo + draws.offsets.below(size)).min(self.positions - 1))
            }
        }
    }
}

/// Checks `dist` ([`Distribution::validate`]) and that `zoned_abs` zones fit in every
/// region (fio 3.33: "zoned_abs sizes exceed file size"); the reason otherwise.
pub(crate) fn check(dist: &Distribution, regions: &[FileRegion]) -> Result<(), String> {
    dist.validate()?;
    if let Distribution::ZonedAbs(zones) = dist {
        let bytes = zones.iter().fold(0u64, |s, z| s.saturating_add(z.bytes));
        if let Some((i, r)) = regions.iter().enumerate().find(|(_, r)| r.len < bytes) {
            return Err(format!(
                "zoned_abs zones cover {bytes} bytes, more than the {} bytes of file {i}'s \
                 region (see 'size', 'filesize', 'offset')",
                r.len
            ));
        }
    }
    Ok(())
}

/// The zone table of zones with these access shares and (first position, positions),
/// cut at the region's end.
fn zoned(
    access: impl Iterator<Item = u32>,
    bounds: impl Iterator<Item = (u64, u64)>,
    positions: u64,
) -> How {
    let mut zone_of = Vec::with_capacity(100);
    for (i, a) in access.enumerate() {
        zone_of.extend(std::iter::repeat_n(i as u16, a as usize));
    }
    zone_of.resize(100, zone_of.last().copied().unwrap_or(0));
    let bounds = bounds
        .map(|(lo, size)| {
            let lo = lo.min(positions);
            (lo, size.min(positions - lo))
        })
        .collect();
    How::Zoned { zone_of: zone_of.into_boxed_slice(), bounds }
}

#[cfg(test)]
mod tests;
