//! Jobs that iomark used to refuse and fio 3.33 runs (issue 14, item 3; the audit table is
//! in docs/compatibility.md): each runs in iomark, with its note where fio's reading is not
//! the plain one and nothing on standard error, to the same counts and, where the I/O does
//! not depend on random draws, the same I/O as fio 3.33's run of the same job.

use crate::support::report::json_doc;
use crate::support::run::{iomark_in, run_in, tempdir, text, write_job};
use crate::support::tools::fio_installed;
use serde_json::Value;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;

/// A job fio runs, the note iomark adds (a part of its text; empty for none), and whether
/// the iologs of both programs must match line for line (no random draw in them).
struct Case {
    job: &'static str,
    note: &'static str,
    same_iolog: bool,
}

const CASES: &[Case] = &[
    Case {
        job: "rw=read\nsize=64k\ntime_based=1\n",
        note: "time_based requires a runtime/timeout setting",
        same_iolog: true,
    },
    Case { job: "max_latency=1s,2s,3s,4s\n", note: "ignoring ',4s'", same_iolog: true },
    Case { job: "rw=randread:x\nnrfiles=2\n", note: "'randread:x' is read", same_iolog: true },
    Case { job: "rw=randread:0\n", note: "", same_iolog: true },
    Case {
        job: "nrfiles=2\nfile_service_type=roundrobin:4k\n",
        note: "'roundrobin:4k' is read",
        same_iolog: true,
    },
    Case {
        job: "nrfiles=2\nfile_service_type=sequential:x\n",
        note: "ignoring 'x'",
        same_iolog: true,
    },
    Case { job: "rw=write\nrate_min=1k\nrate_cycle=0\n", note: "", same_iolog: true },
    Case {
        job: "ioengine=mmap\nrw=write\nunlink_each_loop=1\nfilename=mm\n",
        note: "",
        same_iolog: true,
    },
    Case { job: "rw=write\nverify=crc32c\nverify_async=1500\n", note: "", same_iolog: false },
    Case { job: "ss=iops:-1\nss_dur=1\n", note: "a negative limit", same_iolog: true },
    Case {
        job: "rw=write\nwrite_barrier=2\n",
        note: "write_barrier has no effect",
        same_iolog: true,
    },
    Case { job: "gtod_cpu=0\n", note: "gtod_cpu has no effect", same_iolog: true },
    Case { job: "rw=randread\nrandom_distribution=zipf:0\n", note: "", same_iolog: true },
    Case {
        job: "rw=randread\nrandom_distribution=zipf:-1\nnorandommap=1\n",
        note: "",
        same_iolog: true,
    },
];

/// The data directions' bytes of the one job of a JSON report.
fn bytes(doc: &Value) -> [u64; 2] {
    let job = &doc["jobs"][0];
    ["read", "write"].map(|d| job[d]["io_bytes"].as_u64().expect("io_bytes"))
}

/// The I/O lines of an iolog: file, action, offset, length (times left out).
fn iolog(path: &Path) -> Vec<String> {
    let log = std::fs::read_to_string(path).expect("the iolog");
    log.lines()
        .skip(1)
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .filter(|f| f.len() == 5 && matches!(f[2], "read" | "write"))
        .map(|f| f[1..].join(" "))
        .collect()
}

#[test]
fn jobs_fio_runs_are_run_with_their_notes() {
    let fio = fio_installed();
    for case in CASES {
        let dir = tempdir();
        let job = format!(
            "[global]\nioengine=psync\nsize=256k\nbs=4k\nwrite_iolog=io.log\n[j]\n{}",
            case.job
        );
        write_job(dir.path(), &job);
        let out = iomark_in(dir.path(), &["--output-format=json", "job.fio"], true);
        let what = format!("iomark on {:?}", case.job);
        assert_eq!(out.status.code(), Some(0), "{what}: {}", text(&out.stderr));
        assert_eq!(text(&out.stderr), "", "{what}: nothing on stderr");
        let doc = json_doc(&out, &what);
        let notes = doc["iomark notes"].to_string();
        assert!(case.note.is_empty() || notes.contains(case.note), "{what}: {notes}");
        assert_eq!(doc["jobs"][0]["error"], 0, "{what}");
        if !fio {
            continue;
        }
        let ours = (bytes(&doc), iolog(&dir.path().join("io.log")));
        // (fio appends to an iolog that is there.)
        std::fs::remove_file(dir.path().join("io.log")).expect("remove the iolog");
        // fio 3.33 itself is sometimes killed by a signal on a loaded machine (seen with
        // gtod_cpu, whose thread spins on its CPU): such a run is fio's, so it runs again.
        let fio_run = || run_in(dir.path(), "fio", &["--output-format=json", "job.fio"]);
        let mut out = fio_run();
        for _ in 0..2 {
            if out.status.signal().is_none() {
                break;
            }
            let _ = std::fs::remove_file(dir.path().join("io.log"));
            out = fio_run();
        }
        let died = out.status.signal();
        assert_eq!(
            out.status.code(),
            Some(0),
            "fio on {:?} (signal {died:?}): {}",
            case.job,
            text(&out.stderr)
        );
        let doc = json_doc(&out, "fio");
        assert_eq!(ours.0, bytes(&doc), "{:?}: bytes against fio's", case.job);
        if case.same_iolog {
            assert_eq!(ours.1, iolog(&dir.path().join("io.log")), "{:?}: fio's I/O", case.job);
        }
    }
}
