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
//! when it starts ([`links`]) in memory shared with the run's job processes
//! ([`SharedWords`]), and handed to each job with its links. Each job also keeps there the
//! weight it holds in its flow and the I/Os it counted, so that the parent can take out
//! those of a job process that died without leaving ([`FlowLink::release`]).

use iomark_engine::shared::SharedWords;
use iomark_plan::pacing::FlowPlan;
use iomark_plan::JobPlan;
use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// A job's link to its flow: its settings and the counters it shares with the other jobs
/// of the flow.
#[derive(Debug, Clone)]
pub struct FlowLink {
    /// The job's flow settings.
    flow: FlowPlan,
    /// The run's shared words.
    words: Arc<SharedWords>,
    /// Where the flow's counters are: the sum of the weights of its running jobs, then the
    /// sum of their I/Os.
    at: usize,
    /// Where the job's own are: the weight it holds in the flow, then its I/Os counted.
    own: usize,
    /// Whether the job's weight counts from the start of the run (it starts at once).
    counted: bool,
}

impl FlowLink {
    fn word(&self, i: usize) -> &AtomicU64 {
        &self.words.wide()[i]
    }

    /// Takes the job out of its flow: its weight and its I/Os no longer count. What a
    /// leaving job does; the parent does it again for a job process once it has ended
    /// (nothing is left then, unless the process died first).
    pub(crate) fn release(&self) {
        let held = self.word(self.own).swap(0, Ordering::Relaxed);
        self.word(self.at).fetch_sub(held, Ordering::Relaxed);
        let mine = self.word(self.own + 1).swap(0, Ordering::Relaxed);
        self.word(self.at + 1).fetch_sub(mine, Ordering::Relaxed);
    }
}

/// Where a job's flow counters are among the shared words: the flow's, the job's own, and
/// whether its weight counts from the start.
type Place = (usize, usize, bool);

/// Where each job's flow counters are among the shared words, and how many words the
/// run's flows need: the jobs of each flow (the same `flow_id`, in the same wave) share
/// theirs.
pub fn layout(plans: &[JobPlan], waves: &[Range<usize>]) -> (Vec<Option<Place>>, usize) {
    let mut places = vec![None; plans.len()];
    let mut next = 0;
    for wave in waves {
        let mut flows: BTreeMap<u64, usize> = BTreeMap::new();
        for i in wave.clone() {
            let plan = &plans[i];
            let Some(flow) = plan.pacing.flow else { continue };
            let at = *flows.entry(flow.id).or_insert_with(|| {
                next += 2;
                next - 2
            });
            let counted = plan.schedule.wait_for.is_none() && plan.limits.startdelay.is_zero();
            places[i] = Some((at, next, counted));
            next += 2;
        }
    }
    (places, next)
}

/// The links of each job of one run of `plans`, run in `waves`, to its flow (`None` for a
/// job outside any), in `words` (which hold [`layout`]'s count at least). With `first`
/// (the run's own process, not a job process joining it), the weights of the jobs that
/// start at once count from now.
pub fn links(
    plans: &[JobPlan],
    waves: &[Range<usize>],
    words: &Arc<SharedWords>,
    first: bool,
) -> Vec<Option<FlowLink>> {
    let (places, _) = layout(plans, waves);
    let links: Vec<Option<FlowLink>> = places
        .into_iter()
        .zip(plans)
        .map(|(place, plan)| {
            let (at, own, counted) = place?;
            let flow = plan.pacing.flow?;
            Some(FlowLink { flow, words: Arc::clone(words), at, own, counted })
        })
        .collect();
    for link in links.iter().flatten().filter(|l| first && l.counted) {
        link.word(link.at).fetch_add(link.flow.weight, Ordering::Relaxed);
        link.word(link.own).store(link.flow.weight, Ordering::Relaxed);
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
            link.word(link.at).fetch_add(link.flow.weight, Ordering::Relaxed);
            link.word(link.own).fetch_add(link.flow.weight, Ordering::Relaxed);
        }
        FlowMember { link, mine: 0 }
    }

    /// Whether the job may issue its next I/O now (it has not run ahead of its share).
    #[inline]
    pub(crate) fn may_issue(&self) -> bool {
        let link = &self.link;
        let total_weight = link.word(link.at).load(Ordering::Relaxed).max(1);
        let total = link.word(link.at + 1).load(Ordering::Relaxed);
        u128::from(self.mine) * u128::from(total_weight)
            <= u128::from(link.flow.weight) * u128::from(total) + u128::from(total_weight)
    }

    /// Counts an I/O issued.
    #[inline]
    pub(crate) fn issued(&mut self) {
        self.mine += 1;
        let link = &self.link;
        link.word(link.at + 1).fetch_add(1, Ordering::Relaxed);
        link.word(link.own + 1).store(self.mine, Ordering::Relaxed);
    }

    /// How long to wait when held back, in microseconds (0: yield the CPU).
    pub(crate) fn sleep_us(&self) -> u64 {
        self.link.flow.sleep_us
    }
}

impl Drop for FlowMember {
    /// Leaves the flow: the others go on without this job's weight and I/Os.
    fn drop(&mut self) {
        self.link.release();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flow(weight: u64, words: &Arc<SharedWords>, own: usize) -> FlowLink {
        let flow = FlowPlan { id: 0, weight, sleep_us: 0 };
        FlowLink { flow, words: Arc::clone(words), at: 0, own, counted: false }
    }

    fn words() -> Arc<SharedWords> {
        Arc::new(SharedWords::create(6, 0).expect("shared words"))
    }

    #[test]
    fn shares_follow_the_weights() {
        let words = words();
        let mut a = FlowMember::join(flow(2, &words, 2));
        let mut b = FlowMember::join(flow(1, &words, 4));
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
        let words = words();
        let mut a = FlowMember::join(flow(1, &words, 2));
        let b = FlowMember::join(flow(1, &words, 4));
        while a.may_issue() {
            a.issued();
        }
        assert_eq!(a.mine, 3, "held back by b, which issued nothing");
        drop(b);
        assert!(a.may_issue());
        drop(a);
        assert!(words.wide().iter().all(|w| w.load(Ordering::Relaxed) == 0));
    }

    #[test]
    fn a_member_that_never_left_is_released_by_its_link() {
        let words = words();
        let link = flow(3, &words, 2);
        let mut a = FlowMember::join(link.clone());
        a.issued();
        // A job process killed in its loop: its member is never dropped.
        std::mem::forget(a);
        assert_eq!(words.wide()[0].load(Ordering::Relaxed), 3);
        link.release();
        assert!(words.wide().iter().all(|w| w.load(Ordering::Relaxed) == 0));
    }
}
