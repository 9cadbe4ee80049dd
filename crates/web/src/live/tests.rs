//! Tests of the live server over loopback: what it answers, read-only, and the handover
//! to the final report.

use super::*;
use iomark_stats::interval::{DirInterval, IntervalLat, JobInterval};
use std::io::{Read, Write};
use std::net::TcpStream;

fn request(addr: SocketAddr, head: &str) -> (String, String) {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.write_all(head.as_bytes()).expect("send");
    let mut text = String::new();
    s.read_to_string(&mut text).expect("read");
    let (head, body) = text.split_once("\r\n\r\n").expect("a head and a body");
    (head.lines().next().unwrap_or("").to_string(), body.to_string())
}

fn get(addr: SocketAddr, path: &str) -> (String, String) {
    request(addr, &format!("GET {path} HTTP/1.1\r\nHost: x\r\n\r\n"))
}

fn event(t_ms: u64, iops: f64) -> IntervalEvent {
    let dir = DirInterval {
        ios: 10,
        bytes: 40960,
        iops,
        bw_bytes: 4096 * iops as u64,
        lat: Some(IntervalLat {
            kind: "clat".into(),
            n: 10,
            mean: 1000.0,
            min: 900,
            max: 1100,
            percentiles: vec![(50.0, 1000), (99.0, 1100), (100.0, 1100)],
        }),
    };
    let job = JobInterval {
        name: "j".into(),
        groupid: 0,
        measured: true,
        dirs: [dir, Default::default(), Default::default()],
    };
    IntervalEvent {
        t_ms,
        dt_ms: 500,
        eta_s: Some(3),
        states: vec!["running".into()],
        total: JobInterval { name: "all".into(), ..job.clone() },
        jobs: vec![job],
    }
}

#[test]
fn the_server_answers_the_page_and_its_figures_and_refuses_writes() {
    let live = Live::start(address("").expect("default"), "t<1>").expect("start");
    assert!(live.url().starts_with("http://127.0.0.1:"));
    let addr = live.addr;
    let (status, page) = get(addr, "/");
    assert_eq!(status, "HTTP/1.1 200 OK");
    assert!(page.contains("iomark live: t&lt;1&gt;") && page.contains("live.json"));
    let (_, figures) = get(addr, "/live.json");
    let v: serde_json::Value = serde_json::from_str(&figures).expect("JSON");
    assert_eq!((v["seq"].as_u64(), v["done"].as_bool()), (Some(0), Some(false)));
    let report = super::state::tests_report();
    live.update(&event(500, 100.0), &report);
    live.update(&event(1000, 250.0), &report);
    let v: serde_json::Value = serde_json::from_str(&get(addr, "/live.json").1).expect("JSON");
    assert_eq!(v["seq"], 2);
    assert_eq!(v["jobs"][0]["dirs"][0]["iops"], 250.0);
    assert!(v["charts"].as_array().is_some_and(|c| !c.is_empty()));
    assert_eq!(get(addr, "/report.html").0, "HTTP/1.1 404 Not Found");
    assert_eq!(get(addr, "/../etc/passwd").0, "HTTP/1.1 404 Not Found");
    let (status, _) = request(addr, "POST /live.json HTTP/1.1\r\nContent-Length: 0\r\n\r\n");
    assert_eq!(status, "HTTP/1.1 405 Method Not Allowed");
}

#[test]
fn a_polling_page_gets_the_final_report_before_the_server_stops() {
    let live = Live::start(address("127.0.0.1").expect("addr"), "t").expect("start");
    let addr = live.addr;
    let _ = get(addr, "/live.json");
    let fetcher = std::thread::spawn(move || {
        // Poll as the page does until the run is over, then load the report.
        for _ in 0..1_000_000 {
            let v: serde_json::Value =
                serde_json::from_str(&get(addr, "/live.json").1).expect("JSON");
            if v["done"] == true {
                return get(addr, "/report.html");
            }
            std::thread::yield_now();
        }
        panic!("the run never ended");
    });
    live.finish("<html>final</html>".into());
    let (status, body) = fetcher.join().expect("fetcher");
    assert_eq!((status.as_str(), body.as_str()), ("HTTP/1.1 200 OK", "<html>final</html>"));
    assert!(TcpStream::connect(addr).is_err(), "stopped");
}

#[test]
fn addresses_are_read_as_documented() {
    assert_eq!(address("8080").unwrap(), "127.0.0.1:8080".parse().unwrap());
    assert_eq!(address("0.0.0.0").unwrap(), "0.0.0.0:0".parse().unwrap());
    assert_eq!(address("[::1]:9").unwrap(), "[::1]:9".parse().unwrap());
    assert!(matches!(address("no such:host:1"), Err(LiveError::Address(_))));
}
