//! The libaio engine against real files: batches, data integrity across engines, syncs,
//! trims, direct I/O, user-space reaping, refused requests, partial submissions and the
//! note about buffered I/O completing inline.

#[path = "libaio/support.rs"]
mod support;

use iomark_core::Ddir;
use iomark_engine::libaio::abi::{IoEvent, Iocb};
use iomark_engine::libaio::{LibaioEngine, INLINE_NOTE};
use iomark_engine::{create, Engine, EngineOptions, IoUnit, Queued};
use std::fs::File;
use std::os::fd::AsRawFd;
use support::*;

#[test]
fn the_abi_structures_have_the_kernels_sizes() {
    assert_eq!(std::mem::size_of::<Iocb>(), 64);
    assert_eq!(std::mem::size_of::<IoEvent>(), 32);
}

#[test]
fn the_registry_creates_an_async_libaio_engine() {
    if !aio_available() {
        return;
    }
    let e = create("libaio", &EngineOptions { iodepth: 4, ..EngineOptions::default() }).unwrap();
    assert_eq!(e.name(), "libaio");
    assert!(!e.is_sync());
}

#[test]
fn eight_writes_go_in_one_batch_and_are_reaped_exactly() {
    if !aio_available() {
        return;
    }
    let file = temp_file(8);
    let fd = file.as_raw_fd();
    let mut e = engine(8, false);
    let mut us = units(8);
    e.setup(&mut us, &[fd]).unwrap();
    for (b, u) in us.iter_mut().enumerate() {
        fill(u, fd, Ddir::Write, b);
        u.buf.as_mut_slice().fill(pattern(b));
        assert_eq!(e.queue(u), Queued::Queued);
    }
    assert_eq!(e.commit().unwrap(), 8);
    assert_eq!(e.commit().unwrap(), 0, "nothing left to submit");
    let mut done = Vec::with_capacity(8);
    assert_eq!(e.reap(&mut us, 8, 8, &mut done).unwrap(), 8);
    done.sort_unstable();
    assert_eq!(done, (0..8).collect::<Vec<u32>>());
    assert!(us.iter().all(|u| u.result == BLOCK as i64));
    done.clear();
    assert_eq!(e.reap(&mut us, 0, 8, &mut done).unwrap(), 0);
    assert_eq!(e.reap(&mut us, 1, 8, &mut done).unwrap(), 0, "nothing in flight: no wait");
    let c = e.counts();
    assert_eq!((c.submitted, c.submissions), (8, 1));
    for b in 0..8 {
        let mut r = IoUnit::new(0, BLOCK, 4096).unwrap();
        fill(&mut r, fd, Ddir::Read, b);
        assert_eq!(psync(&mut r), BLOCK as i64);
        assert!(r.buf.as_slice().iter().all(|&x| x == pattern(b)), "block {b}");
    }
}

#[test]
fn psync_and_libaio_read_back_each_others_data() {
    if !aio_available() {
        return;
    }
    let blocks = 24;
    let file = temp_file(blocks);
    let fd = file.as_raw_fd();
    // libaio writes, psync reads.
    let mut e = engine(4, false);
    let mut us = units(4);
    let written = run_job(&mut e, &mut us, fd, Ddir::Write, blocks);
    assert!(written.iter().all(|&r| r == BLOCK as i64));
    for b in 0..blocks {
        let mut r = IoUnit::new(0, BLOCK, 4096).unwrap();
        fill(&mut r, fd, Ddir::Read, b);
        assert_eq!(psync(&mut r), BLOCK as i64);
        assert!(r.buf.as_slice().iter().all(|&x| x == pattern(b)), "block {b}");
    }
    // psync writes another file, libaio reads it (run_job checks the bytes).
    let other = temp_file(blocks);
    let fd = other.as_raw_fd();
    for b in 0..blocks {
        let mut w = IoUnit::new(0, BLOCK, 4096).unwrap();
        fill(&mut w, fd, Ddir::Write, b);
        w.buf.as_mut_slice().fill(pattern(b));
        assert_eq!(psync(&mut w), BLOCK as i64);
    }
    let read = run_job(&mut e, &mut us, fd, Ddir::Read, blocks);
    assert!(read.iter().all(|&r| r == BLOCK as i64));
}

