//! When jobs run and how they are grouped: fio's `stonewall`, `new_group` and `wait_for`.
//!
//! Jobs start in order. A job with `stonewall` waits until every earlier job has finished,
//! so the jobs between two stonewalls form a wave that runs at once. `wait_for=NAME` makes a
//! job wait, within its wave, until every clone of the job NAME has finished. Reporting
//! groups are numbered from 0; a job with `stonewall` or `new_group` opens the next group
//! (the first job always is in group 0), and clones share their job's group.

use super::error::ScheduleError;
use iomark_plan::JobPlan;

/// Which group each plan belongs to, in order.
pub fn group_ids(plans: &[JobPlan]) -> Vec<u32> {
    let mut ids = Vec::with_capacity(plans.len());
    let mut group = 0u32;
    for (i, plan) in plans.iter().enumerate() {
        let first_clone = plan.job.jobnum == 0;
        if i > 0 && first_clone && plan.schedule.new_group {
            group += 1;
        }
        ids.push(group);
    }
    ids
}

/// The waves: ranges of plan indexes that run at the same time, in order.
pub fn waves(plans: &[JobPlan]) -> Vec<std::ops::Range<usize>> {
    let mut waves = Vec::new();
    let mut start = 0;
    for (i, plan) in plans.iter().enumerate() {
        if i > start && plan.job.jobnum == 0 && plan.schedule.stonewall {
            waves.push(start..i);
            start = i;
        }
    }
    if start < plans.len() {
        waves.push(start..plans.len());
    }
    waves
}

/// For each plan, the indexes of the plans it must wait for within its wave (`wait_for`);
/// a job of an earlier wave has finished already. A name that matches no earlier job is an
/// error, naming the job.
pub fn waits(
    plans: &[JobPlan],
    wave: std::ops::Range<usize>,
) -> Result<Vec<Vec<usize>>, ScheduleError> {
    let mut out = Vec::with_capacity(wave.len());
    for i in wave.clone() {
        let Some(target) = &plans[i].schedule.wait_for else {
            out.push(Vec::new());
            continue;
        };
        let found: Vec<usize> = (wave.start..i).filter(|&j| &plans[j].job.name == target).collect();
        let earlier = plans[..wave.start].iter().any(|p| &p.job.name == target);
        if found.is_empty() && !earlier {
            let (job, target) = (plans[i].job.name.clone(), target.clone());
            return Err(ScheduleError::WaitFor { job, target });
        }
        out.push(found);
    }
    Ok(out)
}
