//! The small numerics the fits and comparisons share: means and deviations, Student's t
//! quantiles and χ² tails (through `statrs`), and the solution of a small dense linear system.

use statrs::distribution::{ChiSquared, ContinuousCDF, Normal, StudentsT};

/// Mean, sample standard deviation and count of some values.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Summary {
    /// The mean.
    pub mean: f64,
    /// The sample standard deviation (0 for fewer than two values).
    pub sd: f64,
    /// How many values.
    pub n: u64,
}

impl Summary {
    /// The summary of `values`; `None` for none.
    pub fn of(values: &[f64]) -> Option<Summary> {
        if values.is_empty() {
            return None;
        }
        let n = values.len() as f64;
        let mean = values.iter().sum::<f64>() / n;
        let sd = if values.len() < 2 {
            0.0
        } else {
            (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt()
        };
        Some(Summary { mean, sd, n: values.len() as u64 })
    }

    /// The standard error of the mean, when there is a spread to speak of.
    pub fn se(&self) -> Option<f64> {
        (self.n >= 2 && self.sd > 0.0).then(|| self.sd / (self.n as f64).sqrt())
    }
}

/// The two-sided Student's t quantile for `confidence` (0.95) and `dof` degrees of freedom:
/// the `t` with `P(|T| <= t) = confidence`.
pub fn t_quantile(confidence: f64, dof: f64) -> f64 {
    let p = 0.5 + confidence / 2.0;
    if dof > 1e5 {
        // statrs' t quantile loses precision this far out; the normal is exact enough.
        return Normal::new(0.0, 1.0).map_or(f64::INFINITY, |n| n.inverse_cdf(p));
    }
    match StudentsT::new(0.0, 1.0, dof.max(1e-9)) {
        Ok(t) => t.inverse_cdf(p),
        Err(_) => f64::INFINITY,
    }
}

/// The chance that a χ² variable with `dof` degrees of freedom is `chi2` or more.
pub fn chi2_sf(chi2: f64, dof: f64) -> f64 {
    ChiSquared::new(dof).map_or(f64::NAN, |d| d.sf(chi2))
}

/// Solves `a · x = b` for a small square `a` by Gaussian elimination with partial
/// pivoting; `None` when `a` is singular (a pivot below `1e-300` in size, or not finite).
pub fn solve(a: &[Vec<f64>], b: &[f64]) -> Option<Vec<f64>> {
    let n = b.len();
    let mut m: Vec<Vec<f64>> = a.iter().zip(b).map(|(row, &v)| [&row[..], &[v]].concat()).collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&i, &j| m[i][col].abs().total_cmp(&m[j][col].abs()))?;
        let big = m[pivot][col].abs() > 1e-300;
        if !big {
            return None;
        }
        m.swap(col, pivot);
        let pivot_row = m[col].clone();
        for (row, r) in m.iter_mut().enumerate() {
            if row != col {
                let f = r[col] / pivot_row[col];
                for (v, p) in r[col..].iter_mut().zip(&pivot_row[col..]) {
                    *v -= f * p;
                }
            }
        }
    }
    let x: Vec<f64> = (0..n).map(|i| m[i][n] / m[i][i]).collect();
    x.iter().all(|v| v.is_finite()).then_some(x)
}

/// The inverse of a small square matrix; `None` when it is singular.
pub fn inverse(a: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let mut cols = Vec::with_capacity(n);
    for j in 0..n {
        let e: Vec<f64> = (0..n).map(|i| if i == j { 1.0 } else { 0.0 }).collect();
        cols.push(solve(a, &e)?);
    }
    Some((0..n).map(|i| (0..n).map(|j| cols[j][i]).collect()).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_of_values() {
        let s = Summary::of(&[1.0, 2.0, 3.0, 4.0]).unwrap();
        assert_eq!(s.mean, 2.5);
        assert!((s.sd - 1.290_994_448_735_805_6).abs() < 1e-12);
        assert_eq!(s.n, 4);
        assert!(Summary::of(&[]).is_none());
        assert_eq!(Summary::of(&[5.0]).unwrap().se(), None);
    }

    #[test]
    fn t_quantiles_match_the_tables() {
        // Two-sided 95%: 12.706 (1 dof), 2.571 (5), 2.228 (10), 1.960 (infinity).
        assert!((t_quantile(0.95, 1.0) - 12.706).abs() < 1e-3);
        assert!((t_quantile(0.95, 5.0) - 2.571).abs() < 1e-3);
        assert!((t_quantile(0.95, 10.0) - 2.228).abs() < 1e-3);
        assert!((t_quantile(0.95, 1e7) - 1.960).abs() < 1e-3);
    }

    #[test]
    fn chi2_tails_match_the_tables() {
        // 5% upper points: 3.841 (1 dof), 11.070 (5), 18.307 (10).
        assert!((chi2_sf(3.841, 1.0) - 0.05).abs() < 1e-4);
        assert!((chi2_sf(11.070, 5.0) - 0.05).abs() < 1e-4);
        assert!((chi2_sf(18.307, 10.0) - 0.05).abs() < 1e-4);
    }

    #[test]
    #[allow(clippy::needless_range_loop)] // matrix indices read best as indices
    fn solves_and_inverts() {
        let a = vec![vec![2.0, 1.0, 0.0], vec![1.0, 3.0, 1.0], vec![0.0, 1.0, 4.0]];
        let x = solve(&a, &[3.0, 5.0, 5.0]).unwrap();
        for (v, want) in x.iter().zip([1.0, 1.0, 1.0]) {
            assert!((v - want).abs() < 1e-12);
        }
        let inv = inverse(&a).unwrap();
        for i in 0..3 {
            for j in 0..3 {
                let p: f64 = (0..3).map(|k| a[i][k] * inv[k][j]).sum();
                assert!((p - if i == j { 1.0 } else { 0.0 }).abs() < 1e-12);
            }
        }
        assert!(solve(&[vec![1.0, 2.0], vec![2.0, 4.0]], &[1.0, 2.0]).is_none());
    }
}
