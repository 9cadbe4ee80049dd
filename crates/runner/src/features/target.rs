//! Latency limits: `max_latency`, and the search for the highest queue depth that meets a
//! latency target (`latency_target`, `latency_window`, `latency_percentile`,
//! `latency_run`).
//!
//! What fio 3.33 does (its `--debug=rate` trace names each step):
//!
//! - `max_latency=T[,T][,T]` (microseconds without a unit, per direction): the first I/O
//!   whose latency (`lat`, from its start to its completion) exceeds the limit ends the job
//!   with `ETIMEDOUT`, after the message `latency of N nsec exceeds specified max (M nsec):
//!   FILE DIR OFFSET LENGTH`; the I/O itself is counted.
//! - `latency_target`: the job starts at depth 1 and runs windows of `latency_window`. A
//!   window succeeds when at least `latency_percentile` percent of the I/Os completed in it
//!   had a latency at or below the target. Each success doubles the depth, up to
//!   `iodepth` ("Ramped up: 1 2 32"); a failure bisects between the last depth that
//!   succeeded and the one that failed ("Ramped down: 32 48 64"). A success at the top
//!   starts the final run ("Quiesce and final run"): the job waits for its I/Os in flight,
//!   its statistics start over, and it runs one more window at that depth; if that window
//!   fails, the depth goes down by one and the final run starts again. When a final window
//!   succeeds the job ends ("We are done"), and its report (a window's worth) shows the
//!   depth in `latency : … depth=N` and JSON `latency_depth`.
//! - With `latency_percentile=100` one I/O over the target fails its window at once; at
//!   depth 1 that ends the job as `max_latency` does (fio prints the same message).
//! - `latency_run=1` never makes the final run: the job keeps adjusting its depth until it
//!   ends.
//!
//! iomark differs in two details, documented in `docs/job-files.md`: after a failure at
//! depth D it never tries D again (fio 3.33 retries `iodepth` after each success below
//! it), and a window ends only once an I/O has completed in it (fio 3.33 counts an empty
//! window, such as every window when `latency_window` is 0, as a failure).

use iomark_plan::pacing::LatencyPlan;

/// What the search asks of the job after a window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Step {
    /// Go on at this depth.
    Depth(u32),
    /// Start the final run at this depth: wait for the I/Os in flight, start the
    /// statistics over.
    FinalRun(u32),
    /// The depth is found: end the job.
    Done,
    /// Not even depth 1 meets the target: end the job with `ETIMEDOUT`.
    Fail,
}

/// The depth search of a running job. See the module doc.
#[derive(Debug, Clone)]
pub(crate) struct DepthSearch {
    target_ns: u64,
    window_ns: u64,
    percentile: f64,
    run: bool,
    /// `iodepth`.
    max: u32,
    /// The highest depth known to meet the target (0: none yet).
    ok: u32,
    /// The highest depth still worth trying.
    hi: u32,
    /// The depth of the current window.
    cur: u32,
    /// Whether this is the final run.
    last: bool,
    window_start: u64,
    window_ios: u64,
    window_ok: u64,
}

impl DepthSearch {
    /// The search of `plan` up to depth `iodepth`, starting at `now`.
    pub(crate) fn new(plan: &LatencyPlan, iodepth: u32, now: u64) -> DepthSearch {
        DepthSearch {
            target_ns: plan.target_ns,
            window_ns: plan.window_ns,
            percentile: plan.percentile,
            run: plan.run,
            max: iodepth.max(1),
            ok: 0,
            hi: iodepth.max(1),
            cur: 1,
            last: false,
            window_start: now,
            window_ios: 0,
            window_ok: 0,
        }
    }

    /// The depth to run at.
    pub(crate) fn depth(&self) -> u32 {
        self.cur
    }

    /// Counts an I/O that started at `start` and completed at `now`, `lat_ns` later; a
    /// step when it ends a window. An I/O issued before the window began (at the depth
    /// before) does not count in it.
    #[inline]
    pub(crate) fn complete(&mut self, start: u64, lat_ns: u64, now: u64) -> Option<Step> {
        if start < self.window_start {
            return None;
        }
        self.window_ios += 1;
        let met = lat_ns <= self.target_ns;
        self.window_ok += u64::from(met);
        let hopeless = !met && self.percentile >= 100.0;
        if !hopeless && now.saturating_sub(self.window_start) < self.window_ns {
            return None;
        }
        Some(self.end_window(now))
    }

