//! The `iomark` binary as a user meets it: exit codes, the one-line error on standard error,
//! `--showcmd` lines that run again, and the help and version texts.
//!
//! Every run gets `IOMARK_TEST_SIZE=8m` in its environment, for `tests/jobs/good/env.fio`.

use crate::support::corpus::{corpus, good};
use crate::support::run::{command, text, IOMARK};
use iomark_options::showcmd;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

// ---------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------

/// The environment every run gets.
const ENV: &[(&str, &str)] = &[("IOMARK_TEST_SIZE", "8m")];

/// The `iomark` binary with the test environment.
fn iomark_command() -> Command {
    let mut cmd = command(IOMARK);
    cmd.envs(ENV.iter().copied());
    cmd
}

/// Runs `iomark` with `args` and no standard input.
fn iomark<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Output {
    iomark_command().args(args).output().expect("run iomark")
}

/// Runs `iomark` with `args`, feeding `input` on standard input.
fn iomark_with_stdin(args: &[&str], input: &[u8]) -> Output {
    let mut child = iomark_command()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run iomark");
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

fn code(out: &Output) -> Option<i32> {
    out.status.code()
}

fn stdout(out: &Output) -> String {
    text(&out.stdout)
}

fn stderr(out: &Output) -> String {
    text(&out.stderr)
}

/// Asserts a usage failure: exit code 2 and exactly one line `iomark: ...` on standard
/// error that contains `expect`; returns that line.
fn assert_usage_error(out: &Output, expect: &str, what: &str) -> String {
    let err = stderr(out);
    assert_eq!(code(out), Some(2), "{what}: exit code; stderr: {err}");
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "{what}: want one line on stderr, got {lines:?}");
    assert!(lines[0].starts_with("iomark: "), "{what}: {}", lines[0]);
    assert!(lines[0].contains(expect), "{what}: '{}' lacks '{expect}'", lines[0]);
    lines[0].to_string()
}

/// Asserts success with something on standard output and nothing on standard error.
fn assert_prints(out: &Output, what: &str) -> String {
    assert_eq!(code(out), Some(0), "{what}: stderr: {}", stderr(out));
    assert!(out.stderr.is_empty(), "{what}: stderr: {}", stderr(out));
    let text = stdout(out);
    assert!(!text.trim().is_empty(), "{what}: nothing printed");
    text
}

/// The text after `; expect: ` on the first line of a bad file.
fn expectation(path: &Path) -> String {
    let bytes = std::fs::read(path).unwrap();
    let first = bytes.split(|&b| b == b'\n').next().unwrap_or_default();
    let first = String::from_utf8_lossy(first).into_owned();
    first.strip_prefix("; expect: ").map(str::to_string).expect("first line '; expect: TEXT'")
}

/// The text after `; parse-only: ` in a good file whose jobs need files that are not there
/// (a log to replay, a file to take a share of): `--parse-only` plans the jobs as a run
/// does, and refuses such a file with that message.
fn plan_expectation(path: &Path) -> Option<String> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines().find_map(|l| l.strip_prefix("; parse-only: ")).map(str::to_string)
}

// ---------------------------------------------------------------------------------------
// The corpus through the binary
// ---------------------------------------------------------------------------------------

