//! The `Engine` trait, I/O units with aligned buffers, and the engines; plus the few facts
//! about the machine that need system calls.
//!
//! The engine interface is fio's: `queue` answers Completed, Queued or Busy; queued units
//! are submitted with `commit` and collected with `reap`. Synchronous engines complete every
//! unit inside `queue`; `io_uring` queues into the kernel's rings. Engines never read clocks
//! and never touch statistics: the runner times every I/O at one single point, so
//! `ioengine=null` measures iomark's own overhead. The engines are listed once, in
//! [`registry`], which [`create`] makes them from.
//!
//! The only crate with `unsafe` code; every block carries a `// SAFETY:` line.

pub mod cpuio;
pub mod e4defrag;
pub mod exec;
pub mod falloc;
pub mod file;
pub mod fileops;
mod interface;
pub mod libaio;
pub mod locked;
pub mod mem;
pub mod mmap;
pub mod nbd;
pub mod net;
pub mod null;
mod options;
pub mod posixaio;
pub mod registry;
pub mod shared;
pub mod splice;
pub mod sync;
pub mod system;
pub mod table;
pub mod thread;
pub mod threadpool;
pub mod unit;
pub mod uring;

pub use interface::{Engine, EngineError, Queued};
pub use mem::AlignedBuf;
pub use options::EngineOptions;
pub use registry::create;
pub use table::{Brand, Slot, SlotList, UnitTable};
pub use unit::IoUnit;
