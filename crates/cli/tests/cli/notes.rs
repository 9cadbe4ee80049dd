//! Notes and streams: a run that succeeds writes nothing on standard error. Its notes (fio's
//! capped queue depth, an `exec_prerun`'s output file, a malformed value read as fio reads
//! it, an engine that completed inline…) come on standard output, as `note: …` lines before
//! a text report and as `"iomark notes"` in the JSON document, which stays the whole of
//! standard output. And the job files of `tests/jobs/lenient/`, malformed values that fio
//! 3.33 runs, run in iomark as in fio.

use crate::support::corpus::corpus;
use crate::support::report::json_doc;
use crate::support::run::{iomark_in, run_in, tempdir, text, write_job};
use crate::support::tools::{engine_available, fio_installed};
use serde_json::Value;
use std::path::Path;

/// Runs iomark on `job` in `dir` in each output format and checks the streams: exit 0,
/// nothing on stderr, every note of `notes` (a part of its text) on stdout, in the JSON
/// document for the JSON formats (which then is the whole of stdout), before the report
/// otherwise.
fn assert_notes_on_stdout(dir: &Path, job: &str, notes: &[&str]) {
    write_job(dir, job);
    for format in ["json", "json+", "terse", "normal", "json,normal"] {
        let arg = format!("--output-format={format}");
        let out = iomark_in(dir, &[&arg, "job.fio"], true);
        let what = format!("{format} of {job:?}");
        assert_eq!(out.status.code(), Some(0), "{what}: {}", text(&out.stderr));
        assert_eq!(text(&out.stderr), "", "{what}: a run that succeeds writes nothing on stderr");
        let stdout = text(&out.stdout);
        if format.starts_with("json") && !format.contains("normal") {
            let doc = json_doc(&out, &what);
            let got: Vec<&str> = doc["iomark notes"]
                .as_array()
                .unwrap_or_else(|| panic!("{what}: no \"iomark notes\" in {doc}"))
                .iter()
                .map(|n| n.as_str().expect("a note is a string"))
                .collect();
            for want in notes {
                assert!(got.iter().any(|n| n.contains(want)), "{what}: '{want}' not in {got:?}");
            }
            continue;
        }
        let first = stdout.lines().position(|l| !l.starts_with("note: ")).unwrap_or(0);
        // (The normal report's start lines come before the notes, as fio's do.)
        let report_at = if format.contains("normal") {
            stdout.lines().position(|l| l.contains("(groupid=")).expect("the report")
        } else {
            stdout.lines().position(|l| !l.starts_with("note: ")).expect("the report")
        };
        for want in notes {
            let at = stdout.lines().position(|l| l.starts_with("note: ") && l.contains(want));
            let at = at.unwrap_or_else(|| panic!("{what}: no note '{want}' in:\n{stdout}"));
            assert!(at < report_at, "{what}: the note '{want}' comes after the report");
        }
        assert!(format != "terse" || first > 0, "{what}: notes first");
    }
}

#[test]
fn fios_capped_depth_note_is_on_stdout() {
    let dir = tempdir();
    let job = "[j]\nioengine=psync\niodepth=4\nsize=64k\n";
    assert_notes_on_stdout(dir.path(), job, &["queue depth will be capped at 1"]);
}

#[test]
fn exec_notes_are_on_stdout() {
    let dir = tempdir();
    let job = "[j]\nioengine=null\nsize=64k\nexec_prerun=true\nexec_postrun=true\n\
               [k]\nioengine=null\nsize=64k\nexec_prerun=false\n";
    let notes = [
        "job 'j': Saving output of prerun in j.prerun.txt",
        "job 'j': Saving output of postrun in j.postrun.txt",
        "job 'k': exec_prerun 'false' failed (exit status 1)",
    ];
    assert_notes_on_stdout(dir.path(), job, &notes);
}

#[test]
fn lenient_values_and_headers_are_noted_on_stdout() {
    let dir = tempdir();
    let job = "[j\nioengine=null\nsize=64k)\nbsrange=512/25:1k:25:2k:25:4k/25\n";
    let notes = [
        "(job.fio:1): the header has no closing ']'",
        "(job.fio:3): option 'size': '64k)' is read as fio 3.33 reads it, ignoring ')'; used \
         65536",
        "option 'bsrange': '512/25:1k:25:2k:25:4k/25' is read as fio 3.33 reads it",
    ];
    assert_notes_on_stdout(dir.path(), job, &notes);
}

#[test]
fn replay_skip_note_is_on_stdout() {
    let dir = tempdir();
    std::fs::write(dir.path().join("r.log"), "fio version 2 iolog\nf add\nf open\nf read 0 4096\n")
        .unwrap();
    let job = "[j]\nioengine=null\nread_iolog=r.log\nreplay_skip=write\n";
    assert_notes_on_stdout(dir.path(), job, &["replay_skip applies to blktrace replays only"]);
}

#[test]
fn ioscheduler_on_a_file_on_no_disk_is_noted_on_stdout() {
    let shm = Path::new("/dev/shm");
    if !shm.is_dir() {
        eprintln!("skipped: no /dev/shm");
        return;
    }
    let dir = tempdir();
    let file = shm.join(format!("iomark-notes-{}", std::process::id()));
    let job = format!("[j]\nfilename={}\nsize=64k\nioscheduler=none\n", file.display());
    assert_notes_on_stdout(dir.path(), &job, &["ioscheduler: '/dev/shm/iomark-notes-"]);
    std::fs::remove_file(&file).unwrap();
}

