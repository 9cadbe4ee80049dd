//! The property behind json+'s `prios`: in every report, and after every merge (a group,
//! `mixed`, an interim copy), the priorities' bins add up, bin for bin and under the same
//! keys, to their direction's bins, and their counts to its count.

use super::*;
use crate::recorder::RecorderConfig;
use crate::report::UnifiedRw;
use iomark_core::Ddir;
use proptest::prelude::*;
use std::collections::BTreeMap;

/// Priority values a job may give its I/Os (class 1 level 0, class 2 level 3, class 3).
const CMDPRIOS: [u16; 3] = [1 << 13, (2 << 13) | 3, 3 << 13];
/// Priorities a job may have of its own (`prio`/`prioclass`): none, or class 2 level 4.
const OWN: [u16; 2] = [0, (2 << 13) | 4];

/// One completed I/O: direction, which of the job's priorities (an index into its list,
/// taken modulo its length; 0 is the job's own), clat, lat − clat, and whether its clat
/// is recorded as part of a reaped run (`record_clat_n`) rather than with the I/O.
type Io = (usize, usize, u64, u64, bool);

/// One job: its directions, own priority, `cmdprio` priorities (none: it keeps none),
/// `lat_percentiles`, whether lat mirrors clat (a sync engine), its I/Os, and the I/O
/// after which an interim report is taken.
#[derive(Debug, Clone)]
struct Job {
    dirs: [bool; 3],
    own: u16,
    cmdprios: Vec<u16>,
    total_latency: bool,
    mirror: bool,
    ios: Vec<Io>,
    interim_at: usize,
}

fn latency() -> impl Strategy<Value = u64> {
    // Below 1 µs (exact buckets), microseconds to milliseconds, past the range.
    prop_oneof![0u64..1_024, 1_024u64..50_000_000, Just(crate::LatHistogram::MAX_TRACKABLE + 3),]
}

fn job() -> impl Strategy<Value = Job> {
    let io = (0usize..3, 0usize..4, latency(), 0u64..100_000, any::<bool>());
    (
        any::<[bool; 3]>(),
        0usize..2,
        proptest::sample::subsequence(CMDPRIOS.to_vec(), 0..=3),
        any::<bool>(),
        any::<bool>(),
        proptest::collection::vec(io, 0..300),
        0usize..300,
    )
        .prop_map(|(dirs, own, cmdprios, total_latency, mirror, ios, interim_at)| Job {
            dirs,
            own: OWN[own],
            cmdprios,
            total_latency,
            mirror,
            ios,
            interim_at,
        })
}

/// Runs `job` into a recorder as the runner does; also returns the interim copy.
fn record(job: &Job) -> (JobRecorder, JobRecorder) {
    let config = RecorderConfig {
        dirs: job.dirs,
        lat_percentiles: job.total_latency,
        lat_is_clat: [job.mirror, false, job.mirror],
        own_prio: job.own,
        ..RecorderConfig::default()
    };
    let mut rec = JobRecorder::new(config, 0).unwrap();
    let mut values = vec![job.own];
    values.extend(job.cmdprios.iter().filter(|v| **v != job.own));
    if !job.cmdprios.is_empty() {
        // Reads may have every priority, writes all but the first given, trims none.
        let writes = [&values[..1], values.get(2..).unwrap_or_default()].concat();
        rec.track_prios([values.clone(), writes, vec![job.own]], job.total_latency);
    }
    let mut interim = None;
    for (i, &(d, p, clat, extra, run)) in job.ios.iter().enumerate() {
        let dir = [Ddir::Read, Ddir::Write, Ddir::Trim][d];
        // Mirrored directions start and issue at one reading: lat is clat.
        let lat = if rec.config().lat_is_clat[d] { clat } else { clat.saturating_add(extra) };
        // The unit's priority: 0 for the job's own, else the one drawn.
        let ioprio = if p % values.len() == 0 { 0 } else { values[p % values.len()] };
        if run {
            rec.record_io(dir, 4096, 4096, None, None, Some(lat));
        } else {
            rec.record_io(dir, 4096, 4096, None, Some(clat), Some(lat));
        }
        rec.record_prio(dir, ioprio, clat, lat);
        if run {
            rec.record_clat_n(dir, clat, 1);
        }
        if i == job.interim_at {
            let mut copy = rec.clone();
            copy.settle();
            interim = Some(copy);
        }
    }
    let mut copy = interim.unwrap_or_else(|| rec.clone());
    copy.settle();
    rec.settle();
    (rec, copy)
}

