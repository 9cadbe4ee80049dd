//! Steady state (`ss`, `ss_dur`, `ss_ramp`): a flat job ends early, exactly when the
//! fake clock says, and its report's object has fio 3.33's shape.

use super::{fio_job, job_json, NULL_READS};
use crate::support::report::count;
use crate::support::run::{iomark_in, tempdir, text};
use crate::support::tools::fio_installed;
use serde_json::Value;

#[test]
fn steady_state_ends_a_flat_job_early() {
    let dir = tempdir();
    // The null engine under the fake clock runs at a perfectly flat rate: three one-second
    // samples in, the slope is 0 and the job ends long before its 60 s.
    let args =
        [&NULL_READS[..], &["--time_based", "--runtime=60", "--ss=iops_slope:0.1%", "--ss_dur=3"]]
            .concat();
    let job = job_json(dir.path(), &args, true, 0);
    assert_eq!(count(&job, "read", "runtime"), 3000);
    let ss = &job["steadystate"];
    assert_eq!(ss["ss"], "iops_slope:0.100000%");
    assert_eq!((ss["attained"].as_u64(), ss["duration"].as_u64()), (Some(1), Some(3)));
    let iops: Vec<u64> =
        ss["data"]["iops"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect();
    assert_eq!(iops.len(), 3);
    assert!(iops.windows(2).all(|w| w[0].abs_diff(w[1]) <= 1), "{iops:?}");
    assert_eq!(job["eta"], 0, "fio 3.33 reports eta 0 under steady state");
    // ss_ramp leaves out the first two seconds.
    let args = [&args[..], &["--ss_ramp=2"]].concat();
    assert_eq!(count(&job_json(dir.path(), &args, true, 0), "read", "runtime"), 5000);
    // The normal report's line.
    let args = [
        &NULL_READS[..],
        &["--time_based", "--runtime=60", "--ss=iops:2", "--ss_dur=2", "--rate_iops=2000"],
    ]
    .concat();
    let out = iomark_in(dir.path(), &args, true);
    let report = text(&out.stdout);
    assert!(
        report.contains("  steadystate  : attained=yes, bw=8001KiB/s (8001kB/s), iops=2000, iops mean dev=0.000\n"),
        "{report}"
    );
}

#[test]
fn steady_state_not_reached_reports_the_samples_it_has() {
    let dir = tempdir();
    let args = [
        &NULL_READS[..],
        &["--time_based", "--runtime=3", "--ss=bw:0.5%", "--ss_dur=5", "--rate=4m"],
    ]
    .concat();
    let job = job_json(dir.path(), &args, true, 0);
    assert_eq!(count(&job, "read", "runtime"), 3000);
    let ss = &job["steadystate"];
    assert_eq!(ss["attained"], 0);
    assert_eq!(ss["criterion"], "0.000000%");
    let bw = ss["data"]["bw"].as_array().unwrap();
    assert_eq!(bw.len(), 5);
    assert_eq!(&bw[3..], &[Value::from(0), Value::from(0)]);
    // A bad criterion is refused before the run.
    let args = [&NULL_READS[..], &["--ss=lat:5", "--ss_dur=5"]].concat();
    let out = iomark_in(dir.path(), &args, true);
    assert_eq!(out.status.code(), Some(2));
    // (The option named as written, the alias `ss`.)
    assert!(text(&out.stderr).contains("option 'ss': invalid value 'lat:5'"));
}

#[test]
fn steady_state_object_matches_fios() {
    // Under the fake clock a job at 2000 IOPS is flat from its first second: two samples
    // in, it has attained steady state and ends at 2 s of its 10. fio 3.33 ends about as
    // early on its real clock; when and whether a real run settles is the machine's
    // (`bench/run --checks` prints both tools' figures), so the test compares the
    // object's shape and the settings it echoes.
    let dir = tempdir();
    let args = [
        &NULL_READS[..],
        &["--time_based", "--runtime=10", "--rate_iops=2000", "--ss=iops:50%", "--ss_dur=2"],
    ]
    .concat();
    let ours = job_json(dir.path(), &args, true, 0);
    assert_eq!(ours["steadystate"]["attained"], 1);
    assert_eq!(ours["steadystate"]["data"]["iops"], serde_json::json!([2000, 2000]));
    assert_eq!(count(&ours, "read", "runtime"), 2000);
    if !fio_installed() {
        return;
    }
    let fio = fio_job(dir.path(), &args);
    let keys = |v: &Value| -> Vec<String> {
        let mut k = Vec::new();
        for (key, value) in v.as_object().unwrap() {
            k.push(key.clone());
            if let Some(o) = value.as_object() {
                k.extend(o.keys().map(|sub| format!("{key}.{sub}")));
            }
        }
        k
    };
    assert_eq!(keys(&ours["steadystate"]), keys(&fio["steadystate"]));
    for key in ["ss", "duration"] {
        assert_eq!(ours["steadystate"][key], fio["steadystate"][key], "{key}");
    }
}
