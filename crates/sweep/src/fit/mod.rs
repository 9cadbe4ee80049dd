//! Fitting a model to a series of a sweep, and saying how sure the fit is.
//!
//! [`fit`] takes a series' points (x, the mean of the measured y, and its standard error
//! when the points have a spread) and fits [`ModelKind::Queue`] (seed 003) or
//! [`ModelKind::Usl`] by weighted nonlinear least squares ([`lm`]), each point weighted by
//! `1/se²` (all alike when some point has no spread). The weighted sum of squared residuals
//! is then the fit's χ². The covariance of the parameters is `s²·(JᵀWJ)⁻¹`: unweighted,
//! `s²` is the residual variance (χ²/dof); weighted, it is χ²/dof but never below 1, so
//! that the intervals are at least as wide as the points' own spread makes them and wider
//! when the curve follows the points less well than that spread. Each parameter gets its
//! standard error and a confidence interval from Student's t with `points − 3` degrees of
//! freedom.
//!
//! A fit is only reported when it describes the points. [`Verdict::DoesNotFit`] says why
//! not: fewer than four points, a solver that did not settle, parameters the points cannot
//! tell apart, residuals with a structure (too few runs of one sign, the exact one-sided
//! runs test, `p <` [`RUNS_ALPHA`]), or R² below [`MIN_R2`]. A low R² is not held against
//! a weighted fit whose χ² is what the points' spread explains (`p ≥` [`CHI2_ALPHA`]): R²
//! measures the variation the curve explains, and a series that hardly varies beyond its
//! noise (a synchronous engine's IOPS, the same at every depth) has little to explain.

pub mod lm;
pub mod models;

use crate::numeric::{chi2_sf, t_quantile};
use lm::Model;
use serde::{Deserialize, Serialize};

/// The least R² of a fit that is reported.
pub const MIN_R2: f64 = 0.95;

/// The level below which the runs test says the residuals have a structure.
pub const RUNS_ALPHA: f64 = 0.05;

/// The level below which the χ² test says that the residuals are larger than the points'
/// spread.
pub const CHI2_ALPHA: f64 = 0.01;

/// Which model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ModelKind {
    /// Seed 003's `IOPS(n) = n / (n·Tissue + Tdelay + n(n−1)/2·Tmove)`, over iodepth.
    Queue,
    /// The Universal Scalability Law `X(N) = λN / (1 + σ(N−1) + κN(N−1))`, over numjobs.
    Usl,
}

impl ModelKind {
    /// The parameters' names and units.
    pub fn params(self) -> [(&'static str, &'static str); 3] {
        match self {
            ModelKind::Queue => [("Tissue", "us"), ("Tdelay", "us"), ("Tmove", "us")],
            ModelKind::Usl => [("lambda", "IOPS"), ("sigma", ""), ("kappa", "")],
        }
    }

    fn model(self) -> &'static dyn Model {
        match self {
            ModelKind::Queue => &models::Queue,
            ModelKind::Usl => &models::Usl,
        }
    }
}

/// One point of a series.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Observation {
    /// The depth or the number of jobs.
    pub x: f64,
    /// The mean measured IOPS.
    pub y: f64,
    /// Its standard error, when the point has a spread (repeats, or per-second samples).
    pub se: Option<f64>,
}

/// A fitted parameter.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Param {
    /// Its name (`Tissue`).
    pub name: String,
    /// Its unit (`us`), empty for none.
    pub unit: String,
    /// The estimate.
    pub value: f64,
    /// Its standard error.
    pub se: f64,
    /// The confidence interval's lower end (not below the parameter's bound).
    pub lo: f64,
    /// The confidence interval's upper end.
    pub hi: f64,
}

impl Param {
    /// `12.3 us [11.9, 12.7]`.
    pub fn show(&self) -> String {
        let unit = if self.unit.is_empty() { String::new() } else { format!(" {}", self.unit) };
        format!("{}{unit} [{}, {}]", sig(self.value), sig(self.lo), sig(self.hi))
    }
}

