//! What iomark asks of the kernel for a job's files, seen under strace and compared with
//! fio 3.33's calls: `create_fsync`, `pre_read`, `lockfile`, `fadvise_hint`. Without strace
//! (or where it may not trace) the tests print `skipped: …` and pass.

use crate::support::corpus::good;
use crate::support::run::{tempdir, IOMARK};
use crate::support::tools::{self, fio_installed};

/// The lines strace writes for the system calls `calls` of `program` (with `args`, in a
/// fresh temporary directory, file descriptors shown with their paths); `None` when
/// strace cannot trace here.
fn traced(program: &str, args: &[&str], calls: &str) -> Option<Vec<String>> {
    tools::traced(tempdir().path(), program, args, calls)
}

/// `lines` of `strace -f` with each call that another thread interrupted
/// (`PID read(5</f>, <unfinished ...>`, later `PID <... read resumed>"", 4096) = 4096`)
/// put back on one line.
fn joined(lines: &[String]) -> Vec<String> {
    let mut pending: std::collections::HashMap<String, String> = Default::default();
    let mut out = Vec::new();
    for line in lines {
        let pid = line.split(' ').next().unwrap_or("").to_string();
        if let Some(head) = line.strip_suffix(" <unfinished ...>") {
            pending.insert(pid, head.to_string());
        } else if let Some((_, tail)) = line.split_once(" resumed>") {
            let head = pending.remove(&pid).unwrap_or_default();
            out.push(format!("{head}{tail}"));
        } else {
            out.push(line.clone());
        }
    }
    out
}

/// The `fsync` and `fdatasync` calls of `program` with `args` (see [`traced`]).
fn syncs_traced(program: &str, args: &[&str]) -> Option<usize> {
    let lines = traced(program, args, "fsync,fdatasync")?;
    Some(lines.iter().filter(|l| l.contains("sync(")).count())
}

#[test]
fn create_fsync_syncs_each_laid_out_file_as_fio() {
    let iomark = IOMARK;
    let fio = fio_installed().then_some("fio");
    for (flag, want) in [("--create_fsync=1", 2), ("--create_fsync=0", 0)] {
        let args = [
            "--name=c",
            "--rw=read",
            "--bs=4k",
            "--size=128k",
            "--nrfiles=2",
            flag,
            "--output-format=terse",
        ];
        let Some(ours) = syncs_traced(iomark, &args) else {
            eprintln!("skipped: strace missing or not allowed to trace");
            return;
        };
        assert_eq!(ours, want, "{flag}");
        if let Some(fio) = fio {
            assert_eq!(syncs_traced(fio, &args), Some(want), "fio {flag}");
        }
    }
}

#[test]
fn pre_read_reads_the_region_before_the_job_as_fio() {
    // Both read the region with read(2) before the job, whose psync I/O is pread64(2).
    let job = good("pre_read.fio");
    let args = [job.to_str().unwrap(), "--output-format=terse"];
    let read_bytes = |program: &str| -> Option<u64> {
        let lines = joined(&traced(program, &args, "read")?);
        let bytes = lines
            .iter()
            .filter(|l| l.contains(" read(") && l.contains("pre-read.0.0>"))
            .filter_map(|l| l.rsplit(' ').next()?.parse::<u64>().ok())
            .sum();
        Some(bytes)
    };
    let Some(ours) = read_bytes(IOMARK) else {
        eprintln!("skipped: strace missing or not allowed to trace");
        return;
    };
    assert_eq!(ours, 256 * 1024);
    if fio_installed() {
        assert_eq!(read_bytes("fio"), Some(256 * 1024), "fio");
    }
}

