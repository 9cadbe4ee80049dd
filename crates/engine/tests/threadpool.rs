//! The threadpool engine (alias guasi): exact results, data round trips with psync, syncs,
//! trims, errors, non-blocking reaps, real concurrency, growth within its bounds, and a drop
//! that joins every worker even with I/O in flight.
//!
//! Concurrency is proven without timing: a hook every worker calls right before its system
//! call holds the workers at a gate until the test has seen how many are inside at once.

use iomark_core::Ddir;
use iomark_engine::threadpool::ThreadPoolEngine;
use iomark_engine::{create, Engine, EngineOptions, IoUnit, Queued};
use std::collections::HashSet;
use std::fs::File;
use std::os::fd::AsRawFd;
use std::os::unix::fs::FileExt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

const BLOCK: usize = 4096;

fn options(depth: u32, min: u32, max: u32) -> EngineOptions {
    EngineOptions { iodepth: depth, threads_min: min, threads_max: max, ..Default::default() }
}

fn unit(index: u32, fd: i32, ddir: Ddir, block: u64) -> IoUnit {
    let mut u = IoUnit::new(index, BLOCK, 4096).unwrap();
    u.fd = fd;
    u.ddir = ddir;
    u.offset = block * BLOCK as u64;
    u.len = BLOCK;
    u
}

/// The byte that fills block `block` of a test file.
fn pattern(block: u64) -> u8 {
    (block % 251) as u8 + 1
}

/// A file of `blocks` blocks, each filled with its pattern.
fn patterned_file(blocks: u64) -> File {
    let file = tempfile::tempfile().unwrap();
    for b in 0..blocks {
        file.write_all_at(&[pattern(b); BLOCK], b * BLOCK as u64).unwrap();
    }
    file
}

/// Queues every unit and commits once; returns what commit said.
fn queue_all(engine: &mut dyn Engine, units: &mut [IoUnit]) -> usize {
    for u in units.iter_mut() {
        assert_eq!(engine.queue(u), Queued::Queued);
    }
    engine.commit().unwrap()
}

/// Reaps exactly `n` completions (blocking); returns their indexes, each once.
fn reap_exactly(engine: &mut dyn Engine, units: &mut [IoUnit], n: usize) -> HashSet<u32> {
    let mut done = Vec::with_capacity(n);
    let got = engine.reap(units, n, n, &mut done).unwrap();
    assert_eq!(got, n);
    assert_eq!(done.len(), n);
    let set: HashSet<u32> = done.into_iter().collect();
    assert_eq!(set.len(), n, "an index came back twice");
    set
}

/// Holds workers inside the hook until opened; counts how many are inside at once.
#[derive(Default)]
struct Gate {
    state: Mutex<(usize, usize, bool)>, // (inside now, most inside at once, open)
    changed: Condvar,
}

impl Gate {
    fn enter(&self) {
        let mut s = self.state.lock().unwrap();
        s.0 += 1;
        s.1 = s.1.max(s.0);
        self.changed.notify_all();
        while !s.2 {
            s = self.changed.wait(s).unwrap();
        }
        s.0 -= 1;
    }

    /// Waits until `n` workers are inside; returns how many are. The deadline only keeps a
    /// broken engine from hanging the test: a correct one gets there regardless of speed.
    fn wait_inside(&self, n: usize) -> usize {
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut s = self.state.lock().unwrap();
        while s.0 < n && Instant::now() < deadline {
            s = self.changed.wait_timeout(s, Duration::from_millis(100)).unwrap().0;
        }
        s.0
    }

    fn most(&self) -> usize {
        self.state.lock().unwrap().1
    }

    fn open(&self) {
        self.state.lock().unwrap().2 = true;
        self.changed.notify_all();
    }
}

/// Opens the gate when dropped, so that a failed assertion does not leave workers held
/// (dropping the engine joins them). Declare it after the engine.
struct OpenOnDrop(Arc<Gate>);

impl Drop for OpenOnDrop {
    fn drop(&mut self) {
        self.0.open();
    }
}

fn gated(depth: u32, min: u32, max: u32) -> (ThreadPoolEngine, Arc<Gate>) {
    let gate = Arc::new(Gate::default());
    let hook = Arc::clone(&gate);
    let engine =
        ThreadPoolEngine::with_hook("threadpool", &options(depth, min, max), move |_| hook.enter())
            .unwrap();
    (engine, gate)
}

