//! Tests of the reduction, with numbers from real fio 3.33 runs where fio's rules matter.

use super::*;
use crate::recorder::{RecorderConfig, SyncKind};
use iomark_core::Ddir;

fn meta(groupid: u32) -> JobMeta {
    JobMeta {
        name: "j".into(),
        description: None,
        groupid,
        jobs: 1,
        error: 0,
        error_text: String::new(),
        notes: Vec::new(),
        pid: 1,
        start_time: String::new(),
        elapsed_s: 1,
        options: Vec::new(),
        header: JobHeader {
            rw: "read".into(),
            bs: [(4096, 4096); 3],
            ioengine: "null".into(),
            iodepth: 1,
        },
        latency_target: LatencyTarget { depth: 1, target: 0, percentile: 100.0, window: 0 },
        unified_rw: UnifiedRw::None,
        steadystate: None,
        errors: None,
    }
}

/// A job report with only what the group reduction reads.
fn job(groupid: u32, dirs: [(u64, u64, f64, u64); 2]) -> JobReport {
    let rec = JobRecorder::new(RecorderConfig::default(), 0).unwrap();
    let mut r = job_report(&rec, meta(groupid), &JobTimes::default(), &PercentileList::default());
    for (d, (io_bytes, runtime_ms, bw_mean, samples)) in dirs.into_iter().enumerate() {
        r.dirs[d].io_bytes = io_bytes;
        r.dirs[d].runtime_ms = runtime_ms;
        r.dirs[d].bw_bytes = (io_bytes * 1000).checked_div(runtime_ms).unwrap_or(0);
        r.dirs[d].bw_samples.mean = bw_mean;
        r.dirs[d].bw_samples.samples = samples;
    }
    r
}

/// fio 3.33, `--ioengine=null --bs=4k`, three jobs in one group:
/// j1 read rate=10m size=15m, j2 read rate=4m size=6m, j3 randrw rate=3m,1m size=4m.
/// fio printed
/// `READ: bw=16.0MiB/s, 3075KiB/s-10.0MiB/s, io=24.0MiB, run=999-1500msec`,
/// `WRITE: bw=1025KiB/s, 1025KiB/s-1025KiB/s, io=1024KiB, run=999-999msec` and
/// `bw_agg` 62.573242, 25.024414, 18.798828 (read) and 100.0 (write, capped).
#[test]
fn group_reports_match_fio_3_33() {
    let mut jobs = vec![
        job(0, [(15_728_640, 1500, 10252.0, 2), (0, 0, 0.0, 0)]),
        job(0, [(6_291_456, 1500, 4100.0, 2), (0, 0, 0.0, 0)]),
        job(0, [(3_145_728, 999, 3080.0, 1), (1_048_576, 999, 1032.0, 1)]),
    ];
    let groups = group_reports(&mut jobs);
    assert_eq!(groups.len(), 1);
    let [read, write, trim] = &groups[0].dirs;
    assert_eq!(read.io_bytes, 25_165_824);
    assert_eq!(read.agg_bw, 16 << 20);
    assert_eq!((read.min_bw, read.max_bw), (3_148_876, 10_485_760));
    assert_eq!((read.min_run_ms, read.max_run_ms), (999, 1500));
    assert_eq!((write.agg_bw, write.min_bw, write.max_bw), (1_049_625, 1_049_625, 1_049_625));
    assert_eq!((write.min_run_ms, write.max_run_ms), (999, 999));
    assert_eq!(*trim, GroupDir::default());
    let per: Vec<f64> = jobs.iter().map(|j| j.dirs[0].bw_samples.agg_pct).collect();
    for (got, fio) in per.iter().zip([62.573242, 25.024414, 18.798828]) {
        assert!((got - fio).abs() < 5e-7, "{got} vs {fio}");
    }
    assert_eq!(jobs[2].dirs[1].bw_samples.agg_pct, 100.0);
    assert_eq!(jobs[0].dirs[1].bw_samples.agg_pct, 0.0);
}

/// fio 3.33, `--ioengine=null --rw=write --bs=12k --time_based --runtime=1100ms`: agg_bw
/// 38503789090 bytes/s, bw_mean 36733148.0 KiB/s; fio printed `bw_agg` 97.691018 in JSON
/// and `97.691019%` in its terse line (the mean over the integer 37601356).
#[test]
fn terse_share_divides_by_whole_kib() {
    let mut jobs = vec![job(0, [(0, 0, 0.0, 0), (42_354_168_000, 1100, 36_733_148.0, 2)])];
    group_reports(&mut jobs);
    let bw = &jobs[0].dirs[1].bw_samples;
    assert_eq!(format!("{:.6}", bw.agg_pct_terse), "97.691019");
    assert_eq!(jobs[0].dirs[0].bw_samples.agg_pct_terse, 0.0, "no samples");
    let mut capped = vec![job(0, [(3_145_728, 999, 4000.0, 1), (0, 0, 0.0, 0)])];
    group_reports(&mut capped);
    assert_eq!(capped[0].dirs[0].bw_samples.agg_pct_terse, 100.0);
    let mut slow = vec![job(0, [(1000, 1000, 0.9, 1), (0, 0, 0.0, 0)])];
    group_reports(&mut slow);
    assert_eq!(slow[0].dirs[0].bw_samples.agg_pct_terse, 100.0, "under 1 KiB/s");
}

