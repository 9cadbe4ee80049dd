use super::*;
use iomark_core::Ddir;

const MS: u64 = NS_PER_MS;

fn all_logs() -> LogConfig {
    LogConfig { kinds: [true; 5], dirs: [true, true, false], ..LogConfig::default() }
}

fn io(dir: Ddir, clat: u64) -> LoggedIo {
    LoggedIo {
        dir,
        bytes: 4096,
        bs: 4096,
        offset: 8192,
        slat_ns: None,
        clat_ns: Some(clat),
        lat_ns: Some(clat + 100),
        prio: 0,
    }
}

/// Records `n` I/Os one millisecond apart (at 1, 2, … n ms), alternating read and write
/// when `mixed`, with clat `1000 + i`.
fn run(log: &mut JobLog, n: u64, mixed: bool) {
    for i in 1..=n {
        let dir = if mixed && i % 2 == 0 { Ddir::Write } else { Ddir::Read };
        assert!(!log.record(i * MS, &io(dir, 1000 + i)));
    }
}

#[test]
fn per_io_logs_have_one_row_per_io() {
    let mut log = JobLog::new(all_logs());
    run(&mut log, 10, true);
    log.finish(10 * MS);
    assert!(log.rows(LogKind::Slat).is_empty(), "no slat on a synchronous engine");
    for kind in [LogKind::Clat, LogKind::Lat, LogKind::Bw, LogKind::Iops] {
        let rows = log.rows(kind);
        assert_eq!(rows.len(), 10, "{kind:?}");
        assert_eq!(rows.iter().filter(|r| r.dir == 1).count(), 5);
        assert!(rows.iter().all(|r| r.bs == 4096 && r.offset == 8192));
        assert_eq!(
            rows.iter().map(|r| r.time_ms).collect::<Vec<_>>(),
            (1..=10).collect::<Vec<_>>()
        );
    }
    assert_eq!(log.rows(LogKind::Clat)[2].value, 1003);
    assert_eq!(log.rows(LogKind::Lat)[2].value, 1103);
    // fio 3.33's per-I/O bandwidth: bytes × 10^6 / clat (4096 B in 1003 ns).
    assert_eq!(log.rows(LogKind::Bw)[2].value, 4096 * 1_000_000 / 1003);
    assert!(log.rows(LogKind::Iops).iter().all(|r| r.value == 1));
}

#[test]
fn slat_rows_come_from_engines_that_measure_it() {
    let mut log = JobLog::new(all_logs());
    log.record(MS, &LoggedIo { slat_ns: Some(77), ..io(Ddir::Read, 5) });
    assert_eq!(log.rows(LogKind::Slat)[0].value, 77);
}

#[test]
fn latency_windows_average_and_end_with_the_partial_one() {
    let config = LogConfig { avg_ms: 100, ..all_logs() };
    let mut log = JobLog::new(config);
    run(&mut log, 1050, false);
    log.finish(1050 * MS);
    let rows = log.rows(LogKind::Clat);
    // Windows close at 100, 200, … 1000 ms; the partial one at the job's end, 1050 ms.
    let times: Vec<u64> = rows.iter().map(|r| r.time_ms).collect();
    assert_eq!(times, [100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 1050]);
    // The first window holds the I/Os at 1..=99 ms; the I/O at 100 ms opens the next.
    assert_eq!(rows[0].value, (1001..=1099).sum::<u64>() / 99);
    assert_eq!(rows[1].value, (1100..=1199).sum::<u64>() / 100);
    assert_eq!(rows[10].value, (2000..=2050).sum::<u64>() / 51);
    assert!(rows.iter().all(|r| r.bs == 0 && r.offset == 0 && r.dir == 0));
    assert_eq!(log.rows(LogKind::Lat).len(), 11);
}

#[test]
fn windows_report_the_largest_value_with_log_max_value() {
    let config = LogConfig { avg_ms: 100, max_value: true, ..all_logs() };
    let mut log = JobLog::new(config);
    run(&mut log, 300, true);
    log.finish(300 * MS);
    let rows = log.rows(LogKind::Clat);
    let reads: Vec<u64> = rows.iter().filter(|r| r.dir == 0).map(|r| r.value).collect();
    let writes: Vec<u64> = rows.iter().filter(|r| r.dir == 1).map(|r| r.value).collect();
    assert_eq!(reads, [1099, 1199, 1299]);
    assert_eq!(writes, [1098, 1198, 1298, 1300]);
}

#[test]
fn a_direction_without_ios_in_a_window_has_no_row() {
    let config = LogConfig { avg_ms: 100, ..all_logs() };
    let mut log = JobLog::new(config);
    log.record(10 * MS, &io(Ddir::Read, 5));
    log.record(150 * MS, &io(Ddir::Write, 7));
    log.finish(160 * MS);
    let rows: Vec<(u64, u8)> = log.rows(LogKind::Clat).iter().map(|r| (r.time_ms, r.dir)).collect();
    assert_eq!(rows, [(150, 0), (160, 1)]);
}

