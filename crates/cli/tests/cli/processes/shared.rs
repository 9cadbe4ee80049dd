//! What a job process shares with the rest of its run while it runs: interim reports
//! (`--status-interval`, SIGUSR1) and the live progress through its parent, file locks
//! (`lockfile`) and flows (`flow`) through memory shared with the other jobs.

use super::start_long_job;
use crate::support::process::Gate;
use crate::support::report::documents;
use crate::support::run::tempdir;
use serde_json::Value;

/// The reads of job `job` in report `doc`.
fn reads(doc: &Value, job: usize) -> u64 {
    doc["jobs"][job]["read"]["total_ios"].as_u64().expect("total_ios")
}

/// `--status-interval`: the interim reports show a job process's I/O as it runs (its
/// parent asks it for its recording so far), cumulative, then the final report.
#[test]
fn interim_reports_show_a_job_process_as_it_runs() {
    let dir = tempdir();
    let Some(mut gate) = Gate::new(dir.path()) else { return };
    let Some(mut run) = start_long_job(dir.path(), &gate, &["--status-interval=100ms"]) else {
        return;
    };
    // An interim report in which the job process has done I/O.
    let seen =
        run.stdout.wait_for(|out| documents(out).iter().map(|d| reads(d, 0)).find(|&n| n > 0));
    seen.unwrap_or_else(|| panic!("no interim report with I/O: {}", run.stderr.text()));
    gate.open();
    let status = run.wait();
    assert_eq!(status.code(), Some(0), "stderr: {}", run.stderr.text());
    assert_eq!(run.stderr.text(), "");
    let docs = documents(&run.stdout.bytes());
    assert!(docs.len() >= 2, "interim reports, then the final one");
    let ios: Vec<u64> = docs.iter().map(|d| reads(d, 0)).collect();
    assert!(ios.windows(2).all(|w| w[0] <= w[1]), "cumulative since the start: {ios:?}");
    let last = docs.last().expect("the final report");
    assert_eq!(last["jobs"][0]["error"], 0);
    assert_eq!(reads(last, 1), 1, "the gate's read is in the final report");
}

/// SIGUSR1 asks the parent for a report: the job process answers with what it did so far.
#[test]
fn sigusr1_reports_a_job_process_as_it_runs() {
    let dir = tempdir();
    let Some(mut gate) = Gate::new(dir.path()) else { return };
    // Up, its parent's signal handling is in place.
    let Some(mut run) = start_long_job(dir.path(), &gate, &[]) else { return };
    // Asks again until a report shows the job process's I/O (it may not have begun yet).
    let mut asked = 0;
    let seen = loop {
        asked += 1;
        assert!(asked <= 100, "no interim report with I/O: {}", run.stderr.text());
        assert!(run.signal("USR1"));
        let doc = run.stdout.wait_for(|out| documents(out).into_iter().nth(asked - 1));
        let doc = doc.unwrap_or_else(|| panic!("no interim report: {}", run.stderr.text()));
        if reads(&doc, 0) > 0 {
            break reads(&doc, 0);
        }
    };
    gate.open();
    let status = run.wait();
    assert_eq!(status.code(), Some(0), "stderr: {}", run.stderr.text());
    let docs = documents(&run.stdout.bytes());
    assert_eq!(docs.len(), asked + 1, "the interim reports, then the final one");
    assert!(reads(&docs[asked], 0) >= seen, "the final report counts everything");
}
