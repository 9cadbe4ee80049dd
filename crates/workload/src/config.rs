//! `WorkloadConfig`: the plain description of what one job does, built by the runner from
//! the parsed job, and the errors for configurations that cannot run.
//!
//! Everything here is data with fio's meaning; the runner resolves what needs the system
//! (file sizes, regions from `offset`/`offset_increment`/`size`/`filesize`/`nrfiles`, the
//! seed when `randrepeat=0`) and the workload never looks further than this struct.

use crate::buffers::{Dedupe, Pattern};
use crate::distribution::Distribution;
use crate::zones::StridedZones;
use thiserror::Error;

/// fio's default `randseed` (0x89), used when `randrepeat=1` (the default) and no
/// `randseed` is given.
pub const DEFAULT_SEED: u64 = 0x89;

/// The direction of one I/O.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Direction {
    /// A read.
    Read,
    /// A write.
    Write,
    /// A trim (discard).
    Trim,
}

impl Direction {
    /// The three directions in fio's order (reads, writes, trims).
    pub const ALL: [Direction; 3] = [Direction::Read, Direction::Write, Direction::Trim];

    /// 0, 1, 2 for reads, writes, trims (fio's `ddir` order).
    pub fn index(self) -> usize {
        match self {
            Direction::Read => 0,
            Direction::Write => 1,
            Direction::Trim => 2,
        }
    }
}

/// One value per direction, in fio's order (the `bs=4k,8k,16k` convention).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PerDir<T> {
    /// The value for reads.
    pub read: T,
    /// The value for writes.
    pub write: T,
    /// The value for trims.
    pub trim: T,
}

impl<T: Clone> PerDir<T> {
    /// The same value for all three directions.
    pub fn all(value: T) -> PerDir<T> {
        PerDir { read: value.clone(), write: value.clone(), trim: value }
    }
}

impl<T> PerDir<T> {
    /// The value for `dir`.
    pub fn get(&self, dir: Direction) -> &T {
        match dir {
            Direction::Read => &self.read,
            Direction::Write => &self.write,
            Direction::Trim => &self.trim,
        }
    }
}

/// fio's `rw` (`readwrite`) modes, without the `:N` modifier (see
/// [`WorkloadConfig::rw_modifier`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RwMode {
    /// `read`: sequential reads.
    Read,
    /// `write`: sequential writes.
    Write,
    /// `trim`: sequential trims.
    Trim,
    /// `randread`: random reads.
    RandRead,
    /// `randwrite`: random writes.
    RandWrite,
    /// `randtrim`: random trims.
    RandTrim,
    /// `rw` / `readwrite`: sequential mixed reads and writes; each direction keeps its own
    /// position (fio 3.33: `rw=rw` over 32k gives reads at 0,4k,8k… and writes at 0,4k…).
    ReadWrite,
    /// `randrw`: random mixed reads and writes, one random map shared by both.
    RandReadWrite,
    /// `trimwrite`: sequential; each block is trimmed, then the same block written.
    TrimWrite,
    /// `randtrimwrite`: like `trimwrite` at random offsets.
    RandTrimWrite,
}

impl RwMode {
    /// True for the modes whose offsets are random (subject to `percentage_random`).
    pub fn is_random(self) -> bool {
        matches!(
            self,
            RwMode::RandRead
                | RwMode::RandWrite
                | RwMode::RandTrim
                | RwMode::RandReadWrite
                | RwMode::RandTrimWrite
        )
    }

    /// True when `dir` is issued by this mode.
    pub fn issues(self, dir: Direction) -> bool {
        use Direction::*;
        match self {
            RwMode::Read | RwMode::RandRead => dir == Read,
            RwMode::Write | RwMode::RandWrite => dir == Write,
            RwMode::Trim | RwMode::RandTrim => dir == Trim,
            RwMode::ReadWrite | RwMode::RandReadWrite => dir != Trim,
            RwMode::TrimWrite | RwMode::RandTrimWrite => dir != Read,
        }
    }
}

