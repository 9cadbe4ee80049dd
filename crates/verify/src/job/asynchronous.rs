//! `verify_async=N`: the blocks that verify reads bring back are checked on N helper
//! threads instead of the job's thread (fio's option; the helpers are threads of the job,
//! and their CPU time is the job's, as in fio).
//!
//! The hand-over costs the job's thread a copy and no allocation or lock. When the job
//! starts, `iodepth + N` spare buffers of the largest block size are allocated; a
//! completed verify read is copied into a spare one, which goes with the write it checks
//! through a bounded lock-free queue (`crossbeam_queue::ArrayQueue`, preallocated) to the
//! helpers, and comes back through another once checked. There are never more blocks in
//! flight than spare buffers, so neither queue can overflow. When every spare buffer is
//! out (the helpers are slower than the storage), the job's thread waits for one.
//!
//! Sleeping and waking: a helper that finds no block spins briefly, then says it is
//! asleep, looks at the queue once more and parks; the job's thread, after pushing a
//! block, wakes one sleeping helper (a futex call only when one sleeps). The job's thread
//! sleeps the same way while it waits for a spare buffer or for the helpers to finish,
//! and a helper that finishes a block wakes it. Each side publishes (its block, or its
//! sleep) before a `SeqCst` fence and looks at the other's afterwards, so either the
//! sleeper sees the work or the waker sees the sleeper.
//!
//! Results are those of checking on the job's thread. Each block handed over is numbered
//! in the order its read completed (the order the job's thread would have checked it).
//! As there, the first bad block ends the job unless `continue_on_error` allows more: a
//! helper that finds one records its number, helpers skip the blocks numbered after it,
//! and the job's thread stops at its next completion (a write, or a verify read). A
//! helper may still be checking an earlier block then; [`Helpers::settle`] waits for all,
//! and the bad block with the lowest number is the one reported (the one the job's thread
//! would have found first), with `verify_dump`'s files written then. With
//! `continue_on_error` every bad block is reported, in that same order, when the job
//! waits for its helpers (at the end of the write phase and of the verify phase), so the
//! text and the counts are the same whichever helper checked what.

use super::check::{bad_report, check_block, Bad};
use super::written::Written;
use crate::plan::VerifyPlan;
use crossbeam_queue::ArrayQueue;
use std::sync::atomic::{fence, AtomicBool, AtomicU64, Ordering::SeqCst};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::thread::{JoinHandle, Thread};

/// How many times a thread looks for work again before it goes to sleep.
const SPINS: u32 = 64;

/// Stack size of a helper: checks and, rarely, a failure's report.
const HELPER_STACK: usize = 1 << 20;

/// `first_bad` while no bad block that ends the job was found.
const NONE: u64 = u64::MAX;

/// What the `verify_async` helper threads need of the system, given by the runner (this
/// crate knows no engine): pinning the threads to `verify_async_cpus`, and counting their
/// CPU time as the job's, as fio does.
pub trait HelperHost: Send + Sync {
    /// Runs `spawn` with the calling thread's CPU affinity set to `cpus` (the threads it
    /// starts inherit it), then puts the affinity back.
    fn pinned(&self, cpus: &[u32], spawn: &mut dyn FnMut()) -> std::io::Result<()>;

    /// Called on each helper thread as it ends, so that its CPU time counts as the job's.
    fn helper_ends(&self);
}

/// A block handed to the helpers.
struct Task {
    /// Its number, in the order the job's thread completed the reads.
    seq: u64,
    /// The write it checks.
    w: Written,
    /// The block as read.
    buf: Vec<u8>,
}

/// A thread that sleeps until another wakes it.
struct Sleeper {
    /// Set by the thread itself before it first sleeps.
    thread: OnceLock<Thread>,
    asleep: AtomicBool,
}

impl Sleeper {
    fn new() -> Sleeper {
        Sleeper { thread: OnceLock::new(), asleep: AtomicBool::new(false) }
    }