#[test]
fn groups_are_separate_and_ordered() {
    let mut jobs = vec![
        job(1, [(1000, 10, 1.0, 1), (0, 0, 0.0, 0)]),
        job(0, [(4000, 20, 3.0, 1), (0, 0, 0.0, 0)]),
    ];
    let groups = group_reports(&mut jobs);
    assert_eq!(groups.iter().map(|g| g.groupid).collect::<Vec<_>>(), vec![0, 1]);
    assert_eq!((groups[0].dirs[0].agg_bw, groups[1].dirs[0].agg_bw), (200_000, 100_000));
}

#[test]
fn bandwidth_truncates_and_iops_is_a_float() {
    let mut rec = JobRecorder::new(RecorderConfig::default(), 0).unwrap();
    for _ in 0..768 {
        rec.record_io(Ddir::Read, 4096, 4096, None, Some(2_000), Some(2_100));
    }
    let times = JobTimes {
        runtime_ms: [999, 0, 0],
        total_run_ms: 998,
        usr_ns: 17_000_000,
        ..JobTimes::default()
    };
    let r = job_report(&rec, meta(0), &times, &PercentileList::default());
    // fio 3.33 printed bw_bytes 3148876 and iops 768.768769 for these numbers.
    assert_eq!(r.dirs[0].bw_bytes, 3_148_876);
    assert!((r.dirs[0].iops - 768.768769).abs() < 1e-6);
    assert_eq!((r.dirs[1].bw_bytes, r.dirs[1].iops), (0, 0.0));
    assert!((r.usr_cpu - 1.703407).abs() < 1e-6);
    assert_eq!(r.runtime_ms, 998);
}

#[test]
fn percentiles_follow_the_list_and_exist_only_with_a_histogram() {
    let cfg = RecorderConfig { dirs: [true, true, false], slat: true, ..RecorderConfig::default() };
    let mut rec = JobRecorder::new(cfg, 0).unwrap();
    for i in 1..=100 {
        rec.record_io(Ddir::Read, 512, 512, Some(i), Some(i * 10), Some(i * 11));
    }
    let list = PercentileList::new(&[99.0, 50.0]).unwrap();
    let r = job_report(&rec, meta(0), &JobTimes::default(), &list);
    let read = &r.dirs[0];
    assert_eq!(read.clat.percentiles, Some(vec![(50.0, 500), (99.0, 990)]));
    assert_eq!(read.clat.bins.as_ref().map(Vec::len), Some(100));
    assert_eq!((read.clat.n, read.clat.min, read.clat.max), (100, 10, 1000));
    assert_eq!((read.slat.percentiles.clone(), read.slat.n), (None, 100));
    assert_eq!(read.lat.percentiles, None);
    // The write direction has a histogram but no values: no percentiles, as fio.
    assert_eq!((r.dirs[1].clat.percentiles.clone(), r.dirs[1].clat.n), (None, 0));
}

