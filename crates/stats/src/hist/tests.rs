//! Tests of [`LatHistogram`]: the error bound against exact sorted values, the layout,
//! merging, bins, and what an empty or sparse histogram holds.

use super::*;

/// fio's default percentile list, plus 0.1 and 100.
const CHECKED: [f64; 19] = [
    0.1, 1.0, 5.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0, 95.0, 99.0, 99.5, 99.9,
    99.95, 99.99, 100.0,
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
    assert_eq!(ha.percentiles(&CHECKED, recorded.clone()), both.percentiles(&CHECKED, recorded));
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
    assert_eq!((LatHistogram::CHUNK_BYTES, LatHistogram::TABLE_BYTES), (1_024, 1_096));
    assert_eq!(LatHistogram::FULL_HEAP_BYTES, 1_096 + 137 * 1_024);
    const { assert!(LatHistogram::MAX_TRACKABLE >= 3_600_000_000_000) };
}

#[test]
fn memory_grows_with_the_ranges_used() {
    let mut h = LatHistogram::new();
    assert_eq!(h.heap_bytes(), 0);
    // 100 values in one chunk: from 8192 ns on buckets are 16 ns wide, a chunk 2048 ns.
    for v in 10_000..10_100 {
        h.record(v);
    }
    let one = LatHistogram::TABLE_BYTES + LatHistogram::CHUNK_BYTES;
    assert_eq!(h.heap_bytes(), one);
    h.record(5);
    h.record(LatHistogram::MAX_TRACKABLE + 1);
    assert_eq!(h.heap_bytes(), one + 2 * LatHistogram::CHUNK_BYTES);
    assert_eq!((h.count(), h.overflow_count()), (102, 1));
    // Every bucket used: every chunk.
    let mut full = LatHistogram::new();
    for idx in 0..LatHistogram::BUCKETS {
        full.record(bin_value(idx));
    }
    assert_eq!(full.heap_bytes(), LatHistogram::FULL_HEAP_BYTES);
    assert_eq!(full.bins().count(), LatHistogram::BUCKETS);
}

#[test]
fn equality_and_merge_ignore_which_chunks_are_allocated() {
    let (mut a, b) = (LatHistogram::new(), LatHistogram::new());
    a.record(1_000_000);
    a.clear();
    // A cleared histogram keeps its chunk, and equals one that never had it.
    assert_eq!((a.heap_bytes() > 0, &a), (true, &b));
    let mut c = LatHistogram::new();
    c.merge(&a);
    assert_eq!(c.heap_bytes(), 0, "merging empty chunks allocates nothing");
    a.record(7);
    a.record(3_000_000);
    c.merge(&a);
    c.merge(&a);
    assert_eq!(c.bins().collect::<Vec<_>>(), [(7, 2), (bin_value(index_of(3_000_000)), 2)]);
    let mut rest = LatHistogram::new();
    assert_eq!(rest.set_remainder(&c, [&a]), Ok(()));
    assert_eq!(rest, a);
}
