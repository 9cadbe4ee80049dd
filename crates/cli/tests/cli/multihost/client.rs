//! `iomark --client` against fio 3.33's servers and iomark's, on loopback: each server's
//! jobs as it reported them, "All clients" their exact merge (counts added, fio's
//! histogram bins added bin for bin), a server that fails reported while the others are
//! still printed, a server of another protocol version named with both versions.

use super::{bins, fake_server, json_of, Server};
use crate::support::run::{command, tempdir, text, write_job, IOMARK};
use crate::support::tools::fio_3_33_installed;
use std::collections::BTreeMap;

const JOB: &str = "[global]\nioengine=null\nrw=randrw\nbs=4k\nsize=1m\ngroup_reporting\n\
                   [j]\nnumjobs=2\n";

#[test]
fn iomark_drives_fio_and_iomark_servers_and_merges_them_exactly() {
    if !fio_3_33_installed() {
        return;
    }
    let dir = tempdir();
    let job = write_job(dir.path(), JOB);
    let servers = [
        Server::fio(&dir.path().join("fio1.log")),
        Server::fio(&dir.path().join("fio2.log")),
        Server::start(&dir.path().join("iomark.log")),
    ];
    let mut cmd = command(IOMARK);
    cmd.current_dir(dir.path()).arg("--output-format=json+");
    for s in &servers {
        cmd.arg(s.client_arg()).arg(&job);
    }
    let out = cmd.output().expect("run iomark --client");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
    let doc = json_of(&out.stdout);
    let stats = doc["client_stats"].as_array().expect("client_stats");
    assert_eq!(stats.len(), 4);
    for (s, host) in servers.iter().zip(stats) {
        assert_eq!(host["port"].as_u64(), Some(u64::from(s.port)));
        assert_eq!(host["jobname"], "j");
    }
    let all = &stats[3];
    assert_eq!(all["jobname"], "All clients");
    for d in ["read", "write"] {
        let sum = |k: &str| stats[..3].iter().map(|h| h[d][k].as_u64().unwrap()).sum::<u64>();
        assert_eq!(all[d]["total_ios"].as_u64(), Some(sum("total_ios")));
        assert_eq!(all[d]["io_bytes"].as_u64(), Some(sum("io_bytes")));
        let mut added = BTreeMap::new();
        for h in &stats[..3] {
            for (v, c) in bins(&h[d]["clat_ns"]) {
                *added.entry(v).or_insert(0) += c;
            }
        }
        assert_eq!(bins(&all[d]["clat_ns"]), added, "{d}: the merge is bin for bin");
        let max = stats[..3].iter().map(|h| h[d]["clat_ns"]["max"].as_u64().unwrap()).max();
        assert_eq!(all[d]["clat_ns"]["max"].as_u64(), max);
    }
    let ios = |d: &str| all[d]["total_ios"].as_u64().unwrap();
    assert_eq!(ios("read") + ios("write"), 3 * 2 * 256);
}

#[test]
fn a_server_that_cannot_be_reached_is_reported_and_the_others_printed() {
    let dir = tempdir();
    let job = write_job(dir.path(), JOB);
    let server = Server::start(&dir.path().join("iomark.log"));
    // A port nobody listens on.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let out = command(IOMARK)
        .arg(format!("--client=127.0.0.1,{closed}"))
        .arg(&job)
        .arg(server.client_arg())
        .arg(&job)
        .output()
        .expect("run iomark --client");
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("client 127.0.0.1: cannot connect"), "{err}");
    assert!(text(&out.stdout).contains("j: (groupid=0, jobs=2): err= 0"));
}

#[test]
fn a_server_of_another_protocol_version_is_named_with_both_versions() {
    let dir = tempdir();
    let job = write_job(dir.path(), JOB);
    let (port, fake) = fake_server(96, |_| {});
    let out = command(IOMARK)
        .arg(format!("--client=127.0.0.1,{port}"))
        .arg(&job)
        .output()
        .expect("run iomark --client");
    fake.join().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("version 96") && err.contains("version 97"), "{err}");
}

