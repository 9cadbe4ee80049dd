//! The one list of the engines iomark runs: [`REGISTRY`]. Each entry gives an engine's
//! name (as `ioengine` spells it), whether it completes every I/O inside the call that
//! issues it, a one-line description, and how to make it. [`create`] makes engines from
//! it, the runner asks it which engines are synchronous, and `--enghelp` lists it.
//!
//! The option table (in the options crate, which does no I/O) keeps its own `ioengine`
//! choices, fio's full list; a test checks that the choices iomark runs are exactly these.

use crate::falloc::{SizeCall, SizeEngine};
use crate::fileops::{FileOp, FileOpEngine};
use crate::interface::{Engine, EngineError};
use crate::options::EngineOptions;
use crate::sync::{SyncEngine, SyncFlavor};

/// One engine iomark runs.
#[derive(Debug, Clone, Copy)]
pub struct EngineInfo {
    /// The engine's name, as `ioengine` spells it.
    pub name: &'static str,
    /// Whether every I/O completes inside the call that issues it, whatever the depth: a
    /// deeper `iodepth` changes nothing (fio caps it at 1 and says so). The null engine
    /// queues at depths above 1, so it is not one of them.
    pub completes_in_call: bool,
    /// What the engine does, in one line.
    pub about: &'static str,
    /// How the engine uses the job's files.
    pub files: FileUse,
    /// Whether reads and writes move data between the buffers and the files (all but
    /// `null` and the metadata engines).
    pub moves_data: bool,
    /// Whether a read may find the end of a stream ([`crate::net::END_OF_STREAM`]), which
    /// ends the job cleanly.
    pub streams: bool,
    /// Makes the engine.
    make: fn(&EngineOptions) -> Result<Box<dyn Engine>, EngineError>,
}

impl EngineInfo {
    /// Makes the engine, set up with `options`.
    pub fn make(&self, options: &EngineOptions) -> Result<Box<dyn Engine>, EngineError> {
        (self.make)(options)
    }
}

/// How an engine uses the job's files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileUse {
    /// Not at all: nothing is laid out, opened or hinted (`null`, as in fio).
    Untouched,
    /// The runner lays the files out and opens them; the engine gets their descriptors.
    Opened,
    /// By name: the runner opens nothing and hands the engine the paths
    /// ([`Engine::set_paths`]), having laid the files out first when `laid_out`; the
    /// engine's work is once per file and loop ([`Engine::next_loop`], see
    /// [`crate::fileops`]).
    Named {
        /// Whether the runner lays the files out before the job (`filestat`,
        /// `filedelete`; `filecreate` creates them itself).
        laid_out: bool,
    },
}

/// A synchronous engine of `flavor`, with pvsync2's `hipri_percentage`.
fn sync(flavor: SyncFlavor, options: &EngineOptions) -> Result<Box<dyn Engine>, EngineError> {
    Ok(Box::new(SyncEngine::new(flavor).with_hipri_percentage(options.hipri_percentage)))
}

