//! Run control, verification, replay and zones: `loops` to `lockmem`.

use super::{ch, int, opt, Category, ChoiceArg, Kind, OptionDef, TimeUnit, NOLIMIT};

/// The rows of this part, in fio's order.
pub(super) const ROWS: &[OptionDef] = &[
    opt("loops", int(0, NOLIMIT), Category::JobDescription, "Number of times to run the job")
        .default("1")
        .supported("Repeat the job's whole workload this many times. Default 1."),
    opt("numjobs", int(0, NOLIMIT), Category::JobDescription, "Duplicate this job this many times")
        .default("1")
        .supported(
            "Run this many clones of the job, numbered from 0 (`$jobnum` in file \
         names); each clone gets its own files unless `filename` names shared ones. \
         Default 1.",
        ),
    opt(
        "startdelay",
        Kind::TimeRange { unit: TimeUnit::Seconds },
        Category::Time,
        "Only start job when this period has passed",
    )
    .default("0")
    .supported(
        "Wait this long before starting the job; a range `min-max` picks a \
         random delay in it. A number without a unit is in seconds. Default 0.",
    ),
    opt(
        "runtime",
        Kind::Time { unit: TimeUnit::Seconds },
        Category::Time,
        "Stop workload when this amount of time has passed",
    )
    .alias(&["timeout"])
    .default("0")
    .supported(
        "Stop the job after this long; a number without a unit is in seconds \
         and 0 means no limit. The job ends earlier when its I/O is done, unless \
         `time_based` is set.",
    ),
    opt("time_based", Kind::Flag, Category::Time, "Keep running until runtime/timeout is met")
        .supported(
            "Run for the whole `runtime`, starting the workload over whenever \
         `size` is done.",
        ),
    opt(
        "verify_only",
        Kind::Flag,
        Category::Verify,
        "Verifies previously written data is still valid",
    )
    .supported(
        "Write nothing: run the job's workload without I/O to learn what it would write, \
         then read it back and verify it (data an earlier run of the same job wrote). \
         Header write numbers are not checked unless `verify_write_sequence=1`. See \
         docs/verify.md.",
    ),
    opt(
        "ramp_time",
        Kind::Time { unit: TimeUnit::Seconds },
        Category::Time,
        "Ramp up time before measuring performance",
    )
    .supported(
        "Run the workload this long before measuring; I/O in that time is \
         left out of the results. A number without a unit is in seconds.",
    ),
    opt(
        "clocksource",
        Kind::Enum(&[
            ch("gettimeofday", "Use gettimeofday(2) for timing"),
            ch("clock_gettime", "Use clock_gettime(2) for timing"),
            ch("cpu", "Use CPU private clock"),
        ]),
        Category::Time,
        "What type of timing source to use",
    )
    .supported(
        "The clock of the job's time stamps: clock_gettime is CLOCK_MONOTONIC, cpu the \
         CPU's time-stamp counter (CLOCK_MONOTONIC with a warning where it is not stable), \
         gettimeofday CLOCK_MONOTONIC in whole microseconds. Unset: the TSC where it is \
         stable, else CLOCK_MONOTONIC.",
    ),
    opt(
        "mem",
        Kind::Enum(&[
            ch("malloc", "Use malloc(3) for IO buffers"),
            ch("shm", "Use shared memory segments for IO buffers"),
            ch("shmhuge", "Like shm, but use huge pages"),
            ch("mmap", "Use mmap(2) (file or anon) for IO buffers").arg(ChoiceArg::OptionalStr),
            ch("mmapshared", "Like mmap, but use the shared flag").arg(ChoiceArg::OptionalStr),
            ch("mmaphuge", "Like mmap, but use huge pages").arg(ChoiceArg::OptionalStr),
        ]),
        Category::Buffers,
        "Backing type for IO buffers",
    )
    .alias(&["iomem"])
    .default("malloc")
    .supported(
        "Where the I/O buffers live: `malloc` (default), `mmap`, `mmapshared`, \
         `mmaphuge` (with `:FILE` a file mapping), `shm`, `shmhuge`. The huge kinds \
         need huge pages reserved (`/proc/sys/vm/nr_hugepages`) and fail otherwise.",
    ),
    opt(
        "verify",
        Kind::Enum(&[
            ch("0", "Don't do IO verification"),
            ch("md5", "Use md5 checksums for verification"),
            ch("crc64", "Use crc64 checksums for verification"),
            ch("crc32", "Use crc32 checksums for verification"),
            ch("crc32c-intel", "Use crc32c checksums for verification (hw assisted, if available)"),
            ch("crc32c", "Use crc32c checksums for verification (hw assisted, if available)"),
            ch("crc16", "Use crc16 checksums for verification"),
            ch("crc7", "Use crc7 checksums for verification"),
            ch("sha1", "Use sha1 checksums for verification"),
            ch("sha256", "Use sha256 checksums for verification"),
            ch("sha512", "Use sha512 checksums for verification"),
            ch("sha3-224", "Use sha3-224 checksums for verification"),
            ch("sha3-256", "Use sha3-256 checksums for verification"),
            ch("sha3-384", "Use sha3-384 checksums for verification"),
            ch("sha3-512", "Use sha3-512 checksums for verification"),
            ch("xxhash", "Use xxhash checksums for verification"),
            ch(
                "meta",
                "Use io information for verification. Now is implied by default, thus \
         option is obsolete, don't use it",
            ),
            ch("pattern", "Verify strict pattern"),
            ch("pattern_hdr", "Verify strict pattern under a header (iomark; fio 3.33 lacks it)"),
            ch("null", "Pretend to verify"),
        ]),
        Category::Verify,
        "Verify data written",
    )
    .default("0")
    .supported(
        "Stamp every written block with a header (magic, method, length, offset, seed, \
         write number, header CRC) and a checksum of the rest, and read it all back \
         after the writes: `md5`, `crc64`, `crc32c` (hardware-accelerated; \
         `crc32c-intel` is the same), `crc32`, `crc16`, `crc7`, `sha1`, `sha256`, \
         `sha512`, `sha3-224`/`256`/`384`/`512`, `xxhash`, `meta` (header only), \
         `pattern` (`verify_pattern` only, no header), `pattern_hdr` (header then \
         pattern), `null` (nothing). fio 3.33's header layout: fio verifies iomark's \
         blocks and the other way round, except sha256/sha512. See docs/verify.md.",
    ),
    opt("do_verify", Kind::Bool, Category::Verify, "Run verification stage after write")
        .default("1")
        .supported("With `verify`: read back and check the written blocks after the writes."),
    opt(
        "verify_interval",
        int(80, NOLIMIT),
        Category::Verify,
        "Store verify buffer header every N bytes",
    )
    .supported(
        "Put a header (and checksum) every N bytes of a block instead of one per block; \
         N holds the header and is at most the smallest block size.",
    ),
    opt(
        "verify_offset",
        int(40, NOLIMIT),
        Category::Verify,
        "Offset verify header location by N bytes",
    )
    .supported(
        "Swap the header with the bytes N bytes into the block before writing (and back \
         before checking), as fio does.",
    ),
    opt("verify_pattern", Kind::Str, Category::Verify, "Fill pattern for IO buffers").supported(
        "Fill written blocks with this pattern (`buffer_pattern`'s syntax, plus `%o`: the \
         block's offset, 8 bytes little-endian) and check it. Without `verify` it means a \
         header over the pattern (fio 3.33's type 17, `pattern_hdr`).",
    ),
    opt(
        "verify_fatal",
        Kind::Bool,
        Category::Verify,
        "Exit on a single verify failure, don't continue",
    )
    .default("0")
    .supported(
        "Report only a bad block's first bad chunk (otherwise every bad chunk of it). \
         As in fio 3.33 a bad block ends the job (error 84, exit code 1) unless \
         `continue_on_error=verify` or `all`.",
    ),
    opt(
        "verify_dump",
        Kind::Bool,
        Category::Verify,
        "Dump contents of good and bad blocks on failure",
    )
    .default("0")
    .supported(
        "Write a bad block as read to `FILE.OFFSET.received` and as expected to \
         `FILE.OFFSET.expected`, beside the file.",
    ),
    opt(
        "verify_async",
        int(0, NOLIMIT),
        Category::Verify,
        "Number of async verifier threads to use",
    )
    .default("0")
    .supported(
        "Check the blocks read back on N helper threads instead of the job's thread: each \
         completed verify read is copied into a spare buffer and handed over. Reports, \
         counts and errors are those of checking on the job's thread. See docs/verify.md.",
    ),
    opt(
        "verify_backlog",
        int(0, NOLIMIT),
        Category::Verify,
        "Verify after this number of blocks are written",
    )
    .supported(
        "Verify written blocks every N writes, during the write phase, oldest first \
         (then only what was not yet verified at the end).",
    ),
    opt(
        "verify_backlog_batch",
        int(0, NOLIMIT),
        Category::Verify,
        "Verify this number of IO blocks",
    )
    .supported("How many blocks each `verify_backlog` round verifies (default N)."),
    opt("experimental_verify", Kind::Bool, Category::Verify, "Enable experimental verification")
        .supported(
            "Accepted; iomark always logs its writes to know what to read back, which \
             gives what fio's experimental mode gives (every written block verified once).",
        ),
    opt("verify_state_load", Kind::Bool, Category::Verify, "Load verify termination state")
        .supported(
            "With `verify_only`: verify only the writes that the state file \
             `local-JOB-N-verify.state` (current directory) says the earlier run completed.",
        ),
    opt("verify_state_save", Kind::Bool, Category::Verify, "Save verify state on termination")
        .default("1")
        .supported(
            "When a verifying job that wrote ends, write `local-JOB-N-verify.state` in the \
             current directory: how many writes completed (iomark's own text format).",
        ),
    opt(
        "verify_write_sequence",
        Kind::Bool,
        Category::Verify,
        "Verify header write sequence number",
    )
    .supported(
        "iomark's own (fio 3.33 lacks it; later fio has it): check each header's write \
         number, so that a lost overwrite is caught. Default on, off with `verify_only`.",
    ),
    opt(
        "trim_percentage",
        int(0, 100),
        Category::Verify,
        "Number of verify blocks to trim (i.e., discard)",
    )
    .default("0")
    .supported(
        "Trim this percentage of the writes logged for verification (each one chosen at \
         random when it completes), at the pace of `trim_backlog`; trimmed blocks are then \
         verified as zeros (`trim_verify_zero`). Needs `verify` with `do_verify` and \
         `trim_backlog` (without them nothing is trimmed, as in fio 3.33). See docs/verify.md.",
    ),
    opt(
        "trim_verify_zero",
        Kind::Bool,
        Category::Verify,
        "Verify that trimmed (i.e., discarded) blocks are returned as zeroes",
    )
    .default("1")
    .supported(
        "Verify the blocks that `trim_percentage` trimmed as zeros (a non-zero byte fails \
         with `trim: verify failed`); with 0 they are not read back at all.",
    ),
    opt(
        "trim_backlog",
        int(0, NOLIMIT),
        Category::Verify,
        "Trim after this number of blocks are written",
    )
    .supported(
        "Trim the blocks `trim_percentage` chose whenever the count of written blocks not \
         yet verified is a multiple of N, a batch of `trim_backlog_batch` at a time \
         (fio 3.33's pacing, see docs/verify.md).",
    ),
    opt("trim_backlog_batch", int(0, NOLIMIT), Category::Verify, "Trim this number of IO blocks")
        .supported(
            "The size of a `trim_backlog` batch (default, and 0: `trim_backlog`); as in \
             fio 3.33 a batch trims one block more than this, when that many are chosen.",
        ),
    opt("write_iolog", Kind::Str, Category::IoReplay, "Store IO pattern to file").supported(
        "Log every I/O the job issues to this file, in fio 3.33's trace format \
         (`fio version 3 iolog`), appending to it. See docs/logs.md.",
    ),
    opt("read_iolog", Kind::Str, Category::IoReplay, "Playback IO pattern from file").supported(
        "Replay the I/Os of a fio iolog (version 2 or 3, as fio's and iomark's write_iolog \
         write it) on its files, or of a blktrace binary trace (`blkparse -d`) on the devices \
         it names, in its order and at its times; `a.log:b.log` deals the logs to the clones. \
         rw, bs, size, loops and number_ios do not apply; a trace also sets iodepth, unless \
         the job does. See docs/job-files.md.",
    ),
    opt("read_iolog_chunked", Kind::Bool, Category::IoReplay, "Parse IO pattern in chunks")
        .default("0")
        .supported(
            "Read the replayed log as the job goes, 4096 I/Os at a time, instead of holding \
         it all in memory; the replay is the same I/O for I/O. The log must be a regular \
         file: iomark reads it once before the job to lay out its files and size the \
         buffers. Default false.",
        ),
    opt(
        "replay_no_stall",
        Kind::Bool,
        Category::IoReplay,
        "Playback IO pattern file as fast as possible without stalls",
    )
    .default("0")
    .supported("Replay the log's I/Os one after the other, without waiting for their times."),
    opt(
        "replay_redirect",
        Kind::Str,
        Category::IoReplay,
        "Replay all I/O onto this device, regardless of trace device",
    )
    .supported("Send every I/O of the replayed log to this file or device."),
    opt("replay_scale", int(0, NOLIMIT), Category::IoReplay, "Align offsets to this blocksize")
        .default("1")
        .supported("Divide every offset of the replayed log by this (before replay_align)."),
    opt("replay_align", int(0, NOLIMIT), Category::IoReplay, "Scale offset down by this factor")
        .supported(
            "Round every offset of the replayed log down to a multiple of this power of 2 \
         (after replay_scale).",
        ),
    opt("replay_time_scale", int(1, NOLIMIT), Category::IoReplay, "Scale time for replay events")
        .default("100")
        .supported(
            "Replay at this percentage of the log's rate: 200 waits half as long for each \
         I/O's time, 50 twice as long. Default 100.",
        ),
    opt(
        "replay_skip",
        Kind::Str,
        Category::IoReplay,
        "Skip certain IO types (read,write,trim,flush)",
    )
    .supported(
        "Leave out these kinds of I/O (`read`, `write`, `trim`, `sync`) of a replayed \
         blktrace trace; as in fio 3.33 an iolog is replayed whole (iomark says so in a note).",
    ),
    opt("merge_blktrace_file", Kind::Str, Category::IoReplay, "Merged blktrace output filename")
        .supported(
            "Merge the blktrace traces of read_iolog into this one trace, in time order, and \
             replay it instead (every clone replays it). With --merge-blktrace-only, merge \
             and run nothing. See docs/job-files.md.",
        ),
    opt(
        "merge_blktrace_scalars",
        Kind::Floats,
        Category::IoReplay,
        "Percentage to scale each trace",
    )
    .supported(
        "One percentage per trace of read_iolog: its times are scaled by it in the merge \
         (50: twice as fast). Default 100 each.",
    ),
    opt(
        "merge_blktrace_iters",
        Kind::Floats,
        Category::IoReplay,
        "Number of iterations to run per trace",
    )
    .supported(
        "One whole number per trace of read_iolog: the merge repeats it that many times, \
         each pass after the last. Default 1 each.",
    ),
    opt("exec_prerun", Kind::Str, Category::Threads, "Execute this file prior to running job")
        .supported(
            "Run this command with `sh -c` from the job's thread (with its affinity and \
         priorities) before its I/O, output to JOBNAME.prerun.txt; if it fails the job does \
         no I/O.",
        ),
    opt("exec_postrun", Kind::Str, Category::Threads, "Execute this file after running job")
        .supported(
            "Run this command with `sh -c` from the job's thread after its I/O, output to \
         JOBNAME.postrun.txt.",
        ),
    opt("ioscheduler", Kind::Str, Category::Target, "Use this IO scheduler on the backing device")
        .supported(
            "Switch the disk under each of the job's files to this I/O scheduler \
         (/sys/block/DISK/queue/scheduler) before its I/O; the job fails if the disk does not \
         take it. Not switched back afterwards, as in fio. Needs root.",
        ),
    opt(
        "zonemode",
        Kind::Enum(&[
            ch("none", "no zoning"),
            ch("strided", "strided mode - random I/O is restricted to a single zone"),
            ch(
                "zbd",
                "zoned block device mode - random I/O selects one of multiple zones \
         randomly",
            ),
        ]),
        Category::Zones,
        "Mode for the zonesize, zonerange and zoneskip parameters",
    )
    .default("none")
    .supported(
        "`none` (the default) or `strided`: the job does `zonesize` bytes of I/O in \
         one zone of `zonerange` bytes, then moves `zonerange + zoneskip` further, and back \
         to the first zone after the last. `zbd` (zoned block devices) is refused. See \
         docs/job-files.md, Files and zones.",
    ),
    opt("zonesize", Kind::Size, Category::Zones, "Amount of data to read per zone")
        .default("0")
        .supported(
            "With `zonemode=strided` (which needs it), the bytes of I/O done in a zone \
         before the next zone; larger than `zonerange`, the zone is gone over again. Given \
         without `zonemode=strided`, it is an error, as in fio 3.33.",
        ),
    opt("zonecapacity", Kind::Size, Category::Zones, "Capacity per zone").default("0"),
    opt("zonerange", Kind::Size, Category::Zones, "Give size of an IO zone")
        .default("0")
        .supported(
            "The length of a zone for `zonemode=strided`; default `zonesize`. Ignored \
         otherwise.",
        ),
    opt("zoneskip", Kind::Size, Category::Zones, "Space between IO zones").default("0").supported(
        "The gap left between one zone and the next with `zonemode=strided`. \
         Default 0; ignored otherwise.",
    ),
    opt("read_beyond_wp", Kind::Bool, Category::Zones, "Allow reads beyond the zone write pointer")
        .default("0"),
    opt(
        "max_open_zones",
        int(0, 4096),
        Category::Zones,
        "Limit on the number of simultaneously opened sequential write zones \
         with zonemode=zbd",
    )
    .default("0"),
    opt(
        "job_max_open_zones",
        int(0, 4096),
        Category::Zones,
        "Limit on the number of simultaneously opened sequential write zones \
         with zonemode=zbd by one thread/process",
    )
    .default("0"),
    opt(
        "ignore_zone_limits",
        Kind::Bool,
        Category::Zones,
        "Ignore the zone resource limits (max open/active zones) reported by \
         the device",
    )
    .default("0"),
    opt(
        "zone_reset_threshold",
        Kind::Float { min: 0.0, max: 1.0 },
        Category::Zones,
        "Zoned block device reset threshold",
    ),
    opt(
        "zone_reset_frequency",
        Kind::Float { min: 0.0, max: 1.0 },
        Category::Zones,
        "Zoned block device zone reset frequency in HZ",
    ),
    opt("lockmem", Kind::Size, Category::Buffers, "Lock down this amount of memory (per worker)")
        .default("0")
        .supported(
            "Lock this much anonymous memory in RAM (mlock) while the job runs, per job, \
         to leave the page cache that much less room. At most the machine's memory less \
         128 MiB, as in fio. When the kernel refuses (`ulimit -l` for an unprivileged \
         user), the job runs anyway after a message, as in fio. Default 0: none.",
        ),
];
