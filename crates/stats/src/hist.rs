//! [`LatHistogram`]: the latency histogram behind every percentile and every json+ bin.
//!
//! The I/O path records one value per completed I/O, so recording is a few shifts and one
//! addition into memory allocated once, when the histogram is made. Reduction (percentiles,
//! bins) and merging happen after the run and may take their time.
//!
//! The histogram keeps bucket counts only. The exact smallest and largest values, which
//! the end buckets report, are kept beside it by its owner (a
//! [`LatRecorder`](crate::recorder::LatRecorder)'s [`SumMoments`](crate::sums::SumMoments)
//! already tracks them for the min/max lines) and passed in when reading, so the I/O path
//! does not track them twice.

use std::ops::RangeInclusive;

/// Sub-buckets per power of two, as a power of two: 2^9 = 512.
const SUB_BITS: u32 = 9;
/// Values below this (1024 ns) have a bucket each and are recorded exactly.
const EXACT_LIMIT: u64 = 2 << SUB_BITS;
/// Values up to `2^RANGE_BITS - 1` are inside the range.
const RANGE_BITS: u32 = 42;
/// Buckets inside the range: 1024 exact ones, then 512 per power of two from 2^10 to 2^41.
const IN_RANGE: usize =
    EXACT_LIMIT as usize + ((RANGE_BITS - SUB_BITS - 1) as usize) * (1 << SUB_BITS);
/// The index of the overflow bucket.
const OVERFLOW: usize = IN_RANGE;

/// A log-linear histogram of latencies in nanoseconds, HdrHistogram-like.
///
/// # Layout
///
/// - Values `0..1024` ns have one bucket each: exact.
/// - From 1024 ns on, each power of two `[2^e, 2^(e+1))` (e = 10..=41) is split into 512
///   equal sub-buckets of width `2^(e-9)`.
/// - Values of `2^42` ns (about 73.3 minutes, more than the required hour) and above go to
///   one overflow bucket. They are counted in [`count`](Self::count), never lost, and
///   [`overflow_count`](Self::overflow_count) says how many there are. Their representative
///   value is the largest value recorded, so a percentile that falls there reports the true
///   maximum; any other overflowed value has no error bound.
///
/// [`count`](Self::count) adds the buckets up: it is for reading after the run.
///
/// That is [`BUCKETS`](Self::BUCKETS) = 1024 + 32 × 512 + 1 = 17 409 buckets of `u64`:
/// **139 272 bytes** per histogram, allocated once in [`new`](Self::new). fio keeps 1 856
/// buckets for each of 3 latency kinds × 3 directions plus one for syncs, 148 480 bytes per
/// job whether they are used or not; iomark makes only the histograms a job needs (by
/// default one clat histogram per direction the job performs).
///
/// # Error bound
///
/// Every value this histogram reports (a percentile or a bin value) lies in the same bucket
/// as the value it stands for: the bucket's midpoint `low + width/2`, except that a
/// percentile falling in the bucket of the smallest (largest) recorded value reports that
/// exact value (given as `recorded` to [`percentiles`](Self::percentiles)), so the 0th and
/// 100th percentiles are exact. Below 1024 ns buckets have width 1 and the error is 0. In
/// `[2^e, 2^(e+1))` a bucket is `[low, low + 2^(e-9))` with `low >= 2^e`, so for a true
/// value `v` in it
///
/// ```text
/// |reported - v| <= width / 2 = 2^(e-10)    and    v >= 2^e
/// |reported - v| / v <= 2^(e-10) / 2^e = 1/1024 ≈ 0.098 %
/// ```
///
/// which is below the 0.1 % iomark promises (fio: 1/128 ≈ 0.78 %, with 64 sub-buckets and
/// its own midpoints). The test `percentiles_are_within_the_bound` checks it against exact
/// sorted values.
///
/// # Bins, and why they merge exactly
///
/// A bin's value ([`bins`](Self::bins), json+ `bins`) is a function of its bucket alone:
/// the midpoint, or [`OVERFLOW_VALUE`](Self::OVERFLOW_VALUE) for the overflow bucket. It
/// never depends on what else was recorded, so any two histograms name a bucket alike, and
/// the bins of a sum of histograms (a group, a priority class's share of a direction, the
/// `mixed` direction) are the bins of the parts added key by key. fio 3.33's bin values
/// are its buckets' own values too.
///
/// # Percentiles
///
/// [`percentile`](Self::percentile) uses fio's rank rule: the value reported for `p` is the
/// one at which the cumulative count first reaches `p/100 · N`, that is the value of rank
/// `ceil(p/100 · N)` (at least 1) in sorted order. fio 3.33 compares `sum >= p/100·N`
/// bucket by bucket; runs with N = 100 confirmed it (a strict `>` disagreed with 5 of 19
/// percentiles). iomark computes the rank so that a percentage written in decimal, such as
/// 99.99, is not pushed to the next rank by binary rounding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LatHistogram {
    counts: Box<[u64]>,
}

