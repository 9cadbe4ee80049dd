//! The controls that act between a job's I/Os: rate limits and minimums ([`crate::pace`]),
//! think time ([`crate::think`]), latency limits and targets ([`crate::target`]), and the
//! steady-state watch ([`crate::steady`]), and flow control between jobs ([`crate::flow`]).
//!
//! A job without any of them has no [`Controls`], and the loop's hooks cost it one test of
//! an `Option` each. The hooks are the loop's methods, called from four places: at the top
//! of the loop, before the checks that end it ([`Loop::between_ios`]), before a request is
//! drawn ([`Loop::steer`]), before it is issued ([`Loop::pace`]) and at the single
//! completion point ([`Loop::controls_complete`]). What a completion decides that needs
//! the I/Os in flight to be reaped first (the final run of a latency target starting the
//! statistics over) waits for the top of the loop, since completions may be handled in
//! the middle of a batch.

use super::Loop;
use crate::flow::{FlowLink, FlowMember};
use crate::pace::{MinRate, Pacer};
use crate::steady::Steady;
use crate::target::{DepthSearch, Step};
use crate::think::Think;
use iomark_core::Ddir;
use iomark_plan::pacing::PacingPlan;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// The longest single sleep: a job waiting for a far due time still notices a stop request
/// this often.
const WAIT_SLICE: Duration = Duration::from_millis(100);

/// What acts between the I/Os of one job.
pub(super) struct Controls {
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
}

