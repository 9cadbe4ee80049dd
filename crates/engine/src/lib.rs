//! The `Engine` trait, the I/O unit pool and the engines (sync family, libaio, io_uring,
//! threadpool, mmap, null, …).
//!
//! The only crate that will hold `unsafe` code, each block with a `// SAFETY:` line. Engines
//! never read clocks or touch statistics. Filled by the runner and async-engine issues.
