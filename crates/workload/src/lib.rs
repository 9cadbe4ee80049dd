//! What a job does, as pure functions of (seed, job, step): which I/O comes next (file,
//! direction, offset, length), block size choice, the read/write mix, and the contents of
//! write buffers. No I/O, no clocks, no system calls.
//!
//! The runner builds a [`WorkloadConfig`] from the parsed job, makes a [`Workload`] once,
//! and calls [`Workload::next`] in its hot loop until it answers `None`. Everything
//! `next` needs (random maps, split tables) is allocated in [`Workload::new`]; `next`
//! itself never allocates.
//!
//! # How a job ends (fio 3.33, measured with `--write_iolog` on the null engine)
//!
//! A job is a series of *passes*. A pass opens every file fresh (sequential positions at
//! the region start, random maps clear) and ends when every file's pass is over (the
//! region's end for sequential I/O, a full map for random I/O; `offsets` has the exact
//! rules). Then:
//!
//! - Passes 1..=`loops` always start. Beyond them, a further pass starts only when
//!   `io_size` was given, fewer than `io_size` bytes (trims included) were issued, and at
//!   least the largest block size is still missing (`size=16k bs=4k io_size=20k` → 5 reads,
//!   `io_size=19k` → 4; `loops=2 io_size=36k` → 12).
//! - Throughout, the job stops before an I/O once `io_size × loops` bytes or
//!   `number_ios × loops` I/Os were issued (`size=16k loops=2 io_size=12k` → 4 + 2 reads;
//!   `loops=3 number_ios=3` → 4 + 4 + 1). The last I/O is never cut short (`io_size=42k
//!   bs=4k` issues 11 I/Os, 44k).
//! - `trimwrite`: each trim is followed by a write of the same extent (with fixed sizes,
//!   trims and writes on cursors of their own: docs/random.md); only the writes count
//!   toward `io_size` (`io_size=16k` → 4 trims and 4 writes), and the runner counts
//!   `number_ios` in pairs.
//! - `time_based`: passes repeat for ever; the runner stops at `runtime`.

#![forbid(unsafe_code)]

mod bs;
mod buffers;
mod config;
mod distribution;
mod error;
mod files;
mod jhash;
mod lfsr;
mod mix;
mod offsets;
mod region;
mod rng;
mod seeds;
mod taus;
mod validate;
mod workload;
mod zones;

pub use bs::{BlockSizes, SplitEntry};
pub use buffers::{
    BufferFiller, BufferOptions, Dedupe, DedupeMode, Pattern, PatternError, MAX_PATTERN,
    SCRAMBLE_SECTOR,
};
pub use config::{Sequencer, WorkloadConfig, DEFAULT_SEED};
pub use distribution::hits::{HitRow, Hits};
pub use distribution::{AbsZone, Distribution, RankSampler, Zone};
pub use error::ConfigError;
pub use files::FileService;
pub use jhash::lookup3;
pub use region::FileRegion;
pub use rng::{Rng, Stream};
pub use seeds::{FioSeeds, FioStream};
pub use taus::FioRng;
pub use workload::{IoRequest, Workload};
pub use zones::StridedZones;
