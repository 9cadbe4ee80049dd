//! The buffer filler against what fio 3.33 writes: contents by option, refills, scrambles,
//! compressible chunks and deduplication, with fixed seeds.

use super::*;
use crate::FioSeeds;
use std::collections::HashMap;

fn plain() -> BufferOptions {
    BufferOptions { scramble_buffers: false, ..BufferOptions::default() }
}

fn pattern(bytes: &[u8]) -> Option<Pattern> {
    Some(Pattern::from_bytes(bytes).unwrap())
}

/// Runs `writes` refilled writes of `bs` bytes and returns them.
fn writes(opts: BufferOptions, bs: usize, writes: usize) -> Vec<Vec<u8>> {
    let mut f = BufferFiller::new(opts, 42, &FioSeeds::default());
    let mut buf = vec![0u8; bs];
    f.initial_fill(&mut buf);
    (0..writes)
        .map(|i| {
            f.prepare_write(&mut buf, (i * bs) as u64);
            buf.clone()
        })
        .collect()
}

#[test]
fn zero_buffers_stay_zero_unless_scrambling_is_asked_for() {
    let zero = BufferOptions { zero_buffers: true, ..plain() };
    let mut f = BufferFiller::new(zero, 1, &FioSeeds::default());
    let mut buf = [0xffu8; 4096];
    f.initial_fill(&mut buf);
    f.prepare_write(&mut buf, 8192);
    assert!(buf.iter().all(|&b| b == 0));
    // fio 3.33: `zero_buffers scramble_buffers=1` writes scrambled zeros.
    let mut f = BufferFiller::new(
        BufferOptions { scramble_buffers: true, ..zero },
        1,
        &FioSeeds::default(),
    );
    f.initial_fill(&mut buf);
    f.prepare_write(&mut buf, 8192);
    assert_eq!(buf[..8], 8192u64.to_le_bytes());
    assert!(buf[16..512].iter().all(|&b| b == 0));
}

#[test]
fn scramble_makes_every_write_and_sector_differ() {
    let mut f = BufferFiller::new(BufferOptions::default(), 1, &FioSeeds::default());
    let mut buf = [0u8; 4096];
    f.initial_fill(&mut buf);
    let base = buf;
    f.prepare_write(&mut buf, 0);
    let first = buf;
    f.prepare_write(&mut buf, 0);
    assert_ne!(first, buf, "same offset, two writes");
    assert_eq!(first[16..512], base[16..512], "only the stamp changes");
    let sectors: Vec<&[u8]> = first.chunks(512).collect();
    for (i, a) in sectors.iter().enumerate() {
        for b in &sectors[i + 1..] {
            assert_ne!(a, b);
        }
    }
}

#[test]
fn stamps_are_the_offset_then_the_stamp_cut_to_the_sector() {
    for len in [0, 1, 7, 8, 9, 15, 16, 17, 511, 512, 513, 520, 527, 528, 4096] {
        let mut f = BufferFiller::new(BufferOptions::default(), 3, &FioSeeds::default());
        let mut stamp_rng = f.rng.clone();
        let mut buf = vec![0xaa; len];
        f.prepare_write(&mut buf, 0x0102_0304_0506_0708);
        // The rule written out byte by byte.
        let stamp = stamp_rng.next_u64().to_le_bytes();
        let mut want = vec![0xaa; len];
        for (i, sector) in want.chunks_mut(SCRAMBLE_SECTOR).enumerate() {
            let at = (0x0102_0304_0506_0708 + (i * SCRAMBLE_SECTOR) as u64).to_le_bytes();
            for (j, byte) in sector.iter_mut().take(16).enumerate() {
                *byte = if j < 8 { at[j] } else { stamp[j - 8] };
            }
        }
        assert_eq!(buf, want, "{len} bytes");
    }
}

