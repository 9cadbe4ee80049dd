//! What a job issues, resolved: the `rw` pattern (typed, with its `:N`), the read/write
//! mix, block sizes and alignment, the share of random I/O, distributions, the generator,
//! zones and the file service ([`WorkloadPlan`]). `config.rs` gives the whole plan as the
//! workload crate wants it.

use crate::error::OptionError;
use iomark_core::{Ddir, RwMode};
use iomark_options::keys::{self, Choice};
use iomark_options::value::distribution as parsed;
use iomark_options::value::SplitEntry;
use iomark_options::JobSpec;
use iomark_workload::{
    AbsZone, Distribution, FileService, Sequencer, StridedZones, Zone, DEFAULT_SEED,
};

/// What a job issues.
#[derive(Debug, Clone, PartialEq)]
pub struct WorkloadPlan {
    /// The `rw` pattern.
    pub rw: RwMode,
    /// The `:N` of `rw=mode:N`, if given: bytes added between sequential I/Os, or the I/Os
    /// that follow each new random offset.
    pub rw_modifier: Option<u64>,
    /// Share of reads in a mixed job, in percent.
    pub rwmixread: u32,
    /// Block size per direction.
    pub bs: [u64; 3],
    /// Block size range per direction (`bsrange`), overriding `bs`.
    pub bsrange: [Option<(u64, u64)>; 3],
    /// Block size split per direction (`bssplit`), overriding both.
    pub bssplit: [Option<Vec<SplitEntry>>; 3],
    /// Offset alignment per direction (`blockalign`), when given (directions it leaves out
    /// align to their smallest block size); fio then turns the random map off.
    pub blockalign: Option<[u64; 3]>,
    /// Share of random I/O per direction, in percent (`percentage_random`).
    pub percentage_random: [u32; 3],
    /// Random I/O without the map that visits each block once (`norandommap`).
    pub norandommap: bool,
    /// `serialize_overlap`: an I/O waits for the in-flight I/Os it overlaps where either
    /// writes.
    pub serialize_overlap: bool,
    /// `random_distribution` per direction (reads, writes, trims).
    pub distribution: [Distribution; 3],
    /// `random_generator=lfsr` (`tausworthe64` is in the job's seeds: every stream draws
    /// 64 bits).
    pub lfsr: bool,
    /// `rw_sequencer`: what the `:N` of a random mode does between new offsets.
    pub sequencer: Sequencer,
    /// `bs_unaligned`: `bsrange` sizes of any byte count.
    pub bs_unaligned: bool,
    /// `bs_is_seq_rand`: read sizes for sequential I/Os, write sizes for random ones.
    pub bs_is_seq_rand: bool,
    /// `softrandommap`: run without the random map when it cannot be allocated.
    pub softrandommap: bool,
    /// `zonemode=strided` with `zonesize`, `zonerange` and `zoneskip`.
    pub zones: Option<StridedZones>,
    /// `file_service_type`.
    pub file_service: FileService,
    /// `openfiles`, when given (0 means no limit).
    pub open_files: Option<usize>,
}

