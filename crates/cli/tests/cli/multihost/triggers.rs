//! Triggers over the protocol, every pairing of fio's and iomark's client and server: the
//! client sees its trigger file, every server sends back its jobs' write states (saved as
//! fio's `HOST-JOB-N-verify.state`), stops its jobs and runs `--trigger-remote`'s
//! command; the client then runs `--trigger`'s and prints the report, exit code 0.

use super::Server;
use crate::support::process::{poll_until, Running};
use crate::support::run::{tempdir, IOMARK};
use crate::support::tools::fio_3_33_installed;
use std::path::Path;

/// Runs `client` (fio or iomark) against `server` with a job that would write for an
/// hour, fires the trigger once the job has started, and checks what each side did.
fn trigger(client: &str, server: &Server, dir: &Path) {
    let started = dir.join("started");
    let job = crate::support::run::write_job(
        dir,
        &format!(
            "[global]\nioengine=null\nrw=write\nsize=1m\ntime_based\nruntime=1h\n\
             [long]\nexec_prerun=touch {}\n[other]\n",
            started.display()
        ),
    );
    let (remote, local) = (dir.join("remote.ran"), dir.join("local.ran"));
    let args = [
        server.client_arg(),
        job.display().to_string(),
        "--trigger-file=fire".into(),
        format!("--trigger-remote=touch {}", remote.display()),
        format!("--trigger=touch {}", local.display()),
    ];
    let mut run = Running::start_program(client, dir, &args);
    // Nothing announces that the job has started but the file its prerun command makes.
    poll_until(|| started.exists().then_some(())).expect("the job started");
    std::fs::write(dir.join("fire"), "").unwrap();
    let status = run.wait();
    assert!(status.success(), "{client}: {status}: {}", run.stderr.text());
    assert!(remote.exists() && local.exists(), "{client}: both commands ran");
    assert!(!dir.join("fire").exists(), "the trigger file is taken away");
    for (job, index) in [("long", 0), ("other", 1)] {
        let state = dir.join(format!("127.0.0.1-{job}-{index}-verify.state"));
        let bytes = std::fs::read(&state).unwrap_or_else(|e| panic!("{client}: {state:?}: {e}"));
        // fio's state file: version 3, the list's size, its checksum, the list.
        assert_eq!(&bytes[..8], &3u64.to_le_bytes());
        // The list's size, then its 152 bytes of the job's state and 16 bytes per slot:
        // depth × files, at depth 1 with one file one slot, or none when the trigger came
        // before the job had opened its file.
        let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
        let slots = word(32) as usize * word(36) as usize;
        assert!(slots <= 1, "{client}: {job}: {slots} slots at depth 1, one file");
        assert_eq!(bytes.len(), 24 + 152 + 16 * slots, "{client}: {job}");
        assert_eq!(&bytes[8..16], &((bytes.len() - 24) as u64).to_le_bytes(), "{client}: {job}");
        assert_eq!(bytes[24 + 88..24 + 88 + job.len()], *job.as_bytes());
    }
    assert!(run.stdout.text().contains("long: (groupid=0"), "{}", run.stdout.text());
}

#[test]
fn iomark_clients_trigger_iomark_servers() {
    let dir = tempdir();
    let server = Server::start_on(&dir.path().join("iomark.log"), false);
    trigger(IOMARK, &server, dir.path());
}

#[test]
fn triggers_go_between_fio_and_iomark_both_ways() {
    if !fio_3_33_installed() {
        return;
    }
    let (a, b) = (tempdir(), tempdir());
    let ours = Server::start_on(&a.path().join("iomark.log"), false);
    trigger("fio", &ours, a.path());
    let fios = Server::fio(&b.path().join("fio.log"));
    trigger(IOMARK, &fios, b.path());
}
