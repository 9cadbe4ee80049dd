//! `random_distribution` through the whole workload: counts that fio 3.33 gives, shares per
//! zone and per rank with fixed seeds and stated tolerances, and repeatable sequences.
//!
//! "fio:" comments record what fio 3.33 did, measured with
//! `fio --name=t --ioengine=null --size=64m --bs=4k --rw=randread --write_iolog=LOG
//! --random_distribution=...`.

use iomark_core::{Ddir, PerDir, RwMode};
use iomark_workload::{AbsZone, Distribution, IoRequest, Workload, WorkloadConfig, Zone};
use std::collections::HashMap;

const K: u64 = 1024;
const M: u64 = 1024 * K;

fn run(cfg: &WorkloadConfig) -> Vec<IoRequest> {
    Workload::new(cfg).expect("valid config").collect()
}

fn job(rw: RwMode, size: u64, dist: Distribution) -> WorkloadConfig {
    WorkloadConfig {
        distribution: PerDir::all(dist),
        ..WorkloadConfig::single_file(rw, 4 * K, size)
    }
}

fn zipf(theta: f64) -> Distribution {
    Distribution::Zipf { theta, center: None }
}

/// Hits per 4 KiB block.
fn hits(ios: &[IoRequest]) -> HashMap<u64, u64> {
    let mut h = HashMap::new();
    for io in ios {
        *h.entry(io.offset / (4 * K)).or_insert(0) += 1;
    }
    h
}

#[test]
fn skewed_jobs_issue_size_over_bs_ios_without_the_map() {
    // fio: 64m of 4k blocks with zipf:1.2, pareto, normal, zoned or zoned_abs issues 16384
    // reads (the map is off: fio's zipf hit 2419 distinct blocks).
    for dist in [
        zipf(1.2),
        Distribution::Pareto { power: 0.3, center: None },
        Distribution::Normal { deviation: 10.0, center: None },
        Distribution::Zoned(vec![Zone { access: 100, percent: 100.0 }]),
        Distribution::ZonedAbs(vec![AbsZone { access: 100, bytes: 64 * M }]),
    ] {
        let ios = run(&job(RwMode::RandRead, 64 * M, dist.clone()));
        assert_eq!(ios.len(), 16384, "{dist:?}");
        assert!(hits(&ios).len() < 16384, "{dist:?}: no block repeated, as if a map were on");
    }
    // A skewed write distribution turns the map off for reads too (one map per file).
    let mut cfg = job(RwMode::RandReadWrite, 64 * M, Distribution::Random);
    cfg.distribution.write = zipf(1.2);
    assert!(hits(&run(&cfg)).len() < 16384);
    // loops and io_size count bytes as without the map.
    let cfg = WorkloadConfig { loops: 2, ..job(RwMode::RandRead, 4 * M, zipf(1.2)) };
    assert_eq!(run(&cfg).len(), 2048);
}

#[test]
fn same_seed_same_sequence_other_seed_other_sequence() {
    for dist in [
        zipf(0.9),
        Distribution::Normal { deviation: 5.0, center: Some(0.3) },
        Distribution::Zoned(vec![
            Zone { access: 70, percent: 30.0 },
            Zone { access: 30, percent: 70.0 },
        ]),
    ] {
        let cfg = job(RwMode::RandRead, 16 * M, dist.clone());
        assert_eq!(run(&cfg), run(&cfg), "{dist:?}");
        // The file's seed moves zipf and normal (fio seeds their state from the file's
        // name, or with the offsets' seed when `randseed` is given); fio's `randseed`
        // moves zones (their zone stream) but not the offsets within them.
        let other = WorkloadConfig {
            file_seeds: vec![7],
            fio_seeds: iomark_workload::FioSeeds::repeatable(7, 1),
            ..cfg.clone()
        };
        assert_ne!(run(&cfg), run(&other), "{dist:?}");
    }
}

