//! The plan, as the workload crate wants it: a [`WorkloadConfig`].

use crate::plan::JobPlan;
use iomark_workload::{
    BlockSizes, FileRegion, FileService, PerDir, RwMode, SplitEntry, WorkloadConfig, DEFAULT_SEED,
};

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
        files: plan.files.iter().map(|f| FileRegion { offset: f.offset, len: f.len }).collect(),
        file_service: FileService::RoundRobin(1),
        io_limit: if plan.io_size_given { plan.io_bytes } else { io_limit_default },
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
        ..WorkloadConfig::default()
    }
}

/// The `:N` of `rw=mode:N`: a size (`4k`) or a count.
fn parse_modifier(text: &str) -> Option<u64> {
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