/// `v` with four significant figures.
pub fn sig(v: f64) -> String {
    if v == 0.0 || !v.is_finite() {
        return format!("{v}");
    }
    if v.abs() < 1e-3 || v.abs() >= 1e7 {
        return format!("{v:.3e}");
    }
    let digits = (3 - v.abs().log10().floor() as i32).max(0) as usize;
    format!("{v:.digits$}")
}

/// Whether the model describes the points.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "verdict", content = "why", rename_all = "snake_case")]
pub enum Verdict {
    /// It does; the parameters are reported.
    Fits,
    /// It does not, for this reason; no parameter is reported.
    DoesNotFit(String),
}

/// A fitted model, or why there is none.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Fit {
    /// The model.
    pub model: ModelKind,
    /// Whether it describes the points.
    #[serde(flatten)]
    pub verdict: Verdict,
    /// The confidence level of the intervals (0.95).
    pub confidence: f64,
    /// How many points.
    pub points: usize,
    /// Whether the points were weighted by their spread (else alike).
    pub weighted: bool,
    /// The parameters (empty when the model does not fit).
    pub params: Vec<Param>,
    /// Where the model's curve peaks (`sqrt(2·Tdelay/Tmove)`, `sqrt((1−σ)/κ)`), when it
    /// fits and has a peak.
    pub peak: Option<Param>,
    /// R² of the fit, over the measured IOPS (reported either way when a fit was made).
    pub r2: Option<f64>,
    /// χ² per degree of freedom (with the points' own spread when weighted).
    pub chi2_dof: Option<f64>,
    /// When weighted, the chance of a χ² this large or larger if the points differed from
    /// the curve by their spread alone.
    pub chi2_p: Option<f64>,
    /// The runs test's one-sided p (few runs of residuals of one sign: structure).
    pub runs_p: Option<f64>,
    /// The fitted curve at the measured x and between them, for drawing (empty when the
    /// model does not fit).
    pub curve: Vec<(f64, f64)>,
}

impl Fit {
    fn refused(model: ModelKind, points: usize, weighted: bool, why: String) -> Fit {
        Fit {
            model,
            verdict: Verdict::DoesNotFit(why),
            confidence: 0.95,
            points,
            weighted,
            params: Vec::new(),
            peak: None,
            r2: None,
            chi2_dof: None,
            chi2_p: None,
            runs_p: None,
            curve: Vec::new(),
        }
    }

    /// Whether the parameters are reported.
    pub fn fits(&self) -> bool {
        self.verdict == Verdict::Fits
    }

    /// The model's value at `x` with the fitted parameters (`None` when it does not fit).
    pub fn at(&self, x: f64) -> Option<f64> {
        let p: Vec<f64> = self.params.iter().map(|p| p.value).collect();
        (self.fits() && p.len() == 3).then(|| self.model.model().eval(x, &p, &mut [0.0; 3]))
    }
}

