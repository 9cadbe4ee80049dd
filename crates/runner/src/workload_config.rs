//! The plan, as the workload crate wants it: a [`WorkloadConfig`]; and the workload options
//! a plan carries as parsed ([`WorkloadOptions`]).

use crate::get;
use crate::plan::JobPlan;
use iomark_core::{PerDir, RwMode};
use iomark_options::value::distribution as parsed;
use iomark_options::value::Value;
use iomark_options::JobSpec;
use iomark_workload::{
    AbsZone, BlockSizes, Distribution, FileRegion, FileService, Sequencer, SplitEntry,
    StridedZones, WorkloadConfig, Zone, DEFAULT_SEED,
};

/// The options of a job that only the workload reads, resolved from its spec.
#[derive(Debug, Clone, PartialEq)]
pub struct WorkloadOptions {
    /// `random_distribution` per direction (reads, writes, trims).
    pub distribution: [Distribution; 3],
    /// `random_generator=lfsr` (`tausworthe` and `tausworthe64` both mean iomark's own
    /// generator).
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

impl WorkloadOptions {
    /// The workload options of `spec`, with fio's defaults; the reason, naming the option,
    /// when they cannot run.
    pub fn of(spec: &JobSpec) -> Result<WorkloadOptions, String> {
        let distribution = match spec.value_or_default("random_distribution") {
            Some(Value::Distribution(dirs)) => {
                dirs.map(|d| d.map_or(Distribution::Random, convert))
            }
            _ => [Distribution::Random, Distribution::Random, Distribution::Random],
        };
        let lfsr = get::choice(spec, "random_generator").is_some_and(|c| c.0 == "lfsr");
        let sequencer = match get::choice(spec, "rw_sequencer") {
            Some(("identical", _)) => Sequencer::Identical,
            _ => Sequencer::Sequential,
        };
        Ok(WorkloadOptions {
            distribution,
            lfsr,
            sequencer,
            bs_unaligned: get::flag(spec, "bs_unaligned"),
            bs_is_seq_rand: get::flag(spec, "bs_is_seq_rand"),
            softrandommap: get::flag(spec, "softrandommap"),
            zones: zones(spec)?,
            file_service: file_service(spec)?,
            open_files: get::int(spec, "openfiles")
                .filter(|&n| n > 0)
                .map(|n| usize::try_from(n).unwrap_or(usize::MAX)),
        })
    }
}

/// `file_service_type` with its `:N` (a count for `random`, `roundrobin`, `sequential`;
/// the law's parameter for the others, with fio's defaults zipf 1.1, pareto 0.2, normal 0).
fn file_service(spec: &JobSpec) -> Result<FileService, String> {
    let Some((name, arg)) = get::choice(spec, "file_service_type") else {
        return Ok(FileService::RoundRobin(1));
    };
    let bad = |arg: &str| format!("option 'file_service_type': invalid value '{name}:{arg}'");
    let count = || -> Result<u32, String> {
        match arg.as_deref() {
            None => Ok(1),
            Some(a) => parse_modifier(a)
                .map(|n| u32::try_from(n).unwrap_or(u32::MAX).max(1))
                .ok_or_else(|| bad(a)),
        }
    };
    let param = |default: f64| -> Result<f64, String> {
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
fn zones(spec: &JobSpec) -> Result<Option<StridedZones>, String> {
    let size = get::int(spec, "zonesize").unwrap_or(0);
    match get::choice(spec, "zonemode").map(|c| c.0) {
        Some("zbd") => Err("option 'zonemode': zbd needs a zoned block device and iomark \
                            does not drive zoned devices; zonemode=strided and none are \
                            supported"
            .into()),
        Some("strided") => {
            if size == 0 {
                return Err("option 'zonesize' must be given with zonemode=strided".into());
            }
            let range = get::int(spec, "zonerange").filter(|&r| r > 0).unwrap_or(size);
            let skip = get::int(spec, "zoneskip").unwrap_or(0);
            Ok(Some(StridedZones { size, range, skip }))
        }
        _ if size > 0 => Err(format!(
            "option 'zonesize': {size} needs zonemode=strided (fio 3.33: \"--zonemode=none \
             and --zonesize are not compatible\")"
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

/// The workload of `plan`.
pub fn of(plan: &JobPlan) -> WorkloadConfig {
    let rw = match plan.rw.0 {
        "write" => RwMode::Write,
        "trim" => RwMode::Trim,
        "randread" => RwMode::RandRead,
        "randwrite" => RwMode::RandWrite,
        "randtrim" => RwMode::RandTrim,
        "rw" | "readwrite" => RwMode::ReadWrite,
        "randrw" => RwMode::RandReadWrite,
        "trimwrite" => RwMode::TrimWrite,
        "randtrimwrite" => RwMode::RandTrimWrite,
        _ => RwMode::Read,
    };
    let rw_modifier = plan.rw.1.as_deref().and_then(parse_modifier).unwrap_or(0);
    let bs = [0, 1, 2].map(|d| match (&plan.bssplit[d], plan.bsrange[d]) {
        (Some(split), _) => BlockSizes::Split(
            split.iter().map(|e| SplitEntry { size: e.bs, percent: e.percent }).collect(),
        ),
        (None, Some((min, max))) => BlockSizes::Range { min, max },
        (None, None) => BlockSizes::Fixed(plan.bs[d]),
    });
    let [read, write, trim] = bs;
    let blockalign = plan.blockalign_given.then_some(plan.blockalign);
    let io_limit_default: u64 = plan.files.iter().map(|f| f.len).sum();
    WorkloadConfig {
        rw,
        rw_modifier,
        rwmixread: plan.rwmixread,
        bs: PerDir { read, write, trim },
        blockalign: match blockalign {
            Some([r, w, t]) => PerDir { read: Some(r), write: Some(w), trim: Some(t) },
            None => PerDir::all(None),
        },
        files: plan.files.iter().map(|f| FileRegion::new(f.offset, f.len)).collect(),
        file_service: plan.workload.file_service,
        open_files: plan.workload.open_files,
        zones: plan.workload.zones,
        io_limit: plan.io_bytes,
        io_size_given: plan.io_size_given,
        number_ios: (plan.number_ios > 0).then_some(plan.number_ios),
        loops: u32::try_from(plan.loops).unwrap_or(u32::MAX),
        time_based: plan.time_based,
        random_map: !plan.norandommap && !plan.blockalign_given,
        // Each job (and clone) draws its own offsets, as fio seeds each job by its number.
        seed: if plan.randrepeat {
            plan.randseed.wrapping_add(plan.thread_number.wrapping_mul(0x9e37_79b9_7f4a_7c15))
        } else {
            fresh_seed(plan.randseed)
        },
        percentage_random: PerDir {
            read: plan.percentage_random[0],
            write: plan.percentage_random[1],
            trim: plan.percentage_random[2],
        },
        buffers: plan
            .buffers
            .options(io_limit_default, plan.bsrange[1].map_or(plan.bs[1], |r| r.0)),
        distribution: {
            let [read, write, trim] = plan.workload.distribution.clone();
            PerDir { read, write, trim }
        },
        lfsr: plan.workload.lfsr,
        rw_sequencer: plan.workload.sequencer,
        bs_unaligned: plan.workload.bs_unaligned,
        bs_is_seq_rand: plan.workload.bs_is_seq_rand,
        soft_random_map: plan.workload.softrandommap,
    }
}

/// The job's workload once its files are open (`files`, one per planned file; none on the
/// null engine): each region reaches to the end of its file as the file is then, so that
/// a fixed-size sequential I/O may end past the region as in fio 3.33 (see
/// [`FileRegion::reach`]). fio too takes the size when the job opens its files: a job
/// after a `stonewall` sees what the jobs before it wrote.
pub(crate) fn of_open(plan: &JobPlan, files: &[std::fs::File]) -> WorkloadConfig {
    use crate::layout::FileKind;
    let mut cfg = of(plan);
    for ((region, file), planned) in cfg.files.iter_mut().zip(files).zip(&plan.files) {
        let size = match planned.kind {
            FileKind::BlockDevice(n) => n,
            FileKind::CharDevice => continue,
            FileKind::Missing | FileKind::Regular(_) => match file.metadata() {
                Ok(m) => m.len(),
                Err(_) => continue,
            },
        };
        region.reach = size.saturating_sub(region.offset).max(region.len);
    }
    cfg
}

/// The `:N` of `rw=mode:N`: a size (`4k`) or a count.
pub(crate) fn parse_modifier(text: &str) -> Option<u64> {
    use iomark_options::table::Kind;
    use iomark_options::value::{self, Ctx, Value};
    match value::parse(&Kind::Size, text, &Ctx::default()).ok()? {
        Value::Size(n) => Some(n),
        _ => None,
    }
}

/// A seed for `randrepeat=0`: different for every run.
fn fresh_seed(base: u64) -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    base ^ nanos ^ u64::from(std::process::id()).rotate_left(32) ^ DEFAULT_SEED
}