#[test]
fn writes_at_depth_8_complete_exactly_once_with_exact_results() {
    const WRITES: u64 = 40;
    let file = tempfile::tempfile().unwrap();
    let fd = file.as_raw_fd();
    let mut engine = create("threadpool", &options(8, 8, 8)).unwrap();
    assert_eq!(engine.name(), "threadpool");
    assert!(!engine.is_sync());
    let mut units: Vec<IoUnit> = (0..8).map(|i| unit(i, fd, Ddir::Write, 0)).collect();
    let mut next = 0u64;
    let mut completed = 0u64;
    let mut free: Vec<u32> = (0..8).collect();
    let mut done = Vec::with_capacity(8);
    while completed < WRITES {
        let mut queued = 0;
        while next < WRITES {
            let Some(i) = free.pop() else { break };
            let u = &mut units[i as usize];
            u.offset = next * BLOCK as u64;
            u.buf.as_mut_slice().fill(pattern(next));
            assert_eq!(engine.queue(u), Queued::Queued);
            next += 1;
            queued += 1;
        }
        assert_eq!(engine.commit().unwrap(), queued);
        assert_eq!(engine.commit().unwrap(), 0, "a second commit has nothing to submit");
        done.clear();
        let got = engine.reap(&mut units, 1, 8, &mut done).unwrap();
        assert!(got >= 1 && got == done.len());
        for &i in &done {
            assert_eq!(units[i as usize].result, BLOCK as i64);
            assert!(!free.contains(&i), "unit {i} reaped while free");
            free.push(i);
        }
        completed += got as u64;
    }
    assert_eq!(completed, WRITES);
    done.clear();
    assert_eq!(engine.reap(&mut units, 0, 8, &mut done).unwrap(), 0);
    assert_eq!(file.metadata().unwrap().len(), WRITES * BLOCK as u64);
    let mut block = [0u8; BLOCK];
    for b in 0..WRITES {
        file.read_exact_at(&mut block, b * BLOCK as u64).unwrap();
        assert!(block.iter().all(|&x| x == pattern(b)), "block {b}");
    }
}

#[test]
fn a_commit_submits_everything_queued_since_the_last() {
    let file = patterned_file(8);
    let mut engine = create("guasi", &options(8, 2, 8)).unwrap();
    assert_eq!(engine.name(), "guasi");
    let mut units: Vec<IoUnit> =
        (0..8).map(|i| unit(i, file.as_raw_fd(), Ddir::Read, i as u64)).collect();
    assert_eq!(queue_all(engine.as_mut(), &mut units), 8);
    let mut extra = unit(8, file.as_raw_fd(), Ddir::Read, 0);
    assert_eq!(engine.queue(&mut extra), Queued::Busy, "depth 8 holds 8");
    reap_exactly(engine.as_mut(), &mut units, 8);
    for (b, u) in units.iter().enumerate() {
        assert_eq!(u.result, BLOCK as i64);
        assert!(u.buf.as_slice().iter().all(|&x| x == pattern(b as u64)), "block {b}");
    }
}

#[test]
fn data_round_trips_with_psync() {
    let file = tempfile::tempfile().unwrap();
    let fd = file.as_raw_fd();
    let mut pool = create("threadpool", &options(4, 1, 4)).unwrap();
    let mut psync = create("psync", &EngineOptions::default()).unwrap();
    // The pool writes blocks 0..4, psync writes 4..8.
    let mut units: Vec<IoUnit> = (0..4).map(|i| unit(i, fd, Ddir::Write, i as u64)).collect();
    for (b, u) in units.iter_mut().enumerate() {
        u.buf.as_mut_slice().fill(pattern(b as u64));
    }
    assert_eq!(queue_all(pool.as_mut(), &mut units), 4);
    reap_exactly(pool.as_mut(), &mut units, 4);
    assert!(units.iter().all(|u| u.result == BLOCK as i64));
    for b in 4..8 {
        let mut w = unit(0, fd, Ddir::Write, b);
        w.buf.as_mut_slice().fill(pattern(b));
        assert_eq!(psync.queue(&mut w), Queued::Completed);
        assert_eq!(w.result, BLOCK as i64);
    }
    // psync reads what the pool wrote, the pool reads what psync wrote.
    for b in 0..4 {
        let mut r = unit(0, fd, Ddir::Read, b);
        assert_eq!(psync.queue(&mut r), Queued::Completed);
        assert_eq!(r.result, BLOCK as i64);
        assert!(r.buf.as_slice().iter().all(|&x| x == pattern(b)), "block {b}");
    }
    let mut units: Vec<IoUnit> = (0..4).map(|i| unit(i, fd, Ddir::Read, 4 + i as u64)).collect();
    assert_eq!(queue_all(pool.as_mut(), &mut units), 4);
    reap_exactly(pool.as_mut(), &mut units, 4);
    for (i, u) in units.iter().enumerate() {
        assert_eq!(u.result, BLOCK as i64);
        assert!(u.buf.as_slice().iter().all(|&x| x == pattern(4 + i as u64)), "block {i}");
    }
}

