//! The io_uring engine against real files and pipes: exact byte counts, data read back byte
//! for byte (also across engines), every option that changes how requests are made, errors
//! as negated errno, and completions that arrive out of order. Every test skips, saying why,
//! when the kernel cannot set up a ring.

use iomark_core::Ddir;
use iomark_engine::{create, AlignedBuf, Engine, EngineOptions, IoUnit, Queued};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::os::fd::{AsRawFd, FromRawFd, RawFd};
use std::os::unix::fs::{FileExt, OpenOptionsExt};
use std::sync::mpsc;
use std::time::Duration;

const BLOCK: usize = 4096;

fn options(iodepth: u32) -> EngineOptions {
    EngineOptions { iodepth, ..EngineOptions::default() }
}

/// The engine, or `None` (with a message) when this kernel or sandbox has no io_uring.
fn engine(opts: &EngineOptions) -> Option<Box<dyn Engine>> {
    match create("io_uring", opts) {
        Ok(e) => Some(e),
        Err(e) => {
            eprintln!("skipped: io_uring_setup failed: {e}");
            None
        }
    }
}

fn units(n: u32) -> Vec<IoUnit> {
    (0..n).map(|i| IoUnit::new(i, BLOCK, 4096).unwrap()).collect()
}

fn aim(u: &mut IoUnit, ddir: Ddir, file: u32, fd: RawFd, offset: u64, len: usize) {
    u.ddir = ddir;
    u.file = file;
    u.fd = fd;
    u.offset = offset;
    u.len = len;
    u.result = i64::MIN;
}

/// Queues every unit, commits once, reaps until all are back; returns the indexes in the
/// order they completed.
fn run_all(e: &mut dyn Engine, us: &mut [IoUnit]) -> Vec<u32> {
    let n = us.len();
    run_some(e, us, 0..n)
}

/// Queues the units `which` of the pool `us`, commits once and reaps until they are all
/// back (`reap` gets the whole pool, as the runner passes it); returns the indexes in the
/// order they completed.
fn run_some(e: &mut dyn Engine, us: &mut [IoUnit], which: std::ops::Range<usize>) -> Vec<u32> {
    let n = which.len();
    for u in &mut us[which] {
        assert_eq!(e.queue(u), Queued::Queued);
    }
    assert_eq!(e.commit().unwrap(), n);
    let mut order = Vec::new();
    let mut done = Vec::with_capacity(n);
    while order.len() < n {
        done.clear();
        let got = e.reap(us, n - order.len(), n - order.len(), &mut done).unwrap();
        assert_eq!(got, done.len());
        order.extend_from_slice(&done);
    }
    order
}

/// The byte of block `i` written by writer `w`.
fn pattern(w: u8, i: usize) -> u8 {
    w.wrapping_mul(31).wrapping_add(i as u8) | 1
}

/// Writes `n` blocks with the engine and options, reads them back through it, and checks
/// every count and byte; returns false when the options cannot be set up here.
fn roundtrip(opts: &EngineOptions, file: &File, n: u32) -> bool {
    let Some(mut e) = engine(opts) else { return false };
    let fd = file.as_raw_fd();
    let mut us = units(n);
    if let Err(err) = e.setup(&mut us, &[fd]) {
        eprintln!("skipped: setup failed: {err}");
        return false;
    }
    for (i, u) in us.iter_mut().enumerate() {
        aim(u, Ddir::Write, 0, fd, (i * BLOCK) as u64, BLOCK);
        u.buf.as_mut_slice().fill(pattern(7, i));
    }
    let mut order = run_all(e.as_mut(), &mut us);
    order.sort_unstable();
    assert_eq!(order, (0..n).collect::<Vec<_>>());
    assert!(us.iter().all(|u| u.result == BLOCK as i64), "a write was short or failed");
    // Aligned, so that pread works on an O_DIRECT file too.
    let mut check = AlignedBuf::new(BLOCK, 4096).unwrap();
    for i in 0..n as usize {
        file.read_exact_at(check.as_mut_slice(), (i * BLOCK) as u64).unwrap();
        assert!(check.as_slice().iter().all(|&b| b == pattern(7, i)), "block {i} by pread");
    }
    for (i, u) in us.iter_mut().enumerate() {
        aim(u, Ddir::Read, 0, fd, (i * BLOCK) as u64, BLOCK);
        u.buf.as_mut_slice().fill(0);
    }
    run_all(e.as_mut(), &mut us);
    for (i, u) in us.iter().enumerate() {
        assert_eq!(u.result, BLOCK as i64, "read {i}");
        assert!(u.buf.as_slice().iter().all(|&b| b == pattern(7, i)), "block {i} read back");
    }
    true
}

