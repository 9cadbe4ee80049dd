//! Live progress of the running jobs, published without a lock and read as snapshots.
//!
//! Each job thread owns one [`JobProgress`]: a state byte and per-direction byte and I/O
//! counters that only that thread writes, with relaxed stores, a few times per second at
//! most (see [`PUBLISH_NS`]) — no lock and no system call on the I/O path. [`Progress`] holds
//! one per job and reads them all into a [`Sample`]; [`Progress::watch`] hands a sample to a
//! consumer every interval on a thread of its own (the cli's ETA line). The snapshot types are plain data in [`iomark_stats::progress`],
//! so that what shows them (fio's ETA line is `iomark_report::eta`) never reaches into the
//! runner.

use iomark_core::RwMode;
use iomark_plan::limits::LimitsPlan;
use iomark_plan::JobPlan;
pub(crate) use iomark_stats::progress::{JobSample, JobShape, JobState, Sample};
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicU32, AtomicU64, AtomicU8, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A job thread publishes its counters at most once per this many nanoseconds of its clock.
pub const PUBLISH_NS: u64 = 10_000_000;

/// The counters one job thread publishes; [`Progress::sample`] reads them.
#[derive(Debug)]
pub struct JobProgress {
    epoch: Instant,
    state: AtomicU8,
    files: AtomicU32,
    /// When the job started, ms since the progress epoch, plus one (0: not started).
    started_ms: AtomicU64,
    bytes: [AtomicU64; 3],
    ios: [AtomicU64; 3],
}

impl JobProgress {
    /// Counters of a pending job; times are measured from `epoch`.
    pub fn new(epoch: Instant) -> JobProgress {
        JobProgress {
            epoch,
            state: AtomicU8::new(JobState::Pending as u8),
            files: AtomicU32::new(0),
            started_ms: AtomicU64::new(0),
            bytes: Default::default(),
            ios: Default::default(),
        }
    }

    /// Marks the job started now, with `files` files open, in its ramp or not.
    pub fn start(&self, files: u32, ramping: bool) {
        let ms = self.epoch.elapsed().as_millis() as u64;
        self.started_ms.store(ms + 1, Ordering::Relaxed);
        self.files.store(files, Ordering::Relaxed);
        self.set_state(if ramping { JobState::Ramp } else { JobState::Running });
    }

    /// Sets the job's state.
    pub fn set_state(&self, state: JobState) {
        self.state.store(state as u8, Ordering::Relaxed);
        if state == JobState::Done {
            self.files.store(0, Ordering::Relaxed);
        }
    }

    /// Publishes the bytes and I/Os done so far per direction (read, write, trim).
    pub fn publish(&self, bytes: &[u64; 3], ios: &[u64; 3]) {
        for d in 0..3 {
            self.bytes[d].store(bytes[d], Ordering::Relaxed);
            self.ios[d].store(ios[d], Ordering::Relaxed);
        }
    }

    pub(crate) fn read(&self) -> JobSample {
        JobSample {
            state: JobState::from_u8(self.state.load(Ordering::Relaxed)),
            files: self.files.load(Ordering::Relaxed),
            started_ms: self.started_ms.load(Ordering::Relaxed).checked_sub(1),
            bytes: self.bytes.each_ref().map(|b| b.load(Ordering::Relaxed)),
            ios: self.ios.each_ref().map(|b| b.load(Ordering::Relaxed)),
        }
    }
}

/// The job thread's side: counts every completion and publishes now and then.
#[derive(Debug)]
pub struct Publisher<'a> {
    progress: &'a JobProgress,
    bytes: [u64; 3],
    ios: [u64; 3],
    next_ns: u64,
}

impl<'a> Publisher<'a> {
    /// Publishes into `progress`.
    pub fn new(progress: &'a JobProgress) -> Self {
        Publisher { progress, bytes: [0; 3], ios: [0; 3], next_ns: 0 }
    }

    /// Counts one completed I/O of direction `d`, publishing nothing: the caller calls
    /// [`Publisher::publish_due`] by [`Publisher::next_ns`].
    #[inline]
    pub fn add(&mut self, d: usize, bytes: u64) {
        self.bytes[d] += bytes;
        self.ios[d] += 1;
    }

    /// Publishes the counts when [`PUBLISH_NS`] have passed on the job's clock (`now_ns`)
    /// since the last time.
    #[inline]
    pub fn publish_due(&mut self, now_ns: u64) {
        if now_ns >= self.next_ns {
            self.flush();
            self.next_ns = now_ns + PUBLISH_NS;
        }
    }

    /// The first time at which [`Publisher::publish_due`] publishes.
    #[inline]
    pub fn next_ns(&self) -> u64 {
        self.next_ns
    }

    /// Publishes the counts now.
    pub fn flush(&self) {
        self.progress.publish(&self.bytes, &self.ios);
    }

    /// The job's counters.
    pub fn progress(&self) -> &'a JobProgress {
        self.progress
    }
}

