//! fio's coarse distributions: the `lat (nsec/usec/msec)` latency buckets, and the
//! `IO depths`, `submit` and `complete` distributions, with the percentages fio prints.
//!
//! Bucket edges and rounding are fio 3.33's, established from its HOWTO, from runs of fio
//! 3.33 (json+ bins compared with `latency_ns`/`latency_us` at edges that fall on bin
//! boundaries) and from its documented behaviour:
//!
//! - **Latency buckets** count each I/O's *completion* latency (clat; the HOWTO: "the time
//!   from when I/O leaves fio and when it gets completed"; a psync run matched clat at the
//!   exact 1000, 2000 and 4000 ns edges and not lat). The labels 2, 4, 10, 20, 50, 100,
//!   250, 500, 750, 1000 are *exclusive* upper bounds: "250=0.04% means that 0.04% of the
//!   I/Os completed in under 250us. 500=64.11% means … 250 to 499us". Values below
//!   1000 ns go to the ns row, below 1 ms to the µs row, the rest to the ms row, which ends
//!   with 2000 (1000–1999 ms) and `>=2000`. So 4 µs and 4.5 µs go to µs `10` (4–9 µs),
//!   3.999 µs to µs `4`, 1000 µs to ms `2` (0–1 ms), 999 ns to ns `1000`.
//! - **IO depths**: entry `d` covers depths `d ..= 2d-1` (1, 2–3, 4–7, …, 32–63, >=64),
//!   counted once per I/O at the depth it was issued at.
//! - **submit/complete**: entry `n` covers `previous+1 ..= n` (0, 1–4, 5–8, 9–16, 17–32,
//!   33–64, and `>=64` which really means 65 and more), counted once per submit or reap
//!   call with the number of I/Os that call handled.
//! - **Percentages**: `count / total · 100`; a non-zero count below the display floor is
//!   raised to it: 0.1 for depth, submit and complete, 0.01 for latency buckets. That is
//!   why fio prints `1=0.1%, 2=0.1%, 4=100.0%`. Totals: latency buckets and depths are
//!   divided by the number of read, write and trim I/Os; submit by the number of submit
//!   calls; complete by the number of reap calls.

/// The latency bucket edges shared by the ns, µs and ms rows (exclusive upper bounds).
pub const LAT_EDGES: [u64; 10] = [2, 4, 10, 20, 50, 100, 250, 500, 750, 1000];

/// Number of latency buckets: 10 ns + 10 µs + 12 ms (…, 1000, 2000, >=2000).
pub const LAT_BUCKETS: usize = 32;

/// Number of depth, submit and complete buckets.
pub const MAP_BUCKETS: usize = 7;

/// The entry of a row for each value `0..1000`: the first edge above it.
const ROW: [u8; 1000] = {
    let mut row = [0u8; 1000];
    let (mut v, mut entry) = (0, 0);
    while v < 1000 {
        if v >= LAT_EDGES[entry] {
            entry += 1;
        }
        row[v as usize] = entry as u8;
        v += 1;
    }
    row
};

/// Index of a latency in the flat latency table: `0..10` the ns row, `10..20` the µs row,
/// `20..32` the ms row (20 + 10 is `2000`, 20 + 11 is `>=2000`). One table look-up: this
/// runs for every I/O.
#[inline]
pub fn latency_bucket(ns: u64) -> usize {
    let row = |v: u64| usize::from(ROW[v as usize]);
    if ns < 1_000 {
        row(ns)
    } else if ns < 1_000_000 {
        10 + row(ns / 1_000)
    } else if ns < 1_000_000_000 {
        20 + row(ns / 1_000_000)
    } else if ns < 2_000_000_000 {
        30
    } else {
        31
    }
}

/// Index of an I/O depth in `IO depths: 1, 2, 4, 8, 16, 32, >=64`. Depth 0 (which the
/// runner never reports) is put with 1; fio would count it under `>=64`.
pub fn depth_bucket(depth: u32) -> usize {
    match depth {
        0..=1 => 0,
        2..=3 => 1,
        4..=7 => 2,
        8..=15 => 3,
        16..=31 => 4,
        32..=63 => 5,
        _ => 6,
    }
}

/// Index of a batch size in the `submit`/`complete` rows `0, 4, 8, 16, 32, 64, >=64`.
pub fn batch_bucket(ios: u32) -> usize {
    match ios {
        0 => 0,
        1..=4 => 1,
        5..=8 => 2,
        9..=16 => 3,
        17..=32 => 4,
        33..=64 => 5,
        _ => 6,
    }
}

/// Counts per bucket of one of fio's coarse distributions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Buckets<const N: usize> {
    counts: [u64; N],
}

impl<const N: usize> Default for Buckets<N> {
    fn default() -> Self {
        Buckets { counts: [0; N] }
    }
}

impl<const N: usize> Buckets<N> {
    /// All counts zero.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds `n` to bucket `idx` (an index from [`latency_bucket`], [`depth_bucket`] or
    /// [`batch_bucket`]).
    #[inline]
    pub fn add(&mut self, idx: usize, n: u64) {
        self.counts[idx] += n;
    }

