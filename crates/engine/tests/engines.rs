//! Every synchronous engine writes and reads real files, and each reads back what the others
//! wrote.

use iomark_core::Ddir;
use iomark_engine::registry::{self, REGISTRY};
use iomark_engine::{create, EngineOptions, IoUnit, Queued};
use std::os::fd::AsRawFd;

const BLOCK: usize = 4096;

fn unit(fd: i32, ddir: Ddir, offset: u64) -> IoUnit {
    let mut u = IoUnit::new(0, BLOCK, 4096).unwrap();
    u.fd = fd;
    u.ddir = ddir;
    u.offset = offset;
    u.len = BLOCK;
    u
}

/// One I/O through `engine`, synchronous or not: set up, queue, and for an asynchronous
/// engine commit and reap it.
fn run(engine: &str, u: &mut IoUnit) -> i64 {
    let mut e = create(engine, &EngineOptions::default()).unwrap();
    let fds = [u.fd];
    let mut units = [std::mem::replace(u, IoUnit::new(0, 1, 1).unwrap())];
    e.setup(&mut units, &fds).unwrap();
    match e.queue(&mut units[0]) {
        Queued::Completed => {}
        Queued::Queued => {
            assert_eq!(e.commit().unwrap(), 1, "{engine}: commit");
            let mut done = Vec::with_capacity(1);
            assert_eq!(e.reap(&mut units, 1, 1, &mut done).unwrap(), 1, "{engine}: reap");
            assert_eq!(done, [0]);
        }
        Queued::Busy => panic!("{engine}: busy with nothing in flight"),
    }
    drop(e);
    *u = std::mem::replace(&mut units[0], IoUnit::new(0, 1, 1).unwrap());
    u.result
}

#[test]
fn data_written_by_each_engine_reads_back_through_every_other() {
    let file = tempfile::tempfile().unwrap();
    file.set_len((BLOCK * REGISTRY.len()) as u64).unwrap();
    let fd = file.as_raw_fd();
    let real: Vec<&str> = registry::data_engines().collect();
    for (i, writer) in real.iter().enumerate() {
        let mut w = unit(fd, Ddir::Write, (i * BLOCK) as u64);
        w.buf.as_mut_slice().fill(i as u8 + 1);
        assert_eq!(run(writer, &mut w), BLOCK as i64, "{writer} write");
    }
    for (i, writer) in real.iter().enumerate() {
        for reader in &real {
            let mut r = unit(fd, Ddir::Read, (i * BLOCK) as u64);
            assert_eq!(run(reader, &mut r), BLOCK as i64, "{reader} read");
            assert!(
                r.buf.as_slice().iter().all(|&b| b == i as u8 + 1),
                "{reader} read of {writer}'s block"
            );
        }
    }
}

#[test]
fn null_completes_without_touching_the_file() {
    let mut u = unit(-1, Ddir::Write, 0);
    assert_eq!(run("null", &mut u), BLOCK as i64);
}

#[test]
fn errors_come_back_as_negated_errno() {
    let mut u = unit(-1, Ddir::Read, 0);
    assert_eq!(run("psync", &mut u), -i64::from(libc::EBADF));
}

#[test]
fn a_read_past_the_end_is_short() {
    let file = tempfile::tempfile().unwrap();
    file.set_len(100).unwrap();
    let mut u = unit(file.as_raw_fd(), Ddir::Read, 0);
    assert_eq!(run("psync", &mut u), 100);
}

#[test]
fn trim_punches_a_hole_and_sync_succeeds() {
    let file = tempfile::tempfile().unwrap();
    let fd = file.as_raw_fd();
    let mut w = unit(fd, Ddir::Write, 0);
    w.buf.as_mut_slice().fill(7);
    assert_eq!(run("psync", &mut w), BLOCK as i64);
    let mut t = unit(fd, Ddir::Trim, 0);
    let trimmed = run("psync", &mut t);
    if trimmed == -i64::from(libc::EOPNOTSUPP) {
        eprintln!("skipped: this file system cannot punch holes");
        return;
    }
    assert_eq!(trimmed, BLOCK as i64);
    let mut r = unit(fd, Ddir::Read, 0);
    assert_eq!(run("psync", &mut r), BLOCK as i64);
    assert!(r.buf.as_slice().iter().all(|&b| b == 0));
    for ddir in [Ddir::Sync, Ddir::Datasync] {
        let mut s = unit(fd, ddir, 0);
        assert_eq!(run("sync", &mut s), 0);
    }
}

/// The engines that sync a range with `sync_file_range(2)` (the others sync the whole file).
const RANGE_ENGINES: &[&str] =
    &["sync", "psync", "vsync", "pvsync", "pvsync2", "libaio", "threadpool", "guasi", "io_uring"];

fn sync_range(fd: i32, offset: u64, len: usize, flags: u32) -> IoUnit {
    let mut u = unit(fd, Ddir::SyncFileRange, offset);
    u.len = len;
    u.sync_flags = flags;
    u
}

#[test]
fn sync_file_range_syncs_on_every_engine() {
    let file = tempfile::tempfile().unwrap();
    file.set_len(4 * BLOCK as u64).unwrap();
    let fd = file.as_raw_fd();
    let all = libc::SYNC_FILE_RANGE_WAIT_BEFORE
        | libc::SYNC_FILE_RANGE_WRITE
        | libc::SYNC_FILE_RANGE_WAIT_AFTER;
    for engine in registry::data_engines() {
        let mut w = unit(fd, Ddir::Write, BLOCK as u64);
        assert_eq!(run(engine, &mut w), BLOCK as i64, "{engine} write");
        // A range longer than one buffer: the range is not the unit's buffer.
        let mut s = sync_range(fd, 0, 3 * BLOCK, all);
        assert_eq!(run(engine, &mut s), 0, "{engine} sync_file_range");
    }
}

#[test]
fn sync_file_range_passes_its_flags_and_skips_an_empty_range() {
    for engine in RANGE_ENGINES {
        let file = tempfile::tempfile().unwrap();
        let fd = file.as_raw_fd();
        // Flags the kernel does not know reach it, and it refuses them.
        let mut s = sync_range(fd, 0, BLOCK, 0x80);
        assert_eq!(run(engine, &mut s), -i64::from(libc::EINVAL), "{engine} bad flags");
        // A bad descriptor shows that a call is made, and that none is for an empty range.
        let mut s = sync_range(-1, 0, BLOCK, libc::SYNC_FILE_RANGE_WRITE);
        assert_eq!(run(engine, &mut s), -i64::from(libc::EBADF), "{engine} bad fd");
        let mut s = sync_range(-1, 0, 0, libc::SYNC_FILE_RANGE_WRITE);
        assert_eq!(run(engine, &mut s), 0, "{engine} empty range");
    }
    // posixaio syncs the whole file whatever the range, as fio 3.33 does.
    let mut s = sync_range(-1, 0, 0, libc::SYNC_FILE_RANGE_WRITE);
    assert_eq!(run("posixaio", &mut s), -i64::from(libc::EBADF));
}
