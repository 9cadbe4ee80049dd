//! The job-file corpus under `tests/jobs`, read through the library, and fio's rules for
//! putting jobs together.
//!
//! - Every `good/*.fio` parses; every `bad/*.fio` is refused with a message that contains the
//!   text of its first line `; expect: TEXT` and names the file and line.
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

#[path = "../../../tests/support/corpus.rs"]
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

// ---------------------------------------------------------------------------------------
// Sections, globals and includes
// ---------------------------------------------------------------------------------------

#[test]
fn global_section_applies_to_every_later_job() {
    let jobs = good("global_basic.fio");
    assert_eq!(names(&jobs), ["reader", "writer"]);
    assert_eq!(canon(&jobs[0], "size").as_deref(), Some("4194304"));
    assert_eq!(canon(&jobs[1], "size").as_deref(), Some("4194304"));
    assert_eq!(canon(&jobs[0], "ioengine").as_deref(), Some("null"));
    assert!(canon(&jobs[1], "bs").unwrap().starts_with("65536"));
}

#[test]
fn sections_named_global_anything_are_global() {
    let jobs = good("global_prefix.fio");
    assert_eq!(names(&jobs), ["job"]);
    assert_eq!(canon(&jobs[0], "ioengine").as_deref(), Some("null"));
    assert_eq!(canon(&jobs[0], "size").as_deref(), Some("2097152"));
}

#[test]
fn a_later_global_affects_only_later_jobs() {
    let jobs = good("globals_in_order.fio");
    assert_eq!(names(&jobs), ["early", "late", "latest"]);
    let (early, late, latest) = (&jobs[0], &jobs[1], &jobs[2]);
    assert!(canon(early, "bs").unwrap().starts_with("4096"));
    assert_eq!(canon(early, "iodepth"), None);
    assert_eq!(canon(early, "size").as_deref(), Some("1048576"));
    assert!(canon(late, "bs").unwrap().starts_with("16384"));
    assert_eq!(canon(late, "iodepth").as_deref(), Some("8"));
    assert_eq!(canon(late, "size").as_deref(), Some("1048576"));
    assert!(canon(latest, "bs").unwrap().starts_with("16384"));
    assert_eq!(canon(latest, "size").as_deref(), Some("2097152"));
}

#[test]
fn a_global_after_the_last_job_changes_nothing() {
    let jobs = good("global_after_last_job.fio");
    assert_eq!(names(&jobs), ["job"]);
    assert_eq!(canon(&jobs[0], "bs"), None);
}

#[test]
fn include_reads_a_fragment_relative_to_the_including_file() {
    let jobs = good("include.fio");
    let job1 = job(&jobs, "job1");
    assert_eq!(canon(job1, "size").as_deref(), Some("1048576"));
    assert!(canon(job1, "bs").unwrap().starts_with("16384"));
    assert_eq!(canon(job1, "iodepth").as_deref(), Some("2"));
    let job2 = job(&jobs, "job2");
    assert_eq!(canon(job2, "ioengine").as_deref(), Some("null"));
    assert_eq!(canon(job2, "iodepth"), None);
}

#[test]
fn nested_includes_resolve_relative_to_each_file() {
    let jobs = good("include_nested.fio");
    assert_eq!(canon(&jobs[0], "size").as_deref(), Some("1048576"));
    assert!(canon(&jobs[0], "bs").unwrap().starts_with("32768"));
}

