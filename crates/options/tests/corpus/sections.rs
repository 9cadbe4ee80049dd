//! Job files: sections, globals, includes, comments, bare flags, aliases and the last
//! assignment winning.

use crate::*;

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
fn blanks_around_names_and_lines_are_dropped() {
    let jobs = good("whitespace.fio");
    assert_eq!(names(&jobs), ["job"]);
    assert_eq!(canon(&jobs[0], "size").as_deref(), Some("1048576"));
    assert!(canon(&jobs[0], "bs").unwrap().starts_with("8192"));
    assert_eq!(canon(&jobs[0], "rw").as_deref(), Some("read"));
    assert_eq!(canon(&jobs[0], "iodepth").as_deref(), Some("4"));
    // A choice after a blank is read as written (fio 3.33 refuses it); numbers after a
    // blank are read as fio reads them (tests/jobs/lenient/blank_after_equals.fio).
    let jobs = good("whitespace_after_equals.fio");
    assert_eq!(names(&jobs), ["job-with-blanks"]);
    assert_eq!(canon(&jobs[0], "rw").as_deref(), Some("read"));
    assert_eq!(canon(&jobs[0], "ioengine").as_deref(), Some("null"));
    assert_eq!(canon(&jobs[0], "size").as_deref(), Some("1048576"));
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
