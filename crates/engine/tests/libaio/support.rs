//! Helpers of the libaio tests: units, files, and a loop that drives an engine as the
//! runner does.

use iomark_core::Ddir;
use iomark_engine::libaio::{abi, LibaioEngine};
use iomark_engine::{create, Engine, EngineOptions, IoUnit, Queued};
use std::fs::{File, OpenOptions};
use std::os::unix::fs::OpenOptionsExt;

/// The size of every I/O.
pub const BLOCK: usize = 4096;

/// Whether the kernel lets this process use Linux AIO; prints why not.
pub fn aio_available() -> bool {
    match abi::io_setup(1) {
        Ok(ctx) => {
            abi::io_destroy(ctx);
            true
        }
        Err(errno) if errno == libc::ENOSYS || errno == libc::EPERM => {
            eprintln!("skipped: io_setup is not available (errno {errno})");
            false
        }
        Err(errno) => panic!("io_setup failed: errno {errno}"),
    }
}

/// A libaio engine of depth `depth`.
pub fn engine(depth: u32, userspace_reap: bool) -> LibaioEngine {
    let options = EngineOptions { iodepth: depth, userspace_reap, ..EngineOptions::default() };
    LibaioEngine::new(&options).unwrap()
}

/// `n` units with 4 KiB buffers, indexed 0..n.
pub fn units(n: usize) -> Vec<IoUnit> {
    (0..n).map(|i| IoUnit::new(i as u32, BLOCK, 4096).unwrap()).collect()
}

/// Points `u` at block `block` of `fd`, for `ddir`, with its result unset.
pub fn fill(u: &mut IoUnit, fd: i32, ddir: Ddir, block: usize) {
    u.fd = fd;
    u.ddir = ddir;
    u.offset = (block * BLOCK) as u64;
    u.len = BLOCK;
    u.result = i64::MIN;
}

/// The byte block `b` is filled with.
pub fn pattern(b: usize) -> u8 {
    (b * 7 + 1) as u8
}

/// Drives `blocks` I/Os of one direction through `e` as the runner does (queue, commit on
/// Queued, reap one when no unit is free, drain at the end); returns each block's result, and
/// checks that reads found `pattern(block)`.
pub fn run_job(
    e: &mut dyn Engine,
    units: &mut [IoUnit],
    fd: i32,
    ddir: Ddir,
    blocks: usize,
) -> Vec<i64> {
    let mut results = vec![i64::MIN; blocks];
    let mut block_of = vec![usize::MAX; units.len()];
    let mut free: Vec<u32> = (0..units.len() as u32).rev().collect();
    let mut done = Vec::with_capacity(units.len());
    let mut in_flight = 0;
    let mut finish = |units: &mut [IoUnit], index: u32, block_of: &[usize]| {
        let u = &units[index as usize];
        let b = block_of[index as usize];
        results[b] = u.result;
        if ddir == Ddir::Read && u.result == BLOCK as i64 {
            assert!(u.buf.as_slice().iter().all(|&x| x == pattern(b)), "block {b} read back");
        }
    };
    let mut next = 0;
    while next < blocks || in_flight > 0 {
        let index = match free.pop() {
            Some(i) if next < blocks => i,
            other => {
                free.extend(other);
                done.clear();
                let n = e.reap(units, 1, in_flight, &mut done).unwrap();
                assert_eq!(n, done.len());
                assert!(n >= 1);
                for &i in &done {
                    finish(units, i, &block_of);
                    free.push(i);
                }
                in_flight -= n;
                continue;
            }
        };
        let u = &mut units[index as usize];
        fill(u, fd, ddir, next);
        // A read's buffer starts with what the block does not hold, so a read that reads
        // nothing cannot pass.
        let byte = if ddir == Ddir::Write { pattern(next) } else { !pattern(next) };
        u.buf.as_mut_slice().fill(byte);
        block_of[index as usize] = next;
        match e.queue(u) {
            Queued::Queued => {
                in_flight += 1;
                assert!(e.commit().unwrap() <= 1);
            }
            Queued::Completed => {
                finish(units, index, &block_of);
                free.push(index);
            }
            Queued::Busy => panic!("busy with a free unit"),
        }
        next += 1;
    }
    results
}

/// A temporary file of `blocks` blocks, removed when dropped.
pub fn temp_file(blocks: usize) -> File {
    let f = tempfile::tempfile().unwrap();
    f.set_len((blocks * BLOCK) as u64).unwrap();
    f
}

/// Does `u` with psync; returns its result.
pub fn psync(u: &mut IoUnit) -> i64 {
    let mut e = create("psync", &EngineOptions::default()).unwrap();
    assert_eq!(e.queue(u), Queued::Completed);
    u.result
}

/// A temporary file open with `O_DIRECT`, or `None` (with a message) where that is refused.
pub fn direct_file(dir: &tempfile::TempDir, blocks: usize) -> Option<File> {
    let path = dir.path().join("direct");
    let f = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(true)
        .custom_flags(libc::O_DIRECT)
        .open(&path);
    match f {
        Ok(f) => {
            f.set_len((blocks * BLOCK) as u64).unwrap();
            Some(f)
        }
        Err(e) => {
            eprintln!("skipped: O_DIRECT refused on the temporary directory: {e}");
            None
        }
    }
}
