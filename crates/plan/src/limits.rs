//! How much a job does and for how long, resolved: `io_size` (a share of the regions, or
//! `size` when `filesize` sets the regions), `number_ios`, `loops`, `runtime`, `time_based`,
//! `ramp_time` and `startdelay`.

use crate::error::OptionError;
use crate::files::FilesPlan;
use crate::layout::FileKind;
use crate::replay::ReplayPlan;
use iomark_options::keys;
use iomark_options::value::SizeOrPercent;
use iomark_options::JobSpec;
use std::time::Duration;

/// How much a job does and for how long.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LimitsPlan {
    /// Bytes to transfer per loop (`io_size`, default the size of the regions).
    pub io_bytes: u64,
    /// Whether `io_size` was given.
    pub io_size_given: bool,
    /// Stop after this many I/Os per loop, 0 for no limit (`number_ios`).
    pub number_ios: u64,
    /// How many times to run the workload (`loops`).
    pub loops: u64,
    /// Stop after this long (`runtime`), if set.
    pub runtime: Option<Duration>,
    /// Keep going until `runtime` even when the I/O is done (`time_based`).
    pub time_based: bool,
    /// Run this long before measuring (`ramp_time`).
    pub ramp_time: Duration,
    /// Wait this long before starting (`startdelay`).
    pub startdelay: Duration,
}

impl LimitsPlan {
    /// The limits of `spec` over the regions of `files` (or the log of `replay`).
    pub fn of(
        spec: &JobSpec,
        files: &FilesPlan,
        replay: Option<&ReplayPlan>,
    ) -> Result<LimitsPlan, OptionError> {
        let region_bytes: u64 = files.list.iter().map(|f| f.len).sum();
        // An appending job makes one pass only, as in fio 3.33 (see crate::layout::append).
        let one_pass = files.file_append
            && files
                .list
                .iter()
                .any(|f| matches!(f.kind, FileKind::Regular(_) | FileKind::Missing));
        // With `filesize`, `size` is only the default of `io_size` (fio's HOWTO); it caps
        // the I/O but, unlike `io_size`, starts no further pass (fio 3.33: `filesize=16k
        // size=40k` reads 16k).
        let size_caps = match spec.given(keys::SIZE) {
            Some(SizeOrPercent::Bytes(n)) if spec.is_set(keys::FILESIZE) => Some(n),
            _ => None,
        };
        let io_size = spec.given(keys::IO_SIZE);
        let io_bytes = match io_size {
            Some(SizeOrPercent::Bytes(n)) => n,
            Some(SizeOrPercent::Percent(p)) => (region_bytes as f64 * p / 100.0) as u64,
            None => size_caps.unwrap_or(region_bytes),
        };
        let io_bytes = replay.map_or(io_bytes, ReplayPlan::bytes);
        let io_bytes = if one_pass { io_bytes.min(region_bytes) } else { io_bytes };
        let runtime = spec.get(keys::RUNTIME).filter(|d| !d.is_zero());
        // Without a runtime fio 3.33 says "time_based requires a runtime/timeout setting"
        // and runs the job as if it were not time based; so does iomark, with a note.
        let time_based =
            (spec.flag(keys::TIME_BASED) || crate::cpuio::by_time(spec)) && runtime.is_some();
        Ok(LimitsPlan {
            io_bytes,
            io_size_given: io_size.is_some() && !one_pass,
            // fio 3.33 replays the whole log whatever number_ios says, and runs a
            // time-based job to its runtime (`time_based runtime=1 rate_iops=20
            // number_ios=5` issues 20 I/Os).
            number_ios: if replay.is_some() || time_based {
                0
            } else {
                spec.get(keys::NUMBER_IOS).unwrap_or(0)
            },
            loops: if one_pass { 1 } else { spec.get(keys::LOOPS).unwrap_or(1).max(1) },
            runtime,
            time_based: time_based && !one_pass,
            ramp_time: spec.get(keys::RAMP_TIME).unwrap_or_default(),
            startdelay: spec.get(keys::STARTDELAY).map_or(Duration::ZERO, |(from, _)| from),
        })
    }
}
