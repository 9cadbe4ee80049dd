//! The laws of the rank samplers and the pickers, with fixed seeds and stated tolerances.

use super::*;

/// Hits per value of `draws` draws of `dist` over `n` values.
fn value_hits(dist: &Distribution, n: u64, draws: u64, seed: u64) -> Vec<u64> {
    let s = RankSampler::new(dist, n).unwrap();
    let mut rng = FioRng::new(seed, false);
    let mut hits = vec![0u64; n as usize];
    for _ in 0..draws {
        hits[s.rank(&mut rng) as usize] += 1;
    }
    hits
}

/// The share of all hits that the values below `top` took.
fn top_share(hits: &[u64], top: usize) -> f64 {
    hits[..top].iter().sum::<u64>() as f64 / hits.iter().sum::<u64>() as f64
}

#[test]
fn zipf_top_shares_follow_the_law() {
    // Share of the top k values = H(k, θ) / H(n, θ), which Gray's generator follows
    // within 0.02 (it is exact for the first two values only); 400k draws.
    let n = 10_000u64;
    for theta in [0.8, 1.2] {
        let h = |k: u64| (1..=k).map(|i| (i as f64).powf(-theta)).sum::<f64>();
        let hits = value_hits(&Distribution::Zipf { theta, center: None }, n, 400_000, 1);
        for k in [1, 2] {
            let want = h(k) / h(n);
            let got = top_share(&hits, k as usize);
            assert!((got - want).abs() < 0.005, "zipf:{theta} top {k}: {got} vs {want}");
        }
        for pct in [1, 5, 10, 50] {
            let k = n * pct / 100;
            let want = h(k) / h(n);
            let got = top_share(&hits, k as usize);
            assert!((got - want).abs() < 0.02, "zipf:{theta} top {pct}%: {got} vs {want}");
        }
    }
}

#[test]
fn pareto_top_shares_follow_the_law() {
    // (n-1)·u^(ln h / ln(1-h)): P(value < k) = (k/(n-1))^(ln(1-h) / ln h).
    let n = 10_000u64;
    for h in [0.2, 0.5] {
        let hits = value_hits(&Distribution::Pareto { power: h, center: None }, n, 400_000, 2);
        for pct in [1, 10, 50] {
            let k = n * pct / 100;
            let want = (k as f64 / (n - 1) as f64).powf((1.0 - h).ln() / h.ln());
            let got = top_share(&hits, k as usize);
            assert!((got - want).abs() < 0.01, "pareto:{h} top {pct}%: {got} vs {want}");
        }
    }
}

/// P(|G + U| < a) for G normal with deviation `sigma` and U uniform over `-w/2..w/2`, by
/// the midpoint rule.
fn bell_mass(a: f64, sigma: f64, w: f64) -> f64 {
    let pdf = |x: f64| (-x * x / (2.0 * sigma * sigma)).exp() / (sigma * (2.0 * PI).sqrt());
    let steps = 2000;
    let gauss = |lo: f64, hi: f64| {
        let dx = (hi - lo) / steps as f64;
        (0..steps).map(|i| pdf(lo + (i as f64 + 0.5) * dx) * dx).sum::<f64>()
    };
    if w == 0.0 {
        return gauss(-a, a);
    }
    let us = 200;
    (0..us)
        .map(|j| {
            let u = -w / 2.0 + (j as f64 + 0.5) * w / us as f64;
            gauss(-a - u, a - u)
        })
        .sum::<f64>()
        / us as f64
}

use std::f64::consts::PI;

#[test]
fn normal_shares_follow_the_bell_with_its_spread() {
    // The mean of twelve uniform draws has deviation n/12; the spread adds a uniform
    // width of min(dev, 50)% of n (Irwin–Hall differs from the Gaussian by < 0.003 here).
    let n = 12_000u64;
    for dev in [0.0, 30.0, 90.0] {
        let hits =
            value_hits(&Distribution::Normal { deviation: dev, center: None }, n, 400_000, 3);
        let w = dev.min(50.0) / 100.0 * n as f64;
        let mid = n as usize / 2;
        for a in [500usize, 1000, 2000] {
            let want = bell_mass(a as f64, n as f64 / 12.0, w);
            let got = hits[mid - a..mid + a].iter().sum::<u64>() as f64 / 400_000.0;
            assert!((got - want).abs() < 0.015, "normal:{dev} within {a}: {got} vs {want}");
        }
    }
}

