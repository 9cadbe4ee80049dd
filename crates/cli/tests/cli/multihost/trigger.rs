//! `--trigger-remote`: fio 3.33's client sends the command to its servers when its trigger
//! fires, and `iomark --server` stops the run (whose report goes back as usual) and runs
//! it. In a local run the flag has no effect, as in fio.

use super::Server;
use crate::support::report::report_json;
use crate::support::run::{command, iomark_ok, tempdir, text, write_job};
use crate::support::tools::fio_3_33_installed;

const JOB: &str = "[j]\nioengine=null\nsize=100g\nruntime=60\ntime_based\n";

#[test]
fn fios_client_triggers_an_iomark_server_which_runs_the_command() {
    if !fio_3_33_installed() {
        return;
    }
    let dir = tempdir();
    let job = write_job(dir.path(), JOB);
    let server = Server::start_on(&dir.path().join("server.log"), false);
    let mark = dir.path().join("triggered");
    let out = command("fio")
        .current_dir(dir.path())
        .arg(server.client_arg())
        .arg(&job)
        .arg("--trigger-timeout=1")
        .arg(format!("--trigger-remote=touch {}", mark.display()))
        .arg("--output-format=json")
        .output()
        .expect("run fio");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(mark.exists(), "the server did not run the command");
    let json = report_json("fio", &out);
    let runtime = json["client_stats"][0]["job_runtime"].as_u64().expect("job_runtime");
    assert!(runtime < 60_000, "the job ran its whole runtime: {runtime}");
}

#[test]
fn a_local_run_ignores_trigger_remote() {
    let dir = tempdir();
    let mark = dir.path().join("triggered");
    let remote = format!("--trigger-remote=touch {}", mark.display());
    let args = ["--name=j", "--ioengine=null", "--size=1m", &remote];
    iomark_ok(dir.path(), &args, true);
    assert!(!mark.exists());
}
