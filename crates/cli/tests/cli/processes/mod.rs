//! Job processes: jobs run in child processes of iomark (`--job-processes`, `cgroup`,
//! `uid`, `gid`) report exactly as threads do, a child that dies fails its job alone, and
//! control groups are made, weighted, kept and removed as fio 3.33 does.
//!
//! The cgroup tests need root and a cgroup hierarchy fio 3.33 would use (the first blkio
//! v1 or cgroup v2 mount); the weight test also needs that hierarchy to take weights (v2
//! with the io controller, or v1 with `blkio.weight` or BFQ's `blkio.bfq.weight`) and a
//! loop device. Each skips with
//! what is missing, and removes every group it leaves (a guard, on failure too).

mod shared;

use crate::support::devices::LoopDevice;
use crate::support::process::{fifo, Gate, Running, TIMEOUT};
use crate::support::report::{json_doc, report_json};
use crate::support::run::{command, iomark_in, iomark_ok, tempdir, text};
use crate::support::tools::fio_3_33_installed;
use std::path::{Path, PathBuf};

/// The same jobs (stonewall, wait_for, groups, clones) as threads and as job processes
/// give the same json+ document, bin for bin, under the fake clock.
#[test]
fn process_jobs_report_as_threads_do() {
    let dir = tempdir();
    let jobs = [
        "--output-format=json+",
        "--group_reporting",
        "--ioengine=null",
        "--randrepeat=0",
        "--name=a",
        "--rw=randread",
        "--size=1m",
        "--numjobs=2",
        "--name=b",
        "--rw=randwrite",
        "--bs=8k",
        "--size=2m",
        "--wait_for=a",
        "--name=c",
        "--stonewall",
        "--rw=read",
        "--size=512k",
        "--thread",
    ];
    let threads = json_doc(&iomark_ok(dir.path(), &jobs, true), "threads");
    let with_processes = [&["--job-processes"], &jobs[..]].concat();
    let processes = json_doc(&iomark_ok(dir.path(), &with_processes, true), "processes");
    assert_eq!(threads["jobs"], processes["jobs"]);
    assert_eq!(threads["jobs"][0]["read"]["io_bytes"], 2 << 20);
}

/// A job process killed while it runs is that job's failure (exit code 1, `EINTR`, the
/// signal named); the job beside it reports all it did.
#[test]
fn a_killed_job_process_fails_its_job_alone() {
    let dir = tempdir();
    let Some(gate) = fifo(dir.path(), "gate.fifo") else { return };
    // The victim's prerun notes its process (the shell's parent) and waits on the fifo.
    let prerun = format!("--exec_prerun=echo $PPID > pid; timeout 60 cat {}", gate.display());
    let args: Vec<String> = [
        "--output-format=json",
        "--job-processes",
        "--name=victim",
        "--ioengine=null",
        "--size=1m",
        &prerun,
        "--name=other",
        "--thread",
        "--ioengine=null",
        "--size=3m",
    ]
    .map(String::from)
    .to_vec();
    let mut run = Running::start(dir.path(), &args);
    // Opening the fifo for writing returns once the prerun reads it: the pid is written.
    let (sent, opened) = std::sync::mpsc::channel();
    let writer = gate.clone();
    std::thread::spawn(move || sent.send(std::fs::OpenOptions::new().write(true).open(writer)));
    let held = opened.recv_timeout(TIMEOUT).expect("the victim never read its fifo");
    let pid = std::fs::read_to_string(dir.path().join("pid")).expect("the victim's pid");
    let killed = command("kill").args(["-KILL", pid.trim()]).status().expect("kill");
    assert!(killed.success());
    drop(held);
    let status = run.wait();
    assert_eq!(status.code(), Some(1), "stderr: {}", run.stderr.text());
    let stderr = run.stderr.text();
    let expected = format!("job 'victim': its process {} was killed by signal 9", pid.trim());
    assert!(stderr.contains(&expected), "stderr: {stderr}");
    let doc: serde_json::Value = serde_json::from_slice(&run.stdout.bytes()).expect("JSON");
    let job = |name: &str| doc["jobs"].as_array().unwrap().iter().find(|j| j["jobname"] == name);
    let victim = job("victim").expect("the victim's report");
    assert_eq!(victim["error"], libc::EINTR);
    assert_eq!(victim["read"]["io_bytes"], 0);
    assert_eq!(job("other").expect("the other job")["read"]["io_bytes"], 3 << 20);
}