#[test]
fn locked_jobs_never_do_io_to_a_shared_file_at_once() {
    // As threads and as job processes. strace shows a system call that another thread's call interrupts as `<unfinished
    // ...>`: with the lock, no two jobs' I/Os to the shared file overlap. (Without it,
    // about a third of them do here; that is not asserted, as it depends on the machine.)
    let dir = tempdir();
    let job = dir.path().join("locks.fio");
    std::fs::write(
        &job,
        "[global]\nioengine=psync\nbs=4k\nsize=2m\nfilename=shared.dat\n\
         [writer]\nrw=randwrite\n[reader]\nrw=randread\n[reader-too]\nrw=read\n",
    )
    .expect("write the job file");
    // Job threads, then job processes (the locks in memory the processes share).
    let modes = ["exclusive", "readwrite"].map(|m| (m, "--thread"));
    let process_modes = ["exclusive", "readwrite"].map(|m| (m, "--job-processes"));
    for (mode, model) in modes.into_iter().chain(process_modes) {
        let flag = format!("--lockfile={mode}");
        let args = [model, flag.as_str(), job.to_str().unwrap(), "--output-format=terse"];
        let mode = format!("{mode} {model}");
        let Some(lines) = traced(IOMARK, &args, "pread64,pwrite64") else {
            eprintln!("skipped: strace missing or not allowed to trace");
            return;
        };
        let on_file: Vec<&String> = lines.iter().filter(|l| l.contains("shared.dat>")).collect();
        assert!(on_file.len() >= 3 * 512, "{mode}: {} calls", on_file.len());
        // readwrite lets the readers overlap with each other, never with the writer.
        let overlaps = overlapping(&lines);
        if mode.starts_with("exclusive") {
            assert!(overlaps.is_empty(), "{mode}: overlapping calls {overlaps:?}");
        } else {
            let write = overlaps.iter().any(|(a, b)| a.contains("pwrite") || b.contains("pwrite"));
            assert!(!write, "{mode}: a write overlapped another call: {overlaps:?}");
        }
    }
}

/// The calls to `shared.dat` in strace's `lines` that began while another thread's or
/// process's call to it had not returned (strace splits such a call into `<unfinished
/// ...>` and `<... resumed>`; a call split only by another program's event is no overlap):
/// pairs of (the call under way, the one that began).
fn overlapping(lines: &[String]) -> Vec<(String, String)> {
    let mut under_way: Vec<(&str, &str)> = Vec::new();
    let mut overlaps = Vec::new();
    for line in lines {
        let (pid, call) = line.split_once(' ').unwrap_or(("", line));
        let call = call.trim_start();
        if call.starts_with("<...") {
            under_way.retain(|(p, _)| *p != pid);
            continue;
        }
        if !call.contains("shared.dat>") {
            continue;
        }
        if let Some((_, other)) = under_way.iter().find(|(p, _)| *p != pid) {
            overlaps.push((other.to_string(), call.to_string()));
        }
        if call.contains("<unfinished") {
            under_way.push((pid, call));
        }
    }
    overlaps
}

#[test]
fn fadvise_hint_gives_fios_advice() {
    let fio = fio_installed().then_some("fio");
    let iomark = IOMARK;
    for (rw, hint, want) in [
        ("randread", None, "RANDOM"),
        ("read", None, "SEQUENTIAL"),
        ("randrw", None, "RANDOM"),
        ("randread", Some("0"), ""),
        ("read", Some("random"), "RANDOM"),
        ("randread", Some("sequential"), "SEQUENTIAL"),
    ] {
        let rw = format!("--rw={rw}");
        let hint = hint.map(|h| format!("--fadvise_hint={h}"));
        let mut args = vec!["--name=f", "--bs=4k", "--size=256k", rw.as_str()];
        args.extend(hint.as_deref());
        args.push("--output-format=terse");
        // The advice of the access pattern (invalidate's DONTNEED aside).
        let advice = |program: &str| -> Option<String> {
            let lines = traced(program, &args, "fadvise64")?;
            let advice: Vec<&str> = lines
                .iter()
                .filter_map(|l| l.split("POSIX_FADV_").nth(1)?.split(')').next())
                .filter(|a| *a != "DONTNEED")
                .collect();
            Some(advice.join(" "))
        };
        let Some(ours) = advice(iomark) else {
            eprintln!("skipped: strace missing or not allowed to trace");
            return;
        };
        assert_eq!(ours, want, "{args:?}");
        if let Some(fio) = fio {
            assert_eq!(advice(fio).as_deref(), Some(want), "fio {args:?}");
        }
    }
}
