//! Rate limits, resolved (`rate`, `rate_iops`, `rate_process`, `rate_min`, `rate_iops_min`,
//! `rate_cycle`). How a job keeps them is the runner's `pace` (fio 3.33's rules are there).

use crate::error::OptionError;
use crate::workload::sizes;
use iomark_options::keys::{self, Key};
use iomark_options::JobSpec;

/// How a rate-limited job spaces its I/Os (`rate_process`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RateProcess {
    /// Fixed gaps.
    Linear,
    /// Exponentially distributed gaps of the same mean.
    Poisson,
}

/// A job's rate options, resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RatePlan {
    /// Bytes per second per direction (`rate`, or `rate_iops` times the direction's
    /// smallest block size); 0 for no limit.
    pub rate: [u64; 3],
    /// How the I/Os are spaced.
    pub process: RateProcess,
    /// The least bytes per second per direction (`rate_min`), 0 for none.
    pub rate_min: [u64; 3],
    /// The least I/Os per second per direction (`rate_iops_min`), 0 for none.
    pub rate_iops_min: [u64; 3],
    /// The window of the minimum checks in milliseconds (`rate_cycle`).
    pub cycle_ms: u64,
}

impl RatePlan {
    /// The rate options of `spec`; `min_bs` is each direction's smallest block size.
    pub fn of(spec: &JobSpec, min_bs: [u64; 3]) -> Result<RatePlan, OptionError> {
        if spec.is_set(keys::RATE) && spec.is_set(keys::RATE_IOPS) {
            return Err(OptionError::about(
                keys::RATE_IOPS,
                "options 'rate' and 'rate_iops' are mutually exclusive",
            ));
        }
        let rate = if spec.is_set(keys::RATE_IOPS) {
            let iops = ints(spec, keys::RATE_IOPS);
            [0, 1, 2].map(|d| iops[d].saturating_mul(min_bs[d]))
        } else {
            sizes(spec.get(keys::RATE), [0; 3])
        };
        let process = match spec.get(keys::RATE_PROCESS).map(|c| c.name) {
            Some("poisson") => RateProcess::Poisson,
            _ => RateProcess::Linear,
        };
        let cycle_ms = spec.get(keys::RATE_CYCLE).unwrap_or(1000);
        let rate_min = sizes(spec.get(keys::RATE_MIN), [0; 3]);
        // `rate_cycle=0` checks at every completion after the first two seconds, the rate
        // over the time since the one before, as fio 3.33 does.
        let rate_iops_min = ints(spec, keys::RATE_IOPS_MIN);
        Ok(RatePlan { rate, process, rate_min, rate_iops_min, cycle_ms })
    }

    /// Whether any direction has a rate limit.
    pub fn limits(&self) -> bool {
        self.rate.iter().any(|&r| r > 0)
    }

    /// Whether the job checks a minimum rate.
    pub fn checks_min(&self) -> bool {
        self.rate_min.iter().chain(&self.rate_iops_min).any(|&m| m > 0)
    }
}

/// A per-direction whole-number option, 0 where not given.
fn ints(spec: &JobSpec, key: Key<[Option<i64>; 3]>) -> [u64; 3] {
    spec.given(key).map_or([0; 3], |v| v.map(|n| n.map_or(0, |n| u64::try_from(n).unwrap_or(0))))
}
