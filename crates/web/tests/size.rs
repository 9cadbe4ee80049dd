//! The HTML report stays small whatever the run's size: millions of I/Os in a per-I/O
//! trace and hours of intervals still make a page under 5 MB, with the extremes drawn.

use iomark_stats::interval::{DirInterval, IntervalEvent, IntervalLat, JobInterval};
use iomark_web::input::empty_report;
use iomark_web::model::{IoTrace, Page, Run, TracedIo};

#[test]
fn millions_of_ios_make_a_page_under_5_mb_with_the_outlier_drawn() {
    let mut report = empty_report();
    let doc = serde_json::json!({"jobs": [{"jobname": "big", "write": {"total_ios": 3_000_000, "io_bytes": 1_536_000_000u64, "runtime": 1000}}]});
    report.jobs = iomark_web::input::fio_json::report(&doc).jobs;
    let mut run = Run::new("big", report);
    let n = 3_000_000u64;
    let ios = (0..n)
        .map(|i| {
            // One I/O waits 0.5 s; the others take 20 µs.
            let lat = if i == 1_234_567 { 500_000_000 } else { 20_000 };
            TracedIo { submit_ns: i * 1000, complete_ns: i * 1000 + lat, dir: 1, offset: i * 512 }
        })
        .collect();
    run.traces.push(IoTrace { job: "big".into(), ios, resolution_ns: 1 });
    for k in 1..=14_400u64 {
        let lat = IntervalLat {
            kind: "clat".into(),
            n: 100,
            mean: 20_000.0,
            min: 10_000,
            max: 30_000 + k,
            percentiles: vec![(50.0, 20_000), (99.0, 25_000), (99.9, 28_000), (100.0, 30_000 + k)],
        };
        let dir =
            DirInterval { ios: 100, bytes: 51_200, iops: 200.0, bw_bytes: 102_400, lat: Some(lat) };
        let job = JobInterval {
            name: "big".into(),
            groupid: 0,
            measured: true,
            dirs: [Default::default(), dir, Default::default()],
        };
        let e = IntervalEvent {
            t_ms: k * 500,
            dt_ms: 500,
            eta_s: None,
            states: vec![],
            total: JobInterval { name: "all".into(), ..job.clone() },
            jobs: vec![job],
        };
        run.add_interval(&e);
    }
    let html = iomark_web::html::page(&Page { title: "big".into(), runs: vec![run] });
    assert!(html.len() < 5 << 20, "{} bytes", html.len());
    // The outlier's latency point (0.5 s) is drawn: the latency chart's axis reaches it.
    let latency = html.split("id=\"job0-run0-io-latency\"").nth(1).expect("the latency chart");
    assert!(
        latency.split("</svg>").next().unwrap_or("").contains(">500ms<"),
        "the 0.5 s outlier is on the axis"
    );
}
