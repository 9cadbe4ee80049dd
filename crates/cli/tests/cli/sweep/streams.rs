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

/// The capped queue depth of a synchronous engine: the note a run of such a job prints.
const CAPPED: &str = "both iodepth >= 1 and synchronous I/O engine are selected, queue depth \
                      will be capped at 1";

/// A note of the runs themselves (a synchronous engine's capped depth) is printed once,
/// before the first row that had it, and kept once in the sweep's JSON document and HTML
/// page.
#[test]
fn a_sweeps_run_notes_are_printed_once_and_kept_in_its_documents() {
    let dir = tempdir();
    let file = dir.path().join("f");
    let filename = format!("--filename={}", file.display());
    let args = [
        "sweep",
        "--iodepth=2,4",
        "--ioengine=psync",
        &filename,
        "--rw=read",
        "--size=64k",
        "--time_based=0",
        "--json=s.json",
        "--html=s.html",
    ];
    let out = crate::support::run::iomark_ok(dir.path(), &args, true);
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let line = format!("note: {CAPPED}");
    assert_eq!(stdout.matches(&line).count(), 1, "{stdout}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(lines[0].starts_with("point") && lines[1] == line, "{stdout}");
    let json = std::fs::read_to_string(dir.path().join("s.json")).unwrap();
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(doc["iomark notes"], serde_json::json!([CAPPED]), "{doc}");
    let html = std::fs::read_to_string(dir.path().join("s.html")).unwrap();
    assert_eq!(html.matches("<li>note: both iodepth").count(), 1);
}

/// A compare's runs' notes are printed once before its table, and with `--json=-` they
/// are in the one document on standard output, beside its rows.
#[test]
fn a_compares_run_notes_are_printed_once_or_kept_in_its_document() {
    let dir = tempdir();
    let file = dir.path().join("f");
    let filename = format!("--filename={}", file.display());
    let mut args = vec!["compare", "--rounds=2", "iodepth=2", "iodepth=4"];
    let common = ["--", "--ioengine=psync", &filename, "--rw=read", "--size=64k"];
    args.extend(common);
    let out = crate::support::run::iomark_ok(dir.path(), &args, true);
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.starts_with(&format!("note: {CAPPED}\nA: iodepth=2")), "{stdout}");
    assert_eq!(stdout.matches("note: ").count(), 1, "{stdout}");
    let mut args = vec!["compare", "--rounds=1", "--json=-", "iodepth=2", "iodepth=4"];
    args.extend(common);
    let out = crate::support::run::iomark_ok(dir.path(), &args, true);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one document");
    assert_eq!(doc["iomark notes"], serde_json::json!([CAPPED]), "{doc}");
    assert!(doc["rows"].as_array().is_some_and(|r| !r.is_empty()), "{doc}");
}

/// A compare of saved runs prints the notes their iomark documents carry, each once.
#[test]
fn a_compare_of_saved_runs_prints_their_notes_once() {
    let dir = tempdir();
    let file = dir.path().join("f");
    let filename = format!("--filename={}", file.display());
    for (name, depth) in [("a.json", "--iodepth=2"), ("b.json", "--iodepth=4")] {
        let args = ["--name=j", "--ioengine=psync", &filename, "--size=64k", depth];
        let out = crate::support::run::iomark_ok(
            dir.path(),
            &[&args[..], &["--output-format=json"]].concat(),
            true,
        );
        std::fs::write(dir.path().join(name), &out.stdout).unwrap();
    }
    let out = crate::support::run::iomark_ok(dir.path(), &["compare", "a.json", "b.json"], false);
    let stdout = text(&out.stdout);
    assert!(stdout.starts_with(&format!("note: {CAPPED}\nA: a.json")), "{stdout}");
    assert_eq!(stdout.matches("note: ").count(), 1, "{stdout}");
}