    /// Called by the sleeper: sleeps until woken, unless `ready` holds once it has said so.
    fn sleep_unless(&self, ready: impl Fn() -> bool) {
        self.thread.get_or_init(std::thread::current);
        self.asleep.store(true, SeqCst);
        fence(SeqCst);
        if ready() {
            self.asleep.store(false, SeqCst);
            return;
        }
        while self.asleep.load(SeqCst) {
            std::thread::park();
        }
    }

    /// Wakes the thread if it sleeps (after the caller's `SeqCst` fence); whether it did.
    #[inline]
    fn wake(&self) -> bool {
        if !self.asleep.load(SeqCst)
            || self.asleep.compare_exchange(true, false, SeqCst, SeqCst).is_err()
        {
            return false;
        }
        if let Some(t) = self.thread.get() {
            t.unpark();
        }
        true
    }
}

/// What the helpers found wrong.
#[derive(Default)]
struct Found {
    /// With `continue_on_error`: every bad block's report, with its number.
    reports: Vec<(u64, String)>,
    /// Otherwise: the bad block with the lowest number (number, write, block, what is
    /// wrong), reported when the job waits for its helpers.
    first: Option<(u64, Written, Vec<u8>, Bad)>,
}

/// What the job's thread and its helpers share.
struct Shared {
    plan: VerifyPlan,
    /// The writes' seed, when the header's is checked.
    seed: Option<u64>,
    /// Spare buffers not in use.
    spare: ArrayQueue<Vec<u8>>,
    /// Blocks waiting for a helper.
    work: ArrayQueue<Task>,
    helpers: Vec<Sleeper>,
    job: Sleeper,
    /// Set when the job ends: helpers finish the queue and exit.
    stop: AtomicBool,
    /// Blocks the helpers are done with (checked or skipped).
    finished: AtomicU64,
    /// Blocks checked.
    verified: AtomicU64,
    /// The number of the first bad block found that ends the job, or `NONE`.
    first_bad: AtomicU64,
    found: Mutex<Found>,
}

impl Shared {
    /// A helper's life: check blocks until the job ends.
    fn work(&self, me: usize) {
        let sleeper = &self.helpers[me];
        loop {
            if let Some(task) = self.work.pop() {
                self.check(task);
                continue;
            }
            if (0..SPINS).any(|_| {
                std::hint::spin_loop();
                !self.work.is_empty()
            }) {
                continue;
            }
            if self.stop.load(SeqCst) && self.work.is_empty() {
                return;
            }
            sleeper.sleep_unless(|| !self.work.is_empty() || self.stop.load(SeqCst));
        }
    }

    /// Checks one block (unless a bad block before it already ended the job), gives its
    /// buffer back and wakes the job's thread if it waits.
    fn check(&self, task: Task) {
        let Task { seq, w, mut buf } = task;
        if seq < self.first_bad.load(SeqCst) {
            self.verified.fetch_add(1, SeqCst);
            if let Err(bad) = check_block(&self.plan, self.seed, &w, &mut buf) {
                self.failed(seq, w, &buf, bad);
            }
        }
        // Cannot fail: there is a slot for every spare buffer.
        let _ = self.spare.push(buf);
        self.finished.fetch_add(1, SeqCst);
        fence(SeqCst);
        self.job.wake();
    }

    /// The uncommon path: block `seq` is bad.
    #[cold]
    fn failed(&self, seq: u64, w: Written, buf: &[u8], bad: Bad) {
        if self.plan.continue_on_error {
            let name = &self.plan.job.file_names[w.file as usize];
            let text = bad_report(&self.plan, self.seed, name, &w, buf, bad);
            self.found.lock().unwrap_or_else(PoisonError::into_inner).reports.push((seq, text));
            return;
        }
        self.first_bad.fetch_min(seq, SeqCst);
        let mut found = self.found.lock().unwrap_or_else(PoisonError::into_inner);
        if found.first.as_ref().is_none_or(|f| seq < f.0) {
            found.first = Some((seq, w, buf.to_vec(), bad));
        }
    }
}

