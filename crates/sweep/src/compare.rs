//! Comparing one figure of two runs, as hyperfine compares two commands: the ratio B/A of
//! their means with a confidence interval, and a verdict.
//!
//! Each side is a [`Summary`] of samples: the figure of each repeated round when the runs
//! were repeated, else the run's own per-second samples (IOPS, bandwidth) or per-I/O
//! latencies (the mean latency). The interval is Fieller's for the ratio of two independent
//! means, `{ρ : (m_B − ρ·m_A)² ≤ t²·(v_B + ρ²·v_A)}` with `v = sd²/n`, and Student's t with
//! Welch–Satterthwaite's degrees of freedom; it is bounded only when A's mean is itself
//! clearly apart from zero. The verdict is "faster" or "slower" when the interval lies on
//! one side of 1 (for latency, lower is faster), else "no significant difference".
//!
//! Per-second samples of one run are not independent (a slow second tends to follow a slow
//! second), so their intervals are narrower than the truth; repeated rounds are the honest
//! basis, and `iomark compare --rounds=N` gives it.

use crate::numeric::{t_quantile, Summary};
use serde::{Deserialize, Serialize};

/// Whether more of a figure is better (IOPS, bandwidth) or worse (latency).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Better {
    /// More is faster.
    Higher,
    /// Less is faster.
    Lower,
}

/// What the comparison says about B against A.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// B is faster, beyond the noise.
    Faster,
    /// B is slower, beyond the noise.
    Slower,
    /// The interval holds 1.
    NoSignificantDifference,
    /// One side has no spread to judge by (a single sample).
    NoSpread,
}

impl Verdict {
    /// The verdict as the table writes it.
    pub fn text(self) -> &'static str {
        match self {
            Verdict::Faster => "B faster",
            Verdict::Slower => "B slower",
            Verdict::NoSignificantDifference => "no significant difference",
            Verdict::NoSpread => "no spread to judge (use --rounds)",
        }
    }
}

/// One figure compared.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ratio {
    /// B's mean over A's.
    pub ratio: f64,
    /// The interval's ends, when bounded.
    pub ci: Option<(f64, f64)>,
    /// The confidence level (0.95).
    pub confidence: f64,
    /// The verdict.
    pub verdict: Verdict,
}

/// Compares `b` against `a` at `confidence` (0.95). See the module doc.
pub fn ratio(a: Summary, b: Summary, better: Better, confidence: f64) -> Ratio {
    let rho = if a.mean != 0.0 { b.mean / a.mean } else { f64::NAN };
    let no_spread = Ratio { ratio: rho, ci: None, confidence, verdict: Verdict::NoSpread };
    if a.n < 2 || b.n < 2 || !rho.is_finite() {
        return no_spread;
    }
    let (va, vb) = (a.sd.powi(2) / a.n as f64, b.sd.powi(2) / b.n as f64);
    let ci = if va == 0.0 && vb == 0.0 {
        Some((rho, rho))
    } else {
        // Welch–Satterthwaite for m_B − ρ·m_A.
        let num = (vb + rho * rho * va).powi(2);
        let den = vb.powi(2) / (b.n - 1) as f64 + (rho * rho * va).powi(2) / (a.n - 1) as f64;
        let dof = if den > 0.0 { num / den } else { (a.n + b.n - 2) as f64 };
        let t = t_quantile(confidence, dof);
        let (t2, ma, mb) = (t * t, a.mean, b.mean);
        let lead = ma * ma - t2 * va;
        let disc = t2 * (vb * ma * ma + va * mb * mb - t2 * va * vb);
        (lead > 0.0 && disc >= 0.0).then(|| {
            let root = disc.sqrt();
            ((ma * mb - root) / lead, (ma * mb + root) / lead)
        })
    };
    let verdict = match ci {
        Some((lo, _)) if lo > 1.0 => higher(better),
        Some((_, hi)) if hi < 1.0 => higher(opposite(better)),
        _ => Verdict::NoSignificantDifference,
    };
    Ratio { ratio: rho, ci, confidence, verdict }
}

/// One figure of one job's direction, compared (what `iomark compare` prints and writes).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Compared {
    /// The job (`A's/B's` when their names differ).
    pub job: String,
    /// The direction.
    pub dir: String,
    /// The figure (`IOPS`, `lat mean us`…).
    pub figure: String,
    /// A's samples.
    pub a: Summary,
    /// B's samples.
    pub b: Summary,
    /// B against A.
    #[serde(flatten)]
    pub ratio: Ratio,
}

fn opposite(b: Better) -> Better {
    match b {
        Better::Higher => Better::Lower,
        Better::Lower => Better::Higher,
    }
}

/// The verdict when B's figure is higher than A's.
fn higher(better: Better) -> Verdict {
    match better {
        Better::Higher => Verdict::Faster,
        Better::Lower => Verdict::Slower,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(mean: f64, sd: f64, n: u64) -> Summary {
        Summary { mean, sd, n }
    }

    #[test]
    fn a_clear_gain_is_faster() {
        let r = ratio(s(100.0, 2.0, 10), s(120.0, 2.0, 10), Better::Higher, 0.95);
        assert!((r.ratio - 1.2).abs() < 1e-12);
        let (lo, hi) = r.ci.unwrap();
        assert!(lo > 1.15 && hi < 1.25 && lo < 1.2 && hi > 1.2, "{r:?}");
        assert_eq!(r.verdict, Verdict::Faster);
        // For latency the same numbers mean slower.
        assert_eq!(
            ratio(s(100.0, 2.0, 10), s(120.0, 2.0, 10), Better::Lower, 0.95).verdict,
            Verdict::Slower
        );
    }

    #[test]
    fn fiellers_interval_on_fixed_inputs() {
        // m_A = 50, sd 5, n 5; m_B = 55, sd 5, n 5: v = 5 each; ρ = 1.1; Welch dof =
        // (5 + 1.21·5)² / (25/4 + (1.21·5)²/4) = 122.1025/15.4 ≈ 7.93, t ≈ 2.310.
        let r = ratio(s(50.0, 5.0, 5), s(55.0, 5.0, 5), Better::Higher, 0.95);
        let (lo, hi) = r.ci.unwrap();
        let t = t_quantile(0.95, 122.1025 / (6.25 + 36.6025 / 4.0));
        let (t2, lead) = (t * t, 2500.0 - t * t * 5.0);
        let root = (t2 * (5.0 * 2500.0 + 5.0 * 3025.0 - t2 * 25.0)).sqrt();
        assert!((lo - (2750.0 - root) / lead).abs() < 1e-12);
        assert!((hi - (2750.0 + root) / lead).abs() < 1e-12);
        assert!(lo < 1.0 && hi > 1.0);
        assert_eq!(r.verdict, Verdict::NoSignificantDifference);
    }

    #[test]
    fn a_single_sample_has_no_spread() {
        let r = ratio(s(100.0, 0.0, 1), s(120.0, 0.0, 1), Better::Higher, 0.95);
        assert_eq!(r.verdict, Verdict::NoSpread);
        assert_eq!(r.ci, None);
    }

    #[test]
    fn a_denominator_near_zero_has_no_bounded_interval() {
        let r = ratio(s(1.0, 10.0, 3), s(5.0, 1.0, 3), Better::Higher, 0.95);
        assert_eq!(r.ci, None);
        assert_eq!(r.verdict, Verdict::NoSignificantDifference);
    }
}