/// fio's `rw_sequencer`: what the `:N` modifier of a *random* mode does with the N-1 I/Os
/// that follow each random offset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Sequencer {
    /// `sequential` (default): continue sequentially from the previous I/O.
    #[default]
    Sequential,
    /// `identical`: repeat the previous offset.
    Identical,
}

/// One `bssplit` entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SplitEntry {
    /// The block size in bytes.
    pub size: u64,
    /// Its share in percent; `None` is fio's blank share (`64k/`), which takes an equal
    /// part of what the explicit shares leave of 100. Shares are weights: when they add up
    /// to less than 100 (fio accepts `4k/30:8k/30`), each entry gets `share / sum`.
    pub percent: Option<u32>,
}

/// How the block size of one direction is chosen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BlockSizes {
    /// `bs=N`: always N bytes.
    Fixed(u64),
    /// `bsrange=min-max`: uniform in the range, a multiple of `min` unless
    /// [`WorkloadConfig::bs_unaligned`].
    Range {
        /// The smallest size in bytes.
        min: u64,
        /// The largest size in bytes.
        max: u64,
    },
    /// `bssplit=...`: sizes drawn with the given shares.
    Split(Vec<SplitEntry>),
}

impl BlockSizes {
    /// The smallest size this choice can produce (0 for an empty split).
    pub fn min(&self) -> u64 {
        match self {
            BlockSizes::Fixed(bs) => *bs,
            BlockSizes::Range { min, .. } => *min,
            BlockSizes::Split(entries) => entries.iter().map(|e| e.size).min().unwrap_or(0),
        }
    }

    /// The largest size this choice can produce (0 for an empty split).
    pub fn max(&self) -> u64 {
        match self {
            BlockSizes::Fixed(bs) => *bs,
            BlockSizes::Range { max, .. } => *max,
            BlockSizes::Split(entries) => entries.iter().map(|e| e.size).max().unwrap_or(0),
        }
    }
}

/// One file of the job and the region of it the job works in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileRegion {
    /// Where the region starts in the file, in bytes (fio's `offset`, plus
    /// `offset_increment` × job number; the runner computes it).
    pub offset: u64,
    /// The region's length in bytes: fio's per-file size (`size` / `nrfiles`, or
    /// `filesize`, or the file's size less `offset`). A tail shorter than the smallest
    /// block size is touched only when the file goes on past it (see `reach`): fio 3.33,
    /// `size=18k bs=4k` on a file of 18k reads 4 blocks, 16k.
    pub len: u64,
    /// How far from the region's start a sequential I/O of a fixed block size may end:
    /// the file's size less `offset` when the file goes on past the region, else `len`
    /// (a smaller value counts as `len`).
    /// fio 3.33 starts a sequential I/O anywhere before the region's end and lets a fixed
    /// size run past it as long as the file holds it (`size=9000 bs=4k` on a 20000-byte
    /// file reads 0, 4k and 8k; on a 12000-byte file 0 and 4k). Random offsets, and the
    /// sizes of a `bsrange` or `bssplit`, stay inside `len`.
    pub reach: u64,
}

impl FileRegion {
    /// The region of `len` bytes at `offset`, reaching no further than its end.
    pub fn new(offset: u64, len: u64) -> FileRegion {
        FileRegion { offset, len, reach: len }
    }
}

