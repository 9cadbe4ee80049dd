//! The `Engine` trait, I/O units with aligned buffers, and the engines; plus the few facts
//! about the machine that need system calls.
//!
//! The engine interface is fio's: `queue` answers Completed, Queued or Busy; queued units
//! are submitted with `commit` and collected with `reap`. Synchronous engines complete every
//! unit inside `queue`. Engines never read clocks and never touch statistics: the runner
//! times every I/O at one single point, so `ioengine=null` measures iomark's own overhead.
//!
//! The only crate with `unsafe` code; every block carries a `// SAFETY:` line.

pub mod file;
pub mod null;
pub mod sync;
pub mod system;
pub mod unit;

pub use unit::{AlignedBuf, Ddir, IoUnit};

/// What `queue` did with a unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Queued {
    /// The I/O is done; its `result` is set.
    Completed,
    /// The I/O is queued; it completes after `commit`, through `reap`.
    Queued,
    /// The engine cannot take more now: reap, then try again.
    Busy,
}

/// An I/O engine.
pub trait Engine: Send {
    /// The engine's name, as `ioengine` spells it.
    fn name(&self) -> &'static str;

    /// Whether every `queue` completes the unit (no submission or reaping stage).
    fn is_sync(&self) -> bool;

    /// Whether the submit and complete distributions count this engine's I/Os (fio's null
    /// engine reports none).
    fn counts_batches(&self) -> bool {
        true
    }

    /// Starts (or, for a synchronous engine, does) the unit's I/O.
    fn queue(&mut self, unit: &mut IoUnit) -> Queued;

    /// Submits queued units; returns how many were submitted.
    fn commit(&mut self) -> std::io::Result<usize> {
        Ok(0)
    }

    /// Waits for at least `min` and at most `max` completions; pushes the completed units'
    /// indexes to `done` (which has room) and returns how many.
    fn reap(&mut self, min: usize, max: usize, done: &mut Vec<u32>) -> std::io::Result<usize> {
        let _ = (min, max, done);
        Ok(0)
    }
}

/// The engines iomark has, by fio's names.
pub const ENGINES: &[&str] = &["null", "sync", "psync", "vsync", "pvsync", "pvsync2"];

/// Options that change how an engine works.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EngineOptions {
    /// `hipri` (pvsync2): polled completion.
    pub hipri: bool,
    /// `nowait` (pvsync2): fail instead of blocking.
    pub nowait: bool,
}

/// The engine called `name`, or `None` if iomark has no such engine.
pub fn create(name: &str, options: EngineOptions) -> Option<Box<dyn Engine>> {
    use sync::{SyncEngine, SyncFlavor};
    let flavor = match name {
        "null" => return Some(Box::new(null::NullEngine)),
        "sync" => SyncFlavor::Sync,
        "psync" => SyncFlavor::Psync,
        "vsync" => SyncFlavor::Vsync,
        "pvsync" => SyncFlavor::Pvsync,
        "pvsync2" => SyncFlavor::Pvsync2 { hipri: options.hipri, nowait: options.nowait },
        _ => return None,
    };
    Some(Box::new(SyncEngine::new(flavor)))
}
