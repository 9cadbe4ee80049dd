//! The sync statistics, compared with fio 3.33: which syncs count, and where.

use crate::support::report::report_json;
use crate::support::run::{run_in, tempdir};
use crate::support::tools::programs;

/// `(sync.total_ios, sync.lat_ns.N, write.total_ios)` of a 64 KiB sequential write with
/// `extra`, for each program.
fn syncs(extra: &[&str]) -> Vec<(String, [u64; 3])> {
    programs()
        .into_iter()
        .map(|program| {
            let dir = tempdir();
            let mut args = vec!["--name=j", "--filename=f", "--size=64k", "--bs=4k", "--rw=write"];
            args.extend_from_slice(extra);
            args.push("--output-format=json");
            let out = run_in(dir.path(), program, &args);
            assert_eq!(out.status.code(), Some(0), "{program} {extra:?}");
            let job = &report_json(program, &out)["jobs"][0];
            let n = |v: &serde_json::Value| v.as_u64().unwrap_or(u64::MAX);
            let got = [
                n(&job["sync"]["total_ios"]),
                n(&job["sync"]["lat_ns"]["N"]),
                n(&job["write"]["total_ios"]),
            ];
            (program.to_string(), got)
        })
        .collect()
}

#[test]
fn syncs_count_as_in_fio() {
    // fsync=4: a sync after every 4th write but the last; fdatasync=4 the same, counted
    // in the latency and not in the syncs issued; end_fsync and fsync_on_close not at all.
    for (extra, want) in [
        (&["--fsync=4"][..], [3, 3, 16]),
        (&["--fdatasync=4"][..], [0, 3, 16]),
        (&["--end_fsync=1"][..], [0, 0, 16]),
        (&["--fsync_on_close=1"][..], [0, 0, 16]),
        (&["--fsync=4", "--end_fsync=1"][..], [3, 3, 16]),
    ] {
        for (program, got) in syncs(extra) {
            assert_eq!(got, want, "{program} {extra:?}");
        }
    }
}
