//! vdbench's curves: run a point flat out to find its maximum rate, then at fractions of it
//! (fio's `rate_iops`, split over the jobs), and report response time against the rate
//! reached; and the stop rule `--stop-at-latency=TIME[:PERCENTILE]`, which ends a series
//! (a curve, or a sweep over depth) at the first point whose latency passes TIME.

use crate::measure::Metrics;
use serde::{Deserialize, Serialize};

/// vdbench's default fractions of the maximum rate, in percent.
pub const DEFAULT_FRACTIONS: [f64; 6] = [10.0, 50.0, 70.0, 80.0, 90.0, 100.0];

/// Why a curve or stop rule cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CurveError {
    /// A fraction that is not a number in (0, 100].
    #[error("--curve: '{0}' is not a percentage in (0, 100]")]
    Fraction(String),
    /// A time that cannot be read.
    #[error("--stop-at-latency: '{0}' is not a time (such as 500us, 2ms or 2ms:99.9)")]
    Time(String),
    /// A percentile the sweep does not measure.
    #[error("--stop-at-latency: percentile '{0}' (valid: mean, 50, 99, 99.9)")]
    Percentile(String),
}

/// The fractions of `--curve=LIST` (percent), in increasing order; vdbench's when empty.
pub fn fractions(list: &str) -> Result<Vec<f64>, CurveError> {
    if list.trim().is_empty() {
        return Ok(DEFAULT_FRACTIONS.to_vec());
    }
    let mut out = Vec::new();
    for item in list.split(',').map(str::trim) {
        let v: f64 = item
            .trim_end_matches('%')
            .parse()
            .ok()
            .filter(|v: &f64| *v > 0.0 && *v <= 100.0)
            .ok_or_else(|| CurveError::Fraction(item.into()))?;
        out.push(v);
    }
    out.sort_by(f64::total_cmp);
    out.dedup();
    Ok(out)
}

/// Which latency the stop rule watches.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Watched {
    /// The mean.
    Mean,
    /// A percentile: 50, 99 or 99.9.
    Percentile(f64),
}

/// `--stop-at-latency=TIME[:PERCENTILE]`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct StopRule {
    /// The limit, nanoseconds.
    pub limit_ns: u64,
    /// The latency compared with it (the 99th percentile unless told).
    pub watched: Watched,
}

impl StopRule {
    /// Reads `TIME[:PERCENTILE]`: TIME with a unit (ns, us, ms, s; microseconds when bare,
    /// as fio's latency options), PERCENTILE `mean`, `50`, `99` (the default) or `99.9`.
    pub fn parse(text: &str) -> Result<StopRule, CurveError> {
        let (time, pct) = text.split_once(':').unwrap_or((text, "99"));
        let watched = match pct.trim().trim_start_matches('p') {
            "mean" => Watched::Mean,
            p @ ("50" | "99" | "99.9") => Watched::Percentile(p.parse().unwrap_or(99.0)),
            other => return Err(CurveError::Percentile(other.into())),
        };
        let t = time.trim().to_ascii_lowercase();
        let split = t.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(t.len());
        let n: f64 = t[..split].parse().map_err(|_| CurveError::Time(text.into()))?;
        let scale = match &t[split..] {
            "ns" => 1.0,
            "" | "us" | "usec" => 1e3,
            "ms" | "msec" => 1e6,
            "s" | "sec" => 1e9,
            _ => return Err(CurveError::Time(text.into())),
        };
        Ok(StopRule { limit_ns: (n * scale).round() as u64, watched })
    }

    /// The watched latency of `m`, nanoseconds.
    pub fn latency(&self, m: &Metrics) -> Option<f64> {
        match self.watched {
            Watched::Mean => Some(m.lat_mean_ns),
            Watched::Percentile(50.0) => m.lat_p50_ns.map(|v| v as f64),
            Watched::Percentile(99.0) => m.lat_p99_ns.map(|v| v as f64),
            Watched::Percentile(_) => m.lat_p999_ns.map(|v| v as f64),
        }
    }

    /// Whether `m`'s latency passed the limit.
    pub fn passed(&self, m: &Metrics) -> bool {
        self.latency(m).is_some_and(|l| l > self.limit_ns as f64)
    }

    /// `p99 > 2ms`.
    pub fn describe(&self) -> String {
        let what = match self.watched {
            Watched::Mean => "mean".to_string(),
            Watched::Percentile(p) => format!("p{p}"),
        };
        format!("{what} latency > {} us", self.limit_ns as f64 / 1e3)
    }
}

/// The `rate_iops` of each of `clones` jobs for `fraction` percent of `max_iops`.
pub fn rate_per_job(max_iops: f64, fraction: f64, clones: u64) -> u64 {
    ((max_iops * fraction / 100.0) / clones.max(1) as f64).round().max(1.0) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fractions_are_read_and_sorted() {
        assert_eq!(fractions("").unwrap(), DEFAULT_FRACTIONS);
        assert_eq!(fractions("90,10%,50").unwrap(), [10.0, 50.0, 90.0]);
        assert_eq!(fractions("0").unwrap_err(), CurveError::Fraction("0".into()));
        assert!(fractions("120").is_err());
    }

    #[test]
    fn stop_rules() {
        let r = StopRule::parse("2ms").unwrap();
        assert_eq!(r, StopRule { limit_ns: 2_000_000, watched: Watched::Percentile(99.0) });
        assert_eq!(StopRule::parse("500:mean").unwrap().limit_ns, 500_000);
        assert_eq!(StopRule::parse("1.5ms:99.9").unwrap().watched, Watched::Percentile(99.9));
        assert!(StopRule::parse("2ms:95").is_err());
        assert!(StopRule::parse("fast").is_err());
        let m = Metrics { lat_p99_ns: Some(2_500_000), lat_mean_ns: 1e6, ..Metrics::default() };
        assert!(r.passed(&m));
        assert!(!StopRule::parse("2ms:mean").unwrap().passed(&m));
        assert_eq!(r.describe(), "p99 latency > 2000 us");
    }

    #[test]
    fn rates_split_over_the_jobs() {
        assert_eq!(rate_per_job(100_000.0, 50.0, 4), 12_500);
        assert_eq!(rate_per_job(10.0, 1.0, 4), 1);
    }
}