    /// Judges the window that ends at `now` and moves to the next depth.
    #[cold]
    fn end_window(&mut self, now: u64) -> Step {
        let share = self.window_ok as f64 * 100.0 / self.window_ios as f64;
        let success = share >= self.percentile;
        (self.window_start, self.window_ios, self.window_ok) = (now, 0, 0);
        if self.last {
            if success {
                return Step::Done;
            }
            if self.cur <= 1 {
                return Step::Fail;
            }
            self.hi = self.cur;
            self.cur -= 1;
            self.ok = self.cur;
            return Step::FinalRun(self.cur);
        }
        if success {
            self.ok = self.cur;
            if self.run {
                // Keep probing one depth above the best known, in case things improve.
                self.hi = self.hi.max(self.cur + 1).min(self.max);
            }
            if self.cur >= self.hi {
                if self.run {
                    return Step::Depth(self.cur);
                }
                self.last = true;
                return Step::FinalRun(self.cur);
            }
            self.cur = self.cur.saturating_mul(2).min(self.hi);
            return Step::Depth(self.cur);
        }
        if self.cur <= 1 {
            return if self.run { Step::Depth(1) } else { Step::Fail };
        }
        self.hi = self.cur - 1;
        if self.hi <= self.ok && !self.run {
            // Every depth above the best one failed: that one is the answer.
            self.cur = self.ok;
            self.last = true;
            return Step::FinalRun(self.cur);
        }
        self.cur = ((self.ok + self.cur) / 2).max(1);
        Step::Depth(self.cur)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(percentile: f64, run: bool) -> LatencyPlan {
        LatencyPlan { target_ns: 100, window_ns: 10, percentile, run, max_ns: [0; 3] }
    }

    /// Runs windows in which an I/O at depth `d` takes `lat(d)`; the steps, in order.
    fn search(plan: &LatencyPlan, iodepth: u32, lat: impl Fn(u32) -> u64) -> Vec<Step> {
        let mut s = DepthSearch::new(plan, iodepth, 0);
        let mut steps = Vec::new();
        let mut now = 0;
        while steps.len() < 40 {
            now += 10;
            if let Some(step) = s.complete(now - 1, lat(s.depth()), now) {
                steps.push(step);
                if matches!(step, Step::Done | Step::Fail) {
                    break;
                }
            }
        }
        steps
    }

    #[test]
    fn the_depth_doubles_to_the_top_then_the_final_run_ends_the_job() {
        let steps = search(&plan(95.0, false), 32, |_| 50);
        use Step::*;
        assert_eq!(steps, [Depth(2), Depth(4), Depth(8), Depth(16), Depth(32), FinalRun(32), Done]);
    }

    #[test]
    fn a_failure_bisects_and_the_highest_good_depth_is_found() {
        // Latency grows with depth: 1–37 meet the target.
        use Step::*;
        let steps = search(&plan(100.0, false), 64, |d| if d <= 37 { 90 } else { 200 });
        assert_eq!(
            steps,
            [
                Depth(2),
                Depth(4),
                Depth(8),
                Depth(16),
                Depth(32),
                Depth(64),
                Depth(48),
                Depth(40),
                Depth(36),
                Depth(39),
                Depth(37),
                Depth(38),
                FinalRun(37),
                Done
            ]
        );
    }

    #[test]
    fn a_failing_final_run_steps_down_one_at_a_time() {
        let mut s = DepthSearch::new(&plan(100.0, false), 4, 0);
        s.cur = 4;
        s.ok = 4;
        s.last = true;
        assert_eq!(s.complete(0, 500, 1), Some(Step::FinalRun(3)));
        // An I/O from before the window does not count in it.
        assert_eq!(s.complete(0, 500, 2), None);
        assert_eq!(s.complete(1, 500, 2), Some(Step::FinalRun(2)));
        assert_eq!(s.complete(2, 50, 20), Some(Step::Done));
    }

    #[test]
    fn depth_one_that_fails_ends_the_job_unless_it_runs_on() {
        assert_eq!(search(&plan(100.0, false), 8, |_| 500), [Step::Fail]);
        let steps = search(&plan(100.0, true), 8, |_| 500);
        assert!(steps.iter().all(|s| *s == Step::Depth(1)), "{steps:?}");
    }

    #[test]
    fn latency_run_keeps_adjusting_and_never_ends() {
        let steps = search(&plan(100.0, true), 4, |_| 50);
        assert_eq!(&steps[..3], &[Step::Depth(2), Step::Depth(4), Step::Depth(4)]);
        assert!(!steps.contains(&Step::Done));
    }
}
