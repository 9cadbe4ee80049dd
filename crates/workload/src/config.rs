//! `WorkloadConfig`: the plain description of what one job does, built by the runner from
//! the parsed job. Each concept's own types live with it (block sizes in `bs`, buffer
//! options in `buffers`, file service in `files`, regions in `region`, zones in `zones`);
//! `validate` says which configurations cannot run.
//!
//! Everything here is data with fio's meaning; the runner resolves what needs the system
//! (file sizes, regions from `offset`/`offset_increment`/`size`/`filesize`/`nrfiles`, the
//! seed when `randrepeat=0`) and the workload never looks further than this struct.

use crate::bs::BlockSizes;
use crate::buffers::BufferOptions;
use crate::distribution::Distribution;
use crate::files::FileService;
use crate::region::FileRegion;
use crate::seeds::FioSeeds;
use crate::zones::StridedZones;
use iomark_core::{Ddir, PerDir, RwMode};

/// fio's default `randseed` (0x89), used when `randrepeat=1` (the default) and no
/// `randseed` is given.
pub const DEFAULT_SEED: u64 = 0x89;

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
    /// The seed of iomark's own draws (the per-write decisions of generated buffer
    /// contents, whose draws are not fio's). The runner resolves it: `randseed` if given,
    /// else [`DEFAULT_SEED`] when `randrepeat=1` (fio's default), else a fresh random value.
    pub seed: u64,
    /// The seeds of fio's streams (offsets, block sizes, the read/write mix,
    /// `percentage_random`, `file_service_type=random`), from `randseed` and the job's
    /// number as fio 3.33 derives them, and `random_generator=tausworthe64`.
    pub fio_seeds: FioSeeds,
    /// The seed of each file's zipf, pareto or normal state
    /// ([`FioSeeds::file_seed`] of its name); a file without one takes the offsets' seed.
    pub file_seeds: Vec<u64>,
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
    /// `random_generator=lfsr`: uniform random offsets come from fio's maximal-length LFSR
    /// over each region's blocks, which visits every block once per pass without the
    /// random map (the map is off). `tausworthe` and `tausworthe64` (false) draw from the
    /// offsets' Tausworthe generator.
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
            fio_seeds: FioSeeds::default(),
            file_seeds: Vec::new(),
            percentage_random: PerDir::all(100),
            buffers: BufferOptions::default(),
            distribution: PerDir::all(Distribution::Random),
            lfsr: false,
            soft_random_map: false,
        }
    }
}

impl WorkloadConfig {
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
    pub fn directions(&self) -> impl Iterator<Item = Ddir> + '_ {
        Ddir::DATA.into_iter().filter(|d| self.rw.issues(*d))
    }

    /// The directions whose block sizes the job uses: those it issues, or reads and
    /// writes with `bs_is_seq_rand` (sequential I/Os take the read sizes, random ones the
    /// write sizes).
    pub fn size_directions(&self) -> impl Iterator<Item = Ddir> + '_ {
        Ddir::DATA.into_iter().filter(|d| {
            if self.bs_is_seq_rand {
                *d == Ddir::Read || (*d == Ddir::Write && self.rw.is_random())
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

    /// The random map's block: the smallest block size of all three directions, issued or
    /// not. fio 3.33 sizes its map so: `rw=randwrite bs=4k,8k` over 1 MiB draws its 8k
    /// blocks over the first 128 bits of a map of 256, and a free bit found past them ends
    /// the pass (51 writes; see `offsets::run_at`).
    pub fn map_bs(&self) -> u64 {
        Ddir::DATA.into_iter().map(|d| self.bs.get(d).min()).min().unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn min_and_max_bs_follow_the_directions_used() {
        let mut cfg = WorkloadConfig::single_file(RwMode::ReadWrite, 4096, 1 << 20);
        cfg.bs.write = BlockSizes::Range { min: 8192, max: 65536 };
        cfg.bs.trim = BlockSizes::Fixed(512);
        assert_eq!(cfg.min_bs(), 4096);
        assert_eq!(cfg.max_bs(), 65536);
    }
}
