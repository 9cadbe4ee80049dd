//! Interim reports (`--status-interval`, SIGUSR1): every job's recording so far, taken while
//! the jobs run, without slowing their I/O down.
//!
//! A [`StatusBoard`] holds one slot per job of the run. Whoever wants an interim report calls
//! [`StatusBoard::collect`], which raises the board's request counter and waits. A running
//! job notices the request at its next loop iteration (one relaxed atomic load, the same
//! cost as the stop check beside it), copies its recorder into its slot, and goes on; only
//! then, once per request, does the job allocate or take a lock. Jobs that have finished
//! left their outcome in their slot; jobs not started yet (stonewall, `startdelay`) count
//! as having done nothing. The run itself takes the final outcomes from the same slots.

use crate::outcome::JobOutcome;
use crate::system::disk::DiskWatch;
use iomark_stats::report::DiskReport;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};

/// Where one job stands.
enum Slot {
    /// Not started (or never will: the run was stopped first).
    Waiting,
    /// In its I/O loop; `answered` is the last request it answered, with `copy` (taken by
    /// the requester); a job that started after a request counts as having answered it
    /// with nothing done.
    Running { answered: u64, copy: Option<JobOutcome> },
    /// Finished, with its outcome.
    Done(JobOutcome),
    /// Ended without an outcome (it failed, or its thread panicked).
    Gone,
}

/// The slots of a run, behind one lock that the jobs take only on starting, answering and
/// finishing.
struct Slots {
    /// Whether a run is under way (between [`StatusBoard::begin`] and [`StatusBoard::end`]).
    open: bool,
    slots: Vec<Slot>,
    /// The run's disks, read again for each interim report.
    disks: Option<DiskWatch>,
    /// When the run started, ms since the epoch (for the report's `elapsed`).
    start_ms: u64,
}

/// The shared state between a run's jobs and whoever asks for interim reports.
pub struct StatusBoard {
    /// The number of the latest request; jobs compare it with the last one they answered.
    asked: AtomicU64,
    /// One request at a time.
    requester: Mutex<()>,
    slots: Mutex<Slots>,
    /// Signalled whenever a slot changes.
    changed: Condvar,
}

impl std::fmt::Debug for StatusBoard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StatusBoard").field("asked", &self.asked).finish_non_exhaustive()
    }
}

impl Default for StatusBoard {
    fn default() -> Self {
        Self::new()
    }
}

/// What [`StatusBoard::collect`] found: per job its outcome so far (`None`: not started),
/// the disks' counters so far, and when the run started.
pub struct Collected {
    /// Per job, in plan order.
    pub outcomes: Vec<Option<JobOutcome>>,
    /// The disks under the run's files, since the run started.
    pub disks: Vec<DiskReport>,
    /// When the run started, ms since the epoch.
    pub start_ms: u64,
}

impl StatusBoard {
    /// A board with no run under way.
    pub fn new() -> Self {
        StatusBoard {
            asked: AtomicU64::new(0),
            requester: Mutex::new(()),
            slots: Mutex::new(Slots { open: false, slots: Vec::new(), disks: None, start_ms: 0 }),
            changed: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Slots> {
        self.slots.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Opens the board for a run of `jobs` jobs that started at `start_ms`, watching `disks`.
    pub(crate) fn begin(&self, jobs: usize, disks: DiskWatch, start_ms: u64) {
        let mut s = self.lock();
        s.open = true;
        s.slots = (0..jobs).map(|_| Slot::Waiting).collect();
        s.disks = Some(disks);
        s.start_ms = start_ms;
    }

    /// Closes the board at the end of the run: the outcomes of the jobs (`None` for those
    /// that never started) and the disk watch.
    pub(crate) fn end(&self) -> (Vec<Option<JobOutcome>>, Option<DiskWatch>) {
        let mut s = self.lock();
        s.open = false;
        let outcomes = std::mem::take(&mut s.slots)
            .into_iter()
            .map(|slot| match slot {
                Slot::Done(outcome) => Some(outcome),
                _ => None,
            })
            .collect();
        let disks = s.disks.take();
        drop(s);
        self.changed.notify_all();
        (outcomes, disks)
    }

    /// The handle through which job `index` answers requests. Dropping it without
    /// [`JobSlot::done`] marks the job as gone, so that no request waits for it.
    pub(crate) fn slot(&self, index: usize) -> JobSlot<'_> {
        JobSlot { board: self, index, seen: 0 }
    }

    /// Asks every running job for a copy of its recording and waits until each has answered
    /// (at its next loop iteration, so after at most one I/O or batch of completions).
    /// `None` when no run is under way.
    pub fn collect(&self) -> Option<Collected> {
        let _one = self.requester.lock().unwrap_or_else(|e| e.into_inner());
        let request = self.asked.fetch_add(1, Ordering::SeqCst) + 1;
        let mut s = self.lock();
        while s.open
            && s.slots
                .iter()
                .any(|slot| matches!(slot, Slot::Running { answered, .. } if *answered < request))
        {
            s = self.changed.wait(s).unwrap_or_else(|e| e.into_inner());
        }
        if !s.open {
            return None;
        }
        let outcomes = s
            .slots
            .iter_mut()
            .map(|slot| match slot {
                Slot::Running { copy, .. } => copy.take(),
                Slot::Done(outcome) => Some(outcome.clone()),
                Slot::Waiting | Slot::Gone => None,
            })
            .collect();
        let disks = s.disks.as_ref().map(DiskWatch::now).unwrap_or_default();
        Some(Collected { outcomes, disks, start_ms: s.start_ms })
    }
}

/// One job's side of the board.
pub struct JobSlot<'a> {
    board: &'a StatusBoard,
    index: usize,
    /// The last request this job answered.
    seen: u64,
}

impl<'a> JobSlot<'a> {
    fn set(&self, slot: Slot) {
        let mut s = self.board.lock();
        if let Some(place) = s.slots.get_mut(self.index) {
            *place = slot;
        }
        drop(s);
        self.board.changed.notify_all();
    }

