//! The `Engine` trait, the I/O unit pool and the engines (sync family, libaio, io_uring,
//! threadpool, mmap, null, …), and the few facts about the machine that need system calls.
//!
//! The only crate with `unsafe` code, each block with a `// SAFETY:` line. Engines never read
//! clocks or touch statistics. The engines arrive with the runner and async-engine issues.

pub mod system;