/// fio's `file_service_type`: which file serves the next I/O.
///
/// The skewed kinds (`zipf`, `pareto`, `normal`) draw a file for every I/O, as fio 3.33
/// does: a value of the law over `nrfiles × 1024` values, whose 1024-value buckets are the
/// files (see `files.rs`). A file whose pass is over is started again when it is drawn
/// (fio closes and reopens it), so such a job ends on its byte or I/O budget only.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum FileService {
    /// `roundrobin[:N]` (default, N=1): N I/Os on a file, then the next file that is not
    /// done (fio 3.33: `nrfiles=2 rw=read` alternates files every I/O).
    RoundRobin(u32),
    /// `sequential`: finish one file before moving to the next.
    Sequential,
    /// `random[:N]`: N I/Os on a file chosen uniformly among those not done.
    Random(u32),
    /// `zipf[:θ]` (default 1.1): rank k of the files' values with probability ∝ (k+1)^-θ,
    /// the hottest values starting at a random place (a random file, from the seed).
    Zipf(f64),
    /// `pareto[:h]` (default 0.2, 0 < h < 1): P(rank < k) = (k/n)^(ln(1-h)/ln h), placed
    /// like zipf (fio 3.33: `pareto:0.5` is uniform, `pareto:0.9` piles up just before the
    /// hot place).
    Pareto(f64),
    /// `normal[:dev]` / `gauss[:dev]` (default 0): a bell curve centred between the middle
    /// files, widened by `dev` percent (see [`crate::Distribution::Normal`]).
    Normal(f64),
}

impl FileService {
    /// True for `zipf`, `pareto` and `normal`.
    pub fn is_skewed(self) -> bool {
        matches!(self, FileService::Zipf(_) | FileService::Pareto(_) | FileService::Normal(_))
    }
}

/// Buffer content options for writes, as the runner resolved them from the job (see
/// `buffers` for what each combination writes, as measured on fio 3.33).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BufferOptions {
    /// `zero_buffers`: buffers hold zeros.
    pub zero_buffers: bool,
    /// `refill_buffers`, resolved: new contents for every write. fio turns it on by itself
    /// for `buffer_compress_percentage` between 1 and 99 and for any `dedupe_percentage`,
    /// unless the job sets `refill_buffers` itself; the runner applies that.
    pub refill_buffers: bool,
    /// `scramble_buffers`, resolved: lightly modify each write's buffer so that no two
    /// written blocks are identical. fio's default is on, but off with `zero_buffers` or
    /// `buffer_pattern` unless the job sets it; the runner applies that. Never with
    /// `refill_buffers`, `buffer_compress_percentage` or `dedupe_percentage`.
    pub scramble_buffers: bool,
    /// `buffer_pattern`: the pattern that fills buffers (and the fixed part of
    /// compressible buffers, instead of zeros).
    pub pattern: Option<Pattern>,
    /// `buffer_compress_percentage` when the job gives it (0..=100); given at all, it
    /// switches to the compressible-data generator.
    pub compress_percentage: Option<u32>,
    /// `buffer_compress_chunk` in bytes (default 512); 0 means the whole block.
    pub compress_chunk: u64,
    /// `dedupe_percentage` and its companions, when the job gives it.
    pub dedupe: Option<Dedupe>,
}

impl Default for BufferOptions {
    fn default() -> Self {
        BufferOptions {
            zero_buffers: false,
            refill_buffers: false,
            scramble_buffers: true,
            pattern: None,
            compress_percentage: None,
            compress_chunk: 512,
            dedupe: None,
        }
    }
}

