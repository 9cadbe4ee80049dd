//! The engine-specific options (`fio --enghelp=ENGINE`) of `pvsync2`, `io_uring`, `io_uring_cmd`,
//! `libaio`, `mmap`, `net`, `netsplice`, `cpuio`, `filestat`, `exec`, `e4defrag`.
//!
//! An option that several engines share is one row listing them all. The rows are in one order
//! that keeps each engine's own `--enghelp` order.

use super::{ch, int, opt, Category, Kind, OptionDef, NOLIMIT};

/// The engine options.
pub(super) const ROWS: &[OptionDef] = &[
    opt("hipri", Kind::Flag, Category::Engine, "Set RWF_HIPRI for pwritev2/preadv2")
        .engines(&["pvsync2", "io_uring", "io_uring_cmd"])
        .supported(
            "With pvsync2, issue I/O with RWF_HIPRI so that the kernel polls for \
         its completion instead of waiting for an interrupt; this needs O_DIRECT and a \
         device with poll queues. io_uring uses the same option to set up a polled ring.",
        ),
    opt(
        "hipri_percentage",
        int(0, 100),
        Category::Engine,
        "Probabilistically set RWF_HIPRI for pwritev2/preadv2",
    )
    .default("100")
    .engines(&["pvsync2"])
    .supported(
        "With `hipri`, the share in percent of the I/Os that ask for polled completion \
         (`RWF_HIPRI`), spread evenly (fio draws each I/O at random); the others complete \
         by interrupt. Where the file cannot be polled \
         (a file system, a device without poll queues) the kernel ignores the flag, as \
         fio 3.33 lets it. Default 100.",
    ),
    opt(
        "userspace_reap",
        Kind::Flag,
        Category::Engine,
        "Use alternative user-space reap implementation",
    )
    .engines(&["libaio"])
    .supported(
        "Read completions from the AIO ring in user space instead of calling \
         io_getevents, when the job polls for completions without waiting \
         (`iodepth_batch_complete_min=0`).",
    ),
    opt(
        "cmdprio_percentage",
        Kind::IntPerDir,
        Category::Engine,
        "Send high priority I/O this percentage of the time",
    )
    .engines(&["io_uring", "io_uring_cmd", "libaio"])
    .supported(
        "Give this percentage (0-100; `R,W` per direction) of the reads and writes, drawn \
         at random, the priority of cmdprio_class and cmdprio. The report then shows the \
         latency of each priority (clat, or lat with lat_percentiles), as fio does.",
    ),
    opt("cmdprio_class", Kind::IntPerDir, Category::Engine, "Set asynchronous IO priority class")
        .engines(&["io_uring", "io_uring_cmd", "libaio"])
        .supported(
            "The I/O priority class (1 real time, 2 best effort, 3 idle; `R,W`) of the I/Os \
         cmdprio_percentage or cmdprio_bssplit pick. Default 1.",
        ),
    opt("cmdprio", Kind::IntPerDir, Category::Engine, "Set asynchronous IO priority level")
        .engines(&["io_uring", "io_uring_cmd", "libaio"])
        .supported(
            "The I/O priority level (0 highest to 7; `R,W`) of the I/Os cmdprio_percentage or \
         cmdprio_bssplit pick. Default 0.",
        ),
    opt(
        "cmdprio_bssplit",
        Kind::Str,
        Category::Engine,
        "Set priority percentages for different block sizes",
    )
    .engines(&["io_uring", "io_uring_cmd", "libaio"])
    .supported(
        "Per block size, the percentage of I/Os given a priority: `4k/30:64k/10`, or with \
         their own class and level `4k/30/1/0:64k/10/2/4`; `R,W` lists per direction. \
         Excludes cmdprio_percentage.",
    ),
    opt("fixedbufs", Kind::Flag, Category::Engine, "Pre map IO buffers")
        .engines(&["io_uring", "io_uring_cmd"])
        .supported(
            "io_uring: register the job's I/O buffers with the ring once, and read \
         and write with READ_FIXED/WRITE_FIXED, which saves mapping them per I/O. When a \
         job sets neither this nor `registerfiles`, iomark registers both where the kernel \
         allows (docs/engines.md); setting either makes the job's choice exact.",
        ),
    opt("registerfiles", Kind::Flag, Category::Engine, "Pre-open/register files")
        .engines(&["io_uring", "io_uring_cmd"])
        .supported(
            "io_uring: register the job's files with the ring once and address them \
         by index, which saves a file lookup per I/O. On by default in iomark unless the \
         job sets this or `fixedbufs` (docs/engines.md).",
        ),
    opt(
        "sqthread_poll",
        Kind::Flag,
        Category::Engine,
        "Offload submission/completion to kernel thread",
    )
    .engines(&["io_uring", "io_uring_cmd"])
    .supported(
        "io_uring: a kernel thread polls the submission queue \
         (IORING_SETUP_SQPOLL), so that submitting needs no system call while it is awake \
         (unprivileged since Linux 5.11).",
    ),
    opt(
        "sqthread_poll_cpu",
        int(0, NOLIMIT),
        Category::Engine,
        "What CPU to run SQ thread polling on",
    )
    .engines(&["io_uring", "io_uring_cmd"])
    .supported("io_uring: the CPU the `sqthread_poll` thread runs on (IORING_SETUP_SQ_AFF)."),
    opt("nonvectored", int(-1, NOLIMIT), Category::Engine, "Use non-vectored read/write commands")
        .default("-1")
        .engines(&["io_uring", "io_uring_cmd"])
        .supported(
            "io_uring: 1 reads and writes with READ/WRITE, 0 with READV/WRITEV; -1 \
         (the default) uses READ/WRITE where the kernel has them (Linux 5.6).",
        ),
    opt("uncached", int(0, NOLIMIT), Category::Engine, "Use RWF_UNCACHED for buffered read/writes")
        .engines(&["pvsync2", "io_uring", "io_uring_cmd"])
        .supported(
            "Non-zero: buffered reads and writes with RWF_DONTCACHE (Linux 6.14; \
         the flag was called RWF_UNCACHED while it was proposed), which drops the pages from \
         the page cache once the I/O is done. fio 3.33 sends the proposal's old value, which \
         later kernels give another meaning; iomark sends the merged one.",
        ),
    opt("nowait", Kind::Bool, Category::Engine, "Set RWF_NOWAIT for pwritev2/preadv2")
        .engines(&["pvsync2", "io_uring", "io_uring_cmd", "libaio"])
        .supported(
            "Issue I/O with RWF_NOWAIT: an I/O that would have to block fails \
         with EAGAIN instead of waiting.",
        ),
    opt("force_async", int(0, NOLIMIT), Category::Engine, "Set IOSQE_ASYNC every N requests")
        .engines(&["io_uring", "io_uring_cmd"])
        .supported(
            "io_uring: set IOSQE_ASYNC on every Nth request, which makes the kernel \
         hand it to a worker thread instead of trying it inline first (0: never).",
        ),
    opt(
        "cmd_type",
        Kind::Enum(&[ch("nvme", "Issue nvme-uring-cmd")]),
        Category::Engine,
        "Specify uring-cmd type",
    )
    .default("nvme")
    .engines(&["io_uring", "io_uring_cmd"])
    .supported(
        "The command type of io_uring_cmd's NVMe passthrough, which iomark does not run. \
         fio 3.33 accepts it with io_uring, where it has no effect; so does iomark, with a \
         note.",
    ),
    opt("thp", int(0, NOLIMIT), Category::Engine, "Memory Advise Huge Page")
        .engines(&["mmap"])
        .supported(
            "mmap: non-zero maps each file privately (MAP_PRIVATE) and advises transparent \
         huge pages (MADV_HUGEPAGE), as fio 3.33 does: writes then stay in the private copy \
         and never reach the file.",
        ),
    opt("hostname", Kind::Str, Category::Engine, "Hostname for net IO engine")
        .engines(&["net", "netsplice"])
        .supported("net: the host a sender connects (TCP) or sends (UDP) to; a TCP listener or a UDP reader binds every address and leaves it out."),
    opt("port", int(1, 65535), Category::Engine, "Port to use for TCP or UDP net connections")
        .engines(&["net", "netsplice"])
        .supported("net: the TCP or UDP port to bind to or connect to (required but for `protocol=unix`, which refuses it)."),
    opt(
        "protocol",
        Kind::Enum(&[
            ch("tcp", "Transmission Control Protocol"),
            ch("tcpv6", "Transmission Control Protocol V6"),
            ch("udp", "User Datagram Protocol"),
            ch("udpv6", "User Datagram Protocol V6"),
            ch("unix", "UNIX domain socket"),
        ]),
        Category::Engine,
        "Network protocol to use",
    )
    .alias(&["proto"])
    .default("tcp")
    .engines(&["net", "netsplice"])
    .supported("net: `tcp`, `tcpv6`, `udp`, `udpv6`, or `unix` (a stream socket at the path `filename`; the reader binds it)."),
    opt("nodelay", Kind::Bool, Category::Engine, "Use TCP_NODELAY on TCP connections")
        .engines(&["net", "netsplice"])
        .supported("net: sets TCP_NODELAY on the TCP connection."),
    opt("listen", Kind::Flag, Category::Engine, "Listen for incoming TCP connections")
        .engines(&["net", "netsplice"])
        .supported("net: the TCP job listens and accepts one connection instead of connecting (TCP only, as fio 3.33)."),
    opt("pingpong", Kind::Flag, Category::Engine, "Ping-pong IO requests")
        .engines(&["net", "netsplice"])
        .supported("net: a writer waits for each block to come back before the next; a reader sends each block it receives back. The latency is the round trip."),
    opt("interface", Kind::Str, Category::Engine, "Network interface to use")
        .engines(&["net", "netsplice"])
        .supported("net: the address of the interface UDP multicast goes out of (IP_MULTICAST_IF) or is received on."),
    opt(
        "ttl",
        int(0, NOLIMIT),
        Category::Engine,
        "Time-to-live value for outgoing UDP multicast packets",
    )
    .default("1")
    .engines(&["net", "netsplice"])
    .supported("net: the time to live of outgoing UDP multicast packets (IP_MULTICAST_TTL). Default 1."),
    opt("window_size", Kind::Size, Category::Engine, "Set socket buffer window size")
        .engines(&["net", "netsplice"])
        .supported("net: the socket's send and receive buffer sizes (SO_SNDBUF, SO_RCVBUF)."),
    opt("mss", int(0, NOLIMIT), Category::Engine, "Set TCP maximum segment size")
        .engines(&["net", "netsplice"])
        .supported("net: the TCP maximum segment size (TCP_MAXSEG)."),
    opt("cpuload", int(0, NOLIMIT), Category::Engine, "Use this percentage of CPU")
        .engines(&["cpuio"])
        .supported(
            "cpuio: the share of its CPU, in percent, the job keeps busy: each I/O burns \
         `cpuchunks` microseconds, and the job thinks `cpuchunks × (100 − cpuload) / \
         cpuload` microseconds between them. Required with cpuio.",
        ),
    opt("cpuchunks", int(0, NOLIMIT), Category::Engine, "Length of the CPU burn cycles (usecs)")
        .default("50000")
        .engines(&["cpuio"])
        .supported("cpuio: how long each I/O burns the CPU, in microseconds. Default 50000."),
    opt(
        "cpumode",
        Kind::Enum(&[ch("noop", "NOOP instructions"), ch("qsort", "QSORT computation")]),
        Category::Engine,
        "Stress mode",
    )
    .default("noop")
    .engines(&["cpuio"])
    .supported(
        "cpuio: how the CPU is burnt: `noop` spins, `qsort` sorts arrays until the chunk is \
         spent (fio 3.33's sorts run past the chunk; iomark's stop at it).",
    ),
    opt("exit_on_io_done", Kind::Bool, Category::Engine, "Exit when IO threads finish")
        .default("0")
        .engines(&["cpuio"])
        .supported(
            "cpuio: end the job once every job of the run that is not cpuio has ended (those \
         that started), as if its runtime were over. The other jobs of its reporting group \
         that are still running stop with it.",
        ),
    opt(
        "stat_type",
        Kind::Enum(&[
            ch("stat", "Use stat(2)"),
            ch("lstat", "Use lstat(2)"),
            ch("statx", "Use statx(2) if exists"),
        ]),
        Category::Engine,
        "Specify stat system call type to measure lookup/getattr performance",
    )
    .default("stat")
    .engines(&["filestat"])
    .supported(
        "The system call filestat times on each file: stat(2) (the default), lstat(2), or \
         statx(2) asking for the basic statistics.",
    ),
    opt("uri", Kind::Str, Category::Engine, "Name of NBD URI").engines(&["nbd"]).supported(
        "nbd: the server and export, as an NBD URI: `nbd://HOST[:PORT][/EXPORT]` (port \
         10809 by default) or `nbd+unix:///[EXPORT]?socket=PATH`. TLS (`nbds://`) is \
         refused. Without `size` the job covers the whole export.",
    ),
    opt("program", Kind::Str, Category::Engine, "Program to execute")
        .engines(&["exec"])
        .supported("exec: the program the job runs for its runtime (required)."),
    opt("arguments", Kind::Str, Category::Engine, "Arguments to pass")
        .engines(&["exec"])
        .supported(
            "exec: the program's arguments, split at blanks; `%r` is the job's runtime in \
         seconds, `%n` its name.",
        ),
    opt("grace_time", int(0, NOLIMIT), Category::Engine, "Grace time before sending a SIGKILL")
        .default("1")
        .engines(&["exec"])
        .supported(
            "exec: seconds between the SIGTERM a program still running gets when the job \
         ends and the SIGKILL. Default 1.",
        ),
    opt("std_redirect", Kind::Bool, Category::Engine, "Redirect stdout & stderr to files")
        .default("1")
        .engines(&["exec"])
        .supported(
            "exec: the program's standard output and error go to `NAME.stdout` and \
         `NAME.stderr` in the working directory. Default true.",
        ),
    opt("donorname", Kind::Str, Category::Engine, "File used as a block donor")
        .engines(&["e4defrag"])
        .supported(
            "e4defrag: the donor file whose blocks each write swaps into the job's file \
         (EXT4_IOC_MOVE_EXT), on the same ext4 file system; under `directory` when \
         relative. Required. It is created if missing and left behind, as fio 3.33 leaves it.",
        ),
    opt("inplace", int(0, 1), Category::Engine, "Alloc and free space inside defrag event")
        .engines(&["e4defrag"])
        .supported(
            "e4defrag: 0 (the default) allocates the donor's blocks once, before the job; 1 \
         allocates each write's range in the donor inside the write (fallocate) and frees it \
         after the move (ftruncate to 0), all timed.",
        ),
    opt("threadpool_min", int(1, 2000), Category::Engine, "Worker threads started with the job")
        .engines(&["threadpool", "guasi"])
        .supported(
            "iomark's own: how many worker threads the threadpool engine starts with \
         the job. Default: `iodepth`, at most 2000.",
        ),
    opt("threadpool_max", int(1, 2000), Category::Engine, "Most worker threads of the pool")
        .engines(&["threadpool", "guasi"])
        .supported(
            "iomark's own: the most worker threads the pool grows to when every \
         worker is busy (a thread is started on the I/O path, at most \
         `threadpool_max - threadpool_min` times a job). Default: `iodepth`, at most 2000.",
        ),
];