/// Fits `kind` to `obs` at `confidence` (0.95). See the module doc.
pub fn fit(kind: ModelKind, obs: &[Observation], confidence: f64) -> Fit {
    let mut obs: Vec<Observation> =
        obs.iter().copied().filter(|o| o.y > 0.0 && o.x > 0.0).collect();
    obs.sort_by(|a, b| a.x.total_cmp(&b.x));
    let n = obs.len();
    let weighted = n > 0 && obs.iter().all(|o| o.se.is_some_and(|s| s > 0.0));
    let mut out = Fit::refused(kind, n, weighted, String::new());
    out.confidence = confidence;
    let refuse = |mut f: Fit, why: String| {
        f.verdict = Verdict::DoesNotFit(why);
        f.params.clear();
        f.peak = None;
        f.curve.clear();
        f
    };
    if n < 4 {
        return refuse(out, format!("{n} points: the model has 3 parameters and needs at least 4"));
    }
    let data: Vec<(f64, f64, f64)> = obs
        .iter()
        .map(|o| (o.x, o.y, if weighted { 1.0 / o.se.unwrap_or(1.0).powi(2) } else { 1.0 }))
        .collect();
    let xy: Vec<(f64, f64)> = obs.iter().map(|o| (o.x, o.y)).collect();
    let (start, lower) = match kind {
        ModelKind::Queue => (models::queue_start(&xy), vec![0.0; 3]),
        ModelKind::Usl => (models::usl_start(&xy), vec![1e-300, 0.0, 0.0]),
    };
    let model = kind.model();
    let sol = lm::fit(model, &data, &start, &lower);
    let mean = obs.iter().map(|o| o.y).sum::<f64>() / n as f64;
    let mut grad = [0.0; 3];
    let residuals: Vec<f64> =
        obs.iter().map(|o| o.y - model.eval(o.x, &sol.p, &mut grad)).collect();
    let ss_res: f64 = residuals.iter().map(|r| r * r).sum();
    let ss_tot: f64 = obs.iter().map(|o| (o.y - mean).powi(2)).sum();
    let dof = (n - 3) as f64;
    out.r2 = Some(if ss_tot > 0.0 { 1.0 - ss_res / ss_tot } else { 1.0 });
    out.chi2_dof = Some(sol.s / dof);
    out.chi2_p = weighted.then(|| chi2_sf(sol.s, dof));
    out.runs_p = runs_p(&residuals);
    if !sol.converged {
        return refuse(out, format!("the solver did not settle in {} steps", sol.steps));
    }
    let Some(inv) = sol.inv_normal.as_ref() else {
        return refuse(out, "the points cannot tell the parameters apart".into());
    };
    // Unweighted, the covariance takes the residuals' own scale (an exact fit, s = 0, has
    // no uncertainty to speak of, which is reported as such); weighted, at least the
    // points' spread.
    let s2 = if weighted { (sol.s / dof).max(1.0) } else { sol.s / dof };
    let t = t_quantile(confidence, dof);
    for (i, (name, unit)) in kind.params().iter().enumerate() {
        let se = (s2 * inv[i][i]).max(0.0).sqrt();
        let value = sol.p[i];
        out.params.push(Param {
            name: name.to_string(),
            unit: unit.to_string(),
            value,
            se,
            lo: (value - t * se).max(lower[i].max(0.0)),
            hi: value + t * se,
        });
    }
    if out.params.iter().any(|p| !p.se.is_finite()) {
        return refuse(out, "the points cannot tell the parameters apart".into());
    }
    if let Some(p) = out.runs_p.filter(|p| *p < RUNS_ALPHA) {
        return refuse(
            out,
            format!("the residuals have a structure (too few runs of one sign, p = {p:.3})"),
        );
    }
    let r2 = out.r2.unwrap_or(0.0);
    if r2 < MIN_R2 {
        match out.chi2_p {
            Some(p) if p >= CHI2_ALPHA => {}
            Some(p) => {
                let chi = sol.s / dof;
                return refuse(
                    out,
                    format!(
                        "R² = {r2:.3} < {MIN_R2}, and the residuals are larger than the \
                         points' spread (χ²/dof = {}, p = {})",
                        sig(chi),
                        sig(p)
                    ),
                );
            }
            None => return refuse(out, format!("R² = {r2:.3} < {MIN_R2}")),
        }
    }
    out.verdict = Verdict::Fits;
    out.peak = peak(kind, &sol.p, inv, s2, t);
    let (lo, hi) = (obs[0].x, obs[n - 1].x);
    out.curve =
        curve_xs(lo, hi).into_iter().map(|x| (x, model.eval(x, &sol.p, &mut grad))).collect();
    out
}

