//! Latency limits and the latency-target search, resolved (`max_latency`,
//! `latency_target`, `latency_window`, `latency_percentile`, `latency_run`). The search
//! itself is the runner's `target` (fio 3.33's rules are there).

use crate::error::OptionError;
use iomark_options::keys;
use iomark_options::value::latency::read_max_latency;
use iomark_options::value::Ctx;
use iomark_options::JobSpec;
use std::time::Duration;

/// A job's latency options, resolved.
#[derive(Debug, Clone, PartialEq)]
pub struct LatencyPlan {
    /// The latency to meet, in nanoseconds (0: no search).
    pub target_ns: u64,
    /// How long each depth is tried, in nanoseconds.
    pub window_ns: u64,
    /// The share of I/Os that must meet the target, in percent.
    pub percentile: f64,
    /// Keep adjusting the depth instead of ending once it is found (`latency_run`).
    pub run: bool,
    /// The most latency tolerated per direction, in nanoseconds (0: no limit).
    pub max_ns: [u64; 3],
}

impl LatencyPlan {
    /// The latency options of `spec`.
    pub fn of(spec: &JobSpec) -> Result<LatencyPlan, OptionError> {
        let ns = |key| spec.get(key).map_or(0, |d: Duration| d.as_nanos() as u64);
        Ok(LatencyPlan {
            target_ns: ns(keys::LATENCY_TARGET),
            window_ns: ns(keys::LATENCY_WINDOW),
            percentile: spec.get(keys::LATENCY_PERCENTILE).unwrap_or(100.0),
            run: spec.flag(keys::LATENCY_RUN),
            max_ns: match spec.get(keys::MAX_LATENCY) {
                Some(text) => max_latency(&text, &spec.ctx())?,
                None => [0; 3],
            },
        })
    }
}

/// `max_latency`'s value, as fio 3.33 reads it ([`read_max_latency`]; its leniency is noted
/// when the job is parsed).
fn max_latency(text: &str, ctx: &Ctx) -> Result<[u64; 3], OptionError> {
    read_max_latency(text, ctx)
        .map(|(limits, _)| limits)
        .map_err(|e| OptionError::new(keys::MAX_LATENCY, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_latency_takes_per_direction_times_in_microseconds() {
        let max_latency = |t| max_latency(t, &Ctx::default());
        assert_eq!(max_latency("5ms"), Ok([5_000_000; 3]));
        assert_eq!(max_latency("100,2ms"), Ok([100_000, 2_000_000, 2_000_000]));
        assert_eq!(max_latency("1s,2s,3s,4s"), Ok([1_000_000_000, 2_000_000_000, 3_000_000_000]));
        let e = max_latency("xyz").unwrap_err().message;
        assert!(e.contains("option 'max_latency'") && e.contains("xyz"), "{e}");
    }
}
