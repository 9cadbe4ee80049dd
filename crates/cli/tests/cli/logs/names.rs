//! Log names, sharing and errors: files named by job number and option value, shared
//! logs with `per_job_logs=0`, bad log options refused, and the time stamps of
//! `log_unix_epoch` and `log_alternate_epoch`.

use super::{fio_ok, logs_in, null_job, parse_rows, rows, THREE_JOBS};
use crate::support::run::{iomark_in, iomark_ok, tempdir, text};
use crate::support::tools::fio_installed;

#[test]
fn logs_are_named_by_job_number_and_option_value() {
    let dir = tempdir();
    std::fs::write(dir.path().join("j.fio"), THREE_JOBS).expect("job file");
    iomark_ok(dir.path(), &["--output=/dev/null", "j.fio"], true);
    let mut expected: Vec<String> = Vec::new();
    for (job, n) in [("a", 1), ("a", 2), ("b", 3)] {
        expected.extend(["bw", "iops"].map(|k| format!("{job}_{k}.{n}.log")));
        expected.extend(["clat", "lat", "slat"].map(|k| format!("foo_{k}.{n}.log")));
    }
    expected.sort();
    assert_eq!(logs_in(dir.path()), expected);
    for n in 1..=3 {
        assert_eq!(rows(dir.path(), &format!("foo_clat.{n}.log")).len(), 40);
    }
}

#[test]
fn per_job_logs_0_shares_one_file_and_appends() {
    let dir = tempdir();
    let job = format!("[global]\nper_job_logs=0\n{}", &THREE_JOBS["[global]\n".len()..]);
    std::fs::write(dir.path().join("j.fio"), job).expect("job file");
    iomark_ok(dir.path(), &["--output=/dev/null", "j.fio"], true);
    let expected = ["a_bw.log", "a_iops.log", "b_bw.log", "b_iops.log"]
        .into_iter()
        .chain(["foo_clat.log", "foo_lat.log", "foo_slat.log"])
        .map(str::to_string)
        .collect::<Vec<_>>();
    assert_eq!(logs_in(dir.path()), expected);
    assert_eq!(rows(dir.path(), "foo_clat.log").len(), 120);
    assert_eq!(rows(dir.path(), "a_bw.log").len(), 80);
    // fio 3.33 opens shared logs for appending: a second run adds to them.
    iomark_ok(dir.path(), &["--output=/dev/null", "j.fio"], true);
    assert_eq!(rows(dir.path(), "foo_clat.log").len(), 240);
}

#[test]
fn per_job_logs_are_replaced_by_the_next_run() {
    let dir = tempdir();
    let args = null_job(&["--number_ios=30", "--write_iops_log=x"]);
    iomark_ok(dir.path(), &args, true);
    iomark_ok(dir.path(), &args, true);
    assert_eq!(rows(dir.path(), "x_iops.1.log").len(), 30);
}

#[test]
fn bad_log_options_are_refused() {
    let dir = tempdir();
    // A log in a directory that does not exist: the job fails (fio 3.33 only prints
    // "fopen log" and goes on).
    let out = iomark_in(dir.path(), &null_job(&["--number_ios=3", "--write_bw_log=no/x"]), true);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("no/x_bw.1.log"), "{}", text(&out.stderr));
    // An empty value, as fio: "option write_bw_log requires an argument".
    let out = iomark_in(dir.path(), &null_job(&["--write_bw_log="]), true);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("write_bw_log"), "{}", text(&out.stderr));
    // write_iolog needs a value even in a job file; the other log options do not.
    std::fs::write(dir.path().join("j.fio"), "[j]\nioengine=null\nsize=1m\nwrite_iolog\n")
        .expect("job file");
    let out = iomark_in(dir.path(), &["j.fio"], true);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("write_iolog"), "{}", text(&out.stderr));
    // Options fio 3.33 does not know are unknown, as in fio.
    for option in ["--log_window_value=1", "--log_issue_time=1"] {
        let out = iomark_in(dir.path(), &null_job(&[option]), true);
        assert_eq!(out.status.code(), Some(2), "{option}: {}", text(&out.stderr));
    }
}

#[test]
fn log_unix_epoch_stamps_rows_with_the_time_of_day() {
    let dir = tempdir();
    let before = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("clock")
        .as_millis() as u64;
    let args = null_job(&["--number_ios=500", "--write_lat_log=e", "--log_unix_epoch=1"]);
    iomark_ok(dir.path(), &args, false);
    let after = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("clock")
        .as_millis() as u64;
    let r = parse_rows(dir.path(), "e_clat.1.log");
    assert_eq!(r.len(), 500);
    assert!(r.iter().all(|r| (before..=after).contains(&r.time)), "{before}..{after}: {r:?}");
}

#[test]
fn log_alternate_epoch_counts_from_the_clocks_epoch_as_fio() {
    // CLOCK_MONOTONIC (1) and CLOCK_BOOTTIME (7), with either option, as fio 3.33 reads them.
    let fio = fio_installed();
    for (flag, id) in [("--log_alternate_epoch=1", 1), ("--log_unix_epoch=1", 7)] {
        let clock = format!("--log_alternate_epoch_clock_id={id}");
        let args = null_job(&["--number_ios=500", "--write_lat_log=e", flag, &clock]);
        let mut programs = vec!["iomark"];
        if fio {
            programs.push("fio");
        }
        for program in programs {
            let dir = tempdir();
            let before = iomark_engine::system::clock_ms(id).expect("the clock");
            if program == "fio" {
                fio_ok(dir.path(), &args);
            } else {
                iomark_ok(dir.path(), &args, false);
            }
            let after = iomark_engine::system::clock_ms(id).expect("the clock");
            let r = parse_rows(dir.path(), "e_clat.1.log");
            assert_eq!(r.len(), 500, "{program}");
            let outside: Vec<_> =
                r.iter().filter(|r| !(before..=after).contains(&r.time)).collect();
            assert!(outside.is_empty(), "{program} {flag} {id}: {before}..{after}: {outside:?}");
        }
    }
    // A clock the system does not have is refused (fio 3.33 logs garbage).
    let dir = tempdir();
    let args = null_job(&["--log_alternate_epoch=1", "--log_alternate_epoch_clock_id=99"]);
    let out = iomark_in(dir.path(), &args, false);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("option 'log_alternate_epoch_clock_id'"));
}