#[test]
fn syncs_wait_for_writes_in_flight_and_then_succeed() {
    if !aio_available() {
        return;
    }
    let file = temp_file(1);
    let fd = file.as_raw_fd();
    let mut e = engine(2, false);
    let mut us = units(2);
    let mut done = Vec::with_capacity(2);
    for ddir in [Ddir::Sync, Ddir::Datasync] {
        let (w, s) = us.split_at_mut(1);
        fill(&mut w[0], fd, Ddir::Write, 0);
        assert_eq!(e.queue(&mut w[0]), Queued::Queued);
        assert_eq!(e.commit().unwrap(), 1);
        fill(&mut s[0], fd, ddir, 0);
        assert_eq!(e.queue(&mut s[0]), Queued::Busy, "{ddir:?} behind a write in flight");
        done.clear();
        assert_eq!(e.reap(&mut us, 1, 2, &mut done).unwrap(), 1);
        assert_eq!(us[0].result, BLOCK as i64);
        let q = e.queue(&mut us[1]);
        if q == Queued::Queued {
            assert_eq!(e.commit().unwrap(), 1);
            done.clear();
            assert_eq!(e.reap(&mut us, 1, 2, &mut done).unwrap(), 1);
            assert_eq!(done, [1]);
        } else {
            assert_eq!(q, Queued::Completed, "the kernel refused IOCB_CMD_FSYNC");
        }
        assert_eq!(us[1].result, 0, "{ddir:?}");
    }
}

#[test]
fn a_sync_the_kernel_refuses_falls_back_to_a_synchronous_one() {
    if !aio_available() {
        return;
    }
    // A pipe has no fsync: the kernel refuses IOCB_CMD_FSYNC on it with EINVAL.
    let mut p = [0; 2];
    // SAFETY: pipe writes two descriptors into `p`.
    assert_eq!(unsafe { libc::pipe(p.as_mut_ptr()) }, 0);
    let mut e = engine(1, false);
    let mut us = units(1);
    fill(&mut us[0], p[1], Ddir::Sync, 0);
    assert_eq!(e.queue(&mut us[0]), Queued::Queued);
    assert_eq!(e.commit().unwrap(), 1);
    let mut done = Vec::with_capacity(1);
    assert_eq!(e.reap(&mut us, 1, 1, &mut done).unwrap(), 1);
    assert_eq!(us[0].result, -i64::from(libc::EINVAL), "fsync(2) of a pipe");
    // From now on syncs are done inside queue.
    fill(&mut us[0], p[1], Ddir::Datasync, 0);
    assert_eq!(e.queue(&mut us[0]), Queued::Completed);
    assert_eq!(us[0].result, -i64::from(libc::EINVAL));
    // SAFETY: closing the descriptors pipe gave us.
    unsafe {
        libc::close(p[0]);
        libc::close(p[1]);
    }
}