fn bins(stats: &LatStats) -> BTreeMap<u64, u64> {
    stats.bins.iter().flatten().copied().collect()
}

/// Checks the property on every direction (and `mixed`) of a report.
fn check(report: &JobReport, what: &str) {
    for (d, dir) in report.dirs.iter().chain(report.mixed.as_ref()).enumerate() {
        let Some(first) = dir.prios.first() else { continue };
        let whole = if first.total_latency { &dir.lat } else { &dir.clat };
        let mut added: BTreeMap<u64, u64> = BTreeMap::new();
        for p in &dir.prios {
            for (value, count) in bins(&p.lat) {
                *added.entry(value).or_default() += count;
            }
        }
        assert_eq!(added, bins(whole), "{what}: direction {d}: bins");
        assert_eq!(dir.prios.iter().map(|p| p.lat.n).sum::<u64>(), whole.n, "{what}: {d}: N");
        let min = dir.prios.iter().map(|p| p.lat.min).min();
        assert_eq!(min, Some(whole.min), "{what}: direction {d}: min");
    }
}

fn report(rec: &JobRecorder) -> JobReport {
    let meta = JobMeta { unified_rw: UnifiedRw::Both, ..JobMeta::default() };
    job_report(rec, meta, &JobTimes::default(), &PercentileList::default())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// Jobs alone, their interim copies, and the jobs merged as one group.
    #[test]
    fn priorities_add_up_to_their_direction(jobs in proptest::collection::vec(job(), 1..5)) {
        let mut group: Option<JobRecorder> = None;
        for (i, job) in jobs.iter().enumerate() {
            let (rec, interim) = record(job);
            check(&report(&rec), &format!("job {i}"));
            check(&report(&interim), &format!("job {i}, interim"));
            match &mut group {
                Some(g) => g.merge(&rec),
                None => group = Some(rec),
            }
        }
        if let Some(g) = &group {
            check(&report(g), "group");
        }
    }
}

/// A group of a job with priorities and one without: the second's I/Os count under its own
/// priority, as fio 3.33 counts them.
#[test]
fn a_job_without_priorities_joins_a_group_under_its_own() {
    let io = |d, p, clat| (d, p, clat, 10, false);
    let with = Job {
        dirs: [true, true, false],
        own: 0,
        cmdprios: vec![CMDPRIOS[0]],
        total_latency: false,
        mirror: false,
        ios: vec![io(0, 0, 500), io(0, 1, 700), io(1, 1, 2_000)],
        interim_at: 0,
    };
    let without =
        Job { own: OWN[1], cmdprios: Vec::new(), ios: vec![io(0, 0, 900)], ..with.clone() };
    let (mut group, _) = record(&with);
    group.merge(&record(&without).0);
    let r = report(&group);
    check(&r, "group");
    let reads: Vec<(u32, u32, u64)> =
        r.dirs[0].prios.iter().map(|p| (p.prioclass, p.prio, p.lat.n)).collect();
    assert_eq!(reads, [(0, 0, 1), (1, 0, 1), (2, 4, 1)]);
    // The other order: the job without priorities first.
    let (mut group, _) = record(&without);
    group.merge(&record(&with).0);
    check(&report(&group), "group, the other order");
}
