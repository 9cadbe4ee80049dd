//! What a fio 3.33 server (or iomark's) sends, read back: a job's statistics (`TS`) into
//! a recording that iomark's reduction and printers take as they take their own, and a
//! job's options (`ADD_JOB`) into its header. The counts, bytes, runtimes and histograms
//! are fio's exactly; each of fio's histogram bins is recorded at its midpoint, which is
//! the value fio prints for it, and means and deviations are rebuilt from fio's mean and
//! sum of squared deviations (exact to the rounding of those).

use super::messages::c_str;
use super::stats::{at, PRIO_IO_STAT, PRIO_STAT, THREAD_STAT};
use super::{Op, ProtoError};
use iomark_stats::log::fio_hist::{fio_bin_low, FIO_HIST_BINS};
use iomark_stats::recorder::{ErrorCounts, LatRecorder, PrioRecorder};
use iomark_stats::report::{JobHeader, LatencyTarget, UnifiedRw};
use iomark_stats::sums::SumMoments;
use iomark_stats::{JobMeta, JobRecorder, JobTimes, Moments, PercentileList, RecorderConfig};

/// One job (or group) of a remote run, ready to be reduced.
#[derive(Debug, Clone)]
pub struct RemoteJob {
    /// Its number on the server (from 1).
    pub number: u32,
    /// What it recorded.
    pub recorder: JobRecorder,
    /// Its name, group, options…
    pub meta: JobMeta,
    /// Its runtimes and CPU usage.
    pub times: JobTimes,
    /// The percentiles it reports.
    pub pcts: PercentileList,
}

/// Little-endian fields of a payload, read at their offsets (zero past its end).
struct Rd<'a>(&'a [u8]);

impl Rd<'_> {
    fn u32(&self, at: usize) -> u32 {
        self.0.get(at..at + 4).map_or(0, |b| u32::from_le_bytes(b.try_into().unwrap_or_default()))
    }
    fn u64(&self, at: usize) -> u64 {
        self.0.get(at..at + 8).map_or(0, |b| u64::from_le_bytes(b.try_into().unwrap_or_default()))
    }
    fn f64(&self, at: usize) -> f64 {
        f64::from_bits(self.u64(at))
    }
    fn str(&self, at: usize, len: usize) -> String {
        self.0.get(at..at + len).map(c_str).unwrap_or_default()
    }
}

/// The value fio prints for its bin `bin`: the bin's midpoint.
fn bin_mid(bin: usize) -> u64 {
    let low = fio_bin_low(bin);
    match bin + 1 < FIO_HIST_BINS {
        true => low + (fio_bin_low(bin + 1) - low) / 2,
        false => low,
    }
}

/// An `io_stat` at `at`: (samples, min, max, mean, sum of squared deviations).
fn io_stat(r: &Rd, at: usize) -> (u64, u64, u64, f64, f64) {
    (r.u64(at + 16), r.u64(at + 8), r.u64(at), r.f64(at + 24), r.f64(at + 40))
}

/// A latency: its sums from the `io_stat` at `stat`, its histogram from fio's bins at
/// `bins` when it keeps one.
fn latency(r: &Rd, stat: usize, bins: usize, lat: &mut LatRecorder) {
    let (n, min, max, mean, s) = io_stat(r, stat);
    lat.moments = SumMoments::from_summary(n, min, max, mean, s);
    if let Some(hist) = &mut lat.hist {
        for b in 0..FIO_HIST_BINS {
            let c = r.u64(bins + 8 * b);
            if c > 0 {
                hist.record_n(bin_mid(b), c);
            }
        }
    }
}

