//! Think time, resolved (`thinktime`, `thinktime_spin`, `thinktime_blocks`,
//! `thinktime_blocks_type`, `thinktime_iotime`, `rate_ignore_thinktime`). How a job pauses
//! is the runner's `think` (fio 3.33's rules are there).

use iomark_options::keys;
use iomark_options::JobSpec;
use std::time::Duration;

/// A job's think time, resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThinkPlan {
    /// The pause, in nanoseconds.
    pub total_ns: u64,
    /// The part of it spent spinning, in nanoseconds.
    pub spin_ns: u64,
    /// Pause after this many I/Os (`u64::MAX`: by time only).
    pub blocks: u64,
    /// Count the I/Os as they are issued instead of as they complete.
    pub on_issue: bool,
    /// Pause by time: this long between pauses, in nanoseconds (0: by count only).
    pub iotime_ns: u64,
    /// The rate schedule does not make up for the pauses (`rate_ignore_thinktime`).
    pub ignore_in_rate: bool,
}

impl ThinkPlan {
    /// The think time of `spec`, `None` without `thinktime`.
    pub fn of(spec: &JobSpec) -> Option<ThinkPlan> {
        let ns = |key| spec.get(key).map_or(0, |d: Duration| d.as_nanos() as u64);
        let total_ns = crate::cpuio::think_ns(spec).unwrap_or_else(|| ns(keys::THINKTIME));
        if total_ns == 0 {
            return None;
        }
        let iotime_ns = ns(keys::THINKTIME_IOTIME);
        let blocks = match spec.get(keys::THINKTIME_BLOCKS) {
            _ if iotime_ns > 0 && !spec.is_set(keys::THINKTIME_BLOCKS) => u64::MAX,
            Some(n) => n.max(1),
            None => 1,
        };
        Some(ThinkPlan {
            total_ns,
            spin_ns: ns(keys::THINKTIME_SPIN).min(total_ns),
            blocks,
            on_issue: spec.get(keys::THINKTIME_BLOCKS_TYPE).is_some_and(|c| c.name == "issue"),
            iotime_ns,
            ignore_in_rate: spec.flag(keys::RATE_IGNORE_THINKTIME),
        })
    }
}
