//! What a job's report shows, resolved: which statistics it keeps (percentiles, sample
//! windows, `unified_rw_reporting`), how it is grouped, and the options it echoes in JSON.

use crate::error::OptionError;
use crate::timing::flag_after_gtod_reduce;
use iomark_options::keys;
use iomark_options::JobSpec;
use iomark_stats::report::UnifiedRw;

/// What a job's report shows.
#[derive(Debug, Clone, PartialEq)]
pub struct ReportPlan {
    /// Which statistics the job keeps.
    pub stats: StatsPlan,
    /// Whether jobs of the group are reported together (`group_reporting`).
    pub group_reporting: bool,
    /// Whether the job's statistics are reported (`stats`, default true); without, the job
    /// is reported with nothing done, as fio 3.33 reports it.
    pub report_stats: bool,
    /// Report the disks under the job's files (`disk_util`).
    pub disk_util: bool,
    /// Split each I/O's latency at the block layer (`block_latency`, iomark's own).
    pub block_latency: bool,
    /// Keep each trim-sized block's state and trim count (`block_error_percentiles`).
    pub block_error_hist: bool,
    /// Whether the job asked for thread mode (`thread`); iomark always runs jobs as
    /// threads, and this only changes fio's "Starting N processes" wording.
    pub thread: bool,
    /// The job's own options as written, for the JSON report's "job options".
    pub options_echo: Vec<(String, String)>,
    /// The global options that reached the job, for the JSON report's "global options".
    pub globals_echo: Vec<(String, String)>,
}

/// Which statistics a job keeps.
#[derive(Debug, Clone, PartialEq)]
pub struct StatsPlan {
    /// Percentiles of completion latency (`clat_percentiles`).
    pub clat_percentiles: bool,
    /// Percentiles of total latency (`lat_percentiles`).
    pub lat_percentiles: bool,
    /// Percentiles of submission latency (`slat_percentiles`).
    pub slat_percentiles: bool,
    /// Which percentiles (`percentile_list`).
    pub percentile_list: Vec<f64>,
    /// Bandwidth sample window in ms (`bwavgtime`).
    pub bw_avg_ms: u64,
    /// IOPS sample window in ms (`iopsavgtime`).
    pub iops_avg_ms: u64,
    /// How the directions are reported (`unified_rw_reporting`).
    pub unified_rw: UnifiedRw,
}

impl ReportPlan {
    /// The reporting options of `spec`.
    pub fn of(spec: &JobSpec) -> Result<ReportPlan, OptionError> {
        let percentile_list = spec.get(keys::PERCENTILE_LIST).unwrap_or_default();
        // The option's parser checks the count and the range 0..100; a 0 is refused here,
        // since fio 3.33 takes it for the end of the list and drops what follows.
        iomark_stats::PercentileList::new(&percentile_list).map_err(|e| {
            let list: Vec<String> = percentile_list.iter().map(f64::to_string).collect();
            OptionError::new(
                keys::PERCENTILE_LIST,
                format!("invalid list '{}': {e}", list.join(":")),
            )
        })?;
        Ok(ReportPlan {
            stats: StatsPlan {
                clat_percentiles: flag_after_gtod_reduce(spec, keys::CLAT_PERCENTILES, false),
                lat_percentiles: flag_after_gtod_reduce(spec, keys::LAT_PERCENTILES, false),
                slat_percentiles: flag_after_gtod_reduce(spec, keys::SLAT_PERCENTILES, false),
                percentile_list,
                bw_avg_ms: spec.get(keys::BWAVGTIME).unwrap_or(500).max(1),
                iops_avg_ms: spec.get(keys::IOPSAVGTIME).unwrap_or(500).max(1),
                unified_rw: match spec.get(keys::UNIFIED_RW_REPORTING).map(|c| c.name) {
                    Some("mixed" | "1") => UnifiedRw::Mixed,
                    Some("both" | "2") => UnifiedRw::Both,
                    _ => UnifiedRw::None,
                },
            },
            group_reporting: spec.flag(keys::GROUP_REPORTING),
            report_stats: spec.flag(keys::STATS),
            disk_util: spec.flag(keys::DISK_UTIL),
            block_latency: spec.flag(keys::BLOCK_LATENCY),
            block_error_hist: spec.flag(keys::BLOCK_ERROR_PERCENTILES),
            thread: spec.flag(keys::THREAD),
            options_echo: echo(spec, false),
            globals_echo: echo(spec, true),
        })
    }
}

/// The options written for the job (`global` false) or inherited from global sections
/// (`global` true), as fio echoes them in JSON: flags given bare are left out.
fn echo(spec: &JobSpec, global: bool) -> Vec<(String, String)> {
    spec.settings
        .iter()
        .filter(|s| s.global == global && s.place != iomark_options::Place::Implicit)
        .filter_map(|s| Some((s.def.name.to_string(), s.raw.clone()?)))
        .collect()
}
