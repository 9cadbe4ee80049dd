//! The `iomark` binary end to end, in one test program: every module runs the binary (and
//! fio 3.33 where it is installed) on job files and command lines in temporary
//! directories, and checks what it prints and leaves behind. What the modules share is in
//! [`support`], each helper once.
//!
//! `cargo test -p iomark --test cli` runs it; a name filter runs a part
//! (`cargo test -p iomark --test cli pacing::`). Tests that need fio, root, a loop device,
//! strace or another program print `skipped: …` and pass where it is missing; CI runs them
//! as root with fio installed. `IOMARK_BLESS=1` rewrites the golden files (see
//! [`support::golden`]).

mod support;

mod act;
mod block_latency;
mod buffers;
mod cpuio;
mod debug_parse;
mod distributions;
mod e4defrag;
mod engines;
mod errors;
mod exec_engine;
mod files;
mod fio_plot;
mod fuse;
mod idle_prof;
mod job_options;
mod logs;
mod metadata;
mod multihost;
mod nbd;
mod net;
mod notes;
mod pacing;
mod pictures;
mod processes;
mod profiles;
mod random;
mod refusals;
mod replay;
mod run;
mod safety;
mod sched;
mod selftest;
mod signals;
mod sweep;
mod syncs;
mod terse;
mod thp;
mod usage;
mod verify;
