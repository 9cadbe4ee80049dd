//! The `mmap` engine against real files: data through the mapping matches data through
//! `pread`/`pwrite`, bad I/O is refused without touching memory, and `msync` really writes
//! the pages back (seen in `/proc/self/smaps`: a written page of a shared mapping stays
//! dirty until it is written back).

use iomark_core::Ddir;
use iomark_engine::{create, Engine, EngineOptions, IoUnit, Queued};
use std::fs::{File, OpenOptions};
use std::os::fd::AsRawFd;
use std::os::unix::fs::FileExt;
use std::path::Path;

const BLOCK: usize = 4096;

fn engine(options: EngineOptions) -> Box<dyn Engine> {
    create("mmap", &options).unwrap()
}

fn unit(file: u32, fd: i32, ddir: Ddir, offset: u64, len: usize) -> IoUnit {
    let mut u = IoUnit::new(0, BLOCK, 4096).unwrap();
    u.file = file;
    u.fd = fd;
    u.ddir = ddir;
    u.offset = offset;
    u.len = len;
    u.result = i64::MIN;
    u
}

fn run(e: &mut dyn Engine, u: &mut IoUnit) -> i64 {
    assert_eq!(e.queue(u), Queued::Completed);
    u.result
}

fn pattern(block: u64) -> Vec<u8> {
    (0..BLOCK).map(|i| (block as usize * 31 + i * 7 % 251) as u8).collect()
}

/// A temporary file of `blocks` blocks of `pattern`, open read-write.
fn file_of(blocks: u64) -> (tempfile::NamedTempFile, File) {
    let tmp = tempfile::NamedTempFile::new().unwrap();
    let file = OpenOptions::new().read(true).write(true).open(tmp.path()).unwrap();
    for b in 0..blocks {
        file.write_all_at(&pattern(b), b * BLOCK as u64).unwrap();
    }
    file.sync_all().unwrap();
    (tmp, file)
}

/// Dirty kilobytes of this process's mappings of `path` (`Shared_Dirty` + `Private_Dirty`).
fn dirty_kb(path: &Path) -> u64 {
    let smaps = std::fs::read_to_string("/proc/self/smaps").unwrap();
    let name = path.to_str().unwrap();
    let mut inside = false;
    let mut kb = 0;
    for line in smaps.lines() {
        let first = line.split_whitespace().next().unwrap_or("");
        if first.contains('-') && !first.ends_with(':') {
            inside = line.ends_with(name);
        } else if inside && (first == "Shared_Dirty:" || first == "Private_Dirty:") {
            kb += line.split_whitespace().nth(1).unwrap().parse::<u64>().unwrap();
        }
    }
    kb
}

#[test]
fn data_written_through_the_map_reads_back_with_psync_and_back() {
    let (_tmp, file) = file_of(4);
    let fd = file.as_raw_fd();
    let mut e = engine(EngineOptions::default());
    e.setup(&mut [], &[fd]).unwrap();
    // mmap reads what pwrite wrote, including an unaligned range.
    let mut r = unit(0, fd, Ddir::Read, 2 * BLOCK as u64, BLOCK);
    assert_eq!(run(&mut *e, &mut r), BLOCK as i64);
    assert_eq!(r.buf.as_slice(), &pattern(2)[..]);
    let mut r = unit(0, fd, Ddir::Read, BLOCK as u64 + 100, 1000);
    assert_eq!(run(&mut *e, &mut r), 1000);
    assert_eq!(r.buf.as_slice()[..1000], pattern(1)[100..1100]);
    // pread reads what the mapping was given.
    let mut w = unit(0, fd, Ddir::Write, 3 * BLOCK as u64, BLOCK);
    w.buf.as_mut_slice().copy_from_slice(&pattern(77));
    assert_eq!(run(&mut *e, &mut w), BLOCK as i64);
    let mut w = unit(0, fd, Ddir::Write, 10, 20);
    w.buf.as_mut_slice()[..20].copy_from_slice(&[0xee; 20]);
    assert_eq!(run(&mut *e, &mut w), 20);
    let mut psync = create("psync", &EngineOptions::default()).unwrap();
    let mut r = unit(0, fd, Ddir::Read, 3 * BLOCK as u64, BLOCK);
    assert_eq!(run(&mut *psync, &mut r), BLOCK as i64);
    assert_eq!(r.buf.as_slice(), &pattern(77)[..]);
    let mut r = unit(0, fd, Ddir::Read, 0, BLOCK);
    assert_eq!(run(&mut *psync, &mut r), BLOCK as i64);
    let mut want = pattern(0);
    want[10..30].fill(0xee);
    assert_eq!(r.buf.as_slice(), &want[..]);
    // And after pwrite changes a block, the mapping shows the change at once.
    file.write_all_at(&pattern(99), BLOCK as u64).unwrap();
    let mut r = unit(0, fd, Ddir::Read, BLOCK as u64, BLOCK);
    assert_eq!(run(&mut *e, &mut r), BLOCK as i64);
    assert_eq!(r.buf.as_slice(), &pattern(99)[..]);
    assert_eq!(file.metadata().unwrap().len(), 4 * BLOCK as u64, "the size never changes");
}