#[test]
fn trim_punches_a_hole_once_nothing_is_in_flight() {
    if !aio_available() {
        return;
    }
    let file = temp_file(2);
    let fd = file.as_raw_fd();
    let mut e = engine(2, false);
    let mut us = units(2);
    let written = run_job(&mut e, &mut us, fd, Ddir::Write, 2);
    assert_eq!(written, [BLOCK as i64; 2]);
    // A trim behind an I/O in flight waits.
    fill(&mut us[0], fd, Ddir::Read, 1);
    assert_eq!(e.queue(&mut us[0]), Queued::Queued);
    assert_eq!(e.commit().unwrap(), 1);
    fill(&mut us[1], fd, Ddir::Trim, 0);
    assert_eq!(e.queue(&mut us[1]), Queued::Busy);
    let mut done = Vec::with_capacity(2);
    assert_eq!(e.reap(&mut us, 1, 1, &mut done).unwrap(), 1);
    assert_eq!(e.queue(&mut us[1]), Queued::Completed);
    if us[1].result == -i64::from(libc::EOPNOTSUPP) {
        eprintln!("skipped: this file system cannot punch holes");
        return;
    }
    assert_eq!(us[1].result, BLOCK as i64);
    let mut r = IoUnit::new(0, BLOCK, 4096).unwrap();
    fill(&mut r, fd, Ddir::Read, 0);
    assert_eq!(psync(&mut r), BLOCK as i64);
    assert!(r.buf.as_slice().iter().all(|&x| x == 0), "the trimmed block reads as zeros");
    fill(&mut r, fd, Ddir::Read, 1);
    assert_eq!(psync(&mut r), BLOCK as i64);
    assert!(r.buf.as_slice().iter().all(|&x| x == pattern(1)), "the other block is intact");
}

#[test]
fn direct_io_writes_and_reads_back() {
    if !aio_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let Some(file) = direct_file(&dir, 32) else { return };
    let fd = file.as_raw_fd();
    let mut e = engine(8, false);
    let mut us = units(8);
    let written = run_job(&mut e, &mut us, fd, Ddir::Write, 32);
    if written[0] == -i64::from(libc::EINVAL) {
        eprintln!("skipped: the file system refuses direct I/O at 4 KiB alignment");
        return;
    }
    assert!(written.iter().all(|&r| r == BLOCK as i64), "{written:?}");
    let read = run_job(&mut e, &mut us, fd, Ddir::Read, 32);
    assert!(read.iter().all(|&r| r == BLOCK as i64));
    let c = e.counts();
    eprintln!("direct I/O: {} of {} requests completed inline", c.inline, c.submitted);
}

#[test]
fn userspace_reap_takes_completions_from_the_ring_without_blocking() {
    if !aio_available() {
        return;
    }
    let file = temp_file(8);
    let fd = file.as_raw_fd();
    let mut e = engine(8, true);
    let mut us = units(8);
    let mut done = Vec::with_capacity(8);
    assert_eq!(e.reap(&mut us, 0, 8, &mut done).unwrap(), 0, "nothing in flight");
    // Buffered writes complete inside io_submit, so the ring holds all eight at once.
    for (b, u) in us.iter_mut().enumerate() {
        fill(u, fd, Ddir::Write, b);
        assert_eq!(e.queue(u), Queued::Queued);
    }
    assert_eq!(e.commit().unwrap(), 8);
    assert_eq!(e.reap(&mut us, 0, 3, &mut done).unwrap(), 3, "at most max");
    assert_eq!(e.reap(&mut us, 0, 8, &mut done).unwrap(), 5);
    done.sort_unstable();
    assert_eq!(done, (0..8).collect::<Vec<u32>>());
    assert!(us.iter().all(|u| u.result == BLOCK as i64));
    assert_eq!(e.counts().userspace_reaped, 8);
    // The kernel sees the consumed head: io_getevents finds nothing left.
    done.clear();
    assert_eq!(e.reap(&mut us, 1, 8, &mut done).unwrap(), 0);
    // With a minimum above 0 the engine waits in io_getevents, not in the ring.
    fill(&mut us[0], fd, Ddir::Read, 0);
    assert_eq!(e.queue(&mut us[0]), Queued::Queued);
    assert_eq!(e.commit().unwrap(), 1);
    assert_eq!(e.reap(&mut us, 1, 8, &mut done).unwrap(), 1);
    assert_eq!(e.counts().userspace_reaped, 8);
    // Direct I/O: polling with min = 0 returns at once, whatever has arrived, until all has.
    let dir = tempfile::tempdir().unwrap();
    let Some(direct) = direct_file(&dir, 8) else { return };
    let dfd = direct.as_raw_fd();
    for (b, u) in us.iter_mut().enumerate() {
        fill(u, dfd, Ddir::Write, b);
        assert_eq!(e.queue(u), Queued::Queued);
    }
    assert_eq!(e.commit().unwrap(), 8);
    done.clear();
    let mut polls = 0u64;
    while done.len() < 8 {
        let before = done.len();
        let n = e.reap(&mut us, 0, 8 - before, &mut done).unwrap();
        assert_eq!(n, done.len() - before);
        polls += 1;
        assert!(polls < 100_000_000, "completions never arrived");
        std::thread::yield_now();
    }
    if us.iter().any(|u| u.result == -i64::from(libc::EINVAL)) {
        eprintln!("skipped: the file system refuses direct I/O at 4 KiB alignment");
        return;
    }
    assert!(us.iter().all(|u| u.result == BLOCK as i64));
    assert_eq!(e.counts().userspace_reaped, 16);
}