#[test]
fn zoned_shares_per_zone_follow_the_spec() {
    // fio: zoned:60/10:30/20:10/70 over 64m gave shares 0.5975, 0.3022, 0.1002. Here the
    // shares over 16384 I/Os are within 0.015 of the spec (3.5 standard errors).
    let zones = vec![
        Zone { access: 60, percent: 10.0 },
        Zone { access: 30, percent: 20.0 },
        Zone { access: 10, percent: 70.0 },
    ];
    let ios = run(&job(RwMode::RandRead, 64 * M, Distribution::Zoned(zones)));
    let size = (64 * M) as f64;
    let share = |lo: f64, hi: f64| {
        let n = ios
            .iter()
            .filter(|io| (io.offset as f64) >= lo * size && (io.offset as f64) < hi * size)
            .count();
        n as f64 / ios.len() as f64
    };
    for (lo, hi, want) in [(0.0, 0.1, 0.6), (0.1, 0.3, 0.3), (0.3, 1.0, 0.1)] {
        let got = share(lo, hi);
        assert!((got - want).abs() < 0.015, "zone {lo}..{hi}: {got} vs {want}");
    }
    // Whole blocks stay inside their zone.
    assert!(ios.iter().all(|io| io.offset + io.len <= 64 * M));
}

#[test]
fn zoned_abs_zones_are_relative_to_the_region_and_must_fit() {
    // fio: offset=32m size=32m zoned_abs:50/16m:50/16m puts half the I/Os in each 16m
    // half of the region (offsets 32m..48m and 48m..64m).
    let zones = vec![AbsZone { access: 50, bytes: 16 * M }, AbsZone { access: 50, bytes: 16 * M }];
    let mut cfg = job(RwMode::RandRead, 32 * M, Distribution::ZonedAbs(zones.clone()));
    cfg.files[0].offset = 32 * M;
    let ios = run(&cfg);
    assert!(ios.iter().all(|io| io.offset >= 32 * M && io.offset + io.len <= 64 * M));
    let low = ios.iter().filter(|io| io.offset < 48 * M).count() as f64 / ios.len() as f64;
    assert!((low - 0.5).abs() < 0.02, "{low}");
    // fio: "zoned_abs sizes exceed file size" when the zones are longer than the region.
    let mut too_long = zones;
    too_long[1].bytes = 24 * M;
    let err = Workload::new(&job(RwMode::RandRead, 32 * M, Distribution::ZonedAbs(too_long)))
        .unwrap_err()
        .to_string();
    assert!(err.contains("random_distribution") && err.contains("region"), "{err}");
}

#[test]
fn zipf_hit_shares_match_the_exact_law_and_spread_over_the_file() {
    // 1M draws over 16384 blocks with θ = 1.2: the share of the hottest 1% and 10% of the
    // blocks (by rank) against H(k, θ)/H(n, θ), within 0.02 (fio's generator, Gray's,
    // follows the law closely but not exactly beyond its first two values).
    let n = 16384u64;
    let cfg = WorkloadConfig {
        io_limit: 64 * n * 4 * K,
        io_size_given: true,
        ..job(RwMode::RandRead, n * 4 * K, zipf(1.2))
    };
    let ios = run(&cfg);
    let mut counts: Vec<u64> = hits(&ios).into_values().collect();
    counts.sort_unstable_by(|a, b| b.cmp(a));
    let h = |k: u64| (1..=k).map(|i| (i as f64).powf(-1.2)).sum::<f64>();
    for pct in [1, 10] {
        let k = (n * pct / 100) as usize;
        let got = counts[..k].iter().sum::<u64>() as f64 / ios.len() as f64;
        let want = h(k as u64) / h(n);
        assert!((got - want).abs() < 0.02, "top {pct}%: {got} vs {want}");
    }
    // The 16 hottest blocks are not at the start of the file: they fall in at least 8 of
    // its 16 parts.
    let by_block = hits(&ios);
    let mut blocks: Vec<(u64, u64)> = by_block.into_iter().collect();
    blocks.sort_by_key(|&(b, c)| (std::cmp::Reverse(c), b));
    let mut parts = [false; 16];
    for &(b, _) in &blocks[..16] {
        parts[(b * 16 / n) as usize] = true;
    }
    assert!(parts.iter().filter(|&&p| p).count() >= 8, "{parts:?}");
}

#[test]
fn per_direction_distributions_apply_to_their_direction() {
    // Reads all in the first 10%, writes uniform.
    let mut cfg = job(RwMode::RandReadWrite, 16 * M, Distribution::Random);
    cfg.distribution.read = Distribution::Zoned(vec![
        Zone { access: 100, percent: 10.0 },
        Zone { access: 0, percent: 90.0 },
    ]);
    let ios = run(&cfg);
    let limit = 16 * M / 10;
    let reads = ios.iter().filter(|io| io.dir == Ddir::Read);
    assert!(reads.clone().all(|io| io.offset + io.len <= limit));
    assert!(reads.count() > 1000);
    let far_writes = ios.iter().filter(|io| io.dir == Ddir::Write && io.offset >= limit);
    assert!(far_writes.count() > 1000);
}