/// Reads a `TS` payload, with the job's `options` (its `JOB_OPT`s) and `header` (from
/// its `ADD_JOB`, if one came).
pub fn thread_stat(
    payload: &[u8],
    options: Vec<(String, String)>,
    header: Option<JobHeader>,
) -> Result<RemoteJob, ProtoError> {
    if payload.len() < THREAD_STAT {
        return Err(ProtoError::Short { op: Op::Ts, len: payload.len() });
    }
    let r = Rd(payload);
    let used = |d: usize| r.u64(at::TOTAL_IO + 8 * d) > 0 || r.u64(at::IO_BYTES + 8 * d) > 0;
    let slat = (0..3).any(|d| r.u64(at::SLAT + 56 * d + 16) > 0);
    let config = RecorderConfig {
        dirs: [used(0), used(1), used(2)],
        slat,
        clat: true,
        lat: true,
        clat_percentiles: r.u32(at::CLAT_PCT) != 0,
        lat_percentiles: r.u32(at::CLAT_PCT + 4) != 0,
        slat_percentiles: r.u32(at::CLAT_PCT + 8) != 0,
        syncs: r.u64(at::SYNC + 16) > 0,
        ..RecorderConfig::default()
    };
    let mut rec =
        JobRecorder::new(config, 0).map_err(|_| ProtoError::Short { op: Op::Ts, len: 0 })?;
    let plat = |k: usize, d: usize| at::PLAT + 8 * FIO_HIST_BINS * (3 * k + d);
    for d in 0..3 {
        let dir = &mut rec.dirs[d];
        dir.bytes = r.u64(at::IO_BYTES + 8 * d);
        dir.ios = r.u64(at::TOTAL_IO + 8 * d);
        dir.short = r.u64(at::SHORT + 8 * d);
        dir.dropped = r.u64(at::DROP + 8 * d);
        latency(&r, at::SLAT + 56 * d, plat(0, d), &mut dir.slat);
        latency(&r, at::CLAT + 56 * d, plat(1, d), &mut dir.clat);
        latency(&r, at::LAT + 56 * d, plat(2, d), &mut dir.lat);
        let (n, min, max, mean, s) = io_stat(&r, at::BW + 56 * d);
        rec.bw.set_stats(d, Moments::from_summary(n, min, max, mean, s));
        let (n, min, max, mean, s) = io_stat(&r, at::IOPS + 56 * d);
        rec.iops.set_stats(d, Moments::from_summary(n, min, max, mean, s));
    }
    latency(&r, at::SYNC, at::SYNC_PLAT, &mut rec.sync);
    rec.prios = prio_stats(&r, &rec, payload.len())?;
    for i in 0..7 {
        rec.depth.add(i, r.u64(at::MAP + 8 * i));
        rec.submit.add(i, r.u64(at::MAP + 56 + 8 * i));
        rec.complete.add(i, r.u64(at::MAP + 112 + 8 * i));
    }
    for i in 0..32 {
        rec.latency.add(i, r.u64(at::LAT_BUCKETS + 8 * i));
    }
    rec.errors = ErrorCounts { total: r.u64(at::TOTAL_ERR), first: r.u32(at::FIRST_ERROR) as i32 };
    let pcts: Vec<f64> =
        (0..20).map(|i| r.f64(at::PCT_LIST + 16 * i)).filter(|&p| p > 0.0 && p <= 100.0).collect();
    let pcts = PercentileList::new(&pcts).unwrap_or_default();
    let ms = |v: u64| v.saturating_mul(1_000_000);
    let times = JobTimes {
        runtime_ms: [0, 1, 2].map(|d| r.u64(at::RUNTIME + 8 * d)),
        total_run_ms: r.u64(at::TOTAL_RUN),
        usr_ns: ms(r.u64(at::USR)),
        sys_ns: ms(r.u64(at::USR + 8)),
        ctx: r.u64(at::USR + 16),
        minf: r.u64(at::USR + 24),
        majf: r.u64(at::USR + 32),
        ..JobTimes::default()
    };
    let description = r.str(at::DESCRIPTION, 256);
    let meta = JobMeta {
        name: r.str(at::NAME, 128),
        description: (!description.is_empty()).then_some(description),
        groupid: r.u32(at::GROUP),
        jobs: r.u32(at::MEMBERS).max(1),
        error: r.u32(at::ERROR) as i32,
        error_text: r.str(at::VERROR, 128),
        pid: r.u32(at::PID),
        options,
        header: header.unwrap_or_default(),
        latency_target: LatencyTarget {
            depth: r.u32(at::LAT_TARGET),
            target: r.u64(at::LAT_TARGET + 8),
            percentile: r.f64(at::LAT_TARGET + 16),
            window: r.u64(at::LAT_TARGET + 32),
        },
        unified_rw: match r.u32(at::UNIFIED) {
            1 => UnifiedRw::Mixed,
            2 => UnifiedRw::Both,
            _ => UnifiedRw::None,
        },
        ..JobMeta::default()
    };
    Ok(RemoteJob { number: r.u32(at::NUMBER), recorder: rec, meta, times, pcts })
}

