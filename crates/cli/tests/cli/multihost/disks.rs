//! What the servers say of the machine they run on: the disks under the jobs' files
//! (`DISK_UTIL`), printed by fio's client and iomark's from fio's servers and iomark's
//! alike, and the client's address before the names of the files under `directory`
//! (`unique_filename`), as fio's server names them. On loopback; the disks' counts move
//! with whatever else the machine does, so only their structure is checked.

use super::{json_of, Server};
use crate::support::run::{command, entries, tempdir, text, write_job, IOMARK};
use crate::support::tools::fio_3_33_installed;
use serde_json::Value;
use std::path::Path;

/// A small job writing under `dir`, on the disk under it.
fn disk_job(dir: &Path) -> String {
    format!(
        "[global]\nioengine=psync\nrw=write\nbs=4k\nsize=64k\nend_fsync=1\n\
         directory={}\n[j]\n",
        dir.display()
    )
}

/// The `(name, port)` of every entry of a client's JSON `disk_util`, sorted.
fn disks(doc: &Value) -> Vec<(String, u64)> {
    let mut out: Vec<(String, u64)> = doc["disk_util"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|d| {
                    assert_eq!(d["hostname"], "127.0.0.1", "{d}");
                    for k in ["read_ios", "write_ios", "in_queue"] {
                        assert!(d[k].is_u64(), "{k}: {d}");
                    }
                    assert!(d["util"].as_f64().is_some_and(|u| (0.0..=100.0).contains(&u)));
                    (
                        d["name"].as_str().unwrap_or_default().to_string(),
                        d["port"].as_u64().unwrap(),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

/// Runs `program` as a client of `servers`, each with `job`, in `format`; its output.
fn client(program: &str, servers: &[&Server], job: &Path, format: &str) -> String {
    let mut cmd = command(program);
    cmd.arg(format!("--output-format={format}"));
    for s in servers {
        cmd.arg(s.client_arg()).arg(job);
    }
    let out = cmd.output().expect("run the client");
    assert_eq!(out.status.code(), Some(0), "{program}: {}", text(&out.stderr));
    text(&out.stdout)
}

#[test]
fn both_clients_print_the_disks_of_fio_and_iomark_servers_as_fios_client_does() {
    if !fio_3_33_installed() {
        return;
    }
    let dir = tempdir();
    let data = dir.path().join("data");
    std::fs::create_dir(&data).unwrap();
    let job = write_job(dir.path(), &disk_job(&data));
    let fio = Server::fio(&dir.path().join("fio.log"));
    // The real clock: under the fake one nothing measured from the system is reported.
    let iomark = Server::start_on(&dir.path().join("iomark.log"), false);
    let servers = [&fio, &iomark];
    let by_fio = disks(&json_of(client("fio", &servers, &job, "json").as_bytes()));
    let names: Vec<&String> =
        by_fio.iter().filter(|d| d.1 == u64::from(fio.port)).map(|d| &d.0).collect();
    if names.is_empty() {
        eprintln!("skipped: {} is on no block device (fio reports no disk)", data.display());
        return;
    }
    // iomark's server reports the disks fio's does, and both clients print them alike.
    let expected: Vec<(String, u64)> = {
        let mut e: Vec<_> = servers
            .iter()
            .flat_map(|s| names.iter().map(move |n| (n.to_string(), u64::from(s.port))))
            .collect();
        e.sort();
        e
    };
    assert_eq!(by_fio, expected, "fio's client");
    let by_iomark = disks(&json_of(client(IOMARK, &servers, &job, "json").as_bytes()));
    assert_eq!(by_iomark, expected, "iomark's client");
    for program in ["fio", IOMARK] {
        let normal = client(program, &servers, &job, "normal");
        assert_eq!(normal.matches("\nDisk stats (read/write):\n").count(), 2, "{normal}");
        for name in &names {
            let line = format!("\n  {name}: ios=");
            assert_eq!(normal.matches(&line).count(), 2, "{program}: {normal}");
        }
        // Each server's disks follow its groups.
        let first_disks = normal.find("Disk stats").unwrap();
        assert!(normal[..first_disks].contains("Run status group 0"), "{normal}");
        let terse = client(program, &servers, &job, "terse");
        for name in &names {
            let lines: Vec<&str> =
                terse.lines().filter(|l| l.starts_with(&format!(";{name};"))).collect();
            assert_eq!(lines.len(), 2, "{program}: {terse}");
            for l in lines {
                assert_eq!(l.split(';').count(), 10, "{l}");
                assert!(l.ends_with('%'), "{l}");
            }
        }
    }
}

/// Jobs whose files are named in each of the ways `unique_filename` tells apart.
fn naming_job(dir: &Path) -> String {
    let d = dir.display();
    format!(
        "[global]\nioengine=psync\nrw=write\nbs=4k\nsize=8k\n\
         [gen]\ndirectory={d}\nnrfiles=2\nnumjobs=2\n\
         [named]\ndirectory={d}\nfilename=explicit\n\
         [kept]\ndirectory={d}\nunique_filename=0\n\
         [outside]\nfilename={d}/outside\n"
    )
}

#[test]
fn the_server_puts_the_clients_address_before_the_names_under_directory_as_fio() {
    if !fio_3_33_installed() {
        return;
    }
    let dir = tempdir();
    let mut made = Vec::new();
    for (i, fio) in [true, false].into_iter().enumerate() {
        let data = dir.path().join(format!("data{i}"));
        std::fs::create_dir(&data).unwrap();
        let job = dir.path().join(format!("job{i}.fio"));
        std::fs::write(&job, naming_job(&data)).unwrap();
        let log = dir.path().join(format!("server{i}.log"));
        let server = if fio { Server::fio(&log) } else { Server::start(&log) };
        let out = command("fio").arg(server.client_arg()).arg(&job).output().expect("run fio");
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        made.push(entries(&data));
    }
    let want = [
        "127.0.0.1.explicit",
        "127.0.0.1.gen.0.0",
        "127.0.0.1.gen.0.1",
        "127.0.0.1.gen.1.0",
        "127.0.0.1.gen.1.1",
        "kept.0.0",
        "outside",
    ];
    assert_eq!(made[0], want, "fio's server");
    assert_eq!(made[1], want, "iomark's server");
}
