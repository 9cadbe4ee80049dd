//! Per-interval figures of a run: what each job (and the run in total) did in one interval
//! alone, not since the start, and the jobs' start and end events.
//!
//! The live page, the HTML report's charts over time and `--output-format=json-stream` read
//! these. They cost the I/O path nothing: the cli takes a snapshot of the run every interval
//! (an interim [`RunReport`], as `--status-interval` does, which the jobs answer between two
//! I/Os) and an [`IntervalTracker`] subtracts the previous snapshot from it. Counts (I/Os,
//! bytes) subtract exactly; latency percentiles come from the difference of the two
//! snapshots' histograms, bucket by bucket (the json+ bins map back to their buckets), so an
//! interval's percentiles have the histogram's 0.1 % bound; its mean comes from the two
//! means and counts.
//!
//! `ramp_time` clears a job's recording when it ends, so a snapshot is *measured* only when
//! every job behind it (its group's jobs under `group_reporting`) was past its ramp when
//! the snapshot was asked for. A measured interval is taken from the previous measured
//! snapshot (or from nothing, after a ramp); other intervals are shown but flagged
//! `measured: false`. The measured intervals of a job then add up exactly to the counts of
//! its final report, the last interval being taken from the final report itself.

use crate::hist::LatHistogram;
use crate::progress::JobState;
use crate::report::{DirReport, JobReport, LatStats, RunReport};
use serde::{Deserialize, Serialize};

/// The percentiles an interval reports.
pub const INTERVAL_PERCENTILES: [f64; 6] = [50.0, 90.0, 99.0, 99.9, 99.99, 100.0];

/// One event of a run's stream.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum RunEvent {
    /// A job started.
    Start(JobEvent),
    /// A job ended.
    End(JobEvent),
    /// An interval ended.
    Interval(Box<IntervalEvent>),
}

/// A job's start or end.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct JobEvent {
    /// Milliseconds since the run started, when it was seen.
    pub t_ms: u64,
    /// The job's name.
    pub job: String,
    /// Its number among the run's jobs (clones included), from 0.
    pub index: usize,
}

/// What every job did in one interval.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IntervalEvent {
    /// Milliseconds since the run started, at the end of the interval.
    pub t_ms: u64,
    /// The interval's length in milliseconds.
    pub dt_ms: u64,
    /// The run's estimated time left, in seconds, when known.
    pub eta_s: Option<u64>,
    /// Each job's state at the interval's end, by job number (`pending`, `ramp`, `running`,
    /// `fsync`, `done`).
    pub states: Vec<String>,
    /// One per job of the report (per group under `group_reporting`), in the report's order.
    pub jobs: Vec<JobInterval>,
    /// All jobs together.
    pub total: JobInterval,
}

/// One job's interval.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct JobInterval {
    /// The job's name (`all` for the total).
    pub name: String,
    /// Its reporting group.
    pub groupid: u32,
    /// Whether the figures count (see the module doc): false in a ramp.
    pub measured: bool,
    /// Reads, writes, trims.
    pub dirs: [DirInterval; 3],
}

/// One direction of a job's interval.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct DirInterval {
    /// I/Os completed in the interval.
    pub ios: u64,
    /// Bytes moved in the interval.
    pub bytes: u64,
    /// I/Os per second over the interval.
    pub iops: f64,
    /// Bytes per second over the interval.
    pub bw_bytes: u64,
    /// The latency of the interval's I/Os, when any completed.
    pub lat: Option<IntervalLat>,
}

/// The latency of one interval's I/Os.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct IntervalLat {
    /// Which latency: `clat`, or `lat` when the job keeps total-latency percentiles.
    pub kind: String,
    /// I/Os counted.
    pub n: u64,
    /// Mean, in nanoseconds.
    pub mean: f64,
    /// Smallest and largest, in nanoseconds (within the histogram's bound; 0 without one).
    pub min: u64,
    /// See `min`.
    pub max: u64,
    /// `(percentile, ns)` at [`INTERVAL_PERCENTILES`]; empty without a histogram.
    pub percentiles: Vec<(f64, u64)>,
}

/// A job of the run as the tracker places it in the report: its name, group and whether
/// its group is reported as one (`group_reporting`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanSlot {
    /// The job's name.
    pub name: String,
    /// Its reporting group.
    pub groupid: u32,
    /// Whether its group is one report.
    pub group_reporting: bool,
}

/// One direction of a snapshot: its counts and its latency.
#[derive(Debug, Clone, Default, PartialEq)]
struct DirSnap {
    ios: u64,
    bytes: u64,
    lat: Option<LatSnap>,
}

/// A latency in a snapshot: count, sum, and histogram counts by bucket (sorted).
#[derive(Debug, Clone, Default, PartialEq)]
struct LatSnap {
    kind: &'static str,
    n: u64,
    sum: f64,
    buckets: Vec<(usize, u64, u64)>,
}

type JobSnap = [DirSnap; 3];