    /// Takes back `n` of what [`add`](Self::add) put in bucket `idx` (never below 0).
    pub fn remove(&mut self, idx: usize, n: u64) {
        self.counts[idx] = self.counts[idx].saturating_sub(n);
    }

    /// The raw counts.
    pub fn counts(&self) -> &[u64; N] {
        &self.counts
    }

    /// The sum of all counts.
    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Adds another distribution's counts.
    pub fn merge(&mut self, other: &Self) {
        for (a, b) in self.counts.iter_mut().zip(other.counts.iter()) {
            *a += *b;
        }
    }

    /// Forgets every count.
    pub fn clear(&mut self) {
        self.counts = [0; N];
    }

    /// fio's percentages: `count / total · 100`, a non-zero share below `floor` raised to
    /// `floor` (0.1 for depths, submit and complete, 0.01 for latencies); all 0 when
    /// `total` is 0.
    pub fn percentages(&self, total: u64, floor: f64) -> [f64; N] {
        let mut out = [0.0; N];
        if total == 0 {
            return out;
        }
        for (o, &c) in out.iter_mut().zip(self.counts.iter()) {
            *o = c as f64 / total as f64 * 100.0;
            if c > 0 && *o < floor {
                *o = floor;
            }
        }
        out
    }
}

impl<const N: usize> serde::Serialize for Buckets<N> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.counts.as_slice().serialize(s)
    }
}

impl<'de, const N: usize> serde::Deserialize<'de> for Buckets<N> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let counts = Vec::<u64>::deserialize(d)?;
        let counts = <[u64; N]>::try_from(counts).map_err(|v| {
            serde::de::Error::custom(format!("{} buckets where {N} were expected", v.len()))
        })?;
        Ok(Buckets { counts })
    }
}

/// Display floor of the depth, submit and complete percentages.
pub const MAP_FLOOR: f64 = 0.1;
/// Display floor of the latency bucket percentages.
pub const LAT_FLOOR: f64 = 0.01;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latency_edges_are_exclusive_upper_bounds() {
        let cases = [
            (0, 0),
            (1, 0),
            (2, 1),
            (999, 9),
            (1_000, 10),
            (1_999, 10),
            (3_999, 11),
            (4_000, 12),
            (4_500, 12),
            (9_999, 12),
            (249_999, 16),
            (250_000, 17),
            (999_999, 19),
            (1_000_000, 20),
            (1_999_999, 20),
            (2_000_000, 21),
            (999_999_999, 29),
            (1_000_000_000, 30),
            (1_999_999_999, 30),
            (2_000_000_000, 31),
            (u64::MAX, 31),
        ];
        for (ns, idx) in cases {
            assert_eq!(latency_bucket(ns), idx, "{ns} ns");
        }
    }

    #[test]
    fn the_row_table_is_the_first_edge_above() {
        for v in 0..1000u64 {
            let scan = LAT_EDGES.iter().position(|&e| v < e).unwrap();
            assert_eq!(usize::from(ROW[v as usize]), scan, "{v}");
        }
        // Every power of ten's edges, in each row.
        for (base, scale) in [(0, 1), (10, 1_000), (20, 1_000_000)] {
            for (i, &e) in LAT_EDGES.iter().enumerate() {
                assert_eq!(latency_bucket(e * scale - 1), base + i, "{e} x {scale} - 1");
            }
        }
    }

    #[test]
    fn depth_entries_cover_up_to_the_next_power_of_two() {
        let cases = [
            (0, 0),
            (1, 0),
            (2, 1),
            (3, 1),
            (4, 2),
            (7, 2),
            (8, 3),
            (31, 4),
            (32, 5),
            (63, 5),
            (64, 6),
            (1024, 6),
        ];
        for (d, idx) in cases {
            assert_eq!(depth_bucket(d), idx, "depth {d}");
        }
    }

    #[test]
    fn batch_entries_cover_down_to_the_previous_entry() {
        let cases = [
            (0, 0),
            (1, 1),
            (4, 1),
            (5, 2),
            (8, 2),
            (9, 3),
            (16, 3),
            (17, 4),
            (33, 5),
            (64, 5),
            (65, 6),
        ];
        for (n, idx) in cases {
            assert_eq!(batch_bucket(n), idx, "batch {n}");
        }
    }

    #[test]
    fn small_shares_are_raised_to_the_floor() {
        let mut b = Buckets::<MAP_BUCKETS>::new();
        b.add(0, 1);
        b.add(2, 99_999);
        let p = b.percentages(b.total(), MAP_FLOOR);
        assert_eq!(p[0], 0.1);
        assert_eq!(p[1], 0.0);
        assert!((p[2] - 99.999).abs() < 1e-9);
        assert_eq!(Buckets::<3>::new().percentages(0, MAP_FLOOR), [0.0; 3]);
    }

    #[test]
    fn merge_adds_counts() {
        let (mut a, mut b) = (Buckets::<LAT_BUCKETS>::new(), Buckets::<LAT_BUCKETS>::new());
        a.add(latency_bucket(3_000), 2);
        b.add(latency_bucket(3_000), 1);
        b.add(latency_bucket(5), 4);
        a.merge(&b);
        assert_eq!((a.counts()[11], a.counts()[2], a.total()), (3, 4, 7));
    }
}