    /// The job enters its I/O loop: from now on it answers requests.
    pub(crate) fn start(&mut self) {
        let mut s = self.board.lock();
        // Read under the lock: a request raised before this is answered by this (empty)
        // start, one raised after it by the loop.
        self.seen = self.board.asked.load(Ordering::SeqCst);
        if let Some(place) = s.slots.get_mut(self.index) {
            *place = Slot::Running { answered: self.seen, copy: None };
        }
    }

    /// The request to answer, if one came since the last answer.
    #[cfg(test)]
    fn asked(&self) -> Option<u64> {
        self.requests().pending()
    }

    /// What the job's loop looks at to notice a request (see [`Requests`]), as of the last
    /// answer.
    pub(crate) fn requests(&self) -> Requests<'a> {
        Requests { asked: &self.board.asked, seen: self.seen }
    }

    /// Answers `request` with a copy of the job's outcome so far.
    pub(crate) fn answer(&mut self, request: u64, copy: JobOutcome) {
        self.seen = request;
        self.set(Slot::Running { answered: request, copy: Some(copy) });
    }

    /// The job finished with `outcome`.
    pub(crate) fn done(self, outcome: JobOutcome) {
        self.set(Slot::Done(outcome));
        std::mem::forget(self);
    }
}

/// The loop's side of a job's slot: the board's request counter and the last request the
/// job answered, kept beside the loop's other hot state so that noticing a request is one
/// relaxed load and a compare per loop iteration. The answer itself goes through the
/// [`JobSlot`].
#[derive(Debug, Clone, Copy)]
pub(crate) struct Requests<'a> {
    asked: &'a AtomicU64,
    seen: u64,
}

impl Requests<'_> {
    /// The request to answer, if one came since the last answer.
    #[inline]
    pub(crate) fn pending(&self) -> Option<u64> {
        let request = self.asked.load(Ordering::Relaxed);
        (request != self.seen).then_some(request)
    }

    /// `request` was answered.
    pub(crate) fn answered(&mut self, request: u64) {
        self.seen = request;
    }
}

impl Drop for JobSlot<'_> {
    fn drop(&mut self) {
        let mut s = self.board.lock();
        if let Some(place) = s.slots.get_mut(self.index) {
            if matches!(place, Slot::Waiting | Slot::Running { .. }) {
                *place = Slot::Gone;
            }
        }
        drop(s);
        self.board.changed.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use iomark_stats::recorder::{JobRecorder, RecorderConfig};

    fn outcome(pid: u32) -> JobOutcome {
        let config = RecorderConfig {
            dirs: [true, false, false],
            slat: false,
            clat: true,
            lat: true,
            clat_percentiles: false,
            lat_percentiles: false,
            slat_percentiles: false,
            syncs: false,
            bw_avg_ms: 500,
            iops_avg_ms: 500,
            lat_is_clat: [false; 3],
            corrected: false,
            own_prio: 0,
        };
        JobOutcome {
            recorder: JobRecorder::new(config, 0).expect("recorder"),
            times: Default::default(),
            error: 0,
            error_text: String::new(),
            notes: Vec::new(),
            pid,
            start_wall_ms: 0,
            latency_depth: 1,
            steadystate: None,
            block: None,
        }
    }

    fn pids(c: &Collected) -> Vec<Option<u32>> {
        c.outcomes.iter().map(|o| o.as_ref().map(|o| o.pid)).collect()
    }

    #[test]
    fn running_jobs_answer_finished_ones_stay_and_waiting_ones_count_as_nothing() {
        let board = StatusBoard::new();
        assert!(board.collect().is_none(), "no run under way");
        board.begin(3, DiskWatch::start([]), 0);
        std::thread::scope(|scope| {
            let mut running = board.slot(0);
            running.start();
            board.slot(1).done(outcome(11));
            let _waiting = board.slot(2);
            let (finish, finished) = std::sync::mpsc::channel::<()>();
            let job = scope.spawn(move || {
                // The job's loop: answer each request until two were answered.
                let mut answered = 0;
                while answered < 2 {
                    if let Some(request) = running.asked() {
                        running.answer(request, outcome(10 + answered));
                        answered += 1;
                    }
                    std::thread::yield_now();
                }
                finished.recv().unwrap();
                running.done(outcome(99));
            });
            let first = board.collect().expect("a run");
            assert_eq!(pids(&first), [Some(10), Some(11), None]);
            let second = board.collect().expect("a run");
            assert_eq!(pids(&second), [Some(11), Some(11), None]);
            finish.send(()).unwrap();
            job.join().unwrap();
        });
        let (outcomes, _) = board.end();
        let pids: Vec<Option<u32>> = outcomes.iter().map(|o| o.as_ref().map(|o| o.pid)).collect();
        assert_eq!(pids, [Some(99), Some(11), None], "a slot dropped unfinished has no outcome");
        assert!(board.collect().is_none(), "the run is over");
    }

    #[test]
    fn a_job_that_starts_after_a_request_answers_it_with_nothing() {
        let board = StatusBoard::new();
        board.begin(1, DiskWatch::start([]), 0);
        // A requester has raised request 1 and waits for the running jobs.
        board.asked.fetch_add(1, Ordering::SeqCst);
        let mut slot = board.slot(0);
        slot.start();
        assert_eq!(slot.asked(), None, "nothing more to answer");
        let s = board.lock();
        assert!(
            matches!(s.slots[0], Slot::Running { answered: 1, copy: None }),
            "request 1 counts as answered, with nothing done"
        );
    }
}