/// Turns successive snapshots of a run into [`RunEvent`]s; see the module doc.
#[derive(Debug, Clone)]
pub struct IntervalTracker {
    plans: Vec<PlanSlot>,
    seen: Vec<JobState>,
    /// Per report job: the last snapshot, and the last measured one.
    last: Vec<Option<JobSnap>>,
    baseline: Vec<Option<JobSnap>>,
    last_t_ms: u64,
}

impl IntervalTracker {
    /// A tracker for a run of these jobs (in plan order, clones included), all pending.
    pub fn new(plans: Vec<PlanSlot>) -> Self {
        let n = plans.len();
        IntervalTracker {
            plans,
            seen: vec![JobState::Pending; n],
            last: Vec::new(),
            baseline: Vec::new(),
            last_t_ms: 0,
        }
    }

    /// The start and end events of the jobs whose state changed since the last call.
    pub fn job_events(&mut self, t_ms: u64, states: &[JobState]) -> Vec<RunEvent> {
        let mut out = Vec::new();
        for (index, (&now, seen)) in states.iter().zip(self.seen.iter_mut()).enumerate() {
            let job = || JobEvent { t_ms, job: self.plans[index].name.clone(), index };
            if *seen == JobState::Pending && now != JobState::Pending {
                out.push(RunEvent::Start(job()));
            }
            if *seen != JobState::Done && now == JobState::Done {
                out.push(RunEvent::End(job()));
            }
            *seen = now;
        }
        out
    }

    /// The interval that ends at `t_ms` with the snapshot `report`; `before` are the jobs'
    /// states read just before the snapshot was asked for (they decide what is measured).
    pub fn interval(
        &mut self,
        t_ms: u64,
        report: &RunReport,
        before: &[JobState],
        eta_s: Option<u64>,
    ) -> IntervalEvent {
        let past_ramp =
            |s: &JobState| matches!(s, JobState::Running | JobState::Fsync | JobState::Done);
        let measured: Vec<bool> = (0..report.jobs.len())
            .map(|j| {
                let members = self.members(report, j);
                !members.is_empty() && members.iter().all(|&i| before.get(i).is_some_and(past_ramp))
            })
            .collect();
        self.step(t_ms, report, &measured, before, eta_s)
    }

    /// The last interval, up to the final report (every job counts as measured).
    pub fn last(&mut self, t_ms: u64, report: &RunReport) -> IntervalEvent {
        let measured = vec![true; report.jobs.len()];
        let states = vec![JobState::Done; self.plans.len()];
        self.step(t_ms, report, &measured, &states, Some(0))
    }

    fn step(
        &mut self,
        t_ms: u64,
        report: &RunReport,
        measured: &[bool],
        states: &[JobState],
        eta_s: Option<u64>,
    ) -> IntervalEvent {
        let dt_ms = t_ms.saturating_sub(self.last_t_ms).max(1);
        self.last_t_ms = t_ms;
        self.last.resize(report.jobs.len(), None);
        self.baseline.resize(report.jobs.len(), None);
        let mut jobs = Vec::with_capacity(report.jobs.len());
        let mut total_dirs: [Vec<(DirSnap, DirSnap)>; 3] = Default::default();
        for (j, job) in report.jobs.iter().enumerate() {
            let now = snapshot(job);
            let from = if measured[j] { self.baseline[j].take() } else { self.last[j].take() };
            let from = from.unwrap_or_default();
            let dirs = [0, 1, 2].map(|d| {
                total_dirs[d].push((now[d].clone(), from[d].clone()));
                dir_interval(&now[d], &from[d], dt_ms)
            });
            jobs.push(JobInterval {
                name: job.name.clone(),
                groupid: job.groupid,
                measured: measured[j],
                dirs,
            });
            self.baseline[j] = measured[j].then(|| now.clone());
            self.last[j] = Some(now);
        }
        let total = JobInterval {
            name: "all".into(),
            groupid: 0,
            measured: measured.iter().all(|&m| m),
            dirs: total_dirs.map(|pairs| total_interval(&pairs, dt_ms)),
        };
        IntervalEvent {
            t_ms,
            dt_ms,
            eta_s,
            states: states.iter().map(|s| state_name(*s).to_string()).collect(),
            jobs,
            total,
        }
    }

    /// The plan indexes behind report job `j`: its group's jobs under `group_reporting`,
    /// else the plan of the same name and group in the same position among its namesakes.
    fn members(&self, report: &RunReport, j: usize) -> Vec<usize> {
        let job = &report.jobs[j];
        let grouped: Vec<usize> = (0..self.plans.len())
            .filter(|&i| self.plans[i].group_reporting && self.plans[i].groupid == job.groupid)
            .collect();
        if !grouped.is_empty() {
            return grouped;
        }
        let same = |o: &JobReport| o.name == job.name && o.groupid == job.groupid;
        let k = report.jobs[..j].iter().filter(|o| same(o)).count();
        (0..self.plans.len())
            .filter(|&i| self.plans[i].name == job.name && self.plans[i].groupid == job.groupid)
            .nth(k)
            .into_iter()
            .collect()
    }
}