/// The engines iomark runs, in the order `--enghelp` lists them.
pub const REGISTRY: &[EngineInfo] = &[
    EngineInfo {
        name: "null",
        completes_in_call: false,
        about: "no data transfer: completes every I/O at once (queued at depths above 1)",
        files: FileUse::Untouched,
        moves_data: false,
        streams: false,
        make: |o| Ok(Box::new(crate::null::NullEngine::new(o.iodepth))),
    },
    EngineInfo {
        name: "sync",
        completes_in_call: true,
        about: "lseek and read/write",
        files: FileUse::Opened,
        moves_data: true,
        streams: false,
        make: |o| sync(SyncFlavor::Sync, o),
    },
    EngineInfo {
        name: "psync",
        completes_in_call: true,
        about: "pread/pwrite",
        files: FileUse::Opened,
        moves_data: true,
        streams: false,
        make: |o| sync(SyncFlavor::Psync, o),
    },
    EngineInfo {
        name: "vsync",
        completes_in_call: true,
        about: "lseek and readv/writev",
        files: FileUse::Opened,
        moves_data: true,
        streams: false,
        make: |o| sync(SyncFlavor::Vsync, o),
    },
    EngineInfo {
        name: "pvsync",
        completes_in_call: true,
        about: "preadv/pwritev",
        files: FileUse::Opened,
        moves_data: true,
        streams: false,
        make: |o| sync(SyncFlavor::Pvsync, o),
    },
    EngineInfo {
        name: "pvsync2",
        completes_in_call: true,
        about: "preadv2/pwritev2, with hipri, nowait and uncached",
        files: FileUse::Opened,
        moves_data: true,
        streams: false,
        make: |o| {
            let flavor =
                SyncFlavor::Pvsync2 { hipri: o.hipri, nowait: o.nowait, uncached: o.uncached != 0 };
            sync(flavor, o)
        },
    },
    EngineInfo {
        name: "libaio",
        completes_in_call: false,
        about: "Linux native asynchronous I/O (io_setup, io_submit, io_getevents)",
        files: FileUse::Opened,
        moves_data: true,
        streams: false,
        make: |o| Ok(Box::new(crate::libaio::LibaioEngine::new(o)?)),
    },
    EngineInfo {
        name: "posixaio",
        completes_in_call: false,
        about: "POSIX asynchronous I/O (aio_read, aio_write, aio_suspend)",
        files: FileUse::Opened,
        moves_data: true,
        streams: false,
        make: |o| Ok(Box::new(crate::posixaio::PosixAioEngine::new(o.iodepth))),
    },
    EngineInfo {
        name: "mmap",
        completes_in_call: true,
        about: "copies to and from a shared mapping of the file",
        files: FileUse::Opened,
        moves_data: true,
        streams: false,
        make: |o| Ok(Box::new(crate::mmap::MmapEngine::new(o))),
    },
    EngineInfo {
        name: "threadpool",
        completes_in_call: false,
        about: "a pool of threads running the blocking calls",
        files: FileUse::Opened,
        moves_data: true,
        streams: false,
        make: |o| Ok(Box::new(crate::threadpool::ThreadPoolEngine::new("threadpool", o)?)),
    },
    EngineInfo {
        name: "guasi",
        completes_in_call: false,
        about: "threadpool, by the name of fio's former GUASI engine",
        files: FileUse::Opened,
        moves_data: true,
        streams: false,
        make: |o| Ok(Box::new(crate::threadpool::ThreadPoolEngine::new("guasi", o)?)),
    },
    EngineInfo {
        name: "io_uring",
        completes_in_call: false,
        about: "Linux io_uring",
        files: FileUse::Opened,
        moves_data: true,
        streams: false,
        make: |o| Ok(Box::new(crate::uring::UringEngine::new(o)?)),
    },
    EngineInfo {
        name: "splice",
        completes_in_call: true,
        about: "splice(2) and vmsplice(2) through a pipe",
        files: FileUse::Opened,
        moves_data: true,
        streams: false,
        make: |_| Ok(Box::new(crate::splice::SpliceEngine::new()?)),
    },
    EngineInfo {
        name: "ftruncate",
        completes_in_call: true,
        about: "ftruncate(2) to each write's offset; no data transfer",
        files: FileUse::Opened,
        moves_data: false,
        streams: false,
        make: |_| Ok(Box::new(SizeEngine::new(SizeCall::Ftruncate))),
    },
    EngineInfo {
        name: "falloc",
        completes_in_call: true,
        about: "fallocate(2) over each block: keep size (read), allocate (write), punch (trim)",
        files: FileUse::Opened,
        moves_data: false,
        streams: false,
        make: |_| Ok(Box::new(SizeEngine::new(SizeCall::Fallocate))),
    },
    EngineInfo {
        name: "filecreate",
        completes_in_call: true,
        about: "creates each file (open with O_CREAT), timed; no data transfer",
        files: FileUse::Named { laid_out: false },
        moves_data: false,
        streams: false,
        make: |_| Ok(Box::new(FileOpEngine::new(FileOp::Create))),
    },
    EngineInfo {
        name: "filestat",
        completes_in_call: true,
        about: "stat(2), lstat(2) or statx(2) of each file (stat_type), timed; no data transfer",
        files: FileUse::Named { laid_out: true },
        moves_data: false,
        streams: false,
        make: |o| Ok(Box::new(FileOpEngine::new(FileOp::Stat(o.stat_type)))),
    },
    EngineInfo {
        name: "filedelete",
        completes_in_call: true,
        about: "unlink(2) of each file, timed; no data transfer",
        files: FileUse::Named { laid_out: true },
        moves_data: false,
        streams: false,
        make: |_| Ok(Box::new(FileOpEngine::new(FileOp::Delete))),
    },
    EngineInfo {
        name: "nbd",
        completes_in_call: false,
        about: "a Network Block Device server (uri), over TCP or a Unix socket",
        files: FileUse::Untouched,
        moves_data: true,
        streams: false,
        make: |o| Ok(Box::new(crate::nbd::NbdEngine::new(o.uri.as_deref(), o.iodepth)?)),
    },
    EngineInfo {
        name: "net",
        completes_in_call: true,
        about: "sends (writes) or receives (reads) over TCP, UDP or a Unix socket",
        files: FileUse::Untouched,
        moves_data: true,
        streams: true,
        make: |o| Ok(Box::new(crate::net::NetEngine::new(o.net.as_ref())?)),
    },
    EngineInfo {
        name: "netsplice",
        completes_in_call: true,
        about: "net, with TCP blocks moved through a pipe by splice(2) and vmsplice(2)",
        files: FileUse::Untouched,
        moves_data: true,
        streams: true,
        make: |o| Ok(Box::new(crate::net::NetEngine::spliced(o.net.as_ref())?)),
    },
    EngineInfo {
        name: "cpuio",
        completes_in_call: true,
        about: "burns the CPU (cpuload, cpuchunks, cpumode); no data transfer",
        files: FileUse::Untouched,
        moves_data: false,
        streams: false,
        make: |o| Ok(Box::new(crate::cpuio::CpuEngine::new(o.cpu_chunk_us, o.cpu_qsort))),
    },
    EngineInfo {
        name: "exec",
        completes_in_call: true,
        about: "runs a program (program, arguments) for the job's runtime; no data transfer",
        files: FileUse::Untouched,
        moves_data: false,
        streams: false,
        make: |o| Ok(Box::new(crate::exec::ExecEngine::new(o.exec.as_ref())?)),
    },
    EngineInfo {
        name: "e4defrag",
        completes_in_call: true,
        about: "ext4's EXT4_IOC_MOVE_EXT: each write swaps its blocks with a donor file's",
        files: FileUse::Opened,
        moves_data: false,
        streams: false,
        make: |o| Ok(Box::new(crate::e4defrag::DefragEngine::new(o.e4defrag.as_ref())?)),
    },
];

