//! The job-file corpus under `tests/jobs`, read through the library, and fio's rules for
//! putting jobs together.
//!
//! - Every `good/*.fio` parses; every `bad/*.fio` is refused with a message that contains the
//!   text of its first line `; expect: TEXT` and names the file and line.
//! - Every `lenient/*.fio` (malformed values that fio 3.33 runs) parses with fio's meaning and
//!   a note per `; note: TEXT` line that contains the text; with `--warnings-fatal` it is
//!   refused with its `; expect: TEXT`.
//! - `--showcmd` round trip: each job of each good file, written back as a command line and
//!   parsed again, is the same job (same name, same effective values).
//! - Assembly: command-line globals and jobs, several job files, `--section`, global sections
//!   in order, per-direction merging, `numjobs` clones, `filename_format`.
//!
//! Keywords are fixed (`$ncpus`=4, `$pagesize`=4096, `$mb_memory`=8192) and the environment
//! is a fixed table, so results do not depend on the machine.

use iomark_options::error::Place;
use iomark_options::jobfile::Loader;
use iomark_options::spec::{self, JobSpec};
use iomark_options::value::subst::Keywords;
use iomark_options::value::{SizeOrPercent, Value};
use iomark_options::{cmdline, debug, parse_jobs, showcmd, ParseError};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

mod assembly;
mod lenient;
mod sections;
mod values;

// ---------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------

/// The environment the corpus sees: `${IOMARK_TEST_SIZE}` in `good/env.fio`.
const ENV: &[(&str, &str)] = &[("IOMARK_TEST_SIZE", "8m")];

/// Fixed keyword values, so that results do not depend on the machine.
const KEYWORDS: Keywords = Keywords { ncpus: 4, pagesize: 4096, mb_memory: 8192 };

/// Reads files from memory first, then from disk; environment and keywords are fixed.
#[derive(Default)]
struct TestLoader {
    files: HashMap<PathBuf, Vec<u8>>,
}

impl TestLoader {
    /// A loader that also knows these in-memory files.
    fn with(files: &[(&str, &str)]) -> Self {
        let files = files.iter().map(|(p, t)| (PathBuf::from(p), t.as_bytes().to_vec())).collect();
        TestLoader { files }
    }
}

impl Loader for TestLoader {
    fn load(&self, path: &Path) -> std::io::Result<Vec<u8>> {
        match self.files.get(path) {
            Some(bytes) => Ok(bytes.clone()),
            None => std::fs::read(path),
        }
    }

    fn env(&self, name: &str) -> Option<String> {
        ENV.iter().find(|(k, _)| *k == name).map(|(_, v)| v.to_string())
    }

    fn keywords(&self) -> Keywords {
        KEYWORDS
    }
}

#[path = "../../../../tests/support/corpus.rs"]
mod corpus_files;
use corpus_files::{corpus, corpus_dir};

fn good_files() -> Vec<PathBuf> {
    corpus("good")
}

fn bad_files() -> Vec<PathBuf> {
    corpus("bad")
}

/// The text after `; expect: ` on the first line of a bad file.
fn expectation(path: &Path) -> String {
    let bytes = std::fs::read(path).unwrap();
    let first = bytes.split(|&b| b == b'\n').next().unwrap_or_default();
    let first = String::from_utf8_lossy(first);
    match first.strip_prefix("; expect: ") {
        Some(text) => text.to_string(),
        None => panic!("{}: the first line must be '; expect: TEXT'", path.display()),
    }
}

/// Parses a command line (without the program name) into jobs.
fn parse_args(args: &[&str], loader: &dyn Loader) -> Result<Vec<JobSpec>, ParseError> {
    let cmd = cmdline::parse(args.iter().copied())?;
    parse_jobs(&cmd, loader)
}

/// Parses one job file from disk.
fn parse_file(path: &Path) -> Result<Vec<JobSpec>, ParseError> {
    parse_args(&[path.to_str().unwrap()], &TestLoader::default())
}