impl WorkloadPlan {
    /// The workload options of `spec`, with fio's defaults; the reason, naming the option,
    /// when they cannot run.
    pub fn of(spec: &JobSpec) -> Result<WorkloadPlan, OptionError> {
        let Choice { name, arg } = spec.get(keys::RW).unwrap_or(Choice { name: "read", arg: None });
        let bs = sizes(spec.get(keys::BS), [4096; 3]);
        let bsrange = spec.given(keys::BSRANGE).unwrap_or([None; 3]);
        let mut bssplit = spec.given(keys::BSSPLIT).unwrap_or([None, None, None]);
        zero_sized_entries(&mut bssplit, &bs)?;
        let min_bs = min_block_sizes(&bs, &bsrange, &bssplit);
        let rwmixread = match (spec.given(keys::RWMIXREAD), spec.given(keys::RWMIXWRITE)) {
            (_, Some(w)) if spec.set_after(keys::RWMIXWRITE, keys::RWMIXREAD) => {
                100 - w.min(100) as u32
            }
            (Some(r), _) => r.min(100) as u32,
            _ => 50,
        };
        let percentage_random = spec
            .get(keys::PERCENTAGE_RANDOM)
            .map_or([100; 3], |v| v.map(|p| p.unwrap_or(100).clamp(0, 100) as u32));
        // fio 3.33 refuses it: "max value out of range: 101 (100 max)".
        if let Some(p) =
            spec.get(keys::PERCENTAGE_RANDOM).into_iter().flatten().flatten().find(|p| *p > 100)
        {
            return Err(OptionError::new(
                keys::PERCENTAGE_RANDOM,
                format!("{p} is out of range 0-100"),
            ));
        }
        let distribution = spec
            .get(keys::RANDOM_DISTRIBUTION)
            .map_or([Distribution::Random, Distribution::Random, Distribution::Random], |dirs| {
                dirs.map(|d| d.map_or(Distribution::Random, convert))
            });
        let (rw, rw_modifier) = rw_mode(name, arg.as_deref());
        Ok(WorkloadPlan {
            rw,
            rw_modifier,
            rwmixread,
            blockalign: spec.is_set(keys::BA).then(|| sizes(spec.get(keys::BA), min_bs)),
            bs,
            bsrange,
            bssplit,
            percentage_random,
            norandommap: spec.flag(keys::NORANDOMMAP),
            serialize_overlap: spec.flag(keys::SERIALIZE_OVERLAP),
            distribution,
            lfsr: spec.get(keys::RANDOM_GENERATOR).is_some_and(|c| c.name == "lfsr"),
            sequencer: match spec.get(keys::RW_SEQUENCER) {
                Some(c) if c.name == "identical" => Sequencer::Identical,
                _ => Sequencer::Sequential,
            },
            bs_unaligned: spec.flag(keys::BS_UNALIGNED),
            bs_is_seq_rand: spec.flag(keys::BS_IS_SEQ_RAND),
            softrandommap: spec.flag(keys::SOFTRANDOMMAP),
            zones: zones(spec)?,
            file_service: file_service(spec)?,
            open_files: spec
                .get(keys::OPENFILES)
                .filter(|&n| n > 0)
                .map(|n| usize::try_from(n).unwrap_or(usize::MAX)),
        })
    }

    /// The data directions the pattern issues: reads, writes, trims.
    pub fn dirs(&self) -> [bool; 3] {
        Ddir::DATA.map(|d| self.rw.issues(d))
    }

    /// Whether the pattern's offsets are random.
    pub fn random(&self) -> bool {
        self.rw.is_random()
    }

    /// `trimwrite` or `randtrimwrite`: each block trimmed, then written.
    pub fn trimwrite(&self) -> bool {
        matches!(self.rw, RwMode::TrimWrite | RwMode::RandTrimWrite)
    }

    /// Whether the workload keeps the random map (not with `norandommap`, nor with
    /// `blockalign`, as in fio).
    pub fn random_map(&self) -> bool {
        !self.norandommap && self.blockalign.is_none()
    }

    /// The smallest block size per direction, the default `blockalign`.
    pub fn min_block_sizes(&self) -> [u64; 3] {
        min_block_sizes(&self.bs, &self.bsrange, &self.bssplit)
    }

    /// The largest block size per direction: the one of `bssplit`, else `bsrange`, else
    /// `bs`.
    pub fn max_block_sizes(&self) -> [u64; 3] {
        let mut out = self.bs;
        for (d, max) in out.iter_mut().enumerate() {
            if let Some((_, hi)) = self.bsrange[d] {
                *max = hi;
            }
            if let Some(split) = &self.bssplit[d] {
                *max = split.iter().map(|e| e.bs).max().unwrap_or(*max);
            }
        }
        out
    }

    /// The largest block size any direction names (`bs`, `bsrange` or `bssplit`).
    pub fn max_block_size(&self) -> u64 {
        let mut max = 0;
        for d in 0..3 {
            max = max.max(self.bs[d]);
            if let Some((_, hi)) = self.bsrange[d] {
                max = max.max(hi);
            }
            if let Some(split) = &self.bssplit[d] {
                max = split.iter().map(|e| e.bs).fold(max, u64::max);
            }
        }
        max
    }