#[test]
fn fsync_fdatasync_and_trim_run_on_the_workers() {
    let file = patterned_file(2);
    let fd = file.as_raw_fd();
    let mut engine = create("threadpool", &options(2, 2, 2)).unwrap();
    let mut units = vec![unit(0, fd, Ddir::Sync, 0), unit(1, fd, Ddir::Datasync, 0)];
    assert_eq!(queue_all(engine.as_mut(), &mut units), 2);
    reap_exactly(engine.as_mut(), &mut units, 2);
    assert_eq!((units[0].result, units[1].result), (0, 0));

    let mut trim = vec![unit(0, fd, Ddir::Trim, 1)];
    assert_eq!(queue_all(engine.as_mut(), &mut trim), 1);
    reap_exactly(engine.as_mut(), &mut trim, 1);
    if trim[0].result == -i64::from(libc::EOPNOTSUPP) {
        eprintln!("skipped: this file system cannot punch holes");
        return;
    }
    assert_eq!(trim[0].result, BLOCK as i64);
    let mut block = [0xffu8; BLOCK];
    file.read_exact_at(&mut block, BLOCK as u64).unwrap();
    assert!(block.iter().all(|&x| x == 0), "the trimmed block reads as zeros");
    file.read_exact_at(&mut block, 0).unwrap();
    assert!(block.iter().all(|&x| x == pattern(0)), "the block before it is intact");
}

#[test]
fn errors_come_back_as_negated_errno() {
    let mut engine = create("threadpool", &options(4, 1, 4)).unwrap();
    let mut units: Vec<IoUnit> = [Ddir::Read, Ddir::Write, Ddir::Sync, Ddir::Trim]
        .into_iter()
        .enumerate()
        .map(|(i, d)| unit(i as u32, -1, d, 0))
        .collect();
    assert_eq!(queue_all(engine.as_mut(), &mut units), 4);
    reap_exactly(engine.as_mut(), &mut units, 4);
    for u in &units {
        assert_eq!(u.result, -i64::from(libc::EBADF), "{:?}", u.ddir);
    }
    // A read past the end is short, not an error.
    let file = tempfile::tempfile().unwrap();
    file.set_len(100).unwrap();
    let mut short = vec![unit(0, file.as_raw_fd(), Ddir::Read, 0)];
    queue_all(engine.as_mut(), &mut short);
    reap_exactly(engine.as_mut(), &mut short, 1);
    assert_eq!(short[0].result, 100);
}

#[test]
fn reap_with_min_0_does_not_block() {
    let file = patterned_file(1);
    let mut units = vec![unit(0, file.as_raw_fd(), Ddir::Read, 0)];
    let (mut engine, gate) = gated(1, 1, 1);
    let _open = OpenOnDrop(Arc::clone(&gate));
    let mut done = Vec::with_capacity(1);
    assert_eq!(engine.reap(&mut units, 0, 1, &mut done).unwrap(), 0, "nothing in flight");
    assert_eq!(queue_all(&mut engine, &mut units), 1);
    assert_eq!(gate.wait_inside(1), 1);
    // The worker is held inside the request: a reap with min 0 must come back empty.
    assert_eq!(engine.reap(&mut units, 0, 1, &mut done).unwrap(), 0);
    assert!(done.is_empty());
    gate.open();
    assert_eq!(engine.reap(&mut units, 1, 1, &mut done).unwrap(), 1);
    assert_eq!(done, [0]);
    assert_eq!(units[0].result, BLOCK as i64);
}

