//! The `threadpool` engine (alias `guasi`): a pool of worker threads that run the blocking
//! system calls and hand back completions.
//!
//! Like GUASI (a user-space asynchronous system call interface), it gives buffered I/O real
//! concurrency where Linux AIO would complete each request inside `io_submit`: `iodepth`
//! requests can be inside `pread`/`pwrite` at once, each on its own thread. Reads and writes
//! are `pread`/`pwrite`; trims and syncs are the sync engines' (`fallocate` punching a hole
//! or `BLKDISCARD`; `fsync`/`fdatasync`).
//!
//! - `queue` copies the unit's request into a preallocated list (the unit's buffer address
//!   crosses to a worker; the runner does not touch the unit until it is reaped);
//! - `commit` pushes the list to the workers' queue, wakes as many idle workers as it pushed
//!   and, if there were fewer idle workers than waiting requests, starts new workers up to
//!   `threadpool_max`;
//! - `reap` takes results from the completion queue, spinning briefly, then sleeping on a
//!   futex until `min` are in (never sleeping when `min` is 0).
//!
//! `threadpool_min` workers start in `create`. Growing the pool spawns a thread (which
//! allocates) inside `commit`: that happens at most `threadpool_max - threadpool_min` times
//! per job, and never again once the pool is at its size. Apart from that, the I/O path
//! allocates nothing and takes no lock; the only system calls besides the I/O are futex
//! wakes (only when someone sleeps) and waits. The pool never has more workers than
//! `iodepth`, since more could never all be busy.
//!
//! Dropping the engine tells the workers to stop, wakes them and joins them; requests not yet
//! started are dropped, requests inside a system call finish first (so the units must outlive
//! the engine, as the runner's do).

mod pool;

pub use pool::BeforeIo;

use crate::file::ThreadUsage;
use crate::interface::{Engine, EngineError, Queued};
use crate::options::EngineOptions;
use crate::unit::IoUnit;
use iomark_core::Ddir;
use pool::{BufPtr, Request, Shared};
use std::sync::Arc;
use std::thread::JoinHandle;

/// How many times `reap` looks for completions before it goes to sleep.
const REAP_SPINS: u32 = 256;

/// Stack size of a worker thread: a worker only makes system calls.
const WORKER_STACK: usize = 256 * 1024;

/// The thread-pool engine.
pub struct ThreadPoolEngine {
    name: &'static str,
    shared: Arc<Shared>,
    /// The workers; room for `threads_max` was made in `new`.
    /// Each worker returns its own CPU usage when it stops.
    workers: Vec<JoinHandle<ThreadUsage>>,
    threads_min: usize,
    threads_max: usize,
    /// Requests queued since the last commit; room for `iodepth`.
    pending: Vec<Request>,
    /// Units between `queue` and `reap` (pending or submitted).
    in_flight: usize,
    /// Units committed and not yet reaped.
    submitted: usize,
    depth: usize,
    /// Completions popped so far (wrapping), to know what count to wait for.
    reaped: u32,
    /// Requests reaped in all, each one call made by a worker.
    reaped_total: u64,
    /// Why the pool could not grow, if it once could not.
    spawn_failure: Option<String>,
    /// Workers started so far (they stay until the engine stops).
    spawned: usize,
}

impl ThreadPoolEngine {
    /// A pool named `name` (`guasi` or `threadpool`) with `threads_min` workers started now,
    /// growing to `threads_max` (both capped to `iodepth`).
    pub fn new(name: &str, options: &EngineOptions) -> Result<Self, EngineError> {
        Self::build(name, options, None)
    }

    /// Like [`ThreadPoolEngine::new`], with a function every worker calls with the unit's
    /// index right before each I/O system call. Tests use it to hold workers inside a request
    /// and count how many are in flight at once.
    pub fn with_hook(
        name: &str,
        options: &EngineOptions,
        before_io: impl Fn(u32) + Send + Sync + 'static,
    ) -> Result<Self, EngineError> {
        Self::build(name, options, Some(Box::new(before_io)))
    }

    fn build(
        name: &str,
        options: &EngineOptions,
        before_io: Option<BeforeIo>,
    ) -> Result<Self, EngineError> {
        let name = if name == "guasi" { "guasi" } else { "threadpool" };
        let depth = options.iodepth.max(1) as usize;
        let threads_max = (options.threads_max.max(1) as usize).min(depth);
        let threads_min = (options.threads_min as usize).min(threads_max);
        let mut engine = ThreadPoolEngine {
            name,
            shared: Arc::new(Shared::new(depth, before_io)),
            workers: Vec::with_capacity(threads_max),
            threads_min,
            threads_max,
            pending: Vec::with_capacity(depth),
            in_flight: 0,
            submitted: 0,
            depth,
            reaped: 0,
            reaped_total: 0,
            spawn_failure: None,
            spawned: 0,
        };
        for _ in 0..threads_min {
            engine.spawn().map_err(|e| {
                EngineError::option("threadpool_min", format!("cannot start a worker: {e}"))
            })?;
        }
        Ok(engine)
    }