/// A state's name in the stream.
pub fn state_name(s: JobState) -> &'static str {
    match s {
        JobState::Pending => "pending",
        JobState::Ramp => "ramp",
        JobState::Running => "running",
        JobState::Fsync => "fsync",
        JobState::Done => "done",
    }
}

fn snapshot(job: &JobReport) -> JobSnap {
    [0, 1, 2].map(|d| dir_snap(&job.dirs[d]))
}

fn dir_snap(dir: &DirReport) -> DirSnap {
    let lat = if dir.lat.bins.is_some() {
        Some(lat_snap("lat", &dir.lat))
    } else if dir.clat.n > 0 || dir.clat.bins.is_some() {
        Some(lat_snap("clat", &dir.clat))
    } else if dir.lat.n > 0 {
        Some(lat_snap("lat", &dir.lat))
    } else {
        None
    };
    DirSnap { ios: dir.total_ios, bytes: dir.io_bytes, lat }
}

fn lat_snap(kind: &'static str, s: &LatStats) -> LatSnap {
    let buckets = s
        .bins
        .iter()
        .flatten()
        .map(|&(value, count)| (LatHistogram::bucket_of(value), value, count))
        .collect();
    LatSnap { kind, n: s.n, sum: s.mean * s.n as f64, buckets }
}

fn dir_interval(now: &DirSnap, from: &DirSnap, dt_ms: u64) -> DirInterval {
    let ios = now.ios.saturating_sub(from.ios);
    let bytes = now.bytes.saturating_sub(from.bytes);
    let mut hist = None;
    let lat = now.lat.as_ref().and_then(|l| {
        let (n, sum) = lat_delta(l, from.lat.as_ref());
        add_buckets(&mut hist, l, from.lat.as_ref());
        lat_figures(l.kind, n, sum, hist.as_ref())
    });
    DirInterval {
        ios,
        bytes,
        iops: ios as f64 * 1000.0 / dt_ms as f64,
        bw_bytes: u64::try_from(u128::from(bytes) * 1000 / u128::from(dt_ms)).unwrap_or(u64::MAX),
        lat,
    }
}

/// The jobs' figures summed, their latencies merged.
fn total_interval(pairs: &[(DirSnap, DirSnap)], dt_ms: u64) -> DirInterval {
    let (mut ios, mut bytes, mut n, mut sum) = (0u64, 0u64, 0u64, 0f64);
    let mut hist = None;
    let mut kind = None;
    for (now, from) in pairs {
        ios += now.ios.saturating_sub(from.ios);
        bytes += now.bytes.saturating_sub(from.bytes);
        if let Some(l) = &now.lat {
            let (dn, ds) = lat_delta(l, from.lat.as_ref());
            n += dn;
            sum += ds;
            add_buckets(&mut hist, l, from.lat.as_ref());
            kind.get_or_insert(l.kind);
        }
    }
    DirInterval {
        ios,
        bytes,
        iops: ios as f64 * 1000.0 / dt_ms as f64,
        bw_bytes: u64::try_from(u128::from(bytes) * 1000 / u128::from(dt_ms)).unwrap_or(u64::MAX),
        lat: kind.and_then(|k| lat_figures(k, n, sum, hist.as_ref())),
    }
}

fn lat_delta(now: &LatSnap, from: Option<&LatSnap>) -> (u64, f64) {
    match from {
        Some(f) if f.n <= now.n => (now.n - f.n, (now.sum - f.sum).max(0.0)),
        _ => (now.n, now.sum),
    }
}

/// Adds `now − from`, bucket by bucket, into `hist` (made on first use).
fn add_buckets(hist: &mut Option<LatHistogram>, now: &LatSnap, from: Option<&LatSnap>) {
    let before = from.map_or(&[][..], |f| &f.buckets[..]);
    let mut k = 0;
    for &(bucket, value, count) in &now.buckets {
        while k < before.len() && before[k].0 < bucket {
            k += 1;
        }
        let earlier = before.get(k).filter(|b| b.0 == bucket).map_or(0, |b| b.2);
        let delta = count.saturating_sub(earlier);
        if delta > 0 {
            hist.get_or_insert_with(LatHistogram::new).record_n(value, delta);
        }
    }
}

fn lat_figures(kind: &str, n: u64, sum: f64, hist: Option<&LatHistogram>) -> Option<IntervalLat> {
    if n == 0 {
        return None;
    }
    let mean = sum / n as f64;
    let (min, max, percentiles) = match hist {
        Some(h) => {
            let (lo, hi) = extremes(h);
            let values = h.percentiles(&INTERVAL_PERCENTILES, lo..=hi);
            (lo, hi, INTERVAL_PERCENTILES.iter().copied().zip(values).collect())
        }
        None => (0, 0, Vec::new()),
    };
    Some(IntervalLat { kind: kind.to_string(), n, mean, min, max, percentiles })
}

/// The values of the first and last non-empty buckets.
fn extremes(h: &LatHistogram) -> (u64, u64) {
    let mut bins = h.bins();
    let first = bins.next().map_or(0, |b| b.0);
    let last = bins.last().map_or(first, |b| b.0);
    (first, last)
}

#[cfg(test)]
mod tests;
