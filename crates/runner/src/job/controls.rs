//! The controls that act between a job's I/Os: rate limits and minimums ([`crate::pace`])
//! and think time ([`crate::think`]).
//!
//! A job without any of them has no [`Controls`], and the loop's hooks cost it one test of
//! an `Option` each. The hooks are the loop's methods, called from four places: at the top
//! of the loop, before the checks that end it ([`Loop::think`]), before a request is drawn
//! ([`Loop::steer`]), before it is issued ([`Loop::pace`]) and at the single completion
//! point ([`Loop::controls_complete`]).

use super::Loop;
use crate::pace::{MinRate, Pacer};
use crate::plan::JobPlan;
use crate::think::Think;
use iomark_engine::Ddir;
use iomark_stats::recorder::Dir;
use iomark_workload::Direction;
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
}

impl Controls {
    /// The controls of `plan`, for a job doing `dirs` and starting at `now`; `None` when
    /// it has none.
    pub(super) fn new(plan: &JobPlan, dirs: [bool; 3], now: u64) -> Option<Box<Controls>> {
        let pace = &plan.pace;
        let pacer = pace.limits().then(|| {
            // Sleeps end within a microsecond or so of the due time instead of 50 µs late
            // (the kernel's default slack for this thread).
            iomark_engine::system::set_timer_slack(1_000);
            let seed = crate::workload_config::of(plan).seed;
            Pacer::new(pace, now, plan.iodepth as usize, seed)
        });
        let mixed = dirs[0] && dirs[1];
        let controls = Controls {
            steer: (mixed && pacer.is_some()).then_some(dirs),
            pacer,
            min_rate: pace.checks_min().then(|| MinRate::new(pace, dirs, now)),
            think: plan.think.as_ref().map(|t| Think::new(t, now)),
        };
        let any =
            controls.pacer.is_some() || controls.min_rate.is_some() || controls.think.is_some();
        any.then(|| Box::new(controls))
    }
}

impl Loop<'_> {
    /// At the top of the loop: pauses if think time is due (after waiting for the I/Os in
    /// flight), spinning then sleeping, never past the end of the phase. Returns whether it
    /// paused.
    pub(super) fn think(&mut self, stop: &AtomicBool) -> bool {
        if self.in_flight > 0 && self.ctl.as_deref().is_some_and(|c| c.think.is_some()) {
            // Completions that are ready count now, as fio reaps them after each I/O.
            self.commit();
            self.reap(0, self.in_flight as usize);
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
            Some(1) => Direction::Write,
            Some(2) => Direction::Trim,
            _ => Direction::Read,
        };
        self.workload.steer(Some(dir));
    }

    /// Before unit `index` takes an I/O of `len` bytes in `ddir`: waits until the I/O is
    /// due. Returns false when the phase ends or the job is asked to stop first (the
    /// request then waits for the loop's next turn).
    pub(super) fn pace(&mut self, index: u32, ddir: Ddir, len: u64, stop: &AtomicBool) -> bool {
        let Some(d) = ddir.data_index() else { return true };
        let due = self.ctl.as_deref().and_then(|c| c.pacer.as_ref()).map_or(0, |p| p.due(d));
        if due > 0 && !self.wait_until(due, stop) {
            return false;
        }
        if let Some(ctl) = self.ctl.as_deref_mut() {
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

    /// Waits for every I/O in flight.
    fn quiesce(&mut self) {
        self.commit();
        while self.in_flight > 0 && self.error == 0 {
            self.reap(1, self.in_flight as usize);
        }
    }

    /// At the completion of unit `index` (direction `dir`, started at `start`) at `now`:
    /// the corrected latency and the minimum-rate check.
    pub(super) fn controls_complete(&mut self, index: u32, dir: Dir, start: u64, now: u64) {
        let Some(ctl) = self.ctl.as_deref_mut() else { return };
        if let Some(think) = &mut ctl.think {
            think.count(true);
        }
        if let Some(pacer) = &ctl.pacer {
            let from = pacer.intended_start(index, start);
            self.recorder.record_corrected(dir, now.saturating_sub(from));
        }
        if let Some(min) = &mut ctl.min_rate {
            let bytes = [0, 1, 2].map(|d| self.recorder.dirs[d].bytes);
            let ios = [0, 1, 2].map(|d| self.recorder.dirs[d].ios);
            if let Some(message) = min.check(now, bytes, ios, &self.plan.name) {
                eprintln!("{message}");
                self.set_error(libc::EIO, "check_min_rate");
            }
        }
    }
}