/// What one job does: the plain data the runner builds from a parsed job.
///
/// [`Default`] gives fio's defaults with no files: `rw=read`, `bs=4k`, `rwmixread=50`,
/// `loops=1`, seed 0x89, the random map on, fully random random modes, round-robin file
/// service, scrambled random buffers, uniform random offsets.
#[derive(Debug, Clone, PartialEq)]
pub struct WorkloadConfig {
    /// The `rw` mode.
    pub rw: RwMode,
    /// The `:N` of `rw=mode:N` (0 when absent). For sequential modes it is a byte count
    /// *added* between I/Os (`rw=read:4k` reads 0, 8k, 16k… with 4k bs); for random modes
    /// it is an I/O count: a new random offset every N I/Os, the others following
    /// [`WorkloadConfig::rw_sequencer`].
    pub rw_modifier: u64,
    /// `rw_sequencer`, used with a random mode's `:N`.
    pub rw_sequencer: Sequencer,
    /// `rwmixread` in percent (0..=100); writes are the rest. Used by `rw`/`randrw` only.
    pub rwmixread: u32,
    /// Block sizes per direction (`bs`, `bsrange` or `bssplit`).
    pub bs: PerDir<BlockSizes>,
    /// `bs_unaligned`: `bsrange` sizes need not be multiples of the minimum.
    pub bs_unaligned: bool,
    /// `bs_is_seq_rand`: block sizes go by the kind of I/O, not its direction: sequential
    /// I/Os (every I/O of a sequential mode, the follow-ups of `:N` and
    /// `percentage_random`) take the read sizes, random ones the write sizes, whatever
    /// their direction (fio 3.33: `randrw bs=4k,16k percentage_random=50` reads and writes
    /// 4k sequentially and 16k at random offsets).
    pub bs_is_seq_rand: bool,
    /// `blockalign` per direction: random offsets are multiples of this (relative to the
    /// region start); `None` means the direction's minimum block size. fio turns the
    /// random map off whenever `blockalign` is given ("Any use of blockalign= turns off
    /// randommap"); the runner applies that to [`WorkloadConfig::random_map`].
    pub blockalign: PerDir<Option<u64>>,
    /// The files, in the job's order, each with its region.
    pub files: Vec<FileRegion>,
    /// `file_service_type`.
    pub file_service: FileService,
    /// `openfiles`: at most this many files are in service at once (fio opens a file when
    /// the service first needs it and closes it when its pass is over; a new one opens
    /// only when fewer than this many are open). `None` or more than the files: no limit.
    pub open_files: Option<usize>,
    /// `zonemode=strided` with its sizes; `None` for `zonemode=none`.
    pub zones: Option<StridedZones>,
    /// The byte budget: fio's `io_size` when given, else fio's `size` (the total over all
    /// files, before any tail is dropped).
    pub io_limit: u64,
    /// True when the job set `io_size` explicitly. Then, once every loop has passed over
    /// the files, further passes start until `io_limit` is reached (`size=16k
    /// io_size=40k` reads the region 2.5 times). Without it the job ends after `loops`
    /// passes even when the tails left `io_limit` unreached.
    pub io_size_given: bool,
    /// `number_ios`: the job stops once `number_ios × loops` I/Os were issued, whatever
    /// the passes (fio 3.33: `loops=3 number_ios=3` over 4 blocks → 4 + 4 + 1). `None` or
    /// `Some(0)`: no limit.
    pub number_ios: Option<u64>,
    /// `loops` (0 is taken as 1).
    pub loops: u32,
    /// `time_based`: passes repeat for ever; the runner stops the job at `runtime`
    /// (fio 3.33 then ignores `io_size` and `number_ios`, and so does [`crate::Workload`]).
    pub time_based: bool,
    /// The random map (`norandommap` turns it off): random I/O touches every block of a
    /// region once per pass.
    pub random_map: bool,
    /// The seed of every random stream. The runner resolves it: `randseed` if given, else
    /// [`DEFAULT_SEED`] when `randrepeat=1` (fio's default), else a fresh random value.
    pub seed: u64,
    /// `percentage_random` per direction, 0..=100 (default 100): in random modes, the share
    /// of I/Os at a random offset; the others continue sequentially.
    pub percentage_random: PerDir<u32>,
    /// Buffer content options.
    pub buffers: BufferOptions,
    /// `random_distribution` per direction: how random offsets spread over each region.
    /// Any skewed one turns the random map off, as in fio.
    pub distribution: PerDir<Distribution>,
    /// `softrandommap`: when the random map of a file cannot be allocated, run that file
    /// without it instead of refusing the job.
    pub soft_random_map: bool,
    /// `random_generator=lfsr`: uniform random offsets come from a maximal-length LFSR
    /// over each region's blocks, which visits every block once per pass without the
    /// random map (the map is off). `tausworthe` and `tausworthe64` (false) use iomark's
    /// generator.
    pub lfsr: bool,
}