impl Default for LatHistogram {
    fn default() -> Self {
        Self::new()
    }
}

impl LatHistogram {
    /// The number of buckets, the overflow bucket included.
    pub const BUCKETS: usize = IN_RANGE + 1;
    /// The largest value inside the range (2^42 − 1 ns, about 73.3 minutes).
    pub const MAX_TRACKABLE: u64 = (1 << RANGE_BITS) - 1;
    /// Heap bytes one histogram holds.
    pub const HEAP_BYTES: usize = Self::BUCKETS * std::mem::size_of::<u64>();
    /// The value of the overflow bucket's bin: 2^42 ns, the smallest value it holds
    /// (values past [`MAX_TRACKABLE`](Self::MAX_TRACKABLE) have no error bound).
    pub const OVERFLOW_VALUE: u64 = Self::MAX_TRACKABLE + 1;

    /// An empty histogram; the only allocation it ever makes.
    pub fn new() -> Self {
        LatHistogram { counts: vec![0; Self::BUCKETS].into_boxed_slice() }
    }

    /// Records one value, in nanoseconds. Never allocates.
    #[inline]
    pub fn record(&mut self, ns: u64) {
        self.counts[index_of(ns)] += 1;
    }

    /// Records `count` occurrences of one value. A count of 0 changes nothing.
    #[inline]
    pub fn record_n(&mut self, ns: u64, count: u64) {
        self.counts[index_of(ns)] += count;
    }

    /// Adds every count of `other` into this histogram. The result is exactly what
    /// recording both histograms' values into one would have given.
    pub fn merge(&mut self, other: &LatHistogram) {
        for (mine, theirs) in self.counts.iter_mut().zip(other.counts.iter()) {
            *mine += *theirs;
        }
    }

    /// Makes this histogram `whole` less every histogram of `parts`, bucket by bucket, in
    /// the memory it already holds: what is left of `whole` once the parts are taken out,
    /// so that the parts and this histogram add up to `whole` exactly. Each part must be
    /// a share of `whole` (its values recorded there too); a bucket a part would take below
    /// zero is left at zero and [`Err`] says the parts were no shares.
    pub fn set_remainder<'a>(
        &mut self,
        whole: &LatHistogram,
        parts: impl IntoIterator<Item = &'a LatHistogram>,
    ) -> Result<(), NotAShare> {
        self.counts.copy_from_slice(&whole.counts);
        let mut fits = true;
        for part in parts {
            for (left, taken) in self.counts.iter_mut().zip(part.counts.iter()) {
                fits &= *taken <= *left;
                *left = left.saturating_sub(*taken);
            }
        }
        if fits {
            Ok(())
        } else {
            Err(NotAShare)
        }
    }

    /// Values recorded, overflowed ones included (a sum over the buckets).
    pub fn count(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Values recorded above [`MAX_TRACKABLE`](Self::MAX_TRACKABLE).
    pub fn overflow_count(&self) -> u64 {
        self.counts[OVERFLOW]
    }

    /// The value at percentile `p` (0–100) by fio's rank rule (see the type's doc), within
    /// 0.1 % of the exact value; `recorded` is the smallest and largest value recorded. 0
    /// for an empty histogram, as fio prints. `p` is clamped to `[0, 100]` (NaN counts as
    /// 0); `p = 0` gives the smallest value, `p = 100` the largest, both exact.
    pub fn percentile(&self, p: f64, recorded: RangeInclusive<u64>) -> u64 {
        self.percentiles(&[p], recorded)[0]
    }

    /// The values at several percentiles, in the order given, in one pass per call;
    /// `recorded` is the smallest and largest value recorded.
    pub fn percentiles(&self, ps: &[f64], recorded: RangeInclusive<u64>) -> Vec<u64> {
        let mut order: Vec<usize> = (0..ps.len()).collect();
        order.sort_by(|&a, &b| ps[a].total_cmp(&ps[b]));
        let mut out = vec![0; ps.len()];
        let total = self.count();
        if total == 0 {
            return out;
        }
        let mut cumulative = 0u64;
        let mut buckets = self.counts.iter().enumerate();
        let mut current: Option<usize> = None;
        for i in order {
            let rank = rank_for(ps[i], total);
            while cumulative < rank {
                match buckets.next() {
                    Some((idx, &c)) => {
                        cumulative += c;
                        current = Some(idx);
                    }
                    None => break,
                }
            }
            out[i] = current.map_or(*recorded.end(), |idx| representative(idx, &recorded));
        }
        out
    }

    /// The non-empty buckets as `(bin value, count)`, in increasing value (json+
    /// `bins`). A bin's value is its bucket's alone (see "Bins" in the type's doc) and
    /// obeys the same 0.1 % bound as percentiles, the overflow bucket's excepted.
    pub fn bins(&self) -> Bins<'_> {
        Bins { hist: self, next: 0 }
    }

    /// The index of the bucket that holds `ns`: two values with the same index are
    /// indistinguishable to the histogram (a bin's value from [`bins`](Self::bins) falls in
    /// the bucket it stands for, so this maps a json+ bin back to its bucket).
    pub fn bucket_of(ns: u64) -> usize {
        index_of(ns)
    }

    /// Forgets every value; keeps the allocation.
    pub fn clear(&mut self) {
        self.counts.fill(0);
    }
}