/// Another job's `exitall` stops a job process (the parent forwards it as SIGTERM): the
/// run ends, and the stopped job reports without error.
#[test]
fn exitall_reaches_a_job_process() {
    let dir = tempdir();
    let Some(mut gate) = Gate::new(dir.path()) else { return };
    let Some(mut run) = start_long_job(dir.path(), &gate, &[]) else { return };
    gate.open();
    let status = run.wait();
    assert_eq!(status.code(), Some(0), "stderr: {}", run.stderr.text());
    assert_eq!(run.stderr.text(), "");
    let doc: serde_json::Value = serde_json::from_slice(&run.stdout.bytes()).expect("JSON");
    let jobs = doc["jobs"].as_array().unwrap();
    let long = jobs.iter().find(|j| j["jobname"] == "long").expect("the long job");
    assert_eq!(long["error"], 0);
    let gate_job = jobs.iter().find(|j| j["jobname"] == "gate").expect("the gate job");
    assert_eq!(gate_job["read"]["io_bytes"], 4096);
}

/// Starts a run (JSON output, `extra` options first) of a job process `long` (null reads
/// for an hour) beside `gate`'s job (a thread), and returns once the job's process is up:
/// its prerun writes to a fifo the test reads. `None` (skipped) without `mkfifo`.
pub(crate) fn start_long_job(dir: &Path, gate: &Gate, extra: &[&str]) -> Option<Running> {
    let started = fifo(dir, "started.fifo")?;
    let announce = format!("--exec_prerun=echo up > {}", started.display());
    let mut args: Vec<String> =
        ["--output-format=json"].iter().chain(extra).map(|a| a.to_string()).collect();
    args.extend(
        [
            "--job-processes",
            "--name=long",
            "--ioengine=null",
            "--size=1g",
            "--time_based",
            "--runtime=1h",
            &announce,
        ]
        .map(String::from),
    );
    args.extend(gate.job());
    args.push("--thread".into());
    let run = Running::start(dir, &args);
    let (sent, read) = std::sync::mpsc::channel();
    std::thread::spawn(move || sent.send(std::fs::read_to_string(started)));
    let up = read.recv_timeout(TIMEOUT).expect("the long job never started");
    assert_eq!(up.expect("read the fifo"), "up\n");
    Some(run)
}

/// Root, and the cgroup hierarchy fio 3.33 uses: its mount point and whether it is v2.
fn hierarchy() -> Option<(PathBuf, bool)> {
    if !nix_root() {
        eprintln!("skipped: cgroups need root");
        return None;
    }
    let mounts = std::fs::read_to_string("/proc/mounts").unwrap_or_default();
    let found = mounts.lines().find_map(|line| {
        let f: Vec<&str> = line.split_whitespace().collect();
        match f.get(2..4)? {
            ["cgroup", options] if options.split(',').any(|o| o == "blkio") => {
                Some((PathBuf::from(f[1]), false))
            }
            ["cgroup2", _] => Some((PathBuf::from(f[1]), true)),
            _ => None,
        }
    });
    if found.is_none() {
        eprintln!("skipped: no blkio (v1) or cgroup2 hierarchy mounted");
    }
    found
}

/// Whether the tests run as root (`id -u` prints 0).
fn nix_root() -> bool {
    command("id").arg("-u").output().is_ok_and(|o| text(&o.stdout).trim() == "0")
}

/// Removes the groups a test names when it ends, whatever happened.
struct Groups(Vec<PathBuf>);

impl Drop for Groups {
    fn drop(&mut self) {
        for group in &self.0 {
            let _ = std::fs::remove_dir(group);
        }
    }
}

/// A group name of this test run.
fn group_name(tag: &str) -> String {
    format!("iomark-test-{}-{tag}", std::process::id())
}

