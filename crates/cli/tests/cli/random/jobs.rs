//! The random jobs whose `write_iolog` must be fio 3.33's, line for line (times aside):
//! each table's jobs (options after `--name=j --ioengine=null`) run under both programs.
//! There are 99, across the options whose draws decide the I/O.

use super::check;

/// Random offsets: the map, `norandommap`, the three generators, `randseed`, regions,
/// loops, `:N` and `io_size`.
const OFFSETS: &[&str] = &[
    "--rw=randread --bs=4k --size=1m",
    "--rw=randread --bs=4k --size=1m --norandommap",
    "--rw=randread --bs=4k --size=1m --random_generator=lfsr",
    "--rw=randwrite --bs=4k --size=1m --random_generator=tausworthe64",
    "--rw=randread --bs=4k --size=1m --random_generator=tausworthe64 --norandommap",
    "--rw=randread --bs=512 --size=1m --norandommap --randseed=12345 --number_ios=500",
    "--rw=randread --bs=4k --size=1m --random_generator=lfsr --randseed=7 --loops=2",
    "--rw=randtrim --bs=4k --size=1m",
    "--rw=randread --bs=4k --offset=256k --size=512k",
    "--rw=randread --bs=4k --size=1m --blockalign=8k",
    "--rw=randread --bs=4k --size=1m --loops=3",
    "--rw=randread:4 --bs=4k --size=1m",
    "--rw=randwrite:4 --bs=4k --size=1m --rw_sequencer=identical",
    "--rw=randread --bs=4k --size=2m --io_size=5m",
];

/// A random mode's `:N` follow-ups at the region's end: one that starts inside the region
/// but does not fit ends the pass, its stand-in past the end keeps its drawn size, and the
/// count carries over to the next loop; `bs_is_seq_rand` without the map, where a random
/// size may not fit at the offset drawn.
const FOLLOW_UPS: &[&str] = &[
    "--rw=randrw:3 --bs=8k --size=60k",
    "--rw=randread:2 --bs=8k --size=60k",
    "--rw=randwrite:3 --bs=8k --size=60k",
    "--rw=randrw:2 --bsrange=1k-8k --size=256k",
    "--rw=randrw:7 --bsrange=1k-8k --size=256k",
    "--rw=randread:8 --bs=4k --size=62k --loops=2",
    "--rw=randrw:3 --bs=4k --size=62k --loops=3",
    "--rw=randread:3 --bs=4k --size=250k --loops=2",
    "--rw=randrw:8 --bs=4k --size=250k --loops=2",
    "--rw=randread:5 --bssplit=4k/50:12k/50 --size=62k --loops=2",
    "--rw=randread --bs_is_seq_rand=1 --bs=4k,16k --norandommap --size=1m",
    "--rw=randrw --bs_is_seq_rand=1 --bs=4k,16k --norandommap --size=62k",
    "--rw=randrw:2 --bs_is_seq_rand=1 --bsrange=1k-4k,4k-32k --norandommap --size=250k",
    "--rw=randrw:3 --bs_is_seq_rand=1 --bs=8k,4k --size=100k --loops=2",
];

/// Directions of other sizes: the random map's block is the smallest size of all three
/// directions, so a direction of larger sizes draws its blocks over the map's first bits
/// and its pass ends at the first free bit past them; with `lfsr` such a direction issues
/// nothing.
const MAP_BLOCK: &[&str] = &[
    "--rw=randwrite --bs=4k,8k --size=1m",
    "--rw=randread --bs=8k,16k,4k --size=1m",
    "--rw=randwrite --bs=4k,12k --size=1000k",
    "--rw=randwrite --bs=8k,4k,2k --size=1m --bs_is_seq_rand=1",
    "--rw=randrw --bs=4k,8k --size=256k --loops=3",
    "--rw=randrw --bs=4k,8k --size=1m --random_generator=lfsr",
];

/// Passes: each restarts the streams (without the map too, where a size that does not fit
/// ends a pass), unless the job gives `randseed`; a change of direction drawn for the I/O
/// that found the pass over is undone.
const PASSES: &[&str] = &[
    "--rw=randread --bs=4k,12k --size=250k --norandommap --bs_is_seq_rand=1 --loops=2",
    "--rw=randrw --bs=4k,12k --size=250k --norandommap --bs_is_seq_rand=1 --loops=3 --randseed=6",
    "--rw=randread --bs=4k --size=64k --loops=2 --randseed=137",
    "--rw=read --bsrange=4k-16k --size=64k --loops=2 --randseed=7",
    "--rw=randread:3 --bs=4k --size=62k --norandommap --loops=2 --randseed=9",
    "--rw=randrw --bs=4k,16k --size=250k --random_distribution=pareto:0.3 --loops=3",
    "--rw=randrw --bs=4k,16k --size=250k --random_distribution=zipf:0.8 --loops=3 --rwmixread=80 --nrfiles=2",
    "--rw=randrw --bs=4k,8k --size=1m --random_generator=lfsr --loops=2",
];