#[test]
fn a_refused_request_comes_back_from_reap_with_its_errno() {
    if !aio_available() {
        return;
    }
    let mut e = engine(1, false);
    let mut us = units(1);
    fill(&mut us[0], -1, Ddir::Read, 0);
    assert_eq!(e.queue(&mut us[0]), Queued::Queued);
    assert_eq!(e.commit().unwrap(), 1);
    let mut done = Vec::with_capacity(1);
    assert_eq!(e.reap(&mut us, 1, 1, &mut done).unwrap(), 1);
    assert_eq!(done, [0]);
    assert_eq!(us[0].result, -i64::from(libc::EBADF));
    // A write to a file open read-only is refused the same way.
    let file = temp_file(1);
    let ro = File::open(format!("/proc/self/fd/{}", file.as_raw_fd())).unwrap();
    fill(&mut us[0], ro.as_raw_fd(), Ddir::Write, 0);
    assert_eq!(e.queue(&mut us[0]), Queued::Queued);
    assert_eq!(e.commit().unwrap(), 1);
    done.clear();
    assert_eq!(e.reap(&mut us, 1, 1, &mut done).unwrap(), 1);
    assert_eq!(us[0].result, -i64::from(libc::EBADF));
    assert_eq!(e.counts().submitted, 0, "the kernel took none of them");
}

#[test]
fn a_batch_the_kernel_takes_in_part_is_submitted_in_full() {
    if !aio_available() {
        return;
    }
    let file = temp_file(8);
    let fd = file.as_raw_fd();
    // A depth larger than what is queued: three of eight.
    let mut e = engine(8, false);
    let mut us = units(8);
    for (b, u) in us.iter_mut().take(3).enumerate() {
        fill(u, fd, Ddir::Write, b);
        assert_eq!(e.queue(u), Queued::Queued);
    }
    assert_eq!(e.commit().unwrap(), 3);
    let mut done = Vec::with_capacity(8);
    assert_eq!(e.reap(&mut us, 3, 8, &mut done).unwrap(), 3);
    assert!(us[..3].iter().all(|u| u.result == BLOCK as i64));
    // io_submit stops at the refused request in the middle (it takes one, then fails on
    // the next); the engine goes on until the whole batch is out.
    for (b, u) in us.iter_mut().take(3).enumerate() {
        fill(u, if b == 1 { -1 } else { fd }, Ddir::Read, b);
        assert_eq!(e.queue(u), Queued::Queued);
    }
    assert_eq!(e.commit().unwrap(), 3);
    assert_eq!(e.counts().submissions, 3, "one call for the first batch, two for this one");
    done.clear();
    assert_eq!(e.reap(&mut us, 3, 8, &mut done).unwrap(), 3);
    done.sort_unstable();
    assert_eq!(done, [0, 1, 2]);
    let results: Vec<i64> = us[..3].iter().map(|u| u.result).collect();
    assert_eq!(results, [BLOCK as i64, -i64::from(libc::EBADF), BLOCK as i64]);
    // Requests queued but never committed are submitted by reap rather than waited for.
    fill(&mut us[0], fd, Ddir::Read, 0);
    assert_eq!(e.queue(&mut us[0]), Queued::Queued);
    done.clear();
    assert_eq!(e.reap(&mut us, 1, 8, &mut done).unwrap(), 1);
    assert_eq!(us[0].result, BLOCK as i64);
}

