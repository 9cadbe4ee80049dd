//! [`EngineOptions`]: how an engine is set up, the job's depth and the engine options of
//! fio's `--enghelp`, each engine's own part among them (exec's program, net's connection,
//! e4defrag's donor). It sits above the engines whose parts it holds and below the
//! registry that makes an engine from it.

/// `stat_type`: the system call `filestat` times.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum StatCall {
    /// `stat(2)` (fio's default).
    #[default]
    Stat,
    /// `lstat(2)`.
    Lstat,
    /// `statx(2)`, with the basic statistics.
    Statx,
}

/// How an engine is set up: the job's depth and the engine options of fio's `--enghelp`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineOptions {
    /// `iodepth`: the most units in flight at once (the pool's size).
    pub iodepth: u32,
    /// `direct`: the files are open with `O_DIRECT`.
    pub direct: bool,
    /// `sync` (any value but `none`): the files are open with `O_SYNC`/`O_DSYNC`; mmap
    /// `msync`s each write's range.
    pub sync_writes: bool,
    /// `hipri` (pvsync2, io_uring): polled completion.
    pub hipri: bool,
    /// `hipri_percentage` (pvsync2): the share of I/Os, in percent, that `hipri` applies to.
    pub hipri_percentage: u32,
    /// `nowait` (pvsync2, io_uring, libaio): fail with `EAGAIN` instead of blocking.
    pub nowait: bool,
    /// `uncached` (pvsync2, io_uring): `RWF_DONTCACHE` (formerly `RWF_UNCACHED`) on buffered
    /// I/O when non-zero.
    pub uncached: u32,
    /// `fixedbufs` (io_uring): register the units' buffers.
    pub fixedbufs: bool,
    /// `registerfiles` (io_uring): register the job's files.
    pub registerfiles: bool,
    /// `fixedbufs` and `registerfiles` are on because iomark chose them, not the job (its
    /// io_uring default): where the kernel refuses to register, the engine goes on with
    /// plain requests and says so in a note, instead of failing.
    pub register_by_default: bool,
    /// `sqthread_poll` (io_uring): a kernel thread polls the submission queue.
    pub sqthread_poll: bool,
    /// `sqthread_poll_cpu` (io_uring): the CPU of that thread.
    pub sqthread_poll_cpu: Option<u32>,
    /// `nonvectored` (io_uring): 1 for `READ`/`WRITE`, 0 for `READV`/`WRITEV`, -1 (the
    /// default) to choose what the kernel supports.
    pub nonvectored: i64,
    /// `force_async` (io_uring): set `IOSQE_ASYNC` on every Nth request (0: never).
    pub force_async: u32,
    /// `userspace_reap` (libaio): read completions from the ring in user space.
    pub userspace_reap: bool,
    /// `threadpool_min` (threadpool): worker threads started with the job.
    pub threads_min: u32,
    /// `threadpool_max` (threadpool): the most worker threads the pool grows to.
    pub threads_max: u32,
    /// `stat_type` (filestat): the system call that looks each file up.
    pub stat_type: StatCall,
    /// `uri` (nbd): the NBD server and export.
    pub uri: Option<String>,
    /// `cpuload` (cpuio): the share of the CPU the job keeps busy, in percent.
    pub cpu_load: u64,
    /// `cpuchunks` (cpuio): microseconds each I/O burns.
    pub cpu_chunk_us: u64,
    /// `cpumode=qsort` (cpuio): burn by sorting rather than spinning.
    pub cpu_qsort: bool,
    /// `exit_on_io_done` (cpuio): the job ends once every job that is not cpuio has.
    pub exit_on_io_done: bool,
    /// `thp` (mmap): private mappings advised `MADV_HUGEPAGE`.
    pub thp: bool,
    /// The exec engine's program.
    pub exec: Option<crate::exec::ExecSpec>,
    /// The net (and netsplice) engine's connection.
    pub net: Option<crate::net::NetSpec>,
    /// The e4defrag engine's donor.
    pub e4defrag: Option<crate::e4defrag::DefragSpec>,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            iodepth: 1,
            direct: false,
            sync_writes: false,
            hipri: false,
            hipri_percentage: 100,
            nowait: false,
            uncached: 0,
            fixedbufs: false,
            registerfiles: false,
            register_by_default: false,
            sqthread_poll: false,
            sqthread_poll_cpu: None,
            nonvectored: -1,
            force_async: 0,
            userspace_reap: false,
            threads_min: 1,
            threads_max: 1,
            stat_type: StatCall::Stat,
            uri: None,
            cpu_load: 0,
            cpu_chunk_us: 50_000,
            cpu_qsort: false,
            exit_on_io_done: false,
            thp: false,
            exec: None,
            net: None,
            e4defrag: None,
        }
    }
}