#[test]
fn parse_only_accepts_every_good_file_silently() {
    let mut failures = Vec::new();
    for path in corpus("good") {
        let out = iomark(&[Path::new("--parse-only"), &path]);
        if let Some(expect) = plan_expectation(&path) {
            assert_usage_error(&out, &expect, &path.display().to_string());
            continue;
        }
        if code(&out) != Some(0) || !out.stdout.is_empty() || !out.stderr.is_empty() {
            failures.push(format!("{}: {:?} {}", path.display(), code(&out), stderr(&out)));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn parse_only_refuses_every_bad_file_with_one_line() {
    for path in corpus("bad") {
        let out = iomark(&[Path::new("--parse-only"), &path]);
        assert_usage_error(&out, &expectation(&path), &path.display().to_string());
    }
}

#[test]
fn job_file_on_standard_input_is_read() {
    let text = std::fs::read(good("minimal.fio")).unwrap();
    let out = iomark_with_stdin(&["--showcmd", "-"], &text);
    let shown = assert_prints(&out, "--showcmd -");
    assert!(shown.starts_with("iomark --name=seqread "), "{shown}");
}

// ---------------------------------------------------------------------------------------
// --showcmd
// ---------------------------------------------------------------------------------------

#[test]
fn showcmd_prints_one_line_per_job() {
    let out = iomark(&[Path::new("--showcmd"), &good("global_basic.fio")]);
    let text = assert_prints(&out, "--showcmd");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(
        lines[0].starts_with("iomark ") && lines[0].contains(" --name=reader "),
        "{}",
        lines[0]
    );
    assert!(
        lines[1].starts_with("iomark ") && lines[1].contains(" --name=writer "),
        "{}",
        lines[1]
    );
}

#[test]
fn showcmd_lines_run_again_with_parse_only() {
    let mut failures = Vec::new();
    for path in corpus("good").into_iter().filter(|p| plan_expectation(p).is_none()) {
        let out = iomark(&[Path::new("--showcmd"), &path]);
        if code(&out) != Some(0) {
            failures.push(format!("{}: --showcmd: {}", path.display(), stderr(&out)));
            continue;
        }
        for line in stdout(&out).lines() {
            // A job that waits for another is checked with it (--parse-only checks wait_for).
            if line.contains("--wait_for=") {
                continue;
            }
            let words = showcmd::split(line).unwrap_or_else(|e| panic!("{line}: {e}"));
            assert_eq!(words[0], "iomark", "{line}");
            let mut args = vec!["--parse-only".to_string()];
            args.extend(words[1..].iter().cloned());
            let again = iomark(&args);
            if code(&again) != Some(0) {
                failures.push(format!("{}: {line}\n    {}", path.display(), stderr(&again)));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn second_job_file_starts_with_an_implicit_stonewall() {
    let out = iomark(&[Path::new("--showcmd"), &good("minimal.fio"), &good("wait_for.fio")]);
    let text = assert_prints(&out, "--showcmd with two files");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(!lines[0].contains("--stonewall"), "{}", lines[0]);
    assert!(lines[1].contains(" --name=prepare ") && lines[1].contains("--stonewall"));
    assert!(!lines[2].contains("--stonewall"), "{}", lines[2]);
}

// ---------------------------------------------------------------------------------------
// Command-line mistakes
// ---------------------------------------------------------------------------------------

#[test]
fn unknown_job_option_on_the_command_line_gets_a_suggestion() {
    let out = iomark(&["--parse-only", "--name=j", "--blocksise=4k"]);
    assert_usage_error(&out, "unknown option 'blocksise' (did you mean 'blocksize'?)", "");
}

#[test]
fn unknown_program_option_gets_a_suggestion() {
    let out = iomark(&["--parse-onyl", "--name=j"]);
    assert_usage_error(&out, "did you mean 'parse-only'?", "--parse-onyl");
}

#[test]
fn bogus_output_format_is_refused() {
    let out = iomark(&["--output-format=bogus", "--parse-only", "--name=j"]);
    assert_usage_error(&out, "invalid output format 'bogus'", "--output-format");
}

#[test]
fn bad_value_on_the_command_line_names_the_argument() {
    let out = iomark(&["--parse-only", "--name=j", "--bs=abc"]);
    let line = assert_usage_error(&out, "invalid size 'abc'", "--bs=abc");
    assert!(line.contains("argument 3"), "{line}");
}

#[test]
fn missing_job_file_is_refused() {
    let out = iomark(&["--parse-only", "/nonexistent/iomark-job.fio"]);
    assert_usage_error(&out, "/nonexistent/iomark-job.fio", "missing file");
}

#[test]
fn max_jobs_counts_clones() {
    let numjobs = good("numjobs.fio");
    let out = iomark(&[Path::new("--parse-only"), Path::new("--max-jobs=3"), &numjobs]);
    assert_usage_error(&out, "6 jobs exceed --max-jobs=3", "--max-jobs=3");
    let out = iomark(&[Path::new("--parse-only"), Path::new("--max-jobs=6"), &numjobs]);
    assert_eq!(code(&out), Some(0), "{}", stderr(&out));
}

#[test]
fn readonly_refuses_a_job_that_writes() {
    let out =
        iomark(&[Path::new("--parse-only"), Path::new("--readonly"), &good("global_basic.fio")]);
    let line = assert_usage_error(&out, "--readonly", "--readonly");
    assert!(line.contains("writer"), "{line}");
    let out = iomark(&[Path::new("--parse-only"), Path::new("--readonly"), &good("minimal.fio")]);
    assert_eq!(code(&out), Some(0), "{}", stderr(&out));
}

#[test]
fn section_selects_jobs() {
    let out =
        iomark(&[Path::new("--showcmd"), Path::new("--section=writer"), &good("global_basic.fio")]);
    let text = assert_prints(&out, "--section");
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(text.starts_with("iomark ") && text.contains(" --name=writer "), "{text}");
}

#[test]
fn debug_parse_describes_every_job_on_stdout() {
    let out =
        iomark(&[Path::new("--parse-only"), Path::new("--debug=parse"), &good("global_basic.fio")]);
    let text = assert_prints(&out, "--debug=parse");
    assert!(text.contains("job 'reader'") && text.contains("job 'writer'"), "{text}");
    assert!(text.lines().all(|l| l.starts_with("parse    ")), "fio's layout: {text}");
}

// ---------------------------------------------------------------------------------------
// Help and version
// ---------------------------------------------------------------------------------------

#[test]
fn version_names_the_fio_release() {
    let text = assert_prints(&iomark(&["--version"]), "--version");
    assert!(text.contains("iomark") && text.contains("fio-3.33"), "{text}");
}

#[test]
fn help_prints_usage() {
    let text = assert_prints(&iomark(&["--help"]), "--help");
    assert!(text.contains("usage"), "{text}");
    assert_prints(&iomark(&["-h"]), "-h");
}

#[test]
fn cmdhelp_for_one_option() {
    let text = assert_prints(&iomark(&["--cmdhelp=bs"]), "--cmdhelp=bs");
    assert!(text.contains("bs"), "{text}");
}

#[test]
fn cmdhelp_for_all_options() {
    let text = assert_prints(&iomark(&["--cmdhelp=all"]), "--cmdhelp=all");
    for name in ["bs", "rw", "ioengine", "size", "numjobs"] {
        assert!(text.contains(name), "--cmdhelp=all lacks {name}");
    }
}

#[test]
fn cmdhelp_for_an_unknown_option_is_refused() {
    assert_usage_error(&iomark(&["--cmdhelp=nosuchoption"]), "nosuchoption", "--cmdhelp");
}

#[test]
fn enghelp_lists_engines() {
    let text = assert_prints(&iomark(&["--enghelp"]), "--enghelp");
    assert!(text.contains("psync") && text.contains("null"), "{text}");
}

#[test]
fn enghelp_for_pvsync2_lists_its_options() {
    let text = assert_prints(&iomark(&["--enghelp=pvsync2"]), "--enghelp=pvsync2");
    assert!(text.contains("hipri"), "{text}");
}

// ---------------------------------------------------------------------------------------
// --parse-only checks what a run checks before its first I/O
// ---------------------------------------------------------------------------------------

#[test]
fn parse_only_fails_where_a_run_would_before_its_first_io() {
    let dir = crate::support::run::tempdir();
    let at = |name: &str| dir.path().join(name).display().to_string();
    let cases: Vec<(Vec<String>, String)> = vec![
        (
            "--name=a --ioengine=null --size=1m --name=b --ioengine=null --size=1m --wait_for=zz"
                .split(' ')
                .map(String::from)
                .collect(),
            "job 'b': option 'wait_for': no earlier job 'zz' runs with it".into(),
        ),
        (
            vec!["--name=a".into(), "--size=1m".into(), format!("--filename={}", at("no/f"))],
            format!("job 'a': cannot create '{}': No such file or directory", at("no/f")),
        ),
        (
            vec![
                "--name=a".into(),
                "--size=1m".into(),
                format!("--filename={}", at("f")),
                "--allow_file_create=0".into(),
            ],
            format!("job 'a': cannot create '{}': allow_file_create=0", at("f")),
        ),
        (
            vec![
                "--readonly".into(),
                "--name=a".into(),
                "--size=1m".into(),
                format!("--filename={}", at("g")),
            ],
            format!("job 'a': refusing to create '{}': --readonly is set", at("g")),
        ),
    ];
    for (args, expect) in cases {
        let mut all = vec!["--parse-only".to_string()];
        all.extend(args.iter().cloned());
        let out = iomark(&all);
        assert_usage_error(&out, &expect, &format!("{all:?}"));
        // A run fails the same way.
        let out = iomark_command().current_dir(dir.path()).args(&args).output().unwrap();
        assert_ne!(code(&out), Some(0), "{args:?}");
        assert!(stderr(&out).contains(&expect), "{args:?}: {}", stderr(&out));
    }
    assert!(crate::support::run::entries(dir.path()).is_empty(), "--parse-only wrote a file");
}

#[test]
fn parse_only_prints_the_notes_a_run_would_print() {
    let dir = crate::support::run::tempdir();
    let job = dir.path().join("job.fio");
    std::fs::write(&job, "[j]\nioengine=psync\niodepth=4\nsize=64k)\n").unwrap();
    let out = iomark(&[Path::new("--parse-only"), &job]);
    let text = assert_prints(&out, "--parse-only with notes");
    assert!(text.lines().all(|l| l.starts_with("note: ")), "{text}");
    assert!(text.contains("option 'size': '64k)' is read as fio 3.33 reads it"), "{text}");
    assert!(text.contains("queue depth will be capped at 1"), "{text}");
    assert_eq!(crate::support::run::entries(dir.path()), ["job.fio"], "no file laid out");
}
