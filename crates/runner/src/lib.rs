//! Turns `JobSpec`s into plans and threads: file layout, the submit/reap loop with all timing
//! in one place, groups, stonewall, ramp, runtime and signals.
//!
//! Owns every clock read on the I/O path.
#![forbid(unsafe_code)]

pub mod buffers;
pub mod clock;
pub mod cmdprio;
pub mod disk;
pub mod errors;
pub mod exec;
pub mod files;
pub mod flow;
mod get;
pub mod hints;
pub mod iosched;
pub mod job;
pub mod layout;
pub mod links;
pub mod lockfile;
pub mod logs;
pub mod pace;
pub mod placement;
pub mod plan;
pub mod progress;
pub mod replay;
pub mod run;
pub mod safety;
pub mod schedule;
pub mod status;
pub mod steady;
pub mod sync_range;
pub mod target;
pub mod think;
pub mod timing;
pub mod verify;
mod workload_config;

pub use workload_config::WorkloadOptions;
