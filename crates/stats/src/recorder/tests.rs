//! Tests of [`JobRecorder`]: what each recording method counts, merging and clearing.

use super::*;
use crate::hist::LatHistogram;
use iomark_core::Ddir;

fn rw_config() -> RecorderConfig {
    RecorderConfig { dirs: [true, true, false], slat: true, ..RecorderConfig::default() }
}

#[test]
fn only_the_histograms_asked_for_are_allocated() {
    let r = JobRecorder::new(RecorderConfig::default(), 0).unwrap();
    assert!(r.dirs[0].clat.hist.is_some());
    assert!(r.dirs[1].clat.hist.is_none() && r.dirs[0].lat.hist.is_none());
    assert!(r.dirs[0].slat.hist.is_none() && r.sync.hist.is_none());
    // Histograms hold memory only once latencies land in them: a chunk of 128 buckets
    // for the range of each latency, far below fio's 148 480 bytes.
    assert_eq!(r.heap_bytes(), 0);
    let mut r = r;
    r.record_io(Ddir::Read, 4096, 4096, None, Some(20_000), Some(20_000));
    assert_eq!(r.heap_bytes(), LatHistogram::TABLE_BYTES + LatHistogram::CHUNK_BYTES);

    let all = RecorderConfig {
        dirs: [true; 3],
        slat: true,
        slat_percentiles: true,
        lat_percentiles: true,
        syncs: true,
        ..RecorderConfig::default()
    };
    let mut r = JobRecorder::new(all, 0).unwrap();
    for dir in [Ddir::Read, Ddir::Write, Ddir::Trim] {
        r.record_io(dir, 4096, 4096, Some(1_000), Some(20_000), Some(21_000));
    }
    r.record_sync(30_000, SyncKind::Fsync);
    let one = LatHistogram::TABLE_BYTES + LatHistogram::CHUNK_BYTES;
    assert_eq!(r.heap_bytes(), 10 * one);
}

#[test]
fn record_io_counts_bytes_shorts_and_latencies() {
    let mut r = JobRecorder::new(rw_config(), 0).unwrap();
    r.record_io(Ddir::Write, 4096, 4096, Some(900), Some(4_500), Some(5_400));
    r.record_io(Ddir::Write, 1024, 4096, Some(1_100), Some(3_000), Some(4_100));
    r.record_drop(Ddir::Read);
    let w = &r.dirs[1];
    assert_eq!((w.bytes, w.ios, w.short, w.dropped), (5120, 2, 1, 0));
    assert_eq!(r.dirs[0].dropped, 1);
    assert_eq!(w.slat.moments.mean(), 1_000.0);
    assert_eq!(w.clat.hist.as_ref().map(|h| h.count()), Some(2));
    assert_eq!(w.lat.moments.max(), Some(5_400));
    // Latency buckets count clat: 4.5 µs → µs "10", 3 µs → µs "4".
    assert_eq!((r.latency.counts()[12], r.latency.counts()[11]), (1, 1));
}

#[test]
fn a_clat_run_records_as_its_ios_one_by_one() {
    let (mut runs, mut each) =
        (JobRecorder::new(rw_config(), 0).unwrap(), JobRecorder::new(rw_config(), 0).unwrap());
    for (ns, n) in [(4_500, 3), (900_000, 1), (4_500, 2)] {
        for _ in 0..n {
            runs.record_io(Ddir::Write, 4096, 4096, Some(10), None, Some(ns + 10));
            each.record_io(Ddir::Write, 4096, 4096, Some(10), Some(ns), Some(ns + 10));
        }
        runs.record_clat_n(Ddir::Write, ns, n);
    }
    assert_eq!(runs, each);
}

