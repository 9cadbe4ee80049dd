//! A job's engine, resolved: its name, its own options, `io_submit_mode=offload`, the depth
//! and how the job submits and reaps (`iodepth_batch*`, `iodepth_low`).

use iomark_engine::fileops::StatCall;
use iomark_engine::registry::{self, FileUse};
use iomark_engine::EngineOptions;
use iomark_options::keys;
use iomark_options::JobSpec;

/// The most worker threads a `threadpool` job starts by default (its `iodepth`, capped here).
pub const THREADPOOL_DEFAULT_CAP: u32 = 2000;

/// A job's engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnginePlan {
    /// The engine's name (`ioengine`).
    pub name: String,
    /// The engine's own options.
    pub options: EngineOptions,
    /// `io_submit_mode=offload` with a synchronous engine: its calls run on a pool of
    /// `iodepth` threads (the threadpool engine), so that the job thread only generates and
    /// times. With an asynchronous engine, which already submits without waiting for the
    /// device, the job submits as with `inline` ([`EnginePlan::offload_note`] says so).
    pub offload: bool,
    /// `io_submit_mode=offload` was asked of an asynchronous engine.
    pub offload_asked_async: bool,
    /// I/O units in flight at most (`iodepth`).
    pub iodepth: u32,
    /// How the job submits and reaps (`iodepth_batch*`, `iodepth_low`).
    pub batching: Batching,
}

/// How a job submits and reaps, with fio's defaults filled in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Batching {
    /// Submit once this many units are queued (`iodepth_batch_submit`; 0 means `iodepth`;
    /// a full queue is submitted anyway).
    pub submit: u32,
    /// Wait for at least this many completions when the queue is full
    /// (`iodepth_batch_complete_min`; 0: wait for one whenever any I/O is in flight, as
    /// fio 3.33 does).
    pub complete_min: u32,
    /// Take at most this many completions at once (`iodepth_batch_complete_max`, default
    /// `complete_min`, at least 1).
    pub complete_max: u32,
    /// Once the queue is full, reap until at most this many I/Os are in flight
    /// (`iodepth_low`, default `iodepth`).
    pub low: u32,
}

impl Batching {
    /// The batching of a job with depth `iodepth`.
    pub fn of(spec: &JobSpec, iodepth: u32) -> Self {
        let int = |key| spec.get(key).map(|n: u64| n.min(u64::from(iodepth)) as u32);
        let submit = match int(keys::IODEPTH_BATCH).unwrap_or(1) {
            0 => iodepth,
            n => n,
        };
        let complete_min = int(keys::IODEPTH_BATCH_COMPLETE_MIN).unwrap_or(1);
        let complete_max =
            int(keys::IODEPTH_BATCH_COMPLETE_MAX).unwrap_or(0).max(complete_min).max(1);
        let low = match int(keys::IODEPTH_LOW) {
            Some(n) if n > 0 => n,
            _ => iodepth,
        };
        Batching { submit, complete_min, complete_max, low }
    }
}

impl EnginePlan {
    /// The engine of `spec`, for files opened with `direct` and, with `sync_writes`, with
    /// `O_SYNC` or `O_DSYNC`; `trace_depth` is the depth of a replayed blktrace trace, the
    /// job's unless it sets `iodepth`.
    pub fn of(
        spec: &JobSpec,
        direct: bool,
        sync_writes: bool,
        trace_depth: Option<u32>,
    ) -> EnginePlan {
        let name = spec.get(keys::IOENGINE).map_or_else(|| "psync".into(), |c| c.name.to_string());
        let given = spec.given(keys::IODEPTH).or(trace_depth.map(u64::from));
        let depth = given.or_else(|| spec.get(keys::IODEPTH));
        let iodepth = depth.unwrap_or(1).clamp(1, 65536) as u32;
        let offload = spec.get(keys::IO_SUBMIT_MODE).is_some_and(|c| c.name == "offload");
        let inline = iomark_engine::registry::completes_in_call(&name);
        EnginePlan {
            options: engine_options(spec, &name, iodepth, direct, sync_writes),
            name,
            offload: offload && inline,
            offload_asked_async: offload && !inline,
            iodepth,
            batching: Batching::of(spec, iodepth),
        }
    }

