//! Flow control between jobs: `flow`, `flow_id`, `flow_sleep`.
//!
//! Jobs with a `flow` weight and the same `flow_id` (0 by default) keep their numbers of
//! I/Os in proportion to their weights: with `flow=2` and `flow=1`, fio 3.33 issues twice
//! as many I/Os in the first job as in the second (381117 and 190560 in a second on the
//! null engine). A job that has run ahead of its share waits `flow_sleep` microseconds
//! (or yields the CPU when that is 0) and looks again. A job that ends leaves the flow,
//! and the others go on without it.
//!
//! The jobs of a flow share two counters, the sum of their weights and the sum of their
//! I/Os, as atomics (no lock). A job of weight w that has issued n I/Os may issue the
//! next one when `n · W ≤ w · N + W`, with W and N the flow's sums: its share `n / N`
//! stays within one I/O's worth of `w / W`. Some job of the flow may always go on (the
//! shares cannot all be ahead), so a flow never blocks itself.
//!
//! The jobs that start together (one wave between stonewalls) count in their flow from the
//! moment the run starts, so the first thread to start does not run alone until the
//! others have started; a job that waits first (`wait_for`, `startdelay`) joins its flow
//! when it starts. Jobs of different waves never run together and do not share counters.
//!
//! The plan holds each job's flow settings ([`FlowPlan`]); the counters are the run's, made
//! when it starts ([`links`]) and handed to each job with its links.

use iomark_plan::pacing::FlowPlan;
use iomark_plan::JobPlan;
use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// What the jobs of one flow share.
#[derive(Debug, Default)]
pub struct FlowShared {
    /// The weights of the jobs running in the flow, summed.
    weight: AtomicU64,
    /// The I/Os issued by the jobs running in the flow, summed.
    ios: AtomicU64,
}

/// A job's link to its flow: its settings and the counters it shares with the other jobs
/// of the flow.
#[derive(Debug, Clone)]
pub struct FlowLink {
    /// The job's flow settings.
    flow: FlowPlan,
    /// The counters shared with the other jobs of the flow.
    shared: Arc<FlowShared>,
    /// Whether the job's weight counts from the start of the run (it starts at once).
    counted: bool,
}

/// The links of each job of one run of `plans`, run in `waves`, to its flow (`None` for a
/// job outside any): the jobs of each flow (the same `flow_id`, in the same wave) share
/// their counters, and the weights of those that start at once count from now.
pub fn links(plans: &[JobPlan], waves: &[Range<usize>]) -> Vec<Option<FlowLink>> {
    let mut links = vec![None; plans.len()];
    for wave in waves {
        let mut flows: BTreeMap<u64, Arc<FlowShared>> = BTreeMap::new();
        for i in wave.clone() {
            let plan = &plans[i];
            let Some(flow) = plan.pacing.flow else { continue };
            let counted = plan.schedule.wait_for.is_none() && plan.limits.startdelay.is_zero();
            let shared = Arc::clone(flows.entry(flow.id).or_default());
            if counted {
                shared.weight.fetch_add(flow.weight, Ordering::Relaxed);
            }
            links[i] = Some(FlowLink { flow, shared, counted });
        }
    }
    links
}

/// A running job's membership of its flow; it leaves the flow when dropped.
#[derive(Debug)]
pub(crate) struct FlowMember {
    link: FlowLink,
    /// The I/Os this job has issued.
    mine: u64,
}

impl FlowMember {
    /// Joins the flow of `link` (its weight counts from [`links`] or from now).
    pub(crate) fn join(link: FlowLink) -> FlowMember {
        if !link.counted {
            link.shared.weight.fetch_add(link.flow.weight, Ordering::Relaxed);
        }
        FlowMember { link, mine: 0 }
    }

    /// Whether the job may issue its next I/O now (it has not run ahead of its share).
    #[inline]
    pub(crate) fn may_issue(&self) -> bool {
        let shared = &self.link.shared;
        let total_weight = shared.weight.load(Ordering::Relaxed).max(1);
        let total = shared.ios.load(Ordering::Relaxed);
        u128::from(self.mine) * u128::from(total_weight)
            <= u128::from(self.link.flow.weight) * u128::from(total) + u128::from(total_weight)
    }

    /// Counts an I/O issued.
    #[inline]
    pub(crate) fn issued(&mut self) {
        self.mine += 1;
        self.link.shared.ios.fetch_add(1, Ordering::Relaxed);
    }

    /// How long to wait when held back, in microseconds (0: yield the CPU).
    pub(crate) fn sleep_us(&self) -> u64 {
        self.link.flow.sleep_us
    }
}

impl Drop for FlowMember {
    /// Leaves the flow: the others go on without this job's weight and I/Os.
    fn drop(&mut self) {
        let shared = &self.link.shared;
        shared.weight.fetch_sub(self.link.flow.weight, Ordering::Relaxed);
        shared.ios.fetch_sub(self.mine, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flow(weight: u64, shared: &Arc<FlowShared>) -> FlowLink {
        let flow = FlowPlan { id: 0, weight, sleep_us: 0 };
        FlowLink { flow, shared: Arc::clone(shared), counted: false }
    }

    #[test]
    fn shares_follow_the_weights() {
        let shared = Arc::default();
        let mut a = FlowMember::join(flow(2, &shared));
        let mut b = FlowMember::join(flow(1, &shared));
        // Each turn, every job that may go issues one I/O.
        for _ in 0..3000 {
            if a.may_issue() {
                a.issued();
            }
            if b.may_issue() {
                b.issued();
            }
        }
        // 2:1, within the slack the rule allows.
        assert_eq!((a.mine, b.mine), (3000, 1502));
    }

    #[test]
    fn a_job_that_leaves_releases_the_others() {
        let shared = Arc::default();
        let mut a = FlowMember::join(flow(1, &shared));
        let b = FlowMember::join(flow(1, &shared));
        while a.may_issue() {
            a.issued();
        }
        assert_eq!(a.mine, 3, "held back by b, which issued nothing");
        drop(b);
        assert!(a.may_issue());
        drop(a);
        assert_eq!(shared.weight.load(Ordering::Relaxed), 0);
        assert_eq!(shared.ios.load(Ordering::Relaxed), 0);
    }
}