impl Controls {
    /// The controls of `plan`, for a job of `iodepth` units doing `dirs` and starting at
    /// `now`, with its link to its flow; `seed` seeds the rate's Poisson gaps. `None` when
    /// it has none.
    pub(super) fn new(
        plan: &PacingPlan,
        iodepth: u32,
        seed: u64,
        dirs: [bool; 3],
        now: u64,
        flow: Option<FlowLink>,
    ) -> Option<Box<Controls>> {
        let pace = &plan.rate;
        let pacer = pace.limits().then(|| {
            // Sleeps end within a microsecond or so of the due time instead of 50 µs late
            // (the kernel's default slack for this thread).
            iomark_engine::system::set_timer_slack(1_000);
            Pacer::new(pace, now, iodepth as usize, seed)
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

    /// What the steady-state watch found, if the job had one.
    pub(super) fn steady_report(&self) -> Option<iomark_stats::report::SteadyReport> {
        self.steady.as_ref().map(Steady::report)
    }
}

impl Loop<'_, '_> {
    /// At the top of the loop: starts the final run of a latency target, and pauses for
    /// think time. Returns whether anything happened (the loop then looks at the clock
    /// again).
    pub(super) fn between_ios(&mut self, stop: &AtomicBool) -> bool {
        if self.ctl.as_deref_mut().is_some_and(|c| std::mem::take(&mut c.restart)) {
            self.final_run();
            return true;
        }
        self.think(stop)
    }

    /// The final run of a latency target: waits for the I/Os in flight and starts the
    /// statistics over, as the end of `ramp_time` does.
    fn final_run(&mut self) {
        self.quiesce();
        let now = self.clock.now_ns();
        self.recorder.clear(now);
        if let Some(logs) = &mut self.logs {
            logs.restart(now);
        }
        self.measure_from = now;
        self.last_now = now;
        self.ios_done = 0;
    }

    /// Pauses if think time is due (after waiting for the I/Os in flight), spinning then
    /// sleeping, never past the end of the phase. Returns whether it paused.
    fn think(&mut self, stop: &AtomicBool) -> bool {
        if self.in_flight > 0 && self.ctl.as_deref().is_some_and(|c| c.think.is_some()) {
            // Completions that are ready count now, as fio reaps them after each I/O.
            self.commit();
            self.reap::<true>(0, self.in_flight as usize);
        }
        let now = self.last_now;
        let due = |c: &Controls| c.think.as_ref().is_some_and(|t| t.due(now));
        if !self.ctl.as_deref().is_some_and(due) {
            return false;
        }
        self.quiesce();
        let mut now = self.clock.now_ns();
        let Some(think) = self.ctl.as_deref_mut().and_then(|c| c.think.as_mut()) else {
            return false;
        };
        let (spin_end, end) = think.start(now);
        let rebase = think.ignored_by_rate();
        let spin_end = spin_end.min(self.deadline);
        while now < spin_end {
            now = self.clock.wait_until(spin_end, WAIT_SLICE, true);
        }
        let end = end.min(self.deadline);
        while now < end && !stop.load(Ordering::Relaxed) {
            now = self.clock.wait_until(end, WAIT_SLICE, false);
        }
        self.last_now = now;
        if let Some(pacer) = self.ctl.as_deref_mut().and_then(|c| c.pacer.as_mut()) {
            if rebase {
                pacer.rebase(now);
            }
        }
        true
    }

    /// Before a request is drawn: in a mixed job with rate limits, the direction due first
    /// goes next.
    pub(super) fn steer(&mut self) {
        let Some(ctl) = self.ctl.as_deref() else { return };
        let (Some(pacer), Some(dirs)) = (&ctl.pacer, ctl.steer) else { return };
        let now = self.clock.now_ns();
        let dir = match pacer.first_due(dirs, now) {
            Some(1) => Ddir::Write,
            Some(2) => Ddir::Trim,
            _ => Ddir::Read,
        };
        self.workload.steer(Some(dir));
    }

    /// Before unit `index` takes an I/O of `len` bytes in `ddir`: waits until the I/O is
    /// due. Returns false when the phase ends or the job is asked to stop first (the
    /// request then waits for the loop's next turn).
    pub(super) fn pace(&mut self, index: u32, ddir: Ddir, len: u64, stop: &AtomicBool) -> bool {
        let Some(d) = ddir.data_index() else { return true };
        if !self.wait_for_flow(stop) {
            return false;
        }
        let due = self.ctl.as_deref().and_then(|c| c.pacer.as_ref()).map_or(0, |p| p.due(d));
        if due > 0 && !self.wait_until(due, stop) {
            return false;
        }
        if let Some(ctl) = self.ctl.as_deref_mut() {
            if let Some(flow) = &mut ctl.flow {
                flow.issued();
            }
            if let Some(pacer) = &mut ctl.pacer {
                pacer.issue(index, d, len);
            }
            if let Some(think) = &mut ctl.think {
                think.count(false);
            }
        }
        true
    }

    /// Waits until the clock reads `t`, first for the I/Os in flight (fio does too, so
    /// that their completions are stamped when they happen). False when the phase ends or
    /// a stop is asked for before `t`.
    fn wait_until(&mut self, t: u64, stop: &AtomicBool) -> bool {
        let mut now = self.clock.now_ns();
        if now >= t {
            return true;
        }
        self.quiesce();
        // An I/O due when the phase ends is not issued in it (fio 3.33: a 2 s run at 100
        // IOPS issues 200).
        while now < t && now < self.deadline {
            if self.error != 0 || stop.load(Ordering::Relaxed) {
                break;
            }
            now = self.clock.wait_until(t.min(self.deadline), WAIT_SLICE, false);
        }
        self.last_now = now;
        now >= t && now < self.deadline
    }

    /// Waits until the job's flow lets it issue (see [`crate::flow`]): `flow_sleep` at a
    /// time, or yielding the CPU. False when the phase ends or a stop is asked for first.
    fn wait_for_flow(&mut self, stop: &AtomicBool) -> bool {
        loop {
            let Some(flow) = self.ctl.as_deref().and_then(|c| c.flow.as_ref()) else {
                return true;
            };
            if flow.may_issue() {
                return true;
            }
            let sleep_ns = flow.sleep_us().saturating_mul(1000);
            let now = self.clock.now_ns();
            self.last_now = now;
            if now >= self.deadline || self.error != 0 || stop.load(Ordering::Relaxed) {
                return false;
            }
            if sleep_ns == 0 {
                std::thread::yield_now();
            } else {
                self.last_now = self.clock.wait_until(now + sleep_ns, WAIT_SLICE, false);
            }
        }
    }

    /// Waits for every I/O in flight.
    fn quiesce(&mut self) {
        self.commit();
        while self.in_flight > 0 && self.error == 0 {
            self.reap::<true>(1, self.in_flight as usize);
        }
    }

    /// At the completion of unit `index` (direction `dir`, started at `start`) at `now`:
    /// think-time counting, the corrected latency, the steady-state sample, the
    /// minimum-rate check, the latency limit and the latency-target search.
    pub(super) fn controls_complete(&mut self, index: u32, dir: Ddir, start: u64, now: u64) {
        let lat = now.saturating_sub(start);
        let Some(ctl) = self.ctl.as_deref_mut() else { return };
        if let Some(think) = &mut ctl.think {
            think.count(true);
        }
        if let Some(pacer) = &ctl.pacer {
            let from = pacer.intended_start(index, start);
            self.recorder.record_corrected(dir, now.saturating_sub(from));
        }
        let dirs = &self.recorder.dirs;
        if let Some(steady) = &mut ctl.steady {
            let ios = dirs.iter().map(|d| d.ios).sum();
            let bytes = dirs.iter().map(|d| d.bytes).sum();
            if steady.tick(now, ios, bytes) {
                self.ended = true;
            }
        }
        if let Some(min) = ctl.min_rate.as_mut().filter(|m| m.due(now)) {
            let bytes = [0, 1, 2].map(|d| dirs[d].bytes);
            let ios = [0, 1, 2].map(|d| dirs[d].ios);
            if let Some(message) = min.check(now, bytes, ios, &self.plan.job.name) {
                eprintln!("{message}");
                self.set_error(libc::EIO, "check_min_rate");
            }
        }
        let Some(ctl) = self.ctl.as_deref_mut() else { return };
        let max = ctl.max_ns[dir.index()];
        if max > 0 && lat > max {
            self.latency_exceeded(index, lat, max);
            return;
        }
        if let Some(step) = ctl.search.as_mut().and_then(|s| s.complete(start, lat, now)) {
            self.search_step(step, index, lat);
        }
    }

    /// Applies a step of the latency-target search.
    #[cold]
    fn search_step(&mut self, step: Step, index: u32, lat: u64) {
        match step {
            Step::Depth(depth) => self.depth_limit = depth,
            Step::FinalRun(depth) => {
                self.depth_limit = depth;
                if let Some(ctl) = self.ctl.as_deref_mut() {
                    ctl.restart = true;
                }
            }
            Step::Done => self.ended = true,
            Step::Fail => {
                let latency = &self.plan.pacing.latency;
                let target = latency.target_ns;
                if latency.percentile >= 100.0 {
                    self.latency_exceeded(index, lat, target);
                } else {
                    eprintln!(
                        "iomark: {}: latency target of {target} nsec not met for {}% of the \
                         I/Os even at queue depth 1",
                        self.plan.job.name, latency.percentile
                    );
                    self.set_error(libc::ETIMEDOUT, "latency target not met");
                }
            }
        }
    }

    /// An I/O took `lat` ns, more than the `max` allowed: fio's message, and the job ends
    /// with `ETIMEDOUT`.
    #[cold]
    fn latency_exceeded(&mut self, index: u32, lat: u64, max: u64) {
        let unit = &self.units[index as usize];
        let file =
            self.plan.files.list.get(unit.file as usize).map(|f| f.path.display().to_string());
        eprintln!(
            "iomark: latency of {lat} nsec exceeds specified max ({max} nsec): {} {} {} {}",
            file.unwrap_or_default(),
            super::failed::ddir_name(unit.ddir),
            unit.offset,
            unit.len
        );
        self.set_error(libc::ETIMEDOUT, "max latency exceeded");
    }
}
