//! A small Levenberg–Marquardt solver for weighted nonlinear least squares with a handful
//! of parameters, each bounded below.
//!
//! It minimises `S(p) = Σ wᵢ (yᵢ − f(xᵢ, p))²`. Each step solves
//! `(JᵀWJ + λ·diag(JᵀWJ)) δ = JᵀW r` (Marquardt's scaling, which makes the step independent
//! of the parameters' units), clamps `p + δ` to the lower bounds, and keeps the step only if
//! `S` fell; λ shrinks tenfold after a kept step and grows tenfold after a refused one. It
//! stops when `S` or every parameter changes by less than a relative `1e-12`, or after 500
//! steps. At the end it returns the parameters, `S`, and `(JᵀWJ)⁻¹` for the caller to turn
//! into a covariance. The models here have three parameters and analytic gradients, for
//! which this textbook method is enough; no general optimisation crate is needed.

use crate::numeric::{inverse, solve};

/// A model `f(x, p)` with its gradient in `p`.
pub trait Model {
    /// The number of parameters.
    fn arity(&self) -> usize;
    /// The value at `x`, and its derivative in each parameter (into `grad`).
    fn eval(&self, x: f64, p: &[f64], grad: &mut [f64]) -> f64;
}

/// What the solver found.
#[derive(Debug, Clone, PartialEq)]
pub struct Solution {
    /// The parameters.
    pub p: Vec<f64>,
    /// The weighted sum of squared residuals.
    pub s: f64,
    /// `(JᵀWJ)⁻¹` at the solution, if it is not singular.
    pub inv_normal: Option<Vec<Vec<f64>>>,
    /// Steps taken.
    pub steps: usize,
    /// Whether it stopped because nothing changed any more (rather than at the step limit).
    pub converged: bool,
}

/// The weighted sum of squared residuals of `p`.
fn cost(model: &dyn Model, data: &[(f64, f64, f64)], p: &[f64]) -> f64 {
    let mut grad = vec![0.0; p.len()];
    data.iter().map(|&(x, y, w)| w * (y - model.eval(x, p, &mut grad)).powi(2)).sum()
}

/// `JᵀWJ` and `JᵀW r` at `p`.
fn normal(model: &dyn Model, data: &[(f64, f64, f64)], p: &[f64]) -> (Vec<Vec<f64>>, Vec<f64>) {
    let k = p.len();
    let (mut a, mut g, mut grad) = (vec![vec![0.0; k]; k], vec![0.0; k], vec![0.0; k]);
    for &(x, y, w) in data {
        let r = y - model.eval(x, p, &mut grad);
        for i in 0..k {
            g[i] += w * grad[i] * r;
            for j in 0..k {
                a[i][j] += w * grad[i] * grad[j];
            }
        }
    }
    (a, g)
}

/// Fits `model` to `data` (`(x, y, weight)` triples) from `start`, keeping each parameter
/// at or above its `lower` bound.
pub fn fit(model: &dyn Model, data: &[(f64, f64, f64)], start: &[f64], lower: &[f64]) -> Solution {
    let clamp = |p: &mut [f64]| p.iter_mut().zip(lower).for_each(|(v, lo)| *v = v.max(*lo));
    let mut p = start.to_vec();
    clamp(&mut p);
    let mut s = cost(model, data, &p);
    let mut lambda = 1e-3;
    let mut converged = false;
    let mut steps = 0;
    while steps < 500 {
        steps += 1;
        let (a, g) = normal(model, data, &p);
        // Parameters held at their bound by a gradient that pushes them past it stay
        // out of the step (the active set); the others take the damped step.
        let free: Vec<usize> = (0..p.len()).filter(|&i| p[i] > lower[i] || g[i] > 0.0).collect();
        if free.is_empty() {
            converged = true;
            break;
        }
        let damped: Vec<Vec<f64>> = free
            .iter()
            .map(|&i| {
                free.iter()
                    .map(|&j| a[i][j] + if i == j { lambda * a[i][i].max(1e-300) } else { 0.0 })
                    .collect()
            })
            .collect();
        let rhs: Vec<f64> = free.iter().map(|&i| g[i]).collect();
        let step = solve(&damped, &rhs);
        let Some(step) = step else {
            lambda *= 10.0;
            if lambda > 1e16 {
                break;
            }
            continue;
        };
        let mut delta = vec![0.0; p.len()];
        for (k, &i) in free.iter().enumerate() {
            delta[i] = step[k];
        }
        let mut next: Vec<f64> = p.iter().zip(&delta).map(|(v, d)| v + d).collect();
        clamp(&mut next);
        let s_next = cost(model, data, &next);
        if s_next.is_finite() && s_next <= s {
            let still =
                next.iter().zip(&p).all(|(n, o)| (n - o).abs() <= 1e-12 * o.abs().max(1e-300));
            let flat = (s - s_next) <= 1e-12 * s.max(1e-300);
            p = next;
            s = s_next;
            lambda = (lambda / 10.0).max(1e-12);
            if still || flat {
                converged = true;
                break;
            }
        } else {
            lambda *= 10.0;
            if lambda > 1e16 {
                // No step lowers S any more: a minimum within the bounds.
                converged = true;
                break;
            }
        }
    }
    let (a, _) = normal(model, data, &p);
    Solution { inv_normal: inverse(&a), p, s, steps, converged }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `y = a · exp(b x)`.
    struct Exp;

    impl Model for Exp {
        fn arity(&self) -> usize {
            2
        }
        fn eval(&self, x: f64, p: &[f64], grad: &mut [f64]) -> f64 {
            let e = (p[1] * x).exp();
            grad[0] = e;
            grad[1] = p[0] * x * e;
            p[0] * e
        }
    }

    #[test]
    fn finds_exact_parameters() {
        let data: Vec<(f64, f64, f64)> =
            (0..10).map(|i| (i as f64 / 2.0, 3.0 * (0.4 * i as f64 / 2.0).exp(), 1.0)).collect();
        let sol = fit(&Exp, &data, &[1.0, 0.1], &[f64::NEG_INFINITY; 2]);
        assert!(sol.converged);
        assert!((sol.p[0] - 3.0).abs() < 1e-9, "{:?}", sol.p);
        assert!((sol.p[1] - 0.4).abs() < 1e-9, "{:?}", sol.p);
        assert!(sol.s < 1e-15);
    }

    #[test]
    fn keeps_to_the_bounds() {
        // Falling data, but b may not go below 0: the best is a flat line at the mean.
        let data: Vec<(f64, f64, f64)> = (0..5).map(|i| (i as f64, 10.0 - i as f64, 1.0)).collect();
        let sol = fit(&Exp, &data, &[5.0, 0.5], &[0.0, 0.0]);
        assert_eq!(sol.p[1], 0.0);
        assert!((sol.p[0] - 8.0).abs() < 1e-6, "{:?}", sol.p);
    }
}
