//! The `exec` engine: the job runs a program for its runtime, counting an I/O of no bytes
//! every 100 ms, as fio 3.33 reports it; the program's output goes to `NAME.stdout` and
//! `NAME.stderr` (`std_redirect`), `%r` and `%n` of its arguments are the runtime and the
//! job's name, and a program still running when the job ends is stopped.

use crate::support::report::report_json;
use crate::support::run::{iomark_in, iomark_ok, tempdir, text, IOMARK};

#[test]
fn exec_runs_the_program_and_counts_ticks_without_bytes() {
    let dir = tempdir();
    let args = [
        "--name=e",
        "--ioengine=exec",
        "--program=/bin/echo",
        "--arguments=hello %r %n",
        "--runtime=1",
        "--output-format=json",
    ];
    let json = report_json(IOMARK, &iomark_ok(dir.path(), &args, false));
    let read = &json["jobs"][0]["read"];
    assert!(read["total_ios"].as_u64().unwrap() > 0, "{read}");
    assert_eq!(read["io_bytes"], 0);
    assert_eq!(read["runtime"], 0);
    let out = std::fs::read_to_string(dir.path().join("e.stdout")).unwrap();
    assert_eq!(out, "hello 1 e\n");
    assert!(dir.path().join("e.stderr").exists());
}

#[test]
fn a_program_still_running_is_stopped_when_the_job_ends() {
    let dir = tempdir();
    let pidfile = dir.path().join("pid");
    let script = format!("echo $$ > {}; exec sleep 600", pidfile.display());
    // The arguments are split at blanks, so the script is a file.
    let file = dir.path().join("s.sh");
    std::fs::write(&file, script).unwrap();
    let program = format!("--arguments={}", file.display());
    let args = ["--name=e", "--ioengine=exec", "--program=/bin/sh", &program, "--runtime=1"];
    let out = iomark_ok(
        dir.path(),
        &[&args[..], &["--grace_time=0", "--std_redirect=0"]].concat(),
        false,
    );
    assert!(
        text(&out.stdout).starts_with("e : program=/bin/sh, arguments="),
        "{}",
        text(&out.stdout)
    );
    let pid: i32 = std::fs::read_to_string(&pidfile).unwrap().trim().parse().unwrap();
    // iomark waited for its child: the pid is gone (or reused by another process).
    let status = std::fs::read_to_string(format!("/proc/{pid}/cmdline")).unwrap_or_default();
    assert!(!status.contains("sleep"), "the program still runs: {status}");
}

#[test]
fn exec_needs_a_program_and_a_runtime() {
    let dir = tempdir();
    let out = iomark_in(dir.path(), &["--name=e", "--ioengine=exec", "--runtime=1"], true);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("program"), "{}", text(&out.stderr));
}
