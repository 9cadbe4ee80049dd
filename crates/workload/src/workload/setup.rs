//! Building a [`Workload`](super::Workload): the cursor of each file (its random map,
//! register, zone and pickers) and the buffer options as fio 3.33 applies them.

use crate::config::WorkloadConfig;
use crate::distribution::{FileState, Picker, Skew};
use crate::error::ConfigError;
use crate::lfsr::Lfsr;
use crate::offsets::{FileCursor, RandomMap};
use crate::region::FileRegion;
use crate::zones::ZoneState;
use iomark_core::Ddir;

/// The cursor of each file; with a skewed distribution, each with its state and the
/// pickers of the directions the job issues (over the positions a job without the map
/// draws from, and fio's ranges of the job's smallest read or write size); with
/// `lfsr`, each with its register over the region's blocks of the job's smallest size.
/// A map that cannot be allocated refuses the job, or with `softrandommap` leaves its file
/// without a map.
pub(super) fn cursors(
    cfg: &WorkloadConfig,
    map_unit: Option<u64>,
    skewed: bool,
    lfsr: bool,
    align: &[u64; 3],
) -> Result<Vec<FileCursor>, ConfigError> {
    let mut cursors = Vec::with_capacity(cfg.files.len());
    for (file, region) in cfg.files.iter().enumerate() {
        // Strided zones cover the file as far as it goes, `size` being only the budget
        // (see `StridedZones`).
        let region = match cfg.zones {
            Some(_) => FileRegion { len: region.reach, ..*region },
            None => *region,
        };
        let mut cursor = FileCursor::new(region, None);
        // A `:N` skip wraps within the region only over a whole file (see `offsets`).
        cursor.wraps = region.offset == 0 && region.reach <= region.len;
        if let Some(unit) = map_unit {
            let blocks = match &cfg.zones {
                Some(z) => crate::zones::map_blocks(z, region.len, unit),
                None => region.len / unit,
            };
            cursor.map = RandomMap::try_new(blocks);
            if cursor.map.is_none() && !cfg.soft_random_map {
                return Err(ConfigError::MapAllocation { file, blocks });
            }
        }
        if let Some(z) = &cfg.zones {
            cursor.zone = Some(ZoneState::first(z, cfg.min_bs()));
            cursor.enter_zone(0);
        }
        cursors.push(cursor);
    }
    // fio 3.33 divides a file into ranges of the smallest read or write size for its laws.
    let range = cfg.bs.read.min().min(cfg.bs.write.min()).max(1);
    for (file, c) in cursors.iter_mut().enumerate() {
        let len = c.region.len;
        if lfsr {
            let blocks = len / cfg.map_bs();
            c.lfsr = Some(
                Lfsr::new(blocks, cfg.fio_seeds.offsets)
                    .ok_or(ConfigError::LfsrSeed { file, blocks })?,
            );
        }
        if skewed {
            let seed = cfg.file_seeds.get(file).copied().unwrap_or(cfg.fio_seeds.offsets);
            let dirs = Ddir::DATA.into_iter().filter(|&d| cfg.rw.issues(d));
            let state = FileState::new(seed, dirs.map(|d| cfg.distribution.get(d)));
            let pick = |d: Ddir| {
                let sizes = if cfg.bs_is_seq_rand { &cfg.bs.write } else { cfg.bs.get(d) };
                let positions = (len - sizes.min()) / align[d.index()] + 1;
                let dist = cfg.distribution.get(d);
                Picker::new(dist, (positions, len.div_ceil(range)), align[d.index()], &state)
                    .filter(|_| cfg.rw.issues(d))
            };
            let pickers = Ddir::DATA.map(pick);
            c.skew = Some(Box::new(Skew { state, pickers }));
        }
    }
    Ok(cursors)
}

impl crate::BufferFiller {
    /// The buffer filler of the job `cfg`: its options (with fio 3.33's compressible chunk)
    /// and its buffer streams. It fills the job's units, and before them the layout of its
    /// files, as fio 3.33 does: a file laid out for a job is written in chunks of the
    /// largest write size, each filled as a write's buffer (fio's random data takes the
    /// next seed of the job's buffer stream per chunk), and the units take the seeds after.
    pub fn for_job(cfg: &WorkloadConfig) -> crate::BufferFiller {
        crate::BufferFiller::new(compress_chunk(cfg), cfg.seed, &cfg.fio_seeds)
    }
}

/// The buffer options with fio 3.33's compressible chunk: `buffer_compress_chunk` but
/// no larger than the smallest write (`bsrange=512-8k buffer_compress_chunk=768` lays
/// 512-byte chunks).
fn compress_chunk(cfg: &WorkloadConfig) -> crate::BufferOptions {
    let mut opts = cfg.buffers;
    let min_write = cfg.bs.write.min();
    if opts.compress_chunk > 0 && min_write > 0 {
        opts.compress_chunk = opts.compress_chunk.min(min_write);
    }
    opts
}