#[test]
fn refill_replaces_the_whole_buffer() {
    let opts = BufferOptions { refill_buffers: true, ..BufferOptions::default() };
    let mut f = BufferFiller::new(opts, 1, &FioSeeds::default());
    let mut buf = [0u8; 1024];
    f.prepare_write(&mut buf, 0);
    let before = buf;
    f.prepare_write(&mut buf, 0);
    let same = before.iter().zip(buf.iter()).filter(|(a, b)| a == b).count();
    assert!(same < 32, "{same} bytes unchanged");
}

#[test]
fn units_take_fio_3_33_seeds_and_reads_are_written_back() {
    // fio 3.33, `--rw=write --bs=4k --refill_buffers` (randseed 0x89, job 1): the first 8
    // bytes of the unit's initial data and of the first two writes.
    let opts = BufferOptions { refill_buffers: true, scramble_buffers: false, ..plain() };
    let mut f = BufferFiller::new(opts, 9, &FioSeeds::default());
    let mut buf = [0u8; 4096];
    f.initial_fill(&mut buf);
    assert_eq!(buf[..8], 0x1699_a038_cc28_e035u64.to_le_bytes());
    f.prepare_write(&mut buf, 0);
    assert_eq!(buf[..8], 0xc55f_add3_4809_71a8u64.to_le_bytes());
    assert_eq!(buf[8..16], 0x8abf_5ba6_9012_e350u64.to_le_bytes(), "twice the first word");
    f.prepare_write(&mut buf, 4096);
    assert_eq!(buf[..8], 0x93f9_2f4b_973c_e2a1u64.to_le_bytes());
    // A read's data is written back as it is.
    buf.fill(0x55);
    f.after_read(&mut buf);
    assert!(buf.iter().all(|&b| b == 0x55));
}

#[test]
fn the_tail_of_a_fill_takes_single_words_then_bytes() {
    // fio 3.33 with `buffer_compress_percentage=70 buffer_pattern=0xdead`: a random part of
    // 153 bytes is 4 groups, 3 words of their own and the first byte of the next.
    let seed = 0x0123_4567_89ab_cdefu64;
    let mut long = [0u8; 256];
    fio_fill(&mut long, seed);
    let mut short = [0u8; 153];
    fio_fill(&mut short, seed);
    assert_eq!(short[..128], long[..128]);
    let mut b = seed;
    for _ in 0..4 {
        b = b.wrapping_mul(FILL_STEP);
    }
    for w in 0..3 {
        assert_eq!(short[128 + 8 * w..136 + 8 * w], b.to_le_bytes(), "word {w}");
        b = b.wrapping_mul(FILL_STEP);
    }
    assert_eq!(short[152], b.to_le_bytes()[0]);
}

#[test]
fn a_pattern_is_written_exactly_and_restored_after_a_read() {
    let opts = BufferOptions { pattern: pattern(b"\xde\xad\xfa\xceabc"), ..plain() };
    let mut f = BufferFiller::new(opts, 1, &FioSeeds::default());
    let mut buf = vec![0u8; 4096];
    f.initial_fill(&mut buf);
    let want: Vec<u8> = b"\xde\xad\xfa\xceabc".iter().copied().cycle().take(4096).collect();
    assert_eq!(buf, want);
    for len in [4096, 1000, 7, 1] {
        f.prepare_write(&mut buf[..len], 0);
        assert_eq!(buf[..len], want[..len]);
    }
    buf.fill(0x11); // a read came in
    f.after_read(&mut buf);
    assert_eq!(buf, want);
    // fio 3.33: refill_buffers and zero_buffers leave the pattern as it is.
    let opts = BufferOptions { refill_buffers: true, zero_buffers: true, ..opts };
    assert!(writes(opts, 4096, 3).iter().all(|w| *w == want));
}

