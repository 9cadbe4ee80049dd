//! The state the engine shares with its worker threads, the workers' loop, and the futex
//! calls that put threads to sleep and wake them.
//!
//! Two bounded lock-free queues carry the traffic, both preallocated to `iodepth` entries:
//! requests go from the job's thread to the workers (`submissions`, one producer, many
//! consumers) and results come back (`completions`, many producers, one consumer). The
//! engine never has more than `iodepth` I/Os between `queue` and `reap`, so neither queue can
//! overflow.
//!
//! Sleeping and waking use two 32-bit futex words:
//! - `submitted` counts commits. A worker with nothing to do counts itself in `idle`, reads
//!   the word, checks the queue once more and sleeps on the value it read; a commit pushes
//!   its requests, bumps the word and, if anyone is idle, wakes as many workers as it pushed.
//!   Either the worker sees the requests, or the bump happened after its read and the
//!   kernel's compare in `FUTEX_WAIT` sends it back, or it is asleep and the wake finds it.
//! - `completed` counts completions pushed. A reaper that must sleep stores the count it is
//!   waiting for in `wake_at` and sleeps on `completed`; the worker whose completion reaches
//!   that count clears `wake_at` and wakes it. Workers make no wake call while no one waits.
//!
//! Every atomic access in these two hand-offs is `SeqCst`, so the order of "announce, then
//! check" on one side and "publish, then look for sleepers" on the other is one total order.

use crate::sync::{ret, sync_file, sync_range, trim};
use crossbeam_queue::ArrayQueue;
use iomark_core::Ddir;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering::SeqCst};

/// `wake_at` when no reaper sleeps.
const NOBODY: u64 = u64::MAX;

/// How often a worker looks at an empty queue again before it goes to sleep.
const WORKER_SPINS: u32 = 32;

/// A unit's buffer address, carried from the job's thread to a worker.
#[derive(Debug, Clone, Copy)]
pub(crate) struct BufPtr(pub(crate) *mut u8);

// SAFETY: the pointer is only dereferenced (by the kernel, inside one `pread`/`pwrite`) by the
// one worker that took the request. The runner does not touch a unit between `queue` and the
// `reap` that returns it, and the buffer of a unit never moves (the `Engine` contract), so
// the worker has the buffer to itself for the whole system call.
unsafe impl Send for BufPtr {}

/// One I/O for a worker: a copy of what the unit asks for.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Request {
    /// The unit's index, returned with the result.
    pub(crate) index: u32,
    /// What to do.
    pub(crate) ddir: Ddir,
    /// The file.
    pub(crate) fd: libc::c_int,
    /// Where.
    pub(crate) offset: u64,
    /// How many bytes (for a read or write already capped to the buffer's length).
    pub(crate) len: usize,
    /// The flags of a `sync_file_range`.
    pub(crate) sync_flags: u32,
    /// The unit's buffer.
    pub(crate) buf: BufPtr,
}

/// A finished I/O: the unit's index and its result (bytes, or a negated errno).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Completion {
    pub(crate) index: u32,
    pub(crate) result: i64,
}

/// A function a worker calls with the unit's index right before each I/O system call.
pub type BeforeIo = Box<dyn Fn(u32) + Send + Sync>;

/// What the engine and its workers share.
pub(crate) struct Shared {
    /// Committed requests not yet taken by a worker.
    pub(crate) submissions: ArrayQueue<Request>,
    /// Finished requests not yet reaped.
    pub(crate) completions: ArrayQueue<Completion>,
    /// Futex word: bumped by every commit (and by shutdown).
    submitted: AtomicU32,
    /// Workers that found nothing to do and are asleep or about to be.
    pub(crate) idle: AtomicUsize,
    /// Futex word: completions pushed so far (wrapping).
    completed: AtomicU32,
    /// The value of `completed` the sleeping reaper waits for, or `NOBODY`.
    wake_at: AtomicU64,
    /// Set when the engine is dropped: workers drop what is left and exit.
    stop: AtomicBool,
    /// Called before each I/O (tests use it to hold workers inside a request).
    before_io: Option<BeforeIo>,
}

impl Shared {
    /// Room for `depth` requests in each direction.
    pub(crate) fn new(depth: usize, before_io: Option<BeforeIo>) -> Self {
        Shared {
            submissions: ArrayQueue::new(depth),
            completions: ArrayQueue::new(depth),
            submitted: AtomicU32::new(0),
            idle: AtomicUsize::new(0),
            completed: AtomicU32::new(0),
            wake_at: AtomicU64::new(NOBODY),
            stop: AtomicBool::new(false),
            before_io,
        }
    }

    /// After pushing `n` requests: announces them and wakes up to `n` sleeping workers.
    /// Returns how many workers were idle (asleep or about to be).
    pub(crate) fn announce(&self, n: usize) -> usize {
        self.submitted.fetch_add(1, SeqCst);
        let idle = self.idle.load(SeqCst);
        if idle > 0 {
            futex_wake(&self.submitted, n.min(idle));
        }
        idle
    }

