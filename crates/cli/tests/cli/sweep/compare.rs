//! `iomark compare` end to end: option sets run in rounds, and rounds read from JSON files.

use crate::support::run::{iomark_in, iomark_ok, tempdir, text};

#[test]
fn compare_runs_option_sets_in_rounds() {
    let dir = tempdir();
    let out = iomark_in(
        dir.path(),
        &[
            "compare",
            "--rounds=2",
            "--json=c.json",
            "ioengine=null iodepth=1",
            "--ioengine=null --iodepth=4",
            "--",
            "--rw=randread",
            "--size=1m",
            "--time_based=0",
        ],
        true,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.starts_with("A: ioengine=null iodepth=1 (2 rounds)\n"), "{stdout}");
    // The fake clock gives both the same IOPS and the deeper queue a longer latency.
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("c.json")).unwrap()).unwrap();
    assert!(doc.get("iomark notes").is_none(), "{doc}");
    let find = |figure: &str| {
        doc["rows"].as_array().unwrap().iter().find(|r| r["figure"] == figure).unwrap().clone()
    };
    assert_eq!(find("IOPS")["verdict"], "no_significant_difference");
    assert_eq!(find("lat mean us")["verdict"], "slower");
    assert_eq!(find("IOPS")["a"]["n"], 2);
}

#[test]
fn compare_reads_rounds_from_json_files() {
    let dir = tempdir();
    for (file, bs) in [("a.json", "4k"), ("b.json", "8k")] {
        let mut all = String::new();
        for _ in 0..3 {
            let bs = format!("--bs={bs}");
            let out = iomark_ok(
                dir.path(),
                &[
                    "--name=j",
                    "--ioengine=null",
                    "--rw=read",
                    &bs,
                    "--size=1m",
                    "--output-format=json",
                ],
                true,
            );
            all.push_str(&text(&out.stdout));
        }
        std::fs::write(dir.path().join(file), all).unwrap();
    }
    let out = iomark_ok(dir.path(), &["compare", "a.json", "b.json"], false);
    let stdout = text(&out.stdout);
    assert!(stdout.contains("A: a.json (3 rounds)"), "{stdout}");
    assert!(
        stdout.lines().any(|l| l.starts_with("j read IOPS") && l.ends_with("B slower")),
        "{stdout}"
    );
    // fio's JSON (and iomark's) has the completion latency's percentiles unless asked for
    // the total latency's: only the first is compared.
    assert!(stdout.lines().any(|l| l.starts_with("j read clat p99 us ")), "{stdout}");
    assert!(!stdout.contains("j read lat p99 us"), "{stdout}");
    let out = iomark_in(dir.path(), &["compare", "a.json"], false);
    assert_eq!(out.status.code(), Some(2));
}