    /// The note of `io_submit_mode=offload` with an asynchronous engine, which iomark runs
    /// with inline submission, and what fio 3.33 does instead.
    pub fn offload_note(&self) -> Option<String> {
        if !self.offload_asked_async {
            return None;
        }
        let fio = match self.name.as_str() {
            "io_uring" => "fio 3.33 refuses it: \"can't be used with offloaded submit\"",
            _ => {
                "fio 3.33 hands each I/O to a worker thread, reports every I/O at depth 1, and \
                  can hang"
            }
        };
        Some(format!(
            "io_submit_mode=offload with ioengine={}: the engine already submits without \
             waiting for the device, so the job thread submits as with inline ({fio})",
            self.name
        ))
    }

    /// Whether the engine completes every I/O inside the call that issues it (the engine
    /// registry says).
    pub fn completes_inline(&self) -> bool {
        iomark_engine::registry::completes_in_call(&self.name)
    }

    /// Whether the job's I/Os complete as they are issued: a synchronous engine, not
    /// offloaded.
    pub fn sync(&self) -> bool {
        self.completes_inline() && !self.offload
    }

    /// Whether the job's depth is capped at 1 because its engine completes every I/O inside
    /// the call that issues it (fio notes it; `io_submit_mode=offload` lifts the cap).
    pub fn depth_capped(&self) -> bool {
        self.iodepth > 1 && self.sync()
    }

    /// The engine the job creates: its own, or `threadpool` when it offloads.
    pub fn created(&self) -> &str {
        if self.offload {
            "threadpool"
        } else {
            &self.name
        }
    }

    /// Whether the runner lays out the job's files: every engine but `null` (which lays
    /// out, opens and hints nothing) and `filecreate` (which creates them as its I/O).
    pub fn touches_files(&self) -> bool {
        match registry::file_use(&self.name) {
            FileUse::Untouched => false,
            FileUse::Opened => true,
            FileUse::Named { laid_out } => laid_out,
        }
    }

    /// Whether the runner opens the job's files for the engine (all but `null` and the
    /// metadata engines, which work on the files by name).
    pub fn opens_files(&self) -> bool {
        registry::file_use(&self.name) == FileUse::Opened
    }

    /// Whether the engine works on the files by name, once per file and loop, and only
    /// that operation is timed (`filecreate`, `filestat`, `filedelete`; see
    /// [`iomark_engine::fileops`]).
    pub fn per_file(&self) -> bool {
        matches!(registry::file_use(&self.name), FileUse::Named { .. })
    }
}

