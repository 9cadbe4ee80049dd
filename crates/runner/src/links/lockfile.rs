//! fio's `lockfile`: locks that jobs sharing a file take around their I/O to it.
//!
//! - `exclusive`: one job at a time does I/O to the file.
//! - `readwrite`: jobs that only read share the file; a job that writes (or trims) has it
//!   alone. The mode is the job's, from its `rw`: a mixed job locks as a writer.
//! - `none` (the default): no lock; such a job ignores the others' locks.
//!
//! A job takes its lock on a file when it issues an I/O to it with none in flight there,
//! and gives it back when its last I/O there completes, so with a synchronous engine the
//! lock covers each I/O. A job never waits for a lock while it holds one: when the lock is
//! taken, it first completes all its I/Os in flight (giving back what it holds), then
//! waits. So two jobs cannot wait for each other.
//!
//! The lock is taken before the I/O's start is stamped: the wait is not in its latency.
//! Taking and giving back a lock is a lock and a condition variable, the one exception to
//! the lock-free I/O loop, made only when the job asks for it.

use iomark_plan::files::{FilesPlan, LockMode};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

/// One file's lock, shared by the jobs that lock it.
#[derive(Debug, Default)]
pub struct FileLock {
    state: Mutex<Holders>,
    changed: Condvar,
}

#[derive(Debug, Default)]
struct Holders {
    readers: u32,
    writer: bool,
}

impl FileLock {
    fn holders(&self) -> MutexGuard<'_, Holders> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn free_for(h: &Holders, shared: bool) -> bool {
        !h.writer && (shared || h.readers == 0)
    }

    /// Takes the lock (`shared`: as a reader) if it is free for that; false otherwise.
    pub fn try_take(&self, shared: bool) -> bool {
        let mut h = self.holders();
        if !Self::free_for(&h, shared) {
            return false;
        }
        Self::add(&mut h, shared);
        true
    }

    /// Takes the lock, waiting until it is free.
    pub fn take(&self, shared: bool) {
        let mut h = self.holders();
        while !Self::free_for(&h, shared) {
            h = self.changed.wait(h).unwrap_or_else(|e| e.into_inner());
        }
        Self::add(&mut h, shared);
    }

    fn add(h: &mut Holders, shared: bool) {
        if shared {
            h.readers += 1;
        } else {
            h.writer = true;
        }
    }

    /// Gives the lock back.
    pub fn give(&self, shared: bool) {
        let mut h = self.holders();
        if shared {
            h.readers = h.readers.saturating_sub(1);
        } else {
            h.writer = false;
        }
        drop(h);
        self.changed.notify_all();
    }
}

/// The locks of every file that a job with `lockfile` uses, one per path.
#[derive(Debug, Default)]
pub struct FileLocks {
    by_path: HashMap<PathBuf, Arc<FileLock>>,
}

impl FileLocks {
    /// The locks the jobs with these files need.
    pub fn new<'a>(jobs: impl IntoIterator<Item = &'a FilesPlan>) -> FileLocks {
        let mut by_path = HashMap::new();
        for files in jobs.into_iter().filter(|f| f.lockfile != LockMode::None) {
            for f in &files.list {
                by_path.entry(f.path.clone()).or_insert_with(|| Arc::new(FileLock::default()));
            }
        }
        FileLocks { by_path }
    }

    /// What the job with `files` holds and takes; `None` when it does not lock.
    pub fn for_job(&self, files: &FilesPlan) -> Option<JobLocks> {
        if files.lockfile == LockMode::None {
            return None;
        }
        let locks = files.list.iter().map(|f| self.by_path.get(&f.path).cloned()).collect();
        Some(JobLocks { locks, in_flight: vec![0; files.list.len()], shared: files.shared_lock() })
    }
}

/// The locks of one job and its I/Os in flight on each file.
#[derive(Debug)]
pub struct JobLocks {
    locks: Vec<Option<Arc<FileLock>>>,
    in_flight: Vec<u32>,
    /// The job takes its locks as a reader.
    shared: bool,
}

