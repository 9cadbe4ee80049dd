//! The same jobs under fio 3.33 and iomark leave logs of the same names, rows and
//! columns.

use super::{both, Shape, THREE_JOBS};

#[test]
fn per_io_logs_match_fio_in_names_rows_and_columns() {
    let Some([theirs, ours]) = both(THREE_JOBS, true) else { return };
    assert_eq!(ours, theirs);
    let shared = format!("[global]\nper_job_logs=0\nlog_offset=1\n{}", &THREE_JOBS[9..]);
    let Some([theirs, ours]) = both(&shared, true) else { return };
    assert_eq!(ours, theirs);
    let prio = format!("[global]\nlog_prio=1\n{}", &THREE_JOBS[9..]);
    let Some([theirs, ours]) = both(&prio, true) else { return };
    assert_eq!(ours, theirs);
}

#[test]
fn windowed_and_histogram_logs_match_fio_in_names_and_columns() {
    let job = "[global]
ioengine=null
size=1g
bs=4k
time_based
runtime=450ms
write_lat_log=w
write_bw_log=w
write_iops_log=w
write_hist_log=w
log_avg_msec=100
log_hist_msec=100
[r]
rw=randread
[m]
rw=randrw
log_hist_coarseness=3
";
    // iomark under the fake clock: its windows are exact; fio's 450 ms of real time hold
    // four windows of 100 ms whatever the machine.
    let Some([theirs, ours]) = both(job, true) else { return };
    let names = |m: &Shape| m.keys().cloned().collect::<Vec<_>>();
    assert_eq!(names(&ours), names(&theirs));
    for (name, (rows, columns)) in &theirs {
        let (our_rows, our_columns) = &ours[name];
        assert_eq!(our_columns, columns, "{name}: columns");
        // Row counts depend on fio's timing: both have rows, or both none (the slat logs).
        assert_eq!(*our_rows == 0, *rows == 0, "{name}: {our_rows} rows, fio {rows}");
    }
}
