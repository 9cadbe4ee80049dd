//! Job, files, I/O pattern, block sizes, depth and I/O size: `description` to `overwrite`.

use super::{ch, int, opt, Category, ChoiceArg, Kind, OptionDef, NOLIMIT};

/// The rows of this part, in fio's order.
pub(super) const ROWS: &[OptionDef] = &[
    opt("description", Kind::Str, Category::JobDescription, "Text job description").supported(
        "Free text describing the job. It is printed in the report and has no \
         effect on the workload.",
    ),
    opt("name", Kind::Str, Category::JobDescription, "Name of this job").supported(
        "Names the job. The name is printed in the report and replaces \
         `$jobname` in generated file names; a section header in a job file sets it too, \
         and on the command line `--name` starts a new job.",
    ),
    opt(
        "wait_for",
        Kind::Str,
        Category::Threads,
        "Name of the job this one wants to wait for before starting",
    )
    .supported(
        "Start this job only after the named job has finished. The named job \
         must be defined earlier in the same job file.",
    ),
    opt("filename", Kind::FileList, Category::Target, "File(s) to use for the workload").supported(
        "The files or devices to do I/O on, separated by `:` (write a colon \
         that belongs to a name as `\\:`). Without it, file names are generated from \
         `filename_format` inside `directory`. Jobs that name the same file share it.",
    ),
    opt(
        "lockfile",
        Kind::Enum(&[
            ch("none", "No file locking"),
            ch("exclusive", "Exclusive file lock"),
            ch("readwrite", "Read vs write lock"),
        ]),
        Category::Target,
        "Lock file when doing IO to it",
    )
    .default("none")
    .supported(
        "Lock the files this job shares with other jobs around its I/O to them: \
         `exclusive`, one job at a time; `readwrite`, jobs that only read share a file and a \
         job that writes has it alone; `none` (the default). A job holds a file's lock while \
         it has I/O in flight there. See docs/job-files.md, Files and zones.",
    ),
    opt("directory", Kind::FileList, Category::Target, "Directory to store files in").supported(
        "The directory that generated file names are placed in; default the \
         current directory. Several directories may be given separated by `:`, and the \
         clones of a job (`numjobs`) are spread over them.",
    ),
    opt(
        "filename_format",
        Kind::Str,
        Category::Target,
        "Override default $jobname.$jobnum.$filenum naming",
    )
    .default("$jobname.$jobnum.$filenum")
    .supported(
        "The pattern for generated file names when `filename` is not given: \
         `$jobname`, `$jobnum` and `$filenum` become the job's name, its clone number and \
         the file's number. Default `$jobname.$jobnum.$filenum`. iomark adds `$rank` (the \
         MPI rank under `mpirun` or `srun`, 0 otherwise) and `$hostname` (docs/multi-host.md).",
    ),
    opt(
        "unique_filename",
        Kind::Bool,
        Category::Target,
        "For network clients, prefix file with source IP",
    )
    .default("1")
    .supported(
        "On a server (`--server`), the names of a job's files under `directory` (generated \
         or given with `filename`) get the client's address and a dot before them \
         (`127.0.0.1.job.0.0`), as fio's server names them, so that clients on several \
         hosts sharing one directory do not write each other's files. Files outside a \
         `directory`, and every file of a local run, keep their names (docs/multi-host.md). \
         Default true.",
    ),
    opt(
        "opendir",
        Kind::Str,
        Category::Target,
        "Recursively add files from this directory and down",
    )
    .supported(
        "Use every regular file under this directory, and under its subdirectories, as \
         one of the job's files (hidden files too; symbolic links are not followed), in \
         the order the directories list them, beside the files of `filename`. The path is \
         relative to the working directory, not to `directory`. Without `size`, each file \
         is used whole, and files too small for one block are left out.",
    ),
    opt(
        "rw",
        Kind::Enum(&[
            ch("read", "Sequential read").arg(ChoiceArg::OptionalSize),
            ch("write", "Sequential write").arg(ChoiceArg::OptionalSize),
            ch("trim", "Sequential trim").arg(ChoiceArg::OptionalSize),
            ch("randread", "Random read").arg(ChoiceArg::OptionalCount),
            ch("randwrite", "Random write").arg(ChoiceArg::OptionalCount),
            ch("randtrim", "Random trim").arg(ChoiceArg::OptionalCount),
            ch("rw", "Sequential read and write mix").arg(ChoiceArg::OptionalSize),
            ch("readwrite", "Sequential read and write mix").arg(ChoiceArg::OptionalSize),
            ch("randrw", "Random read and write mix").arg(ChoiceArg::OptionalCount),
            ch("trimwrite", "Trim and write mix, trims preceding writes")
                .arg(ChoiceArg::OptionalSize),
            ch("randtrimwrite", "Randomly trim and write mix, trims preceding writes")
                .arg(ChoiceArg::OptionalCount),
        ]),
        Category::IoType,
        "IO direction",
    )
    .alias(&["readwrite"])
    .default("read")
    .supported(
        "The direction and pattern of I/O: `read`, `write`, `trim` are \
         sequential, `randread`, `randwrite`, `randtrim` random, `rw` (or `readwrite`) \
         and `randrw` mix reads and writes (see `rwmixread`), and \
         `trimwrite`/`randtrimwrite` trim each block before writing it. An optional `:N` \
         changes how offsets advance: sequential patterns leave a gap of N bytes after \
         each I/O, random patterns draw a new offset only every N I/Os (see \
         `rw_sequencer`); as in fio 3.33 the count of a random pattern has no unit \
         (`randread:4k` is 4, noted) and 0 never draws, so `randread:0` reads \
         sequentially. Default `read`.",
    ),
    opt("bs", Kind::SizePerDir, Category::BlockSize, "Block size unit")
        .alias(&["blocksize"])
        .default("4096")
        .supported(
            "The size of each I/O in bytes, with the usual size suffixes. Up to \
         three comma-separated values set reads, writes and trims separately \
         (`bs=4k,64k`); an empty field keeps that direction's default. Default 4096.",
        ),
    opt("ba", Kind::SizePerDir, Category::BlockSize, "IO block offset alignment")
        .alias(&["blockalign"])
        .supported(
            "Random offsets are multiples of this many bytes; per direction like \
         `bs`. Default: the block size (the smallest one, with `bsrange` or `bssplit`).",
        ),
    opt(
        "bsrange",
        Kind::RangePerDir,
        Category::BlockSize,
        "Set block size range (in more detail than bs)",
    )
    .alias(&["blocksize_range"])
    .supported(
        "A range `min-max` of block sizes; each I/O picks a size in it that \
         is a multiple of the minimum. Up to three comma-separated ranges set reads, \
         writes and trims separately.",
    ),
    opt("bssplit", Kind::BsSplit, Category::BlockSize, "Set a specific mix of block sizes")
        .supported(
            "A weighted mix of block sizes: `size/percent` pairs separated by `:` \
         (`4k/60:64k/40`), with up to three comma-separated lists for reads, writes and \
         trims. Sizes whose percentage is left blank share what remains equally.",
        ),
    opt("bs_unaligned", Kind::Flag, Category::BlockSize, "Don't sector align IO buffer sizes")
        .alias(&["blocksize_unaligned"])
        .supported(
            "With `bsrange`, each I/O may be any number of bytes in the range, not only a \
         multiple of the smallest size; offsets stay aligned. Direct I/O usually refuses \
         such sizes.",
        ),
    opt("randrepeat", Kind::Bool, Category::IoType, "Use repeatable random IO pattern")
        .default("1")
        .supported(
            "Seed the random generators the same way on every run, so that random \
         offsets repeat from run to run. Default true.",
        ),
    opt("randseed", Kind::Size, Category::IoType, "Set the random generator seed value")
        .default("0x89")
        .supported(
            "The seed of the random generators when `randrepeat` is set; a \
         different seed gives a different but still repeatable pattern. Default 0x89.",
        ),
    opt("norandommap", Kind::Flag, Category::IoType, "Accept potential duplicate random blocks")
        .supported(
            "Normally random I/O keeps a map of the blocks it has covered, so \
         each block is used once per pass. With this flag offsets are drawn freely: some \
         blocks may be used twice and others never, but no map is kept.",
        ),
    opt(
        "ignore_error",
        Kind::Str,
        Category::ErrorHandling,
        "Set a specific list of errors to ignore",
    )
    .supported(
        "READ,WRITE,VERIFY lists of errors to go on past, each `:`-separated names or \
         numbers (`EAGAIN,ENOSPC:122`); a list replaces that kind's default (EIO, EILSEQ) \
         and lets the kind continue even without continue_on_error, as in fio 3.33.",
    ),
    opt(
        "rw_sequencer",
        Kind::Enum(&[
            ch("sequential", "Generate sequential offsets"),
            ch("identical", "Generate identical offsets"),
        ]),
        Category::IoType,
        "IO offset generator modifier",
    )
    .default("sequential")
    .supported(
        "What the `:N` of a random `rw` mode does between its new random offsets: \
         `sequential` (default) continues from the previous I/O, `identical` repeats the \
         previous offset (`rw=randread:4` then reads each random block four times).",
    ),
    opt(
        "ioengine",
        Kind::Enum(&[
            ch("sync", "Use read/write"),
            ch("psync", "Use pread/pwrite"),
            ch("vsync", "Use readv/writev"),
            ch("pvsync", "Use preadv/pwritev"),
            ch("pvsync2", "Use preadv2/pwritev2"),
            ch("libaio", "Linux native asynchronous IO"),
            ch("io_uring", "Fast Linux native aio"),
            ch("posixaio", "POSIX asynchronous IO"),
            ch("rbd", "Rados Block Device asynchronous IO"),
            ch("mmap", "Memory mapped IO"),
            ch("splice", "splice/vmsplice based IO"),
            ch("netsplice", "splice/vmsplice to/from the network"),
            ch("sg", "SCSI generic v3 IO"),
            ch("null", "Testing engine (no data transfer)"),
            ch("net", "Network IO"),
            ch("cpuio", "CPU cycle burner engine"),
            ch("rdma", "RDMA IO engine"),
            ch("e4defrag", "ext4 defrag engine"),
            ch("falloc", "fallocate() file based engine"),
            ch("gfapi", "Glusterfs libgfapi(sync) based engine"),
            ch("gfapi_async", "Glusterfs libgfapi(async) based engine"),
            ch("pmemblk", "PMDK libpmemblk based IO engine"),
            ch("dev-dax", "DAX Device based IO engine"),
            ch("filecreate", "File creation engine"),
            ch("external", "Load external engine (append name)").arg(ChoiceArg::OptionalStr),
            ch("libpmem", "PMDK libpmem based IO engine"),
            ch("nbd", "Network Block Device (NBD) IO engine"),
            ch("io_uring_cmd", "io_uring passthrough commands"),
            ch("ftruncate", "ftruncate() file based engine"),
            ch("filestat", "stat() lookup performance engine"),
            ch("filedelete", "File deletion engine"),
            ch("exec", "Run an external program as the workload"),
            ch("mtd", "Memory Technology Device (flash) engine"),
            ch("rados", "Ceph RADOS object IO"),
            ch("threadpool", "iomark: blocking calls run by a pool of threads"),
            ch("guasi", "iomark: threadpool, by the name of fio's former GUASI engine"),
        ]),
        Category::Engine,
        "IO engine to use",
    )
    .default("psync")
    .supported(
        "How I/O is issued: by synchronous system calls (`sync`, `psync`, \
         `vsync`, `pvsync`, `pvsync2`), asynchronously (`libaio`, `io_uring`, \
         `posixaio`, and iomark's `threadpool`, alias `guasi`, which runs the blocking \
         calls on a pool of threads), through a memory map (`mmap`), or not at all \
         (`null`, which \
         measures iomark's own overhead). Engines that iomark does not have are refused \
         with a message. Default `psync`.",
    ),
    opt("iodepth", int(1, NOLIMIT), Category::IoDepth, "Number of IO buffers to keep in flight")
        .default("1")
        .supported(
            "How many I/Os the job keeps in flight at once. Synchronous engines \
         finish each I/O before issuing the next, so a depth above 1 matters only for \
         asynchronous engines. Default 1.",
        ),
    opt(
        "iodepth_batch",
        int(0, NOLIMIT),
        Category::IoDepth,
        "Number of IO buffers to submit in one go",
    )
    .alias(&["iodepth_batch_submit"])
    .default("1")
    .supported(
        "How many queued I/Os an asynchronous engine submits at once. 1 submits \
         each I/O as soon as it is queued; 0 means `iodepth`. A full queue is submitted \
         whatever the batch. Default 1.",
    ),
    opt(
        "iodepth_batch_complete_min",
        int(0, NOLIMIT),
        Category::IoDepth,
        "Min number of IO buffers to retrieve in one go",
    )
    .alias(&["iodepth_batch_complete"])
    .default("1")
    .supported(
        "When the queue is full, wait for at least this many completions before \
         queuing more. 0 makes the job wait for a completion whenever any I/O is in \
         flight, which is what fio 3.33 does (its documentation says it only checks). \
         Default 1.",
    ),
    opt(
        "iodepth_batch_complete_max",
        int(0, NOLIMIT),
        Category::IoDepth,
        "Max number of IO buffers to retrieve in one go",
    )
    .supported(
        "The most completions taken at once. Default: `iodepth_batch_complete_min` \
         (at least 1).",
    ),
    opt("iodepth_low", int(0, NOLIMIT), Category::IoDepth, "Low water mark for queuing depth")
        .supported(
            "Once the queue is full, keep reaping until no more than this many I/Os \
         are in flight, then fill it again. Default: `iodepth`.",
        ),
    opt(
        "serialize_overlap",
        Kind::Bool,
        Category::IoDepth,
        "Wait for in-flight IOs that collide to complete",
    )
    .default("0")
    .supported(
        "Before issuing an I/O, wait for every in-flight I/O of the job that overlaps it \
         when either of the two writes, so that overlapping data is never raced. Jobs that \
         verify serialize overlapping writes whatever this says. Default false.",
    ),
    opt(
        "io_submit_mode",
        Kind::Enum(&[
            ch("inline", "Submit and complete IO inline"),
            ch("offload", "Offload submit and complete to threads"),
        ]),
        Category::IoDepth,
        "How IO submissions and completions are done",
    )
    .default("inline")
    .supported(
        "`inline` (the default): the job thread submits and reaps. `offload`: the \
         job thread generates and times the I/Os and a pool of `iodepth` threads does the \
         blocking calls (iomark's threadpool engine), so that a slow device does not hold \
         back submission (fio's answer to coordinated omission). An asynchronous engine \
         already submits without waiting for the device: it runs with inline submission, \
         and a note says so (fio 3.33 runs it at depth 1, can hang, and refuses io_uring).",
    ),
    opt("size", Kind::SizeOrPercent, Category::IoSize, "Total size of device or files").supported(
        "The total number of bytes the job does I/O on, divided among its \
         files; files that iomark lays out get this size. A percentage (`size=50%`) means \
         that share of each existing file or device. Default: the size of the existing \
         files or device.",
    ),
    opt("io_size", Kind::SizeOrPercent, Category::IoSize, "Total size of I/O to be performed")
        .alias(&["io_limit"])
        .supported(
            "The number of bytes of I/O to do, when that should differ from \
         `size`: more than `size` wraps around the region, less stops early. Accepts a \
         percentage like `size`. Default: `size`.",
        ),
    opt("fill_device", Kind::Bool, Category::IoSize, "Write until an ENOSPC error occurs")
        .alias(&["fill_fs"])
        .default("0")
        .supported(
            "Write until the file system is full (ENOSPC or EDQUOT), which ends the job \
         without an error; without `size`, the files' regions are unbounded. The failed \
         write counts as issued, as in fio. Only for jobs that write: iomark refuses it \
         with reads (fio fills the file system first, then reads).",
        ),
    opt("filesize", Kind::SizeRange, Category::IoSize, "Size of individual files").supported(
        "The size of each file, instead of an equal share of `size`; a range \
         `min-max` gives each file a random size within it, a multiple of the job's \
         smallest block size. When `filesize` is set, `size` only caps the job's I/O, as \
         the default of `io_size`.",
    ),
    opt("file_append", Kind::Bool, Category::IoSize, "IO will start at the end of the file(s)")
        .default("0")
        .supported(
            "Start the job's region in each regular file at the file's end, so that the \
         job extends the file, whatever `offset` says (devices are left as they are). Jobs \
         that append to one file follow each other. As in fio 3.33, such a job makes one \
         pass only: `loops`, `time_based` and an `io_size` beyond `size` do not repeat it. \
         Default false.",
        ),
    opt("offset", Kind::SizeOrPercent, Category::IoType, "Start IO from this offset")
        .alias(&["fileoffset"])
        .default("0")
        .supported(
            "Start I/O this many bytes into each file, or at a percentage of it \
         (`offset=25%`). Default 0.",
        ),
    opt(
        "offset_increment",
        Kind::SizeOrPercent,
        Category::IoType,
        "What is the increment from one offset to the next",
    )
    .default("0")
    .supported(
        "Moves the start offset of each clone of the job: clone N starts at \
         `offset + N * offset_increment`, so clones created by `numjobs` work on separate \
         regions. Accepts a percentage. Default 0.",
    ),
    opt("offset_align", Kind::Size, Category::IoType, "Start IO from this offset alignment")
        .default("0")
        .supported(
            "When `offset` or `offset_increment` is a percentage, round the start of each \
         clone's region up to a multiple of this. 0 (the default) means the job's smallest \
         block size. Offsets given in bytes only are not rounded.",
        ),
    opt(
        "number_ios",
        int(0, NOLIMIT),
        Category::IoType,
        "Force job completion after this number of IOs",
    )
    .default("0")
    .supported(
        "End the job after this many I/Os, if it has not ended for another \
         reason first; it never makes the job do more than `size` or `runtime` allow. 0 \
         means no such limit. Counted per loop (`loops=3 number_ios=3` issues 9 I/Os); \
         ignored by a `time_based` job, which runs to its `runtime` (as in fio 3.33).",
    ),
    opt(
        "random_generator",
        Kind::Enum(&[
            ch("tausworthe", "Strong Tausworthe generator"),
            ch("lfsr", "Variable length LFSR"),
            ch("tausworthe64", "64-bit Tausworthe variant"),
        ]),
        Category::IoType,
        "Type of random number generator to use",
    )
    .default("tausworthe")
    .supported(
        "`lfsr` draws uniform random offsets from a maximal-length linear feedback shift \
         register over the file's blocks: every block exactly once per pass, without the \
         random map (the map is off), in an order set by the seed. `tausworthe` (default) \
         and `tausworthe64` both use iomark's own generator (xoshiro256**), which has a \
         longer period than either; offsets are not fio's. A skewed \
         `random_distribution` takes precedence over `lfsr`.",
    ),
    opt(
        "random_distribution",
        Kind::Distribution(&[
            ch("random", "Completely random"),
            ch("zipf", "Zipf distribution").arg(ChoiceArg::OptionalStr),
            ch("pareto", "Pareto distribution").arg(ChoiceArg::OptionalStr),
            ch("normal", "Normal (Gaussian) distribution").arg(ChoiceArg::OptionalStr),
            ch("zoned", "Zoned random distribution").arg(ChoiceArg::OptionalStr),
            ch("zoned_abs", "Zoned absolute random distribution").arg(ChoiceArg::OptionalStr),
        ]),
        Category::IoType,
        "Random offset distribution generator",
    )
    .default("random")
    .supported(
        "How random offsets spread over the file. `zipf:theta` (default 1.1) and \
         `pareto:power` (default 0.2) make a few blocks hot, spread over the file; \
         `normal:dev` (alias `gauss`) is a bell curve; each takes an optional `:center` \
         in 0..1 that places the hottest block. `zoned:60/10:30/20:10/70` sends 60% of \
         the I/Os to the first 10% of the region and so on; `zoned_abs` takes sizes \
         (`60/20g:40/100g`). Up to three comma-separated values set reads, writes and \
         trims apart. Any distribution but `random` turns the random map off, as in fio. \
         See docs/workloads.md.",
    ),
    opt(
        "percentage_random",
        Kind::IntPerDir,
        Category::IoType,
        "Percentage of seq/random mix that should be random",
    )
    .default("100,100,100")
    .supported(
        "For random patterns, the percentage of I/Os that go to a random \
         offset; the others continue sequentially from the previous one. Per direction \
         like `bs`. Default 100.",
    ),
    opt(
        "allrandrepeat",
        Kind::Bool,
        Category::IoType,
        "Use repeatable random numbers for everything",
    )
    .default("0")
    .supported(
        "Make every random choice of the job (offsets, directions, block sizes, buffer \
         contents) repeat from run to run, even with `randrepeat=0`, as in fio 3.33. \
         iomark draws all of them from the one seed that `randrepeat` fixes, so \
         `randrepeat=1` already repeats everything, and adding this changes nothing \
         (fio then draws other values). Default false.",
    ),
    opt(
        "nrfiles",
        int(0, NOLIMIT),
        Category::Target,
        "Split job workload between this number of files",
    )
    .alias(&["nr_files"])
    .default("1")
    .supported(
        "The number of files that the job divides its `size` among when file \
         names are generated. Given with `filename` or `opendir`, the job keeps only the \
         first this many of the files they name, as fio does. Default 1.",
    ),
    opt(
        "file_service_type",
        Kind::Enum(&[
            ch("random", "Choose a file at random (uniform)").arg(ChoiceArg::OptionalCount),
            ch("zipf", "Zipf randomized").arg(ChoiceArg::OptionalFloat),
            ch("pareto", "Pareto randomized").arg(ChoiceArg::OptionalFloat),
            ch("normal", "Normal (Gaussian) randomized").arg(ChoiceArg::OptionalFloat),
            ch("gauss", "Alias for normal").arg(ChoiceArg::OptionalFloat),
            ch("roundrobin", "Round robin select files").arg(ChoiceArg::OptionalCount),
            ch("sequential", "Finish one file before moving to the next")
                .arg(ChoiceArg::OptionalCount),
        ]),
        Category::Target,
        "How to select which file to service next",
    )
    .default("roundrobin")
    .supported(
        "Which file serves the next I/O when the job has several: `roundrobin:N` \
         (default, N=1) N I/Os per file in turn; `sequential` one file to its end, then the \
         next; `random:N` N I/Os on a file drawn at random (N has no unit, as in fio 3.33, \
         and 0 stays on a file until it is done); `zipf:θ` (default 1.1), \
         `pareto:h` (default 0.2) and `normal:dev` (alias `gauss`, default 0) draw a file \
         per I/O with fio's skew, and start a finished file over. See docs/job-files.md, \
         Files and zones.",
    ),
    opt(
        "openfiles",
        int(0, NOLIMIT),
        Category::Target,
        "Number of files to keep open at the same time",
    )
    .supported(
        "At most this many files in service at once: a file joins when the service \
         first turns to it and leaves when the job is done with it, as in fio. iomark opens \
         every file of the job when it starts and keeps it open; only the order of service \
         follows this limit. Default: `nrfiles`.",
    ),
    opt(
        "fallocate",
        Kind::Enum(&[
            ch("none", "Do not pre-allocate space"),
            ch("native", "Use native pre-allocation if possible"),
            ch("posix", "Use posix_fallocate()"),
            ch("keep", "Use fallocate(..., FALLOC_FL_KEEP_SIZE, ...)"),
            ch("truncate", "Truncate file to final size instead of allocating"),
            ch("0", "Alias for 'none'"),
            ch("1", "Alias for 'posix'"),
        ]),
        Category::IoType,
        "Whether pre-allocation is performed when laying out files",
    )
    .default("native")
    .supported(
        "How space is reserved when files are laid out: `native` (fallocate, \
         or nothing where it is unsupported), `posix` (posix_fallocate), `keep` \
         (fallocate without changing the file size), `truncate` (only set the size) or \
         `none`. Default `native`.",
    ),
    opt(
        "fadvise_hint",
        Kind::Enum(&[
            ch("0", "Don't issue fadvise/madvise"),
            ch("1", "Advise using fio IO pattern"),
            ch("random", "Advise using FADV_RANDOM"),
            ch("sequential", "Advise using FADV_SEQUENTIAL"),
        ]),
        Category::IoType,
        "Use fadvise() to advise the kernel on IO pattern",
    )
    .default("1")
    .supported(
        "Advice to the kernel's read-ahead for the job's files: `1` (the default) \
         advises random access (`POSIX_FADV_RANDOM`, no read-ahead) for the `rand*` modes and \
         sequential access otherwise; `random` and `sequential` force one; `0` gives none. \
         Buffered random reads depend on it: with read-ahead, each 4 KiB read pulls in more.",
    ),
    opt(
        "fsync",
        int(0, NOLIMIT),
        Category::IoType,
        "Issue fsync for writes every given number of blocks",
    )
    .default("0")
    .supported(
        "When writing, call fsync after every N writes; 0 never does. Default \
         0.",
    ),
    opt(
        "fdatasync",
        int(0, NOLIMIT),
        Category::IoType,
        "Issue fdatasync for writes every given number of blocks",
    )
    .default("0")
    .supported(
        "Like `fsync`, but with fdatasync, which may skip metadata that is \
         not needed to read the data back. Default 0.",
    ),
    opt("write_barrier", int(0, NOLIMIT), Category::IoType, "Make every Nth write a barrier write")
        .default("0")
        .supported(
            "fio 3.33 marks every Nth write as a barrier write, which only its sg engine can \
             issue and Linux has not had since 2.6.37: with the engines iomark runs the writes \
             are plain writes in fio too. Accepted, with a note that it has no effect.",
        ),
    opt(
        "sync_file_range",
        Kind::ChoiceSet(&[
            ch("wait_before", "SYNC_FILE_RANGE_WAIT_BEFORE"),
            ch("write", "SYNC_FILE_RANGE_WRITE"),
            ch("wait_after", "SYNC_FILE_RANGE_WAIT_AFTER"),
        ]),
        Category::IoType,
        "Use sync_file_range()",
    )
    .supported(
        "`flags:N`: after every N writes, call sync_file_range(2) with the flags joined by \
         `,` (`wait_before,write,wait_after:8`) on the range the file's writes completed \
         since its last sync covered; without `:N`, after every write. It is a sync like \
         `fsync=N`: in the sync latency, after `fsync` and `fdatasync` when more than one \
         is due. No default. See docs/running.md for the details fio 3.33 shows.",
    ),
    opt("direct", Kind::Bool, Category::IoType, "Use O_DIRECT IO (negates buffered)")
        .default("0")
        .supported(
            "Open files with O_DIRECT, bypassing the page cache; offsets, sizes \
         and buffers must then suit the device's alignment. The inverse of `buffered`. \
         Default false.",
        ),
    opt("atomic", Kind::Bool, Category::IoType, "Use Atomic IO with O_DIRECT (implies O_DIRECT)")
        .default("0")
        .supported(
            "Implies `direct=1`, as in fio. fio 3.33 also opens the files with O_ATOMIC, a \
             flag Linux never merged and ignores, so the writes are plain direct writes in \
             fio too. A note says so.",
        ),
    opt("buffered", Kind::Bool, Category::IoType, "Use buffered IO (negates direct)")
        .default("1")
        .supported(
            "Do I/O through the page cache; `buffered=0` means the same as \
         `direct=1`. Default true.",
        ),
    opt(
        "overwrite",
        Kind::Bool,
        Category::IoType,
        "When writing, set whether to overwrite current data",
    )
    .default("0")
    .supported(
        "Write a job's files before a job that writes them, as before one that reads, so \
         that its writes overwrite data rather than fill holes or extend the file. Files \
         already large enough are left as they are. Default false.",
    ),
];
