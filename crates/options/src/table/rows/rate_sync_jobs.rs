//! Mix, priorities, think time, rate, latency, file creation, CPUs and job synchronization:
//! `rwmixread` to `thread`.

use super::{ch, int, opt, Category, Kind, OptionDef, TimeUnit, NOLIMIT};

/// The rows of this part, in fio's order.
pub(super) const ROWS: &[OptionDef] = &[
    opt("rwmixread", int(0, 100), Category::IoType, "Percentage of mixed workload that is reads")
        .default("50")
        .supported(
            "For mixed patterns, the percentage of I/Os that are reads; setting \
         it also sets `rwmixwrite` to the rest of 100. Default 50.",
        ),
    opt("rwmixwrite", int(0, 100), Category::IoType, "Percentage of mixed workload that is writes")
        .default("50")
        .supported(
            "For mixed patterns, the percentage of I/Os that are writes; setting \
         it also sets `rwmixread` to the rest of 100. Default 50.",
        ),
    opt("nice", int(-20, 19), Category::Threads, "Set job CPU nice value").default("0").supported(
        "Add this to the nice value of the job's thread (as nice(2) does), before any I/O; \
         lowering it needs privilege. Default 0.",
    ),
    opt("prio", int(0, 7), Category::Threads, "Set job IO priority value").supported(
        "The I/O priority level of the job's thread (ioprio_set(2)), 0 highest to 7 lowest; \
         alone it is of the best-effort class.",
    ),
    opt("prioclass", int(0, 3), Category::Threads, "Set job IO priority class").supported(
        "The I/O priority class of the job's thread: 1 real time (needs privilege), 2 best \
         effort, 3 idle; alone it is at level 0.",
    ),
    opt(
        "thinktime",
        Kind::Time { unit: TimeUnit::Micros },
        Category::IoRate,
        "Idle time between IO buffers (usec)",
    )
    .default("0")
    .supported(
        "Pause this long (microseconds without a unit) after every `thinktime_blocks` \
         I/Os, having first waited for the I/Os in flight; the last I/O is followed by its \
         pause too. Default 0: no pause.",
    ),
    opt(
        "thinktime_spin",
        Kind::Time { unit: TimeUnit::Micros },
        Category::IoRate,
        "Start think time by spinning this amount (usec)",
    )
    .default("0")
    .supported(
        "Spend this much of each `thinktime` pause spinning on the CPU, as if processing \
         data, and sleep the rest. Default 0.",
    ),
    opt(
        "thinktime_blocks",
        int(0, NOLIMIT),
        Category::IoRate,
        "IO buffer period between 'thinktime'",
    )
    .default("1")
    .supported(
        "Pause after this many I/Os. With `iodepth` above it the queue never fills, as \
         in fio. Default 1 (every I/O), or none when `thinktime_iotime` is given alone.",
    ),
    opt(
        "thinktime_blocks_type",
        Kind::Enum(&[
            ch("complete", "thinktime_blocks takes effect at the completion side"),
            ch("issue", "thinktime_blocks takes effect at the issue side"),
        ]),
        Category::IoRate,
        "How thinktime_blocks takes effect",
    )
    .default("complete")
    .supported(
        "Count `thinktime_blocks` as I/Os complete (`complete`, the default) or as \
         they are issued (`issue`).",
    ),
    opt(
        "thinktime_iotime",
        Kind::Time { unit: TimeUnit::Seconds },
        Category::IoRate,
        "IO time interval between 'thinktime'",
    )
    .default("0")
    .supported(
        "Pause by time (seconds without a unit): the pauses start `thinktime_iotime` \
         plus `thinktime` apart, the first that long after the start, as in fio 3.33; with \
         `thinktime_blocks` also given, whichever comes first.",
    ),
    opt("rate", Kind::SizePerDir, Category::IoRate, "Set bandwidth rate").supported(
        "Cap the bandwidth in bytes per second, per direction (`rate=1m,500k`; \
         `rate=500k,` limits reads only). I/Os are issued on a schedule fixed from the job's \
         start and a job that falls behind catches up; a rate-limited job also reports its \
         latency from each I/O's intended start (`corrected lat`, JSON `lat_ns_corrected`). \
         In a mixed job the rates choose the direction, as in fio. Not with `rate_iops`.",
    ),
    opt(
        "rate_min",
        Kind::SizePerDir,
        Category::IoRate,
        "Job must meet this rate or it will be shutdown",
    )
    .alias(&["ratemin"])
    .supported(
        "The least bandwidth, in bytes per second per direction. After two seconds, the \
         job checks every `rate_cycle` ms that each direction it performs moved at least \
         this much, and ends with an I/O error (and fio's `rate_min=… not met` message) \
         when one did not.",
    ),
    opt(
        "rate_process",
        Kind::Enum(&[
            ch("linear", "Linear rate of IO"),
            ch("poisson", "Rate follows Poisson process"),
        ]),
        Category::IoRate,
        "What process controls how rated IO is managed",
    )
    .default("linear")
    .supported(
        "How rate-limited I/Os are spaced: `linear` (fixed gaps) or `poisson` \
         (exponentially distributed gaps of the same mean, seeded by the job's seed). \
         Default `linear`.",
    ),
    opt(
        "rate_cycle",
        int(0, NOLIMIT),
        Category::IoLatency,
        "Window average for rate limits (msec)",
    )
    .alias(&["ratecycle"])
    .default("1000")
    .supported(
        "The window, in milliseconds, over which `rate_min` and `rate_iops_min` are \
         checked. Default 1000.",
    ),
    opt(
        "rate_ignore_thinktime",
        Kind::Bool,
        Category::IoRate,
        "Rated IO ignores thinktime settings",
    )
    .supported(
        "A rate-limited job does not make up for its think time: after a pause its \
         schedule goes on from the pause's end instead of issuing the overdue I/Os at once.",
    ),
    opt(
        "rate_iops",
        Kind::IntPerDir,
        Category::IoRate,
        "Limit IO used to this number of IO operations/sec",
    )
    .supported(
        "Cap the I/Os per second, per direction (`rate_iops=100,50`). With a range or \
         split of block sizes, the smallest block size turns it into a byte rate, as in fio. \
         Otherwise as `rate`, with which it cannot be combined.",
    ),
    opt(
        "rate_iops_min",
        Kind::IntPerDir,
        Category::IoRate,
        "Job must meet this rate or it will be shut down",
    )
    .supported(
        "The least I/Os per second per direction, checked as `rate_min` is; the job ends \
         with an I/O error and fio's `rate_iops_min=… not met` message when it falls short.",
    ),
    opt("max_latency", Kind::Str, Category::IoLatency, "Maximum tolerated IO latency (usec)")
        .supported(
            "The most latency an I/O may take, per direction (`max_latency=5ms` or \
             `500,2ms`; microseconds without a unit). The first I/O over it ends the job \
             with ETIMEDOUT and fio's `latency of N nsec exceeds specified max` message.",
        ),
    opt(
        "latency_target",
        Kind::Time { unit: TimeUnit::Micros },
        Category::IoLatency,
        "Ramp to max queue depth supporting this latency",
    )
    .supported(
        "Search for the highest queue depth, up to `iodepth`, whose I/Os meet this latency \
         (microseconds without a unit): windows of `latency_window` at depth 1, 2, 4, … \
         then bisection after a failure, then a final window at the depth found, whose \
         statistics make the report; the depth shows in `latency : … depth=N`.",
    ),
    opt(
        "latency_window",
        Kind::Time { unit: TimeUnit::Micros },
        Category::IoLatency,
        "Time to sustain latency_target",
    )
    .supported(
        "How long each depth is tried by the `latency_target` search (microseconds \
         without a unit).",
    ),
    opt(
        "latency_percentile",
        Kind::Float { min: 0.0, max: 100.0 },
        Category::IoLatency,
        "Percentile of IOs must be below latency_target",
    )
    .default("100")
    .supported(
        "The share of I/Os in a window that must meet `latency_target`, in percent. At \
         100, one I/O over the target fails its window at once. Default 100.",
    ),
    opt(
        "latency_run",
        Kind::Bool,
        Category::IoLatency,
        "Keep adjusting queue depth to match latency_target",
    )
    .default("0")
    .supported(
        "Keep adjusting the depth for the whole run instead of ending the job once the \
         `latency_target` depth is found. Default false.",
    ),
    opt(
        "invalidate",
        Kind::Bool,
        Category::Buffers,
        "Invalidate buffer/page cache prior to running job",
    )
    .default("1")
    .supported(
        "Drop the files' pages from the page cache before the job starts, so \
         that reads reach the device. Default true.",
    ),
    opt(
        "sync",
        Kind::Enum(&[
            ch("none", "Neither O_SYNC nor O_DSYNC"),
            ch("0", "Alias for 'none'"),
            ch("sync", "Open files with O_SYNC"),
            ch("1", "Alias for 'sync'"),
            ch("dsync", "Open files with O_DSYNC"),
        ]),
        Category::Buffers,
        "Use synchronous write IO",
    )
    .default("none")
    .supported(
        "Open files for synchronous writes: `sync` (or `1`) with O_SYNC, \
         `dsync` with O_DSYNC, `none` (or `0`) with neither. Default `none`.",
    ),
    opt(
        "write_hint",
        Kind::Enum(&[
            ch("none", "No expected life time"),
            ch("short", "Data is expected to be overwritten soon"),
            ch("medium", "Data is expected to live longer than 'short'"),
            ch("long", "Data is expected to live longer than 'medium'"),
            ch("extreme", "Data is expected to live longest"),
        ]),
        Category::IoType,
        "Set expected write life time",
    )
    .supported(
        "Tell the kernel how long the data written to the job's files is expected to \
         live (`fcntl` `F_SET_RW_HINT`, Linux 4.13 and later), for every regular file and \
         block device of the job when it starts. When the kernel refuses, the job fails \
         before any I/O, as in fio.",
    ),
    opt("create_serialize", Kind::Bool, Category::Target, "Serialize creation of job files")
        .default("1")
        .supported(
            "Lay out the job's files one job after the other, in job order (the \
         default). With 0, the job's files are laid out in a thread of their own, beside the \
         other jobs' layouts. Either way the layouts are done before any job starts its I/O \
         (`create_on_open` jobs lay out their own files when they start).",
        ),
    opt("create_fsync", Kind::Bool, Category::Target, "fsync file after creation")
        .default("1")
        .supported(
            "Call fsync on each file the layout created or extended, before the \
         job starts. Default true.",
        ),
    opt("create_on_open", Kind::Bool, Category::Target, "Create files when they are opened for IO")
        .default("0")
        .supported(
            "Create each file when the job first opens it for I/O, instead of \
         laying the files out before the job starts. Default false.",
        ),
    opt("create_only", Kind::Bool, Category::Target, "Only perform file creation phase")
        .default("0")
        .supported(
            "Lay out the job's files and do no I/O: the job is reported with nothing \
         done, as in fio. Default false.",
        ),
    opt(
        "allow_file_create",
        Kind::Bool,
        Category::Target,
        "Permit fio to create files, if they don't exist",
    )
    .default("1")
    .supported(
        "Whether the job may create files that do not exist yet; when false, \
         a missing file is an error. Default true.",
    ),
    opt("allow_mounted_write", Kind::Bool, Category::Target, "Allow writes to a mounted partition")
        .default("0")
        .supported(
            "Allow writes to a block device that is mounted or otherwise in use; \
         without it such jobs are refused with the reason. Default false.",
        ),
    opt(
        "pre_read",
        Kind::Bool,
        Category::Target,
        "Pre-read files before starting official testing",
    )
    .default("0")
    .supported(
        "Read each file's region into the page cache before the job starts (not \
         timed), and skip `invalidate`, as fio does. The reads go through the cache even \
         with `direct=1`. The null engine reads nothing. Default false.",
    ),
    opt("cpumask", int(0, NOLIMIT), Category::Threads, "CPU affinity mask").supported(
        "Bit mask of the CPUs the job's thread may run on (34 is CPUs 1 and 5); the same \
         setting as cpus_allowed, the later one wins. A CPU the system does not have is \
         refused.",
    ),
    opt("cpus_allowed", Kind::CpuList, Category::Threads, "Set CPUs allowed").supported(
        "The CPUs the job's thread (and the engine's threads) may run on: `0,5,8-15`. A CPU \
         the system does not have is refused.",
    ),
    opt(
        "cpus_allowed_policy",
        Kind::Enum(&[
            ch("shared", "Mask shared between threads"),
            ch("split", "Mask split between threads"),
        ]),
        Category::Threads,
        "Distribution policy for cpus_allowed",
    )
    .supported(
        "shared (the default): every job may use the whole set; split: job number N of the run (from 0, \
         clones counted) gets the (N mod size)-th CPU of the set alone.",
    ),
    opt("numa_cpu_nodes", Kind::Str, Category::Threads, "NUMA CPU nodes bind").supported(
        "Run the job on the CPUs of these NUMA nodes (`0,2-3` or `all`), read from \
         /sys/devices/system/node; no libnuma needed. Overrides cpus_allowed.",
    ),
    opt("numa_mem_policy", Kind::Str, Category::Threads, "NUMA memory policy setup").supported(
        "The job thread's memory policy, set with set_mempolicy(2): `default`, `local`, \
         `prefer:N`, `bind:NODES` or `interleave:NODES` (NODES as numa_cpu_nodes).",
    ),
    opt("end_fsync", Kind::Bool, Category::IoType, "Include fsync at the end of job")
        .default("0")
        .supported(
            "Call fsync on the files when the job's writes are done; the time \
         counts towards the job. Default false.",
        ),
    opt("fsync_on_close", Kind::Bool, Category::IoType, "fsync files on close")
        .default("0")
        .supported(
            "Call fsync whenever a file is closed, which may happen more than \
         once per job when files are reopened. Default false.",
        ),
    opt("unlink", Kind::Bool, Category::Target, "Unlink created files after job has completed")
        .default("0")
        .supported("Delete the job's files when the job ends. Default false."),
    opt(
        "unlink_each_loop",
        Kind::Bool,
        Category::Target,
        "Unlink created files after each loop in a job has completed",
    )
    .default("0")
    .supported(
        "Between loops, close the job's files, delete them and open them again (a job \
         that writes creates them anew and fills them; one that only reads fails, as in \
         fio). A job that ends before its last loop, or runs `time_based`, deletes its \
         files at the end too. Not with `ioengine=mmap`. Default false.",
    ),
    opt("exitall", Kind::Flag, Category::Threads, "Terminate all jobs when one exits").supported(
        "When a job ends, stop the jobs of its reporting group (or those its \
         `exit_what` names). As in fio 3.33, setting it on any job turns it on for the whole \
         run, and a job stopped this way ends the others in turn. See docs/job-files.md.",
    ),
    opt(
        "exit_what",
        Kind::Enum(&[
            ch("group", "exit_all=1 default behaviour"),
            ch("stonewall", "quit all currently running jobs; continue with next stonewall"),
            ch("all", "Quit everything"),
        ]),
        Category::Threads,
        "Fine-grained control for exitall",
    )
    .default("group")
    .supported(
        "Which jobs this job's end stops under `exitall` or `exitall_on_error`: \
         `group` (the default) its reporting group; `stonewall` every job up to the next \
         `stonewall`, after which the run goes on; `all` every job, and no later job \
         starts.",
    ),
    opt(
        "exitall_on_error",
        Kind::Flag,
        Category::ErrorHandling,
        "Terminate all jobs when one exits in error",
    )
    .supported(
        "When this job ends with an error, stop the jobs its `exit_what` names (by \
         default its reporting group), as fio 3.33 does.",
    ),
    opt(
        "stonewall",
        Kind::Flag,
        Category::Threads,
        "Insert a hard barrier between this job and previous",
    )
    .alias(&["wait_for_previous"])
    .supported(
        "Start this job only after every job defined before it has finished. \
         It also starts a new reporting group.",
    ),
    opt(
        "new_group",
        Kind::Flag,
        Category::Reporting,
        "Mark the start of a new group (for reporting)",
    )
    .supported(
        "Start a new reporting group with this job, without waiting for the \
         jobs before it.",
    ),
    opt("thread", Kind::Flag, Category::Threads, "Use threads instead of processes").supported(
        "fio runs jobs as forked processes unless this is set. iomark runs each job \
         as a thread, unless the job needs a process of its own (cgroup, uid, gid) or \
         --job-processes asks for fio's process model, which runs every job without \
         thread in a child process of iomark.",
    ),
];