#[test]
fn each_file_has_its_own_mapping() {
    let (_a, fa) = file_of(1);
    let (_b, fb) = file_of(2);
    let mut e = engine(EngineOptions::default());
    e.setup(&mut [], &[fa.as_raw_fd(), fb.as_raw_fd()]).unwrap();
    let mut w = unit(1, fb.as_raw_fd(), Ddir::Write, BLOCK as u64, BLOCK);
    w.buf.as_mut_slice().copy_from_slice(&pattern(5));
    assert_eq!(run(&mut *e, &mut w), BLOCK as i64);
    let mut got = vec![0; BLOCK];
    fb.read_exact_at(&mut got, BLOCK as u64).unwrap();
    assert_eq!(got, pattern(5));
    // The first file is one block long: its second block is out of range.
    let mut r = unit(0, fa.as_raw_fd(), Ddir::Read, BLOCK as u64, BLOCK);
    assert_eq!(run(&mut *e, &mut r), -i64::from(libc::EINVAL));
}

#[test]
fn a_file_open_read_only_is_never_written() {
    let (tmp, _rw) = file_of(1);
    let ro = File::open(tmp.path()).unwrap();
    let mut e = engine(EngineOptions::default());
    e.setup(&mut [], &[ro.as_raw_fd()]).unwrap();
    let mut w = unit(0, ro.as_raw_fd(), Ddir::Write, 0, BLOCK);
    w.buf.as_mut_slice().fill(0x55);
    assert_eq!(run(&mut *e, &mut w), -i64::from(libc::EBADF));
    let mut r = unit(0, ro.as_raw_fd(), Ddir::Read, 0, BLOCK);
    assert_eq!(run(&mut *e, &mut r), BLOCK as i64);
    assert_eq!(r.buf.as_slice(), &pattern(0)[..]);
}

#[test]
fn a_file_open_write_only_cannot_be_mapped() {
    let (tmp, _rw) = file_of(1);
    let wo = OpenOptions::new().write(true).open(tmp.path()).unwrap();
    let mut e = engine(EngineOptions::default());
    let err = e.setup(&mut [], &[wo.as_raw_fd()]).unwrap_err();
    assert!(err.message.contains("write-only"), "{err}");
}

#[test]
fn io_outside_the_mapping_is_refused() {
    let (_tmp, file) = file_of(2);
    let fd = file.as_raw_fd();
    let mut e = engine(EngineOptions::default());
    e.setup(&mut [], &[fd, -1]).unwrap();
    let einval = -i64::from(libc::EINVAL);
    let size = 2 * BLOCK as u64;
    for ddir in [Ddir::Read, Ddir::Write, Ddir::Trim] {
        for (offset, len) in [(size - 1, 2), (size, 1), (size + BLOCK as u64, BLOCK), (u64::MAX, 1)]
        {
            let mut u = unit(0, fd, ddir, offset, len);
            assert_eq!(run(&mut *e, &mut u), einval, "{ddir:?} {len} at {offset}");
        }
    }
    // The last byte is inside; an empty I/O at the end is too.
    let mut u = unit(0, fd, Ddir::Read, size - 1, 1);
    assert_eq!(run(&mut *e, &mut u), 1);
    assert_eq!(u.buf.as_slice()[0], pattern(1)[BLOCK - 1]);
    let mut u = unit(0, fd, Ddir::Write, size, 0);
    assert_eq!(run(&mut *e, &mut u), 0);
    // A file index with no file (-1) or none at all.
    for file_index in [1, 2] {
        let mut u = unit(file_index, -1, Ddir::Read, 0, 1);
        assert_eq!(run(&mut *e, &mut u), -i64::from(libc::EBADF));
    }
    let mut got = vec![0; 2 * BLOCK];
    file.read_exact_at(&mut got, 0).unwrap();
    assert_eq!(got[..BLOCK], pattern(0)[..], "refused writes left the file alone");
    assert_eq!(got[BLOCK..], pattern(1)[..]);
}

#[test]
fn an_empty_file_maps_nothing_and_every_io_fails() {
    let (_tmp, file) = file_of(0);
    let fd = file.as_raw_fd();
    let mut e = engine(EngineOptions::default());
    e.setup(&mut [], &[fd]).unwrap();
    for ddir in [Ddir::Read, Ddir::Write, Ddir::Trim, Ddir::Sync, Ddir::Datasync] {
        let mut u = unit(0, fd, ddir, 0, 0);
        assert_eq!(run(&mut *e, &mut u), -i64::from(libc::EINVAL), "{ddir:?}");
    }
}