#[test]
fn writes_at_depth_8_complete_with_exact_counts_and_data() {
    let file = tempfile::tempfile().unwrap();
    roundtrip(&options(8), &file, 8);
}

#[test]
fn each_option_that_changes_the_requests_moves_the_same_data() {
    let variants = [
        ("fixedbufs", EngineOptions { fixedbufs: true, ..options(8) }),
        ("registerfiles", EngineOptions { registerfiles: true, ..options(8) }),
        ("nonvectored=0", EngineOptions { nonvectored: 0, ..options(8) }),
        ("nonvectored=1", EngineOptions { nonvectored: 1, ..options(8) }),
        ("force_async=1", EngineOptions { force_async: 1, ..options(8) }),
        ("force_async=3", EngineOptions { force_async: 3, ..options(8) }),
        (
            "fixedbufs+registerfiles",
            EngineOptions { fixedbufs: true, registerfiles: true, ..options(8) },
        ),
    ];
    for (name, opts) in variants {
        let file = tempfile::tempfile().unwrap();
        if !roundtrip(&opts, &file, 8) {
            eprintln!("skipped: {name}");
        }
    }
}

#[test]
fn sqthread_poll_moves_the_data() {
    let file = tempfile::tempfile().unwrap();
    let opts = EngineOptions { sqthread_poll: true, ..options(4) };
    match create("io_uring", &opts) {
        Err(e) if e.message.contains("EPERM") || e.message.contains("permission") => {
            eprintln!("skipped: sqthread_poll not permitted here: {e}");
        }
        Err(e) => eprintln!("skipped: {e}"),
        Ok(_) => {
            roundtrip(&opts, &file, 4);
            let pinned = EngineOptions { sqthread_poll_cpu: Some(0), ..opts };
            roundtrip(&pinned, &file, 4);
        }
    }
}

#[test]
fn data_crosses_between_io_uring_and_psync_both_ways() {
    let Some(mut ring) = engine(&options(2)) else { return };
    let file = tempfile::tempfile().unwrap();
    let fd = file.as_raw_fd();
    let mut us = units(2);
    ring.setup(&mut us, &[fd]).unwrap();
    let mut psync = create("psync", &options(1)).unwrap();
    // io_uring writes block 0, psync writes block 1.
    aim(&mut us[0], Ddir::Write, 0, fd, 0, BLOCK);
    us[0].buf.as_mut_slice().fill(0xA5);
    run_some(ring.as_mut(), &mut us, 0..1);
    assert_eq!(us[0].result, BLOCK as i64);
    let mut p = IoUnit::new(0, BLOCK, 4096).unwrap();
    aim(&mut p, Ddir::Write, 0, fd, BLOCK as u64, BLOCK);
    p.buf.as_mut_slice().fill(0x5A);
    assert_eq!(psync.queue(&mut p), Queued::Completed);
    assert_eq!(p.result, BLOCK as i64);
    // psync reads block 0, io_uring reads block 1.
    aim(&mut p, Ddir::Read, 0, fd, 0, BLOCK);
    p.buf.as_mut_slice().fill(0);
    assert_eq!(psync.queue(&mut p), Queued::Completed);
    assert_eq!(p.result, BLOCK as i64);
    assert!(p.buf.as_slice().iter().all(|&b| b == 0xA5));
    aim(&mut us[1], Ddir::Read, 0, fd, BLOCK as u64, BLOCK);
    run_some(ring.as_mut(), &mut us, 1..2);
    assert_eq!(us[1].result, BLOCK as i64);
    assert!(us[1].buf.as_slice().iter().all(|&b| b == 0x5A));
}

