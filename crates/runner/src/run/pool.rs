//! The threads of a wave's jobs, kept for the wave's later jobs: a job thread whose job
//! left it as it found it (no affinity, memory policy, nice value or I/O priority set, see
//! [`crate::system::placement::leaves_thread_as_is`], and no rate, whose pacing sets the
//! thread's timer slack) waits for the next job of its wave
//! instead of ending, and a job starts on a waiting thread when there is one, on a new
//! thread otherwise. Every job still starts as soon as the wave reaches it, beside all the
//! jobs still running; thousands of short jobs cost a few threads instead of thousands
//! (each with its stack, guard page and signal stack to map, fault in and unmap).

use std::sync::mpsc::{sync_channel, SyncSender};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::Scope;

/// One job to run on a pool thread; it answers whether the thread may run another.
pub(crate) type Task<'scope> = Box<dyn FnOnce() -> bool + Send + 'scope>;

/// The threads waiting for a job, and whether the wave has handed out its last one.
#[derive(Default)]
struct Waiting<'scope> {
    closed: bool,
    threads: Vec<SyncSender<Task<'scope>>>,
}

/// The job threads of one wave, started within `scope` (which joins them).
pub(crate) struct Pool<'scope, 'env> {
    scope: &'scope Scope<'scope, 'env>,
    waiting: Arc<Mutex<Waiting<'scope>>>,
}

impl<'scope, 'env> Pool<'scope, 'env> {
    /// A pool with no threads yet, whose threads `scope` joins.
    pub(crate) fn new(scope: &'scope Scope<'scope, 'env>) -> Self {
        Pool { scope, waiting: Arc::default() }
    }

    /// Runs `task` now, on a waiting thread if there is one, else on a new thread.
    pub(crate) fn run(&self, task: Task<'scope>) {
        let mut task = task;
        loop {
            let idle = lock(&self.waiting).threads.pop();
            match idle {
                // A waiting thread is blocked on its channel, which holds one task.
                Some(thread) => match thread.send(task) {
                    Ok(()) => return,
                    Err(e) => task = e.0,
                },
                None => break,
            }
        }
        let waiting = Arc::clone(&self.waiting);
        self.scope.spawn(move || {
            let mut task = task;
            while task() {
                let (sender, receiver) = sync_channel(1);
                {
                    let mut waiting = lock(&waiting);
                    if waiting.closed {
                        return;
                    }
                    waiting.threads.push(sender);
                }
                match receiver.recv() {
                    Ok(next) => task = next,
                    Err(_) => return,
                }
            }
        });
    }

    /// No more jobs: waiting threads end, and so do the others once their job is done.
    pub(crate) fn close(&self) {
        let mut waiting = lock(&self.waiting);
        waiting.closed = true;
        waiting.threads.clear();
    }
}

/// `mutex` locked; a panicked job cannot leave the list half-changed.
fn lock<'a, T>(mutex: &'a Mutex<T>) -> std::sync::MutexGuard<'a, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::channel;
    use std::thread::ThreadId;

    /// Runs `reusable.len()` jobs one after the other (each once the one before is done and
    /// its thread, if kept, is waiting) and answers the thread each ran on.
    fn threads_of(reusable: &[bool]) -> Vec<ThreadId> {
        let (sender, receiver) = channel();
        std::thread::scope(|scope| {
            let pool = Pool::new(scope);
            let ids = reusable
                .iter()
                .map(|&keep| {
                    let sender = sender.clone();
                    pool.run(Box::new(move || {
                        sender.send(std::thread::current().id()).unwrap();
                        keep
                    }));
                    let id = receiver.recv().unwrap();
                    if keep {
                        while lock(&pool.waiting).threads.is_empty() {
                            std::thread::yield_now();
                        }
                    }
                    id
                })
                .collect();
            pool.close();
            ids
        })
    }

    #[test]
    fn a_finished_job_s_thread_runs_the_next_job() {
        let ids = threads_of(&[true, true, true]);
        assert_eq!(ids[0], ids[1]);
        assert_eq!(ids[1], ids[2]);
    }

    #[test]
    fn a_job_that_changed_its_thread_ends_it() {
        let ids = threads_of(&[false, true, true]);
        assert_ne!(ids[0], ids[1]);
        assert_eq!(ids[1], ids[2]);
    }

    #[test]
    fn jobs_running_at_once_get_threads_of_their_own() {
        let (started, ready) = channel();
        // Each job holds its thread until the test lets go of `release`.
        let release = Arc::new(Mutex::new(()));
        let gate = lock(&release);
        let ids: Vec<ThreadId> = std::thread::scope(|scope| {
            let pool = Pool::new(scope);
            for _ in 0..4 {
                let started = started.clone();
                let release = Arc::clone(&release);
                pool.run(Box::new(move || {
                    started.send(std::thread::current().id()).unwrap();
                    drop(lock(&release));
                    true
                }));
            }
            let ids = (0..4).map(|_| ready.recv().unwrap()).collect();
            drop(gate);
            pool.close();
            ids
        });
        let mut unique = ids.clone();
        unique.sort_by_key(|id| format!("{id:?}"));
        unique.dedup();
        assert_eq!(unique.len(), 4);
    }
}