#[test]
fn a_server_lost_in_the_middle_is_reported_and_the_others_printed() {
    let dir = tempdir();
    let job = write_job(dir.path(), JOB);
    let server = Server::start(&dir.path().join("iomark.log"));
    // A server that answers the probe, reads what it is sent up to RUN and goes away.
    let (port, lost) = fake_server(97, |conn| {
        while let Ok(Some(m)) = iomark_dist::proto::frame::read_message(conn) {
            if m.op == iomark_dist::proto::Op::Run {
                break;
            }
        }
    });
    let out = command(IOMARK)
        .arg(format!("--client=127.0.0.1,{port}"))
        .arg(&job)
        .arg(server.client_arg())
        .arg(&job)
        .output()
        .expect("run iomark --client");
    lost.join().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("closed the connection before the end of the run"), "{err}");
    assert!(text(&out.stdout).contains("j: (groupid=0, jobs=2): err= 0"));
}

#[test]
fn remote_config_runs_a_job_file_on_the_servers_side() {
    if !fio_3_33_installed() {
        return;
    }
    let dir = tempdir();
    let job = write_job(dir.path(), JOB);
    let ours = Server::start(&dir.path().join("iomark.log"));
    let fios = Server::fio(&dir.path().join("fio.log"));
    // fio's client asks iomark's server, iomark's client asks fio's server.
    let runs = [
        command("fio")
            .arg(ours.client_arg())
            .arg(format!("--remote-config={}", job.display()))
            .output(),
        command(IOMARK)
            .arg(fios.client_arg())
            .arg(format!("--remote-config={}", job.display()))
            .output(),
    ];
    for out in runs {
        let out = out.expect("run a client");
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        assert!(
            text(&out.stdout).contains("j: (groupid=0, jobs=2): err= 0"),
            "{}",
            text(&out.stdout)
        );
    }
}

#[test]
fn a_file_of_hosts_names_the_servers() {
    let dir = tempdir();
    let job = write_job(dir.path(), JOB);
    let servers =
        [Server::start(&dir.path().join("a.log")), Server::start(&dir.path().join("b.log"))];
    let list = dir.path().join("hosts.list");
    let hosts: Vec<String> = servers.iter().map(|s| format!("127.0.0.1,{}\n", s.port)).collect();
    std::fs::write(&list, format!("# two servers\n{}", hosts.concat())).unwrap();
    let out = command(IOMARK)
        .arg("--output-format=json")
        .arg(format!("--client={}", list.display()))
        .arg(&job)
        .output()
        .expect("run iomark --client");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let doc = json_of(&out.stdout);
    let ports: Vec<u64> = doc["client_stats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| j["port"].as_u64().unwrap())
        .collect();
    let (a, b) = (u64::from(servers[0].port), u64::from(servers[1].port));
    assert_eq!(ports, [a, b, b], "each server, then All clients");
}

#[test]
fn a_daemonized_server_on_a_unix_socket() {
    let dir = tempdir();
    let job = write_job(dir.path(), JOB);
    let (socket, pidfile) = (dir.path().join("iomark.sock"), dir.path().join("iomark.pid"));
    let out = command(IOMARK)
        .arg(format!("--server=sock:{}", socket.display()))
        .arg(format!("--daemonize={}", pidfile.display()))
        .output()
        .expect("run iomark --server --daemonize");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let pid = std::fs::read_to_string(&pidfile).expect("pid file").trim().to_string();
    // The server goes on in the background; stop it whatever happens below.
    struct Stop(String);
    impl Drop for Stop {
        fn drop(&mut self) {
            let _ = command("kill").arg(&self.0).status();
        }
    }
    let _stop = Stop(pid);
    crate::support::process::poll_until(|| {
        std::os::unix::net::UnixStream::connect(&socket).ok().map(|_| ())
    })
    .expect("the server listens");
    let out = command(IOMARK)
        .arg(format!("--client=sock:{}", socket.display()))
        .arg(&job)
        .output()
        .expect("run iomark --client");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("j: (groupid=0, jobs=2): err= 0"));
}