#[test]
fn fsync_and_fdatasync_succeed_and_a_short_read_is_exact() {
    let Some(mut e) = engine(&options(4)) else { return };
    let file = tempfile::tempfile().unwrap();
    let fd = file.as_raw_fd();
    let mut us = units(3);
    e.setup(&mut us, &[fd]).unwrap();
    aim(&mut us[0], Ddir::Write, 0, fd, 0, 1000);
    run_some(e.as_mut(), &mut us, 0..1);
    assert_eq!(us[0].result, 1000);
    aim(&mut us[1], Ddir::Sync, 0, fd, 0, 0);
    aim(&mut us[2], Ddir::Datasync, 0, fd, 0, 0);
    run_some(e.as_mut(), &mut us, 1..3);
    assert_eq!((us[1].result, us[2].result), (0, 0));
    aim(&mut us[0], Ddir::Read, 0, fd, 0, BLOCK);
    run_some(e.as_mut(), &mut us, 0..1);
    assert_eq!(us[0].result, 1000, "a read past the end is short");
}

#[test]
fn trim_punches_a_hole_that_reads_back_as_zeros() {
    let Some(mut e) = engine(&options(2)) else { return };
    let file = tempfile::tempfile().unwrap();
    let fd = file.as_raw_fd();
    file.write_all_at(&[7u8; 2 * BLOCK], 0).unwrap();
    let mut us = units(2);
    e.setup(&mut us, &[fd]).unwrap();
    aim(&mut us[0], Ddir::Trim, 0, fd, 0, BLOCK);
    assert_eq!(e.queue(&mut us[0]), Queued::Completed, "trim completes inside queue");
    if us[0].result == -i64::from(libc::EOPNOTSUPP) {
        eprintln!("skipped: this file system cannot punch holes");
        return;
    }
    assert_eq!(us[0].result, BLOCK as i64);
    let mut us2 = vec![IoUnit::new(0, 2 * BLOCK, 4096).unwrap()];
    aim(&mut us2[0], Ddir::Read, 0, fd, 0, 2 * BLOCK);
    us2[0].buf.as_mut_slice().fill(0xFF);
    run_all(e.as_mut(), &mut us2);
    assert_eq!(us2[0].result, 2 * BLOCK as i64);
    let data = us2[0].buf.as_slice();
    assert!(data[..BLOCK].iter().all(|&b| b == 0), "the hole reads as zeros");
    assert!(data[BLOCK..].iter().all(|&b| b == 7), "the rest is untouched");
}

#[test]
fn direct_io_and_polled_completions_move_the_data() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("direct");
    let file = match OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(true)
        .custom_flags(libc::O_DIRECT)
        .open(&path)
    {
        Ok(f) => f,
        Err(e) => {
            eprintln!("skipped: the temporary file system refuses O_DIRECT: {e}");
            return;
        }
    };
    let direct = EngineOptions { direct: true, ..options(8) };
    roundtrip(&direct, &file, 8);
    let fixed = EngineOptions { fixedbufs: true, registerfiles: true, ..direct.clone() };
    roundtrip(&fixed, &file, 8);
    let polled = EngineOptions { hipri: true, ..direct };
    let Some(mut e) = engine(&polled) else { return };
    let mut us = units(4);
    e.setup(&mut us, &[file.as_raw_fd()]).unwrap();
    for (i, u) in us.iter_mut().enumerate() {
        aim(u, Ddir::Read, 0, file.as_raw_fd(), (i * BLOCK) as u64, BLOCK);
    }
    run_all(e.as_mut(), &mut us);
    if us[0].result == -i64::from(libc::EOPNOTSUPP) {
        eprintln!("skipped: this file system cannot poll for completions");
        return;
    }
    for (i, u) in us.iter().enumerate() {
        assert_eq!(u.result, BLOCK as i64, "polled read {i}");
        assert!(u.buf.as_slice().iter().all(|&b| b == pattern(7, i)));
    }
}

