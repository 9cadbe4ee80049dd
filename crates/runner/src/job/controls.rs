//! The controls that act between a job's I/Os: rate limits and minimums ([`crate::features::pace`]),
//! think time ([`crate::features::think`]), latency limits and targets ([`crate::features::target`]), and the
//! steady-state watch ([`crate::features::steady`]), and flow control between jobs ([`crate::links::flow`]).
//!
//! A job without any of them has no [`Controls`], and the loop's hooks cost it one test of
//! an `Option` each. The hooks are called from four places: at the top of the loop, before
//! the checks that end it (`Loop::between_ios`), before a request is drawn
//! ([`Controls::steer`]), before it is issued (`Loop::pace`) and at the single completion
//! point ([`Controls::completed`]). The ones here are the controls' own, and take the few
//! hot values they need; the ones that wait complete the I/Os in flight first, so they are
//! the loop's (`waits.rs`). What a completion decides that needs the I/Os in flight to be
//! reaped first (the final run of a latency target starting the statistics over) waits for
//! the top of the loop, since completions may be handled in the middle of a batch.

use super::hot::Hot;
use crate::features::pace::{MinRate, Pacer};
use crate::features::steady::Steady;
use crate::features::target::{DepthSearch, Step};
use crate::features::think::Think;
use crate::links::flow::{FlowLink, FlowMember};
use iomark_core::Ddir;
use iomark_plan::files::FilesPlan;
use iomark_plan::pacing::{LatencyPlan, PacingPlan};
use iomark_workload::FioSeeds;
use std::time::Duration;

/// The longest single sleep: a job waiting for a far due time still notices a stop request
/// this often.
pub(super) const WAIT_SLICE: Duration = Duration::from_millis(100);

/// What acts between the I/Os of one job.
pub(super) struct Controls<'a> {
    /// The rate schedule, if a direction has a limit.
    pacer: Option<Pacer>,
    /// Which directions a mixed job's rates choose between (none for other jobs).
    steer: Option<[bool; 3]>,
    /// The minimum-rate checks.
    min_rate: Option<MinRate>,
    /// Think time.
    think: Option<Think>,
    /// The latency-target search.
    search: Option<DepthSearch>,
    /// `max_latency` per direction, in nanoseconds (0: none).
    max_ns: [u64; 3],
    /// The final run of the search starts at the next top of the loop.
    restart: bool,
    /// The steady-state watch.
    steady: Option<Steady>,
    /// The job's flow; leaves it when dropped.
    flow: Option<FlowMember>,
    /// The latency target and its percentile, for the message when it is not met.
    latency: &'a LatencyPlan,
    /// The job's name, for the messages.
    job: &'a str,
    /// The job's files, for the message of a latency over `max_latency`.
    files: &'a FilesPlan,
}

