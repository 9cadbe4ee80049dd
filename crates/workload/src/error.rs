//! [`ConfigError`]: why a workload configuration cannot run; each message names the fio
//! option at fault.

use iomark_core::Ddir;
use thiserror::Error;

/// Why a [`crate::WorkloadConfig`] cannot run. Each message names the fio option at fault.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ConfigError {
    /// The job has no file to work on.
    #[error("no files: the job needs at least one file (options 'filename', 'nrfiles')")]
    NoFiles,
    /// A block size is zero or a range is upside down.
    #[error("option '{option}': invalid block size for {dir:?}: {why}")]
    BadBlockSize {
        /// The option at fault (`bs`, `bsrange` or `bssplit`).
        option: &'static str,
        /// The direction.
        dir: Ddir,
        /// What is wrong.
        why: String,
    },
    /// A file's region cannot hold a single block.
    #[error(
        "option '{option}': block size {bs} for {dir:?} is larger than the region of file \
         {file} ({len} bytes; see 'size', 'filesize', 'offset')"
    )]
    BlockLargerThanRegion {
        /// The option at fault (`bs`, `bsrange` or `bssplit`).
        option: &'static str,
        /// The direction.
        dir: Ddir,
        /// The smallest block size of that direction.
        bs: u64,
        /// The file's index in [`crate::WorkloadConfig::files`].
        file: usize,
        /// The region's length.
        len: u64,
    },
    /// A percentage is above 100.
    #[error("option '{option}': {value} is not a percentage in 0..=100")]
    BadPercentage {
        /// The option (`rwmixread`, `percentage_random`).
        option: &'static str,
        /// The value given.
        value: u32,
    },
    /// A `random_distribution` that cannot run on this job.
    #[error("option 'random_distribution': {why} (for {dir:?})")]
    BadDistribution {
        /// The direction.
        dir: Ddir,
        /// What is wrong.
        why: String,
    },
    /// The random map of a file cannot be allocated.
    #[error(
        "cannot allocate the random map of file {file} ({blocks} blocks): set \
         'softrandommap' to run without it, or 'norandommap'"
    )]
    MapAllocation {
        /// The file's index in [`crate::WorkloadConfig::files`].
        file: usize,
        /// The blocks the map would cover.
        blocks: u64,
    },
    /// `random_generator=lfsr` whose seed is the register's fixed point.
    #[error(
        "option 'random_generator': the lfsr over file {file}'s {blocks} blocks would start at \
         its fixed point for this job number (fio 3.33 fails the job: \"failed initializing \
         LFSR\"); use another block count or job order, or random_generator=tausworthe"
    )]
    LfsrSeed {
        /// The file's index in [`crate::WorkloadConfig::files`].
        file: usize,
        /// The blocks the register covers.
        blocks: u64,
    },
    /// `zonemode=strided` sizes or combinations that cannot run.
    #[error("option '{option}': {why}")]
    Zones {
        /// The option at fault.
        option: &'static str,
        /// What is wrong.
        why: String,
    },
    /// A `file_service_type` parameter out of fio's range.
    #[error("option 'file_service_type': {0}")]
    BadFileService(String),
    /// `blockalign` is zero.
    #[error("option 'blockalign': alignment for {dir:?} must be at least 1 byte")]
    ZeroAlignment {
        /// The direction.
        dir: Ddir,
    },
}
