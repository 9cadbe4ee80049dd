//! What paces a job's I/Os, resolved: rate limits and minimums ([`RatePlan`]), think time
//! ([`ThinkPlan`]), latency limits and the latency-target search ([`LatencyPlan`]), the
//! steady-state watch ([`SteadyPlan`]) and the job's place in a flow ([`FlowPlan`]). The
//! runner's job controls act on them; what the jobs of a flow share while they run is the
//! runner's too.

mod latency;
mod rate;
mod steady;
mod think;

pub use latency::LatencyPlan;
pub use rate::{RatePlan, RateProcess};
pub use steady::{Criterion, SteadyPlan};
pub use think::ThinkPlan;

use crate::error::OptionError;
use iomark_options::keys;
use iomark_options::JobSpec;

/// What paces a job's I/Os.
#[derive(Debug, Clone, PartialEq)]
pub struct PacingPlan {
    /// Rate limits and minimums (`rate`, `rate_iops`, `rate_min`, …).
    pub rate: RatePlan,
    /// Think time (`thinktime` and its options), if any.
    pub think: Option<ThinkPlan>,
    /// Latency limits and the latency-target search.
    pub latency: LatencyPlan,
    /// The steady-state watch (`ss`, `ss_dur`, `ss_ramp`), if `ss_dur` is set.
    pub steady: Option<SteadyPlan>,
    /// The job's flow (`flow`, `flow_id`, `flow_sleep`), if its weight is set.
    pub flow: Option<FlowPlan>,
}

impl PacingPlan {
    /// The pacing options of `spec`; `min_bs` is each direction's smallest block size (the
    /// measure of `rate_iops`).
    pub fn of(spec: &JobSpec, min_bs: [u64; 3]) -> Result<PacingPlan, OptionError> {
        Ok(PacingPlan {
            rate: RatePlan::of(spec, min_bs)?,
            think: ThinkPlan::of(spec),
            latency: LatencyPlan::of(spec)?,
            steady: SteadyPlan::of(spec)?,
            flow: FlowPlan::of(spec),
        })
    }
}

/// A job's place in a flow (`flow`, `flow_id`, `flow_sleep`; see the runner's `flow`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FlowPlan {
    /// `flow_id`: the jobs of one flow share it.
    pub id: u64,
    /// `flow`: the job's weight (at least 1).
    pub weight: u64,
    /// `flow_sleep`, in microseconds.
    pub sleep_us: u64,
}

impl FlowPlan {
    /// The flow settings of `spec`; `None` when its `flow` weight is 0.
    pub fn of(spec: &JobSpec) -> Option<FlowPlan> {
        let weight = spec.get(keys::FLOW).unwrap_or(0);
        (weight > 0).then(|| FlowPlan {
            id: spec.get(keys::FLOW_ID).unwrap_or(0),
            weight,
            sleep_us: spec.get(keys::FLOW_SLEEP).unwrap_or(0),
        })
    }
}
