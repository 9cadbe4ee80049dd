//! The two models fitted to a sweep.
//!
//! **Seed 003's queue model**, for IOPS against the queue depth `n` of one job:
//! `IOPS(n) = n / (n·Tissue + Tdelay + n(n−1)/2·Tmove)`. Tissue is the software time to
//! issue one I/O, Tdelay the device's service time once an I/O is at the head of its queue,
//! Tmove the time an I/O takes to move up the queue by one place (seed 003, section on the
//! IOPS formula). Times are in microseconds here.
//!
//! **Gunther's Universal Scalability Law**, for throughput against the number of jobs `N`:
//! `X(N) = λN / (1 + σ(N−1) + κN(N−1))`, with λ the throughput of one job, σ the share of
//! work that serialises (contention) and κ the cost of keeping jobs coherent (crosstalk).
//!
//! The two are one family: dividing the queue model through by `Tissue + Tdelay` gives the
//! USL with `λ = 1/(Tissue+Tdelay)`, `σ = Tissue/(Tissue+Tdelay)`,
//! `κ = Tmove/(2(Tissue+Tdelay))`. Both are linear in their parameters once turned over
//! (`n/IOPS = n·Tissue + Tdelay + n(n−1)/2·Tmove`), which gives the solver its start.

use super::lm::Model;
use crate::numeric::solve;

/// Seed 003's queue model, parameters `[Tissue, Tdelay, Tmove]` in microseconds.
pub struct Queue;

impl Model for Queue {
    fn arity(&self) -> usize {
        3
    }

    fn eval(&self, n: f64, p: &[f64], grad: &mut [f64]) -> f64 {
        let h = n * (n - 1.0) / 2.0;
        let d = n * p[0] + p[1] + h * p[2];
        let k = -1e6 * n / (d * d);
        grad[0] = k * n;
        grad[1] = k;
        grad[2] = k * h;
        1e6 * n / d
    }
}

/// The Universal Scalability Law, parameters `[λ, σ, κ]` (λ in the unit of the data).
pub struct Usl;

impl Model for Usl {
    fn arity(&self) -> usize {
        3
    }

    fn eval(&self, n: f64, p: &[f64], grad: &mut [f64]) -> f64 {
        let d = 1.0 + p[1] * (n - 1.0) + p[2] * n * (n - 1.0);
        grad[0] = n / d;
        grad[1] = -p[0] * n * (n - 1.0) / (d * d);
        grad[2] = -p[0] * n * n * (n - 1.0) / (d * d);
        p[0] * n / d
    }
}

/// The least-squares coefficients of `z ≈ c₀·n + c₁ + c₂·n(n−1)/2` over `(n, z)`.
fn linear(points: &[(f64, f64)]) -> Option<[f64; 3]> {
    let basis = |n: f64| [n, 1.0, n * (n - 1.0) / 2.0];
    let (mut a, mut b) = (vec![vec![0.0; 3]; 3], vec![0.0; 3]);
    for &(n, z) in points {
        let f = basis(n);
        for i in 0..3 {
            b[i] += f[i] * z;
            for j in 0..3 {
                a[i][j] += f[i] * f[j];
            }
        }
    }
    let c = solve(&a, &b)?;
    Some([c[0], c[1], c[2]])
}

/// A start for the queue model from `(n, IOPS)` points: the turned-over model fitted by
/// linear least squares, kept within the bounds.
pub fn queue_start(points: &[(f64, f64)]) -> Vec<f64> {
    let z: Vec<(f64, f64)> = points.iter().map(|&(n, y)| (n, 1e6 * n / y)).collect();
    let first = z.iter().min_by(|a, b| a.0.total_cmp(&b.0)).map_or(1.0, |p| p.1 / p.0);
    match linear(&z) {
        Some([ti, td, tm]) if ti + td > 0.0 => {
            vec![ti.max(first * 1e-3), td.max(first * 1e-3), tm.max(0.0)]
        }
        _ => vec![first / 2.0, first / 2.0, 0.0],
    }
}

/// A start for the USL from `(N, X)` points, the same way: `N/X = (1 + σ(N−1) +
/// κN(N−1))/λ`.
pub fn usl_start(points: &[(f64, f64)]) -> Vec<f64> {
    // In the basis (N, 1, N(N-1)/2): N/X = (1/λ − σ/λ)… rewritten as c₀N + c₁ + c₂N(N−1)/2
    // with c₀ = σ/λ, c₁ = (1−σ)/λ, c₂ = 2κ/λ.
    let z: Vec<(f64, f64)> = points.iter().map(|&(n, x)| (n, n / x)).collect();
    let first = points.iter().min_by(|a, b| a.0.total_cmp(&b.0)).map_or(1.0, |p| p.1 / p.0);
    match linear(&z) {
        Some([c0, c1, c2]) if c0 + c1 > 0.0 => {
            let lambda = 1.0 / (c0 + c1);
            vec![lambda, (c0 * lambda).clamp(0.0, 1.0), (c2 * lambda / 2.0).max(0.0)]
        }
        _ => vec![first, 0.0, 0.0],
    }
}