/// The engine options of a job, with its depth and `direct`.
fn engine_options(
    spec: &JobSpec,
    engine: &str,
    iodepth: u32,
    direct: bool,
    sync_writes: bool,
) -> EngineOptions {
    let int = |key| spec.get(key).map(|n: u64| n.min(u64::from(u32::MAX)) as u32);
    let default_threads = iodepth.min(THREADPOOL_DEFAULT_CAP);
    let threads_max = int(keys::THREADPOOL_MAX).filter(|&n| n > 0).unwrap_or(default_threads);
    let threads_min = int(keys::THREADPOOL_MIN).unwrap_or(default_threads).clamp(1, threads_max);
    // iomark's io_uring default: buffers and files registered, unless the job says either.
    let register_by_default =
        !spec.is_set(keys::FIXEDBUFS) && !spec.is_set(keys::REGISTERFILES) && engine == "io_uring";
    EngineOptions {
        iodepth,
        direct,
        sync_writes,
        hipri: spec.flag(keys::HIPRI),
        hipri_percentage: int(keys::HIPRI_PERCENTAGE).unwrap_or(100).min(100),
        nowait: spec.flag(keys::NOWAIT),
        uncached: int(keys::UNCACHED).unwrap_or(0),
        fixedbufs: spec.flag(keys::FIXEDBUFS) || register_by_default,
        registerfiles: spec.flag(keys::REGISTERFILES) || register_by_default,
        register_by_default,
        sqthread_poll: spec.flag(keys::SQTHREAD_POLL),
        sqthread_poll_cpu: spec.given(keys::SQTHREAD_POLL_CPU).and(int(keys::SQTHREAD_POLL_CPU)),
        nonvectored: spec.get(keys::NONVECTORED).unwrap_or(-1),
        force_async: int(keys::FORCE_ASYNC).unwrap_or(0),
        userspace_reap: spec.flag(keys::USERSPACE_REAP),
        threads_min,
        threads_max,
        stat_type: match spec.get(keys::STAT_TYPE).map(|c| c.name) {
            Some("lstat") => StatCall::Lstat,
            Some("statx") => StatCall::Statx,
            _ => StatCall::Stat,
        },
        uri: spec.get(keys::URI),
        cpu_load: spec.get(keys::CPULOAD).unwrap_or(0),
        cpu_chunk_us: spec.get(keys::CPUCHUNKS).unwrap_or(50_000),
        cpu_qsort: spec.get(keys::CPUMODE).is_some_and(|c| c.name == "qsort"),
        exit_on_io_done: engine == "cpuio" && spec.flag(keys::EXIT_ON_IO_DONE),
        thp: engine == "mmap" && spec.get(keys::THP).unwrap_or(0) != 0,
        exec: (engine == "exec").then(|| crate::cpuio::exec_spec(spec, &spec.name)),
        net: matches!(engine, "net" | "netsplice").then(|| net_spec(spec)),
        e4defrag: (engine == "e4defrag").then(|| defrag_spec(spec)),
    }
}

/// An e4defrag job's donor: `donorname` under the first `directory` when relative, and
/// its size, `filesize`'s upper bound (see [`iomark_engine::e4defrag`]).
fn defrag_spec(spec: &JobSpec) -> iomark_engine::e4defrag::DefragSpec {
    let dir = spec.given(keys::DIRECTORY).and_then(|d| d.into_iter().next());
    let donor = spec.get(keys::DONORNAME).filter(|n| !n.is_empty()).map(|name| match &dir {
        Some(d) if std::path::Path::new(&name).is_relative() => std::path::Path::new(d).join(name),
        _ => name.into(),
    });
    iomark_engine::e4defrag::DefragSpec {
        donor,
        inplace: spec.get(keys::INPLACE).unwrap_or(0) != 0,
        donor_size: spec.given(keys::FILESIZE).and_then(|r| r[0]).map(|(_, high)| high),
    }
}

/// A net job's connection, from its options: `rw` says whether it sends or receives.
fn net_spec(spec: &JobSpec) -> iomark_engine::net::NetSpec {
    use iomark_engine::net::{NetSpec, Protocol};
    let protocol = match spec.get(keys::PROTOCOL).map(|c| c.name) {
        Some("tcpv6") => Protocol::Tcp6,
        Some("udp") => Protocol::Udp,
        Some("udpv6") => Protocol::Udp6,
        Some("unix") => Protocol::Unix,
        _ => Protocol::Tcp,
    };
    let filename = spec.get(keys::FILENAME).and_then(|f| f.into_iter().next());
    NetSpec {
        protocol,
        hostname: spec.get(keys::HOSTNAME).filter(|h| !h.is_empty()),
        port: spec.get(keys::PORT).unwrap_or(0).min(u64::from(u16::MAX)) as u16,
        path: filename.filter(|_| protocol == Protocol::Unix).map(Into::into),
        listen: spec.flag(keys::LISTEN),
        pingpong: spec.flag(keys::PINGPONG),
        nodelay: spec.flag(keys::NODELAY),
        window_size: spec.get(keys::WINDOW_SIZE).unwrap_or(0),
        mss: spec.get(keys::MSS).unwrap_or(0).min(u64::from(u32::MAX)) as u32,
        ttl: spec.get(keys::TTL).unwrap_or(1).min(255) as u32,
        interface: spec.get(keys::INTERFACE).filter(|i| !i.is_empty()),
        sends: spec
            .get(keys::RW)
            .is_some_and(|c| c.name.contains("write") || c.name.contains("rw")),
    }
}
