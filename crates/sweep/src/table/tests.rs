//! The document's series and fits, the table and the CSV, on runs made up from known
//! parameters.

use super::*;
use crate::doc::{Mode, PointRun};
use crate::grid::{Axis, Grid};
use crate::measure::Metrics;

/// A sweep of two engines over depth 1..128, IOPS from the queue model (exact for libaio,
/// flat for sync), each point run `repeat` times with a small made-up spread.
fn doc(repeat: u32) -> SweepDoc {
    let grid = Grid::new(vec![
        Axis::parse("iodepth", "1..128").unwrap(),
        Axis::parse("ioengine", "libaio,sync").unwrap(),
    ])
    .unwrap();
    let mut doc = SweepDoc::new(Mode::Grid, grid.clone(), repeat, "0.1.0");
    for point in grid.points() {
        let n: f64 = point.get("iodepth").unwrap().parse().unwrap();
        let sync = point.get("ioengine") == Some("sync");
        let (ti, td, tm) = if sync { (50.0, 0.0, 0.0) } else { (4.0, 90.0, 0.02) };
        for r in 1..=repeat {
            let jitter = 1.0 + 0.001 * (f64::from(r) - 1.5);
            let iops = 1e6 * n / (n * ti + td + n * (n - 1.0) / 2.0 * tm) * jitter;
            let depth = n;
            let lat = if sync { 1e9 / iops } else { depth * 1e9 / iops };
            let metrics = Metrics {
                iops,
                bw_bytes: iops * 4096.0,
                ios: (iops * 5.0) as u64,
                lat_mean_ns: lat,
                lat_p50_ns: Some(lat as u64),
                lat_p99_ns: Some((lat * 2.0) as u64),
                lat_p999_ns: Some((lat * 3.0) as u64),
                cpu_ns_per_io: 2000.0,
                syscalls_per_io: Some(if sync { 1.0 } else { 2.0 / n.min(8.0) }),
                ctx_per_io: 0.5,
                little: iops * lat * 1e-9 / depth,
                iops_sample_sd: None,
                iops_samples: 0,
            };
            doc.runs.push(PointRun {
                point: point.clone(),
                repeat: r,
                fraction: None,
                rate_iops: None,
                depth,
                metrics,
                report: serde_json::json!({}),
            });
        }
    }
    doc.analyse();
    doc
}

#[test]
fn series_are_fitted_per_engine() {
    let d = doc(2);
    assert_eq!(d.series.len(), 2);
    let aio = &d.series[0];
    assert_eq!((aio.label.as_str(), aio.x.as_str()), ("ioengine=libaio", "iodepth"));
    assert_eq!(aio.points.len(), 8);
    let fit = aio.fit.as_ref().unwrap();
    assert!(fit.fits() && fit.weighted, "{fit:?}");
    for (p, want) in fit.params.iter().zip([4.0, 90.0, 0.02]) {
        assert!(p.lo <= want && want <= p.hi, "{p:?}");
    }
    assert_eq!(aio.knee, Some(64.0));
    let sync = &d.series[1];
    assert!(sync.fit.as_ref().unwrap().fits());
    // Flat IOPS at a flat latency: no depth costs latency, so no knee.
    assert_eq!(sync.knee, None);
}

#[test]
fn the_table_has_a_line_per_run() {
    let d = doc(1);
    let t = Table::new(label_width(&d));
    assert_eq!(
        t.header(),
        "point                       run       IOPS      MB/s    lat us    p50 us    p99 us  p99.9 us cpu us/io calls/io  ctx/io little"
    );
    assert_eq!(
        t.row(&d.runs[0]),
        "ioengine=libaio iodepth=1     1      10633      43.6      94.0      94.0     188.1     282.1      2.00     2.00   0.500   1.00"
    );
    let text = summary(&d);
    assert!(text.starts_with("ioengine=libaio: queue model (seed 003) over iodepth, 8 points, unweighted\n  Tissue 4.002 us ["), "{text}");
    assert!(text.contains(
        "knee at iodepth 64: the next depth buys less than 5% more IOPS while latency grows"
    ));
}

#[test]
fn a_model_that_does_not_fit_prints_no_parameter() {
    let mut d = doc(1);
    // Scramble libaio's IOPS so that no queue explains them.
    for (i, run) in
        d.runs.iter_mut().filter(|r| r.point.get("ioengine") == Some("libaio")).enumerate()
    {
        run.metrics.iops = if i % 2 == 0 { 1e4 } else { 5e4 };
    }
    d.analyse();
    let text = summary(&d);
    let first: Vec<&str> = text.lines().take(3).collect();
    assert!(first[1].starts_with("  the model does not fit: R² = "), "{text}");
    assert!(!first[1].contains("Tissue"));
}

#[test]
fn the_csv_has_the_options_then_the_figures() {
    let d = doc(1);
    let csv = csv(&d);
    let mut lines = csv.lines();
    assert_eq!(
        lines.next().unwrap(),
        "ioengine,iodepth,repeat,fraction,rate_iops,depth,iops,bw_bytes,ios,lat_mean_ns,lat_p50_ns,lat_p99_ns,lat_p999_ns,cpu_ns_per_io,syscalls_per_io,ctx_per_io,little"
    );
    let first = lines.next().unwrap();
    assert!(first.starts_with("libaio,1,1,,,1,10632.979,43552681,53164,94047.0,94047,188094,282141,2000.0,2.0000,0.5000,1.0000"), "{first}");
    assert_eq!(csv.lines().count(), 17);
}

#[test]
fn the_document_round_trips_through_json() {
    let d = doc(1);
    let text = serde_json::to_string(&d).unwrap();
    let back: SweepDoc = serde_json::from_str(&text).unwrap();
    assert_eq!((back.runs.len(), back.series.len()), (d.runs.len(), d.series.len()));
    assert_eq!(back.series[0].fit.as_ref().unwrap().verdict, crate::fit::Verdict::Fits);
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["iomark sweep"], 1);
    assert_eq!(v["series"][0]["fit"]["verdict"], "fits");
    assert_eq!(v["series"][0]["fit"]["params"][0]["name"], "Tissue");
}