#[test]
fn a_reaped_run_records_as_its_ios_one_by_one() {
    // With and without slat/lat histograms, and with disable_slat/disable_lat.
    for (pct, slat, lat) in
        [(false, true, true), (true, true, true), (true, false, true), (true, true, false)]
    {
        let config = RecorderConfig {
            slat,
            lat,
            slat_percentiles: pct,
            lat_percentiles: pct,
            ..rw_config()
        };
        let mut runs = JobRecorder::new(config, 0).unwrap();
        let mut each = runs.clone();
        for (clat, slats) in
            [(4_500u64, &[10u64, 7, 900][..]), (900_000, &[3]), (4_500, &[0, 1 << 33])]
        {
            let mut moments = SumMoments::new();
            for &s in slats {
                runs.record_reaped(Ddir::Write, 4096, 4096, s, s + clat);
                moments.record(s);
                each.record_io(Ddir::Write, 4096, 4096, Some(s), Some(clat), Some(s + clat));
            }
            runs.record_run(Ddir::Write, clat, &moments);
        }
        assert_eq!(runs, each, "percentiles {pct}, slat {slat}, lat {lat}");
    }
}

#[test]
fn corrected_latency_is_kept_only_when_asked_for() {
    let mut plain = JobRecorder::new(RecorderConfig::default(), 0).unwrap();
    plain.record_corrected(Ddir::Read, 5);
    assert!(plain.dirs.iter().all(|d| d.lat_corrected.is_none()));
    let config = RecorderConfig { corrected: true, ..RecorderConfig::default() };
    let mut r = JobRecorder::new(config, 0).unwrap();
    r.record_corrected(Ddir::Read, 7_000);
    r.record_corrected(Ddir::Read, 9_000);
    let c = r.dirs[0].lat_corrected.as_ref().unwrap();
    assert_eq!((c.moments.count(), c.moments.max()), (2, Some(9_000)));
    assert_eq!(c.hist.as_ref().map(|h| h.count()), Some(2));
    // Directions the job does not perform keep sums but no histogram.
    assert!(r.dirs[1].lat_corrected.as_ref().is_some_and(|c| c.hist.is_none()));
    let mut merged = JobRecorder::new(RecorderConfig::default(), 0).unwrap();
    merged.merge(&r);
    assert_eq!(merged.dirs[0].lat_corrected.as_ref().map(|c| c.moments.count()), Some(2));
    r.clear(1);
    assert_eq!(r.dirs[0].lat_corrected.as_ref().map(|c| c.moments.count()), Some(0));
}

#[test]
fn disabled_latencies_are_not_recorded() {
    let config = RecorderConfig {
        clat: false,
        lat_is_clat: [true; 3],
        lat_percentiles: true,
        ..RecorderConfig::default()
    };
    let mut r = JobRecorder::new(config, 0).unwrap();
    r.record_io(Ddir::Read, 4096, 4096, Some(1), Some(2_000), Some(3_000));
    r.settle();
    let d = &r.dirs[0];
    assert_eq!((d.ios, d.slat.moments.count(), d.clat.moments.count()), (1, 0, 0));
    assert!(d.clat.hist.is_none());
    // lat is recorded for itself, not copied from the clat that was not kept.
    assert_eq!(d.lat.moments.max(), Some(3_000));
    assert_eq!(r.latency.counts().iter().sum::<u64>(), 0);

    let config = RecorderConfig { lat: false, slat: true, ..RecorderConfig::default() };
    let mut r = JobRecorder::new(config, 0).unwrap();
    r.record_io(Ddir::Read, 4096, 4096, Some(1), Some(2_000), Some(3_000));
    let d = &r.dirs[0];
    assert_eq!((d.slat.moments.count(), d.clat.moments.count(), d.lat.moments.count()), (1, 1, 0));
}

