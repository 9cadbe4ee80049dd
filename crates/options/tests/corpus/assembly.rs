//! Assembly: command-line globals and jobs, several job files, `--section`, `numjobs`
//! clones and `filename_format`.

use crate::*;

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
