//! The log files a job asks for, resolved: `write_lat_log`, `write_bw_log`,
//! `write_iops_log`, `write_hist_log`, `write_iolog` and the options of their layout and
//! storage (`log_store_compressed`, `log_compression`, `log_compression_cpus`). The
//! runner's `logs` opens and writes them.

use crate::error::OptionError;
use crate::placement::check_cpus;
use iomark_options::keys;
use iomark_options::JobSpec;
use std::path::PathBuf;

/// What a job's log options ask for.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct LogPlan {
    /// `write_lat_log`: the prefix of the slat, clat and lat logs.
    pub lat: Option<String>,
    /// `write_bw_log`: the prefix of the bandwidth log.
    pub bw: Option<String>,
    /// `write_iops_log`: the prefix of the IOPS log.
    pub iops: Option<String>,
    /// `write_hist_log`: the prefix of the completion latency histogram log.
    pub hist: Option<String>,
    /// `write_iolog`: the file the issued I/Os are logged to.
    pub iolog: Option<PathBuf>,
    /// `per_job_logs` (default true): the job's number in the file names.
    pub per_job: bool,
    /// `log_avg_msec`: 0 for a row per I/O, else the window in ms.
    pub avg_ms: u64,
    /// `log_max_value`: windows log their largest latency, not the mean.
    pub max_value: bool,
    /// `log_hist_msec`: the histogram window in ms (0: no histogram rows).
    pub hist_ms: u64,
    /// `log_hist_coarseness`.
    pub hist_coarseness: u32,
    /// `log_offset`: an offset column.
    pub offset: bool,
    /// `log_prio`: the priority column in hex, as fio 3.33 writes it then.
    pub prio: bool,
    /// `log_unix_epoch` or `log_alternate_epoch`: times in milliseconds since the epoch of
    /// this clock (`log_alternate_epoch_clock_id`, default 0, `CLOCK_REALTIME`: the Unix
    /// epoch), as fio 3.33 counts them with either option.
    pub epoch_clock: Option<i32>,
    /// `log_entries`: rows held before a log is written out.
    pub entries: usize,
    /// `log_store_compressed`: the logs are stored as fio 3.33 stores them compressed,
    /// `PREFIX_SUFFIX.N.log.fz`.
    pub store_compressed: bool,
    /// `log_compression`: bytes of records per compressed chunk (zlib stream), if given.
    pub compression: Option<usize>,
    /// `log_compression_cpus`: the CPUs the job's log thread may run on, if given.
    pub compression_cpus: Option<Vec<u32>>,
    /// The job's number among all the jobs of the run, from 1, clones included (the `N`
    /// of the file names).
    pub number: u64,
}

impl LogPlan {
    /// The log options of `spec`, for job number `number` of the run (from 1); a log
    /// option given without a value takes the job's name. Refuses an epoch clock the system
    /// does not have (fio 3.33 logs garbage times).
    pub fn of(spec: &JobSpec, number: u64) -> Result<LogPlan, OptionError> {
        let prefix =
            |key| spec.given(key).map(|p: String| if p.is_empty() { spec.name.clone() } else { p });
        let plan = LogPlan {
            lat: prefix(keys::WRITE_LAT_LOG),
            bw: prefix(keys::WRITE_BW_LOG),
            iops: prefix(keys::WRITE_IOPS_LOG),
            hist: prefix(keys::WRITE_HIST_LOG),
            iolog: spec.get(keys::WRITE_IOLOG).filter(|s| !s.is_empty()).map(PathBuf::from),
            per_job: spec.flag(keys::PER_JOB_LOGS),
            avg_ms: spec.get(keys::LOG_AVG_MSEC).unwrap_or(0),
            max_value: spec.flag(keys::LOG_MAX_VALUE),
            hist_ms: spec.get(keys::LOG_HIST_MSEC).unwrap_or(0),
            hist_coarseness: spec.get(keys::LOG_HIST_COARSENESS).unwrap_or(0).min(31) as u32,
            offset: spec.flag(keys::LOG_OFFSET),
            prio: spec.flag(keys::LOG_PRIO),
            epoch_clock: (spec.flag(keys::LOG_UNIX_EPOCH) || spec.flag(keys::LOG_ALTERNATE_EPOCH))
                .then(|| {
                    let id = spec.get(keys::LOG_ALTERNATE_EPOCH_CLOCK_ID).unwrap_or(0);
                    i32::try_from(id).unwrap_or(i32::MAX)
                }),
            entries: spec.get(keys::LOG_ENTRIES).unwrap_or(1024).clamp(1, 1 << 20) as usize,
            store_compressed: spec.flag(keys::LOG_STORE_COMPRESSED),
            compression: spec
                .given(keys::LOG_COMPRESSION)
                .map(|b| usize::try_from(b).unwrap_or(usize::MAX)),
            compression_cpus: match spec.given(keys::LOG_COMPRESSION_CPUS) {
                Some(cpus) => Some(check_cpus(keys::LOG_COMPRESSION_CPUS, cpus)?),
                None => None,
            },
            number,
        };
        if let Some(id) = plan.epoch_clock {
            iomark_engine::system::clock_ms(id).map_err(|e| {
                let why = format!(
                    "clock {id}: {e} (fio 3.33 runs the job and writes meaningless times in \
                     its logs)"
                );
                OptionError::new(keys::LOG_ALTERNATE_EPOCH_CLOCK_ID, why)
            })?;
        }
        Ok(plan)
    }

    /// Whether the job writes any log.
    pub fn any(&self) -> bool {
        self.lat.is_some()
            || self.bw.is_some()
            || self.iops.is_some()
            || self.hist.is_some()
            || self.iolog.is_some()
    }

    /// The path of one of the job's logs: `PREFIX_SUFFIX.N.log`, or `PREFIX_SUFFIX.log`
    /// without `per_job_logs`; `.fz` follows with `log_store_compressed`.
    pub fn path(&self, prefix: &str, suffix: &str) -> PathBuf {
        let fz = if self.store_compressed { ".fz" } else { "" };
        if self.per_job {
            PathBuf::from(format!("{prefix}_{suffix}.{}.log{fz}", self.number))
        } else {
            PathBuf::from(format!("{prefix}_{suffix}.log{fz}"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(per_job: bool, number: u64) -> LogPlan {
        LogPlan { per_job, number, ..LogPlan::default() }
    }

    #[test]
    fn file_names_are_fios() {
        assert_eq!(plan(true, 3).path("foo", "clat"), PathBuf::from("foo_clat.3.log"));
        assert_eq!(
            plan(true, 1).path("dir/j", "clat_hist"),
            PathBuf::from("dir/j_clat_hist.1.log")
        );
        assert_eq!(plan(false, 3).path("foo", "bw"), PathBuf::from("foo_bw.log"));
        let fz = LogPlan { store_compressed: true, ..plan(true, 2) };
        assert_eq!(fz.path("foo", "clat"), PathBuf::from("foo_clat.2.log.fz"));
    }

    #[test]
    fn no_log_option_means_no_log() {
        assert!(!LogPlan::default().any());
        assert!(LogPlan { iolog: Some("x".into()), ..LogPlan::default() }.any());
    }
}