/// A part given to [`LatHistogram::set_remainder`] held more in some bucket than the whole.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("a histogram taken out of another held values the other did not")]
pub struct NotAShare;

/// The value a percentile reports for bucket `idx`: the exact maximum in the bucket
/// holding the largest value (and the overflow bucket), the exact minimum in the bucket
/// holding the smallest, the bin value elsewhere. All three lie in the bucket, so the
/// bound holds.
fn representative(idx: usize, recorded: &RangeInclusive<u64>) -> u64 {
    if idx == index_of(*recorded.end()) {
        return *recorded.end();
    }
    if idx == index_of(*recorded.start()) {
        return *recorded.start();
    }
    bin_value(idx)
}

/// The value of bucket `idx`'s bin: its midpoint (the value itself below 1024 ns), or
/// [`LatHistogram::OVERFLOW_VALUE`]. A function of the bucket alone.
fn bin_value(idx: usize) -> u64 {
    if idx == OVERFLOW {
        return LatHistogram::OVERFLOW_VALUE;
    }
    let (low, width) = bucket_bounds(idx);
    low + width / 2
}

/// Iterator over a histogram's non-empty buckets; see [`LatHistogram::bins`].
#[derive(Debug, Clone)]
pub struct Bins<'a> {
    hist: &'a LatHistogram,
    next: usize,
}

impl Iterator for Bins<'_> {
    type Item = (u64, u64);

    fn next(&mut self) -> Option<(u64, u64)> {
        while self.next < LatHistogram::BUCKETS {
            let idx = self.next;
            self.next += 1;
            let c = self.hist.counts[idx];
            if c > 0 {
                return Some((bin_value(idx), c));
            }
        }
        None
    }
}

/// The bucket of a value. Below 1024 the value itself; above, with `e` the position of the
/// highest set bit and `shift = e - 9`, the top ten bits `v >> shift` lie in `512..1024`,
/// so `(shift << 9) + (v >> shift)` numbers the buckets of every power of two in turn.
#[inline]
fn index_of(ns: u64) -> usize {
    if ns < EXACT_LIMIT {
        return ns as usize;
    }
    if ns > LatHistogram::MAX_TRACKABLE {
        return OVERFLOW;
    }
    let e = 63 - ns.leading_zeros();
    let shift = e - SUB_BITS;
    ((shift as usize) << SUB_BITS) + (ns >> shift) as usize
}

/// `(lowest value, width)` of an in-range bucket; the inverse of [`index_of`].
fn bucket_bounds(idx: usize) -> (u64, u64) {
    if idx < EXACT_LIMIT as usize {
        return (idx as u64, 1);
    }
    let shift = (idx >> SUB_BITS) as u32 - 1;
    let top = (idx - ((shift as usize) << SUB_BITS)) as u64;
    (top << shift, 1 << shift)
}