/// What the helpers found since the job last waited for them.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct Settled {
    /// Blocks checked.
    pub(super) verified: u64,
    /// Bad blocks.
    pub(super) failures: u64,
    /// Their reports, in the order the blocks were read.
    pub(super) report: String,
}

/// The helper threads of one job, seen from the job's thread.
pub(super) struct Helpers {
    shared: Arc<Shared>,
    threads: Vec<JoinHandle<()>>,
    /// Blocks handed over so far (the next one's number).
    handed: u64,
    /// Blocks checked, as counted at the last wait.
    verified: u64,
}

impl Helpers {
    /// Starts `plan.async_threads` helpers on `plan.async_cpus` through `host`, with room
    /// for the job's depth in reads plus one per helper, of its largest block each. `seed`
    /// is the writes' seed when headers carry it.
    pub(super) fn start(
        plan: &VerifyPlan,
        seed: Option<u64>,
        host: Arc<dyn HelperHost>,
    ) -> Result<Helpers, String> {
        let n = plan.async_threads as usize;
        let spares = plan.job.depth as usize + n;
        let spare = ArrayQueue::new(spares);
        for _ in 0..spares {
            let _ = spare.push(Vec::with_capacity(plan.job.max_bs as usize));
        }
        let shared = Arc::new(Shared {
            plan: plan.clone(),
            seed,
            spare,
            work: ArrayQueue::new(spares),
            helpers: (0..n).map(|_| Sleeper::new()).collect(),
            job: Sleeper::new(),
            stop: AtomicBool::new(false),
            finished: AtomicU64::new(0),
            verified: AtomicU64::new(0),
            first_bad: AtomicU64::new(NONE),
            found: Mutex::new(Found::default()),
        });
        let mut helpers =
            Helpers { shared, threads: Vec::with_capacity(n), handed: 0, verified: 0 };
        let shared = Arc::clone(&helpers.shared);
        // Dropping `helpers` on an error stops those already started.
        spawn_on(n, plan.async_cpus.as_deref(), host, &mut helpers.threads, move |me| {
            shared.work(me)
        })?;
        Ok(helpers)
    }

    /// Whether a helper found a bad block that ends the job (its report comes with
    /// [`Helpers::settle`]).
    #[inline]
    pub(super) fn ended(&self) -> bool {
        self.shared.first_bad.load(SeqCst) != NONE
    }

    /// Hands over `block`, read back for write `w`, to be checked; `false` (and nothing
    /// handed over) when a bad block already ended the job. Allocates nothing.
    #[inline]
    pub(super) fn hand_over(&mut self, w: Written, block: &[u8]) -> bool {
        if self.ended() {
            return false;
        }
        let mut buf = match self.shared.spare.pop() {
            Some(buf) => buf,
            None => self.wait_for_spare(),
        };
        buf.clear();
        buf.extend_from_slice(block);
        let task = Task { seq: self.handed, w, buf };
        self.handed += 1;
        if let Err(task) = self.shared.work.push(task) {
            // Cannot happen (a slot for every spare buffer); checking here is still right.
            self.shared.check(task);
            return true;
        }
        fence(SeqCst);
        for h in &self.shared.helpers {
            if h.wake() {
                break;
            }
        }
        true
    }

    /// Every spare buffer is out: waits for a helper to give one back.
    #[cold]
    fn wait_for_spare(&self) -> Vec<u8> {
        let shared = &self.shared;
        loop {
            if let Some(buf) = shared.spare.pop() {
                return buf;
            }
            shared.job.sleep_unless(|| !shared.spare.is_empty());
        }
    }