impl<'a> Controls<'a> {
    /// The controls of `plan`, for `job` (its name and files) of `iodepth` units doing
    /// `dirs` and starting at `now`, with its link to its flow; `seeds` seed the rate's
    /// Poisson gaps. `None` when it has none.
    pub(super) fn new(
        plan: &'a PacingPlan,
        (job, files): (&'a str, &'a FilesPlan),
        (iodepth, seeds, dirs): (u32, &FioSeeds, [bool; 3]),
        now: u64,
        flow: Option<FlowLink>,
    ) -> Option<Box<Controls<'a>>> {
        let pace = &plan.rate;
        let pacer = pace.limits().then(|| {
            // Sleeps end within a microsecond or so of the due time instead of 50 µs late
            // (the kernel's default slack for this thread).
            iomark_engine::system::set_timer_slack(1_000);
            Pacer::new(pace, now, iodepth as usize, seeds)
        });
        let mixed = dirs[0] && dirs[1];
        let controls = Controls {
            steer: (mixed && pacer.is_some()).then_some(dirs),
            pacer,
            min_rate: pace.checks_min().then(|| MinRate::new(pace, dirs, now)),
            think: plan.think.as_ref().map(|t| Think::new(t, now)),
            search: (plan.latency.target_ns > 0)
                .then(|| DepthSearch::new(&plan.latency, iodepth, now)),
            max_ns: plan.latency.max_ns,
            restart: false,
            steady: plan.steady.as_ref().map(|s| Steady::new(s, now)),
            flow: flow.map(FlowMember::join),
            latency: &plan.latency,
            job,
            files,
        };
        let any = controls.pacer.is_some()
            || controls.min_rate.is_some()
            || controls.think.is_some()
            || controls.search.is_some()
            || controls.steady.is_some()
            || controls.flow.is_some()
            || controls.max_ns.iter().any(|&m| m > 0);
        any.then(|| Box::new(controls))
    }

    /// The depth to start at, when a latency target is searched.
    pub(super) fn depth(&self) -> Option<u32> {
        self.search.as_ref().map(DepthSearch::depth)
    }

    /// Whether the final run of a latency target is to start (once: the flag is taken).
    pub(super) fn take_restart(&mut self) -> bool {
        std::mem::take(&mut self.restart)
    }

    /// Whether the job has think time.
    pub(super) fn thinks(&self) -> bool {
        self.think.is_some()
    }

    /// Whether think time is due at `now`.
    pub(super) fn think_due(&self, now: u64) -> bool {
        self.think.as_ref().is_some_and(|t| t.due(now))
    }

    /// A pause of think time starts at `now`: until when it spins, and until when it
    /// lasts. `None` without think time.
    pub(super) fn start_think(&mut self, now: u64) -> Option<(u64, u64)> {
        self.think.as_mut().map(|t| t.start(now))
    }

    /// The pause of think time ended at `now`: the rate's schedule goes on from there when
    /// `rate_ignore_thinktime` says so.
    pub(super) fn thought(&mut self, now: u64) {
        let rebase = self.think.as_ref().is_some_and(Think::ignored_by_rate);
        if let (Some(pacer), true) = (&mut self.pacer, rebase) {
            pacer.rebase(now);
        }
    }

    /// When the next I/O of direction `d` is due (0: at once).
    pub(super) fn due(&self, d: usize) -> u64 {
        self.pacer.as_ref().map_or(0, |p| p.due(d))
    }

    /// Unit `index` takes an I/O of `len` bytes in direction `d`: it counts in the flow,
    /// the rate's schedule and think time.
    pub(super) fn issued(&mut self, index: u32, d: usize, len: u64) {
        if let Some(flow) = &mut self.flow {
            flow.issued();
        }
        if let Some(pacer) = &mut self.pacer {
            pacer.issue(index, d, len);
        }
        if let Some(think) = &mut self.think {
            think.count(false);
        }
    }

    /// The job's flow, if it has one.
    pub(super) fn flow(&self) -> Option<&FlowMember> {
        self.flow.as_ref()
    }

    /// What the steady-state watch found, if the job had one.
    pub(super) fn steady_report(&self) -> Option<iomark_stats::report::SteadyReport> {
        self.steady.as_ref().map(Steady::report)
    }

    /// Before a request is drawn: in a mixed job with rate limits, the rates correct the
    /// mix's choice (on the clock of `io`; see `features::pace`).
    pub(super) fn steer(&self, io: &mut Hot<'_, '_, '_>) {
        let (Some(pacer), Some(_)) = (&self.pacer, self.steer) else { return };
        let Some((mixed, other_share)) = io.workload.mix_choice() else { return };
        let now = io.clock.now_ns();
        let dir = match pacer.correct(mixed.index(), other_share, now) {
            1 => Ddir::Write,
            _ => Ddir::Read,
        };
        io.workload.steer(Some(dir));
    }

    /// At the completion of unit `index` of `io` (direction `dir`, started at `start`) at
    /// `now`: think-time counting, the corrected latency, the steady-state sample, the
    /// minimum-rate check, the latency limit and the latency-target search. Returns whether
    /// the job is to end (steady state reached, the target found).
    pub(super) fn completed(
        &mut self,
        io: &mut Hot<'_, '_, '_>,
        index: u32,
        dir: Ddir,
        start: u64,
        now: u64,
    ) -> bool {
        let lat = now.saturating_sub(start);
        let mut ended = false;
        if let Some(think) = &mut self.think {
            think.count(true);
        }
        if let Some(pacer) = &self.pacer {
            let from = pacer.intended_start(index, start);
            io.recorder.record_corrected(dir, now.saturating_sub(from));
        }
        let dirs = &io.recorder.dirs;
        if let Some(steady) = &mut self.steady {
            let ios = dirs.iter().map(|d| d.ios).sum();
            let bytes = dirs.iter().map(|d| d.bytes).sum();
            ended |= steady.tick(now, ios, bytes);
        }
        if let Some(min) = self.min_rate.as_mut().filter(|m| m.due(now)) {
            let bytes = [0, 1, 2].map(|d| dirs[d].bytes);
            let ios = [0, 1, 2].map(|d| dirs[d].ios);
            if let Some(message) = min.check(now, bytes, ios, self.job) {
                eprintln!("{message}");
                io.set_error(libc::EIO, "check_min_rate");
            }
        }
        let max = self.max_ns[dir.index()];
        if max > 0 && lat > max {
            self.latency_exceeded(io, index, lat, max);
            return ended;
        }
        if let Some(step) = self.search.as_mut().and_then(|s| s.complete(start, lat, now)) {
            ended |= self.search_step(io, step, index, lat);
        }
        ended
    }

    /// Applies a step of the latency-target search; returns whether the search is done.
    #[cold]
    fn search_step(&mut self, io: &mut Hot<'_, '_, '_>, step: Step, index: u32, lat: u64) -> bool {
        match step {
            Step::Depth(depth) => io.depth_limit = depth,
            Step::FinalRun(depth) => {
                io.depth_limit = depth;
                self.restart = true;
            }
            Step::Done => return true,
            Step::Fail => {
                let target = self.latency.target_ns;
                if self.latency.percentile >= 100.0 {
                    self.latency_exceeded(io, index, lat, target);
                } else {
                    eprintln!(
                        "iomark: {}: latency target of {target} nsec not met for {}% of the \
                         I/Os even at queue depth 1",
                        self.job, self.latency.percentile
                    );
                    io.set_error(libc::ETIMEDOUT, "latency target not met");
                }
            }
        }
        false
    }

    /// The I/O on unit `index` of `io` took `lat` ns, more than the `max` allowed: fio's
    /// message, and the job ends with `ETIMEDOUT`.
    #[cold]
    fn latency_exceeded(&self, io: &mut Hot<'_, '_, '_>, index: u32, lat: u64, max: u64) {
        let unit = &io.units.units()[index as usize];
        let file = self.files.list.get(unit.file as usize).map(|f| f.path.display().to_string());
        eprintln!(
            "iomark: latency of {lat} nsec exceeds specified max ({max} nsec): {} {} {} {}",
            file.unwrap_or_default(),
            super::describe::ddir_name(unit.ddir),
            unit.offset,
            unit.len
        );
        io.set_error(libc::ETIMEDOUT, "max latency exceeded");
    }
}
