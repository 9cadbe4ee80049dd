//! Logs, buffers, reporting, error handling, cgroups, units, flow and steady state:
//! `per_job_logs` to `steadystate_ramp_time`, then the options fio 3.33 leaves out of
//! `--cmdhelp=all`.

use super::{ch, int, opt, Category, Kind, OptionDef, TimeUnit, NOLIMIT};

/// The rows of this part, in fio's order.
pub(super) const ROWS: &[OptionDef] = &[
    opt(
        "per_job_logs",
        Kind::Bool,
        Category::Reporting,
        "Include job number in generated log files or not",
    )
    .default("1")
    .supported(
        "Put the job's number in log file names (`NAME_bw.N.log`); with 0 the \
         jobs add their rows to one shared file, `NAME_bw.log`, opened for appending. \
         Default true. See docs/logs.md.",
    ),
    opt("write_bw_log", Kind::Str, Category::Reporting, "Write log of bandwidth during run")
        .value_optional()
        .supported(
            "Write a bandwidth log, `NAME_bw.N.log` (`NAME` is the value, or the job's \
         name when none is given; `N` the job's number): a row per I/O, or per \
         `log_avg_msec` window in KiB/s. See docs/logs.md.",
        ),
    opt(
        "bwavgtime",
        int(0, NOLIMIT),
        Category::Reporting,
        "Time window over which to calculate bandwidth (msec)",
    )
    .default("500")
    .supported(
        "The period, in milliseconds, over which bandwidth is averaged for \
         its samples and log. Default 500.",
    ),
    opt("write_lat_log", Kind::Str, Category::Reporting, "Write log of latency during run")
        .value_optional()
        .supported(
            "Write latency logs in nanoseconds: `NAME_slat.N.log`, \
         `NAME_clat.N.log` and `NAME_lat.N.log` (`NAME` is the value, or the job's name), a \
         row per I/O or per `log_avg_msec` window. See docs/logs.md.",
        ),
    opt("write_iops_log", Kind::Str, Category::Reporting, "Write log of IOPS during run")
        .value_optional()
        .supported(
            "Write an IOPS log, `NAME_iops.N.log`: 1 per I/O, or the IOPS of \
         each `log_avg_msec` window. See docs/logs.md.",
        ),
    opt(
        "iopsavgtime",
        int(0, NOLIMIT),
        Category::Reporting,
        "Time window over which to calculate IOPS (msec)",
    )
    .default("500")
    .supported(
        "The period, in milliseconds, over which IOPS are averaged for their \
         samples and log. Default 500.",
    ),
    opt(
        "log_entries",
        int(1024, 1048576),
        Category::Reporting,
        "Initial number of entries in a job IO log",
    )
    .default("1024")
    .supported(
        "Rows a log holds in memory; when a log is full the chunk is handed to \
         the job's log thread, which writes it to its file (fio grows its logs in memory \
         instead). Default 1024.",
    ),
    opt(
        "log_avg_msec",
        int(0, NOLIMIT),
        Category::Reporting,
        "Average bw/iops/lat logs over this period of time",
    )
    .default("0")
    .supported(
        "Log one row per direction per window of this many milliseconds \
         (the mean latency, the bandwidth or the IOPS of the window) instead of a row per \
         I/O. Default 0: a row per I/O.",
    ),
    opt(
        "log_hist_msec",
        int(0, NOLIMIT),
        Category::Reporting,
        "Dump completion latency histograms at frequency of this time value",
    )
    .default("0")
    .supported(
        "The window, in milliseconds, of the histogram log \
         (`write_hist_log`); 0 (the default) writes no rows.",
    ),
    opt(
        "log_hist_coarseness",
        int(0, NOLIMIT),
        Category::Reporting,
        "Integer in range [0,6]. Higher coarseness outputs fewer histogram \
         bins per sample. The number of bins for these are [1216, 608, 304, 152, 76, 38, \
         19] respectively.",
    )
    .default("0")
    .supported(
        "Add up 2^N neighbouring bins of the histogram log: 1856 bins at 0 \
         (fio 3.33's layout), 928 at 1, … 29 at 6 (fio's help still says 1216 at 0).",
    ),
    opt(
        "write_hist_log",
        Kind::Str,
        Category::Reporting,
        "Write log of latency histograms during run",
    )
    .value_optional()
    .supported(
        "Write a completion latency histogram log, `NAME_clat_hist.N.log`, one \
         row per direction every `log_hist_msec` in fio's 1856 bins; fio's \
         fiologparser_hist.py reads it. See docs/logs.md.",
    ),
    opt(
        "log_max_value",
        Kind::Bool,
        Category::Reporting,
        "Log max sample in a window instead of average",
    )
    .default("0")
    .supported("With `log_avg_msec`, log the largest latency of each window instead of the mean."),
    opt("log_offset", Kind::Bool, Category::Reporting, "Include offset of IO for each log entry")
        .default("0")
        .supported("Add each I/O's offset to the rows of the logs, before the priority column."),
    opt(
        "log_prio",
        Kind::Bool,
        Category::Reporting,
        "Include priority value of IO for each log entry",
    )
    .default("0")
    .supported(
        "Write the priority column of the logs in hex, as fio 3.33 does then (`0x2003`: \
         class 1, level 3): each I/O's own (`cmdprio_*`), else the job's (`prioclass`, \
         `prio`); averaged rows write `0x0000`.",
    ),
    opt(
        "log_compression",
        int(1024, 536870912),
        Category::Reporting,
        "Log in compressed chunks of this size",
    )
    .supported(
        "The size of the compressed chunks of `log_store_compressed`'s files: each zlib \
         stream holds at most this many bytes of fio's binary log records (whole records). \
         Without `log_store_compressed` the logs are plain text as usual: iomark writes \
         them to their files as the job runs, from a thread of their own, so there is \
         nothing to keep compressed in memory. See docs/logs.md.",
    ),
    opt(
        "log_compression_cpus",
        Kind::CpuList,
        Category::Reporting,
        "Limit log compression to these CPUs",
    )
    .supported(
        "The CPUs the job's log thread (which formats, compresses and writes its logs) \
         may run on, in `cpus_allowed`'s format.",
    ),
    opt(
        "log_store_compressed",
        Kind::Bool,
        Category::Reporting,
        "Store logs in a compressed format",
    )
    .supported(
        "Write the latency, bandwidth and IOPS logs as fio 3.33 stores them compressed \
         (`NAME_clat.1.log.fz`): zlib streams of fio's binary log records, which \
         `--inflate-log` (fio's or iomark's) turns back into the text log. See \
         docs/logs.md, also for the histogram log.",
    ),
    opt("log_unix_epoch", Kind::Bool, Category::Reporting, "Use Unix time in log files").supported(
        "Log times in milliseconds since the Unix epoch instead of since the job's start \
         (since the epoch of `log_alternate_epoch_clock_id` when that is set, as in fio \
         3.33).",
    ),
    opt(
        "log_alternate_epoch",
        Kind::Bool,
        Category::Reporting,
        "Use alternate epoch time in log files. Uses the same epoch as that \
         is used by clock_gettime with specified log_alternate_epoch_clock_id.",
    )
    .supported(
        "Log times in milliseconds since the epoch of the clock that \
         `log_alternate_epoch_clock_id` names, instead of since the job's start.",
    ),
    opt(
        "log_alternate_epoch_clock_id",
        int(0, NOLIMIT),
        Category::Reporting,
        "If log_alternate_epoch or log_unix_epoch is true, this option \
         specifies the clock_id from clock_gettime whose epoch should be used. If neither \
         of those is true, this option has no effect. Default value is 0, or \
         CLOCK_REALTIME",
    )
    .supported(
        "The `clock_gettime(2)` clock whose epoch log times count from with \
         `log_alternate_epoch` or `log_unix_epoch`: 0 `CLOCK_REALTIME` (the Unix epoch, the \
         default), 1 `CLOCK_MONOTONIC`, 7 `CLOCK_BOOTTIME`… A clock the system does not \
         have is refused (fio 3.33 logs garbage).",
    ),
    opt(
        "block_error_percentiles",
        Kind::Bool,
        Category::Reporting,
        "Record trim block errors and make a histogram",
    )
    .default("0")
    .supported(
        "Keep, for every trim-sized block of the job's files, its state and how many trims \
         it took, and print fio's `block lifetime percentiles` (the trim counts at the \
         percentile_list's points) and the blocks per state (unwritten, trimmed, written, \
         trim failure, write failure) in the normal report. As in fio 3.33 only trims are \
         recorded, and the JSON and terse reports leave it out (docs/running.md).",
    ),
    opt("group_reporting", Kind::Flag, Category::Reporting, "Do reporting on a per-group basis")
        .supported(
            "Report each group's jobs together as one, instead of one report per \
         job; most useful with `numjobs`.",
        ),
    opt("stats", Kind::Bool, Category::Reporting, "Enable collection of stats")
        .default("1")
        .supported(
            "With 0 the job runs, but its statistics are not reported: it appears with \
             nothing measured (zeros in JSON and terse, absent from the normal report), \
             as in fio 3.33. Default true.",
        ),
    opt("zero_buffers", Kind::Flag, Category::Buffers, "Init IO buffers to all zeroes").supported(
        "Fill write buffers with zeroes instead of random data (`buffer_pattern`, \
         `buffer_compress_percentage` and `dedupe_percentage` take precedence).",
    ),
    opt("refill_buffers", Kind::Flag, Category::Buffers, "Refill IO buffers on every IO submit")
        .supported(
            "Write new buffer contents before every write instead of filling the \
         buffers once; costs CPU, but keeps storage from deduplicating or compressing \
         repeated data. On by itself with `buffer_compress_percentage` between 1 and 99 \
         or any `dedupe_percentage`, unless set.",
        ),
    opt(
        "scramble_buffers",
        Kind::Bool,
        Category::Buffers,
        "Slightly scramble buffers on every IO submit",
    )
    .default("1")
    .supported(
        "When buffers are not refilled, change a few bytes of the buffer \
         before each write so that consecutive writes differ; cheaper than \
         `refill_buffers`. Default true, but false with `zero_buffers` or \
         `buffer_pattern` unless set; never with `buffer_compress_percentage` or \
         `dedupe_percentage`.",
    ),
    opt("buffer_pattern", Kind::Str, Category::Buffers, "Fill pattern for IO buffers").supported(
        "Fill write buffers with this pattern, repeated from the start of every \
         write: `0x` hex bytes, `\"string\"`, `'file'` contents, or decimal numbers, \
         back to back (`0xdeadface\"abcd\"-12`); at most 512 bytes. See \
         docs/job-files.md, Buffer contents.",
    ),
    opt(
        "buffer_compress_percentage",
        int(0, 100),
        Category::Buffers,
        "How compressible the buffer is (approximately)",
    )
    .supported(
        "Make write data that compresses to about this share: each \
         `buffer_compress_chunk` holds random bytes, then zeros (or the \
         `buffer_pattern`) for this percentage.",
    ),
    opt(
        "buffer_compress_chunk",
        Kind::Size,
        Category::Buffers,
        "Size of compressible region in buffer",
    )
    .default("512")
    .supported(
        "The granularity of `buffer_compress_percentage`: random and fixed bytes \
         alternate every this many bytes; 0 means the whole block. Default 512.",
    ),
    opt(
        "dedupe_percentage",
        int(0, 100),
        Category::Buffers,
        "Percentage of buffers that are dedupable",
    )
    .supported(
        "Make this share of writes repeat earlier data (as `dedupe_mode` says), \
         so that deduplicating storage stores fewer blocks.",
    ),
    opt(
        "dedupe_mode",
        Kind::Enum(&[
            ch("repeat", "repeat previous page"),
            ch(
                "working_set",
                "choose a page randomly from limited working set defined in \
         dedupe_working_set_percentage",
            ),
        ]),
        Category::Buffers,
        "Mode for the deduplication buffer generation",
    )
    .default("repeat")
    .supported(
        "`repeat`: a duplicate repeats the last unique write; `working_set`: one \
         of the first unique writes, `dedupe_working_set_percentage` of the job's \
         blocks. Default repeat.",
    ),
    opt(
        "dedupe_working_set_percentage",
        int(0, 100),
        Category::Buffers,
        "Dedupe working set size in percentages from file or device size used \
         to generate dedupe patterns from",
    )
    .default("5")
    .supported(
        "With `dedupe_mode=working_set`, the working set's size in percent of \
         the job's size. Default 5.",
    ),
    opt("dedupe_global", Kind::Bool, Category::Buffers, "Share deduplication buffers across jobs")
        .default("0")
        .supported(
            "Jobs that set it share one dedupe working set (with \
         `dedupe_mode=working_set`). Default false.",
        ),
    opt(
        "clat_percentiles",
        Kind::Bool,
        Category::Reporting,
        "Enable the reporting of completion latency percentiles",
    )
    .default("1")
    .supported("Report percentiles of completion latency. Default true."),
    opt(
        "lat_percentiles",
        Kind::Bool,
        Category::Reporting,
        "Enable the reporting of IO latency percentiles",
    )
    .default("0")
    .supported(
        "Report percentiles of total latency (submission plus completion). \
         Default false.",
    ),
    opt(
        "slat_percentiles",
        Kind::Bool,
        Category::Reporting,
        "Enable the reporting of submission latency percentiles",
    )
    .default("0")
    .supported("Report percentiles of submission latency. Default false."),
    opt(
        "percentile_list",
        Kind::FloatList,
        Category::Reporting,
        "Specify a custom list of percentiles to report for completion \
         latency and block errors",
    )
    .default("1:5:10:20:30:40:50:60:70:80:90:95:99:99.5:99.9:99.95:99.99")
    .supported(
        "The percentiles to report, separated by `:` (`50:99:99.9`): at most \
         20, each above 0 and at most 100, reported in increasing order. Default: 17 values \
         from 1 to 99.99.",
    ),
    opt(
        "significant_figures",
        int(1, 10),
        Category::Reporting,
        "Significant figures for output-format set to normal",
    )
    .default("4")
    .supported(
        "How many figures the normal report shows of scaled numbers (IOPS, \
         bandwidth, sizes): `2` prints `30MiB/s`, `6` prints `30692KiB/s`. Default 4.",
    ),
    opt(
        "block_latency",
        Kind::Bool,
        Category::Reporting,
        "Split each I/O's latency at the block layer",
    )
    .default("0")
    .supported(
        "iomark's own (fio 3.33 lacks it): follow the kernel's block tracepoints while the \
         job runs and split each I/O's completion latency into the time before the block \
         layer, the queue, the device and the completion path (docs/block-latency.md). Needs \
         root; without, a note says why and the job runs without the split. \
         `--block-latency` sets it for every job. Default false.",
    ),
    opt("disk_util", Kind::Bool, Category::Reporting, "Log disk utilization statistics")
        .default("1")
        .supported(
            "Report the utilisation of the disks under the job's files, read from \
         /sys/block. Default true.",
        ),
    opt("gtod_reduce", Kind::Bool, Category::Time, "Greatly reduce number of gettimeofday() calls")
        .default("0")
        .supported(
            "Sets disable_slat, disable_clat, disable_lat and disable_bw_measurement, and \
         leaves the IOPS log empty too (as fio 3.33 does); a disable_* option given after it \
         overrides it. iomark reads the clock once per I/O anyway, so only the report \
         changes. Default false.",
        ),
    opt("disable_lat", Kind::Bool, Category::Reporting, "Disable latency numbers")
        .default("0")
        .supported(
            "Do not record total latency: the lat figures stay at zero (N 0), the normal \
         report has no lat line and no lat log is written. fio 3.33 then reports a bogus \
         slat; iomark's slat stays right. Default false.",
        ),
    opt("disable_clat", Kind::Bool, Category::Reporting, "Disable completion latency numbers")
        .default("0")
        .supported(
            "Do not record completion latency: no clat figures, percentiles, latency \
         buckets (they count clat) or clat log. Default false.",
        ),
    opt("disable_slat", Kind::Bool, Category::Reporting, "Disable submission latency numbers")
        .default("0")
        .supported("Do not record submission latency: no slat figures or slat log. Default false."),
    opt("disable_bw_measurement", Kind::Bool, Category::Reporting, "Disable bandwidth logging")
        .alias(&["disable_bw"])
        .default("0")
        .supported(
            "The bandwidth log (write_bw_log) is created but stays empty; as in fio 3.33 the \
         report's bandwidth figures and samples are unchanged. Default false.",
        ),
    opt(
        "gtod_cpu",
        int(0, NOLIMIT),
        Category::Time,
        "Set up dedicated gettimeofday() thread on this CPU",
    )
    .supported(
        "fio 3.33 dedicates a thread on this CPU to reading the time of day for the jobs. \
         iomark's clock reads take a few nanoseconds (the TSC) and need no such thread: \
         accepted, with a note that it has no effect.",
    ),
    opt(
        "unified_rw_reporting",
        Kind::Enum(&[
            ch("none", "Normal statistics reporting"),
            ch("mixed", "Statistics are summed per data direction and reported together"),
            ch("both", "Statistics are reported normally, followed by the mixed statistics"),
            ch("0", "Alias for 'none'"),
            ch("1", "Alias for 'mixed'"),
            ch("2", "Alias for 'both'"),
        ]),
        Category::IoType,
        "Unify reporting across data direction",
    )
    .default("none")
    .supported(
        "Report reads, writes and trims apart (`none`, the default), as one `mixed` \
         direction (`mixed`), or both (`both`); `0`, `1`, `2` are the same. The mixed \
         latencies merge the directions' histograms, so their percentiles are exact.",
    ),
    opt(
        "continue_on_error",
        Kind::Enum(&[
            ch("none", "Exit when an error is encountered"),
            ch("read", "Continue on read errors only"),
            ch("write", "Continue on write errors only"),
            ch("io", "Continue on any IO errors"),
            ch("verify", "Continue on verify errors only"),
            ch("all", "Continue on all io and verify errors"),
            ch("0", "Alias for 'none'"),
            ch("1", "Alias for 'all'"),
        ]),
        Category::ErrorHandling,
        "Continue on non-fatal errors during IO",
    )
    .default("none")
    .supported(
        "Go on past failed I/Os of these kinds whose errno is EIO or EILSEQ (or in \
         ignore_error's list); the report then counts the errors (total_err, first_error). A \
         failed I/O counts as issued, with no bytes. Default none: the first error ends the job.",
    ),
    opt("error_dump", Kind::Bool, Category::ErrorHandling, "Dump info on each error")
        .default("0")
        .supported(
            "Describe every failed I/O on standard error (file, error, direction, offset, \
         length), not only the one that ends the job. Default false.",
        ),
    opt(
        "profile",
        Kind::Enum(&[
            ch("tiobench", "tiotest/tiobench benchmark"),
            ch("act", "ACT Aerospike like benchmark"),
        ]),
        Category::JobDescription,
        "Select a specific builtin performance test",
    )
    .supported(
        "On the command line, `--profile=tiobench` and `--profile=act` run fio's jobs of that \
         profile, act with its latency table and verdict (docs/workloads.md); the profile's own \
         options follow it (`--profile=act --cmdhelp` lists them). In a \
         job file fio 3.33 accepts it and runs the job as written, and so does iomark.",
    ),
    opt("cgroup", Kind::Str, Category::Threads, "Add job to cgroup of this name").supported(
        "The job runs in a child process of iomark, placed in this group of the \
         first blkio (v1) or cgroup2 hierarchy in /proc/mounts, as fio 3.33 places it; \
         the group is made if missing and removed after the job (docs/running.md).",
    ),
    opt(
        "cgroup_nodelete",
        Kind::Bool,
        Category::Threads,
        "Do not delete cgroups after job completion",
    )
    .default("0")
    .supported("The job's group stays after the job, as in fio 3.33."),
    opt("cgroup_weight", int(100, 1000), Category::Threads, "Use given weight for cgroup")
        .supported(
            "Written to the group's io.weight (cgroup v2, with the io controller \
             enabled for the group while the run needs it) or blkio.weight (v1); on v1 \
             without CFQ, where fio 3.33 fails the job, to BFQ's blkio.bfq.weight, with a \
             note.",
        ),
    opt("uid", int(0, NOLIMIT), Category::Threads, "Run job with this user ID").supported(
        "The job runs in a child process of iomark that takes this user ID before its \
         I/O; its files are laid out before, by iomark itself, as fio 3.33 does.",
    ),
    opt("gid", int(0, NOLIMIT), Category::Threads, "Run job with this group ID").supported(
        "The job runs in a child process of iomark that takes this group ID before its \
         I/O (and before uid).",
    ),
    opt(
        "kb_base",
        Kind::Enum(&[
            ch(
                "1024",
                "Inputs invert IEC and SI prefixes (for compatibility); outputs \
         prefer binary",
            ),
            ch("1000", "Inputs use IEC and SI prefixes; outputs prefer SI"),
        ]),
        Category::JobDescription,
        "Unit prefix interpretation for quantities of data (IEC and SI)",
    )
    .default("1024")
    .supported(
        "How size suffixes are read and sizes printed. With 1024 (the \
         default) `k`, `m`, `g` are powers of 1024 and, as in old fio, the IEC spellings \
         `KiB`, `MiB` are powers of 1000; with 1000 both take their standard meaning (SI \
         powers of 1000, IEC powers of 1024). The normal report shows SI units first with \
         1000 (`30.0MB/s (28.6MiB/s)`), IEC first with 1024; JSON is unchanged.",
    ),
    opt(
        "unit_base",
        Kind::Enum(&[ch("0", "Auto-detect"), ch("8", "Normal (byte based)"), ch("1", "Bit based")]),
        Category::Reporting,
        "Bit multiple of result summary data (8 for byte, 1 for bit)",
    )
    .supported(
        "`1` shows the bandwidth of the normal report in bits per second \
         (`240Mibit/s`); `8` and `0` (\"auto-detect\", which in fio 3.33 means bytes) in \
         bytes. Sizes, the bandwidth samples and JSON stay in bytes. Default: bytes.",
    ),
    opt(
        "hugepage-size",
        Kind::Size,
        Category::Buffers,
        "When using hugepages, specify size of each page",
    )
    .default("2097152")
    .supported(
        "The huge page size that `mem=mmaphuge` and `mem=shmhuge` round their \
         buffers up to (at least the system's). Default 2 MiB.",
    ),
    opt("flow_id", int(0, NOLIMIT), Category::Threads, "The flow index ID to use")
        .default("0")
        .supported(
            "The flow the job's `flow` weight belongs to; jobs with the same id share it. \
             Default 0.",
        ),
    opt("flow", int(0, 1000), Category::Threads, "Weight for flow control of this job")
        .default("0")
        .supported(
            "The job's weight in its flow (`flow_id`): the jobs of a flow keep their numbers \
             of I/Os in proportion to their weights (`flow=2` against `flow=1` issues twice \
             as many). A job that ends leaves the flow. Default 0: no flow control.",
        ),
    opt(
        "flow_sleep",
        int(0, NOLIMIT),
        Category::Threads,
        "How many microseconds to sleep after being held back by the flow \
         control mechanism",
    )
    .default("0")
    .supported(
        "How long, in microseconds, a job held back by its flow waits before it looks \
         again; 0 (the default) yields the CPU instead.",
    ),
    opt(
        "steadystate",
        Kind::Str,
        Category::SteadyState,
        "Define the criterion and limit to judge when a job has reached \
         steady state",
    )
    .alias(&["ss"])
    .default("iops_slope:0.01%")
    .supported(
        "What steady state is judged on, `CRITERION:LIMIT` with `LIMIT%` for a share of \
         the mean: `iops` or `bw` (every sample of the window within the limit of the \
         mean) or `iops_slope` or `bw_slope` (the least-squares slope within the limit). \
         Acts only with `ss_dur`. Default `iops_slope:0.01%`.",
    ),
    opt(
        "steadystate_duration",
        Kind::Time { unit: TimeUnit::Seconds },
        Category::SteadyState,
        "Stop workload upon attaining steady state for specified duration",
    )
    .alias(&["ss_dur"])
    .default("0")
    .supported(
        "Watch for steady state over a rolling window of this many seconds (one sample a \
         second) and end the job once it is reached; the reports then carry fio's \
         `steadystate` results. Default 0: no watch.",
    ),
    opt(
        "steadystate_ramp_time",
        Kind::Time { unit: TimeUnit::Seconds },
        Category::SteadyState,
        "Delay before initiation of data collection for steady state job \
         termination testing",
    )
    .alias(&["ss_ramp"])
    .default("0")
    .supported(
        "Leave out the steady-state samples of this first part of the job (seconds \
         without a unit). Default 0.",
    ),
    // Options that `fio --cmdhelp=all` does not list (their parent is itself a child option),
    // though fio accepts them and `--cmdhelp=NAME` describes them.
    opt(
        "bs_is_seq_rand",
        Kind::Bool,
        Category::BlockSize,
        "Consider any blocksize setting to be sequential,random",
    )
    .default("0")
    .supported(
        "Block sizes go by the kind of I/O instead of its direction: sequential I/Os take \
         the read sizes of `bs`, `bsrange` or `bssplit`, random ones the write sizes, \
         whether they read, write or trim. Default false.",
    ),
    opt(
        "softrandommap",
        Kind::Bool,
        Category::IoType,
        "Set norandommap if randommap allocation fails",
    )
    .default("0")
    .supported(
        "When the random map of a file cannot be allocated (a huge device with a small \
         block size), run without it as with `norandommap`; without this option such a \
         job is refused. Default false.",
    ),
    opt("iomem_align", Kind::Size, Category::Buffers, "IO memory buffer offset alignment")
        .alias(&["mem_align"])
        .default("0")
        .supported(
            "Align the I/O buffers in memory to this many bytes; 0 keeps the \
         default (page) alignment. Default 0.",
        ),
    opt(
        "verify_async_cpus",
        Kind::CpuList,
        Category::Verify,
        "Set CPUs allowed for async verify threads",
    )
    .supported(
        "The CPUs the `verify_async` helper threads may run on, a list as for \
         `cpus_allowed` (`0,5,8-15`). A CPU the system does not have is refused.",
    ),
];