#[test]
fn sync_and_datasync_write_the_dirty_pages_back() {
    let (tmp, file) = file_of(4);
    let fd = file.as_raw_fd();
    let mut e = engine(EngineOptions::default());
    e.setup(&mut [], &[fd]).unwrap();
    for ddir in [Ddir::Sync, Ddir::Datasync] {
        for b in [0, 3] {
            let mut w = unit(0, fd, Ddir::Write, b * BLOCK as u64, BLOCK);
            w.buf.as_mut_slice().copy_from_slice(&pattern(b + 40));
            assert_eq!(run(&mut *e, &mut w), BLOCK as i64);
        }
        if dirty_kb(tmp.path()) == 0 {
            eprintln!("skipped: the pages were written back before the check (or no smaps)");
            return;
        }
        let mut s = unit(0, fd, ddir, 0, 0);
        assert_eq!(run(&mut *e, &mut s), 0);
        assert_eq!(dirty_kb(tmp.path()), 0, "{ddir:?} left dirty pages");
    }
}

#[test]
fn the_sync_option_writes_back_each_written_range() {
    let (tmp, file) = file_of(4);
    let fd = file.as_raw_fd();
    // Without `sync` a write leaves its page dirty...
    let mut plain = engine(EngineOptions::default());
    plain.setup(&mut [], &[fd]).unwrap();
    let mut w = unit(0, fd, Ddir::Write, 100, 200);
    assert_eq!(run(&mut *plain, &mut w), 200);
    if dirty_kb(tmp.path()) == 0 {
        eprintln!("skipped: the page was written back before the check (or no smaps)");
        return;
    }
    drop(plain);
    // ...with it (and with `direct`, as fio does), none: an unaligned write that spans two
    // pages writes both back.
    for options in [
        EngineOptions { sync_writes: true, ..EngineOptions::default() },
        EngineOptions { direct: true, ..EngineOptions::default() },
    ] {
        let mut e = engine(options);
        e.setup(&mut [], &[fd]).unwrap();
        let mut w = unit(0, fd, Ddir::Write, BLOCK as u64 + 3000, 3000);
        w.buf.as_mut_slice()[..3000].fill(0xab);
        assert_eq!(run(&mut *e, &mut w), 3000);
        assert_eq!(dirty_kb(tmp.path()), 0, "a written page is still dirty");
        let mut got = vec![0; 3000];
        file.read_exact_at(&mut got, BLOCK as u64 + 3000).unwrap();
        assert!(got.iter().all(|&b| b == 0xab));
    }
}

#[test]
fn trim_punches_a_hole_that_the_mapping_shows() {
    let (_tmp, file) = file_of(3);
    let fd = file.as_raw_fd();
    let mut e = engine(EngineOptions::default());
    e.setup(&mut [], &[fd]).unwrap();
    // Dirty the middle block through the map first: the hole must win over it.
    let mut w = unit(0, fd, Ddir::Write, BLOCK as u64, BLOCK);
    w.buf.as_mut_slice().fill(0x77);
    assert_eq!(run(&mut *e, &mut w), BLOCK as i64);
    let mut t = unit(0, fd, Ddir::Trim, BLOCK as u64, BLOCK);
    let trimmed = run(&mut *e, &mut t);
    if trimmed == -i64::from(libc::EOPNOTSUPP) {
        eprintln!("skipped: this file system cannot punch holes");
        return;
    }
    assert_eq!(trimmed, BLOCK as i64);
    let mut r = unit(0, fd, Ddir::Read, 0, 3 * BLOCK);
    r.buf = iomark_engine::AlignedBuf::new(3 * BLOCK, 4096).unwrap();
    assert_eq!(run(&mut *e, &mut r), 3 * BLOCK as i64);
    let got = r.buf.as_slice();
    assert_eq!(got[..BLOCK], pattern(0)[..]);
    assert!(got[BLOCK..2 * BLOCK].iter().all(|&b| b == 0), "the hole reads as zeros");
    assert_eq!(got[2 * BLOCK..], pattern(2)[..]);
    assert_eq!(file.metadata().unwrap().len(), 3 * BLOCK as u64, "a trim keeps the size");
}

#[test]
fn setup_again_remaps_to_the_new_size() {
    let (_tmp, file) = file_of(1);
    let fd = file.as_raw_fd();
    let mut e = engine(EngineOptions::default());
    e.setup(&mut [], &[fd]).unwrap();
    file.write_all_at(&pattern(1), BLOCK as u64).unwrap();
    let mut r = unit(0, fd, Ddir::Read, BLOCK as u64, BLOCK);
    assert_eq!(run(&mut *e, &mut r), -i64::from(libc::EINVAL), "mapped at the old size");
    e.setup(&mut [], &[fd]).unwrap();
    assert_eq!(run(&mut *e, &mut r), BLOCK as i64);
    assert_eq!(r.buf.as_slice(), &pattern(1)[..]);
}