    /// Tells every worker to exit and wakes them all.
    pub(crate) fn shut_down(&self) {
        self.stop.store(true, SeqCst);
        self.submitted.fetch_add(1, SeqCst);
        futex_wake(&self.submitted, i32::MAX as usize);
    }

    /// Sleeps until `completed` reaches `target` (a wrapping count), unless it already has.
    pub(crate) fn wait_for_completions(&self, target: u32) {
        self.wake_at.store(u64::from(target), SeqCst);
        loop {
            let now = self.completed.load(SeqCst);
            if reached(now, target) {
                break;
            }
            futex_wait(&self.completed, now);
        }
        self.wake_at.store(NOBODY, SeqCst);
    }

    /// Publishes one result and wakes the reaper if it waits for this one.
    fn complete(&self, done: Completion) {
        let mut done = done;
        // Cannot fail: at most `iodepth` requests are out, and each has one slot here. Should
        // it ever, waiting for the reaper to make room is still correct.
        while let Err(back) = self.completions.push(done) {
            done = back;
            std::hint::spin_loop();
        }
        let count = self.completed.fetch_add(1, SeqCst).wrapping_add(1);
        let target = self.wake_at.load(SeqCst);
        if target != NOBODY
            && reached(count, target as u32)
            && self.wake_at.compare_exchange(target, NOBODY, SeqCst, SeqCst).is_ok()
        {
            futex_wake(&self.completed, 1);
        }
    }
}

/// Whether the wrapping counter `now` has reached `target`.
fn reached(now: u32, target: u32) -> bool {
    (now.wrapping_sub(target) as i32) >= 0
}

/// A worker thread: takes requests, runs them, publishes the results; sleeps when there is
/// nothing to do; returns once the engine stops (dropping requests it has not started).
pub(crate) fn work(shared: &Shared) {
    loop {
        if let Some(request) = take(shared) {
            if shared.stop.load(SeqCst) {
                continue;
            }
            if let Some(hook) = &shared.before_io {
                hook(request.index);
            }
            let result = execute(&request);
            shared.complete(Completion { index: request.index, result });
            continue;
        }
        if shared.stop.load(SeqCst) {
            return;
        }
        shared.idle.fetch_add(1, SeqCst);
        let seen = shared.submitted.load(SeqCst);
        if shared.submissions.is_empty() && !shared.stop.load(SeqCst) {
            futex_wait(&shared.submitted, seen);
        }
        shared.idle.fetch_sub(1, SeqCst);
    }
}

/// The next request, looking a few times before giving up.
fn take(shared: &Shared) -> Option<Request> {
    for _ in 0..WORKER_SPINS {
        if let Some(request) = shared.submissions.pop() {
            return Some(request);
        }
        std::hint::spin_loop();
    }
    None
}

/// Runs one request with a blocking system call; the result is bytes or a negated errno.
fn execute(request: &Request) -> i64 {
    let Request { fd, offset, len, buf, .. } = *request;
    let off = offset as libc::off_t;
    match request.ddir {
        // SAFETY: `buf` points to at least `len` bytes of the unit's buffer, which nothing
        // else touches until this request is reaped (see `BufPtr`); the kernel checks `fd`.
        Ddir::Read => ret(unsafe { libc::pread(fd, buf.0.cast(), len, off) }),
        // SAFETY: as for the read; the kernel only reads the buffer.
        Ddir::Write => ret(unsafe { libc::pwrite(fd, buf.0.cast(), len, off) }),
        Ddir::Trim => trim(fd, offset, len as u64),
        Ddir::Sync => sync_file(fd, false),
        Ddir::Datasync => sync_file(fd, true),
        Ddir::SyncFileRange => sync_range(fd, offset, len as u64, request.sync_flags),
    }
}

/// Sleeps while `word` holds `expected` (or until woken; spurious returns are fine, every
/// caller checks again).
fn futex_wait(word: &AtomicU32, expected: u32) {
    // SAFETY: the address is a live, aligned 32-bit atomic that outlives the call; a null
    // timeout means no timeout. FUTEX_WAIT only reads the word and sleeps.
    unsafe {
        libc::syscall(
            libc::SYS_futex,
            word.as_ptr(),
            libc::FUTEX_WAIT | libc::FUTEX_PRIVATE_FLAG,
            expected,
            std::ptr::null::<libc::timespec>(),
        );
    }
}

/// Wakes up to `n` threads sleeping on `word`.
fn futex_wake(word: &AtomicU32, n: usize) {
    let n = n.min(i32::MAX as usize) as libc::c_int;
    // SAFETY: the address is a live, aligned 32-bit atomic; FUTEX_WAKE neither reads nor
    // writes it, it only wakes sleepers queued on that address.
    unsafe {
        libc::syscall(
            libc::SYS_futex,
            word.as_ptr(),
            libc::FUTEX_WAKE | libc::FUTEX_PRIVATE_FLAG,
            n,
        );
    }
}