    /// The smallest and largest block size per direction, as fio's start line shows them.
    pub fn block_size_ranges(&self) -> [(u64, u64); 3] {
        [0, 1, 2].map(|d| {
            let (min, max) = self.bsrange[d].unwrap_or((self.bs[d], self.bs[d]));
            match &self.bssplit[d] {
                Some(s) => (
                    s.iter().map(|e| e.bs).min().unwrap_or(min),
                    s.iter().map(|e| e.bs).max().unwrap_or(max),
                ),
                None => (min, max),
            }
        })
    }
}

/// A per-direction size, with `default` for the directions never given.
pub(crate) fn sizes(given: Option<[Option<u64>; 3]>, default: [u64; 3]) -> [u64; 3] {
    let given = given.unwrap_or([None; 3]);
    [0, 1, 2].map(|d| given[d].unwrap_or(default[d]))
}

/// The smallest block size per direction.
/// `bssplit` entries of size 0 (read so, and noted, when the job was parsed): fio 3.33
/// then takes the direction's `bs` as its smallest size and the largest entry as its
/// largest; when the two are one size, it issues that size alone, without drawing, and
/// so does iomark (`bs=4k bssplit=0/10:4k/90` is 4k). Otherwise fio's run is broken (a
/// draw of the size-0 entry ends the job; a largest size below `bs` issues nothing), and
/// iomark refuses the split, saying so.
fn zero_sized_entries(
    bssplit: &mut [Option<Vec<SplitEntry>>; 3],
    bs: &[u64; 3],
) -> Result<(), OptionError> {
    for (split, &bs) in bssplit.iter_mut().zip(bs) {
        let Some(entries) = split.as_ref().filter(|e| e.iter().any(|e| e.bs == 0)) else {
            continue;
        };
        if entries.iter().all(|e| e.bs == 0 || e.bs == bs) {
            *split = None;
            continue;
        }
        return Err(OptionError::new(
            keys::BSSPLIT,
            format!(
                "an entry of size 0 beside sizes other than bs ({bs}): fio 3.33's run of it \
                 is broken (a draw of the size-0 entry ends the job, a largest size below \
                 bs issues no I/O); write the split without it"
            ),
        ));
    }
    Ok(())
}

fn min_block_sizes(
    bs: &[u64; 3],
    bsrange: &[Option<(u64, u64)>; 3],
    bssplit: &[Option<Vec<SplitEntry>>; 3],
) -> [u64; 3] {
    let mut out = *bs;
    for d in 0..3 {
        if let Some((lo, _)) = bsrange[d] {
            out[d] = lo;
        }
        if let Some(split) = &bssplit[d] {
            out[d] = split.iter().map(|e| e.bs).min().unwrap_or(out[d]);
        }
    }
    out
}

/// `rw` and its `:N` (the parser checked that it is a size, or a count for a random
/// mode). A random mode with a count of 0 never takes a new random offset: fio 3.33 then
/// issues the sequential mode's I/O (`randread:0` reads block after block).
fn rw_mode(name: &str, arg: Option<&str>) -> (RwMode, Option<u64>) {
    let rw = RwMode::from_name(name).unwrap_or(RwMode::Read);
    let modifier = arg.map(|a| parse_modifier(a).unwrap_or(0));
    let sequential = match rw {
        RwMode::RandRead => RwMode::Read,
        RwMode::RandWrite => RwMode::Write,
        RwMode::RandTrim => RwMode::Trim,
        RwMode::RandReadWrite => RwMode::ReadWrite,
        RwMode::RandTrimWrite => RwMode::TrimWrite,
        other => other,
    };
    match modifier {
        Some(0) if rw.is_random() => (sequential, None),
        _ => (rw, modifier),
    }
}

