//! Rows and columns of the latency, bandwidth and IOPS logs under the fake clock: a row
//! per I/O, the optional columns, averaged and maximum windows worked out from a per-I/O
//! log of the same run, ramp time left out, and the reported percentiles against the
//! exact latencies of a per-I/O log.

use super::{json, logs_in, null_job, parse_rows, read, rows, total_ios, Row};
use crate::support::run::{iomark_ok, tempdir};
use std::collections::BTreeMap;

#[test]
fn a_per_io_log_has_a_row_per_io() {
    let dir = tempdir();
    let args = null_job(&[
        "--number_ios=3000",
        "--write_lat_log=foo",
        "--write_bw_log=foo",
        "--write_iops_log=foo",
    ]);
    let report = json(&iomark_ok(dir.path(), &args, true));
    let ios = total_ios(&report);
    assert_eq!(ios.iter().sum::<u64>(), 3000);
    assert_eq!(
        logs_in(dir.path()),
        ["foo_bw.1.log", "foo_clat.1.log", "foo_iops.1.log", "foo_lat.1.log", "foo_slat.1.log"]
    );
    // The null engine completes I/Os at once: no submission latency, an empty slat log.
    assert_eq!(read(dir.path(), "foo_slat.1.log"), "");
    for name in ["foo_clat.1.log", "foo_lat.1.log", "foo_bw.1.log", "foo_iops.1.log"] {
        let r = parse_rows(dir.path(), name);
        for (d, &want) in ios.iter().enumerate() {
            let n = r.iter().filter(|r| r.dir == d as u8).count() as u64;
            assert_eq!(n, want, "{name}: rows of direction {d}");
        }
        assert!(r.iter().all(|r| r.bs == 4096), "{name}");
        assert!(r.windows(2).all(|w| w[0].time <= w[1].time), "{name}: times go back");
        assert!(rows(dir.path(), name).iter().all(|r| r.len() == 5 && r[4] == "0"), "{name}");
    }
    let clat = parse_rows(dir.path(), "foo_clat.1.log");
    let bw = parse_rows(dir.path(), "foo_bw.1.log");
    for (c, b) in clat.iter().zip(&bw) {
        assert_eq!(b.value, 4096 * 1_000_000 / c.value, "per-I/O bandwidth, fio 3.33's way");
    }
    assert!(parse_rows(dir.path(), "foo_iops.1.log").iter().all(|r| r.value == 1));
    // The JSON's clat N is the number of rows.
    assert_eq!(report["jobs"][0]["read"]["clat_ns"]["N"].as_u64(), Some(ios[0]));
}

#[test]
fn offset_and_priority_columns_follow_the_options() {
    let dir = tempdir();
    let args = null_job(&["--number_ios=200", "--write_lat_log=a", "--log_offset=1"]);
    let report = json(&iomark_ok(dir.path(), &args, true));
    let r = rows(dir.path(), "a_clat.1.log");
    assert_eq!(r.len() as u64, total_ios(&report).iter().sum::<u64>());
    assert!(r.iter().all(|r| r.len() == 6 && r[5] == "0"));
    // Offsets are block-aligned offsets inside the 1 GiB file.
    assert!(r.iter().all(|r| r[4].parse::<u64>().is_ok_and(|o| o % 4096 == 0 && o < 1 << 30)));

    let dir = tempdir();
    let args = null_job(&["--number_ios=200", "--write_lat_log=a", "--log_prio=1"]);
    iomark_ok(dir.path(), &args, true);
    assert!(rows(dir.path(), "a_lat.1.log").iter().all(|r| r.len() == 5 && r[4] == "0x0000"));

    let dir = tempdir();
    let args =
        null_job(&["--number_ios=9", "--write_iops_log=a", "--log_offset=1", "--log_prio=1"]);
    iomark_ok(dir.path(), &args, true);
    assert!(rows(dir.path(), "a_iops.1.log").iter().all(|r| r.len() == 6 && r[5] == "0x0000"));
}

/// What iomark's windowed latency log should hold, worked out from a per-I/O log of the
/// same run (the fake clock makes both runs do the same I/O at the same times).
fn expected_windows(per_io: &[Row], window: u64, max: bool) -> Vec<Row> {
    let mut out = Vec::new();
    let mut end = window;
    let mut acc: BTreeMap<u8, Vec<u64>> = BTreeMap::new();
    let flush = |acc: &mut BTreeMap<u8, Vec<u64>>, time: u64, out: &mut Vec<Row>| {
        for (&dir, values) in acc.iter() {
            let value = if max {
                *values.iter().max().expect("values")
            } else {
                values.iter().sum::<u64>() / values.len() as u64
            };
            out.push(Row { time, value, dir, bs: 0 });
        }
        acc.clear();
    };
    for r in per_io {
        if r.time >= end {
            flush(&mut acc, r.time, &mut out);
            end = (r.time / window + 1) * window;
        }
        acc.entry(r.dir).or_default().push(r.value);
    }
    let last = per_io.last().map_or(0, |r| r.time);
    flush(&mut acc, last, &mut out);
    out
}