#[test]
fn at_depth_64_all_64_requests_are_in_flight_at_once() {
    let file = patterned_file(64);
    let fd = file.as_raw_fd();
    let mut units: Vec<IoUnit> = (0..64).map(|i| unit(i, fd, Ddir::Read, i as u64)).collect();
    let (mut engine, gate) = gated(64, 64, 64);
    let _open = OpenOnDrop(Arc::clone(&gate));
    assert_eq!(engine.workers(), 64);
    // As the runner does: commit after every queue.
    for u in units.iter_mut() {
        assert_eq!(engine.queue(u), Queued::Queued);
        assert_eq!(engine.commit().unwrap(), 1);
    }
    let inside = gate.wait_inside(64);
    assert_eq!(inside, 64, "only {inside} of 64 requests were in flight at once");
    gate.open();
    reap_exactly(&mut engine, &mut units, 64);
    for (b, u) in units.iter().enumerate() {
        assert_eq!(u.result, BLOCK as i64);
        assert!(u.buf.as_slice().iter().all(|&x| x == pattern(b as u64)), "block {b}");
    }
    assert_eq!(gate.most(), 64);
}

#[test]
fn the_pool_grows_from_min_to_max_and_never_beyond() {
    let file = patterned_file(8);
    let fd = file.as_raw_fd();
    let mut units: Vec<IoUnit> = (0..8).map(|i| unit(i, fd, Ddir::Read, i as u64)).collect();
    let (mut engine, gate) = gated(8, 1, 4);
    let _open = OpenOnDrop(Arc::clone(&gate));
    assert_eq!(engine.workers(), 1, "threads_min workers start with the engine");
    assert!(engine.notes().is_empty());
    for u in units.iter_mut() {
        assert_eq!(engine.queue(u), Queued::Queued);
        assert_eq!(engine.commit().unwrap(), 1);
        assert!(engine.workers() <= 4);
    }
    // Every worker is held inside a request: the pool had to grow to 4 to get 4 in.
    assert_eq!(gate.wait_inside(4), 4);
    assert_eq!(engine.workers(), 4);
    gate.open();
    reap_exactly(&mut engine, &mut units, 8);
    for _ in 0..5 {
        assert_eq!(queue_all(&mut engine, &mut units), 8);
        reap_exactly(&mut engine, &mut units, 8);
        assert_eq!(engine.workers(), 4);
    }
    assert!(units.iter().all(|u| u.result == BLOCK as i64));
    assert_eq!(gate.most(), 4, "never more than threads_max requests at once");
    let notes = engine.notes();
    assert_eq!(notes.len(), 1);
    assert!(notes[0].contains("from 1 to 4"), "{notes:?}");
}

#[test]
fn dropping_the_engine_with_io_in_flight_joins_every_worker() {
    let file = tempfile::tempfile().unwrap();
    let fd = file.as_raw_fd();
    let mut units: Vec<IoUnit> = (0..64).map(|i| unit(i, fd, Ddir::Write, i as u64)).collect();
    // Every worker holds a clone of `token` (through the hook) until it has exited.
    let token = Arc::new(());
    let held = Arc::clone(&token);
    let mut engine = ThreadPoolEngine::with_hook("threadpool", &options(64, 8, 64), move |_| {
        let _ = &held;
    })
    .unwrap();
    assert_eq!(queue_all(&mut engine, &mut units[..32]), 32);
    for u in units[32..].iter_mut() {
        assert_eq!(engine.queue(u), Queued::Queued); // queued, never committed
    }
    drop(engine);
    assert_eq!(Arc::strong_count(&token), 1, "a worker outlived the engine");
}

#[test]
fn dropping_the_engine_waits_for_requests_inside_a_system_call() {
    let file = tempfile::tempfile().unwrap();
    let fd = file.as_raw_fd();
    let mut units: Vec<IoUnit> = (0..8).map(|i| unit(i, fd, Ddir::Write, i as u64)).collect();
    let gate = Arc::new(Gate::default());
    let hook = Arc::clone(&gate);
    let token = Arc::new(());
    let held = Arc::clone(&token);
    let mut engine = ThreadPoolEngine::with_hook("guasi", &options(8, 4, 4), move |_| {
        let _ = &held;
        hook.enter();
    })
    .unwrap();
    let _open = OpenOnDrop(Arc::clone(&gate));
    assert_eq!(queue_all(&mut engine, &mut units), 8);
    assert_eq!(gate.wait_inside(4), 4);
    let dropped = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&dropped);
    let dropper = std::thread::spawn(move || {
        drop(engine);
        flag.store(true, Ordering::SeqCst);
    });
    // Four workers are held inside requests: the drop cannot have finished.
    assert!(!dropped.load(Ordering::SeqCst), "drop returned with workers inside requests");
    gate.open();
    dropper.join().unwrap();
    assert!(dropped.load(Ordering::SeqCst));
    assert_eq!(Arc::strong_count(&token), 1, "a worker outlived the engine");
    assert!(gate.most() <= 4);
}