/// fio's rank for percentile `p` of `n` values: `ceil(p/100 · n)`, clamped to `1..=n`.
/// A product within 1e-9 (relative) of a whole number is taken as that number, so that
/// decimal percentages such as 99.99 are not pushed up a rank by binary rounding.
pub(crate) fn rank_for(p: f64, n: u64) -> u64 {
    let p = if p.is_nan() { 0.0 } else { p.clamp(0.0, 100.0) };
    let x = p * n as f64 / 100.0;
    let nearest = x.round();
    let rank = if (x - nearest).abs() <= 1e-9 * x.max(1.0) { nearest } else { x.ceil() };
    (rank as u64).clamp(1, n)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// fio's default percentile list, plus 0.1 and 100.
    const CHECKED: [f64; 19] = [
        0.1, 1.0, 5.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0, 95.0, 99.0, 99.5,
        99.9, 99.95, 99.99, 100.0,
    ];

    /// splitmix64: a small deterministic generator, enough for test data.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        }
        /// Uniform in (0, 1].
        fn unit(&mut self) -> f64 {
            ((self.next() >> 11) + 1) as f64 / (1u64 << 53) as f64
        }
    }

    fn distributions() -> Vec<(&'static str, Vec<u64>)> {
        let mut rng = Rng(42);
        let n = 200_000;
        let uniform = (0..n).map(|_| rng.next() % 10_000_000).collect();
        let exponential = (0..n).map(|_| (-rng.unit().ln() * 50_000.0) as u64).collect();
        // Pareto with alpha 1.1 from 2 µs: a heavy tail reaching far into seconds.
        let heavy = (0..n)
            .map(|_| ((2_000.0 / rng.unit().powf(1.0 / 1.1)) as u64).min(3_600_000_000_000))
            .collect();
        let mut edges = Vec::new();
        for e in 0..42u32 {
            let p = 1u64 << e;
            for v in [p.saturating_sub(1), p, p + 1, p + p / 2] {
                edges.extend(std::iter::repeat_n(v, 1 + (e as usize % 3)));
            }
        }
        let extremes = vec![1, 1, 1, 3_600_000_000_000, 3_600_000_000_000];
        let mut mixed: Vec<u64> = Vec::new();
        for v in [&uniform, &exponential, &heavy, &edges, &extremes] {
            mixed.extend(v.iter().take(20_000));
        }
        vec![
            ("uniform", uniform),
            ("exponential", exponential),
            ("heavy-tailed", heavy),
            ("power-of-two edges", edges),
            ("1 ns and 1 hour", extremes),
            ("mixed", mixed),
        ]
    }

    #[test]
    fn percentiles_are_within_the_bound() {
        for (name, values) in distributions() {
            let mut h = LatHistogram::new();
            for &v in &values {
                h.record(v);
            }
            let mut sorted = values.clone();
            sorted.sort_unstable();
            let recorded = sorted[0]..=*sorted.last().unwrap();
            let all = h.percentiles(&CHECKED, recorded.clone());
            for (i, &p) in CHECKED.iter().enumerate() {
                let exact = sorted[rank_for(p, sorted.len() as u64) as usize - 1];
                let got = h.percentile(p, recorded.clone());
                assert_eq!(got, all[i], "{name}: percentile({p}) and percentiles() differ");
                let err = got.abs_diff(exact) as f64 / (exact.max(1)) as f64;
                assert!(
                    err <= 0.001 && (exact > 0 || got == 0),
                    "{name}: p{p}: got {got}, exact {exact}, error {err}"
                );
            }
            assert_eq!(h.percentile(100.0, recorded.clone()), *sorted.last().unwrap());
            assert_eq!(h.percentile(0.0, recorded), sorted[0]);
        }
    }

    #[test]
    fn every_value_falls_in_a_bucket_that_contains_it() {
        let mut probes: Vec<u64> = (0..5000).collect();
        for e in 10..42u32 {
            let p = 1u64 << e;
            probes.extend([p - 1, p, p + 1, p + (p >> 9) - 1, p + (p >> 9), 2 * p - 1]);
        }
        let mut last_idx = 0;
        probes.sort_unstable();
        for v in probes {
            let idx = index_of(v);
            assert!(idx >= last_idx, "index not monotonic at {v}");
            last_idx = idx;
            let (low, width) = bucket_bounds(idx);
            assert!(low <= v && v < low + width, "{v} outside bucket {idx} [{low}, +{width})");
            let mid = low + width / 2;
            assert!(mid.abs_diff(v) as f64 <= 0.001 * v.max(1) as f64, "bin error at {v}");
        }
        assert_eq!(index_of(LatHistogram::MAX_TRACKABLE), OVERFLOW - 1);
    }

    #[test]
    fn values_beyond_the_range_are_counted_in_overflow() {
        let mut h = LatHistogram::new();
        h.record(10);
        h.record(LatHistogram::MAX_TRACKABLE + 1);
        h.record(u64::MAX);
        assert_eq!(h.count(), 3);
        assert_eq!(h.overflow_count(), 2);
        assert_eq!(h.percentile(100.0, 10..=u64::MAX), u64::MAX);
        assert_eq!(h.percentile(10.0, 10..=u64::MAX), 10);
    }

    #[test]
    fn merging_equals_recording_into_one() {
        let dists = distributions();
        let (a, b) = (&dists[1].1, &dists[2].1);
        let (mut ha, mut hb, mut both) =
            (LatHistogram::new(), LatHistogram::new(), LatHistogram::new());
        for &v in a {
            ha.record(v);
            both.record(v);
        }
        for &v in b {
            hb.record(v);
            both.record(v);
        }
        ha.merge(&hb);
        assert_eq!(ha, both);
        let recorded = 0..=u64::MAX;
        assert_eq!(
            ha.percentiles(&CHECKED, recorded.clone()),
            both.percentiles(&CHECKED, recorded)
        );
    }

    #[test]
    fn record_n_equals_repeated_record() {
        let (mut a, mut b) = (LatHistogram::new(), LatHistogram::new());
        a.record_n(123_456, 5);
        a.record_n(7, 0);
        for _ in 0..5 {
            b.record(123_456);
        }
        assert_eq!(a, b);
    }

    #[test]
    fn bins_list_non_empty_buckets_in_order() {
        let mut h = LatHistogram::new();
        for v in [5, 5, 1_000_000, 1_010_000, 2_000] {
            h.record(v);
        }
        h.record(LatHistogram::MAX_TRACKABLE + 7);
        let bins: Vec<_> = h.bins().collect();
        assert_eq!(bins.len(), 5, "{bins:?}");
        assert_eq!(bins[0], (5, 2));
        assert!(bins.windows(2).all(|w| w[0].0 < w[1].0));
        assert_eq!(bins.iter().map(|b| b.1).sum::<u64>(), 6);
        // Every bin is named by its bucket's midpoint, the overflow bucket by its floor,
        // whatever the smallest and largest values recorded.
        assert_eq!((bins[1].0, bins[3].0), (2_001, 1_010_176));
        assert_eq!(bins[4], (LatHistogram::OVERFLOW_VALUE, 1));
        // The percentiles at the ends still report the exact extremes.
        assert_eq!(h.percentile(0.0, 5..=1_010_000), 5);
    }

    #[test]
    fn bins_of_a_sum_are_the_sums_of_the_bins() {
        let dists = distributions();
        let mut whole = LatHistogram::new();
        let mut parts = [LatHistogram::new(), LatHistogram::new(), LatHistogram::new()];
        for (i, &v) in dists[5].1.iter().enumerate() {
            whole.record(v);
            parts[i % 3].record(v);
        }
        let mut added = std::collections::BTreeMap::new();
        for part in &parts {
            for (value, count) in part.bins() {
                *added.entry(value).or_insert(0) += count;
            }
        }
        assert_eq!(whole.bins().collect::<Vec<_>>(), added.into_iter().collect::<Vec<_>>());
        // What is left of the whole once two parts are taken out is the third.
        let mut rest = LatHistogram::new();
        assert_eq!(rest.set_remainder(&whole, &parts[..2]), Ok(()));
        assert_eq!(rest, parts[2]);
        assert_eq!(rest.set_remainder(&parts[0], [&whole]), Err(NotAShare));
    }

    #[test]
    fn empty_and_cleared_histograms_report_zero() {
        let mut h = LatHistogram::new();
        assert_eq!(h.percentile(50.0, 0..=0), 0);
        assert_eq!(h.count(), 0);
        h.record(77);
        h.clear();
        assert_eq!((h.count(), h.percentile(99.0, 77..=77), h.bins().count()), (0, 0, 0));
    }

    #[test]
    fn rank_rule_is_fios_ceiling() {
        assert_eq!(rank_for(50.0, 100), 50);
        assert_eq!(rank_for(50.5, 100), 51);
        assert_eq!(rank_for(99.99, 10_000), 9_999);
        assert_eq!(rank_for(99.9, 1_000), 999);
        assert_eq!(rank_for(0.1, 5), 1);
        assert_eq!(rank_for(100.0, 7), 7);
        assert_eq!(rank_for(f64::NAN, 7), 1);
    }

    #[test]
    fn size_is_as_documented() {
        assert_eq!(LatHistogram::BUCKETS, 17_409);
        assert_eq!(LatHistogram::HEAP_BYTES, 139_272);
        const { assert!(LatHistogram::MAX_TRACKABLE >= 3_600_000_000_000) };
    }
}
