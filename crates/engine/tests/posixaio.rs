//! The `posixaio` engine against real files: counts, data, syncs, errors, and a reap that
//! must not block.

use iomark_core::Ddir;
use iomark_engine::{create, Engine, EngineOptions, IoUnit, Queued};
use std::fs::File;
use std::os::fd::AsRawFd;
use std::os::unix::fs::FileExt;

const BLOCK: usize = 4096;

fn engine(depth: u32) -> Box<dyn Engine> {
    let options = EngineOptions { iodepth: depth, ..EngineOptions::default() };
    create("posixaio", &options).unwrap()
}

fn units(n: u32) -> Vec<IoUnit> {
    (0..n).map(|i| IoUnit::new(i, BLOCK, 4096).unwrap()).collect()
}

fn set(u: &mut IoUnit, fd: i32, ddir: Ddir, offset: u64, len: usize) {
    u.fd = fd;
    u.ddir = ddir;
    u.offset = offset;
    u.len = len;
    u.result = i64::MIN;
}

/// The bytes of block `block`: different in every block and within one.
fn pattern(block: u64) -> Vec<u8> {
    (0..BLOCK).map(|i| (block as usize * 31 + i * 7 % 251) as u8).collect()
}

/// Runs one unit to completion: queue, commit, reap.
fn run_one(e: &mut dyn Engine, units: &mut [IoUnit], i: usize) -> i64 {
    match e.queue(&mut units[i]) {
        Queued::Completed => return units[i].result,
        Queued::Queued => assert_eq!(e.commit().unwrap(), 1),
        Queued::Busy => panic!("busy with nothing in flight"),
    }
    let mut done = Vec::with_capacity(1);
    assert_eq!(e.reap(units, 1, 1, &mut done).unwrap(), 1);
    assert_eq!(done, [i as u32]);
    units[i].result
}

#[test]
fn eight_writes_in_flight_are_committed_and_reaped_exactly() {
    let file = tempfile::tempfile().unwrap();
    let fd = file.as_raw_fd();
    let mut units = units(8);
    let mut e = engine(8);
    e.setup(&mut units, &[fd]).unwrap();
    assert_eq!(e.commit().unwrap(), 0, "nothing queued yet");
    for (i, u) in units.iter_mut().enumerate() {
        set(u, fd, Ddir::Write, (i * BLOCK) as u64, BLOCK);
        u.buf.as_mut_slice().copy_from_slice(&pattern(i as u64));
        assert_eq!(e.queue(u), Queued::Queued);
    }
    assert_eq!(e.commit().unwrap(), 8);
    assert_eq!(e.commit().unwrap(), 0, "commit counts each start once");
    let mut done = Vec::with_capacity(8);
    assert_eq!(e.reap(&mut units, 8, 8, &mut done).unwrap(), 8);
    done.sort_unstable();
    assert_eq!(done, (0..8).collect::<Vec<u32>>());
    assert!(units.iter().all(|u| u.result == BLOCK as i64));
    let mut more = Vec::with_capacity(8);
    assert_eq!(e.reap(&mut units, 0, 8, &mut more).unwrap(), 0, "nothing left in flight");
    assert_eq!(file.metadata().unwrap().len(), (8 * BLOCK) as u64);
    for i in 0..8 {
        let mut got = vec![0; BLOCK];
        file.read_exact_at(&mut got, (i * BLOCK) as u64).unwrap();
        assert_eq!(got, pattern(i as u64), "block {i}");
    }
}

#[test]
fn a_runner_style_loop_writes_every_block_once() {
    // 64 writes through 8 units, reaping whatever is done whenever no unit is free, and
    // never more than `max` at once.
    let file = tempfile::tempfile().unwrap();
    let fd = file.as_raw_fd();
    let mut units = units(8);
    let mut e = engine(8);
    e.setup(&mut units, &[fd]).unwrap();
    let mut free: Vec<u32> = (0..8).rev().collect();
    let mut done = Vec::with_capacity(8);
    let (mut next, mut completed, mut in_flight) = (0u64, 0u64, 0usize);
    while completed < 64 {
        if next < 64 {
            if let Some(i) = free.pop() {
                let u = &mut units[i as usize];
                set(u, fd, Ddir::Write, next * BLOCK as u64, BLOCK);
                u.buf.as_mut_slice().copy_from_slice(&pattern(next));
                assert_eq!(e.queue(u), Queued::Queued);
                assert_eq!(e.commit().unwrap(), 1);
                in_flight += 1;
                next += 1;
                continue;
            }
        }
        done.clear();
        let n = e.reap(&mut units, 1, 3.min(in_flight), &mut done).unwrap();
        assert!((1..=3).contains(&n), "reaped {n}");
        assert_eq!(done.len(), n);
        for &i in &done {
            assert_eq!(units[i as usize].result, BLOCK as i64);
            free.push(i);
        }
        in_flight -= n;
        completed += n as u64;
    }
    for b in 0..64 {
        let mut got = vec![0; BLOCK];
        file.read_exact_at(&mut got, b * BLOCK as u64).unwrap();
        assert_eq!(got, pattern(b), "block {b}");
    }
}