/// The job is in its group while it runs (its prerun, in the job's process, sees it), the
/// group is gone after, and stays with `cgroup_nodelete`.
#[test]
fn a_cgroup_job_runs_in_its_group_which_goes_unless_kept() {
    let Some((root, _)) = hierarchy() else { return };
    let dir = tempdir();
    let (gone, kept) = (group_name("gone"), group_name("kept"));
    let _guard = Groups(vec![root.join(&gone), root.join(&kept)]);
    let job = |name: &str, group: &str, keep: &str| {
        [
            format!("--name={name}"),
            "--ioengine=null".into(),
            "--size=64k".into(),
            format!("--cgroup={group}"),
            format!("--cgroup_nodelete={keep}"),
            "--exec_prerun=cat /proc/self/cgroup".into(),
        ]
    };
    let args = [job("gone", &gone, "0"), job("kept", &kept, "1")].concat();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let check = |program: &str| {
        for (name, group) in [("gone", &gone), ("kept", &kept)] {
            let seen = std::fs::read_to_string(dir.path().join(format!("{name}.prerun.txt")));
            let seen = seen.unwrap();
            let inside = seen.lines().any(|l| l.ends_with(&format!(":/{group}")));
            assert!(inside, "{program}: {name}: {seen}");
        }
        assert!(!root.join(&gone).exists(), "{program}: a group without cgroup_nodelete stays");
        assert!(root.join(&kept).is_dir(), "{program}: a group with cgroup_nodelete is gone");
        std::fs::remove_dir(root.join(&kept)).unwrap();
    };
    let out = iomark_ok(dir.path(), &args, false);
    assert!(text(&out.stdout).contains("Starting 2 processes"));
    check("iomark");
    if fio_3_33_installed() {
        let out = command("fio").current_dir(dir.path()).args(&args).output().unwrap();
        assert!(out.status.success(), "fio: {}", text(&out.stderr));
        check("fio");
    }
}

/// A v1 hierarchy without `blkio.weight` (kernels without CFQ) fails fio 3.33's weighted
/// job with `EACCES` before any I/O, and the group made for it goes; the job beside it
/// runs. iomark fails it so too when the group has no BFQ weight either; with BFQ's
/// `blkio.bfq.weight` it runs the job weighted there, with a note that says so.
#[test]
fn a_v1_weight_without_cfq_fails_fios_job_and_goes_to_bfq_in_iomark() {
    let Some((root, v2)) = hierarchy() else { return };
    if v2 || root.join("blkio.weight").exists() {
        eprintln!("skipped: the cgroup hierarchy has blkio.weight (the test needs one without)");
        return;
    }
    let bfq = v1_weight_file(&root) == Some("blkio.bfq.weight");
    let dir = tempdir();
    let group = group_name("noweight");
    let _guard = Groups(vec![root.join(&group)]);
    let cgroup = format!("--cgroup={group}");
    let args = [
        "--output-format=json",
        "--name=weighted",
        "--ioengine=null",
        "--size=64k",
        &cgroup,
        "--cgroup_weight=500",
        "--name=plain",
        "--ioengine=null",
        "--size=64k",
    ];
    let mut programs = vec![("iomark", iomark_in(dir.path(), &args, false))];
    if fio_3_33_installed() {
        programs.push(("fio", command("fio").current_dir(dir.path()).args(args).output().unwrap()));
    }
    for (program, out) in programs {
        let weighted = program == "iomark" && bfq;
        let code = if weighted { 0 } else { 1 };
        assert_eq!(out.status.code(), Some(code), "{program}: {}", text(&out.stderr));
        let doc = report_json(program, &out);
        if weighted {
            assert_eq!(doc["jobs"][0]["error"], 0, "{program}");
            assert_eq!(doc["jobs"][0]["read"]["io_bytes"], 65536, "{program}");
            let notes = doc["jobs"][0]["iomark notes"].to_string();
            assert!(notes.contains("blkio.bfq.weight"), "{program}: no note in {notes}");
        } else {
            assert_eq!(doc["jobs"][0]["error"], libc::EACCES, "{program}");
        }
        assert_eq!(doc["jobs"][1]["error"], 0, "{program}");
        assert_eq!(doc["jobs"][1]["read"]["io_bytes"], 65536, "{program}");
        assert!(!root.join(&group).exists(), "{program}: the group stays");
    }
}

/// The file a new group of v1 hierarchy `root` takes weights in (`blkio.weight` with CFQ,
/// `blkio.bfq.weight` with BFQ), read off a group the probe makes and removes.
fn v1_weight_file(root: &Path) -> Option<&'static str> {
    let probe = root.join(group_name("probe"));
    let _guard = Groups(vec![probe.clone()]);
    std::fs::create_dir(&probe).ok()?;
    ["blkio.weight", "blkio.bfq.weight"].into_iter().find(|f| probe.join(f).exists())
}