#[test]
fn compressible_chunks_are_random_then_fixed() {
    // fio 3.33, bs=4k: p=50 → 256 random + 256 zeros per 512; p=30 → 358 + 154;
    // p=40 chunk=3000 → 1800 + 1200, then the short chunk 657 + 439; chunk=0 → the block.
    for (percent, chunk, bs, want) in [
        (50, 512, 4096, vec![(512, 256); 8]),
        (30, 512, 4096, vec![(512, 358); 8]),
        (90, 512, 4096, vec![(512, 51); 8]),
        (40, 3000, 4096, vec![(3000, 1800), (1096, 657)]),
        (40, 0, 4096, vec![(4096, 2457)]),
        (40, 8192, 4096, vec![(4096, 2457)]),
        (40, 1024, 4096, vec![(1024, 614); 4]),
        (0, 512, 1024, vec![(512, 512); 2]),
    ] {
        let opts = BufferOptions {
            compress_percentage: Some(percent),
            compress_chunk: chunk,
            refill_buffers: true,
            ..BufferOptions::default()
        };
        for block in writes(opts, bs, 3) {
            let mut at = 0;
            for &(len, random) in &want {
                let piece = &block[at..at + len];
                assert!(piece[random..].iter().all(|&b| b == 0), "p={percent} chunk={chunk}");
                // Random bytes are zero 1 in 256 times; the last few must not all be.
                assert!(
                    random == 0 || piece[random.saturating_sub(4)..random].iter().any(|&b| b != 0)
                );
                at += len;
            }
            assert_eq!(at, bs);
        }
    }
}

#[test]
fn the_fixed_part_is_the_pattern_restarted_per_chunk_or_running_at_100() {
    let pat = b"abcdefg";
    let opts = BufferOptions {
        compress_percentage: Some(40),
        refill_buffers: true,
        pattern: pattern(pat),
        ..BufferOptions::default()
    };
    for block in writes(opts, 4096, 2) {
        for chunk in block.chunks(512) {
            // fio 3.33: 307 random bytes, then the pattern from its first byte.
            assert!(chunk[300..307].iter().any(|&b| b != 0));
            let tail: Vec<u8> = pat.iter().copied().cycle().take(205).collect();
            assert_eq!(chunk[307..], tail[..]);
        }
    }
    let full = BufferOptions { compress_percentage: Some(100), ..opts };
    let want: Vec<u8> = pat.iter().copied().cycle().take(4096).collect();
    assert!(writes(full, 4096, 2).iter().all(|w| *w == want));
    let zeros = BufferOptions { pattern: None, ..full };
    assert!(writes(zeros, 4096, 2).iter().all(|w| w.iter().all(|&b| b == 0)));
}

#[test]
fn without_refill_generated_data_is_written_unchanged() {
    // fio 3.33: `buffer_compress_percentage=50 refill_buffers=0` writes one block over and
    // over, unscrambled even with scramble_buffers=1.
    let opts = BufferOptions {
        compress_percentage: Some(50),
        refill_buffers: false,
        scramble_buffers: true,
        ..BufferOptions::default()
    };
    let blocks = writes(opts, 4096, 4);
    assert!(blocks.iter().all(|b| *b == blocks[0]));
    assert!(blocks[0][256..512].iter().all(|&b| b == 0));
}

/// For each write, the index of the first earlier write with the same data, if any.
fn first_copies(blocks: &[Vec<u8>]) -> Vec<Option<usize>> {
    let mut first: HashMap<&[u8], usize> = HashMap::new();
    blocks
        .iter()
        .enumerate()
        .map(|(i, b)| {
            first.get(&b[..]).copied().or_else(|| {
                first.insert(b, i);
                None
            })
        })
        .collect()
}

fn dedupe(percentage: u32, mode: DedupeMode, global: bool) -> BufferOptions {
    BufferOptions {
        refill_buffers: true,
        dedupe: Some(Dedupe { percentage, mode, global }),
        ..BufferOptions::default()
    }
}