/// `file_service_type` with its `:N` (a count for `random`, `roundrobin`, `sequential`;
/// the law's parameter for the others, with fio's defaults zipf 1.1, pareto 0.2, normal 0).
fn file_service(spec: &JobSpec) -> Result<FileService, OptionError> {
    let Some(Choice { name, arg }) = spec.get(keys::FILE_SERVICE_TYPE) else {
        return Ok(FileService::RoundRobin(1));
    };
    let bad = |arg: &str| {
        OptionError::new(keys::FILE_SERVICE_TYPE, format!("invalid value '{name}:{arg}'"))
    };
    let count = || -> Result<u32, OptionError> {
        match arg.as_deref() {
            None => Ok(1),
            // A count of 0 stays on a file until it is done, as in fio 3.33.
            Some(a) => parse_modifier(a)
                .map(|n| if n == 0 { u32::MAX } else { u32::try_from(n).unwrap_or(u32::MAX) })
                .ok_or_else(|| bad(a)),
        }
    };
    let param = |default: f64| -> Result<f64, OptionError> {
        match arg.as_deref() {
            None => Ok(default),
            Some(a) => a.trim().parse().map_err(|_| bad(a)),
        }
    };
    Ok(match name {
        "random" => FileService::Random(count()?),
        "sequential" => {
            count()?;
            FileService::Sequential
        }
        "zipf" => FileService::Zipf(param(1.1)?),
        "pareto" => FileService::Pareto(param(0.2)?),
        "normal" | "gauss" => FileService::Normal(param(0.0)?),
        _ => FileService::RoundRobin(count()?),
    })
}

/// `zonemode` and its sizes, checked as fio 3.33 checks them: `zonesize` needs
/// `zonemode=strided`, which needs `zonesize`; `zonerange` defaults to `zonesize`; with
/// `zonemode=none`, `zonerange` and `zoneskip` are ignored.
fn zones(spec: &JobSpec) -> Result<Option<StridedZones>, OptionError> {
    let size = spec.get(keys::ZONESIZE).unwrap_or(0);
    match spec.get(keys::ZONEMODE).map(|c| c.name) {
        Some("zbd") => Err(OptionError::new(
            keys::ZONEMODE,
            "zbd needs a zoned block device and iomark does not drive zoned devices; \
             zonemode=strided and none are supported",
        )),
        Some("strided") => {
            if size == 0 {
                return Err(OptionError::about(
                    keys::ZONESIZE,
                    "option 'zonesize' must be given with zonemode=strided",
                ));
            }
            let range = spec.get(keys::ZONERANGE).filter(|&r| r > 0).unwrap_or(size);
            let skip = spec.get(keys::ZONESKIP).unwrap_or(0);
            Ok(Some(StridedZones { size, range, skip }))
        }
        _ if size > 0 => Err(OptionError::new(
            keys::ZONESIZE,
            format!(
                "{size} needs zonemode=strided (fio 3.33: \"--zonemode=none and --zonesize \
                 are not compatible\")"
            ),
        )),
        _ => Ok(None),
    }
}

/// The workload's form of a parsed distribution.
fn convert(d: parsed::Distribution) -> Distribution {
    match d {
        parsed::Distribution::Random => Distribution::Random,
        parsed::Distribution::Zipf { theta, center } => Distribution::Zipf { theta, center },
        parsed::Distribution::Pareto { power, center } => Distribution::Pareto { power, center },
        parsed::Distribution::Normal { deviation, center } => {
            Distribution::Normal { deviation, center }
        }
        parsed::Distribution::Zoned(z) => Distribution::Zoned(
            z.iter().map(|z| Zone { access: z.access, percent: z.percent }).collect(),
        ),
        parsed::Distribution::ZonedAbs(z) => Distribution::ZonedAbs(
            z.iter().map(|z| AbsZone { access: z.access, bytes: z.bytes }).collect(),
        ),
    }
}

/// The `:N` of `rw=mode:N` or `file_service_type`: a size (`4k`) or a count.
fn parse_modifier(text: &str) -> Option<u64> {
    use iomark_options::table::Kind;
    use iomark_options::value::{self, Ctx, Value};
    match value::parse(&Kind::Size, text, &Ctx::default()).ok()? {
        Value::Size(n) => Some(n),
        _ => None,
    }
}

/// A seed for `randrepeat=0`: different for every run.
pub(crate) fn fresh_seed(base: u64) -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    base ^ nanos ^ u64::from(std::process::id()).rotate_left(32) ^ DEFAULT_SEED
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_count_of_zero_is_fios() {
        // fio 3.33: `randread:0` reads sequentially; `random:0` stays on a file to its end.
        assert_eq!(rw_mode("randread", Some("0")), (RwMode::Read, None));
        assert_eq!(rw_mode("randrw", Some("0")), (RwMode::ReadWrite, None));
        assert_eq!(rw_mode("randread", Some("8")), (RwMode::RandRead, Some(8)));
        assert_eq!(rw_mode("read", Some("0")), (RwMode::Read, Some(0)));
    }
}