/// Two jobs on one loop device in groups weighted 100 and 1000: both run, each group holds
/// its weight while its job runs (read by the job's prerun), and both are removed after;
/// the io controller the run enabled is disabled again.
#[test]
fn cgroup_weights_are_set_while_the_jobs_run() {
    let Some((root, v2)) = hierarchy() else { return };
    let control = root.join("cgroup.subtree_control");
    let (file, takes_weights) = if v2 {
        let controllers = std::fs::read_to_string(root.join("cgroup.controllers"));
        ("io.weight", controllers.is_ok_and(|c| c.split_whitespace().any(|c| c == "io")))
    } else {
        let file = v1_weight_file(&root);
        (file.unwrap_or("blkio.weight"), file.is_some())
    };
    if !takes_weights || (v2 && !io_can_be_enabled(&control)) {
        eprintln!("skipped: the cgroup hierarchy at {} takes no {file}", root.display());
        return;
    }
    let Some(device) = LoopDevice::new(4 << 20) else { return };
    let before = std::fs::read_to_string(&control).ok();
    let dir = tempdir();
    let groups = [group_name("w100"), group_name("w1000")];
    let _guard = Groups(groups.iter().map(|g| root.join(g)).collect());
    let mut args = vec!["--output-format=json".to_string()];
    for (group, weight) in groups.iter().zip([100, 1000]) {
        let path = root.join(group).join(file);
        args.extend([
            format!("--name=w{weight}"),
            format!("--filename={}", device.dev),
            "--rw=read".into(),
            "--size=2m".into(),
            format!("--cgroup={group}"),
            format!("--cgroup_weight={weight}"),
            format!("--exec_prerun=cat {}", path.display()),
        ]);
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = iomark_in(dir.path(), &args, false);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let doc = report_json("iomark", &out);
    for (k, weight) in [100, 1000].into_iter().enumerate() {
        assert_eq!(doc["jobs"][k]["read"]["io_bytes"], 2 << 20);
        let seen = std::fs::read_to_string(dir.path().join(format!("w{weight}.prerun.txt")));
        let expected = if v2 { format!("default {weight}\n") } else { format!("{weight}\n") };
        assert_eq!(seen.unwrap(), expected);
    }
    for group in &groups {
        assert!(!root.join(group).exists(), "group {group} stays after the run");
    }
    assert_eq!(std::fs::read_to_string(&control).ok(), before, "subtree_control not restored");
}

/// Whether the io controller is, or can be, passed down from the cgroup v2 group whose
/// `cgroup.subtree_control` is `control` (a group with processes of its own, the root of
/// a container's hierarchy, refuses); the test's own try is undone.
fn io_can_be_enabled(control: &Path) -> bool {
    let on = std::fs::read_to_string(control).unwrap_or_default();
    if on.split_whitespace().any(|c| c == "io") {
        return true;
    }
    let enabled = std::fs::write(control, "+io").is_ok();
    if enabled {
        let _ = std::fs::write(control, "-io");
    }
    enabled
}

/// `uid` and `gid`: the job's process runs as them (its prerun says so), as fio 3.33's.
#[test]
fn a_job_takes_its_uid_and_gid() {
    if !nix_root() {
        eprintln!("skipped: uid and gid need root");
        return;
    }
    let dir = tempdir();
    // The job's process writes its prerun's output here as user nobody.
    open_to_all(dir.path());
    let args = [
        "--name=ids",
        "--ioengine=null",
        "--size=64k",
        "--uid=65534",
        "--gid=65534",
        "--exec_prerun=echo $(id -u) $(id -g)",
    ];
    iomark_ok(dir.path(), &args, false);
    let ids = std::fs::read_to_string(dir.path().join("ids.prerun.txt")).unwrap();
    assert_eq!(ids, "65534 65534\n");
    if fio_3_33_installed() {
        std::fs::remove_file(dir.path().join("ids.prerun.txt")).unwrap();
        let out = command("fio").current_dir(dir.path()).args(args).output().unwrap();
        assert!(out.status.success(), "fio: {}", text(&out.stderr));
        let fio = std::fs::read_to_string(dir.path().join("ids.prerun.txt")).unwrap();
        assert_eq!(fio, ids, "fio 3.33's job runs as other ids");
    }
}

/// Lets every user write in `dir`.
fn open_to_all(dir: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o777)).unwrap();
}
