//! `read_iolog` as the job runs: the replayed log's I/Os handed to the loop in order,
//! each once its time has come (the plan, [`iomark_plan::replay`], has read the log and
//! holds its format's rules).
//!
//! Waiting for an I/O's time is the one pause of the I/O loop that is not I/O: the loop
//! reads the clock and sleeps (at most 10 ms at a time, so that a stop request is seen).

use crate::clock::JobClock;
use crate::request::Request;
use iomark_plan::replay::ReplayPlan;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

mod chunked;

/// Where a running job stands in its replay.
pub struct Cursor<'a> {
    plan: &'a ReplayPlan,
    next: usize,
    /// The log being read, with `read_iolog_chunked`.
    chunks: Option<chunked::Chunks>,
    /// The clock reading the log's times count from (the first I/O's request).
    start_ns: Option<u64>,
    /// Whether to wait for each I/O's time (not with `replay_no_stall`, nor under the
    /// fake clock).
    stall: bool,
    stop: &'a AtomicBool,
}

impl<'a> Cursor<'a> {
    /// The start of `plan`; `fake` says the fake clock runs (no waiting then). A chunked
    /// replay opens its log again here.
    pub fn new(
        plan: &'a ReplayPlan,
        fake: bool,
        stop: &'a AtomicBool,
    ) -> Result<Cursor<'a>, String> {
        let chunks = match plan.ios {
            Some(_) => None,
            None => Some(chunked::Chunks::open(plan)?),
        };
        Ok(Cursor { plan, next: 0, chunks, start_ns: None, stall: plan.stall && !fake, stop })
    }

    /// Why the replay ended before its log did, if it did (a chunked log that changed): a
    /// note for the run's report.
    pub(crate) fn note(&self) -> Option<&str> {
        self.chunks.as_ref().and_then(chunked::Chunks::note)
    }

    /// The next I/O once its time has come; `None` at the end of the log or on a stop
    /// request.
    pub(crate) fn next(&mut self, clock: &mut JobClock) -> Option<Request> {
        let io = match (&mut self.chunks, &self.plan.ios) {
            (Some(chunks), _) => chunks.next()?,
            (None, Some(ios)) => *ios.get(self.next)?,
            (None, None) => return None,
        };
        self.next += 1;
        if self.stall {
            let start = *self.start_ns.get_or_insert_with(|| clock.now_ns());
            let delay = u128::from(io.time_us) * 1000 * 100 / u128::from(self.plan.time_scale);
            let due = start.saturating_add(u64::try_from(delay).unwrap_or(u64::MAX));
            loop {
                let now = clock.now_ns();
                if now >= due {
                    break;
                }
                if self.stop.load(Ordering::Relaxed) {
                    return None;
                }
                std::thread::sleep(Duration::from_nanos(due - now).min(Duration::from_millis(10)));
            }
        }
        Some(Request {
            ddir: io.ddir,
            file: io.file as usize,
            offset: io.offset,
            len: io.len as usize,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use iomark_core::Ddir;

    /// The plan of a log written to a file in `dir`, whole or chunked.
    fn plan_of(dir: &std::path::Path, text: &str, chunked: bool) -> ReplayPlan {
        let log = dir.join("x.log");
        std::fs::write(&log, text).unwrap();
        let mut args = vec![format!("read_iolog={}", log.display()), "replay_no_stall=1".into()];
        if chunked {
            args.push("read_iolog_chunked=1".into());
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let spec = crate::testing::spec(&args).unwrap();
        ReplayPlan::of(&spec, 0).unwrap().unwrap()
    }

    #[test]
    fn the_cursor_hands_out_the_log_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let plan = plan_of(
            dir.path(),
            "fio version 3 iolog\n0 /d add\n5 /d read 0 512\n9 /d sync 0 0\n",
            false,
        );
        let stop = AtomicBool::new(false);
        let mut clock = JobClock::monotonic();
        let mut cursor = Cursor::new(&plan, false, &stop).unwrap();
        let io = |ddir, len| Some(Request { ddir, file: 0, offset: 0, len });
        assert_eq!(cursor.next(&mut clock), io(Ddir::Read, 512));
        assert_eq!(cursor.next(&mut clock), io(Ddir::Sync, 0));
        assert_eq!(cursor.next(&mut clock), None);
        assert_eq!(plan.dirs(), [true, false, false]);
        assert_eq!((plan.max_len(), plan.bytes()), (512, 512));
    }

    #[test]
    fn a_chunked_replay_is_the_whole_replay() {
        // More I/Os than a chunk, on two files added at different places, and waits.
        let mut text = String::from("fio version 2 iolog\n/a add\n/a open\n");
        for i in 0..(2 * chunked::CHUNK + 17) as u64 {
            if i == 100 {
                text.push_str("/b add\n/b open\n");
            }
            let (file, action) = match i % 5 {
                0 => ("/a", "write"),
                1 if i > 100 => ("/b", "read"),
                2 => ("/a", "trim"),
                3 => ("/a", "sync"),
                _ => ("/a", "read"),
            };
            text.push_str(&format!("{file} {action} {} {}\n", i * 512, 512 * (1 + i % 8)));
            if i % 1000 == 0 {
                text.push_str("/a wait 3 0\n");
            }
        }
        let dir = tempfile::tempdir().unwrap();
        let whole = plan_of(dir.path(), &text, false);
        let chunked = plan_of(dir.path(), &text, true);
        assert!(chunked.ios.is_none());
        assert_eq!((&whole.summary, &whole.files), (&chunked.summary, &chunked.files));
        let stop = AtomicBool::new(false);
        let mut clock = JobClock::monotonic();
        let ios = |plan: &ReplayPlan, clock: &mut JobClock| {
            let mut cursor = Cursor::new(plan, true, &stop).unwrap();
            std::iter::from_fn(|| cursor.next(clock)).collect::<Vec<_>>()
        };
        let a = ios(&whole, &mut clock);
        assert_eq!(a.len(), 2 * chunked::CHUNK + 17);
        assert_eq!(a, ios(&chunked, &mut clock));
    }
}
