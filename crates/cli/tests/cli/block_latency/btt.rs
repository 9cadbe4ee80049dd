//! The split against `btt` (Debian's blktrace package) on the same run: blktrace records
//! the loop device while iomark reads it, and btt's D2C and Q2C means agree with iomark's
//! device and queue + device means within 5%.

use super::{mean, n, run_traced, traced};
use crate::support::blktrace::{Recording, TRACING};
use crate::support::run::command;
use crate::support::tools::have;

/// btt's mean (in ns) on the line of `what` (`D2C`, `Q2C`) of its "All Devices" table.
fn btt_mean(report: &str, what: &str) -> Option<f64> {
    let all = &report[report.find("All Devices")?..];
    let line = all.lines().find(|l| l.split_whitespace().next() == Some(what))?;
    let avg: f64 = line.split_whitespace().nth(2)?.parse().ok()?;
    Some(avg * 1e9)
}

#[test]
fn btt_agrees_on_device_time_and_queue_to_completion() {
    let _one = TRACING.lock().unwrap_or_else(|e| e.into_inner());
    if !have("btt", &["--version"]) {
        return;
    }
    let Some(mut rec) = Recording::start(16 << 20) else { return };
    let file = format!("--filename={}", rec.disk.dev);
    let args =
        [&file, "--direct=1", "--rw=randread", "--bs=4k", "--ioengine=psync", "--number_ios=2000"];
    let report = run_traced(rec.dir.path(), &args);
    rec.finish();
    let Some(b) = traced(&report) else { return };
    let dir = &rec.dir;
    let btt =
        command("btt").args(["-i", "trace.bin"]).current_dir(dir.path()).output().expect("btt");
    let text = String::from_utf8_lossy(&btt.stdout);
    let d2c = btt_mean(&text, "D2C").unwrap_or_else(|| panic!("no D2C in btt's report:\n{text}"));
    let q2c = btt_mean(&text, "Q2C").unwrap_or_else(|| panic!("no Q2C in btt's report:\n{text}"));
    assert!(n(&b, "matched") > 0, "{b}");
    let device = mean(&b, "read", "device_ns");
    let queue = mean(&b, "read", "queue_ns");
    let near = |a: f64, b: f64| (a - b).abs() <= 0.05 * b;
    assert!(near(device, d2c), "device {device:.0} ns, btt's D2C {d2c:.0} ns");
    assert!(
        near(queue + device, q2c),
        "queue + device {:.0} ns, btt's Q2C {q2c:.0} ns",
        queue + device
    );
}

#[test]
fn btt_means_are_read_from_its_all_devices_table() {
    let report = "==================== All Devices ====================\n\n\
        \x20           ALL           MIN           AVG           MAX           N\n\
        --------------- ------------- ------------- ------------- -----------\n\n\
        Q2Q               0.000005603   0.000013418   0.002108133       29999\n\
        D2C               0.000004460   0.000006484   0.000099815       30000\n\
        Q2C               0.000007104   0.000009528   0.002142054       30000\n";
    assert_eq!(btt_mean(report, "D2C").map(|v| v.round()), Some(6484.0));
    assert_eq!(btt_mean(report, "Q2C").map(|v| v.round()), Some(9528.0));
    assert_eq!(btt_mean(report, "G2I"), None);
}