impl Progress {
    /// The shape of a job of pattern `rw` within `limits`, for whatever shows the run's
    /// progress.
    fn shape_of(rw: RwMode, limits: &LimitsPlan) -> JobShape {
        let letter = match rw {
            RwMode::Read | RwMode::RandRead => 'R',
            RwMode::Write | RwMode::RandWrite => 'W',
            RwMode::Trim | RwMode::RandTrim => 'D',
            _ => 'M',
        };
        let letter = if rw.is_random() { letter.to_ascii_lowercase() } else { letter };
        let time_limit_s = limits
            .runtime
            .map(|r| (limits.startdelay + limits.ramp_time + r).as_secs_f64().ceil() as u64);
        JobShape {
            letter,
            time_limit_s,
            time_based: limits.time_based,
            planned_bytes: limits.io_bytes.saturating_mul(limits.loops),
        }
    }
}

/// The progress of a whole run: one job's counters per job, in plan order.
#[derive(Debug)]
pub struct Progress {
    epoch: Instant,
    jobs: Vec<JobProgress>,
    shapes: Vec<JobShape>,
}

impl Progress {
    /// Progress counters for `plans`, all pending.
    pub fn new(plans: &[JobPlan]) -> Progress {
        let epoch = Instant::now();
        Progress {
            epoch,
            jobs: plans.iter().map(|_| JobProgress::new(epoch)).collect(),
            shapes: plans.iter().map(|p| Progress::shape_of(p.workload.rw, &p.limits)).collect(),
        }
    }

    /// The instant job start times are measured from.
    pub fn epoch(&self) -> Instant {
        self.epoch
    }

    /// The shapes of the jobs, in plan order.
    pub fn shapes(&self) -> &[JobShape] {
        &self.shapes
    }

    /// The counters of job `i`.
    pub fn job(&self, i: usize) -> &JobProgress {
        &self.jobs[i]
    }

    /// Everything now, `now_ms` after the epoch.
    pub fn sample(&self) -> Sample {
        Sample {
            now_ms: self.epoch.elapsed().as_millis() as u64,
            jobs: self.jobs.iter().map(JobProgress::read).collect(),
        }
    }
}

/// A thread that hands a [`Sample`] of the run to a consumer every interval;
/// [`Watch::stop`] ends it.
#[derive(Debug)]
pub struct Watch<T> {
    stop: mpsc::Sender<()>,
    handle: std::thread::JoinHandle<Option<T>>,
}

impl Progress {
    /// Starts a thread that takes a sample every `interval` and hands it to `each`, until
    /// stopped or until `each` breaks (with the value [`Watch::stop`] then returns).
    pub fn watch<T, F>(self: &Arc<Self>, interval: Duration, mut each: F) -> Watch<T>
    where
        T: Send + 'static,
        F: FnMut(Sample) -> ControlFlow<T> + Send + 'static,
    {
        let progress = Arc::clone(self);
        let (stop, stopped) = mpsc::channel::<()>();
        let handle = std::thread::spawn(move || loop {
            match stopped.recv_timeout(interval) {
                Err(RecvTimeoutError::Timeout) => {}
                _ => return None,
            }
            if let ControlFlow::Break(value) = each(progress.sample()) {
                return Some(value);
            }
        });
        Watch { stop, handle }
    }
}

impl<T> Watch<T> {
    /// Stops the thread and waits for it: what the consumer broke with, if it did (`Err` if
    /// it panicked).
    pub fn stop(self) -> std::thread::Result<Option<T>> {
        let _ = self.stop.send(());
        self.handle.join()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_publisher_stores_at_most_once_per_period() {
        let progress = JobProgress::new(Instant::now());
        let mut p = Publisher::new(&progress);
        let count = |p: &mut Publisher, d: usize, bytes: u64, now: u64| {
            p.add(d, bytes);
            p.publish_due(now);
        };
        count(&mut p, 0, 4096, 0);
        count(&mut p, 0, 4096, PUBLISH_NS - 1);
        assert_eq!(progress.read().bytes, [4096, 0, 0]);
        assert_eq!(p.next_ns(), PUBLISH_NS);
        count(&mut p, 1, 512, PUBLISH_NS);
        assert_eq!(progress.read().bytes, [8192, 512, 0]);
        assert_eq!(progress.read().ios, [2, 1, 0]);
        count(&mut p, 1, 512, PUBLISH_NS + 1);
        p.flush();
        assert_eq!(progress.read().ios, [2, 2, 0]);
    }

    #[test]
    fn job_states_reach_the_sample() {
        let progress = JobProgress::new(Instant::now());
        assert_eq!(progress.read().state, JobState::Pending);
        assert_eq!(progress.read().started_ms, None);
        progress.start(2, true);
        let s = progress.read();
        assert_eq!((s.state, s.files), (JobState::Ramp, 2));
        assert!(s.started_ms.is_some());
        progress.set_state(JobState::Done);
        assert_eq!((progress.read().state, progress.read().files), (JobState::Done, 0));
    }

    #[test]
    fn a_watch_hands_samples_until_its_consumer_breaks() {
        let progress = Arc::new(Progress::new(&[]));
        let (seen, samples) = mpsc::channel();
        let watch = progress.watch(Duration::from_millis(1), move |sample| {
            let _ = seen.send(sample.jobs.len());
            ControlFlow::Break(7)
        });
        assert_eq!(samples.recv().expect("a sample"), 0);
        assert_eq!(watch.stop().expect("no panic"), Some(7));
    }

    #[test]
    fn a_stopped_watch_returns_nothing() {
        let progress = Arc::new(Progress::new(&[]));
        let watch = progress.watch(Duration::from_secs(3600), |_| ControlFlow::<()>::Continue(()));
        assert_eq!(watch.stop().expect("no panic"), None);
    }
}