#[test]
fn out_of_range_numbers_are_refused() {
    for dist in [
        zipf(1.0),
        Distribution::Pareto { power: 1.5, center: None },
        Distribution::Normal { deviation: 100.0, center: None },
        Distribution::Zipf { theta: 1.2, center: Some(2.0) },
        Distribution::Zoned(vec![Zone { access: 90, percent: 10.0 }]),
    ] {
        let err = Workload::new(&job(RwMode::RandRead, M, dist.clone())).unwrap_err();
        assert!(err.to_string().contains("random_distribution"), "{dist:?}: {err}");
    }
    // Sequential jobs never draw offsets: the distribution is not looked at (fio too).
    assert!(Workload::new(&job(RwMode::Read, M, zipf(1.0))).is_ok());
}

fn lfsr_job(rw: RwMode, size: u64) -> WorkloadConfig {
    WorkloadConfig { lfsr: true, ..WorkloadConfig::single_file(rw, 4 * K, size) }
}

#[test]
fn lfsr_visits_every_block_once_per_pass() {
    // fio: size=4m bs=4k random_generator=lfsr → 1024 reads at 1024 distinct offsets;
    // loops=2 and io_size=8m → 2048 reads, each block twice, in the same order.
    let ios = run(&lfsr_job(RwMode::RandRead, 4 * M));
    assert_eq!(ios.len(), 1024);
    assert_eq!(hits(&ios).len(), 1024);
    for cfg in [
        WorkloadConfig { loops: 2, ..lfsr_job(RwMode::RandRead, 4 * M) },
        WorkloadConfig {
            io_limit: 8 * M,
            io_size_given: true,
            ..lfsr_job(RwMode::RandRead, 4 * M)
        },
    ] {
        let ios = run(&cfg);
        assert_eq!(ios.len(), 2048);
        let (first, second) = ios.split_at(1024);
        assert_eq!(hits(first).len(), 1024);
        assert_eq!(first, second);
    }
    // Reads and writes share the register: every block once, whatever the direction.
    let ios = run(&lfsr_job(RwMode::RandReadWrite, 4 * M));
    assert_eq!((ios.len(), hits(&ios).len()), (1024, 1024));
    // A region that is not a power of two of blocks, and a ragged tail.
    let ios = run(&lfsr_job(RwMode::RandWrite, 1000 * 4 * K + 100));
    assert_eq!((ios.len(), hits(&ios).len()), (1000, 1000));
    // fio 3.33: the order follows the job's number, not `randseed`.
    let job = |randseed, number| WorkloadConfig {
        fio_seeds: iomark_workload::FioSeeds::repeatable(randseed, number),
        ..lfsr_job(RwMode::RandRead, 4 * M)
    };
    assert_eq!(run(&job(3, 1)), run(&job(0x89, 1)));
    assert_ne!(run(&job(0x89, 2)), run(&job(0x89, 1)));
}

#[test]
fn lfsr_with_several_sizes_stops_on_the_byte_budget() {
    // fio: bsrange=4k-16k over 4m with lfsr → 421 I/Os totalling 4202496 bytes: no map, so
    // the budget (not the coverage) ends the pass, and no offset repeats.
    let mut cfg = lfsr_job(RwMode::RandRead, 4 * M);
    cfg.bs = PerDir::all(iomark_workload::BlockSizes::Range { min: 4 * K, max: 16 * K });
    let ios = run(&cfg);
    let bytes: u64 = ios.iter().map(|io| io.len).sum();
    assert!((4 * M..4 * M + 16 * K).contains(&bytes), "{bytes}");
    let offsets: std::collections::HashSet<u64> = ios.iter().map(|io| io.offset).collect();
    assert_eq!(offsets.len(), ios.len());
    assert!((380..470).contains(&ios.len()), "{}", ios.len());
}

