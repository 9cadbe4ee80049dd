//! Tests of the per-interval figures: they add up to the final report exactly, their
//! latencies are the interval's own, and a ramp's figures do not count.

use super::*;
use crate::recorder::{JobRecorder, RecorderConfig};
use crate::reduce::{job_report, JobMeta, JobTimes, PercentileList};
use iomark_core::Ddir;

const US: u64 = 1000;

fn report_of(recs: &[(&str, u32, &JobRecorder)]) -> RunReport {
    let jobs = recs
        .iter()
        .map(|(name, groupid, rec)| {
            let meta = JobMeta { name: name.to_string(), groupid: *groupid, ..Default::default() };
            let times =
                JobTimes { runtime_ms: [1000; 3], total_run_ms: 1000, ..Default::default() };
            job_report(rec, meta, &times, &PercentileList::default())
        })
        .collect();
    RunReport {
        version: 1,
        iomark_version: "0".into(),
        fio_compat: "fio-3.33".into(),
        timestamp: 0,
        timestamp_ms: 0,
        time: String::new(),
        global_options: Vec::new(),
        jobs,
        groups: Vec::new(),
        disks: Vec::new(),
        notes: Default::default(),
        ranks: Vec::new(),
        clients: Vec::new(),
        cpu_idleness: None,
        act: None,
    }
}

fn recorder() -> JobRecorder {
    let config = RecorderConfig { dirs: [true, true, false], ..Default::default() };
    JobRecorder::new(config, 0).expect("recorder")
}

fn io(rec: &mut JobRecorder, dir: Ddir, lat_ns: u64, n: u64) {
    for _ in 0..n {
        rec.record_io(dir, 4096, 4096, None, Some(lat_ns), Some(lat_ns));
    }
}

fn slot(name: &str) -> PlanSlot {
    PlanSlot { name: name.into(), groupid: 0, group_reporting: false }
}

const RUNNING: [JobState; 1] = [JobState::Running];

#[test]
fn measured_intervals_add_up_to_the_final_report_exactly() {
    let mut tracker = IntervalTracker::new(vec![slot("j")]);
    let mut rec = recorder();
    let mut events = Vec::new();
    for (k, n) in [3u64, 0, 17, 5].into_iter().enumerate() {
        io(&mut rec, Ddir::Read, 100 * US, n);
        io(&mut rec, Ddir::Write, 50 * US, 2 * n);
        let t = (k as u64 + 1) * 500;
        events.push(tracker.interval(t, &report_of(&[("j", 0, &rec)]), &RUNNING, None));
    }
    io(&mut rec, Ddir::Read, 100 * US, 4);
    let last = report_of(&[("j", 0, &rec)]);
    events.push(tracker.last(2300, &last));
    for d in 0..2 {
        let ios: u64 = events.iter().map(|e| e.jobs[0].dirs[d].ios).sum();
        let bytes: u64 = events.iter().map(|e| e.jobs[0].dirs[d].bytes).sum();
        assert_eq!(ios, last.jobs[0].dirs[d].total_ios);
        assert_eq!(bytes, last.jobs[0].dirs[d].io_bytes);
        let total: u64 = events.iter().map(|e| e.total.dirs[d].ios).sum();
        assert_eq!(total, ios);
    }
    assert_eq!(events[2].jobs[0].dirs[0].ios, 17);
    assert_eq!(events[2].jobs[0].dirs[0].iops, 34.0, "17 I/Os in 500 ms");
    assert_eq!(events[2].jobs[0].dirs[1].bw_bytes, 34 * 4096 * 2);
    assert_eq!(events[4].dt_ms, 300);
    assert!(events[1].jobs[0].dirs[0].lat.is_none(), "nothing completed");
}

#[test]
fn an_intervals_latency_is_its_own_ios() {
    let mut tracker = IntervalTracker::new(vec![slot("j")]);
    let mut rec = recorder();
    io(&mut rec, Ddir::Read, 1000 * US, 100);
    let first = tracker.interval(1000, &report_of(&[("j", 0, &rec)]), &RUNNING, None);
    io(&mut rec, Ddir::Read, 10 * US, 300);
    let second = tracker.interval(2000, &report_of(&[("j", 0, &rec)]), &RUNNING, None);
    let lat = second.jobs[0].dirs[0].lat.as_ref().expect("latency");
    assert_eq!((lat.kind.as_str(), lat.n), ("clat", 300));
    assert!((lat.mean - 10_000.0).abs() < 1e-6, "{}", lat.mean);
    let within = |v: u64, exact: u64| v.abs_diff(exact) * 1000 <= exact;
    assert!(lat.percentiles.iter().all(|&(_, v)| within(v, 10 * US)), "{:?}", lat.percentiles);
    assert!(within(lat.max, 10 * US) && within(lat.min, 10 * US));
    let first = first.jobs[0].dirs[0].lat.as_ref().expect("latency");
    assert!(within(first.percentiles[0].1, 1000 * US));
}

