//! The one list of the engines iomark runs: [`REGISTRY`]. Each entry gives an engine's
//! name (as `ioengine` spells it), whether it completes every I/O inside the call that
//! issues it, a one-line description, and how to make it. [`create`] makes engines from
//! it, the runner asks it which engines are synchronous, and `--enghelp` lists it.
//!
//! The option table (in the options crate, which does no I/O) keeps its own `ioengine`
//! choices, fio's full list; a test checks that the choices iomark runs are exactly these.

use crate::interface::{Engine, EngineError, EngineOptions};
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
    /// Makes the engine.
    make: fn(&EngineOptions) -> Result<Box<dyn Engine>, EngineError>,
}

impl EngineInfo {
    /// Makes the engine, set up with `options`.
    pub fn make(&self, options: &EngineOptions) -> Result<Box<dyn Engine>, EngineError> {
        (self.make)(options)
    }
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
        make: |o| Ok(Box::new(crate::null::NullEngine::new(o.iodepth))),
    },
    EngineInfo {
        name: "sync",
        completes_in_call: true,
        about: "lseek and read/write",
        make: |o| sync(SyncFlavor::Sync, o),
    },
    EngineInfo {
        name: "psync",
        completes_in_call: true,
        about: "pread/pwrite",
        make: |o| sync(SyncFlavor::Psync, o),
    },
    EngineInfo {
        name: "vsync",
        completes_in_call: true,
        about: "lseek and readv/writev",
        make: |o| sync(SyncFlavor::Vsync, o),
    },
    EngineInfo {
        name: "pvsync",
        completes_in_call: true,
        about: "preadv/pwritev",
        make: |o| sync(SyncFlavor::Pvsync, o),
    },
    EngineInfo {
        name: "pvsync2",
        completes_in_call: true,
        about: "preadv2/pwritev2, with hipri, nowait and uncached",
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
        make: |o| Ok(Box::new(crate::libaio::LibaioEngine::new(o)?)),
    },
    EngineInfo {
        name: "posixaio",
        completes_in_call: false,
        about: "POSIX asynchronous I/O (aio_read, aio_write, aio_suspend)",
        make: |o| Ok(Box::new(crate::posixaio::PosixAioEngine::new(o.iodepth))),
    },
    EngineInfo {
        name: "mmap",
        completes_in_call: true,
        about: "copies to and from a shared mapping of the file",
        make: |o| Ok(Box::new(crate::mmap::MmapEngine::new(o))),
    },
    EngineInfo {
        name: "threadpool",
        completes_in_call: false,
        about: "a pool of threads running the blocking calls",
        make: |o| Ok(Box::new(crate::threadpool::ThreadPoolEngine::new("threadpool", o)?)),
    },
    EngineInfo {
        name: "guasi",
        completes_in_call: false,
        about: "threadpool, by the name of fio's former GUASI engine",
        make: |o| Ok(Box::new(crate::threadpool::ThreadPoolEngine::new("guasi", o)?)),
    },
    EngineInfo {
        name: "io_uring",
        completes_in_call: false,
        about: "Linux io_uring",
        make: |o| Ok(Box::new(crate::uring::UringEngine::new(o)?)),
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

/// The names of the engines iomark runs, in [`REGISTRY`]'s order.
pub fn names() -> impl Iterator<Item = &'static str> {
    REGISTRY.iter().map(|e| e.name)
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