impl Default for WorkloadConfig {
    fn default() -> Self {
        WorkloadConfig {
            rw: RwMode::Read,
            rw_modifier: 0,
            rw_sequencer: Sequencer::Sequential,
            rwmixread: 50,
            bs: PerDir::all(BlockSizes::Fixed(4096)),
            bs_unaligned: false,
            bs_is_seq_rand: false,
            blockalign: PerDir::all(None),
            files: Vec::new(),
            file_service: FileService::RoundRobin(1),
            open_files: None,
            zones: None,
            io_limit: 0,
            io_size_given: false,
            number_ios: None,
            loops: 1,
            time_based: false,
            random_map: true,
            seed: DEFAULT_SEED,
            percentage_random: PerDir::all(100),
            buffers: BufferOptions::default(),
            distribution: PerDir::all(Distribution::Random),
            lfsr: false,
            soft_random_map: false,
        }
    }
}

impl WorkloadConfig {
    /// Checks what every generator relies on, without building one (only
    /// [`crate::Workload::new`] allocates the random maps, whose failure it reports).
    pub fn check(&self) -> Result<(), ConfigError> {
        validate(self)
    }

    /// A one-file job over `[0, size)` with fixed block size `bs` and `io_limit = size`:
    /// the common case, and a convenient start for tests.
    pub fn single_file(rw: RwMode, bs: u64, size: u64) -> WorkloadConfig {
        WorkloadConfig {
            rw,
            bs: PerDir::all(BlockSizes::Fixed(bs)),
            files: vec![FileRegion::new(0, size)],
            io_limit: size,
            ..WorkloadConfig::default()
        }
    }

    /// The directions this job issues.
    pub fn directions(&self) -> impl Iterator<Item = Direction> + '_ {
        Direction::ALL.into_iter().filter(|d| self.rw.issues(*d))
    }

    /// The directions whose block sizes the job uses: those it issues, or reads and
    /// writes with `bs_is_seq_rand` (sequential I/Os take the read sizes, random ones the
    /// write sizes).
    pub fn size_directions(&self) -> impl Iterator<Item = Direction> + '_ {
        Direction::ALL.into_iter().filter(|d| {
            if self.bs_is_seq_rand {
                *d == Direction::Read || (*d == Direction::Write && self.rw.is_random())
            } else {
                self.rw.issues(*d)
            }
        })
    }

    /// The largest block size the job uses (fio's `max_bs`), over
    /// [`WorkloadConfig::size_directions`].
    pub fn max_bs(&self) -> u64 {
        self.size_directions().map(|d| self.bs.get(d).max()).max().unwrap_or(0)
    }

    /// The smallest block size the job uses, over [`WorkloadConfig::size_directions`]: the
    /// random map's block.
    pub fn min_bs(&self) -> u64 {
        self.size_directions().map(|d| self.bs.get(d).min()).min().unwrap_or(0)
    }
}

/// Why a [`WorkloadConfig`] cannot run. Each message names the fio option at fault.
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
        dir: Direction,
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
        dir: Direction,
        /// The smallest block size of that direction.
        bs: u64,
        /// The file's index in [`WorkloadConfig::files`].
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
        dir: Direction,
        /// What is wrong.
        why: String,
    },
    /// The random map of a file cannot be allocated.
    #[error(
        "cannot allocate the random map of file {file} ({blocks} blocks): set \
         'softrandommap' to run without it, or 'norandommap'"
    )]
    MapAllocation {
        /// The file's index in [`WorkloadConfig::files`].
        file: usize,
        /// The blocks the map would cover.
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
        dir: Direction,
    },
}

/// The option name behind a [`BlockSizes`] value, for error messages.
pub(crate) fn bs_option(bs: &BlockSizes) -> &'static str {
    match bs {
        BlockSizes::Fixed(_) => "bs",
        BlockSizes::Range { .. } => "bsrange",
        BlockSizes::Split(_) => "bssplit",
    }
}

