//! The controls' waits ([`super::controls::Controls`]): think time, the rate's and the
//! flow's pauses, the final run of a latency target. Each first completes the I/Os in
//! flight (so that their completions are stamped when they happen, as fio does), which runs
//! the features' completion hooks: they are the loop's steps, not the controls' own.

use super::controls::{Controls, WAIT_SLICE};
use super::drive::Loop;
use crate::request::Request;
use std::sync::atomic::{AtomicBool, Ordering};

impl Loop<'_, '_, '_> {
    /// At the top of the loop: starts the final run of a latency target, and pauses for
    /// think time. Returns whether anything happened (the loop then looks at the clock
    /// again).
    pub(super) fn between_ios(&mut self, stop: &AtomicBool) -> bool {
        if self.feat.ctl.as_deref_mut().is_some_and(Controls::take_restart) {
            self.final_run();
            return true;
        }
        self.think(stop)
    }

    /// The final run of a latency target: waits for the I/Os in flight and starts the
    /// statistics over, as the end of `ramp_time` does.
    fn final_run(&mut self) {
        self.quiesce();
        let now = self.io.clock.now_ns();
        self.io.recorder.clear(now);
        self.io.next_tick = 0;
        if let Some(logs) = &mut self.feat.logs {
            logs.restart(now);
        }
        self.io.measure_from = now;
        self.io.last_now = now;
        self.io.ios_done = 0;
    }

    /// Pauses if think time is due (after waiting for the I/Os in flight), spinning then
    /// sleeping, never past the end of the phase. Returns whether it paused.
    fn think(&mut self, stop: &AtomicBool) -> bool {
        let thinks = |c: &Controls| c.thinks();
        if self.io.in_flight > 0 && self.feat.ctl.as_deref().is_some_and(thinks) {
            // Completions that are ready count now, as fio reaps them after each I/O.
            self.io.commit();
            self.io.reap::<true>(&mut self.feat, 0, self.io.in_flight as usize);
        }
        let now = self.io.last_now;
        let due = |c: &Controls| c.think_due(now);
        if !self.feat.ctl.as_deref().is_some_and(due) {
            return false;
        }
        self.quiesce();
        let mut now = self.io.clock.now_ns();
        let Some((spin_end, end)) = self.feat.ctl.as_deref_mut().and_then(|c| c.start_think(now))
        else {
            return false;
        };
        let deadline = self.feat.deadline;
        let spin_end = spin_end.min(deadline);
        while now < spin_end {
            now = self.io.clock.wait_until(spin_end, WAIT_SLICE, true);
        }
        let end = end.min(deadline);
        while now < end && !stop.load(Ordering::Relaxed) {
            now = self.io.clock.wait_until(end, WAIT_SLICE, false);
        }
        self.io.last_now = now;
        if let Some(ctl) = self.feat.ctl.as_deref_mut() {
            ctl.thought(now);
        }
        true
    }

    /// Before unit `index` takes the I/O `req`: waits until the I/O is due. Returns false
    /// when the phase ends or the job is asked to stop first (the request then waits for
    /// the loop's next turn).
    pub(super) fn pace(&mut self, index: u32, req: Request, stop: &AtomicBool) -> bool {
        let Some(d) = req.ddir.data_index() else { return true };
        if !self.wait_for_flow(stop) {
            return false;
        }
        let due = self.feat.ctl.as_deref().map_or(0, |c| c.due(d));
        if due > 0 && !self.wait_until(due, stop) {
            return false;
        }
        if let Some(ctl) = self.feat.ctl.as_deref_mut() {
            ctl.issued(index, d, req.len as u64);
        }
        true
    }

    /// Waits until the clock reads `t`, first for the I/Os in flight (fio does too, so
    /// that their completions are stamped when they happen). False when the phase ends or
    /// a stop is asked for before `t`.
    fn wait_until(&mut self, t: u64, stop: &AtomicBool) -> bool {
        let mut now = self.io.clock.now_ns();
        if now >= t {
            return true;
        }
        self.quiesce();
        let deadline = self.feat.deadline;
        // An I/O due when the phase ends is not issued in it (fio 3.33: a 2 s run at 100
        // IOPS issues 200).
        while now < t && now < deadline {
            if self.io.error != 0 || stop.load(Ordering::Relaxed) {
                break;
            }
            now = self.io.clock.wait_until(t.min(deadline), WAIT_SLICE, false);
        }
        self.io.last_now = now;
        now >= t && now < deadline
    }

    /// Waits until the job's flow lets it issue (see [`crate::links::flow`]): `flow_sleep` at a
    /// time, or yielding the CPU. False when the phase ends or a stop is asked for first.
    fn wait_for_flow(&mut self, stop: &AtomicBool) -> bool {
        let Some(flow) = self.feat.ctl.as_deref().and_then(Controls::flow) else {
            return true;
        };
        let io = &mut self.io;
        loop {
            if flow.may_issue() {
                return true;
            }
            let sleep_ns = flow.sleep_us().saturating_mul(1000);
            let now = io.clock.now_ns();
            io.last_now = now;
            if now >= self.feat.deadline || io.error != 0 || stop.load(Ordering::Relaxed) {
                return false;
            }
            if sleep_ns == 0 {
                std::thread::yield_now();
            } else {
                io.last_now = io.clock.wait_until(now + sleep_ns, WAIT_SLICE, false);
            }
        }
    }
}