    /// Waits until the helpers have checked every block handed over, and takes what they
    /// found since the last wait.
    pub(super) fn settle(&mut self) -> Settled {
        let shared = Arc::clone(&self.shared);
        let handed = self.handed;
        let all_done = || shared.finished.load(SeqCst) == handed;
        while !all_done() {
            if !(0..SPINS).any(|_| {
                std::hint::spin_loop();
                all_done()
            }) {
                shared.job.sleep_unless(all_done);
            }
        }
        let verified = shared.verified.load(SeqCst);
        let mut settled = Settled { verified: verified - self.verified, ..Settled::default() };
        self.verified = verified;
        let mut found = shared.found.lock().unwrap_or_else(PoisonError::into_inner);
        let mut reports = std::mem::take(&mut found.reports);
        reports.sort_unstable_by_key(|r| r.0);
        settled.failures = reports.len() as u64;
        settled.report = reports.into_iter().map(|r| r.1).collect();
        if let Some((_, w, buf, bad)) = found.first.take() {
            let name = &shared.plan.job.file_names[w.file as usize];
            settled.report = bad_report(&shared.plan, shared.seed, name, &w, &buf, bad);
            settled.failures = 1;
        }
        settled
    }

    /// Stops the helpers, once the blocks handed over are checked.
    pub(super) fn finish(&mut self) {
        self.shared.stop.store(true, SeqCst);
        fence(SeqCst);
        for h in &self.shared.helpers {
            h.wake();
        }
        for t in self.threads.drain(..) {
            // A helper that panicked has nothing more to give back.
            let _ = t.join();
        }
    }
}

impl Drop for Helpers {
    fn drop(&mut self) {
        self.finish();
    }
}