    /// How many worker threads the pool has now.
    pub fn workers(&self) -> usize {
        self.workers.len()
    }

    fn spawn(&mut self) -> std::io::Result<()> {
        let shared = Arc::clone(&self.shared);
        let worker = std::thread::Builder::new()
            .name(format!("iomark-{}", self.name))
            .stack_size(WORKER_STACK)
            .spawn(move || {
                pool::work(&shared);
                ThreadUsage::now()
            })?;
        self.workers.push(worker);
        self.spawned += 1;
        Ok(())
    }

    /// Starts workers for requests that no idle worker will take, up to `threads_max`.
    fn grow(&mut self, idle: usize) -> std::io::Result<()> {
        let waiting = self.shared.submissions.len();
        let wanted = waiting.saturating_sub(idle).min(self.threads_max - self.workers.len());
        for _ in 0..wanted {
            if let Err(e) = self.spawn() {
                self.spawn_failure.get_or_insert_with(|| e.to_string());
                if self.workers.is_empty() {
                    return Err(e);
                }
                break;
            }
        }
        Ok(())
    }
}

impl Engine for ThreadPoolEngine {
    fn name(&self) -> &'static str {
        self.name
    }

    fn is_sync(&self) -> bool {
        false
    }

    fn queue(&mut self, unit: &mut IoUnit) -> Queued {
        if self.in_flight >= self.depth {
            return Queued::Busy;
        }
        self.pending.push(Request {
            index: unit.index,
            ddir: unit.ddir,
            fd: unit.fd,
            offset: unit.offset,
            len: match unit.ddir {
                Ddir::Read | Ddir::Write => unit.len.min(unit.buf.len()),
                _ => unit.len,
            },
            sync_flags: unit.sync_flags,
            buf: BufPtr(unit.buf.as_mut_ptr()),
        });
        self.in_flight += 1;
        Queued::Queued
    }

    fn commit(&mut self) -> std::io::Result<usize> {
        let n = self.pending.len();
        if n == 0 {
            return Ok(0);
        }
        for request in self.pending.drain(..) {
            // Cannot fail: at most `iodepth` requests are out and the queue holds `iodepth`.
            let pushed = self.shared.submissions.push(request);
            debug_assert!(pushed.is_ok(), "the submission queue overflowed");
        }
        self.submitted += n;
        let idle = self.shared.announce(n);
        if self.workers.len() < self.threads_max {
            self.grow(idle)?;
        }
        Ok(n)
    }

    fn reap(
        &mut self,
        units: &mut [IoUnit],
        min: usize,
        max: usize,
        done: &mut Vec<u32>,
    ) -> std::io::Result<usize> {
        let max = max.min(self.submitted);
        let min = min.min(max);
        let mut got = 0;
        let mut spins = 0;
        while got < max {
            if let Some(c) = self.shared.completions.pop() {
                units[c.index as usize].result = c.result;
                done.push(c.index);
                got += 1;
                self.reaped = self.reaped.wrapping_add(1);
                self.reaped_total += 1;
                continue;
            }
            if got >= min {
                break;
            }
            if spins < REAP_SPINS {
                spins += 1;
                std::hint::spin_loop();
                continue;
            }
            let target = self.reaped.wrapping_add((min - got) as u32);
            self.shared.wait_for_completions(target);
        }
        self.submitted -= got;
        self.in_flight -= got;
        Ok(got)
    }

    /// One call per request, made by a worker; the pool's futex waits and wake-ups are not
    /// counted (they show in the context switches).
    fn syscalls(&self) -> Option<u64> {
        Some(self.reaped_total)
    }

    fn finish(&mut self) -> ThreadUsage {
        self.stop_workers()
    }

    fn notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        let grown = self.spawned.saturating_sub(self.threads_min);
        if grown > 0 {
            notes.push(format!(
                "{}: the pool grew from {} to {} worker threads while the job ran",
                self.name, self.threads_min, self.spawned
            ));
        }
        if let Some(e) = &self.spawn_failure {
            notes.push(format!(
                "{}: could not grow the pool past {} worker threads: {e}",
                self.name, self.spawned
            ));
        }
        notes
    }
}

impl ThreadPoolEngine {
    /// Stops and joins every worker; returns their summed usage.
    fn stop_workers(&mut self) -> ThreadUsage {
        self.shared.shut_down();
        let mut total = ThreadUsage::default();
        for worker in self.workers.drain(..) {
            // A worker that panicked (only a test hook can) has nothing left to clean up.
            if let Ok(usage) = worker.join() {
                total = total.plus(usage);
            }
        }
        total
    }
}

impl Drop for ThreadPoolEngine {
    fn drop(&mut self) {
        self.stop_workers();
    }
}