#[test]
fn rate_windows_sample_bandwidth_and_iops() {
    let config = LogConfig { avg_ms: 100, ..all_logs() };
    let mut log = JobLog::new(config);
    run(&mut log, 1050, false);
    log.finish(1050 * MS);
    let bw = log.rows(LogKind::Bw);
    let iops = log.rows(LogKind::Iops);
    // A sample at each window end, over the I/Os up to and including it; none for the
    // partial window at the end.
    assert_eq!(bw.len(), 10);
    assert_eq!(
        iops.iter().map(|r| r.time_ms).collect::<Vec<_>>(),
        (1..=10).map(|i| i * 100).collect::<Vec<_>>()
    );
    assert!(iops.iter().all(|r| r.value == 1000 && r.bs == 0));
    assert!(bw.iter().all(|r| r.value == 4096 * 100 * 1000 / 100 / 1024));
}

#[test]
fn a_late_rate_sample_divides_by_the_time_spent() {
    let config = LogConfig { avg_ms: 100, ..all_logs() };
    let mut log = JobLog::new(config);
    log.record(50 * MS, &io(Ddir::Read, 5));
    log.record(250 * MS, &io(Ddir::Read, 5));
    log.record(300 * MS, &io(Ddir::Write, 5));
    let iops: Vec<(u64, u64, u8)> =
        log.rows(LogKind::Iops).iter().map(|r| (r.time_ms, r.value, r.dir)).collect();
    assert_eq!(iops, [(250, 2 * 1000 / 250, 0), (300, 1000 / 50, 1)]);
}

#[test]
fn a_full_log_asks_to_be_drained() {
    let config = LogConfig { chunk_rows: 4, ..all_logs() };
    let mut log = JobLog::new(config);
    let full: Vec<bool> = (1..=5).map(|i| log.record(i * MS, &io(Ddir::Read, 9))).collect();
    assert_eq!(full, [false, false, false, true, true]);
    assert_eq!(log.rows(LogKind::Clat).len(), 5);
    log.clear_rows();
    assert!(!log.is_full() && log.rows(LogKind::Clat).is_empty());
}

#[test]
fn restart_forgets_rows_and_windows() {
    let config = LogConfig { avg_ms: 100, hist_ms: 100, ..all_logs() };
    let mut log = JobLog::new(config);
    run(&mut log, 250, true);
    log.restart();
    assert!(log.rows(LogKind::Clat).is_empty() && log.hist_rows().next().is_none());
    log.record(20 * MS, &io(Ddir::Read, 5));
    log.finish(30 * MS);
    assert_eq!(log.rows(LogKind::Clat), &[LogRow { time_ms: 30, value: 5, ..LogRow::default() }]);
}

#[test]
fn histogram_rows_hold_each_window_in_fios_bins() {
    let config = LogConfig { hist_ms: 100, ..all_logs() };
    let mut log = JobLog::new(config);
    run(&mut log, 350, true);
    log.finish(350 * MS);
    let rows: Vec<(HistRowHead, Vec<u64>)> =
        log.hist_rows().map(|(h, b)| (h, b.to_vec())).collect();
    // Windows close at 100, 200 and 300 ms (the window restarts at the closing I/O), one
    // row per direction of the job; none for the partial window.
    let heads: Vec<(u64, u8)> = rows.iter().map(|(h, _)| (h.time_ms, h.dir)).collect();
    assert_eq!(heads, [(100, 0), (100, 1), (200, 0), (200, 1), (300, 0), (300, 1)]);
    assert!(rows.iter().all(|(h, b)| h.bs == 4096 && b.len() == FIO_HIST_BINS));
    let counts: Vec<u64> = rows.iter().map(|(_, b)| b.iter().sum()).collect();
    assert_eq!(counts, [50, 50, 50, 50, 50, 50]);
    // The first read row holds the reads at 1, 3, 5, 7 ms (clat 1001 to 1007 ns) in fio's
    // bin [1000, 1008).
    assert_eq!(fio_hist::fio_bin_low(fio_hist::fio_bin(1001)), 1000);
    assert_eq!(rows[0].1[fio_hist::fio_bin(1001)], 4);
}

#[test]
fn histogram_coarseness_shrinks_rows() {
    let config = LogConfig { hist_ms: 10, hist_coarseness: 6, ..all_logs() };
    let mut log = JobLog::new(config);
    run(&mut log, 20, false);
    let rows: Vec<Vec<u64>> = log.hist_rows().map(|(_, b)| b.to_vec()).collect();
    assert_eq!(rows.len(), 4, "two windows, two directions");
    assert!(rows.iter().all(|b| b.len() == 29));
    assert_eq!(rows.iter().map(|b| b.iter().sum::<u64>()).sum::<u64>(), 20);
}

#[test]
fn the_histogram_log_asks_to_be_drained_every_few_rows() {
    let config = LogConfig { hist_ms: 1, ..all_logs() };
    let mut log = JobLog::new(config);
    let first_full = (1..100).find(|&i| log.record(i * MS, &io(Ddir::Read, 9)));
    // Two rows per window (read and write): full after HIST_CHUNK / 2 windows.
    assert_eq!(first_full, Some(HIST_CHUNK as u64 / 2));
}