/// Starts `n` threads running `body` (with the thread's index) on `cpus`, if given, into
/// `threads`; each tells `host` when it ends. The affinity is set on the calling thread for
/// the time of the spawns (see [`HelperHost::pinned`]), which the new threads inherit.
fn spawn_on(
    n: usize,
    cpus: Option<&[u32]>,
    host: Arc<dyn HelperHost>,
    threads: &mut Vec<JoinHandle<()>>,
    body: impl Fn(usize) + Send + Sync + 'static,
) -> Result<(), String> {
    let body = Arc::new(body);
    let mut result = Ok(());
    let mut spawn_all = || {
        for me in 0..n {
            let (body, host) = (Arc::clone(&body), Arc::clone(&host));
            let spawned = std::thread::Builder::new()
                .name("iomark-verify".into())
                .stack_size(HELPER_STACK)
                .spawn(move || {
                    body(me);
                    host.helper_ends();
                });
            match spawned {
                Ok(t) => threads.push(t),
                Err(e) => {
                    result =
                        Err(format!("option 'verify_async': cannot start a helper thread: {e}"));
                    break;
                }
            }
        }
    };
    match cpus {
        Some(cpus) => host
            .pinned(cpus, &mut spawn_all)
            .map_err(|e| format!("option 'verify_async_cpus': {e}"))?,
        None => spawn_all(),
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::block::{Method, Stamp, VerifyFormat};
    use std::sync::atomic::AtomicUsize;

    const BS: usize = 4096;

    fn plan(continue_on_error: bool, threads: u32) -> VerifyPlan {
        VerifyPlan {
            format: VerifyFormat {
                method: Method::Crc32c,
                interval: 0,
                header_offset: 0,
                pattern: None,
            },
            do_verify: true,
            verify_only: false,
            fatal: false,
            dump: false,
            backlog: 0,
            backlog_batch: 0,
            write_sequence: true,
            state_save: false,
            state_load: false,
            continue_on_error,
            async_threads: threads,
            async_cpus: None,
            reads_only: false,
            trim: None,
            job: crate::plan::VerifyJob {
                file_names: vec!["f".into()],
                max_bs: BS as u64,
                ..Default::default()
            },
        }
    }

    /// A host that pins nothing and counts what it is told (`fail`: pinning fails).
    #[derive(Default)]
    struct Counting {
        pinned: Mutex<Vec<Vec<u32>>>,
        ended: AtomicUsize,
        fail: bool,
    }

    impl HelperHost for Counting {
        fn pinned(&self, cpus: &[u32], spawn: &mut dyn FnMut()) -> std::io::Result<()> {
            if self.fail {
                return Err(std::io::Error::other("no such CPU"));
            }
            self.pinned.lock().unwrap().push(cpus.to_vec());
            spawn();
            Ok(())
        }

        fn helper_ends(&self) {
            self.ended.fetch_add(1, SeqCst);
        }
    }

    /// Hands over `n` blocks (block i written at offset i × BS by write i), those of `bad`
    /// with a flipped bit, through helpers with room for `depth` reads, and settles.
    fn run(p: &VerifyPlan, depth: u32, n: u64, bad: &[u64]) -> (Settled, bool) {
        let p = &VerifyPlan { job: crate::plan::VerifyJob { depth, ..p.job.clone() }, ..p.clone() };
        let mut h = Helpers::start(p, Some(7), Arc::new(Counting::default())).expect("start");
        let mut ended = false;
        let mut buf = vec![0u8; BS];
        for i in 0..n {
            let w = super::super::written::tests::w(i * BS as u64, BS as u32, i);
            buf.fill(i as u8);
            p.format.stamp(&mut buf, w.offset, &Stamp { seed: 7, thread: 1, numberio: i });
            if bad.contains(&i) {
                buf[BS - 1] ^= 1;
            }
            if !h.hand_over(w, &buf) {
                ended = true;
                break;
            }
        }
        let settled = h.settle();
        h.finish();
        (settled, ended)
    }

    fn offsets(report: &str) -> Vec<u64> {
        report
            .lines()
            .filter_map(|l| l.split(" offset ").nth(1)?.split(',').next()?.parse().ok())
            .collect()
    }

    #[test]
    fn every_block_is_checked_and_every_bad_one_reported_in_read_order() {
        for threads in [1, 2, 5] {
            for depth in [1, 8] {
                let (s, ended) = run(&plan(true, threads), depth, 300, &[250, 17, 120]);
                assert!(!ended);
                assert_eq!((s.verified, s.failures), (300, 3), "{threads} helpers, depth {depth}");
                assert_eq!(offsets(&s.report), vec![17 * 4096, 120 * 4096, 250 * 4096]);
            }
        }
    }

    #[test]
    fn without_continue_on_error_the_first_bad_block_read_is_the_one_reported() {
        for _ in 0..20 {
            let (s, _) = run(&plan(false, 4), 8, 400, &[390, 200, 201, 202]);
            assert_eq!(s.failures, 1);
            assert_eq!(offsets(&s.report), vec![200 * 4096]);
            // Every block before it was checked; after it, only those in flight.
            assert!(s.verified >= 201, "{}", s.verified);
        }
    }

    #[test]
    fn a_clean_run_reports_nothing() {
        let (s, ended) = run(&plan(false, 2), 4, 100, &[]);
        assert_eq!(s, Settled { verified: 100, failures: 0, report: String::new() });
        assert!(!ended);
    }

    #[test]
    fn helpers_start_pinned_through_the_host_and_tell_it_when_they_end() {
        let host = Arc::new(Counting::default());
        let mut threads = Vec::new();
        let dyn_host: Arc<dyn HelperHost> = host.clone();
        spawn_on(2, Some(&[3]), dyn_host, &mut threads, |_| {}).expect("spawn");
        for t in threads {
            t.join().expect("join");
        }
        assert_eq!(*host.pinned.lock().unwrap(), vec![vec![3]]);
        assert_eq!(host.ended.load(SeqCst), 2);
    }

    #[test]
    fn a_host_that_cannot_pin_is_an_error_naming_the_option() {
        let mut threads = Vec::new();
        let host = Arc::new(Counting { fail: true, ..Counting::default() });
        let err = spawn_on(1, Some(&[4000]), host, &mut threads, |_| {}).unwrap_err();
        assert!(err.starts_with("option 'verify_async_cpus': "), "{err}");
        assert!(threads.is_empty());
    }
}
