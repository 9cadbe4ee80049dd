//! What a zipf, pareto or normal law's draws look like: the table of fio's `fio-genzipf`,
//! which `iomark genzipf` prints.
//!
//! As fio-genzipf does, [`Hits::draw`] draws as many values as the data set has blocks,
//! counts the hits of each value and sorts the values hit from the most to the least hit;
//! [`Hits::rows`] splits them into rows of equal numbers of values (the last rows take what
//! remains), each with its share of the hits and the running sum. The rows are shares of the
//! values that were *hit*, as in fio-genzipf, not of all the blocks. The laws are fio's
//! ([`RankSampler`]) from a state seeded with iomark's seed, so the numbers agree with
//! fio-genzipf's within sampling noise, not digit for digit. [`Hits::values_serving`] answers fio-genzipf's `-p`:
//! how many of the most hit values serve a share of the hits.

use super::{Distribution, RankSampler};
use crate::taus::FioRng;

/// The hits of a law's draws per value hit, from the most hit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hits {
    /// Hits per value hit, sorted from the most hit (values never hit are left out).
    counts: Vec<u32>,
    /// All the hits: the number of draws.
    total: u64,
}

/// One row of fio-genzipf's table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HitRow {
    /// Where the row ends, in percent of the rows: `(row + 1) × 100 / rows`.
    pub upto_percent: f64,
    /// The hits of the row's values.
    pub hits: u64,
    /// Those hits in percent of all hits.
    pub hits_percent: f64,
    /// The hits of this row and of all the rows above it, in percent of all hits.
    pub sum_percent: f64,
}

impl Hits {
    /// The most values a table counts (a count of 4 bytes each: 4 GiB).
    pub const MAX_VALUES: u64 = 1 << 30;

    /// Draws `values` ranks of `distribution` over `values` values, from a generator seeded
    /// with `seed`, and counts them; `None` for a law without ranks (`random`, `zoned`,
    /// `zoned_abs`) or when `values` is not in 1..=[`Hits::MAX_VALUES`].
    pub fn draw(distribution: &Distribution, values: u64, seed: u64) -> Option<Hits> {
        if values == 0 || values > Self::MAX_VALUES {
            return None;
        }
        let sampler = RankSampler::new(distribution, values)?;
        let mut rng = FioRng::new(seed, false);
        let mut counts = vec![0u32; values as usize];
        for _ in 0..values {
            let c = &mut counts[sampler.rank(&mut rng) as usize];
            *c = c.saturating_add(1);
        }
        counts.retain(|&c| c > 0);
        counts.sort_unstable_by(|a, b| b.cmp(a));
        let total = counts.iter().map(|&h| u64::from(h)).sum();
        Some(Hits { counts, total })
    }

    /// Hits per value hit, from the most hit.
    pub fn counts(&self) -> &[u32] {
        &self.counts
    }

    /// All the hits.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// The values hit, from the most hit, in `rows` rows of ⌈hit values / `rows`⌉ values
    /// each (the last rows take what remains, and may be empty).
    pub fn rows(&self, rows: u64) -> Vec<HitRow> {
        let hits = &self.counts;
        let per_row = (hits.len() as u64).div_ceil(rows).max(1) as usize;
        let pct = |x: u64| x as f64 * 100.0 / self.total.max(1) as f64;
        let mut sum = 0u64;
        (0..rows as usize)
            .map(|row| {
                let from = (row * per_row).min(hits.len());
                let to = ((row + 1) * per_row).min(hits.len());
                let row_hits: u64 = hits[from..to].iter().map(|&h| u64::from(h)).sum();
                sum += row_hits;
                HitRow {
                    upto_percent: (row + 1) as f64 * 100.0 / rows as f64,
                    hits: row_hits,
                    hits_percent: pct(row_hits),
                    sum_percent: pct(sum),
                }
            })
            .collect()
    }

