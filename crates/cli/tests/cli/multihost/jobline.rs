//! Command-line options over the protocol (`JOBLINE`) and one server serving several
//! clients at once: iomark's client sends the command line's job options and the program
//! flags given after `--client`, which fio's and iomark's servers run; fio's client sends
//! its flags (`--section`) to iomark's server; and an iomark server whose first client's
//! run is held open serves a second client to its end meanwhile.

use super::{json_of, Server};
use crate::support::process::{Gate, Running};
use crate::support::run::{command, tempdir, text, write_job, IOMARK};
use crate::support::tools::fio_3_33_installed;

#[test]
fn job_options_on_the_command_line_run_on_fio_and_iomark_servers() {
    if !fio_3_33_installed() {
        return;
    }
    let dir = tempdir();
    let servers =
        [Server::fio(&dir.path().join("fio.log")), Server::start(&dir.path().join("iomark.log"))];
    for server in &servers {
        // No job file: the job is the command line's, sent as fio's JOBLINE.
        let out = command(IOMARK)
            .current_dir(dir.path())
            .args([&server.client_arg(), "--output-format=json", "--bs=8k"])
            .args(["--name=x", "--ioengine=null", "--rw=read", "--size=1m"])
            .output()
            .expect("run iomark --client");
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let doc = json_of(&out.stdout);
        let job = &doc["client_stats"][0];
        assert_eq!(job["jobname"], "x");
        assert_eq!(job["read"]["total_ios"], 128, "1 MiB in 8 KiB blocks (--bs=8k)");
    }
}

#[test]
fn fios_client_sends_its_flags_to_an_iomark_server() {
    if !fio_3_33_installed() {
        return;
    }
    let dir = tempdir();
    let job =
        write_job(dir.path(), "[global]\nioengine=null\nsize=1m\n[a]\nrw=read\n[b]\nrw=write\n");
    let server = Server::start(&dir.path().join("iomark.log"));
    // fio 3.33's client sends the flags after --client (JOBLINE), not the ones before.
    let out = command("fio")
        .args([&server.client_arg(), "--section=b", "--output-format=json"])
        .arg(&job)
        .output()
        .expect("run fio");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(!stdout.contains("(g=0)"), "no start lines in JSON: {stdout}");
    let doc = json_of(&out.stdout);
    let jobs = doc["client_stats"].as_array().expect("client_stats");
    assert_eq!(jobs.len(), 1, "{doc}");
    assert_eq!(jobs[0]["jobname"], "b");
    assert_eq!(jobs[0]["write"]["total_ios"], 256);
}

#[test]
fn one_server_runs_two_clients_at_once() {
    let dir = tempdir();
    let Some(mut gate) = Gate::new(dir.path()) else { return };
    let server = Server::start(&dir.path().join("iomark.log"));
    // The first client's run is held open by the gate job...
    let mut args = vec![server.client_arg()];
    args.extend(gate.job());
    let mut first = Running::start(dir.path(), &args);
    first.stdout.wait_for(|out| text(out).contains("Starting 1 process").then_some(()));
    // ...while a second client runs its job to the end on the same server.
    let job = write_job(dir.path(), "[second]\nioengine=null\nrw=write\nsize=1m\n");
    let mut second = Running::start(
        dir.path(),
        &[server.client_arg(), "--output-format=json".into(), job.display().to_string()],
    );
    assert!(second.wait().success(), "{}", second.stderr.text());
    let doc = json_of(&second.stdout.bytes());
    assert_eq!(doc["client_stats"][0]["write"]["total_ios"], 256);
    first.assert_running();
    gate.open();
    assert!(first.wait().success(), "{}", first.stderr.text());
    assert!(first.stdout.text().contains("gate: (groupid=0, jobs=1): err= 0"));
}
