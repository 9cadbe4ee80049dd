//! The matcher allocates nothing in a steady run: after a warm-up, 960,000 records and
//! 240,000 I/Os (8 in flight at a time, pruned as the tracer prunes) take no allocation.
//! A counting allocator stands in for the system's in this test binary alone (its
//! `unsafe` is the allocator trait's, each block with a SAFETY line).
#![allow(unsafe_code)]

use iomark_blklat::matcher::{Event, MappedIo, Matcher, Range};
use iomark_blklat::tracefs::Kind;
use iomark_core::Ddir;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};

struct Counting;

static ALLOCS: AtomicU64 = AtomicU64::new(0);

// SAFETY: every call is handed to the system allocator unchanged; only a count is added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: the caller's layout, passed on.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: a pointer this allocator (the system's) gave out, with its layout.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, size: usize) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: as above.
        unsafe { System.realloc(ptr, layout, size) }
    }
}

#[global_allocator]
static A: Counting = Counting;

const DEV: u32 = 7 << 20;

/// `n` rounds of 8 reads in flight at once: their Q, I, D, C, then the 8 I/Os.
fn run(m: &mut Matcher, io: &mut MappedIo, first: u64, n: u64) {
    for round in first..first + n {
        let t0 = round * 100_000;
        let ev = |kind, i: u64, time| Event {
            kind,
            dev: DEV,
            sector: (round * 7919 + i * 104_729) % (1 << 24) * 8,
            nr: 8,
            time,
            op: Some(Ddir::Read),
        };
        for i in 0..8 {
            m.add(ev(Kind::Queue, i, t0 + 1_000 + i * 10));
            m.add(ev(Kind::Insert, i, t0 + 1_500 + i * 10));
            m.add(ev(Kind::Issue, i, t0 + 2_000 + i * 10));
        }
        for i in 0..8 {
            m.add(ev(Kind::Complete, i, t0 + 50_000 + i * 10));
        }
        for i in 0..8 {
            io.ranges[0].sector = ev(Kind::Queue, i, 0).sector;
            (io.issue, io.done) = (t0 + 500, t0 + 60_000);
            m.io(io);
        }
        if round % 64 == 0 {
            m.prune(t0.saturating_sub(20_000_000));
        }
    }
}

#[test]
fn a_steady_run_allocates_nothing_in_the_matcher() {
    let mut m = Matcher::default();
    let mut io = MappedIo {
        dir: Ddir::Read,
        ranges: vec![Range { dev: DEV, sector: 0, nr: 8 }],
        issue: 0,
        done: 0,
        direct: true,
    };
    run(&mut m, &mut io, 1, 2_000);
    let before = ALLOCS.load(Ordering::Relaxed);
    run(&mut m, &mut io, 2_001, 30_000);
    let after = ALLOCS.load(Ordering::Relaxed);
    assert_eq!(m.rec.counts.matched, 32_000 * 8, "{:?}", m.rec.counts);
    assert_eq!(after - before, 0, "allocations in a steady run");
}
