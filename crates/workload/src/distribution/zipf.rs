//! Zipf variates in O(1) per draw, by rejection-inversion (W. Hörmann and G. Derflinger,
//! "Rejection-inversion to generate variates from monotone discrete distributions", ACM
//! TOMACS 6(3), 1996), written from the paper's description.
//!
//! The target is P(k) ∝ k^-θ for k = 1..=n. The method inverts the integral H of the hat
//! function h(x) = x^-θ, rounds the result to the nearest integer k, and accepts k when the
//! drawn point falls under the bar of width 1 around k; almost every draw is accepted at
//! once, whatever n is, and nothing is tabulated.

use crate::rng::Rng;

/// A Zipf sampler over `1..=n` with exponent `theta` (> 0).
#[derive(Debug, Clone)]
pub(crate) struct Zipf {
    n: f64,
    theta: f64,
    /// H(1.5) - h(1): the lower end of the inverted range.
    h_integral_x1: f64,
    /// H(n + 0.5): the upper end.
    h_integral_n: f64,
    /// The squeeze: accept at once when `k - x` is at most this.
    s: f64,
}

/// ln(1 + t) / t, continued to 1 at t = 0.
fn log1p_over(t: f64) -> f64 {
    if t.abs() > 1e-8 {
        t.ln_1p() / t
    } else {
        1.0 - t * (0.5 - t / 3.0)
    }
}

/// (e^t - 1) / t, continued to 1 at t = 0.
fn expm1_over(t: f64) -> f64 {
    if t.abs() > 1e-8 {
        t.exp_m1() / t
    } else {
        1.0 + t * (0.5 + t / 6.0)
    }
}

impl Zipf {
    /// A sampler over `1..=n` (`n` ≥ 1) with exponent `theta` > 0.
    pub(crate) fn new(n: u64, theta: f64) -> Zipf {
        let mut z = Zipf { n: n as f64, theta, h_integral_x1: 0.0, h_integral_n: 0.0, s: 0.0 };
        z.h_integral_x1 = z.h_integral(1.5) - 1.0;
        z.h_integral_n = z.h_integral(z.n + 0.5);
        z.s = 2.0 - z.h_integral_inv(z.h_integral(2.5) - z.h(2.0));
        z
    }

    /// h(x) = x^-θ.
    fn h(&self, x: f64) -> f64 {
        (-self.theta * x.ln()).exp()
    }

    /// H(x) = (x^(1-θ) - 1) / (1 - θ), written to stay exact near θ = 1.
    fn h_integral(&self, x: f64) -> f64 {
        let log_x = x.ln();
        expm1_over((1.0 - self.theta) * log_x) * log_x
    }

    /// The inverse of H.
    fn h_integral_inv(&self, y: f64) -> f64 {
        let t = (y * (1.0 - self.theta)).max(-1.0);
        (log1p_over(t) * y).exp()
    }

    /// One value in `1..=n`.
    pub(crate) fn sample(&self, rng: &mut Rng) -> u64 {
        loop {
            let u = self.h_integral_n + rng.unit_f64() * (self.h_integral_x1 - self.h_integral_n);
            let x = self.h_integral_inv(u);
            let k = (x + 0.5).floor().clamp(1.0, self.n);
            if k - x <= self.s || u >= self.h_integral(k + 0.5) - self.h(k) {
                return k as u64;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The exact probabilities of 1..=n.
    fn exact(n: u64, theta: f64) -> Vec<f64> {
        let w: Vec<f64> = (1..=n).map(|k| (k as f64).powf(-theta)).collect();
        let sum: f64 = w.iter().sum();
        w.iter().map(|x| x / sum).collect()
    }

    #[test]
    fn frequencies_match_the_exact_law() {
        // A chi-square test per exponent, small ones and large ones, over 40 values:
        // 39 degrees of freedom, whose 0.9999 quantile is about 80.
        for theta in [0.2, 0.8, 0.99, 1.01, 1.2, 2.5] {
            let n = 40;
            let z = Zipf::new(n, theta);
            let mut rng = Rng::from_seed(theta.to_bits());
            let draws = 200_000;
            let mut counts = vec![0u64; n as usize];
            for _ in 0..draws {
                let k = z.sample(&mut rng);
                assert!((1..=n).contains(&k));
                counts[k as usize - 1] += 1;
            }
            let chi: f64 = exact(n, theta)
                .iter()
                .zip(&counts)
                .map(|(p, &c)| {
                    let e = p * draws as f64;
                    (c as f64 - e).powi(2) / e
                })
                .sum();
            assert!(chi < 80.0, "theta {theta}: chi-square {chi}");
        }
    }

    #[test]
    fn huge_ranges_work() {
        let z = Zipf::new(1 << 40, 1.2);
        let mut rng = Rng::from_seed(1);
        let ones = (0..10_000).filter(|_| z.sample(&mut rng) == 1).count();
        // P(1) = 1 / zeta(1.2) ≈ 0.1788 for so large an n.
        assert!((1600..2000).contains(&ones), "{ones}");
        assert_eq!(Zipf::new(1, 0.5).sample(&mut rng), 1);
    }
}
