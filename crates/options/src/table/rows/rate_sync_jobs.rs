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
    .default("0"),
    opt(
        "thinktime_spin",
        Kind::Time { unit: TimeUnit::Micros },
        Category::IoRate,
        "Start think time by spinning this amount (usec)",
    )
    .default("0"),
    opt(
        "thinktime_blocks",
        int(0, NOLIMIT),
        Category::IoRate,
        "IO buffer period between 'thinktime'",
    )
    .default("1"),
    opt(
        "thinktime_blocks_type",
        Kind::Enum(&[
            ch("complete", "thinktime_blocks takes effect at the completion side"),
            ch("issue", "thinktime_blocks takes effect at the issue side"),
        ]),
        Category::IoRate,
        "How thinktime_blocks takes effect",
    )
    .default("complete"),
    opt(
        "thinktime_iotime",
        Kind::Time { unit: TimeUnit::Seconds },
        Category::IoRate,
        "IO time interval between 'thinktime'",
    )
    .default("0"),
    opt("rate", Kind::SizePerDir, Category::IoRate, "Set bandwidth rate"),
    opt(
        "rate_min",
        Kind::SizePerDir,
        Category::IoRate,
        "Job must meet this rate or it will be shutdown",
    )
    .alias(&["ratemin"]),
    opt(
        "rate_process",
        Kind::Enum(&[
            ch("linear", "Linear rate of IO"),
            ch("poisson", "Rate follows Poisson process"),
        ]),
        Category::IoRate,
        "What process controls how rated IO is managed",
    )
    .default("linear"),
    opt(
        "rate_cycle",
        int(0, NOLIMIT),
        Category::IoLatency,
        "Window average for rate limits (msec)",
    )
    .alias(&["ratecycle"])
    .default("1000"),
    opt(
        "rate_ignore_thinktime",
        Kind::Bool,
        Category::IoRate,
        "Rated IO ignores thinktime settings",
    ),
    opt(
        "rate_iops",
        Kind::IntPerDir,
        Category::IoRate,
        "Limit IO used to this number of IO operations/sec",
    ),
    opt(
        "rate_iops_min",
        Kind::IntPerDir,
        Category::IoRate,
        "Job must meet this rate or it will be shut down",
    ),
    opt("max_latency", Kind::Str, Category::IoLatency, "Maximum tolerated IO latency (usec)"),
    opt(
        "latency_target",
        Kind::Time { unit: TimeUnit::Micros },
        Category::IoLatency,
        "Ramp to max queue depth supporting this latency",
    ),
    opt(
        "latency_window",
        Kind::Time { unit: TimeUnit::Micros },
        Category::IoLatency,
        "Time to sustain latency_target",
    ),
    opt(
        "latency_percentile",
        Kind::Float { min: 0.0, max: 100.0 },
        Category::IoLatency,
        "Percentile of IOs must be below latency_target",
    )
    .default("100"),
    opt(
        "latency_run",
        Kind::Bool,
        Category::IoLatency,
        "Keep adjusting queue depth to match latency_target",
    )
    .default("0"),
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
    ),
    opt("create_serialize", Kind::Bool, Category::Target, "Serialize creation of job files")
        .default("1"),
    opt("create_fsync", Kind::Bool, Category::Target, "fsync file after creation").default("1"),
    opt("create_on_open", Kind::Bool, Category::Target, "Create files when they are opened for IO")
        .default("0")
        .supported(
            "Create each file when the job first opens it for I/O, instead of \
         laying the files out before the job starts. Default false.",
        ),
    opt("create_only", Kind::Bool, Category::Target, "Only perform file creation phase")
        .default("0"),
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
    .default("0"),
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
    .default("0"),
    opt("exitall", Kind::Flag, Category::Threads, "Terminate all jobs when one exits"),
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
    .default("group"),
    opt(
        "exitall_on_error",
        Kind::Flag,
        Category::ErrorHandling,
        "Terminate all jobs when one exits in error",
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
        "fio runs jobs as forked processes unless this is set. iomark always \
         runs each job as a thread, so the option is accepted and changes nothing.",
    ),
];