    /// How many of the most hit values it takes to serve `percent` of the hits.
    pub fn values_serving(&self, percent: f64) -> u64 {
        let want = self.total as f64 * percent / 100.0;
        let mut sum = 0u64;
        let needed = self.counts.iter().take_while(|&&h| {
            let short = (sum as f64) < want;
            sum += u64::from(h);
            short
        });
        needed.count() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::DEFAULT_SEED;

    fn hits(counts: &[u32]) -> Hits {
        Hits { counts: counts.to_vec(), total: counts.iter().map(|&c| u64::from(c)).sum() }
    }

    #[test]
    fn rows_split_the_values_hit_and_sum_their_shares() {
        let h = hits(&[5, 3, 2]);
        let rows = h.rows(2);
        assert_eq!(
            rows,
            [
                HitRow { upto_percent: 50.0, hits: 8, hits_percent: 80.0, sum_percent: 80.0 },
                HitRow { upto_percent: 100.0, hits: 2, hits_percent: 20.0, sum_percent: 100.0 },
            ]
        );
        // More rows than values: one value a row, then empty rows.
        let hits_per_row: Vec<u64> = h.rows(5).iter().map(|r| r.hits).collect();
        assert_eq!(hits_per_row, [5, 3, 2, 0, 0]);
    }

    #[test]
    fn values_serving_counts_the_most_hit_values_until_the_share_is_reached() {
        let h = hits(&[5, 3, 2]);
        assert_eq!(h.values_serving(50.0), 1);
        assert_eq!(h.values_serving(60.0), 2);
        assert_eq!(h.values_serving(100.0), 3);
    }

    #[test]
    fn draws_count_every_value_and_sort_from_the_most_hit() {
        let pareto = Distribution::Pareto { power: 0.3, center: None };
        let h = Hits::draw(&pareto, 1024, DEFAULT_SEED).expect("pareto has ranks");
        assert_eq!(h.total(), 1024);
        assert_eq!(h.counts().iter().map(|&c| u64::from(c)).sum::<u64>(), 1024);
        assert!(h.counts().windows(2).all(|w| w[0] >= w[1]));
        assert_eq!(Hits::draw(&Distribution::Random, 1024, 1), None);
        assert_eq!(Hits::draw(&pareto, 0, 1), None);
        assert_eq!(Hits::draw(&pareto, Hits::MAX_VALUES + 1, 1), None);
    }

    #[test]
    fn rows_agree_with_fio_genzipf() {
        // fio-genzipf 3.33 -g 1 -b 4096 (262144 draws), its "Hits %" of the first rows and
        // its "Sum %" at the middle; iomark within 1.5 points (fio's rows are over the
        // values hit, which vary by a few percent from draw to draw).
        let zipf = |theta| Distribution::Zipf { theta, center: None };
        let cases: [(Distribution, u64, &[f64], f64, u64); 4] = [
            (zipf(1.2), 10, &[88.76, 2.82, 1.82], 95.29, 262_144),
            (
                Distribution::Pareto { power: 0.3, center: None },
                5,
                &[55.46, 17.25, 9.10],
                81.81,
                262_144,
            ),
            (
                Distribution::Normal { deviation: 10.0, center: None },
                5,
                &[41.14, 24.77, 16.90],
                82.81,
                262_144,
            ),
            // -b 65536
            (zipf(0.8), 4, &[64.28, 15.23, 10.25], 79.51, 16_384),
        ];
        for (law, rows, first, middle, draws) in cases {
            let got = Hits::draw(&law, draws, DEFAULT_SEED).expect("a ranked law").rows(rows);
            for (i, want) in first.iter().enumerate() {
                let share = got[i].hits_percent;
                assert!((share - want).abs() < 1.5, "{law:?}: row {i}: {share} vs {want}");
            }
            // fio's "Sum %" at the middle row (row 5 of 10, row 3 of 5, row 2 of 4).
            let mid = got[(got.len() - 1) / 2].sum_percent;
            assert!((mid - middle).abs() < 1.5, "{law:?}: middle sum {mid} vs {middle}");
            assert_eq!(got.iter().map(|r| r.hits).sum::<u64>(), draws, "{law:?}");
        }
    }
}
