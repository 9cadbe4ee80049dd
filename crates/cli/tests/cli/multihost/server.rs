//! fio 3.33's client against `iomark --server`: several servers on loopback ports stand for
//! hosts; fio prints each host's jobs and, under `group_reporting`, "All clients", from
//! the statistics iomark sends. The counts must be the ones iomark reports for the same
//! job on its own, and the merge fio's. Bad peers are refused without harm to the server.

use super::{json_of, Server};
use crate::support::run::{command, iomark_ok, tempdir, text, write_job};
use crate::support::tools::fio_3_33_installed;
use iomark_dist::proto::frame::{read_message, write_message};
use iomark_dist::proto::Op;
use serde_json::Value;
use std::io::Write;
use std::net::TcpStream;

const JOB: &str = "[global]\nioengine=null\nrw=randrw\nbs=4k\nsize=1m\ngroup_reporting\n\
                   randrepeat=1\n[j]\nnumjobs=2\n";

#[test]
fn fio_clients_run_jobs_on_three_iomark_servers_and_merge_them() {
    if !fio_3_33_installed() {
        return;
    }
    let dir = tempdir();
    let job = write_job(dir.path(), JOB);
    let servers: Vec<Server> =
        (0..3).map(|i| Server::start(&dir.path().join(format!("server{i}.log")))).collect();
    let mut fio = command("fio");
    fio.current_dir(dir.path()).arg("--output-format=json");
    for s in &servers {
        fio.arg(s.client_arg()).arg(&job);
    }
    let out = fio.output().expect("run fio");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let doc = json_of(&out.stdout);
    // What iomark reports for the same job on its own, under the same fake clock.
    let own = iomark_ok(dir.path(), &[job.to_str().unwrap(), "--output-format=json"], true);
    let own: Value = serde_json::from_slice(&own.stdout).expect("iomark's JSON");
    let own = &own["jobs"][0];
    let stats = doc["client_stats"].as_array().expect("client_stats");
    assert_eq!(stats.len(), 4, "three hosts and All clients");
    for host in &stats[..3] {
        assert_eq!(host["jobname"], "j");
        for d in ["read", "write"] {
            for k in ["total_ios", "io_bytes", "runtime"] {
                assert_eq!(host[d][k], own[d][k], "{d} {k}");
            }
            for k in ["N", "min", "max"] {
                assert_eq!(host[d]["clat_ns"][k], own[d]["clat_ns"][k], "{d} clat {k}");
            }
        }
        assert_eq!(host["job options"]["numjobs"], "2");
    }
    let all = &stats[3];
    assert_eq!(all["jobname"], "All clients");
    for d in ["read", "write"] {
        let sum: u64 = stats[..3].iter().map(|h| h[d]["total_ios"].as_u64().unwrap()).sum();
        assert_eq!(all[d]["total_ios"].as_u64(), Some(sum));
        assert_eq!(all[d]["clat_ns"]["N"].as_u64(), Some(sum));
    }
    let ios = |d: &str| all[d]["total_ios"].as_u64().unwrap();
    assert_eq!(ios("read") + ios("write"), 3 * 2 * 256);
}

#[test]
fn fio_prints_its_normal_and_terse_reports_of_an_iomark_server() {
    if !fio_3_33_installed() {
        return;
    }
    let dir = tempdir();
    let job = write_job(dir.path(), JOB);
    let server = Server::start(&dir.path().join("server.log"));
    let out = command("fio").arg(server.client_arg()).arg(&job).output().expect("run fio");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let normal = text(&out.stdout);
    assert!(normal.contains("fio=iomark-"), "{normal}");
    assert!(normal.contains("j: (groupid=0, jobs=2): err= 0"), "{normal}");
    assert!(normal.contains("clat percentiles (nsec):"), "{normal}");
    assert!(normal.contains("Run status group 0 (all jobs):"), "{normal}");
    let out = command("fio")
        .args(["--output-format=terse", &server.client_arg()])
        .arg(&job)
        .output()
        .expect("run fio");
    let terse = text(&out.stdout);
    let line = terse.lines().find(|l| l.starts_with("3;")).unwrap_or_else(|| panic!("{terse}"));
    let fields: Vec<&str> = line.split(';').collect();
    assert_eq!(fields[2], "j");
    // Read KiB, then write KiB further on: the two directions add up to the job's 2 MiB.
    let kib = |i: usize| fields[i].parse::<u64>().unwrap();
    assert_eq!(kib(5) + kib(46), 2048, "{line}");
}

/// Whether the server closed `conn` (at once or with a reset, data being left unread).
fn closed(conn: &mut TcpStream) -> bool {
    matches!(read_message(conn), Ok(None) | Err(iomark_dist::proto::ProtoError::Io(_)))
}