/// The engine called `name` (one of the [`REGISTRY`]), set up with `options`.
pub fn create(name: &str, options: &EngineOptions) -> Result<Box<dyn Engine>, EngineError> {
    match find(name) {
        Some(engine) => engine.make(options),
        None => Err(EngineError::option("ioengine", format!("no engine '{name}'"))),
    }
}

/// The entry of the engine called `name`, if iomark runs it.
pub fn find(name: &str) -> Option<&'static EngineInfo> {
    REGISTRY.iter().find(|e| e.name == name)
}

/// How the engine called `name` uses the job's files ([`FileUse::Opened`] for a name
/// iomark does not run).
pub fn file_use(name: &str) -> FileUse {
    find(name).map_or(FileUse::Opened, |e| e.files)
}

/// The names of the engines that move data ([`EngineInfo::moves_data`]) to and from the
/// job's files, in [`REGISTRY`]'s order: the ones a test of reads and writes on files runs
/// (not `nbd`, whose data goes to a server).
pub fn data_engines() -> impl Iterator<Item = &'static str> {
    REGISTRY.iter().filter(|e| e.moves_data && e.files != FileUse::Untouched).map(|e| e.name)
}

/// The names of the engines iomark runs, in [`REGISTRY`]'s order.
pub fn names() -> impl Iterator<Item = &'static str> {
    REGISTRY.iter().map(|e| e.name)
}

/// Whether the engine called `name` may end a job's reads at the end of a stream (see
/// [`EngineInfo::streams`]).
pub fn streams(name: &str) -> bool {
    find(name).is_some_and(|e| e.streams)
}

/// Whether `name` is an engine iomark runs whose every I/O completes inside the call that
/// issues it (see [`EngineInfo::completes_in_call`]).
pub fn completes_in_call(name: &str) -> bool {
    find(name).is_some_and(|e| e.completes_in_call)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique() {
        for (i, e) in REGISTRY.iter().enumerate() {
            assert!(!REGISTRY[..i].iter().any(|o| o.name == e.name), "{} twice", e.name);
        }
    }

    #[test]
    fn an_engine_completes_in_the_call_as_the_registry_says() {
        let options = EngineOptions { iodepth: 8, ..EngineOptions::default() };
        for e in REGISTRY {
            // Engines the kernel may refuse here (io_uring, libaio) are checked when made.
            let Ok(engine) = e.make(&options) else { continue };
            assert_eq!(engine.name(), e.name);
            assert_eq!(engine.is_sync(), e.completes_in_call, "{}", e.name);
        }
    }
}