#[test]
fn dedupe_repeat_repeats_the_last_unique_write() {
    let blocks = writes(dedupe(50, DedupeMode::Repeat, false), 512, 2000);
    let copies = first_copies(&blocks);
    let dups = copies.iter().filter(|c| c.is_some()).count();
    // 2000 draws at p=0.5: the standard deviation is 22; ±100 is more than 4 of them.
    assert!((900..=1100).contains(&dups), "{dups} duplicates of 2000");
    for (i, copy) in copies.iter().enumerate() {
        if copy.is_some() {
            assert_eq!(blocks[i], blocks[i - 1], "write {i} repeats the write before it");
        }
    }
    let all = writes(dedupe(100, DedupeMode::Repeat, false), 512, 50);
    assert!(all.iter().all(|b| *b == all[0]));
    let none = writes(dedupe(0, DedupeMode::Repeat, false), 512, 50);
    assert!(first_copies(&none).iter().all(Option::is_none));
}

#[test]
fn dedupe_working_set_draws_from_the_first_unique_writes() {
    let mode = DedupeMode::WorkingSet { buffers: 51, block: 512 };
    let blocks = writes(dedupe(50, mode, false), 512, 1024);
    let copies = first_copies(&blocks);
    let dups = copies.iter().filter(|c| c.is_some()).count();
    assert!((440..=584).contains(&dups), "{dups} duplicates of 1024");
    let uniques: Vec<usize> = (0..blocks.len()).filter(|&i| copies[i].is_none()).collect();
    let sources: std::collections::BTreeSet<usize> = copies.iter().flatten().copied().collect();
    assert!(sources.iter().all(|s| uniques[..51].contains(s)), "sources {sources:?}");
    assert!(sources.len() > 40, "most of the working set is used: {}", sources.len());
}

#[test]
fn dedupe_global_shares_the_working_set_between_jobs() {
    let mode = DedupeMode::WorkingSet { buffers: 12, block: 512 };
    let run = |seed, global| {
        let seeds = FioSeeds::repeatable(seed, 1);
        let mut f = BufferFiller::new(dedupe(50, mode, global), seed, &seeds);
        let mut buf = [0u8; 512];
        (0..256)
            .map(|_| {
                f.prepare_write(&mut buf, 0);
                buf
            })
            .collect::<std::collections::HashSet<_>>()
    };
    let shared = run(1, true).intersection(&run(2, true)).count();
    assert_eq!(shared, 12, "the working set, in both jobs");
    assert_eq!(run(1, false).intersection(&run(2, false)).count(), 0);
}

#[test]
fn working_set_size_follows_fio() {
    assert_eq!(Dedupe::working_set_buffers(5, 4 << 20, 4096), 51);
    assert_eq!(Dedupe::working_set_buffers(20, 4 << 20, 4096), 204);
    assert_eq!(Dedupe::working_set_buffers(5, 1 << 20, 4096), 12);
    assert_eq!(Dedupe::working_set_buffers(1, 4096, 4096), 1);
}

#[test]
fn dedupe_is_fio_3_33s() {
    // fio 3.33 `--rw=write --bs=4k --size=256k --dedupe_percentage=30` (default seed):
    // blocks 3 and 4 repeat block 2, block 6 block 5, block 12 block 11; the first block's
    // data comes after the unit's fill (8 chunks of 512 bytes, 16 draws).
    let blocks = writes(dedupe(30, DedupeMode::Repeat, false), 4096, 16);
    let copies = first_copies(&blocks);
    let want: Vec<Option<usize>> = (0..16)
        .map(|i| match i {
            3 | 4 => Some(2),
            6 => Some(5),
            12 => Some(11),
            _ => None,
        })
        .collect();
    assert_eq!(copies, want);
    let mut buffer = FioSeeds::default().rng(crate::FioStream::Buffers);
    for _ in 0..16 {
        buffer.next_raw();
    }
    let mut first = [0u8; 8];
    fio_fill(&mut first, next_seed(&mut buffer));
    assert_eq!(blocks[0][..8], first);
}