#[test]
fn data_round_trips_with_psync_both_ways() {
    let file = tempfile::tempfile().unwrap();
    let fd = file.as_raw_fd();
    let mut units = units(1);
    let mut e = engine(1);
    e.setup(&mut units, &[fd]).unwrap();
    // posixaio writes block 0, psync reads it.
    set(&mut units[0], fd, Ddir::Write, 0, BLOCK);
    units[0].buf.as_mut_slice().copy_from_slice(&pattern(0));
    assert_eq!(run_one(&mut *e, &mut units, 0), BLOCK as i64);
    let mut psync = create("psync", &EngineOptions::default()).unwrap();
    let mut r = IoUnit::new(0, BLOCK, 4096).unwrap();
    set(&mut r, fd, Ddir::Read, 0, BLOCK);
    assert_eq!(psync.queue(&mut r), Queued::Completed);
    assert_eq!(r.result, BLOCK as i64);
    assert_eq!(r.buf.as_slice(), &pattern(0)[..]);
    // psync writes block 1, posixaio reads it.
    let mut w = IoUnit::new(0, BLOCK, 4096).unwrap();
    set(&mut w, fd, Ddir::Write, BLOCK as u64, BLOCK);
    w.buf.as_mut_slice().copy_from_slice(&pattern(1));
    assert_eq!(psync.queue(&mut w), Queued::Completed);
    assert_eq!(w.result, BLOCK as i64);
    set(&mut units[0], fd, Ddir::Read, BLOCK as u64, BLOCK);
    units[0].buf.as_mut_slice().fill(0);
    assert_eq!(run_one(&mut *e, &mut units, 0), BLOCK as i64);
    assert_eq!(units[0].buf.as_slice(), &pattern(1)[..]);
    // A read that runs past the end is short.
    set(&mut units[0], fd, Ddir::Read, BLOCK as u64 + 96, BLOCK);
    assert_eq!(run_one(&mut *e, &mut units, 0), (BLOCK - 96) as i64);
    assert_eq!(units[0].buf.as_slice()[..BLOCK - 96], pattern(1)[96..]);
}

#[test]
fn fsync_and_fdatasync_complete_through_reap() {
    let file = tempfile::tempfile().unwrap();
    let fd = file.as_raw_fd();
    file.write_all_at(&pattern(3), 0).unwrap();
    let mut units = units(2);
    let mut e = engine(2);
    e.setup(&mut units, &[fd]).unwrap();
    set(&mut units[0], fd, Ddir::Sync, 0, 0);
    set(&mut units[1], fd, Ddir::Datasync, 0, 0);
    assert_eq!(e.queue(&mut units[0]), Queued::Queued);
    assert_eq!(e.queue(&mut units[1]), Queued::Queued);
    assert_eq!(e.commit().unwrap(), 2);
    let mut done = Vec::with_capacity(2);
    assert_eq!(e.reap(&mut units, 2, 2, &mut done).unwrap(), 2);
    assert_eq!(units[0].result, 0);
    assert_eq!(units[1].result, 0);
}

#[test]
fn reap_with_min_zero_returns_at_once_and_min_one_waits() {
    // A read on an empty pipe stays in flight until someone writes: glibc retries a pread
    // that fails with ESPIPE as a plain read, which blocks in its helper thread.
    let mut fds = [0; 2];
    // SAFETY: pipe writes two descriptors into the array.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    // SAFETY: both descriptors were just opened and are owned by nothing else.
    let (rx, tx): (File, File) = unsafe {
        use std::os::fd::FromRawFd;
        (File::from_raw_fd(fds[0]), File::from_raw_fd(fds[1]))
    };
    let mut units = units(1);
    let mut e = engine(1);
    e.setup(&mut units, &[rx.as_raw_fd()]).unwrap();
    set(&mut units[0], rx.as_raw_fd(), Ddir::Read, 0, BLOCK);
    assert_eq!(e.queue(&mut units[0]), Queued::Queued);
    assert_eq!(e.commit().unwrap(), 1);
    let mut done = Vec::with_capacity(1);
    for _ in 0..3 {
        assert_eq!(e.reap(&mut units, 0, 1, &mut done).unwrap(), 0);
    }
    assert!(done.is_empty());
    use std::io::Write;
    (&tx).write_all(b"posix aio").unwrap();
    assert_eq!(e.reap(&mut units, 1, 1, &mut done).unwrap(), 1);
    assert_eq!(done, [0]);
    assert_eq!(units[0].result, 9);
    assert_eq!(&units[0].buf.as_slice()[..9], b"posix aio");
}

