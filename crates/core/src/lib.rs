//! The vocabulary of one I/O, shared by every layer from the workload to the report: its
//! direction ([`Ddir`]), fio's `rw` patterns ([`RwMode`]) and a value per data direction
//! ([`PerDir`]).
//!
//! No dependencies and no behaviour beyond naming: the workload crate decides which I/O
//! comes next, an engine performs it, the statistics count it, all in these words.

#![forbid(unsafe_code)]

mod ddir;
mod per_dir;
mod rw;

pub use ddir::Ddir;
pub use per_dir::PerDir;
pub use rw::RwMode;