#[test]
fn a_bad_peer_is_refused_and_the_server_goes_on() {
    if !fio_3_33_installed() {
        return;
    }
    let dir = tempdir();
    let log = dir.path().join("server.log");
    let server = Server::start(&log);
    let addr = ("127.0.0.1", server.port);
    // Another protocol version: the connection is closed, the log names both versions.
    let mut conn = TcpStream::connect(addr).expect("connect");
    let mut frame = Vec::new();
    write_message(&mut frame, Op::Probe, 1, &[0; 136]).unwrap();
    frame[0] = 96;
    conn.write_all(&frame).unwrap();
    assert!(closed(&mut conn));
    // Garbage, and a header announcing more than iomark accepts.
    let mut conn = TcpStream::connect(addr).expect("connect");
    conn.write_all(&[0xff; 64]).unwrap();
    assert!(closed(&mut conn));
    let mut conn = TcpStream::connect(addr).expect("connect");
    let mut frame = Vec::new();
    write_message(&mut frame, Op::Job, 0, &[0; 8]).unwrap();
    frame[16..20].copy_from_slice(&(1u32 << 31).to_le_bytes());
    let crc = crc::Crc::<u16>::new(&crc::CRC_16_ARC).checksum(&frame[..20]);
    frame[20..22].copy_from_slice(&crc.to_le_bytes());
    conn.write_all(&frame[..24]).unwrap();
    assert!(closed(&mut conn));
    // A client that goes away in the middle of a long run: its jobs stop.
    let mut conn = TcpStream::connect(addr).expect("connect");
    let long = "[long]\nioengine=null\nrw=read\nsize=1m\ntime_based\nruntime=1h\n";
    let mut pdu = (long.len() as u32).to_le_bytes().to_vec();
    pdu.extend_from_slice(&1u32.to_le_bytes());
    pdu.extend_from_slice(long.as_bytes());
    write_message(&mut conn, Op::Job, 0, &pdu).unwrap();
    write_message(&mut conn, Op::Run, 0, &[]).unwrap();
    loop {
        let m = read_message(&mut conn).unwrap().expect("the run's messages");
        if m.op == Op::ServerStart {
            break;
        }
    }
    drop(conn);
    // The server serves the next client at once.
    let job = write_job(dir.path(), JOB);
    let out = command("fio").arg(server.client_arg()).arg(&job).output().expect("run fio");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("Run status group 0"));
    let logged = std::fs::read_to_string(&log).unwrap();
    assert!(logged.contains("version 96") && logged.contains("version 97"), "{logged}");
    assert!(logged.contains("larger than"), "{logged}");
}

/// A job that runs in a process of its own on the server (`uid`, here the server's own, so
/// that no privilege is needed) reports to fio's client as a job thread does, its logs
/// included: the same statistics and log files, under the fake clock.
#[test]
fn a_job_process_on_an_iomark_server_reports_as_a_job_thread() {
    if !fio_3_33_installed() {
        return;
    }
    let uid = command("id").arg("-u").output().expect("id -u");
    let uid = text(&uid.stdout).trim().to_string();
    let dir = tempdir();
    let server = Server::start(&dir.path().join("server.log"));
    let job = "[j]\nioengine=null\nrw=randrw\nbs=4k\nsize=1m\nrandrepeat=1\n\
               write_lat_log=lat\n";
    let run = |name: &str, extra: &str| -> (Value, Vec<(String, Vec<u8>)>) {
        let here = dir.path().join(name);
        std::fs::create_dir(&here).expect("a directory");
        let file = write_job(&here, &format!("{job}{extra}"));
        let out = command("fio")
            .current_dir(&here)
            .args(["--output-format=json", &server.client_arg()])
            .arg(&file)
            .output()
            .expect("run fio");
        assert_eq!(out.status.code(), Some(0), "{name}: {}", text(&out.stderr));
        let mut stats = json_of(&out.stdout)["client_stats"][0].clone();
        stats.as_object_mut().expect("a job").remove("job options");
        let mut logs: Vec<(String, Vec<u8>)> = std::fs::read_dir(&here)
            .expect("the client's directory")
            .map(|e| e.expect("an entry").path())
            .filter(|p| p.to_string_lossy().contains(".log"))
            .map(|p| (p.file_name().unwrap().to_string_lossy().into(), std::fs::read(&p).unwrap()))
            .collect();
        logs.sort();
        (stats, logs)
    };
    let (threads, thread_logs) = run("thread", "");
    let (processes, process_logs) = run("process", &format!("uid={uid}\n"));
    assert_eq!(threads["read"]["total_ios"].as_u64().map(|n| n > 0), Some(true));
    assert_eq!(processes, threads);
    assert!(!thread_logs.is_empty(), "the client wrote no log");
    assert_eq!(process_logs, thread_logs);
    let log = std::fs::read_to_string(dir.path().join("server.log")).unwrap_or_default();
    assert_eq!(log, "", "the server's standard error");
}