#[test]
fn a_ramp_is_shown_but_does_not_count() {
    let mut tracker = IntervalTracker::new(vec![slot("j")]);
    let mut rec = recorder();
    io(&mut rec, Ddir::Read, US, 50);
    let ramp = tracker.interval(500, &report_of(&[("j", 0, &rec)]), &[JobState::Ramp], None);
    assert!(!ramp.jobs[0].measured && !ramp.total.measured);
    assert_eq!(ramp.jobs[0].dirs[0].ios, 50);
    // The ramp ends: the recording starts again from nothing, and grows past where it was.
    rec.clear(0);
    io(&mut rec, Ddir::Read, US, 80);
    let after = tracker.interval(1000, &report_of(&[("j", 0, &rec)]), &RUNNING, None);
    assert!(after.jobs[0].measured);
    assert_eq!(after.jobs[0].dirs[0].ios, 80, "taken from nothing, not from the ramp's 50");
    io(&mut rec, Ddir::Read, US, 7);
    let last = tracker.last(1200, &report_of(&[("j", 0, &rec)]));
    assert_eq!(last.jobs[0].dirs[0].ios, 7);
}

#[test]
fn a_snapshot_asked_while_the_ramp_may_end_is_not_measured() {
    let mut tracker = IntervalTracker::new(vec![slot("j")]);
    let mut rec = recorder();
    io(&mut rec, Ddir::Read, US, 5);
    // Ramping when asked: whatever the snapshot holds, it is no baseline.
    let e = tracker.interval(500, &report_of(&[("j", 0, &rec)]), &[JobState::Ramp], None);
    assert!(!e.jobs[0].measured);
    rec.clear(0);
    io(&mut rec, Ddir::Read, US, 9);
    let last = tracker.last(900, &report_of(&[("j", 0, &rec)]));
    assert_eq!(last.jobs[0].dirs[0].ios, 9);
}

#[test]
fn a_group_is_measured_when_all_its_jobs_are() {
    let grouped = |name: &str| PlanSlot { name: name.into(), groupid: 1, group_reporting: true };
    let mut tracker = IntervalTracker::new(vec![slot("solo"), grouped("g"), grouped("g")]);
    let (solo, group) = (recorder(), recorder());
    let report = report_of(&[("solo", 0, &solo), ("g", 1, &group)]);
    let states = [JobState::Running, JobState::Running, JobState::Ramp];
    let e = tracker.interval(500, &report, &states, None);
    assert_eq!(e.jobs.iter().map(|j| j.measured).collect::<Vec<_>>(), [true, false]);
    assert_eq!(e.states, ["running", "running", "ramp"]);
}

#[test]
fn namesakes_are_matched_in_order() {
    let mut tracker = IntervalTracker::new(vec![slot("j"), slot("j")]);
    let (a, b) = (recorder(), recorder());
    let report = report_of(&[("j", 0, &a), ("j", 0, &b)]);
    let e = tracker.interval(500, &report, &[JobState::Running, JobState::Ramp], None);
    assert_eq!(e.jobs.iter().map(|j| j.measured).collect::<Vec<_>>(), [true, false]);
}

#[test]
fn starts_and_ends_are_seen_once() {
    let mut tracker = IntervalTracker::new(vec![slot("a"), slot("b")]);
    let e = tracker.job_events(10, &[JobState::Running, JobState::Pending]);
    assert_eq!(e, [RunEvent::Start(JobEvent { t_ms: 10, job: "a".into(), index: 0 })]);
    assert!(tracker.job_events(20, &[JobState::Running, JobState::Pending]).is_empty());
    // b started and ended between two looks: both events.
    let e = tracker.job_events(30, &[JobState::Done, JobState::Done]);
    assert_eq!(e.len(), 3);
    assert!(matches!(&e[0], RunEvent::End(j) if j.job == "a"));
    assert!(matches!(&e[1], RunEvent::Start(j) if j.job == "b"));
    assert!(matches!(&e[2], RunEvent::End(j) if j.job == "b"));
}
