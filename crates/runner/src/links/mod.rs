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
use iomark_engine::shared::SharedWords;
use iomark_plan::schedule::{ExitWhat, SchedulePlan};
use iomark_plan::JobPlan;
use iomark_stats::block::BlockTracing;
use lockfile::{FileLocks, JobLocks};
use std::os::fd::RawFd;
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
    /// The memory the flows and file locks live in, shared with the run's job processes.
    words: Arc<SharedWords>,
}

/// The environment variable that tells a job process which of its descriptors is the
/// memory its run shares ([`RunLinks::pass_to`]).
const SHARED_FD: &str = "IOMARK_SHARED_FD";

impl RunLinks {
    /// The links of a run of `plans`, in reporting `groups`, run in `all_waves` (ranges of
    /// jobs that run at once, one after the other).
    ///
    /// In a job process (`joining`), the flows and file locks are those of the run that
    /// started it, in the memory it passed on ([`RunLinks::pass_to`]); the process's
    /// own when there is none.
    pub(crate) fn new(
        plans: &[JobPlan],
        groups: Vec<u32>,
        all_waves: &[std::ops::Range<usize>],
        joining: bool,
    ) -> Result<RunLinks, crate::RunError> {
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
        let paths = lockfile::paths(plans.iter().map(|p| &p.files));
        let (_, wide) = flow::layout(plans, all_waves);
        let inherited = std::env::var(SHARED_FD).ok().and_then(|fd| fd.parse::<RawFd>().ok());
        let inherited = inherited
            .filter(|_| joining)
            .and_then(|fd| SharedWords::inherited(fd, wide, paths.len()).ok());
        let first = inherited.is_none();
        // Without memory to share (no memfd, no mapping), flows and locks cannot work.
        let words = match inherited {
            Some(words) => words,
            None => {
                SharedWords::create(wide, paths.len()).map_err(crate::RunError::SharedMemory)?
            }
        };
        let words = Arc::new(words);
        let links = RunLinks {
            locks: FileLocks::new(paths, &words),
            flows: flow::links(plans, all_waves, &words, first),
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
            words,
        };
        if io_left == 0 {
            links.io_done();
        }
        Ok(links)
    }

    /// Lets the job process that `command` starts share this run's flows and file locks.
    pub(crate) fn pass_to(&self, command: &mut std::process::Command) {
        if let Some(fd) = self.words.pass_to(command) {
            command.env(SHARED_FD, fd.to_string());
        }
    }

    /// Job `i`, which ran in a process of its own, has ended: what it held in its flow
    /// (all of it, if the process died in its loop) no longer counts.
    pub(crate) fn process_ended(&self, i: usize) {
        if let Some(link) = &self.flows[i] {
            link.release();
        }
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
