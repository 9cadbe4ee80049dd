//! Latency limits and the latency-target search, resolved (`max_latency`,
//! `latency_target`, `latency_window`, `latency_percentile`, `latency_run`). The search
//! itself is the runner's `target` (fio 3.33's rules are there).

use crate::error::OptionError;
use iomark_options::keys;
use iomark_options::value::time::parse_time;
use iomark_options::value::TimeUnit;
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
                Some(text) => max_latency(&text)?,
                None => [0; 3],
            },
        })
    }
}

/// `max_latency`'s value: up to three times (microseconds without a unit) for reads,
/// writes and trims, following fio's rule for per-direction values (`5ms` for all three,
/// `1ms,2ms` gives trims the writes' limit, a blank entry no limit).
fn max_latency(text: &str) -> Result<[u64; 3], OptionError> {
    let bad =
        |why: String| OptionError::new(keys::MAX_LATENCY, format!("invalid value '{text}': {why}"));
    let fields: Vec<&str> = text.split(',').map(str::trim).collect();
    if fields.len() > 3 {
        return Err(bad("at most three values: reads, writes, trims".into()));
    }
    let mut values = Vec::with_capacity(3);
    for field in &fields {
        let ns = match *field {
            "" => 0,
            f => parse_time(f, TimeUnit::Micros).map_err(|e| bad(e.to_string()))?.as_nanos(),
        };
        values.push(u64::try_from(ns).unwrap_or(u64::MAX));
    }
    Ok(match values.as_slice() {
        [a] => [*a; 3],
        [a, b] => [*a, *b, *b],
        [a, b, c] => [*a, *b, *c],
        _ => [0; 3],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_latency_takes_per_direction_times_in_microseconds() {
        assert_eq!(max_latency("5ms"), Ok([5_000_000; 3]));
        assert_eq!(max_latency("100,2ms"), Ok([100_000, 2_000_000, 2_000_000]));
        assert_eq!(max_latency(",1s,"), Ok([0, 1_000_000_000, 0]));
        let e = max_latency("5parsecs").unwrap_err().message;
        assert!(e.contains("option 'max_latency'") && e.contains("5parsecs"), "{e}");
    }
}