#[test]
fn included_settings_keep_the_place_they_were_written() {
    let jobs = good("include.fio");
    let bs = job(&jobs, "job1").settings.iter().find(|s| s.def.name == "bs").unwrap();
    match &bs.place {
        Place::File { path, line } => {
            assert!(path.ends_with("job_options.inc"), "{}", path.display());
            assert_eq!(*line, 2);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn comments_with_semicolon_or_hash_end_a_line_anywhere() {
    let jobs = good("comments.fio");
    assert_eq!(names(&jobs), ["job"]);
    assert_eq!(canon(&jobs[0], "rw").as_deref(), Some("read"));
    assert!(canon(&jobs[0], "bs").unwrap().starts_with("8192"));
    assert_eq!(canon(&jobs[0], "size").as_deref(), Some("1048576"));
}

#[test]
fn bare_flags_are_true() {
    let jobs = good("bare_options.fio");
    let first = job(&jobs, "first");
    for flag in ["group_reporting", "thread", "time_based", "norandommap"] {
        assert_eq!(canon(first, flag).as_deref(), Some("1"), "{flag}");
    }
    assert!(job(&jobs, "second").stonewall());
    assert!(!first.stonewall());
}

#[test]
fn blanks_around_names_and_values_are_dropped() {
    let jobs = good("whitespace.fio");
    assert_eq!(names(&jobs), ["job"]);
    assert_eq!(canon(&jobs[0], "size").as_deref(), Some("1048576"));
    assert!(canon(&jobs[0], "bs").unwrap().starts_with("8192"));
    assert_eq!(canon(&jobs[0], "rw").as_deref(), Some("read"));
    assert_eq!(canon(&jobs[0], "iodepth").as_deref(), Some("4"));
    let jobs = good("whitespace_after_equals.fio");
    assert_eq!(names(&jobs), ["job-with-blanks"]);
    assert_eq!(canon(&jobs[0], "rw").as_deref(), Some("read"));
    assert_eq!(canon(&jobs[0], "size").as_deref(), Some("1048576"));
    assert!(canon(&jobs[0], "bs").unwrap().starts_with("8192"));
}

#[test]
fn the_last_assignment_wins() {
    let jobs = good("last_assignment_wins.fio");
    assert_eq!(canon(&jobs[0], "size").as_deref(), Some("2097152"));
    assert_eq!(canon(&jobs[0], "rw").as_deref(), Some("write"));
    assert_eq!(canon(&jobs[0], "iodepth").as_deref(), Some("16"));
}

#[test]
fn name_option_renames_the_job() {
    let jobs = good("description_and_name.fio");
    assert_eq!(names(&jobs), ["renamed"]);
    let description = canon(&jobs[0], "description").unwrap();
    assert_eq!(description, "A job that reads \"quoted\" words, and commas, too");
}

#[test]
fn aliases_set_the_canonical_option() {
    let jobs = good("aliases.fio");
    assert_eq!(canon(&jobs[0], "rw").as_deref(), Some("randread"));
    assert!(canon(&jobs[0], "ba").unwrap().starts_with("4096"));
    assert_eq!(canon(&jobs[0], "io_size").as_deref(), Some("524288"));
}

#[test]
fn empty_jobs_take_only_the_globals() {
    let jobs = good("empty_sections.fio");
    assert_eq!(names(&jobs), ["a", "b"]);
    assert_eq!(canon(&jobs[1], "ioengine").as_deref(), Some("null"));
}

// ---------------------------------------------------------------------------------------
// Values
// ---------------------------------------------------------------------------------------

#[test]
fn size_suffixes_follow_fio() {
    let jobs = good("sizes_suffixes.fio");
    let size = |name: &str| canon(job(&jobs, name), "size").unwrap();
    assert_eq!(size("bytes"), "1048576");
    assert_eq!(size("lower-k"), "1048576");
    assert_eq!(size("upper-k"), "1048576");
    assert_eq!(size("kb"), "2097152");
    assert_eq!(size("mega"), (16u64 << 20).to_string());
    assert_eq!(size("giga"), (1u64 << 30).to_string());
    assert_eq!(size("tera"), (1u64 << 40).to_string());
    assert_eq!(size("peta"), (1u64 << 50).to_string());
    assert_eq!(size("b-suffix"), "4096");
    // fio 3.33 with its default kb_base=1024: 'Ki' (no B) is 1024, but 'KiB' is 1000.
    assert_eq!(size("ki"), (4u64 << 20).to_string());
    assert_eq!(size("kib"), "1000000");
}

#[test]
fn kb_base_1000_makes_suffixes_decimal_for_the_whole_section() {
    let jobs = good("sizes_kb_base_1000.fio");
    assert_eq!(canon(job(&jobs, "decimal"), "size").as_deref(), Some("10000000"));
    assert!(canon(job(&jobs, "decimal"), "bs").unwrap().starts_with("4000"));
    assert_eq!(canon(job(&jobs, "decimal-upper"), "size").as_deref(), Some("1000000000"));
    assert_eq!(canon(job(&jobs, "binary-again"), "size").as_deref(), Some("10485760"));
}

#[test]
fn hex_sizes_are_read() {
    let j = &good("sizes_hex.fio")[0];
    assert_eq!(canon(j, "size").as_deref(), Some("1048576"));
    assert!(canon(j, "bs").unwrap().starts_with("4096"));
    assert_eq!(canon(j, "offset").as_deref(), Some("8192"));
    assert_eq!(canon(j, "randseed").as_deref(), Some("3735928559"));
}

#[test]
fn sizes_may_be_a_percentage() {
    let jobs = good("size_percent.fio");
    assert_eq!(
        job(&jobs, "fifth").value("size"),
        Some(Value::SizeOrPercent(SizeOrPercent::Percent(20.0)))
    );
    let half = job(&jobs, "offset-half").value("offset");
    assert_eq!(half, Some(Value::SizeOrPercent(SizeOrPercent::Percent(50.0))));
}

#[test]
fn times_take_units_and_bare_numbers_use_the_option_unit() {
    let jobs = good("times_units.fio");
    let t = |name: &str, option: &str| canon(job(&jobs, name), option).unwrap();
    assert_eq!(t("hours", "runtime"), "3600000000");
    assert_eq!(t("minutes", "runtime"), "120000000");
    assert_eq!(t("minutes", "ramp_time"), "60000000");
    assert_eq!(t("seconds", "runtime"), "30000000");
    assert_eq!(t("seconds", "ramp_time"), "5000000");
    assert_eq!(t("bare-seconds", "runtime"), "10000000");
    assert_eq!(t("millis", "runtime"), "1500000");
    assert_eq!(t("millis", "ramp_time"), "250000");
    assert_eq!(t("micros", "runtime"), "100");
}

#[test]
fn ranges_accept_dash_and_colon() {
    let jobs = good("ranges.fio");
    let dash = canon(job(&jobs, "dash"), "bsrange").unwrap();
    let colon = canon(job(&jobs, "colon"), "bsrange").unwrap();
    assert!(dash.starts_with("1024-4096"), "{dash}");
    assert_eq!(dash, colon);
    let per_dir = canon(job(&jobs, "per-direction"), "bsrange").unwrap();
    assert!(per_dir.starts_with("512-4096,8192-65536"), "{per_dir}");
}

#[test]
fn per_direction_values_merge_across_global_and_job() {
    let jobs = good("per_direction.fio");
    let bs = |name: &str| canon(job(&jobs, name), "bs").unwrap();
    assert!(bs("both").starts_with("4096,65536"), "{}", bs("both"));
    // Global bs=4k, then bs=,8k in the job: reads keep 4k, writes get 8k.
    assert!(bs("write-only").starts_with("4096,8192,"), "{}", bs("write-only"));
    assert_eq!(bs("three"), "4096,8192,16384");
    let gap = bs("read-write-trim-gap");
    assert!(gap.starts_with("2048,") && gap.ends_with(",32768"), "{gap}");
}

#[test]
fn per_direction_merge_from_a_global_on_the_command_line() {
    let jobs = jobs_of(&["--bs=4k", "--name=j", "--bs=,8k"], &[]);
    let bs = canon(&jobs[0], "bs").unwrap();
    assert!(bs.starts_with("4096,8192,"), "{bs}");
}

#[test]
fn bssplit_keeps_blank_shares() {
    let jobs = good("bssplit.fio");
    let split = |name: &str| canon(job(&jobs, name), "bssplit").unwrap();
    assert!(split("full").starts_with("4096/50:8192/30:65536/20"), "{}", split("full"));
    assert!(split("blank-shares").starts_with("4096/50:8192/:16384/"), "{}", split("blank-shares"));
    let per_dir = split("per-direction");
    assert!(per_dir.starts_with("4096/10:65536/90,32768/"), "{per_dir}");
}

#[test]
fn filename_lists_are_split_at_colons() {
    let j = &good("filename_list.fio")[0];
    let files = vec!["/tmp/iomark-a".to_string(), "/tmp/iomark-b".into(), "/tmp/iomark-c".into()];
    assert_eq!(j.value("filename"), Some(Value::Files(files)));
}

#[test]
fn booleans_are_zero_or_one() {
    let jobs = good("booleans.fio");
    assert_eq!(canon(job(&jobs, "on"), "direct").as_deref(), Some("1"));
    assert_eq!(canon(job(&jobs, "off"), "direct").as_deref(), Some("0"));
    assert_eq!(canon(job(&jobs, "off"), "thread").as_deref(), Some("0"));
}

#[test]
fn enum_values_and_their_aliases() {
    let jobs = good("enums.fio");
    assert_eq!(canon(job(&jobs, "write"), "rw").as_deref(), Some("write"));
    assert_eq!(canon(job(&jobs, "randrw"), "rw").as_deref(), Some("randrw"));
    assert_eq!(canon(job(&jobs, "randrw"), "rwmixread").as_deref(), Some("70"));
    assert_eq!(canon(job(&jobs, "fallocate-keep"), "fallocate").as_deref(), Some("keep"));
    assert!(job(&jobs, "write").writes());
    assert!(!job(&jobs, "read").writes());
}

#[test]
fn machine_keywords_are_substituted() {
    let j = &good("keywords.fio")[0];
    assert_eq!(canon(j, "iodepth").as_deref(), Some("4"));
    assert!(canon(j, "bs").unwrap().starts_with("4096"));
    assert_eq!(j.numjobs(), 4);
}

#[test]
fn keyword_expressions_are_evaluated() {
    let jobs = good("expressions.fio");
    let parens = job(&jobs, "parens");
    assert!(canon(parens, "bs").unwrap().starts_with("8192"));
    assert_eq!(canon(parens, "size").as_deref(), Some((8192u64 * 1024).to_string().as_str()));
    assert_eq!(canon(parens, "iodepth").as_deref(), Some("8"));
    let bare = job(&jobs, "bare");
    assert_eq!(canon(bare, "iodepth").as_deref(), Some("8"));
    assert_eq!(canon(bare, "size").as_deref(), Some("65536"));
    let suffix = job(&jobs, "suffix-after-keyword");
    assert_eq!(canon(suffix, "size").as_deref(), Some((8192u64 << 20).to_string().as_str()));
}

#[test]
fn environment_variables_are_substituted() {
    let j = &good("env.fio")[0];
    assert_eq!(canon(j, "size").as_deref(), Some("8388608"));
}

#[test]
fn integer_options_accept_size_suffixes_and_hex() {
    let j = &good("numeric_suffix_ints.fio")[0];
    assert_eq!(canon(j, "number_ios").as_deref(), Some("1024"));
    assert_eq!(canon(j, "iodepth").as_deref(), Some("16"));
}

#[test]
fn engine_options_are_accepted_with_their_engine() {
    let jobs = good("pvsync2_options.fio");
    assert_eq!(canon(job(&jobs, "polled"), "hipri").as_deref(), Some("1"));
    assert_eq!(canon(job(&jobs, "both"), "nowait").as_deref(), Some("1"));
}

// ---------------------------------------------------------------------------------------
// Assembly: command line, several files, --section, clones
// ---------------------------------------------------------------------------------------

const FILE_A: (&str, &str) = ("a.fio", "[global]\nioengine=null\n[a1]\nrw=read\n[a2]\nrw=write\n");
const FILE_B: (&str, &str) = ("b.fio", "[b1]\nrw=randread\n[b2]\nrw=randwrite\n");

#[test]
fn command_line_jobs_come_before_job_file_jobs() {
    let jobs = jobs_of(&["a.fio", "--name=cli", "--rw=read"], &[FILE_A]);
    assert_eq!(names(&jobs), ["cli", "a1", "a2"]);
}

#[test]
fn command_line_globals_apply_to_command_line_jobs_and_the_first_file_only() {
    let jobs = jobs_of(&["--bs=8k", "--name=cli", "a.fio", "b.fio"], &[FILE_A, FILE_B]);
    assert_eq!(names(&jobs), ["cli", "a1", "a2", "b1", "b2"]);
    for name in ["cli", "a1", "a2"] {
        assert!(canon(job(&jobs, name), "bs").unwrap().starts_with("8192"), "{name}");
    }
    for name in ["b1", "b2"] {
        assert_eq!(canon(job(&jobs, name), "bs"), None, "{name}");
    }
}

#[test]
fn global_sections_do_not_cross_job_files() {
    let jobs = jobs_of(&["a.fio", "b.fio"], &[FILE_A, FILE_B]);
    assert_eq!(canon(job(&jobs, "a1"), "ioengine").as_deref(), Some("null"));
    assert_eq!(canon(job(&jobs, "b1"), "ioengine"), None);
}

#[test]
fn the_first_job_of_a_later_file_gets_an_implicit_stonewall() {
    let jobs = jobs_of(&["a.fio", "b.fio"], &[FILE_A, FILE_B]);
    let walls: Vec<bool> = jobs.iter().map(JobSpec::stonewall).collect();
    assert_eq!(walls, [false, false, true, false]);
    let implicit = job(&jobs, "b1").settings.iter().find(|s| s.def.name == "stonewall").unwrap();
    assert_eq!(implicit.place, Place::Implicit);
}

#[test]
fn section_option_selects_jobs_and_keeps_globals() {
    let jobs = jobs_of(&["--section=a2", "a.fio"], &[FILE_A]);
    assert_eq!(names(&jobs), ["a2"]);
    assert_eq!(canon(&jobs[0], "ioengine").as_deref(), Some("null"));
    let jobs = jobs_of(&["--section=a1", "--section=b2", "a.fio", "b.fio"], &[FILE_A, FILE_B]);
    assert_eq!(names(&jobs), ["a1", "b2"]);
}

#[test]
fn section_option_naming_no_section_is_refused() {
    let err = parse_args(&["--section=nope", "a.fio"], &TestLoader::with(&[FILE_A])).unwrap_err();
    assert!(err.to_string().contains("'nope'"), "{err}");
}

#[test]
fn an_error_in_a_later_file_names_that_file() {
    let bad = ("c.fio", "[c]\n\nbs=huge\n");
    let err = parse_args(&["a.fio", "c.fio"], &TestLoader::with(&[FILE_A, bad])).unwrap_err();
    let message = err.to_string();
    assert!(message.contains("c.fio:3"), "{message}");
    assert!(message.contains("job 'c'"), "{message}");
}

#[test]
fn a_missing_job_file_is_refused() {
    let err = parse_args(&["/nonexistent/iomark.fio"], &TestLoader::default()).unwrap_err();
    assert!(err.to_string().contains("/nonexistent/iomark.fio"), "{err}");
}

#[test]
fn numjobs_clones_are_numbered_from_zero() {
    let jobs = good("numjobs.fio");
    let clones: Vec<(String, u64)> =
        spec::clones(&jobs).map(|c| (c.spec.name.clone(), c.jobnum)).collect();
    let expected: Vec<(String, u64)> = [("four", 0), ("four", 1), ("four", 2), ("four", 3)]
        .into_iter()
        .chain([("two", 0), ("two", 1)])
        .map(|(n, i)| (n.to_string(), i))
        .collect();
    assert_eq!(clones, expected);
}

#[test]
fn filename_format_expands_for_every_clone_and_file() {
    let jobs = good("filename_format.fio");
    let fmt = job(&jobs, "fmt");
    let Some(Value::Str(format)) = fmt.value("filename_format") else {
        panic!("filename_format: {:?}", fmt.value("filename_format"))
    };
    let mut names = Vec::new();
    for clone in spec::clones(std::slice::from_ref(fmt)) {
        for filenum in 0..2 {
            names.push(spec::expand_filename_format(&format, &fmt.name, clone.jobnum, filenum));
        }
    }
    assert_eq!(names, ["iomark.fmt.0.0", "iomark.fmt.0.1", "iomark.fmt.1.0", "iomark.fmt.1.1"]);
    let fixed = job(&jobs, "fmt-fixed");
    let Some(Value::Str(format)) = fixed.value("filename_format") else { panic!() };
    assert_eq!(spec::expand_filename_format(&format, "fmt-fixed", 0, 3), "shared.3");
}

#[test]
fn stonewall_and_new_group_are_read() {
    let jobs = good("stonewall_new_group.fio");
    let walls: Vec<bool> = jobs.iter().map(JobSpec::stonewall).collect();
    assert_eq!(walls, [false, true, false, true]);
    assert_eq!(canon(job(&jobs, "c"), "new_group").as_deref(), Some("1"));
    assert_eq!(canon(job(&jobs, "d"), "new_group").as_deref(), Some("1"));
}

#[test]
fn wait_for_names_an_earlier_job() {
    let jobs = good("wait_for.fio");
    assert_eq!(canon(job(&jobs, "check"), "wait_for").as_deref(), Some("prepare"));
}