#[test]
fn buffered_io_is_noted_as_completed_inline() {
    if !aio_available() {
        return;
    }
    let file = temp_file(64);
    let fd = file.as_raw_fd();
    let mut e = engine(8, false);
    let mut us = units(8);
    run_job(&mut e, &mut us, fd, Ddir::Write, 64);
    let c = e.counts();
    assert_eq!(c.submitted, 64);
    assert_eq!(c.inline, 64, "buffered writes complete inside io_submit");
    assert_eq!(e.notes(), [INLINE_NOTE]);
    // A job of a few I/Os proves nothing and gets no note.
    let mut few = engine(8, false);
    run_job(&mut few, &mut us, fd, Ddir::Read, 3);
    assert_eq!(few.counts().inline, 3);
    assert!(few.notes().is_empty());
    // Direct I/O normally completes later; only reported, since a fast device may not.
    let dir = tempfile::tempdir().unwrap();
    let Some(direct) = direct_file(&dir, 64) else { return };
    let mut d = engine(8, false);
    run_job(&mut d, &mut us, direct.as_raw_fd(), Ddir::Write, 64);
    let c = d.counts();
    eprintln!("direct I/O: {} of {} inline, notes {:?}", c.inline, c.submitted, d.notes());
}

#[test]
fn nowait_reads_fail_with_eagain_instead_of_waiting_for_the_disk() {
    if !aio_available() {
        return;
    }
    // Two blocks with data on disk, far apart (beyond any readahead of the other), not cached.
    let far = 2048;
    let file = temp_file(far + 1);
    let fd = file.as_raw_fd();
    for b in [0, far] {
        let mut w = IoUnit::new(0, BLOCK, 4096).unwrap();
        fill(&mut w, fd, Ddir::Write, b);
        w.buf.as_mut_slice().fill(pattern(b));
        assert_eq!(psync(&mut w), BLOCK as i64);
    }
    file.sync_all().unwrap();
    iomark_engine::file::drop_cache(fd, 0, 0).unwrap();
    // The control: pvsync2 with RWF_NOWAIT tells whether the pages really left the cache.
    let options = EngineOptions { nowait: true, ..EngineOptions::default() };
    let mut control = IoUnit::new(0, BLOCK, 4096).unwrap();
    fill(&mut control, fd, Ddir::Read, 0);
    let mut pvsync2 = create("pvsync2", &options).unwrap();
    assert_eq!(pvsync2.queue(&mut control), Queued::Completed);
    if control.result != -i64::from(libc::EAGAIN) {
        eprintln!("skipped: the file's pages stay cached (pvsync2 nowait: {})", control.result);
        return;
    }
    let mut e = LibaioEngine::new(&EngineOptions { iodepth: 1, ..options }).unwrap();
    let mut us = units(1);
    fill(&mut us[0], fd, Ddir::Read, far);
    assert_eq!(e.queue(&mut us[0]), Queued::Queued);
    assert_eq!(e.commit().unwrap(), 1);
    let mut done = Vec::with_capacity(1);
    assert_eq!(e.reap(&mut us, 1, 1, &mut done).unwrap(), 1);
    assert_eq!(us[0].result, -i64::from(libc::EAGAIN));
}

#[test]
fn a_depth_the_kernel_refuses_blames_iodepth() {
    if !aio_available() {
        return;
    }
    let options = EngineOptions { iodepth: 1 << 30, ..EngineOptions::default() };
    let err = LibaioEngine::new(&options).err().expect("io_setup of 2^30 events");
    assert_eq!(err.option, Some("iodepth"), "{err}");
    assert!(err.message.starts_with("libaio: io_setup(1073741824) failed"), "{err}");
}
