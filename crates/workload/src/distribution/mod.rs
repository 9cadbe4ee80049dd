//! Skewed random offsets: fio's `random_distribution` (zipf, pareto, normal, zoned,
//! zoned_abs), as a [`Picker`] per file and direction that turns a random draw into an
//! offset position.
//!
//! The behaviour is fio 3.33's, measured with `--write_iolog` on the null engine and with
//! `fio-genzipf`; the sequences are iomark's own (its generator is not fio's):
//!
//! - **zipf:θ** draws rank k (0 the hottest) with probability ∝ (k+1)^-θ over the
//!   region's positions (fio's rank 0 share over 16384 blocks with θ=1.2 matches the exact
//!   law, 1/H(n, θ)). **pareto:h** draws rank ⌊n·u^(1/h)⌋ for a uniform u, so P(rank < k) =
//!   (k/n)^h (fio's rank 0 and rank 1 shares match this law).
//! - **normal:dev** draws a bell curve around the middle of the range: an Irwin–Hall sum of
//!   twelve uniforms, whose deviation is 1/12 of the range, plus a uniform spread over
//!   `dev` percent of the range (dev above 50 acts as 50). That is what fio 3.33 does in
//!   effect: its deviation of 0 still spreads over about a sixth of the range, `dev` widens
//!   the flat top, and 50, 90 and 99 give the same hits; the peak count, the width at
//!   which counts halve and the number of blocks hit match this model within 1–2%. The
//!   signed distance from the mean is folded to a rank (0, -1, +1, -2, …).
//! - The ranks of those three land on positions through a keyed permutation
//!   ([`scramble`]), so the hot blocks are spread over the file as in fio, then shifted by
//!   a base: `center × positions` when `:center` is given (rank 0 then sits exactly there,
//!   as in fio), else 0.5 for normal and a random base for zipf and pareto (fio's default
//!   differs from job to job too).
//! - **zoned** and **zoned_abs** pick a zone by its access share (one draw in 0..100),
//!   then a uniform position inside the zone. Zone bounds are rounded down to whole
//!   positions; an empty zone with a share sends its I/Os to its first position (fio 3.33:
//!   `zoned:100/0:0/100` hits a single block). Zones that cover less than the region leave
//!   the rest untouched.
//!
//! A position is an offset in units of the direction's alignment at which its smallest
//! block fits, the same positions a job without the random map draws from. Any skewed
//! distribution turns the random map off (fio's HOWTO: "If a non-uniform model is used, fio
//! will disable use of the random map"), so a pass ends on the byte budget, as with
//! `norandommap`.

pub(crate) mod hits;
mod scramble;
mod zipf;

use crate::region::FileRegion;
use crate::rng::Rng;
use crate::taus::FioRng;
use scramble::Scramble;
use zipf::Zipf;

/// One direction's `random_distribution`.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Distribution {
    /// Uniform (fio's default).
    #[default]
    Random,
    /// Zipf with exponent `theta` (> 0, not 1).
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
            Distribution::Zipf { theta, .. } if *theta <= 0.0 || *theta == 1.0 => {
                fail("zipf theta must be above 0 and not 1")
            }
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

/// Draws ranks (0 the most likely) of a zipf, pareto or normal law over `n` values: the
/// part of a distribution that does not depend on where the values land. `iomark genzipf`
/// shows its shares ([`Hits`](crate::Hits)).
#[derive(Debug, Clone)]
pub struct RankSampler {
    n: u64,
    law: Law,
}

#[derive(Debug, Clone)]
enum Law {
    Zipf(Zipf),
    Pareto { inv_power: f64 },
    Normal { scale: f64, spread: f64 },
}

impl RankSampler {
    /// The sampler of `dist` over `n` values (`n` ≥ 1); `None` for the distributions
    /// without ranks (`random`, `zoned`, `zoned_abs`).
    pub fn new(dist: &Distribution, n: u64) -> Option<RankSampler> {
        let n = n.max(1);
        let law = match *dist {
            Distribution::Zipf { theta, .. } => Law::Zipf(Zipf::new(n, theta)),
            Distribution::Pareto { power, .. } => Law::Pareto { inv_power: 1.0 / power },
            Distribution::Normal { deviation, .. } => Law::Normal {
                scale: n as f64 / 12.0,
                spread: deviation.clamp(0.0, 50.0) / 100.0 * n as f64,
            },
            _ => return None,
        };
        Some(RankSampler { n, law })
    }

    /// How many values the ranks cover.
    pub fn values(&self) -> u64 {
        self.n
    }

