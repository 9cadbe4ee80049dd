//! Streams of `iomark sweep` and `iomark compare`: a run that succeeds writes nothing to
//! standard error. A sweep that cannot take signals (no file descriptor left for the
//! signal thread's pipe, under `ulimit -n 4`) runs on and says so in a note on standard
//! output before its table, or in its JSON document's `"iomark notes"`.

use crate::support::run::{command, tempdir, text, FAKE_STEP_NS, IOMARK};
use std::process::Output;

/// iomark with `args`, at most 4 open files, under the fake clock, in a fresh directory.
fn starved(args: &[&str]) -> Output {
    let dir = tempdir();
    command("sh")
        .current_dir(dir.path())
        .env("IOMARK_FAKE_CLOCK_NS", FAKE_STEP_NS)
        .args(["-c", "ulimit -n 4 && exec \"$0\" \"$@\"", IOMARK])
        .args(args)
        .output()
        .expect("run sh")
}

const NOTE: &str = "note: cannot take signals (Ctrl-C will end the run at once): ";

/// What `out` printed: it succeeded, with nothing on standard error, and its standard
/// output opens with the note, followed by a line starting with `next`.
fn noted(out: &Output, next: &str) -> String {
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.starts_with(NOTE), "{stdout}");
    assert!(stdout.lines().nth(1).is_some_and(|l| l.starts_with(next)), "{stdout}");
    stdout
}
const JOB: [&str; 4] = ["--ioengine=null", "--rw=randread", "--size=256k", "--time_based=0"];

#[test]
fn a_sweep_that_cannot_take_signals_says_so_on_stdout() {
    let mut args = vec!["sweep", "--iodepth=1,2"];
    args.extend(JOB);
    noted(&starved(&args), "point");
    // With the document on standard output, the note is in it.
    args.push("--json=-");
    let out = starved(&args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one document");
    let note = doc["iomark notes"][0].as_str().unwrap_or_default();
    assert!(format!("note: {note}").starts_with(NOTE), "{doc}");
}

#[test]
fn a_compare_that_cannot_take_signals_says_so_on_stdout() {
    let mut args = vec!["compare", "--rounds=1", "iodepth=1", "iodepth=2", "--"];
    args.extend(JOB);
    noted(&starved(&args), "A: iodepth=1");
}

#[test]
fn a_sweep_without_a_note_has_none_in_its_document() {
    let dir = tempdir();
    let mut args = vec!["sweep", "--iodepth=1", "--json=-"];
    args.extend(JOB);
    let out = crate::support::run::iomark_ok(dir.path(), &args, true);
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one document");
    assert!(doc.get("iomark notes").is_none(), "{doc}");
}