#[test]
fn errors_come_back_as_negated_errno() {
    let mut units = units(2);
    let mut e = engine(2);
    e.setup(&mut units, &[-1]).unwrap();
    // A read on a bad descriptor fails in glibc's helper thread, so it comes back from reap
    // (if glibc ever checks at once, queue completes it with the same error).
    set(&mut units[0], -1, Ddir::Read, 0, BLOCK);
    assert_eq!(run_one(&mut *e, &mut units, 0), -i64::from(libc::EBADF));
    set(&mut units[1], -1, Ddir::Write, 0, BLOCK);
    assert_eq!(run_one(&mut *e, &mut units, 1), -i64::from(libc::EBADF));
    // aio_fsync checks the descriptor at once.
    set(&mut units[0], -1, Ddir::Sync, 0, 0);
    assert_eq!(run_one(&mut *e, &mut units, 0), -i64::from(libc::EBADF));
    // A write to a file open read-only.
    let file = tempfile::NamedTempFile::new().unwrap();
    let ro = File::open(file.path()).unwrap();
    set(&mut units[1], ro.as_raw_fd(), Ddir::Write, 0, BLOCK);
    assert_eq!(run_one(&mut *e, &mut units, 1), -i64::from(libc::EBADF));
    assert_eq!(ro.metadata().unwrap().len(), 0);
}

#[test]
fn a_unit_beyond_the_pool_or_queued_twice_is_refused() {
    let file = tempfile::tempfile().unwrap();
    let fd = file.as_raw_fd();
    let mut e = engine(1);
    let mut stray = IoUnit::new(5, BLOCK, 4096).unwrap();
    set(&mut stray, fd, Ddir::Write, 0, BLOCK);
    assert_eq!(e.queue(&mut stray), Queued::Completed);
    assert_eq!(stray.result, -i64::from(libc::EINVAL));
    // setup grows the pool to the units it is given.
    let mut units = units(6);
    e.setup(&mut units, &[fd]).unwrap();
    set(&mut units[5], fd, Ddir::Write, 0, BLOCK);
    units[5].buf.as_mut_slice().copy_from_slice(&pattern(5));
    assert_eq!(e.queue(&mut units[5]), Queued::Queued);
    // The same unit again while in flight: refused, the first request is unharmed.
    let mut twin = IoUnit::new(5, BLOCK, 4096).unwrap();
    set(&mut twin, fd, Ddir::Write, BLOCK as u64, BLOCK);
    assert_eq!(e.queue(&mut twin), Queued::Completed);
    assert_eq!(twin.result, -i64::from(libc::EBUSY));
    assert_eq!(e.commit().unwrap(), 1);
    let mut done = Vec::with_capacity(6);
    assert_eq!(e.reap(&mut units, 1, 6, &mut done).unwrap(), 1);
    assert_eq!(units[5].result, BLOCK as i64);
    assert_eq!(file.metadata().unwrap().len(), BLOCK as u64);
}

#[test]
fn trim_is_synchronous_and_punches_a_hole() {
    let file = tempfile::tempfile().unwrap();
    let fd = file.as_raw_fd();
    file.write_all_at(&[9; 2 * BLOCK], 0).unwrap();
    let mut units = units(1);
    let mut e = engine(1);
    e.setup(&mut units, &[fd]).unwrap();
    set(&mut units[0], fd, Ddir::Trim, 0, BLOCK);
    assert_eq!(e.queue(&mut units[0]), Queued::Completed);
    if units[0].result == -i64::from(libc::EOPNOTSUPP) {
        eprintln!("skipped: this file system cannot punch holes");
        return;
    }
    assert_eq!(units[0].result, BLOCK as i64);
    assert_eq!(e.commit().unwrap(), 0, "a trim is not an asynchronous submission");
    let mut got = vec![1; 2 * BLOCK];
    file.read_exact_at(&mut got, 0).unwrap();
    assert!(got[..BLOCK].iter().all(|&b| b == 0));
    assert!(got[BLOCK..].iter().all(|&b| b == 9));
}
