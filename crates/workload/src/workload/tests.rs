//! The shortcut of the commonest random jobs and pausing between passes, against the
//! general path on many random configurations.

use super::*;
use crate::bs::BlockSizes;
use crate::files::FileService;
use crate::region::FileRegion;
use crate::rng::Rng;
use iomark_core::PerDir;

/// Random configurations around the shortcut's conditions: random modes, fixed sizes
/// (mostly the map block), several files and services, budgets, loops, `:N` and
/// `percentage_random` now and then.
fn config(rng: &mut Rng) -> WorkloadConfig {
    let unit = [512, 4096, 3000][rng.below(3) as usize];
    let files: Vec<FileRegion> = (0..1 + rng.below(3))
        .map(|_| {
            let len = (1 + rng.below(300)) * unit + rng.below(2) * rng.below(unit);
            let reach = len + rng.below(2) * rng.below(3 * unit);
            FileRegion { offset: rng.below(4) * unit, len, reach }
        })
        .collect();
    let total: u64 = files.iter().map(|f| f.len).sum();
    let modes = [
        RwMode::RandRead,
        RwMode::RandWrite,
        RwMode::RandTrim,
        RwMode::RandReadWrite,
        RwMode::RandTrimWrite,
        RwMode::Read,
    ];
    let mut cfg = WorkloadConfig {
        rw: modes[rng.below(6) as usize],
        bs: PerDir::all(BlockSizes::Fixed(unit)),
        files,
        file_service: [FileService::RoundRobin(1), FileService::Sequential, FileService::Random(2)]
            [rng.below(3) as usize],
        io_limit: total * (1 + rng.below(3)) / 2,
        io_size_given: rng.below(2) == 0,
        number_ios: [None, Some(rng.below(500))][rng.below(2) as usize],
        loops: 1 + rng.below(3) as u32,
        random_map: rng.below(8) != 0,
        seed: rng.next_u64(),
        ..WorkloadConfig::default()
    };
    match rng.below(10) {
        0 => cfg.rw_modifier = 1 + rng.below(3),
        1 => cfg.percentage_random.write = rng.below(101) as u32,
        2 => cfg.bs.read = BlockSizes::Fixed(2 * unit),
        3 => cfg.bs.write = BlockSizes::Range { min: unit, max: 3 * unit },
        _ => {}
    }
    cfg
}

#[test]
fn shortcut_and_general_path_agree() {
    let mut rng = Rng::from_seed(0x5eed);
    let mut shortcuts = 0;
    for i in 0..3000 {
        let cfg = config(&mut rng);
        let Ok(fast) = Workload::new(&cfg) else { continue };
        shortcuts += usize::from(fast.one_block);
        let general = Workload { one_block: false, ..fast.clone() };
        assert_eq!(general.fast_left, 0);
        let (a, b): (Vec<IoRequest>, Vec<IoRequest>) =
            (fast.take(20_000).collect(), general.take(20_000).collect());
        assert_eq!(a, b, "configuration {i}: {cfg:?}");
    }
    assert!(shortcuts > 1000, "only {shortcuts} configurations took the shortcut");
}

#[test]
fn pausing_between_passes_splits_the_same_sequence() {
    let mut rng = Rng::from_seed(0xc0ffee);
    for i in 0..300 {
        let cfg = config(&mut rng);
        let Ok(plain) = Workload::new(&cfg) else { continue };
        let mut paused = plain.clone();
        paused.pause_between_passes();
        let whole: Vec<IoRequest> = plain.take(20_000).collect();
        let mut parts = Vec::new();
        let mut pauses = 0;
        loop {
            parts.extend(paused.by_ref().take(20_000 - parts.len()));
            if parts.len() >= 20_000 {
                break;
            }
            // The loops left are known before the pass count moves on.
            let left = paused.loops_left();
            if !paused.next_pass() {
                break;
            }
            pauses += 1;
            assert!(left || cfg.io_size_given, "configuration {i}: a pass beyond loops");
        }
        assert_eq!(whole, parts, "configuration {i}: {cfg:?}");
        assert!(pauses < 20_000);
    }
}