#[test]
fn failed_ios_count_as_issued_and_as_errors() {
    let mut a = JobRecorder::new(rw_config(), 0).unwrap();
    a.record_error(Some(Ddir::Write), 28);
    a.record_error(None, 5);
    a.record_io(Ddir::Write, 4096, 4096, Some(1), Some(2), Some(3));
    assert_eq!((a.dirs[1].ios, a.dirs[1].bytes, a.dirs[1].clat.moments.count()), (2, 4096, 1));
    assert_eq!(a.errors, ErrorCounts { total: 2, first: 28 });
    let mut b = JobRecorder::new(rw_config(), 0).unwrap();
    b.record_error(Some(Ddir::Read), 5);
    b.merge(&a);
    assert_eq!(b.errors, ErrorCounts { total: 3, first: 5 });
    a.clear(0);
    assert_eq!(a.errors, ErrorCounts::default());
}

#[test]
fn latencies_are_kept_per_priority_and_merged_by_priority() {
    let io = |r: &mut JobRecorder, prio: u16, clat: u64, lat: u64| {
        r.record_io(Ddir::Read, 4096, 4096, None, Some(clat), Some(lat));
        r.record_prio(Ddir::Read, prio, clat, lat);
    };
    let mut a = JobRecorder::new(RecorderConfig::default(), 0).unwrap();
    a.track_prios([vec![0, 8192], vec![0], vec![0]], false);
    io(&mut a, 0, 100, 150);
    io(&mut a, 8192, 50, 70);
    io(&mut a, 8192, 60, 80);
    let p = a.prios.as_ref().unwrap();
    assert_eq!((p.dirs[0][0].1.moments.count(), p.dirs[0][1].1.moments.count()), (1, 2));
    assert_eq!(p.dirs[0][1].1.moments.max(), Some(60));
    assert!(p.dirs[0][0].1.hist.is_some() && p.dirs[1][0].1.hist.is_none());
    // The job's own priority keeps sums only while the job runs; settling gives it the
    // rest of the direction's histogram.
    let own =
        |r: &JobRecorder| r.prios.as_ref().unwrap().dirs[0][0].1.hist.as_ref().unwrap().count();
    assert_eq!(own(&a), 0);
    a.settle();
    assert_eq!(own(&a), 1);
    a.settle();
    assert_eq!(own(&a), 1, "a second settle changes nothing");
    let mut b = JobRecorder::new(RecorderConfig::default(), 0).unwrap();
    b.track_prios([vec![16384], vec![16384], vec![16384]], false);
    io(&mut b, 0, 1, 2);
    b.settle();
    a.merge(&b);
    let p = a.prios.as_ref().unwrap();
    let values: Vec<u16> = p.dirs[0].iter().map(|(v, _)| *v).collect();
    assert_eq!(values, [0, 8192, 16384]);
    assert_eq!(p.dirs[0][2].1.moments.max(), Some(1));
}

#[test]
fn priorities_follow_the_latency_the_job_keeps() {
    let off = RecorderConfig { clat: false, ..RecorderConfig::default() };
    let mut r = JobRecorder::new(off, 0).unwrap();
    r.track_prios([vec![0, 8192], vec![0], vec![0]], false);
    assert!(r.prios.is_none(), "disable_clat: no clat per priority either");
    let lat = RecorderConfig { lat_percentiles: true, ..RecorderConfig::default() };
    let mut r = JobRecorder::new(lat, 0).unwrap();
    r.track_prios([vec![0, 8192], vec![0], vec![0]], true);
    r.record_io(Ddir::Read, 1, 1, None, Some(10), Some(25));
    r.record_prio(Ddir::Read, 8192, 10, 25);
    r.settle();
    let p = r.prios.as_ref().unwrap();
    assert_eq!(p.dirs[0][1].1.moments.max(), Some(25));
    assert_eq!(p.dirs[0][0].1.hist.as_ref().map(LatHistogram::count), Some(0));
}

#[test]
fn depth_submit_and_complete_are_bucketed() {
    let mut r = JobRecorder::new(RecorderConfig::default(), 0).unwrap();
    r.record_depth(1, 1);
    r.record_depth(4, 3);
    r.record_submit(3);
    r.record_complete(0);
    r.record_complete(70);
    assert_eq!(r.depth.counts(), &[1, 0, 3, 0, 0, 0, 0]);
    assert_eq!(r.submit.counts()[1], 1);
    assert_eq!((r.complete.counts()[0], r.complete.counts()[6]), (1, 1));
}