/// How often each position was picked in `draws` draws of a picker over `n` positions
/// (and as many values), with a file state seeded `seed`.
fn picks(dist: &Distribution, n: u64, draws: u64, seed: u64) -> Vec<u64> {
    let state = FileState::new(seed, std::iter::once(dist));
    let p = Picker::new(dist, (n, n), 4096, &state).unwrap();
    let mut skew = state.rng.clone();
    let (mut offsets, mut zone) = (FioRng::new(5, false), FioRng::new(6, false));
    let mut d = Draws { offsets: &mut offsets, zone: &mut zone };
    let mut hits = vec![0u64; n as usize];
    for _ in 0..draws {
        hits[p.position(&mut d, &mut skew).unwrap() as usize] += 1;
    }
    hits
}

#[test]
fn center_places_the_hottest_position_and_the_rest_spread() {
    let n = 4096;
    for dist in [
        Distribution::Zipf { theta: 1.2, center: Some(0.25) },
        Distribution::Pareto { power: 0.3, center: Some(0.25) },
    ] {
        let hits = picks(&dist, n, 1_000_000, 1);
        let max = *hits.iter().max().unwrap();
        assert_eq!(hits[1024], max, "{dist:?}");
        // The next hottest blocks are not packed next to it: the 32 hottest fall in at
        // least 10 of the 16 sixteenths of the file.
        let mut order: Vec<usize> = (0..n as usize).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(hits[i]));
        let mut parts = [false; 16];
        for &i in &order[..32] {
            parts[i * 16 / n as usize] = true;
        }
        assert!(parts.iter().filter(|&&x| x).count() >= 10, "{dist:?}: {parts:?}");
    }
    // Without a center, zipf's hottest position is the state's first draw (mod n): it
    // moves with the seed.
    let dist = Distribution::Zipf { theta: 1.2, center: None };
    let hottest = |seed| {
        let hits = picks(&dist, n, 20_000, seed);
        (0..n as usize).max_by_key(|&i| hits[i]).unwrap() as u64
    };
    assert_eq!(hottest(1), FioRng::new(1, false).next_raw() % n);
    assert_ne!(hottest(1), hottest(2));
}

#[test]
fn zoned_shares_land_in_their_zones() {
    // 60% of the I/Os in the first 10%, 30% in the next 20%, 10% in the last 70%; each
    // share within 0.01, and nothing outside its zone.
    let n = 10_000u64;
    let zones = vec![
        Zone { access: 60, percent: 10.0 },
        Zone { access: 30, percent: 20.0 },
        Zone { access: 10, percent: 70.0 },
    ];
    let hits = picks(&Distribution::Zoned(zones), n, 300_000, 1);
    let share = |lo: usize, hi: usize| hits[lo..hi].iter().sum::<u64>() as f64 / 300_000.0;
    for (lo, hi, want) in [(0, 1000, 0.6), (1000, 3000, 0.3), (3000, 10_000, 0.1)] {
        let got = share(lo, hi);
        assert!((got - want).abs() < 0.01, "zone {lo}..{hi}: {got} vs {want}");
    }
    // Uniform inside a zone: every position of the first zone was hit about 180 times.
    assert!(hits[..1000].iter().all(|&h| (110..260).contains(&h)));
}

#[test]
fn zoned_abs_zones_are_bytes_and_may_leave_the_tail_alone() {
    let n = 8192u64; // 32 MiB of 4 KiB positions
    let zones =
        vec![AbsZone { access: 50, bytes: 1 << 20 }, AbsZone { access: 50, bytes: 3 << 20 }];
    let hits = picks(&Distribution::ZonedAbs(zones), n, 100_000, 1);
    let first = hits[..256].iter().sum::<u64>() as f64 / 100_000.0;
    assert!((first - 0.5).abs() < 0.01, "{first}");
    assert_eq!(hits[1024..].iter().sum::<u64>(), 0, "nothing past the zones");
}

#[test]
fn an_empty_zone_with_a_share_hits_one_position() {
    // fio 3.33: zoned:100/0:0/100 issues every I/O at one block.
    let zones = vec![Zone { access: 100, percent: 0.0 }, Zone { access: 0, percent: 100.0 }];
    let hits = picks(&Distribution::Zoned(zones), 100, 1000, 1);
    assert_eq!(hits[0], 1000);
}
