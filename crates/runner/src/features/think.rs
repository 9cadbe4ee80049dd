//! Think time: a job that pauses between its I/Os, as an application that processes what it
//! read would (`thinktime`, `thinktime_spin`, `thinktime_blocks`, `thinktime_blocks_type`,
//! `thinktime_iotime`, `rate_ignore_thinktime`).
//!
//! What fio 3.33 does, measured with `--write_iolog` on the null engine:
//!
//! - After every `thinktime_blocks` I/Os (default 1) the job waits for the I/Os in flight
//!   and then pauses for `thinktime` (microseconds when no unit is given): it spins for
//!   `thinktime_spin` of it, keeping the CPU busy as if it processed data, and sleeps the
//!   rest. The I/Os are counted as they complete (`thinktime_blocks_type=complete`, the
//!   default) or as they are issued (`issue`). The last I/O of a job is followed by its
//!   pause too, so a job of 16 I/Os with `thinktime=1ms thinktime_blocks=4` runs 4 ms.
//! - `thinktime_iotime=P` pauses by time instead: the pauses start `P + thinktime` apart,
//!   the first one `P + thinktime` after the job's start (fio 3.33: with `thinktime=500ms
//!   thinktime_iotime=1s`, pauses at 1.5 s, 3 s, 4.5 s). Given alone it replaces the
//!   default of one block; with `thinktime_blocks` given too, whichever comes first.
//! - A rate-limited job makes up for its pauses (the I/Os that fell due meanwhile go at
//!   once); with `rate_ignore_thinktime` it does not: its schedule goes on from the end of
//!   the pause.

use iomark_plan::pacing::ThinkPlan;

/// The think time of a running job.
#[derive(Debug, Clone)]
pub(crate) struct Think {
    plan: ThinkPlan,
    /// I/Os counted since the last pause.
    count: u64,
    /// When the next pause by time is due (`u64::MAX` for none).
    next_at: u64,
}

impl Think {
    /// The think time of `plan` for a job started at `now`.
    pub(crate) fn new(plan: &ThinkPlan, now: u64) -> Think {
        Think { plan: plan.clone(), count: 0, next_at: Self::after(plan, now) }
    }

    /// When the pause after one starting at `t` is due.
    fn after(plan: &ThinkPlan, t: u64) -> u64 {
        match plan.iotime_ns {
            0 => u64::MAX,
            p => t.saturating_add(p).saturating_add(plan.total_ns),
        }
    }

    /// Counts an I/O issued (`complete` false) or completed.
    #[inline]
    pub(crate) fn count(&mut self, complete: bool) {
        if complete != self.plan.on_issue {
            self.count += 1;
        }
    }

    /// Whether a pause is due at `now`.
    #[inline]
    pub(crate) fn due(&self, now: u64) -> bool {
        self.count >= self.plan.blocks || now >= self.next_at
    }

    /// A pause starts at `now`: the count starts over. Returns when its spinning and its
    /// sleeping end.
    pub(crate) fn start(&mut self, now: u64) -> (u64, u64) {
        self.count = 0;
        self.next_at = Self::after(&self.plan, now);
        (now.saturating_add(self.plan.spin_ns), now.saturating_add(self.plan.total_ns))
    }

    /// Whether the rate schedule goes on from the end of a pause.
    pub(crate) fn ignored_by_rate(&self) -> bool {
        self.plan.ignore_in_rate
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(blocks: u64, on_issue: bool, iotime_ns: u64) -> ThinkPlan {
        ThinkPlan {
            total_ns: 1_000,
            spin_ns: 200,
            blocks,
            on_issue,
            iotime_ns,
            ignore_in_rate: false,
        }
    }

    #[test]
    fn pauses_come_after_every_n_ios_counted_on_the_chosen_side() {
        let mut t = Think::new(&plan(3, false, 0), 0);
        for _ in 0..3 {
            t.count(false);
        }
        assert!(!t.due(0), "issues do not count by default");
        for _ in 0..2 {
            t.count(true);
        }
        assert!(!t.due(0));
        t.count(true);
        assert!(t.due(0));
        assert_eq!(t.start(50), (250, 1_050));
        assert!(!t.due(u64::MAX - 1));
        let mut issue = Think::new(&plan(1, true, 0), 0);
        issue.count(true);
        assert!(!issue.due(0));
        issue.count(false);
        assert!(issue.due(0));
    }

    #[test]
    fn pauses_by_time_start_iotime_plus_thinktime_apart() {
        let mut t = Think::new(&plan(u64::MAX, false, 10_000), 0);
        assert!(!t.due(10_999) && t.due(11_000));
        t.start(11_000);
        assert!(!t.due(21_999) && t.due(22_000));
    }
}
