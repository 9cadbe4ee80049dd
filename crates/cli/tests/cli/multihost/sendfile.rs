//! A server asking `iomark --client` for a file (`SENDFILE`), as fio 3.33's server asks
//! for a job's verify state when the job has `verify_state_load`: the client sends the
//! state file it saved, as fio's client sends it, and refuses anything else.

use super::{fake_server, Server};
use crate::support::run::{command, tempdir, text, write_job, IOMARK};
use crate::support::tools::fio_3_33_installed;
use iomark_dist::proto::frame::{read_message, write_message};
use iomark_dist::proto::trigger::{state_files, states, JobState};
use iomark_dist::proto::Op;

/// A verify state file of job `vs` (one writer), as a trigger on `host` saves it.
fn state(host: &str) -> (String, Vec<u8>) {
    let jobs = [JobState { name: "vs".into(), depth: 1, files: 1, writes: 64 }];
    state_files(host, &states(&jobs)).remove(0)
}

#[test]
fn the_client_sends_the_state_file_asked_for_and_nothing_else() {
    let dir = tempdir();
    let job = write_job(dir.path(), "[vs]\nioengine=null\nrw=read\nsize=1m\n");
    let aux = dir.path().join("aux");
    std::fs::create_dir(&aux).unwrap();
    let (name, bytes) = state("127.0.0.1");
    std::fs::write(aux.join(&name), &bytes).unwrap();
    let asked = name.clone();
    let (port, server) = fake_server(97, move |conn| {
        let mut replies = Vec::new();
        for (tag, want) in [(7u64, asked.as_str()), (8, "/etc/passwd"), (9, "x-verify.state")] {
            let mut ask = want.as_bytes().to_vec();
            ask.resize(256, 0);
            write_message(conn, Op::SendFile, tag, &ask).unwrap();
            // The job files and RUN come first.
            loop {
                let m = read_message(conn).unwrap().expect("an answer");
                if m.op == Op::SendFile {
                    replies.push((m.tag, m.payload));
                    break;
                }
            }
        }
        write_message(conn, Op::Quit, 0, &[]).unwrap();
        replies
    });
    let out = command(IOMARK)
        .current_dir(dir.path())
        .arg(format!("--client=127.0.0.1,{port}"))
        .arg(format!("--aux-path={}", aux.display()))
        .arg(&job)
        .output()
        .expect("run iomark --client");
    let replies = server.join().unwrap();
    // The file's size, no error, the file; then EACCES for a path, ENOENT for a state
    // that is not there.
    let mut first = (bytes.len() as u32).to_le_bytes().to_vec();
    first.extend_from_slice(&[0; 4]);
    first.extend_from_slice(&bytes);
    assert_eq!(replies[0], (7, first));
    assert_eq!(replies[1], (8, vec![0, 0, 0, 0, 13, 0, 0, 0]));
    assert_eq!(replies[2], (9, vec![0, 0, 0, 0, 2, 0, 0, 0]));
    // The refusal is reported.
    let err = text(&out.stderr);
    assert!(err.contains("asked for '/etc/passwd'"), "{err}");
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn a_fio_server_loads_the_verify_state_iomarks_client_sends() {
    if !fio_3_33_installed() {
        return;
    }
    let dir = tempdir();
    let data = dir.path().join("data");
    std::fs::create_dir(&data).unwrap();
    // The job writes its blocks with verify headers, then reads and verifies them with
    // the state loaded.
    let job = |rw: &str, more: &str| {
        let path = dir.path().join(format!("{rw}.fio"));
        let text = format!(
            "[vs]\nrw={rw}\nbs=4k\nsize=256k\ndirectory={}\nverify=crc32c\n{more}",
            data.display()
        );
        std::fs::write(&path, text).unwrap();
        path
    };
    let (write, read) = (job("write", "do_verify=0\n"), job("read", "verify_state_load=1\n"));
    let server = Server::fio(&dir.path().join("fio.log"));
    let run = |job: &std::path::Path| {
        command(IOMARK)
            .current_dir(dir.path())
            .arg(server.client_arg())
            .arg(job)
            .output()
            .expect("run iomark --client")
    };
    // fio's server prints `failure on receiving state file NAME: ERROR` when it gets no
    // state (or dies first: that half is not deterministic, so it is not checked).
    let failure = "failure on receiving state file";
    let (name, bytes) = state("127.0.0.1");
    std::fs::write(dir.path().join(name), bytes).unwrap();
    assert_eq!(run(&write).status.code(), Some(0));
    let out = run(&read);
    assert_eq!(out.status.code(), Some(0), "{}{}", text(&out.stdout), text(&out.stderr));
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
    let printed = text(&out.stdout);
    assert!(!printed.contains(failure), "{printed}");
    assert!(printed.contains("Run status group 0"), "{printed}");
}