/// Where the curve peaks, with its interval by the delta method; only when the peak lies
/// where a sweep could reach it (below 1e6).
fn peak(kind: ModelKind, p: &[f64], inv: &[Vec<f64>], s2: f64, t: f64) -> Option<Param> {
    let (value, g) = match kind {
        ModelKind::Queue if p[2] > 0.0 && p[1] > 0.0 => {
            let v = (2.0 * p[1] / p[2]).sqrt();
            (v, [0.0, v / (2.0 * p[1]), -v / (2.0 * p[2])])
        }
        ModelKind::Usl if p[2] > 0.0 && p[1] < 1.0 => {
            let v = ((1.0 - p[1]) / p[2]).sqrt();
            (v, [0.0, -1.0 / (2.0 * p[2] * v), -v / (2.0 * p[2])])
        }
        _ => return None,
    };
    let var: f64 = (0..3).map(|i| (0..3).map(|j| g[i] * inv[i][j] * g[j]).sum::<f64>()).sum();
    let se = (s2 * var).max(0.0).sqrt();
    (value < 1e6 && se.is_finite()).then(|| Param {
        name: "peak".into(),
        unit: String::new(),
        value,
        se,
        lo: (value - t * se).max(0.0),
        hi: value + t * se,
    })
}

/// x values to draw the curve at: 16 per doubling from `lo` to `hi`.
fn curve_xs(lo: f64, hi: f64) -> Vec<f64> {
    let mut xs = Vec::new();
    let mut x = lo;
    while x < hi {
        xs.push(x);
        x *= 2f64.powf(1.0 / 16.0);
    }
    xs.push(hi);
    xs
}

/// The exact one-sided p of the Wald–Wolfowitz runs test on the residuals' signs: the
/// chance of as few runs as seen or fewer if the signs were in random order. `None` when
/// the signs are all alike or there are fewer than 4 non-zero residuals.
pub fn runs_p(residuals: &[f64]) -> Option<f64> {
    let signs: Vec<bool> = residuals.iter().filter(|r| **r != 0.0).map(|r| *r > 0.0).collect();
    let n1 = signs.iter().filter(|s| **s).count() as u64;
    let n2 = signs.len() as u64 - n1;
    if signs.len() < 4 || n1 == 0 || n2 == 0 {
        return None;
    }
    let runs = 1 + signs.windows(2).filter(|w| w[0] != w[1]).count() as u64;
    let total = choose(n1 + n2, n1);
    let p_of = |r: u64| -> f64 {
        let k = r / 2;
        let ways = if r % 2 == 0 {
            2.0 * choose(n1 - 1, k - 1) * choose(n2 - 1, k - 1)
        } else {
            choose(n1 - 1, k - 1) * choose(n2 - 1, k) + choose(n1 - 1, k) * choose(n2 - 1, k - 1)
        };
        ways / total
    };
    Some((2..=runs).map(p_of).sum::<f64>().min(1.0))
}

/// The binomial coefficient, as a float (0 when `k > n`).
fn choose(n: u64, k: u64) -> f64 {
    if k > n {
        return 0.0;
    }
    (0..k.min(n - k)).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64)
}

/// The knee of a series of `(depth, IOPS, mean latency)` points: the first measured depth
/// past which more depth buys less than `gain` (0.05) more IOPS, at any later depth
/// measured, while the mean latency at the next depth grows. Comparing with every later
/// depth, not only the next, keeps a dip of one noisy point from passing for a knee.
/// `None` when no depth is past paying.
pub fn knee(points: &[(f64, f64, f64)], gain: f64) -> Option<f64> {
    let mut pts = points.to_vec();
    pts.sort_by(|a, b| a.0.total_cmp(&b.0));
    (0..pts.len().saturating_sub(1)).map(|i| (pts[i], &pts[i + 1..])).find_map(|(p, later)| {
        let best = later.iter().map(|q| q.1).fold(f64::NEG_INFINITY, f64::max);
        (best < p.1 * (1.0 + gain) && later[0].2 > p.2).then_some(p.0)
    })
}

#[cfg(test)]
mod tests;