#[test]
fn distributions_become_fio_percentages() {
    let mut rec = JobRecorder::new(RecorderConfig::default(), 0).unwrap();
    for i in 0..10_000u32 {
        let clat = if i == 0 { 500 } else { 30_000 };
        rec.record_io(Ddir::Read, 4096, 4096, None, Some(clat), Some(clat));
        rec.record_depth(if i < 2 { 1 } else { 4 }, 1);
        rec.record_submit(1);
        rec.record_complete(1);
    }
    let r = job_report(&rec, meta(0), &JobTimes::default(), &PercentileList::default());
    assert_eq!(r.iodepth_level, [0.1, 0.0, 99.98, 0.0, 0.0, 0.0, 0.0]);
    assert_eq!(r.iodepth_submit, [0.0, 100.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
    assert_eq!(r.latency_ns[8], 0.01);
    assert_eq!(r.latency_us[4], 99.99);
    assert_eq!(r.latency_ms, [0.0; 12]);
    assert_eq!(r.terse_latency_2us, 0.01, "the ns row unfloored, no µs 2 bucket");
}

/// Terse's `<=2` µs bucket: the µs `2` bucket floored, plus the ns row unfloored.
#[test]
fn terse_first_microsecond_bucket_adds_the_ns_row_unfloored() {
    let mut rec = JobRecorder::new(RecorderConfig::default(), 0).unwrap();
    for i in 0..100_000u32 {
        let clat = match i {
            0 => 1_500,
            1 => 300,
            _ => 40,
        };
        rec.record_io(Ddir::Read, 4096, 4096, None, Some(clat), Some(clat));
    }
    let r = job_report(&rec, meta(0), &JobTimes::default(), &PercentileList::default());
    assert_eq!((r.latency_ns[4], r.latency_ns[7], r.latency_us[0]), (99.998, 0.01, 0.01));
    assert!((r.terse_latency_2us - 100.009).abs() < 1e-9, "{}", r.terse_latency_2us);
    assert_eq!(format!("{:.2}", r.terse_latency_2us), "100.01");
}

#[test]
fn the_percentile_list_is_kept_while_clat_or_lat_percentiles_are_on() {
    let list = PercentileList::new(&[99.0, 50.0]).unwrap();
    let report = |clat_percentiles, lat_percentiles| {
        let cfg = RecorderConfig { clat_percentiles, lat_percentiles, ..Default::default() };
        let rec = JobRecorder::new(cfg, 0).unwrap();
        job_report(&rec, meta(0), &JobTimes::default(), &list).percentile_list
    };
    assert_eq!(report(true, false), [50.0, 99.0]);
    assert_eq!(report(false, true), [50.0, 99.0]);
    assert!(report(false, false).is_empty());
}

#[test]
fn sync_latency_is_reported() {
    let cfg = RecorderConfig { syncs: true, ..RecorderConfig::default() };
    let mut rec = JobRecorder::new(cfg, 0).unwrap();
    rec.record_sync(1_000, SyncKind::Fsync);
    rec.record_sync(3_000, SyncKind::Fdatasync);
    rec.record_sync(2_000, SyncKind::FileRange);
    let r = job_report(&rec, meta(0), &JobTimes::default(), &PercentileList::default());
    // An fdatasync or a sync_file_range counts in the latency, not in the syncs issued,
    // as in fio 3.33 (and not as a short read or write, where fio 3.33 counts them).
    assert_eq!((r.sync.total_ios, r.sync.lat.mean), (1, 2_000.0));
    assert_eq!(r.sync.lat.percentiles.as_ref().map(|p| p[0]), Some((1.0, 1_000)));
    assert_eq!((r.dirs[0].short_ios, r.dirs[1].short_ios), (0, 0));
}

#[test]
fn percentile_lists_are_checked() {
    assert_eq!(PercentileList::new(&[]), Err(PercentileListError::Empty));
    assert_eq!(PercentileList::new(&[50.0; 21]), Err(PercentileListError::TooMany(21)));
    assert_eq!(PercentileList::new(&[0.0]), Err(PercentileListError::OutOfRange(0.0)));
    assert!(matches!(PercentileList::new(&[f64::NAN]), Err(PercentileListError::OutOfRange(_))));
    assert_eq!(
        PercentileList::new(&[100.0, 0.5]).map(|l| l.values().to_vec()),
        Ok(vec![0.5, 100.0])
    );
    assert_eq!(PercentileList::default().values().len(), 17);
}

fn unified(unified_rw: UnifiedRw) -> JobMeta {
    JobMeta { unified_rw, ..meta(0) }
}

/// The `mixed` direction is the exact merge of the directions: the same statistics as one
/// recording of every I/O, percentiles and bins included.
#[test]
fn mixed_merges_the_directions_exactly() {
    let cfg = RecorderConfig {
        dirs: [true, true, false],
        lat_percentiles: true,
        ..RecorderConfig::default()
    };
    let (mut split, mut one) =
        (JobRecorder::new(cfg, 0).unwrap(), JobRecorder::new(cfg, 0).unwrap());
    for i in 1..=3000u64 {
        let (dir, clat) = if i % 3 == 0 { (Ddir::Write, 50_000 + i * 7) } else { (Ddir::Read, i) };
        split.record_io(dir, 4096, 4096, None, Some(clat), Some(clat + 100));
        one.record_io(Ddir::Read, 4096, 4096, None, Some(clat), Some(clat + 100));
    }
    let times = JobTimes { runtime_ms: [700, 900, 0], ..JobTimes::default() };
    let pcts = PercentileList::default();
    let r = job_report(&split, unified(UnifiedRw::Mixed), &times, &pcts);
    let all = job_report(&one, meta(0), &JobTimes { runtime_ms: [900, 0, 0], ..times }, &pcts);
    let mixed = r.mixed.expect("a mixed direction");
    assert_eq!(mixed, all.dirs[0]);
    assert_eq!((mixed.total_ios, mixed.io_bytes, mixed.runtime_ms), (3000, 3000 * 4096, 900));
    assert_eq!(r.unified_rw, UnifiedRw::Mixed);
    // The directions stay in the report; the printers decide what to show.
    assert_eq!(r.dirs[1].total_ios, 1000);
    let none = job_report(&split, meta(0), &times, &pcts);
    assert_eq!((none.mixed, none.unified_rw), (None, UnifiedRw::None));
}

/// fio 3.33, `unified_rw_reporting=mixed`: the mixed bandwidth samples are the directions'
/// summed by the group_reporting rule (a randrw job with 2 read samples 30720/30736 KiB/s and
/// 2 write samples 10240/10248 printed `min=40960, max=40984, avg=40972.00, stdev= 7.30,
/// samples=4`).
#[test]
fn mixed_samples_add_up_as_fios() {
    let mut rec = JobRecorder::new(RecorderConfig::default(), 0).unwrap();
    let ms = 1_000_000;
    let kib = |rate: u64, spent: u64| rate * 1024 * spent / 1000;
    // Samples of exactly 30720/10240 and 30736/10248 KiB/s, 500 ms apart.
    rec.bw.tick(500 * ms, [kib(30720, 500), kib(10240, 500), 0]);
    rec.bw
        .tick(1000 * ms, [kib(30720, 500) + kib(30736, 500), kib(10240, 500) + kib(10248, 500), 0]);
    let r = job_report(&rec, unified(UnifiedRw::Both), &JobTimes::default(), &Default::default());
    let bw = r.mixed.expect("mixed").bw_samples;
    assert_eq!((bw.min, bw.max, bw.mean, bw.samples), (40960, 40984, 40972.0, 4));
    assert!((bw.stddev - 7.302967).abs() < 1e-6, "{}", bw.stddev);
}

/// fio 3.33's `Run status group` lines under `both` and `mixed`, from two jobs: `rw`
/// (randrw, 22 MiB read and 11 MiB written in 1101 ms) and `r` (read, 11 MiB in 1100 ms).
/// Under `both` fio printed
/// `MIXED: bw=40.0MiB/s (41.9MB/s), 9.99MiB/s-20.0MiB/s (10.5MB/s-21.0MB/s), io=44.0MiB
/// (46.1MB), run=1100-1101msec`: its min and max are single directions'.
#[test]
fn group_mixed_line_follows_fio() {
    let jobs = |mode: UnifiedRw| {
        let mut rw = job(0, [(23_068_672, 1101, 0.0, 0), (11_534_336, 1101, 0.0, 0)]);
        let mut r = job(0, [(11_538_432, 1100, 0.0, 0), (0, 0, 0.0, 0)]);
        for j in [&mut rw, &mut r] {
            j.unified_rw = mode;
            let mut mixed = j.dirs[0].clone();
            mixed.io_bytes += j.dirs[1].io_bytes;
            mixed.bw_bytes = mixed.io_bytes * 1000 / mixed.runtime_ms;
            j.mixed = Some(mixed);
        }
        vec![rw, r]
    };
    let mut both = jobs(UnifiedRw::Both);
    let g = group_reports(&mut both).remove(0);
    let m = g.mixed.expect("a MIXED line");
    assert_eq!((m.io_bytes, m.agg_bw), (46_141_440, 41_908_664));
    assert_eq!((m.min_bw, m.max_bw), (10_476_236, 20_952_472));
    assert_eq!((m.min_run_ms, m.max_run_ms), (1100, 1101));
    assert_eq!(g.dirs[0].io_bytes, 34_607_104);
    // Under `mixed` each job counts once, with its mixed figures (fio: 10.0MiB/s-30.0MiB/s).
    let mut mixed = jobs(UnifiedRw::Mixed);
    let g = group_reports(&mut mixed).remove(0);
    let m = g.mixed.expect("a MIXED line");
    assert_eq!((m.io_bytes, m.min_bw, m.max_bw), (46_141_440, 10_489_483, 31_428_708));
    assert_eq!(g.unified_rw, UnifiedRw::Mixed);
}

#[test]
fn times_of_one_job_on_several_ranks_span_from_the_first_start_to_the_last_end() {
    let a =
        JobTimes { runtime_ms: [1000, 0, 0], total_run_ms: 1000, usr_ns: 5, ..JobTimes::default() };
    let b =
        JobTimes { runtime_ms: [900, 0, 0], total_run_ms: 900, usr_ns: 7, ..JobTimes::default() };
    let mut m = a;
    // b started 200 ms after a and ended 100 ms after it.
    m.merge_spans(10_000, &b, 10_200);
    assert_eq!(m.runtime_ms, [1100, 0, 0]);
    assert_eq!((m.total_run_ms, m.usr_ns), (1900, 12));
    // A group keeps the longest.
    let mut g = a;
    g.merge_group(&b);
    assert_eq!(g.runtime_ms, [1000, 0, 0]);
}