#[test]
fn tick_samples_from_the_recorded_totals() {
    let mut r = JobRecorder::new(RecorderConfig::default(), 0).unwrap();
    for _ in 0..100 {
        r.record_io(Ddir::Read, 4096, 4096, None, Some(1_000), Some(1_000));
    }
    r.tick(100_000_000);
    r.tick(500_000_000);
    assert_eq!(r.bw.stats(0).mean(), (409_600 * 1000 / 500 / 1024) as f64);
    assert_eq!(r.iops.stats(0).mean(), 200.0);
}

#[test]
fn clear_forgets_everything_and_restarts_windows() {
    let mut r = JobRecorder::new(rw_config(), 0).unwrap();
    r.record_io(Ddir::Read, 10, 10, Some(1), Some(2), Some(3));
    r.record_sync(5, SyncKind::Fsync);
    r.record_sync(6, SyncKind::FileRange);
    r.tick(600_000_000);
    r.clear(1_000_000_000);
    let fresh = {
        let mut f = JobRecorder::new(rw_config(), 0).unwrap();
        f.bw.restart(1_000_000_000, [0; 3]);
        f.iops.restart(1_000_000_000, [0; 3]);
        f
    };
    assert_eq!(r, fresh);
}

#[test]
fn merge_is_exact_for_counts_and_histograms() {
    let (mut a, mut b, mut both) = (
        JobRecorder::new(rw_config(), 0).unwrap(),
        JobRecorder::new(rw_config(), 0).unwrap(),
        JobRecorder::new(rw_config(), 0).unwrap(),
    );
    for i in 0..1000u64 {
        let (r, dir) = if i % 3 == 0 { (&mut a, Ddir::Read) } else { (&mut b, Ddir::Write) };
        let t = (Some(i), Some(i * 37 + 5), Some(i * 38 + 5));
        r.record_io(dir, 4096, 4096, t.0, t.1, t.2);
        both.record_io(dir, 4096, 4096, t.0, t.1, t.2);
        r.record_depth(1, 1);
        both.record_depth(1, 1);
    }
    a.merge(&b);
    for d in 0..3 {
        assert_eq!(a.dirs[d].clat.hist, both.dirs[d].clat.hist);
        assert_eq!((a.dirs[d].bytes, a.dirs[d].ios), (both.dirs[d].bytes, both.dirs[d].ios));
        assert_eq!(a.dirs[d].clat.moments.count(), both.dirs[d].clat.moments.count());
    }
    assert_eq!((a.depth, a.latency), (both.depth, both.latency));
}

#[test]
fn merge_copies_a_histogram_only_the_other_side_has() {
    let mut a = JobRecorder::new(RecorderConfig::default(), 0).unwrap();
    let mut b = JobRecorder::new(
        RecorderConfig { dirs: [false, true, false], ..RecorderConfig::default() },
        0,
    )
    .unwrap();
    b.record_io(Ddir::Write, 1, 1, None, Some(77), Some(80));
    a.merge(&b);
    assert_eq!(a.dirs[1].clat.hist.as_ref().map(|h| h.count()), Some(1));
    assert_eq!(a.config().dirs, [true, true, false]);
}

#[test]
fn a_recording_survives_serde_as_it_was() {
    let mut r = JobRecorder::new(rw_config(), 0).unwrap();
    r.record_io(Ddir::Read, 4096, 4096, Some(700), Some(12_345), Some(13_045));
    r.record_io(Ddir::Write, 4096, 4096, Some(900), Some(7_000_000_000), Some(7_000_000_900));
    r.record_depth(4, 1);
    let text = serde_json::to_string(&r).unwrap();
    let back: JobRecorder = serde_json::from_str(&text).unwrap();
    assert_eq!(back, r);
    // Only the buckets in use travel.
    assert!(text.len() < 4096, "{} bytes", text.len());
}