/// `trimwrite` pairs (sizes from the writes' stream) and `trim_percentage`'s choices of
/// the writes to trim (stream 8), with `verify=null`, which checks nothing on the null
/// engine; the verify phase reads trimmed writes back in the order they were written.
const TRIMS: &[&str] = &[
    "--rw=trimwrite --bsrange=4k-16k --size=256k",
    "--rw=trimwrite --bs=4k --size=256k --verify=null --trim_percentage=50 --trim_backlog=4",
    "--rw=trimwrite --bs=4k --size=256k --verify=null --trim_percentage=30 --trim_backlog=1 --random_generator=tausworthe64",
    "--rw=trimwrite --bsrange=4k-16k --size=256k --verify=null --trim_percentage=50 --trim_backlog=2",
    "--rw=randtrimwrite --bs=4k --size=256k --verify=null --trim_percentage=40 --trim_backlog=3",
    "--rw=randtrimwrite --bs=4k --size=256k --verify=null --trim_percentage=60 --trim_backlog=2 --verify_backlog=7",
    // Trims and writes apart: each kind on its own cursor and size, files taking turns,
    // `number_ios` counting pairs.
    "--rw=trimwrite --bs=4k,8k,16k --size=96k",
    "--rw=trimwrite --bs=4k,8k,12k --size=100k",
    "--rw=trimwrite --bs=4k,16k,8k --size=64k --loops=2",
    "--rw=trimwrite --bs=4k --size=64k --nrfiles=2",
    "--rw=trimwrite --bs=4k,4k,8k --size=64k --nrfiles=3 --file_service_type=random",
    "--rw=trimwrite --bs=4k,8k,16k --size=192k --number_ios=7",
    "--rw=randtrimwrite --bsrange=4k-16k --size=192k --number_ios=3",
];

/// Block sizes (`bsrange`, `bssplit`, per direction, unaligned) and the read/write mix
/// (`rwmixread`, `rwmixwrite`, `percentage_random`, trims).
const SIZES_AND_MIX: &[&str] = &[
    "--rw=randread --bsrange=512-64k --size=4m --randseed=77",
    "--rw=randrw --bsrange=1k-16k,4k-64k --size=4m",
    "--rw=randrw --bssplit=4k/50:16k/30:64k/20 --size=8m",
    "--rw=randrw --bssplit=4k/50:16k/50,8k/20:32k/80 --size=8m",
    "--rw=randread --bsrange=1000-9000 --bs_unaligned --size=1m",
    "--rw=randtrim --bsrange=4k-32k --size=4m",
    "--rw=randrw --bs=4k,8k --size=4m",
    "--rw=randwrite --bssplit=4k/10:8k/90 --size=2m --norandommap --random_generator=tausworthe64",
    "--rw=randrw --bs=4k --size=2m --rwmixread=30",
    "--rw=readwrite --bs=4k --size=2m",
    "--rw=rw --bs=4k --size=2m --rwmixread=70 --randseed=3",
    "--rw=randrw --bs=4k --size=4m --percentage_random=30,70",
    "--rw=randread --bs=4k --size=4m --percentage_random=50",
    "--rw=randtrimwrite --bs=4k --size=1m",
    "--rw=randrw --bs=4k --size=1m --rwmixwrite=80 --randseed=99 --number_ios=300",
];