#[test]
fn polling_without_direct_io_is_refused_by_name() {
    let err = match create("io_uring", &EngineOptions { hipri: true, ..options(1) }) {
        Err(e) => e,
        Ok(_) => panic!("hipri without direct=1 was accepted"),
    };
    assert_eq!(err.option, Some("hipri"));
}

#[test]
fn uncached_either_works_or_fails_at_setup_by_name() {
    let file = tempfile::tempfile().unwrap();
    let opts = EngineOptions { uncached: 1, ..options(4) };
    let Some(mut e) = engine(&opts) else { return };
    let mut us = units(4);
    match e.setup(&mut us, &[file.as_raw_fd()]) {
        Err(err) => {
            assert_eq!(err.option, Some("uncached"), "{err}");
            assert!(err.message.contains("RWF_DONTCACHE"), "{err}");
        }
        Ok(()) => {
            drop(e);
            assert!(roundtrip(&opts, &file, 4));
        }
    }
}

#[test]
fn errors_come_back_as_negated_errno() {
    let Some(mut e) = engine(&options(2)) else { return };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("wo");
    let wo = OpenOptions::new().write(true).create(true).truncate(true).open(&path).unwrap();
    wo.write_all_at(&[1u8; BLOCK], 0).unwrap();
    let mut us = units(2);
    e.setup(&mut us, &[wo.as_raw_fd()]).unwrap();
    aim(&mut us[0], Ddir::Read, 0, wo.as_raw_fd(), 0, BLOCK);
    aim(&mut us[1], Ddir::Write, 0, -1, 0, BLOCK);
    run_all(e.as_mut(), &mut us);
    assert_eq!(us[0].result, -i64::from(libc::EBADF), "a read on a write-only file");
    assert_eq!(us[1].result, -i64::from(libc::EBADF), "a write on no file");
}

#[test]
fn a_full_submission_queue_answers_busy() {
    let Some(mut e) = engine(&options(1)) else { return };
    let file = tempfile::tempfile().unwrap();
    let fd = file.as_raw_fd();
    let mut us = units(2);
    e.setup(&mut us, &[fd]).unwrap();
    let (a, b) = us.split_at_mut(1);
    aim(&mut a[0], Ddir::Write, 0, fd, 0, BLOCK);
    aim(&mut b[0], Ddir::Write, 0, fd, BLOCK as u64, BLOCK);
    assert_eq!(e.queue(&mut a[0]), Queued::Queued);
    assert_eq!(e.queue(&mut b[0]), Queued::Busy, "a one-entry ring takes one request");
    assert_eq!(e.commit().unwrap(), 1);
    let mut done = Vec::with_capacity(1);
    assert_eq!(e.reap(&mut us, 1, 1, &mut done).unwrap(), 1);
    assert_eq!((done[0], us[0].result), (0, BLOCK as i64));
}

fn pipe() -> (File, File) {
    let mut fds = [0; 2];
    // SAFETY: pipe writes two descriptors into the array we own.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    // SAFETY: both descriptors are new and owned by nothing else.
    unsafe { (File::from_raw_fd(fds[0]), File::from_raw_fd(fds[1])) }
}

/// Runs `f` on its own thread (an io_uring made for one thread stays on it) and fails if it
/// has not finished after a minute: a reap that should not block, blocked.
fn on_thread(f: impl FnOnce() + Send + 'static) {
    let (tx, rx) = mpsc::channel();
    let handle = std::thread::spawn(move || {
        f();
        let _ = tx.send(());
    });
    match rx.recv_timeout(Duration::from_secs(60)) {
        Ok(()) => handle.join().unwrap(),
        Err(mpsc::RecvTimeoutError::Disconnected) => handle.join().unwrap(),
        Err(mpsc::RecvTimeoutError::Timeout) => panic!("the engine blocked"),
    }
}