#[test]
fn buffered_libaio_completing_inline_is_noted_on_stdout() {
    if !engine_available("libaio", &iomark_engine::EngineOptions::default()) {
        return;
    }
    let dir = tempdir();
    let job = "[j]\nioengine=libaio\niodepth=8\nsize=1m\nrw=write\n";
    assert_notes_on_stdout(dir.path(), job, &["libaio completed submissions inline"]);
}

/// The texts after `; note: ` in a corpus file.
fn expected_notes(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines().filter_map(|l| l.strip_prefix("; note: ")).map(str::to_string).collect()
}

/// The bytes each job read, wrote and trimmed, by job name.
fn bytes_by_job(doc: &Value) -> Vec<(String, [u64; 3])> {
    let jobs = doc["jobs"].as_array().expect("jobs");
    jobs.iter()
        .map(|j| {
            // fio leaves out "jobname" when the name is empty.
            let name = j["jobname"].as_str().unwrap_or_default().to_string();
            let bytes = ["read", "write", "trim"].map(|d| j[d]["io_bytes"].as_u64().unwrap_or(0));
            (name, bytes)
        })
        .collect()
}

#[test]
fn lenient_job_files_run_as_in_fio_with_their_notes() {
    let fio = fio_installed();
    for path in corpus("lenient") {
        let dir = tempdir();
        let file = path.to_str().unwrap();
        let out = iomark_in(dir.path(), &["--output-format=json", file], true);
        let what = path.display().to_string();
        assert_eq!(out.status.code(), Some(0), "{what}: {}", text(&out.stderr));
        assert_eq!(text(&out.stderr), "", "{what}: nothing on stderr");
        let doc = json_doc(&out, &what);
        let notes = doc["iomark notes"].to_string();
        for want in expected_notes(&path) {
            let want = serde_json::to_string(&want).unwrap();
            assert!(notes.contains(want.trim_matches('"')), "{what}: {want} not in {notes}");
        }
        // Random jobs draw their own sizes and directions (fio's random streams are another
        // issue's) and a runtime cuts a job where the clock says; the others must move the
        // same bytes as fio's.
        let job = std::fs::read_to_string(&path).unwrap();
        if fio && !job.contains("rw=rand") && !job.contains("runtime") {
            let theirs = run_in(dir.path(), "fio", &["--output-format=json", file]);
            // fio writes a tab in a value raw, which no JSON reader takes.
            let theirs = text(&theirs.stdout).replace('\t', "\\t");
            let theirs: Value =
                serde_json::from_str(&theirs).unwrap_or_else(|e| panic!("{what}: fio's JSON: {e}"));
            assert_eq!(bytes_by_job(&doc), bytes_by_job(&theirs), "{what}: bytes per job");
        }
    }
}

#[test]
fn warnings_fatal_refuses_lenient_job_files_with_one_line() {
    for path in corpus("lenient") {
        let dir = tempdir();
        let out = iomark_in(dir.path(), &["--warnings-fatal", path.to_str().unwrap()], true);
        let what = path.display().to_string();
        assert_eq!(out.status.code(), Some(2), "{what}");
        assert_eq!(text(&out.stdout), "", "{what}");
        let err = text(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{what}: {err}");
        assert!(err.starts_with("iomark: "), "{what}: {err}");
    }
}

#[test]
fn block_latency_notes_are_on_stdout() {
    // The tracer's notes (tracefs mounted for the run, a job it cannot follow) go the way
    // of every job note: a job on the null engine has no file on a device to follow.
    let dir = tempdir();
    let job = "[j]\nioengine=null\nsize=64k\nblock_latency=1\n";
    assert_notes_on_stdout(dir.path(), job, &["the job has no file on a device (null engine)"]);
}

/// The (class, level, completions) of each priority of a report's reads.
fn read_prios(doc: &Value) -> Vec<(u64, u64, u64)> {
    let prios = doc["jobs"][0]["read"]["prios"].as_array().cloned().unwrap_or_default();
    let n = |p: &Value, k: &str| p[k].as_u64().unwrap_or(u64::MAX);
    prios.iter().map(|p| (n(p, "prioclass"), n(p, "prio"), n(&p["clat_ns"], "N"))).collect()
}

#[test]
fn cmdprio_bssplit_share_that_is_no_number_is_0_as_in_fio() {
    if !engine_available("libaio", &iomark_engine::EngineOptions::default()) {
        eprintln!("skipped: libaio is not available");
        return;
    }
    let dir = tempdir();
    let args = [
        "--name=j",
        "--filename=f",
        "--size=1m",
        "--rw=randread",
        "--bssplit=4k/50:8k/50",
        "--ioengine=libaio",
        "--cmdprio_bssplit=4k/x:8k/100",
        "--cmdprio_class=2",
        "--write_iolog=x.iolog",
        "--output-format=json",
    ];
    let out = iomark_in(dir.path(), &args, true);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stderr), "");
    let doc = json_doc(&out, "iomark");
    let note =
        "'4k/x:8k/100' is read as fio 3.33 reads it, ignoring 'x' (a share that is no number is 0)";
    assert!(doc["iomark notes"].to_string().contains(note), "{}", doc["iomark notes"]);
    // The 4k reads keep the job's priority, every 8k read gets class 2.
    let log = std::fs::read_to_string(dir.path().join("x.iolog")).unwrap();
    let count = |len: &str| {
        let reads = log.lines().map(|l| l.split(' ').collect::<Vec<_>>());
        reads.filter(|f| f.get(2) == Some(&"read") && f.get(4) == Some(&len)).count() as u64
    };
    let ours = read_prios(&doc);
    assert_eq!(ours, [(0, 0, count("4096")), (2, 0, count("8192"))]);
    if fio_installed() {
        let theirs = run_in(dir.path(), "fio", &args);
        assert_eq!(read_prios(&json_doc(&theirs, "fio")), ours, "fio's priorities");
    }
}