/// `random_distribution`: zipf, pareto and normal (with and without a center, `randseed`,
/// clones, several files, a long file name; normal values past the range's ends), zoned
/// and zoned_abs.
const DISTRIBUTIONS: &[&str] = &[
    "--rw=randread --bs=4k --size=4m --random_distribution=zipf:1.2",
    "--rw=randread --bs=4k --size=4m --random_distribution=pareto:0.3",
    "--rw=randread --bs=4k --size=4m --random_distribution=normal:20",
    "--rw=randread --bs=4k --size=4m --random_distribution=zipf:1.2 --randseed=9",
    "--rw=randread --bs=4k --size=4000k --random_distribution=pareto:0.2:0.3 --randseed=9",
    "--rw=randread --bs=4k --size=4m --random_distribution=zoned:50/10:30/20:20/70",
    "--rw=randread --bs=4k --size=4m --random_distribution=zoned_abs:50/1m:50/3m",
    "--rw=randrw --bs=4k --size=4m --random_distribution=zipf:0.8",
    "--rw=randwrite --bs=4k,16k --size=4m --random_distribution=zipf:0.8",
    "--rw=randread --bs=4k --size=4m --random_distribution=normal:0:0.1 --numjobs=2",
    "--rw=randread --bs=4k --size=4m --random_distribution=zipf:1.1 --nrfiles=3",
    "--rw=randread --bs=4k --size=4000k --random_distribution=normal:30:0.8",
    "--rw=randread --bs=4k --size=2m --random_distribution=zipf:1.2 --filename=a_rather_long_file_name",
    "--rw=randread --bs=4k --norandommap --random_distribution=normal:50 --size=256m --number_ios=30000",
    "--rw=randread --bs=4k --norandommap --random_distribution=normal:50:0.2 --size=64m --number_ios=30000",
];

/// Clones (`numjobs`, with and without `randseed`), several files and every
/// `file_service_type`, a Poisson rate and think time.
const JOBS_AND_FILES: &[&str] = &[
    "--rw=randread --bs=4k --size=1m --numjobs=3",
    "--rw=randread --bs=4k --size=1m --numjobs=3 --randseed=5",
    "--rw=randread --bs=4k --size=1m --numjobs=2 --randseed=5 --random_generator=lfsr",
    "--rw=randread --bs=4k --size=1m --nrfiles=4",
    "--rw=randread --bs=4k --size=1m --nrfiles=4 --file_service_type=random",
    "--rw=randread --bs=4k --size=1m --nrfiles=4 --file_service_type=roundrobin:3",
    "--rw=randread --bs=4k --size=1m --nrfiles=4 --file_service_type=sequential",
    "--rw=randread --bs=4k --size=1m --nrfiles=4 --file_service_type=zipf:1.1",
    "--rw=randread --bs=4k --size=1m --nrfiles=4 --file_service_type=pareto:0.5",
    "--rw=randread --bs=4k --size=1m --nrfiles=4 --file_service_type=normal:10",
    "--rw=randread --bs=4k --size=1m --nrfiles=4 --file_service_type=gauss:10",
    "--rw=randread --bs=4k --size=1m --nrfiles=3 --numjobs=2 --file_service_type=random:2",
    "--rw=randread --bs=4k --size=1m --nrfiles=5 --file_service_type=zipf --randseed=3",
    "--rw=randrw --bsrange=1k-16k --size=1m --numjobs=3 --randseed=5",
    "--rw=randread --bs=4k --size=1m --rate_iops=400 --rate_process=poisson --number_ios=40",
    "--rw=randrw --bs=4k --size=1m --thinktime=100 --thinktime_blocks=4 --number_ios=100",
];

/// Verification on a file (psync): the write sizes drawn as fio draws them with `verify`,
/// the files closed and opened again for the verify phase, and its reads in the order of
/// the writes (random map) or of the offsets.
const VERIFIED: &[&str] = &[
    "--ioengine=psync --filename=data --rw=randwrite --bs=4k --size=1m --verify=crc32c",
    "--ioengine=psync --filename=data --rw=randrw --bs=4k --size=1m --verify=md5 --verify_backlog=8",
    "--ioengine=psync --filename=data --rw=randwrite --bsrange=4k-16k --size=1m --verify=crc32c --norandommap",
    "--ioengine=psync --filename=data --rw=randwrite --bsrange=4k-16k --size=1m --verify=crc32c",
    "--ioengine=psync --filename=data --rw=randwrite --bs=4k --size=1m --verify=crc32c --random_generator=lfsr",
];

#[test]
fn verified_jobs_are_fios() {
    check(VERIFIED);
}

#[test]
fn offsets_are_fios() {
    check(OFFSETS);
}

#[test]
fn follow_ups_at_the_regions_end_are_fios() {
    check(FOLLOW_UPS);
}

#[test]
fn the_map_block_is_the_smallest_size_of_all_directions() {
    check(MAP_BLOCK);
}

#[test]
fn passes_restart_the_streams_as_fios_do() {
    check(PASSES);
}

#[test]
fn trims_are_fios() {
    check(TRIMS);
}

#[test]
fn sizes_and_mix_are_fios() {
    check(SIZES_AND_MIX);
}

#[test]
fn distributions_are_fios() {
    check(DISTRIBUTIONS);
}

#[test]
fn jobs_and_files_are_fios() {
    check(JOBS_AND_FILES);
}
