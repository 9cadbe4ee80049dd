//! Errors, exit codes and what goes where: a job that fails exits 1, a configuration
//! error exits 2 before anything runs, JSON output is the document alone, `--readonly` and
//! `--parse-only` run nothing they should not.

use crate::support::report::json_doc;
use crate::support::run::{entries, iomark_in, tempdir, text, write_job};
use serde_json::Value;
use std::process::Output;

/// Asserts exit code `code` and a message on standard error that contains every one of
/// `names`; returns standard error.
fn assert_fails(out: &Output, code: i32, names: &[&str], what: &str) -> String {
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "{what}: exit code; stderr: {err}");
    for name in names {
        assert!(err.contains(name), "{what}: stderr lacks '{name}': {err}");
    }
    err
}

#[test]
fn a_file_that_cannot_be_opened_fails_the_job_with_exit_1() {
    let dir = tempdir();
    let file = dir.path().join("no/such/dir/data");
    let file = file.to_str().expect("utf-8 path");
    for format in ["normal", "json"] {
        let out = iomark_in(
            dir.path(),
            &[
                &format!("--output-format={format}"),
                "--name=lost",
                &format!("--filename={file}"),
                "--size=1m",
                "--rw=read",
            ],
            false,
        );
        assert_fails(&out, 1, &["'lost'", file], format);
        if format == "json" {
            assert_eq!(text(&out.stdout), "", "json: nothing but JSON on stdout");
        }
    }
    assert_eq!(entries(dir.path()), Vec::<String>::new(), "nothing created");
}

#[test]
fn a_read_job_without_size_or_file_is_a_configuration_error() {
    let dir = tempdir();
    let out = iomark_in(dir.path(), &["--name=nosize", "--rw=read"], false);
    assert_fails(&out, 2, &["'nosize'", "'size'"], "no size");
    assert_eq!(text(&out.stdout), "", "nothing runs, nothing is printed");
    assert_eq!(entries(dir.path()), Vec::<String>::new());
}

/// fio: "size too small, must not be less than minimum block size", before any job runs.
#[test]
fn a_block_size_larger_than_size_is_a_configuration_error() {
    let dir = tempdir();
    let out = iomark_in(
        dir.path(),
        &["--name=big", "--ioengine=null", "--size=1m", "--bs=2m", "--rw=read"],
        false,
    );
    assert_fails(&out, 2, &["'big'", "'bs'"], "bs > size");
    assert_eq!(text(&out.stdout), "", "nothing runs, nothing is printed");
}

#[test]
fn json_output_is_the_json_document_alone() {
    let dir = tempdir();
    let args =
        ["--output-format=json", "--name=quiet", "--ioengine=psync", "--rw=randrw", "--size=256k"];
    let out = iomark_in(dir.path(), &args, false);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stderr), "", "a run that succeeds writes nothing on stderr");
    // serde_json refuses anything before or after the one document.
    let json = json_doc(&out, "json");
    assert_eq!(json["jobs"][0]["jobname"], "quiet");
    let stdout = text(&out.stdout);
    assert!(stdout.starts_with('{') && stdout.ends_with("}\n"), "{stdout}");
    // `--debug=parse` prints on standard output before the report, as fio 3.33 does (and
    // as in fio, standard output is then no longer the document alone); stderr stays empty.
    let out = iomark_in(dir.path(), &[&["--debug=parse"], &args[..]].concat(), false);
    assert_eq!(text(&out.stderr), "", "debug output is no error");
    let stdout = text(&out.stdout);
    let json_at = stdout.find("\n{").expect("the document after the debug lines") + 1;
    assert!(stdout[..json_at].lines().all(|l| l.starts_with("parse ")), "{stdout}");
    let doc: serde_json::Value = serde_json::from_str(&stdout[json_at..]).expect("one document");
    assert_eq!(doc["jobs"][0]["jobname"], "quiet");
}

#[test]
fn json_then_normal_prints_the_document_first() {
    let dir = tempdir();
    let out = iomark_in(
        dir.path(),
        &["--output-format=json,normal", "--name=both", "--ioengine=null", "--size=64k"],
        true,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    // As fio: the start lines, the document, one blank line, the normal report.
    let start = stdout.find("Starting 1 process\n{\n").expect("start lines, then JSON") + 19;
    let end = stdout.find("\n}\n").expect("end of the JSON document") + 3;
    let json: Value = serde_json::from_str(&stdout[start..end]).expect("JSON");
    assert_eq!(json["jobs"][0]["jobname"], "both");
    assert!(stdout[end..].starts_with("\nboth: (groupid=0, jobs=1)"), "{}", &stdout[end..]);
}

// ---------------------------------------------------------------------------------------
// --readonly and --parse-only
// ---------------------------------------------------------------------------------------

#[test]
fn readonly_refuses_a_write_job_and_runs_nothing() {
    let dir = tempdir();
    let job =
        write_job(dir.path(), "[reader]\nrw=read\nsize=64k\n\n[writer]\nrw=randwrite\nsize=64k\n");
    let out = iomark_in(dir.path(), &["--readonly", job.to_str().expect("utf-8")], false);
    assert_fails(&out, 2, &["'writer'", "readonly"], "readonly");
    assert_eq!(text(&out.stdout), "");
    assert_eq!(entries(dir.path()), ["job.fio"], "no job ran, no file was laid out");
}

#[test]
fn readonly_runs_a_read_job_and_leaves_its_file_alone() {
    let dir = tempdir();
    let data = dir.path().join("data");
    let contents: Vec<u8> = (0..65536u32).map(|i| (i % 251) as u8).collect();
    std::fs::write(&data, &contents).expect("write data");
    let out = iomark_in(
        dir.path(),
        &[
            "--readonly",
            "--output-format=json",
            "--name=reader",
            "--rw=randread",
            "--bs=4k",
            &format!("--filename={}", data.display()),
        ],
        false,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(json_doc(&out, "readonly")["jobs"][0]["read"]["total_ios"], 16);
    assert_eq!(std::fs::read(&data).expect("read back"), contents);
}

/// fio with `--readonly` refuses to create a missing file ("refusing extend of file due to
/// read-only"), and the job fails.
#[test]
fn readonly_creates_no_file() {
    let dir = tempdir();
    let out = iomark_in(
        dir.path(),
        &["--readonly", "--output-format=json", "--name=reader", "--rw=read", "--size=64k"],
        false,
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert_eq!(entries(dir.path()), Vec::<String>::new());
}

#[test]
fn parse_only_runs_nothing() {
    let dir = tempdir();
    let job =
        write_job(dir.path(), "[writer]\nrw=write\nsize=64k\n\n[reader]\nrw=read\nsize=64k\n");
    let out = iomark_in(dir.path(), &["--parse-only", job.to_str().expect("utf-8")], false);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "");
    assert_eq!(text(&out.stderr), "");
    assert_eq!(entries(dir.path()), ["job.fio"], "no file was laid out");
}