/// The same for the bandwidth and IOPS logs: a sample at the first I/O at or after each
/// window's end, over the time since the previous sample, per direction that moved.
fn expected_rates(per_io: &[Row], window: u64) -> (Vec<Row>, Vec<Row>) {
    let (mut bw, mut iops) = (Vec::new(), Vec::new());
    let (mut due, mut last) = (window, 0);
    let mut moved: BTreeMap<u8, (u64, u64)> = BTreeMap::new();
    for r in per_io {
        let m = moved.entry(r.dir).or_default();
        m.0 += r.bs;
        m.1 += 1;
        if r.time >= due {
            let spent = r.time - last;
            for (&dir, &(bytes, ios)) in &moved {
                let rate =
                    |x: u64, scale: u64| (x * 1000).checked_div(spent).map_or(0, |r| r / scale);
                bw.push(Row { time: r.time, value: rate(bytes, 1024), dir, bs: 0 });
                iops.push(Row { time: r.time, value: rate(ios, 1), dir, bs: 0 });
            }
            moved.clear();
            last = r.time;
            due = (r.time / window + 1) * window;
        }
    }
    bw.sort_by_key(|r| (r.time, r.dir));
    iops.sort_by_key(|r| (r.time, r.dir));
    (bw, iops)
}

#[test]
fn windowed_logs_have_the_right_windows() {
    // Sampled at the millisecond ends of the fake clock: the per-I/O times are then exact
    // enough to predict every window.
    let per_io = tempdir();
    let args = null_job(&["--number_ios=20000", "--write_lat_log=p", "--write_bw_log=p"]);
    iomark_ok(per_io.path(), &args, true);
    let clat = parse_rows(per_io.path(), "p_clat.1.log");
    let lat = parse_rows(per_io.path(), "p_lat.1.log");
    let bw_rows = parse_rows(per_io.path(), "p_bw.1.log");
    for (window, max) in [(5, false), (7, true)] {
        let dir = tempdir();
        let w = format!("--log_avg_msec={window}");
        let mut args = null_job(&[
            "--number_ios=20000",
            "--write_lat_log=w",
            "--write_bw_log=w",
            "--write_iops_log=w",
            &w,
        ]);
        if max {
            args.push("--log_max_value=1");
        }
        iomark_ok(dir.path(), &args, true);
        let got = parse_rows(dir.path(), "w_clat.1.log");
        let want = expected_windows(&clat, window, max);
        assert!(want.len() > 10, "the run spans {} windows only", want.len());
        assert_eq!(got, want, "clat windows of {window} ms");
        assert_eq!(parse_rows(dir.path(), "w_lat.1.log"), expected_windows(&lat, window, max));
        let (bw, iops) = expected_rates(&bw_rows, window);
        assert_eq!(parse_rows(dir.path(), "w_bw.1.log"), bw, "bw windows of {window} ms");
        assert_eq!(parse_rows(dir.path(), "w_iops.1.log"), iops, "iops windows of {window} ms");
        assert!(rows(dir.path(), "w_clat.1.log").iter().all(|r| r.len() == 5 && r[3] == "0"));
    }
}

#[test]
fn ramp_time_ios_are_not_logged() {
    let dir = tempdir();
    let args = null_job(&[
        "--time_based",
        "--runtime=20ms",
        "--ramp_time=10ms",
        "--write_lat_log=r",
        "--write_hist_log=r",
        "--log_hist_msec=5",
    ]);
    let report = json(&iomark_ok(dir.path(), &args, true));
    let ios = total_ios(&report);
    let clat = parse_rows(dir.path(), "r_clat.1.log");
    assert_eq!(clat.len() as u64, ios[0] + ios[1]);
    // Times count from the end of the ramp.
    assert_eq!(clat.first().map(|r| r.time), Some(0));
    assert!(clat.last().is_some_and(|r| r.time <= 20));
    // Dense I/O closes a histogram window at each multiple of 5 ms.
    let hist = rows(dir.path(), "r_clat_hist.1.log");
    let last = clat.last().map_or(0, |r| r.time);
    assert_eq!(hist.len() as u64, 2 * (last / 5), "two directions, a row each per window");
}

#[test]
fn reported_percentiles_are_within_the_histogram_bound_of_the_logged_latencies() {
    let dir = tempdir();
    let data = dir.path().join("data");
    let file = format!("--filename={}", data.display());
    let args = [
        "--output-format=json",
        "--name=p",
        "--ioengine=psync",
        file.as_str(),
        "--size=8m",
        "--bs=4k",
        "--rw=randread",
        "--number_ios=4000",
        "--write_lat_log=p",
        "--percentile_list=1:10:25:50:75:90:99:99.9:100",
    ];
    let report = json(&iomark_ok(dir.path(), &args, false));
    let mut clat: Vec<u64> =
        parse_rows(dir.path(), "p_clat.1.log").iter().map(|r| r.value).collect();
    assert_eq!(clat.len(), 2048, "8 MiB of 4 KiB reads, each block once");
    clat.sort_unstable();
    let n = clat.len() as u64;
    let reported = report["jobs"][0]["read"]["clat_ns"]["percentile"]
        .as_object()
        .expect("clat percentiles")
        .clone();
    assert_eq!(reported.len(), 9);
    for (p, value) in reported {
        let p: f64 = p.parse().expect("percentile");
        let got = value.as_u64().expect("value");
        // fio's rank (and iomark's): the smallest value whose rank reaches p% of N, the
        // log holding each latency exactly, in ns (fio 3.33's unit for latency logs).
        let rank = ((p / 100.0 * n as f64).ceil() as u64).clamp(1, n);
        let exact = clat[rank as usize - 1];
        // hist.rs: |reported − exact| ≤ exact / 1024, and exact below 1024 ns.
        let bound = exact as f64 / 1024.0;
        assert!(
            (got as f64 - exact as f64).abs() <= bound,
            "p{p}: reported {got}, exact {exact} (rank {rank} of {n})"
        );
    }
}
