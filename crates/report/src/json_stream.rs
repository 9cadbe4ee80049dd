//! `--output-format=json-stream`: one JSON object per line, each of which parses on its own.
//!
//! While the jobs run, a line per event ([`iomark_stats::interval::RunEvent`]): a job's
//! `start` and `end`, and every interval its `interval` figures (that interval's alone, not
//! cumulative), each object with an `"event"` key. The last line is the final report:
//! fio's JSON document ([`crate::json`]) on one line, so that a reader of fio's JSON reads
//! it unchanged. fio's `--status-interval` with JSON prints whole cumulative documents one
//! after the other, which is not one valid JSON text (fio issues #130 and #672); this
//! stream is what a dashboard or a log shipper can follow line by line.

use iomark_stats::interval::RunEvent;
use iomark_stats::report::RunReport;

/// One event's line, with its newline.
pub fn event_line(event: &RunEvent) -> String {
    // The event types hold only strings, numbers and lists: serializing cannot fail.
    let mut line = serde_json::to_string(event).unwrap_or_default();
    line.push('\n');
    line
}

/// The final report's line (fio's JSON document on one line, with `bins` for json+), with
/// its newline.
pub fn report_line(report: &RunReport, plus: bool) -> String {
    crate::json::json_line(report, plus)
}

#[cfg(test)]
mod tests {
    use super::*;
    use iomark_stats::interval::{IntervalEvent, JobEvent, JobInterval};
    use iomark_stats::reduce::{job_report, JobMeta, JobTimes, PercentileList};
    use iomark_stats::{JobRecorder, RecorderConfig};

    fn report() -> RunReport {
        let rec = JobRecorder::new(RecorderConfig::default(), 0).expect("recorder");
        let meta = JobMeta { name: "a \"job\"\nwith\ta newline".into(), ..Default::default() };
        let job = job_report(&rec, meta, &JobTimes::default(), &PercentileList::default());
        RunReport {
            version: 1,
            iomark_version: "0.1.0".into(),
            fio_compat: "fio-3.33".into(),
            timestamp: 1,
            timestamp_ms: 1000,
            time: "Thu Jan  1 00:00:01 1970".into(),
            global_options: vec![("rw".into(), "read".into())],
            jobs: vec![job],
            groups: Vec::new(),
            disks: Vec::new(),
            notes: Default::default(),
            ranks: Vec::new(),
            clients: Vec::new(),
            cpu_idleness: None,
            act: None,
        }
    }

    #[test]
    fn the_report_line_is_fios_document_on_one_line() {
        let r = report();
        let line = report_line(&r, true);
        assert_eq!(line.matches('\n').count(), 1);
        assert!(line.ends_with('\n'));
        let one: serde_json::Value = serde_json::from_str(&line).expect("one line parses");
        // The same values as the indented document (whose strings fio does not escape, so
        // compare a job name without control characters).
        let mut plain = r.clone();
        plain.jobs[0].name = "plain".into();
        let a: serde_json::Value =
            serde_json::from_str(&report_line(&plain, true)).expect("parses");
        let b: serde_json::Value = serde_json::from_str(&crate::json_plus(&plain)).expect("parses");
        assert_eq!(a, b);
        assert_eq!(one["jobs"][0]["jobname"], "a \"job\"\nwith\ta newline");
    }

    #[test]
    fn event_lines_carry_their_kind() {
        let start = RunEvent::Start(JobEvent { t_ms: 5, job: "j".into(), index: 0 });
        let line = event_line(&start);
        let v: serde_json::Value = serde_json::from_str(&line).expect("parses");
        assert_eq!((v["event"].as_str(), v["t_ms"].as_u64()), (Some("start"), Some(5)));
        let interval = RunEvent::Interval(Box::new(IntervalEvent {
            t_ms: 500,
            dt_ms: 500,
            eta_s: None,
            states: vec!["running".into()],
            jobs: vec![JobInterval::default()],
            total: JobInterval::default(),
        }));
        let v: serde_json::Value = serde_json::from_str(&event_line(&interval)).expect("parses");
        assert_eq!(v["event"], "interval");
        assert_eq!(v["jobs"][0]["dirs"][0]["ios"], 0);
    }
}