    /// One rank in `0..n`.
    pub fn rank(&self, rng: &mut Rng) -> u64 {
        let n = self.n;
        match &self.law {
            Law::Zipf(z) => z.sample(rng) - 1,
            Law::Pareto { inv_power } => {
                let r = (n as f64 * rng.unit_f64().powf(*inv_power)) as u64;
                r.min(n - 1)
            }
            Law::Normal { scale, spread } => {
                // Twelve uniforms from six draws: their sum less 6 has variance 1.
                let mut sum = 0u64;
                for _ in 0..6 {
                    let v = rng.next_u64();
                    sum += (v >> 32) + (v & 0xffff_ffff);
                }
                let bell = (sum as f64 / 4_294_967_296.0 - 6.0) * scale;
                let d = (bell + spread * (rng.unit_f64() - 0.5)).round() as i128;
                // Wrap around the range, centred on its middle, then fold to a rank.
                let (n, half) = (i128::from(n), i128::from(n / 2));
                let v = (d + half).rem_euclid(n) - half;
                (if v >= 0 { 2 * v } else { -2 * v - 1 }) as u64
            }
        }
    }
}

/// The streams a random offset draws from.
pub(crate) struct Draws<'a> {
    /// The offsets' stream.
    pub(crate) offsets: &'a mut FioRng,
    /// The zone stream of `zoned` and `zoned_abs`.
    pub(crate) zone: &'a mut FioRng,
    /// iomark's own draws (zipf, pareto, normal).
    pub(crate) own: &'a mut Rng,
}

/// Turns random draws into positions of one file region for one direction.
#[derive(Debug, Clone)]
pub(crate) struct Picker {
    positions: u64,
    how: How,
}

#[derive(Debug, Clone)]
enum How {
    /// A ranked law, scrambled, then shifted by `base`.
    Ranked { sampler: RankSampler, scramble: Scramble, base: u64 },
    /// Zones: `zone_of[v - 1]` is the zone of a percentage draw `v`; zone `i` has
    /// `bounds[i].1` positions from position `bounds[i].0`.
    Zoned { zone_of: Box<[u16]>, bounds: Box<[(u64, u64)]> },
}

/// What a file gives every picker of its directions: the keys of the rank permutation and
/// the random base of zipf and pareto (the same for all directions, so that reads and
/// writes of one law share their hot blocks).
#[derive(Debug, Clone)]
pub(crate) struct Placement {
    keys: Rng,
    base: f64,
}

impl Placement {
    /// A file's placement, drawn from `rng` (the job's placement stream, file by file).
    pub(crate) fn draw(rng: &mut Rng) -> Placement {
        let keys = Rng::from_seed(rng.next_u64());
        Placement { keys, base: rng.unit_f64() }
    }
}

impl Picker {
    /// The picker of `dist` over `positions` positions of `align` bytes in a region of
    /// `len` bytes; `None` for [`Distribution::Random`].
    pub(crate) fn new(
        dist: &Distribution,
        positions: u64,
        align: u64,
        place: &Placement,
    ) -> Option<Picker> {
        let positions = positions.max(1);
        let at = |fraction: f64| ((fraction * positions as f64) as u64).min(positions - 1);
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
                How::Ranked {
                    sampler: RankSampler::new(dist, positions)?,
                    scramble: Scramble::new(positions, &mut place.keys.clone()),
                    base: at(center.unwrap_or(place.base)),
                }
            }
            Distribution::Normal { center, .. } => How::Ranked {
                sampler: RankSampler::new(dist, positions)?,
                scramble: Scramble::new(positions, &mut place.keys.clone()),
                base: at(center.unwrap_or(0.5)),
            },
        };
        Some(Picker { positions, how })
    }

    /// The next position, in `0..positions`: zoned as fio 3.33 draws it (the zone from a
    /// percentage draw of the job's zone stream, `draws.zone`, then `⌊size × f⌋` into it
    /// from the offsets' stream), ranked from iomark's own generator (`draws.own`).
    #[inline]
    pub(crate) fn position(&self, draws: &mut Draws) -> u64 {
        match &self.how {
            How::Ranked { sampler, scramble, base } => {
                let p = base + scramble.apply(sampler.rank(draws.own));
                if p >= self.positions {
                    p - self.positions
                } else {
                    p
                }
            }
            How::Zoned { zone_of, bounds } => {
                let v = draws.zone.percent() as usize;
                let (lo, size) = bounds[usize::from(zone_of[v - 1])];
                (lo + draws.offsets.below(size)).min(self.positions - 1)
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
