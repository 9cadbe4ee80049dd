//! The exact I/O sequences of thousands of random job configurations, pinned by one digest.
//!
//! The generator's sequences are part of iomark's output (the same seed gives the same
//! offsets on every version), so any change to how `Workload::next` works inside, such as
//! a fast path, must leave every sequence as it was. This test runs a few thousand
//! configurations drawn at random over every option the workload reads (modes, `:N`,
//! sequencers, mixes, fixed/range/split block sizes, alignment, several files and service
//! types, budgets, loops, `time_based`, the random map, `percentage_random`), hashes every
//! I/O (direction, file, offset, length) and compares the hash with the one the original
//! generator gave. If the digest changes, a sequence changed.

use iomark_core::{PerDir, RwMode};
use iomark_workload::{
    BlockSizes, FileRegion, FileService, Sequencer, SplitEntry, Workload, WorkloadConfig,
};

/// SplitMix64: the configurations' own generator (independent of the workload's).
struct Draw(u64);

impl Draw {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    fn pick<T: Copy>(&mut self, from: &[T]) -> T {
        from[self.below(from.len() as u64) as usize]
    }
}

const MODES: [RwMode; 10] = [
    RwMode::Read,
    RwMode::Write,
    RwMode::Trim,
    RwMode::RandRead,
    RwMode::RandWrite,
    RwMode::RandTrim,
    RwMode::ReadWrite,
    RwMode::RandReadWrite,
    RwMode::TrimWrite,
    RwMode::RandTrimWrite,
];

fn block_sizes(d: &mut Draw, unit: u64) -> BlockSizes {
    match d.below(10) {
        0..=5 => {
            let most = if d.chance(70) { 1 } else { 4 };
            BlockSizes::Fixed(unit * (1 + d.below(most)))
        }
        6..=7 => {
            let min = unit * (1 + d.below(2));
            let ragged = if d.chance(20) { d.below(unit) } else { 0 };
            BlockSizes::Range { min, max: min * (1 + d.below(4)) + ragged }
        }
        _ => {
            let mut left = 100;
            let entries = (0..1 + d.below(4))
                .map(|_| {
                    let size = unit * (1 + d.below(4));
                    let percent = if d.chance(30) {
                        None
                    } else {
                        let p = d.below(u64::from(left) + 1) as u32;
                        left -= p;
                        Some(p)
                    };
                    SplitEntry { size, percent }
                })
                .collect();
            BlockSizes::Split(entries)
        }
    }
}

/// A random configuration; about 40% are "simple" (one file, one block size, every I/O
/// random), the shape fast paths are made for.
fn config(d: &mut Draw) -> WorkloadConfig {
    let unit = d.pick(&[512, 1024, 4096, 3000]);
    let simple = d.chance(40);
    let nfiles = if simple || d.chance(50) { 1 } else { 1 + d.below(4) };
    let files: Vec<FileRegion> = (0..nfiles)
        .map(|_| {
            let most = if d.chance(10) { 700 } else { 40 };
            let blocks = 1 + d.below(most);
            let tail = if d.chance(30) { d.below(unit) } else { 0 };
            FileRegion::new(d.below(3) * unit * 7, blocks * unit + tail)
        })
        .collect();
    let total: u64 = files.iter().map(|f| f.len).sum();
    let read = block_sizes(d, unit);
    let bs = if simple || d.chance(50) {
        PerDir::all(read)
    } else {
        PerDir { read, write: block_sizes(d, unit), trim: block_sizes(d, unit) }
    };
    let rw = d.pick(&MODES);
    let aligned = !simple && d.chance(15);
    WorkloadConfig {
        rw,
        rw_modifier: match (simple || d.chance(70), rw.is_random()) {
            (true, _) => 0,
            (false, true) => 1 + d.below(5),
            (false, false) => unit * d.below(3),
        },
        rw_sequencer: if d.chance(30) { Sequencer::Identical } else { Sequencer::Sequential },
        rwmixread: if d.chance(20) { d.pick(&[0, 100]) } else { d.below(101) as u32 },
        bs,
        bs_unaligned: d.chance(20),
        blockalign: if aligned {
            PerDir { read: Some(512 * (1 + d.below(8))), write: None, trim: Some(unit) }
        } else {
            PerDir::all(None)
        },
        files,
        file_service: match if simple { 0 } else { d.below(3) } {
            0 => FileService::RoundRobin(if simple { 1 } else { d.below(4) as u32 }),
            1 => FileService::Sequential,
            _ => FileService::Random(d.below(4) as u32),
        },
        io_limit: if d.chance(70) {
            total
        } else {
            total * (1 + d.below(3)) / (1 + d.below(3)) + d.below(unit)
        },
        io_size_given: d.chance(30),
        number_ios: if d.chance(80) { None } else { Some(d.below(200)) },
        loops: if d.chance(70) { 1 } else { d.below(4) as u32 },
        time_based: d.chance(8),
        random_map: d.chance(80) && !aligned,
        seed: d.next(),
        percentage_random: if simple || d.chance(70) {
            PerDir::all(100)
        } else {
            let write = if d.chance(50) { 100 } else { d.below(101) as u32 };
            PerDir { read: d.below(101) as u32, write, trim: d.below(101) as u32 }
        },
        ..WorkloadConfig::default()
    }
}

/// FNV-1a over 64-bit words.
fn mix(hash: &mut u64, word: u64) {
    for byte in word.to_le_bytes() {
        *hash = (*hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3);
    }
}

#[test]
fn sequences_of_random_configurations_are_unchanged() {
    let mut d = Draw(0x1234);
    let mut hash = 0xcbf2_9ce4_8422_2325;
    let (mut jobs, mut ios) = (0, 0);
    for _ in 0..4000 {
        let cfg = config(&mut d);
        let Ok(w) = Workload::new(&cfg) else { continue };
        jobs += 1;
        // time_based jobs and a few budgets never end by themselves: a cap keeps it short.
        for io in w.take(5_000) {
            mix(&mut hash, io.dir.index() as u64);
            mix(&mut hash, io.file as u64);
            mix(&mut hash, io.offset);
            mix(&mut hash, io.len);
            ios += 1;
        }
        mix(&mut hash, u64::MAX);
    }
    // Enough valid jobs and I/Os that the digest means something.
    assert!(jobs > 3_800 && ios > 1_500_000, "{jobs} jobs, {ios} I/Os");
    // Changed once on purpose: a round robin's next pass starts after the file whose end
    // was found last, as in fio 3.33 (it started at file 0).
    assert_eq!(hash, 0x7976_228a_60e6_a644, "{jobs} jobs, {ios} I/Os: a sequence changed");
}
