//! `tests/jobs/lenient/`: malformed values that fio 3.33 runs. Each file parses, with a note
//! for each of its `; note: TEXT` lines (a note that contains the text), and `--warnings-fatal`
//! refuses it with its `; expect: TEXT` (the message iomark gives without fio's leniency).

use super::{corpus, expectation, parse_args, TestLoader};
use std::path::Path;

/// The texts after `; note: ` in a file.
fn expected_notes(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines().filter_map(|l| l.strip_prefix("; note: ")).map(str::to_string).collect()
}

#[test]
fn every_lenient_file_runs_with_its_notes() {
    let mut failures = Vec::new();
    for path in corpus("lenient") {
        let file = path.to_str().unwrap();
        let notes = match parse_args(&[file], &TestLoader::default()) {
            Ok(jobs) => {
                iomark_options::notes_of(&jobs).iter().map(ToString::to_string).collect::<Vec<_>>()
            }
            Err(e) => {
                failures.push(format!("{file}: refused: {e}"));
                continue;
            }
        };
        let expected = expected_notes(&path);
        if expected.is_empty() {
            failures.push(format!("{file}: no '; note: TEXT' line"));
        }
        for want in expected {
            if !notes.iter().any(|n| n.contains(&want)) {
                failures.push(format!("{file}: no note contains '{want}'; notes: {notes:#?}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn warnings_fatal_refuses_every_lenient_file() {
    let mut failures = Vec::new();
    for path in corpus("lenient") {
        let file = path.to_str().unwrap();
        let expect = expectation(&path);
        match parse_args(&["--warnings-fatal", file], &TestLoader::default()) {
            Ok(_) => failures.push(format!("{file}: accepted with --warnings-fatal")),
            Err(e) if !e.to_string().contains(&expect) => {
                failures.push(format!("{file}: expected '{expect}', got '{e}'"))
            }
            Err(_) => {}
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