/// Parses one corpus file that must be good.
fn good(name: &str) -> Vec<JobSpec> {
    let path = corpus_dir().join("good").join(name);
    parse_file(&path).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Parses in-memory job files given on a command line; they must be good.
fn jobs_of(args: &[&str], files: &[(&str, &str)]) -> Vec<JobSpec> {
    parse_args(args, &TestLoader::with(files)).unwrap_or_else(|e| panic!("{args:?}: {e}"))
}

/// The job called `name`.
fn job<'a>(jobs: &'a [JobSpec], name: &str) -> &'a JobSpec {
    jobs.iter().find(|j| j.name == name).unwrap_or_else(|| {
        let names: Vec<&str> = jobs.iter().map(|j| j.name.as_str()).collect();
        panic!("no job '{name}' among {names:?}")
    })
}

/// The names of the jobs, in order.
fn names(jobs: &[JobSpec]) -> Vec<&str> {
    jobs.iter().map(|j| j.name.as_str()).collect()
}

/// The effective value of `option` in canonical form, `None` when never assigned.
fn canon(job: &JobSpec, option: &str) -> Option<String> {
    job.value(option).map(|v| debug::canonical(&v))
}

/// Every effective value of a job, canonical.
fn effective(job: &JobSpec) -> Vec<(&'static str, String)> {
    job.effective().into_iter().map(|(d, v)| (d.name, debug::canonical(&v))).collect()
}

// ---------------------------------------------------------------------------------------
// The corpus
// ---------------------------------------------------------------------------------------

#[test]
fn corpus_is_large_enough() {
    let (good, bad) = (good_files().len(), bad_files().len());
    assert!(good + bad >= 40, "only {good} good and {bad} bad files");
    assert!(good >= 20 && bad >= 20, "{good} good, {bad} bad");
}

#[test]
fn every_good_file_parses() {
    let mut failures = Vec::new();
    for path in good_files() {
        match parse_file(&path) {
            Ok(jobs) if jobs.is_empty() => failures.push(format!("{}: no jobs", path.display())),
            Ok(_) => {}
            Err(e) => failures.push(e.to_string()),
        }
    }
    assert!(failures.is_empty(), "{} good files refused:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn every_bad_file_is_refused_with_its_expected_message() {
    let mut failures = Vec::new();
    for path in bad_files() {
        let expect = expectation(&path);
        match parse_file(&path) {
            Ok(jobs) => failures.push(format!(
                "{}: accepted ({} jobs), expected '{expect}'",
                path.display(),
                jobs.len()
            )),
            Err(e) if !e.to_string().contains(&expect) => {
                failures.push(format!("{}: expected '{expect}', got '{e}'", path.display()))
            }
            Err(_) => {}
        }
    }
    assert!(failures.is_empty(), "{} bad files:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn every_bad_file_error_names_a_file_and_line() {
    let mut failures = Vec::new();
    for path in bad_files() {
        let Err(e) = parse_file(&path) else { continue };
        let message = e.to_string();
        match &e.place {
            Place::File { path: at, line } if *line > 0 => {
                let shown = format!("{}:{line}", at.display());
                if !message.contains(&shown) {
                    failures.push(format!("{}: '{message}' lacks '{shown}'", path.display()));
                }
            }
            other => failures.push(format!("{}: place {other:?} in '{message}'", path.display())),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn error_messages_are_one_line() {
    for path in bad_files() {
        if let Err(e) = parse_file(&path) {
            assert!(!e.to_string().contains('\n'), "{}: '{e}'", path.display());
        }
    }
}

#[test]
fn showcmd_round_trip_gives_the_same_jobs() {
    let loader = TestLoader::default();
    let mut failures = Vec::new();
    for path in good_files() {
        let Ok(jobs) = parse_file(&path) else { continue };
        for job in &jobs {
            let line = showcmd::command_line("iomark", job);
            let words = showcmd::split(&line).unwrap();
            assert_eq!(words[0], "iomark");
            let args: Vec<&str> = words[1..].iter().map(String::as_str).collect();
            let again = match parse_args(&args, &loader) {
                Ok(again) => again,
                Err(e) => {
                    failures.push(format!("{}: {line}\n    refused: {e}", path.display()));
                    continue;
                }
            };
            if again.len() != 1 || again[0].name != job.name {
                failures.push(format!("{}: {line}\n    gives {:?}", path.display(), names(&again)));
            } else if effective(&again[0]) != effective(job) {
                failures.push(format!(
                    "{}: {line}\n    file:    {:?}\n    command: {:?}",
                    path.display(),
                    effective(job),
                    effective(&again[0])
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{} round trips differ:\n{}", failures.len(), failures.join("\n"));
}