/// The priorities' statistics after a `TS` payload of `len` bytes (see
/// `stats::prio_stats`), if the job kept them; each priority's histogram where its
/// direction's kept latency has one.
fn prio_stats(r: &Rd, rec: &JobRecorder, len: usize) -> Result<Option<PrioRecorder>, ProtoError> {
    let nr = [0, 1, 2].map(|d| r.u32(at::NR_PRIO + 4 * d) as usize);
    if r.u32(at::NO_PRIO_STAT) != 0 || nr.iter().all(|&n| n == 0) {
        return Ok(None);
    }
    let total_latency = r.u32(at::CLAT_PCT + 4) != 0;
    let mut dirs: [Vec<(u16, LatRecorder)>; 3] = Default::default();
    for (d, list) in dirs.iter_mut().enumerate() {
        let start = usize::try_from(r.u64(at::PRIO_AT + 8 * d)).unwrap_or(usize::MAX);
        let fits = nr[d].checked_mul(PRIO_STAT).and_then(|n| n.checked_add(start));
        if nr[d] > 0 && fits.is_none_or(|end| end > len || start < THREAD_STAT) {
            return Err(ProtoError::Short { op: Op::Ts, len });
        }
        let kept = if total_latency { &rec.dirs[d].lat } else { &rec.dirs[d].clat };
        for i in 0..nr[d] {
            let e = start + i * PRIO_STAT;
            let mut lat = LatRecorder { moments: SumMoments::new(), hist: None };
            lat.hist = kept.hist.as_ref().map(|_| iomark_stats::LatHistogram::new());
            latency(r, e + PRIO_IO_STAT, e, &mut lat);
            list.push((r.u32(e + PRIO_IO_STAT + 56) as u16, lat));
        }
    }
    Ok(Some(PrioRecorder::from_settled(dirs, total_latency)))
}

/// The job number and header of an `ADD_JOB` payload.
pub fn add_job(payload: &[u8]) -> (u32, JobHeader) {
    let r = Rd(payload);
    let rw = match r.u32(2376) {
        1 => "read",
        2 => "write",
        3 => "rw",
        5 => "randread",
        6 => "randwrite",
        7 => "randrw",
        8 => "trim",
        12 => "randtrim",
        18 => "trimwrite",
        _ => "",
    };
    let bs = [0, 1, 2].map(|d| (r.u64(2568 + 8 * d), r.u64(2592 + 8 * d)));
    let header =
        JobHeader { rw: rw.to_string(), bs, ioengine: r.str(1864, 64), iodepth: r.u32(2404) };
    (r.u32(0), header)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proto::messages;

    #[test]
    fn fios_bins_are_read_at_the_value_fio_prints() {
        // fio prints 1004 for latencies of 1000 ns (bin 317 spans 1000..1008).
        assert_eq!(bin_mid(317), 1004);
        assert_eq!(bin_mid(20), 20);
    }

    #[test]
    fn a_job_header_survives_add_job() {
        let header = JobHeader {
            rw: "randrw".into(),
            bs: [(4096, 8192), (4096, 4096), (512, 512)],
            ioengine: "libaio".into(),
            iodepth: 32,
        };
        let payload = messages::add_job(3, 1, "j", 1 << 20, &header);
        assert_eq!(add_job(&payload), (3, header));
    }
}