impl JobLocks {
    /// For an I/O about to be issued to `file`: true when the job holds the file's lock
    /// (taken now if it had no I/O in flight there); false when another job has it, and
    /// the job must complete its I/Os in flight, then [`wait`](Self::wait).
    #[inline]
    pub fn try_take(&mut self, file: usize) -> bool {
        let Some(lock) = &self.locks[file] else { return true };
        if self.in_flight[file] == 0 && !lock.try_take(self.shared) {
            return false;
        }
        self.in_flight[file] += 1;
        true
    }

    /// Waits for the lock of `file` and takes it for one I/O; call only with no I/O in
    /// flight.
    pub fn wait(&mut self, file: usize) {
        if let Some(lock) = &self.locks[file] {
            lock.take(self.shared);
            self.in_flight[file] += 1;
        }
    }

    /// An I/O to `file` completed (or was not issued after all): the last one there gives
    /// the lock back.
    #[inline]
    pub fn give(&mut self, file: usize) {
        let Some(lock) = &self.locks[file] else { return };
        if self.in_flight[file] == 0 {
            return;
        }
        self.in_flight[file] -= 1;
        if self.in_flight[file] == 0 {
            lock.give(self.shared);
        }
    }
}

/// A job that ends with I/Os in flight (an error stopped it) gives back what it holds, so
/// that the other jobs go on.
impl Drop for JobLocks {
    fn drop(&mut self) {
        for (lock, n) in self.locks.iter().zip(&mut self.in_flight) {
            if let (Some(lock), true) = (lock, *n > 0) {
                lock.give(self.shared);
                *n = 0;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicI32, Ordering};

    /// Threads that each take the lock many times, checking who else is inside.
    fn contend(shared: [bool; 4]) -> (i32, i32) {
        let lock = FileLock::default();
        let (readers, writers) = (AtomicI32::new(0), AtomicI32::new(0));
        let (max_readers, max_writers) = (AtomicI32::new(0), AtomicI32::new(0));
        std::thread::scope(|s| {
            for &sh in &shared {
                let (lock, readers, writers) = (&lock, &readers, &writers);
                let (max_readers, max_writers) = (&max_readers, &max_writers);
                s.spawn(move || {
                    for i in 0..2000 {
                        if i % 3 == 0 || !lock.try_take(sh) {
                            lock.take(sh);
                        }
                        let (mine, other) =
                            if sh { (readers, writers) } else { (writers, readers) };
                        let n = mine.fetch_add(1, Ordering::SeqCst) + 1;
                        assert_eq!(other.load(Ordering::SeqCst), 0, "readers and a writer inside");
                        let max = if sh { max_readers } else { max_writers };
                        max.fetch_max(n, Ordering::SeqCst);
                        std::hint::spin_loop();
                        mine.fetch_sub(1, Ordering::SeqCst);
                        lock.give(sh);
                    }
                });
            }
        });
        (max_readers.into_inner(), max_writers.into_inner())
    }

    #[test]
    fn writers_are_alone_and_readers_may_share() {
        let (_, w) = contend([false; 4]);
        assert_eq!(w, 1, "two writers inside");
        let (_, w) = contend([true, false, true, false]);
        assert_eq!(w, 1);
        let (r, w) = contend([true; 4]);
        assert_eq!(w, 0);
        assert!(r >= 1);
    }

    #[test]
    fn a_job_takes_a_file_once_for_its_ios_in_flight() {
        let lock = Arc::new(FileLock::default());
        let mut a = JobLocks { locks: vec![Some(lock.clone())], in_flight: vec![0], shared: false };
        let mut b = JobLocks { locks: vec![Some(lock.clone())], in_flight: vec![0], shared: false };
        assert!(a.try_take(0) && a.try_take(0), "a job does not wait for itself");
        assert!(!b.try_take(0));
        a.give(0);
        assert!(!b.try_take(0), "a still has an I/O in flight");
        a.give(0);
        assert!(b.try_take(0));
        b.give(0);
        let mut none = JobLocks { locks: vec![None], in_flight: vec![0], shared: false };
        assert!(none.try_take(0));
    }
}
