//! The fitter on synthetic data from known parameters, with and without noise.

use super::*;

/// A small deterministic generator of normal deviates (splitmix64, Box–Muller).
struct Noise(u64);

impl Noise {
    fn uniform(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }

    fn normal(&mut self) -> f64 {
        let (u1, u2) = (self.uniform().max(1e-300), self.uniform());
        (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
    }
}

const DEPTHS: [f64; 9] = [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0];

/// The queue model's IOPS at `n` for `[Tissue, Tdelay, Tmove]` in microseconds.
fn queue(n: f64, p: [f64; 3]) -> f64 {
    1e6 * n / (n * p[0] + p[1] + n * (n - 1.0) / 2.0 * p[2])
}

/// Points of `truth` at `DEPTHS` with relative noise `rel` (as the spread of 5 repeats).
fn synthetic(truth: [f64; 3], rel: f64, seed: u64) -> Vec<Observation> {
    let mut noise = Noise(seed);
    DEPTHS
        .iter()
        .map(|&n| {
            let y = queue(n, truth);
            let se = y * rel;
            Observation { x: n, y: y + se * noise.normal(), se: Some(se) }
        })
        .collect()
}

#[test]
fn recovers_exact_parameters() {
    let truth = [5.0, 80.0, 0.02];
    let obs: Vec<Observation> =
        DEPTHS.iter().map(|&n| Observation { x: n, y: queue(n, truth), se: None }).collect();
    let f = fit(ModelKind::Queue, &obs, 0.95);
    assert!(f.fits(), "{f:?}");
    for (p, want) in f.params.iter().zip(truth) {
        assert!((p.value - want).abs() <= 1e-6 * want, "{p:?} vs {want}");
    }
    assert!(f.r2.unwrap() > 0.999_999);
    // sqrt(2·80/0.02) ≈ 89.4.
    let peak = f.peak.as_ref().unwrap();
    assert!((peak.value - (2.0f64 * 80.0 / 0.02).sqrt()).abs() < 1e-3, "{peak:?}");
}

#[test]
fn noisy_points_give_intervals_that_hold_the_truth() {
    let truth = [5.0, 80.0, 0.02];
    let (mut covered, trials) = ([0; 3], 200);
    for seed in 0..trials {
        let f = fit(ModelKind::Queue, &synthetic(truth, 0.02, seed), 0.95);
        assert!(f.fits(), "seed {seed}: {:?}", f.verdict);
        assert!(f.weighted);
        for (i, p) in f.params.iter().enumerate() {
            assert!(p.lo <= p.value && p.value <= p.hi);
            covered[i] += usize::from(p.lo <= truth[i] && truth[i] <= p.hi);
        }
    }
    // 95% intervals: each should hold the truth in about 190 of 200 trials.
    for c in covered {
        assert!((176..=200).contains(&c), "coverage {c}/200");
    }
}

#[test]
fn one_noisy_sweep_lands_near_the_truth() {
    let truth = [12.0, 100.0, 0.05];
    let f = fit(ModelKind::Queue, &synthetic(truth, 0.01, 7), 0.95);
    assert!(f.fits(), "{f:?}");
    for (p, want) in f.params.iter().zip(truth) {
        assert!((p.value - want).abs() < 0.2 * want, "{p:?} vs {want}");
        assert!(p.se > 0.0);
    }
}

#[test]
fn a_flat_series_is_all_issue_time() {
    // A synchronous engine: the same IOPS at every depth; all time is Tissue.
    let obs: Vec<Observation> =
        DEPTHS.iter().map(|&n| Observation { x: n, y: 50_000.0, se: None }).collect();
    let f = fit(ModelKind::Queue, &obs, 0.95);
    assert!(f.fits(), "{f:?}");
    let ti = &f.params[0];
    assert!((ti.value - 20.0).abs() < 1e-6, "{ti:?}");
    assert!(f.params[1].value.abs() < 1e-6 && f.params[2].value.abs() < 1e-6);
}

#[test]
fn a_shape_the_model_cannot_take_is_refused() {
    // IOPS that rise, fall and rise again, as no queue does.
    let ys = [10e3, 30e3, 12e3, 40e3, 14e3, 50e3, 16e3, 60e3, 18e3];
    let obs: Vec<Observation> =
        DEPTHS.iter().zip(ys).map(|(&x, y)| Observation { x, y, se: None }).collect();
    let f = fit(ModelKind::Queue, &obs, 0.95);
    assert!(matches!(f.verdict, Verdict::DoesNotFit(ref why) if why.contains("R²")), "{f:?}");
    assert!(f.params.is_empty() && f.curve.is_empty() && f.peak.is_none());
}

#[test]
fn structured_residuals_are_refused() {
    // A step, well fitted in R² but with long runs of residuals of one sign.
    let xs: Vec<f64> = (1..=16).map(f64::from).collect();
    let obs: Vec<Observation> = xs
        .iter()
        .map(|&x| Observation {
            x,
            y: if x <= 8.0 { 1000.0 * x } else { 8000.0 + 2.0 * x },
            se: None,
        })
        .collect();
    let f = fit(ModelKind::Queue, &obs, 0.95);
    assert!(!f.fits(), "{f:?}");
}

#[test]
fn too_few_points_are_said_so() {
    let obs: Vec<Observation> = DEPTHS[..3]
        .iter()
        .map(|&n| Observation { x: n, y: queue(n, [5.0, 80.0, 0.0]), se: None })
        .collect();
    let f = fit(ModelKind::Queue, &obs, 0.95);
    assert_eq!(
        f.verdict,
        Verdict::DoesNotFit("3 points: the model has 3 parameters and needs at least 4".into())
    );
}

#[test]
fn recovers_the_usl() {
    let (lambda, sigma, kappa) = (20_000.0, 0.05, 0.002);
    let usl = |n: f64| lambda * n / (1.0 + sigma * (n - 1.0) + kappa * n * (n - 1.0));
    let mut noise = Noise(3);
    let obs: Vec<Observation> = [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0]
        .iter()
        .map(|&n| {
            let se = usl(n) * 0.005;
            Observation { x: n, y: usl(n) + se * noise.normal(), se: Some(se) }
        })
        .collect();
    let f = fit(ModelKind::Usl, &obs, 0.95);
    assert!(f.fits(), "{f:?}");
    for (p, want) in f.params.iter().zip([lambda, sigma, kappa]) {
        assert!(p.lo <= want && want <= p.hi, "{p:?} vs {want}");
    }
}

#[test]
fn the_runs_test_counts_runs() {
    // + + + + - - - -: 2 runs of 8 signs; P(R <= 2) = 2 / C(8,4) = 2/70.
    let p = runs_p(&[1.0, 1.0, 1.0, 1.0, -1.0, -1.0, -1.0, -1.0]).unwrap();
    assert!((p - 2.0 / 70.0).abs() < 1e-12);
    // Alternating signs: as many runs as can be, p = 1.
    assert_eq!(runs_p(&[1.0, -1.0, 1.0, -1.0, 1.0, -1.0]), Some(1.0));
    assert_eq!(runs_p(&[1.0, 1.0, 1.0, 1.0]), None);
}

#[test]
fn the_knee_is_where_depth_stops_paying() {
    let pts = [
        (1.0, 10e3, 100.0),
        (2.0, 19e3, 105.0),
        (4.0, 35e3, 114.0),
        (8.0, 36e3, 222.0),
        (16.0, 36.5e3, 438.0),
    ];
    assert_eq!(knee(&pts, 0.05), Some(4.0));
    assert_eq!(knee(&pts[..3], 0.05), None);
}

#[test]
fn a_flat_noisy_series_fits_by_its_spread_though_r2_is_low() {
    // A synchronous engine measured with 3% noise: the same IOPS at every depth, so R² has
    // nothing to explain, but the points are within their spread of a flat curve.
    let truth = [20.0, 0.0, 0.0];
    let f = fit(ModelKind::Queue, &synthetic(truth, 0.03, 11), 0.95);
    assert!(f.r2.unwrap() < MIN_R2, "{f:?}");
    assert!(f.fits(), "{f:?}");
    assert!(f.chi2_p.unwrap() >= CHI2_ALPHA);
    let ti = &f.params[0];
    assert!(ti.lo <= 20.0 && 20.0 <= ti.hi, "{ti:?}");
}

#[test]
fn a_low_r2_beyond_the_spread_is_refused() {
    // The same points, claimed to be ten times more precise than they are.
    let mut obs = synthetic([20.0, 0.0, 0.0], 0.03, 11);
    for o in &mut obs {
        o.se = o.se.map(|s| s / 10.0);
    }
    let f = fit(ModelKind::Queue, &obs, 0.95);
    match &f.verdict {
        Verdict::DoesNotFit(why) => {
            assert!(why.contains("larger than the points' spread"), "{why}")
        }
        Verdict::Fits => panic!("{f:?}"),
    }
    assert!(f.params.is_empty());
}

#[test]
fn intervals_are_never_narrower_than_the_points_spread() {
    // Points exactly on the curve, each with a spread: χ²/dof = 0, yet the intervals are
    // those of the spread, not of the (perfect) residuals.
    let truth = [5.0, 80.0, 0.02];
    let obs: Vec<Observation> = DEPTHS
        .iter()
        .map(|&n| Observation { x: n, y: queue(n, truth), se: Some(queue(n, truth) * 0.02) })
        .collect();
    let f = fit(ModelKind::Queue, &obs, 0.95);
    assert!(f.fits() && f.chi2_dof.unwrap() < 1e-12, "{f:?}");
    for p in &f.params {
        assert!(p.se > 0.0 && p.hi > p.value, "{p:?}");
    }
}

#[test]
fn one_noisy_dip_is_no_knee() {
    // Depth 4 measured low by chance; depth 8 and 16 still buy much more than depth 2.
    let pts = [
        (1.0, 10e3, 100.0),
        (2.0, 17e3, 110.0),
        (4.0, 12e3, 300.0),
        (8.0, 30e3, 260.0),
        (16.0, 31e3, 500.0),
    ];
    assert_eq!(knee(&pts, 0.05), Some(8.0));
}