#[test]
fn a_skewed_distribution_wins_over_lfsr() {
    // fio: lfsr with zipf:1.2 over 1024 blocks still repeats blocks (217 distinct).
    let cfg = WorkloadConfig {
        distribution: PerDir::all(zipf(1.2)),
        ..lfsr_job(RwMode::RandRead, 4 * M)
    };
    let ios = run(&cfg);
    assert_eq!(ios.len(), 1024);
    assert!(hits(&ios).len() < 600);
}

#[test]
fn rw_sequencer_identical_repeats_each_random_offset() {
    // fio: rw=randread:4 rw_sequencer=identical over 1m → 256 reads, offsets in groups of
    // four equal ones (15 15 15 15 189 189 189 189 …), 64 distinct.
    let cfg = WorkloadConfig {
        rw_modifier: 4,
        rw_sequencer: iomark_workload::Sequencer::Identical,
        ..WorkloadConfig::single_file(RwMode::RandRead, 4 * K, M)
    };
    let ios = run(&cfg);
    assert_eq!(ios.len(), 256);
    for group in ios.chunks(4) {
        assert!(group.iter().all(|io| io.offset == group[0].offset), "{group:?}");
    }
    assert_eq!(hits(&ios).len(), 64);
}

#[test]
fn bs_is_seq_rand_sizes_go_by_the_kind_of_io() {
    use iomark_workload::BlockSizes;
    let base = |rw| WorkloadConfig {
        bs: PerDir {
            read: BlockSizes::Fixed(4 * K),
            write: BlockSizes::Fixed(16 * K),
            trim: BlockSizes::Fixed(8 * K),
        },
        bs_is_seq_rand: true,
        ..WorkloadConfig::single_file(rw, 4 * K, M)
    };
    // fio: rw=rw → every read and write is 4k (the "sequential" size).
    assert!(run(&base(RwMode::ReadWrite)).iter().all(|io| io.len == 4 * K));
    // fio 3.33: randread and randtrim use the write size, 16k, shrunk to a free run at
    // times; reads at 4k offsets cover the 1m map in 73 I/Os, trims at 8k offsets (their
    // own smallest size, which counts the map's bits in 8k units) stop after 29.
    for (rw, count, bytes) in [(RwMode::RandRead, 73, M), (RwMode::RandTrim, 29, 450_560)] {
        let ios = run(&base(rw));
        let sum: u64 = ios.iter().map(|io| io.len).sum();
        assert_eq!((ios.len(), sum), (count, bytes), "{rw:?}");
        assert!(ios.iter().all(|io| io.len <= 16 * K));
    }
    // fio: randrw percentage_random=50 → reads and writes of both 4k and 16k; a follow-up
    // (offset right after the previous I/O of its direction) is 4k.
    let cfg = WorkloadConfig {
        percentage_random: PerDir::all(50),
        random_map: false,
        ..base(RwMode::RandReadWrite)
    };
    let ios = run(&cfg);
    for dir in [Ddir::Read, Ddir::Write] {
        let lens: std::collections::HashSet<u64> =
            ios.iter().filter(|io| io.dir == dir).map(|io| io.len).collect();
        assert!(lens.contains(&(4 * K)) && lens.contains(&(16 * K)), "{dir:?}: {lens:?}");
    }
}

#[test]
fn bs_unaligned_sizes_are_any_byte_count() {
    use iomark_workload::BlockSizes;
    let cfg = WorkloadConfig {
        bs: PerDir::all(BlockSizes::Range { min: K, max: 4 * K }),
        bs_unaligned: true,
        random_map: false,
        ..WorkloadConfig::single_file(RwMode::RandRead, K, M)
    };
    let ios = run(&cfg);
    assert!(ios.iter().filter(|io| io.len % 512 != 0).count() > ios.len() / 2);
    assert!(ios.iter().all(|io| io.offset % K == 0 && (K..=4 * K).contains(&io.len)));
}

#[test]
fn softrandommap_runs_without_a_map_that_cannot_be_allocated() {
    // 2^62 bytes of 512-byte blocks: a map of 2^50 bytes, more than any address space.
    let huge = WorkloadConfig::single_file(RwMode::RandRead, 512, 1 << 62);
    let err = Workload::new(&huge).unwrap_err().to_string();
    assert!(err.contains("softrandommap"), "{err}");
    let soft = WorkloadConfig { soft_random_map: true, ..huge };
    assert_eq!(Workload::new(&soft).unwrap().take(100).count(), 100);
}
