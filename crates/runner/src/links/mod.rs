//! What the jobs of a run share while they run: the file locks of `lockfile`
//! ([`lockfile`]), the counters of each flow ([`flow`]), the stop flags of `exitall`,
//! `exitall_on_error` and `exit_what` (here), the board where they answer requests for
//! interim reports ([`status`]) and the counters they publish their progress in
//! ([`progress`]). [`RunLinks`] is made once per run; each job gets its [`JobLinks`]. None
//! of it is in the plans, which hold no live state.
//!
//! fio 3.33's rules for ending jobs early, read off its reports:
//!
//! - `exitall` set on any job of the run turns it on for the whole run (a job without it
//!   ending still stops the others): whenever a job that started ends, the jobs its
//!   `exit_what` names are stopped.
//! - `exitall_on_error` is the job's own: when that job ends with an error, the jobs its
//!   `exit_what` names are stopped.
//! - `exit_what=group` (the default): the running and waiting jobs of the ending job's
//!   reporting group. `stonewall`: every job of the current wave (up to the next
//!   `stonewall`); the next wave starts as usual. `all`: every job, and no later job starts.
//! - A stopped job ends as if its I/O were done (no error), and its own end counts in turn:
//!   a job with `exit_what=all` stopped by its group's end stops everything.

pub(crate) mod flow;
pub(crate) mod lockfile;
pub(crate) mod progress;
pub(crate) mod status;

use flow::FlowLink;
use iomark_plan::schedule::{ExitWhat, SchedulePlan};
use iomark_plan::JobPlan;
use iomark_stats::block::BlockTracing;
use lockfile::{FileLocks, JobLocks};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

/// What the jobs of one run share.
#[derive(Debug)]
pub(crate) struct RunLinks {
    locks: FileLocks,
    /// Each job's link to its flow, if it has one.
    flows: Vec<Option<FlowLink>>,
    /// Some job sets `exitall`.
    exitall: bool,
    /// The reporting group of each job.
    groups: Vec<u32>,
    /// The wave (a range of jobs) of each job.
    waves: Vec<std::ops::Range<usize>>,
    /// Per reporting group: its jobs are to stop.
    group_stop: Vec<AtomicBool>,
    /// No further job is to start.
    all_stop: AtomicBool,
    /// Whether each job is a cpuio job, and the jobs that are not and have not ended.
    cpu: Vec<bool>,
    io_left: AtomicUsize,
    /// The reporting groups of the cpuio jobs with `exit_on_io_done`.
    io_done_groups: Vec<u32>,
    /// The run's block-layer tracing, and whether every job asks for it.
    pub(crate) block: Option<(Arc<dyn BlockTracing>, bool)>,
    /// The control groups of the run's job processes.
    pub(crate) cgroups: crate::system::cgroup::Cgroups,
}

impl RunLinks {
    /// The links of a run of `plans`, in reporting `groups`, run in `all_waves` (ranges of
    /// jobs that run at once, one after the other).
    pub(crate) fn new(
        plans: &[JobPlan],
        groups: Vec<u32>,
        all_waves: &[std::ops::Range<usize>],
    ) -> RunLinks {
        let mut waves = vec![0..0; plans.len()];
        for wave in all_waves {
            for w in &mut waves[wave.clone()] {
                *w = wave.clone();
            }
        }
        let group_count = groups.iter().max().map_or(0, |&g| g as usize + 1);
        let cpu: Vec<bool> = plans.iter().map(|p| p.engine.name == "cpuio").collect();
        let io_done_groups = plans
            .iter()
            .zip(&groups)
            .filter(|(p, _)| p.engine.options.exit_on_io_done)
            .map(|(_, &g)| g)
            .collect();
        let io_left = cpu.iter().filter(|&&c| !c).count();
        let links = RunLinks {
            locks: FileLocks::new(plans.iter().map(|p| &p.files)),
            flows: flow::links(plans, all_waves),
            exitall: plans.iter().any(|p| p.schedule.exitall),
            groups,
            waves,
            group_stop: (0..group_count).map(|_| AtomicBool::new(false)).collect(),
            all_stop: AtomicBool::new(false),
            cpu,
            io_left: AtomicUsize::new(io_left),
            io_done_groups,
            block: None,
            cgroups: crate::system::cgroup::Cgroups::default(),
        };
        if io_left == 0 {
            links.io_done();
        }
        links
    }

    /// Every job that is not cpuio has ended: the cpuio jobs with `exit_on_io_done` stop.
    fn io_done(&self) {
        for &g in &self.io_done_groups {
            self.group_stop[g as usize].store(true, Ordering::Relaxed);
        }
    }

    /// What job `i` (`plan`) takes part in.
    pub(crate) fn job(&self, i: usize, plan: &JobPlan) -> JobLinks<'_> {
        JobLinks {
            locks: self.locks.for_job(&plan.files),
            flow: self.flows[i].clone(),
            stop: self.stop_flag(i),
            block: self
                .block
                .as_ref()
                .filter(|(_, all)| *all || plan.report.block_latency)
                .map(|(t, _)| t.as_ref()),
        }
    }

    /// The flag that tells job `i` to stop.
    fn stop_flag(&self, i: usize) -> &AtomicBool {
        &self.group_stop[self.groups[i] as usize]
    }

    /// Whether job `i` is to stop (or not start).
    pub(crate) fn stopped(&self, i: usize) -> bool {
        self.all_stop.load(Ordering::Relaxed) || self.stop_flag(i).load(Ordering::Relaxed)
    }

    /// Job `i` (scheduled as `plan` says), which had started, has ended, with an error or
    /// not: stops the jobs `exitall` or `exitall_on_error` and its `exit_what` name.
    pub(crate) fn job_ended(&self, i: usize, plan: &SchedulePlan, errored: bool) {
        if !self.cpu[i] && self.io_left.fetch_sub(1, Ordering::Relaxed) == 1 {
            self.io_done();
        }
        if !(self.exitall || (errored && plan.exitall_on_error)) {
            return;
        }
        let stop_group = |g: u32| self.group_stop[g as usize].store(true, Ordering::Relaxed);
        match plan.exit_what {
            ExitWhat::Group => stop_group(self.groups[i]),
            ExitWhat::Stonewall => {
                self.groups[self.waves[i].clone()].iter().for_each(|&g| stop_group(g))
            }
            ExitWhat::All => {
                self.all_stop.store(true, Ordering::Relaxed);
                (0..self.group_stop.len() as u32).for_each(stop_group);
            }
        }
    }
}

/// What one job shares with the others.
#[derive(Debug)]
pub(crate) struct JobLinks<'a> {
    /// Its file locks, when it sets `lockfile`.
    pub(crate) locks: Option<JobLocks>,
    /// Its link to its flow, when it has one.
    pub(crate) flow: Option<FlowLink>,
    /// Set when the job is to stop because another ended (`exitall`): checked with the
    /// run's stop request, one relaxed load per I/O.
    pub(crate) stop: &'a AtomicBool,
    /// The run's block-layer tracing, when the job asks for the split.
    pub(crate) block: Option<&'a dyn BlockTracing>,
}