/// Checks the parts of `cfg` that every generator relies on.
pub(crate) fn validate(cfg: &WorkloadConfig) -> Result<(), ConfigError> {
    if cfg.files.is_empty() {
        return Err(ConfigError::NoFiles);
    }
    if cfg.rwmixread > 100 {
        return Err(ConfigError::BadPercentage { option: "rwmixread", value: cfg.rwmixread });
    }
    for dir in cfg.directions() {
        if *cfg.percentage_random.get(dir) > 100 {
            return Err(ConfigError::BadPercentage {
                option: "percentage_random",
                value: *cfg.percentage_random.get(dir),
            });
        }
        if *cfg.blockalign.get(dir) == Some(0) {
            return Err(ConfigError::ZeroAlignment { dir });
        }
        if cfg.rw.is_random() {
            crate::distribution::check(cfg.distribution.get(dir), &cfg.files)
                .map_err(|why| ConfigError::BadDistribution { dir, why })?;
        }
    }
    crate::files::check(cfg.file_service)?;
    if let Some(z) = &cfg.zones {
        crate::zones::check(z, cfg)?;
    }
    for dir in cfg.size_directions() {
        let bs = cfg.bs.get(dir);
        let option = bs_option(bs);
        let bad = |why: String| ConfigError::BadBlockSize { option, dir, why };
        match bs {
            BlockSizes::Fixed(0) => return Err(bad("zero".into())),
            BlockSizes::Range { min, max } if *min == 0 || min > max => {
                return Err(bad(format!("range {min}-{max}")))
            }
            BlockSizes::Split(entries) => {
                if entries.is_empty() || entries.iter().any(|e| e.size == 0) {
                    return Err(bad("empty split or zero size".into()));
                }
                let sum: u32 = entries.iter().filter_map(|e| e.percent).sum();
                if sum > 100 {
                    return Err(bad(format!("shares add up to {sum}, more than 100")));
                }
            }
            _ => {}
        }
        let min = bs.min();
        for (file, region) in cfg.files.iter().enumerate() {
            if region.len < min {
                return Err(ConfigError::BlockLargerThanRegion {
                    option,
                    dir,
                    bs: min,
                    file,
                    len: region.len,
                });
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bs_larger_than_region_names_the_option() {
        let cfg = WorkloadConfig::single_file(RwMode::Read, 8192, 4096);
        let err = validate(&cfg).unwrap_err();
        assert!(matches!(err, ConfigError::BlockLargerThanRegion { option: "bs", .. }));
        assert!(err.to_string().contains("'bs'"), "{err}");
    }

    #[test]
    fn only_issued_directions_are_checked() {
        // A trim size that would not fit does not matter to a read job.
        let mut cfg = WorkloadConfig::single_file(RwMode::Read, 4096, 16384);
        cfg.bs.trim = BlockSizes::Fixed(1 << 20);
        assert!(validate(&cfg).is_ok());
    }

    #[test]
    fn bad_values_are_refused() {
        let mut cfg = WorkloadConfig::single_file(RwMode::RandReadWrite, 4096, 16384);
        cfg.rwmixread = 101;
        assert!(validate(&cfg).is_err());
        let mut cfg = WorkloadConfig::single_file(RwMode::Read, 4096, 16384);
        cfg.bs.read = BlockSizes::Range { min: 8192, max: 4096 };
        assert!(validate(&cfg).unwrap_err().to_string().contains("bsrange"));
        cfg.bs.read = BlockSizes::Split(vec![
            SplitEntry { size: 4096, percent: Some(60) },
            SplitEntry { size: 8192, percent: Some(50) },
        ]);
        assert!(validate(&cfg).unwrap_err().to_string().contains("bssplit"));
        let cfg = WorkloadConfig { files: vec![], ..WorkloadConfig::default() };
        assert_eq!(validate(&cfg), Err(ConfigError::NoFiles));
    }

    #[test]
    fn min_and_max_bs_follow_the_directions_used() {
        let mut cfg = WorkloadConfig::single_file(RwMode::ReadWrite, 4096, 1 << 20);
        cfg.bs.write = BlockSizes::Range { min: 8192, max: 65536 };
        cfg.bs.trim = BlockSizes::Fixed(512);
        assert_eq!(cfg.min_bs(), 4096);
        assert_eq!(cfg.max_bs(), 65536);
    }
}