#[test]
fn reap_with_min_0_never_blocks_and_user_data_finds_each_unit_out_of_order() {
    for registerfiles in [false, true] {
        on_thread(move || {
            let opts = EngineOptions { registerfiles, ..options(4) };
            let Some(mut e) = engine(&opts) else { return };
            let (ra, mut wa) = pipe();
            let (rb, mut wb) = pipe();
            let mut us = units(2);
            e.setup(&mut us, &[ra.as_raw_fd(), rb.as_raw_fd()]).unwrap();
            let mut done = Vec::with_capacity(2);
            assert_eq!(e.reap(&mut us, 0, 2, &mut done).unwrap(), 0, "nothing in flight");
            aim(&mut us[0], Ddir::Read, 0, ra.as_raw_fd(), 0, BLOCK);
            aim(&mut us[1], Ddir::Read, 1, rb.as_raw_fd(), 0, BLOCK);
            assert_eq!(e.queue(&mut us[0]), Queued::Queued);
            assert_eq!(e.queue(&mut us[1]), Queued::Queued);
            assert_eq!(e.commit().unwrap(), 2);
            for _ in 0..3 {
                assert_eq!(e.reap(&mut us, 0, 2, &mut done).unwrap(), 0, "both pipes empty");
            }
            assert!(done.is_empty());
            // The second unit's pipe gets data first.
            wb.write_all(b"second").unwrap();
            assert_eq!(e.reap(&mut us, 1, 2, &mut done).unwrap(), 1);
            assert_eq!(done, [1]);
            assert_eq!(us[1].result, 6);
            assert_eq!(&us[1].buf.as_slice()[..6], b"second");
            assert_eq!(us[0].result, i64::MIN, "the first unit is still in flight");
            done.clear();
            wa.write_all(b"first!!").unwrap();
            assert_eq!(e.reap(&mut us, 1, 2, &mut done).unwrap(), 1);
            assert_eq!(done, [0]);
            assert_eq!(us[0].result, 7);
            assert_eq!(&us[0].buf.as_slice()[..7], b"first!!");
        });
    }
}

#[test]
fn dropping_the_engine_with_a_read_that_never_completes_does_not_hang() {
    on_thread(|| {
        let Some(mut e) = engine(&options(2)) else { return };
        let (r, _w) = pipe();
        let mut us = units(1);
        e.setup(&mut us, &[r.as_raw_fd()]).unwrap();
        aim(&mut us[0], Ddir::Read, 0, r.as_raw_fd(), 0, BLOCK);
        assert_eq!(e.queue(&mut us[0]), Queued::Queued);
        assert_eq!(e.commit().unwrap(), 1);
        drop(e);
    });
}

/// iomark's default (`register_by_default`): registering that the kernel refuses — here more
/// buffers than io_uring registers (16384) — leaves a note and plain requests that move the
/// same data; a job that asked for `fixedbufs` gets the error instead.
#[test]
fn registering_by_default_falls_back_when_refused_and_asking_fails() {
    const MANY: u32 = (1 << 14) + 1;
    let file = tempfile::tempfile().unwrap();
    let fd = file.as_raw_fd();
    let by_default = EngineOptions {
        fixedbufs: true,
        registerfiles: true,
        register_by_default: true,
        ..options(MANY)
    };
    let Some(mut e) = engine(&by_default) else { return };
    let mut us: Vec<IoUnit> = (0..MANY).map(|i| IoUnit::new(i, 512, 4096).unwrap()).collect();
    e.setup(&mut us, &[fd]).expect("falls back instead of failing");
    assert!(e.notes().iter().any(|n| n.contains("buffers not registered")), "{:?}", e.notes());
    let few = &mut us[..8];
    for (i, u) in few.iter_mut().enumerate() {
        aim(u, Ddir::Write, 0, fd, (i * 512) as u64, 512);
        u.buf.as_mut_slice()[..512].fill(pattern(3, i));
    }
    assert_eq!(run_some(e.as_mut(), &mut us, 0..8).len(), 8);
    let mut check = [0u8; 512];
    for i in 0..8 {
        file.read_exact_at(&mut check, (i * 512) as u64).unwrap();
        assert!(check.iter().all(|&b| b == pattern(3, i)), "block {i}");
    }
    drop(e);
    let asked = EngineOptions { register_by_default: false, ..by_default };
    let Some(mut e) = engine(&asked) else { return };
    let err = e.setup(&mut us, &[fd]).expect_err("fixedbufs asked for cannot fall back");
    assert_eq!(err.option, Some("fixedbufs"));
}
