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
//! Each file's lock is one 32-bit word in the memory the run shares with its job processes
//! ([`SharedWords`]), taken and given back with atomic operations; a job waits for it on a
//! futex, and a job that gives a lock back wakes the waiters (a system call) only when
//! some job waits. Taking and giving back a lock is the one exception to the lock-free
//! I/O loop, made only when the job asks for it.

use iomark_engine::shared::{self, SharedWords};
use iomark_plan::files::{FilesPlan, LockMode};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

/// The lock word: a writer holds it.
const WRITER: u32 = 1 << 31;
/// The lock word: some job waits for it.
const WAITING: u32 = 1 << 30;
/// The lock word: the readers holding it.
const READERS: u32 = WAITING - 1;

/// One file's lock, shared by the jobs that lock it: a word of the shared memory.
#[derive(Debug, Clone)]
pub struct FileLock {
    words: Arc<SharedWords>,
    at: usize,
}

impl FileLock {
    fn word(&self) -> &AtomicU32 {
        &self.words.narrow()[self.at]
    }

    fn free_for(word: u32, shared: bool) -> bool {
        word & WRITER == 0 && (shared || word & READERS == 0)
    }

    fn with(word: u32, shared: bool) -> u32 {
        if shared {
            word + 1
        } else {
            word | WRITER
        }
    }

    /// Takes the lock (`shared`: as a reader) if it is free for that; false otherwise.
    pub fn try_take(&self, shared: bool) -> bool {
        let word = self.word();
        let mut now = word.load(Ordering::Relaxed);
        while Self::free_for(now, shared) {
            match word.compare_exchange_weak(
                now,
                Self::with(now, shared),
                Ordering::Acquire,
                Ordering::Relaxed,
            ) {
                Ok(_) => return true,
                Err(seen) => now = seen,
            }
        }
        false
    }

    /// Takes the lock, waiting until it is free.
    pub fn take(&self, shared: bool) {
        let word = self.word();
        while !self.try_take(shared) {
            let now = word.load(Ordering::Relaxed);
            if Self::free_for(now, shared) {
                continue;
            }
            // Say that someone waits, then sleep unless the word changed meanwhile.
            let waiting = now | WAITING;
            if now == waiting
                || word.compare_exchange(now, waiting, Ordering::Relaxed, Ordering::Relaxed).is_ok()
            {
                shared::wait(word, waiting);
            }
        }
    }

    /// Gives the lock back, waking the jobs that wait for it.
    pub fn give(&self, shared: bool) {
        let word = self.word();
        let before = word
            .fetch_update(Ordering::Release, Ordering::Relaxed, |now| {
                let held = if shared { now - (now & READERS).min(1) } else { now & !WRITER };
                Some(held & !WAITING)
            })
            .unwrap_or(0);
        if before & WAITING != 0 {
            shared::wake(word);
        }
    }
}

/// The files that jobs with `lockfile` use, each once, in the order of the jobs: the
/// places of their locks.
pub fn paths<'a>(jobs: impl IntoIterator<Item = &'a FilesPlan>) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = Vec::new();
    for files in jobs.into_iter().filter(|f| f.lockfile != LockMode::None) {
        for f in &files.list {
            if !paths.contains(&f.path) {
                paths.push(f.path.clone());
            }
        }
    }
    paths
}

/// The locks of every file that a job with `lockfile` uses, one per path.
#[derive(Debug, Default)]
pub struct FileLocks {
    by_path: HashMap<PathBuf, FileLock>,
}

impl FileLocks {
    /// The locks of `paths` (see [`paths`]), in that order among `words`' 32-bit words.
    pub fn new(paths: Vec<PathBuf>, words: &Arc<SharedWords>) -> FileLocks {
        let by_path = paths
            .into_iter()
            .enumerate()
            .map(|(at, path)| (path, FileLock { words: Arc::clone(words), at }))
            .collect();
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
    locks: Vec<Option<FileLock>>,
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
    fn lock() -> FileLock {
        FileLock { words: Arc::new(SharedWords::create(0, 1).expect("shared words")), at: 0 }
    }

    fn contend(shared: [bool; 4]) -> (i32, i32) {
        let lock = lock();
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
        let lock = lock();
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
