//! What a job measures, and with which clock: fio's `disable_slat`, `disable_clat`,
//! `disable_lat`, `disable_bw_measurement`, `gtod_reduce` and `clocksource`.
//!
//! fio 3.33's behaviour, read off its reports and logs (the HOWTO says less):
//!
//! - `disable_slat`, `disable_clat`, `disable_lat`: that latency is not recorded; its JSON
//!   object stays at zero with `N` 0 and no percentiles, the normal report leaves its line
//!   out, and its latency log is not created. Without clat the latency buckets (`lat (usec)
//!   : 2=…`, `latency_us`) stay empty too, since they count clat.
//! - `disable_bw_measurement`: only the bandwidth log changes: it is created and stays
//!   empty. The report's bandwidth figures and samples are still there.
//! - `gtod_reduce`: all of the above, and the IOPS log stays empty as well; it also turns
//!   `clat_percentiles`, `lat_percentiles` and `slat_percentiles` off. An option given after
//!   it (`gtod_reduce=1` then `disable_clat=0`) overrides it, as in fio.
//! - `clocksource`: `clock_gettime` is `CLOCK_MONOTONIC`; `cpu` is the CPU's time-stamp
//!   counter (where it is not a stable clock, iomark warns and uses `CLOCK_MONOTONIC`);
//!   `gettimeofday` reads `CLOCK_MONOTONIC` cut to whole microseconds, the resolution of
//!   `gettimeofday(2)`, so that every latency is a multiple of 1000 ns as with fio (without
//!   its jumps when the wall clock is set). Unset, iomark picks the TSC where it is stable,
//!   as fio does. fio applies the option to the whole run; iomark to the job that sets it
//!   (a `[global]` setting reaches every job, which comes to the same).
//!
//! Measuring less does not make iomark read the clock less often: its loop reads the
//! clock once per I/O anyway (see the runner's job loop), so these options only change what
//! is reported. The runner makes the clock a job asks for.

use iomark_options::keys::{self, Key};
use iomark_options::JobSpec;

/// The clock a job asks for (`clocksource`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClockSource {
    /// Not set: the TSC where it is stable, else `CLOCK_MONOTONIC`.
    Default,
    /// `gettimeofday`: microsecond resolution.
    Gettimeofday,
    /// `clock_gettime`: `CLOCK_MONOTONIC`.
    ClockGettime,
    /// `cpu`: the time-stamp counter.
    Cpu,
}

/// What a job measures, and with which clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timing {
    /// The clock.
    pub clock: ClockSource,
    /// Record submission latency (unless `disable_slat`).
    pub slat: bool,
    /// Record completion latency (unless `disable_clat`).
    pub clat: bool,
    /// Record total latency (unless `disable_lat`).
    pub lat: bool,
    /// Write rows to the bandwidth log (unless `disable_bw_measurement`).
    pub bw_log: bool,
    /// Write rows to the IOPS log (unless `gtod_reduce`).
    pub iops_log: bool,
}

impl Timing {
    /// The timing options of `spec`.
    pub fn of(spec: &JobSpec) -> Timing {
        let reduce = spec.flag(keys::GTOD_REDUCE);
        let off = |key| flag_after_gtod_reduce(spec, key, true);
        let clock = match spec.get(keys::CLOCKSOURCE).map(|c| c.name) {
            Some("gettimeofday") => ClockSource::Gettimeofday,
            Some("clock_gettime") => ClockSource::ClockGettime,
            Some("cpu") => ClockSource::Cpu,
            _ => ClockSource::Default,
        };
        Timing {
            clock,
            slat: !off(keys::DISABLE_SLAT),
            clat: !off(keys::DISABLE_CLAT),
            lat: !off(keys::DISABLE_LAT),
            bw_log: !off(keys::DISABLE_BW_MEASUREMENT),
            iops_log: !reduce,
        }
    }
}

/// The boolean option of `key`, where `gtod_reduce=1` sets it to `reduced` unless the
/// option is given after it (fio applies both in the order written).
pub(crate) fn flag_after_gtod_reduce(spec: &JobSpec, key: Key<bool>, reduced: bool) -> bool {
    let given_after = spec.is_set(key) && spec.set_after(key, keys::GTOD_REDUCE);
    if spec.flag(keys::GTOD_REDUCE) && !given_after {
        reduced
    } else {
        spec.flag(key)
    }
}

impl Default for Timing {
    /// Everything measured, with the default clock.
    fn default() -> Self {
        Timing {
            clock: ClockSource::Default,
            slat: true,
            clat: true,
            lat: true,
            bw_log: true,
            iops_log: true,
        }
    }
}
