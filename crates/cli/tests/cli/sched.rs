//! What a job measures and where it runs: `disable_*`, `gtod_reduce`, `clocksource`,
//! CPU affinity, `nice`, I/O priorities, `exec_prerun`/`exec_postrun`, `ioscheduler`.
//!
//! Behaviour and exact counts only: which figures a report carries, which logs are
//! written, which CPUs and priorities a job's thread has (read back from inside the job
//! through `exec_prerun`, whose command runs in the job's thread as fio runs it in the job's
//! process). Where fio 3.33 is installed the same job runs under it and the same facts must
//! hold; without fio those comparisons print `skipped: fio not installed`.
//!
//! Every run happens in a temporary directory that the test creates and removes.

use crate::support::devices::LoopDevice;
use crate::support::report::report_json;
use crate::support::run::{command, run_in, run_job_file, tempdir, text, write_job, IOMARK};
use crate::support::tools::programs;
use serde_json::Value;
use std::path::Path;

/// Writes `job` to `job.fio` in `dir` and runs `program` on it with a JSON report, which it
/// must print with exit code 0; returns the report.
fn json_of(dir: &Path, program: &str, job: &str) -> Value {
    let out = run_job_file(dir, program, job);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{program}: {job}\n{err}");
    report_json(program, &out)
}

fn iomark_json(dir: &Path, job: &str) -> Value {
    json_of(dir, IOMARK, job)
}

/// `N` of the latency object `kind` (`slat_ns`, `clat_ns`, `lat_ns`) of the first job's reads.
fn samples(report: &Value, kind: &str) -> u64 {
    report["jobs"][0]["read"][kind]["N"].as_u64().expect("N")
}

// ---------------------------------------------------------------------------------------
// disable_*, gtod_reduce, clocksource
// ---------------------------------------------------------------------------------------

/// An asynchronous null-engine job (it has slat) of 256 reads, plus `extra`.
fn null_job(extra: &str) -> String {
    format!("[j]\nioengine=null\niodepth=4\nrw=randread\nsize=1m\n{extra}\n")
}

#[test]
fn disabled_latencies_are_left_out_as_fio_leaves_them_out() {
    // (options, N of slat, clat, lat, whether clat has percentiles)
    let cases: [(&str, [u64; 3], bool); 7] = [
        ("", [256, 256, 256], true),
        ("disable_slat=1", [0, 256, 256], true),
        ("disable_clat=1", [256, 0, 256], false),
        ("disable_lat=1", [256, 256, 0], true),
        ("gtod_reduce=1", [0, 0, 0], false),
        // gtod_reduce turns clat_percentiles off too, unless it is set again after it.
        ("gtod_reduce=1\ndisable_clat=0", [0, 256, 0], false),
        ("gtod_reduce=1\ndisable_clat=0\nclat_percentiles=1", [0, 256, 0], true),
    ];
    for program in programs() {
        for (extra, want, pcts) in cases {
            let dir = tempdir();
            let r = json_of(dir.path(), program, &null_job(extra));
            let got = ["slat_ns", "clat_ns", "lat_ns"].map(|k| samples(&r, k));
            assert_eq!(got, want, "{program} {extra:?}");
            let job = &r["jobs"][0];
            let clat_pcts = job["read"]["clat_ns"].get("percentile").is_some();
            assert_eq!(clat_pcts, pcts, "{program} {extra:?}: clat percentiles");
            // The latency buckets count clat.
            let buckets: f64 = ["latency_ns", "latency_us", "latency_ms"]
                .iter()
                .flat_map(|k| job[k].as_object().expect(k).values())
                .map(|v| v.as_f64().expect("share"))
                .sum();
            assert_eq!(buckets > 99.0, want[1] > 0, "{program} {extra:?}: buckets {buckets}");
            assert_eq!(job["read"]["total_ios"].as_u64(), Some(256), "{program} {extra:?}");
        }
    }
}

#[test]
fn a_synchronous_job_without_clat_still_reports_lat() {
    for program in programs() {
        let dir = tempdir();
        let job = "[j]\nioengine=null\nrw=read\nsize=64k\ndisable_clat=1\n";
        let r = json_of(dir.path(), program, job);
        let got = ["slat_ns", "clat_ns", "lat_ns"].map(|k| samples(&r, k));
        assert_eq!(got, [0, 0, 16], "{program}");
    }
}

#[test]
fn the_normal_report_drops_the_lines_of_what_is_not_measured() {
    let dir = tempdir();
    let job = null_job("disable_clat=1\ndisable_slat=1");
    write_job(dir.path(), &job);
    let out = run_in(dir.path(), IOMARK, &["job.fio"]);
    let text = text(&out.stdout);
    assert!(text.contains("     lat (nsec)") || text.contains("     lat (usec)"), "{text}");
    for absent in ["slat (", "clat (", "clat percentiles", "lat (nsec)   :", "lat (usec)   :"] {
        assert!(!text.contains(absent), "{absent:?} in\n{text}");
    }
}

/// The number of lines of each log file in `dir`, by name.
fn log_lines(dir: &Path) -> Vec<(String, usize)> {
    let mut logs: Vec<(String, usize)> = std::fs::read_dir(dir)
        .expect("read dir")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "log"))
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("read log");
            (p.file_name().unwrap().to_string_lossy().into_owned(), text.lines().count())
        })
        .collect();
    logs.sort();
    logs
}

#[test]
fn logs_of_what_is_not_measured_are_missing_or_empty_as_in_fio() {
    let logs = "write_lat_log=L\nwrite_bw_log=L\nwrite_iops_log=L\n";
    let cases: [(&str, &[(&str, bool)]); 3] = [
        (
            "disable_clat=1\ndisable_bw_measurement=1",
            &[
                ("L_bw.1.log", false),
                ("L_iops.1.log", true),
                ("L_lat.1.log", true),
                ("L_slat.1.log", true),
            ],
        ),
        (
            "disable_lat=1\ndisable_slat=1",
            &[("L_bw.1.log", true), ("L_clat.1.log", true), ("L_iops.1.log", true)],
        ),
        ("gtod_reduce=1", &[("L_bw.1.log", false), ("L_iops.1.log", false)]),
    ];
    for program in programs() {
        for (extra, want) in cases {
            let dir = tempdir();
            json_of(dir.path(), program, &null_job(&format!("{logs}{extra}")));
            let got = log_lines(dir.path());
            let names: Vec<&str> = got.iter().map(|(n, _)| n.as_str()).collect();
            let want_names: Vec<&str> = want.iter().map(|(n, _)| *n).collect();
            assert_eq!(names, want_names, "{program} {extra:?}");
            for ((name, lines), (_, rows)) in got.iter().zip(want.iter()) {
                assert_eq!(*lines > 0, *rows, "{program} {extra:?}: {name} has {lines} lines");
            }
        }
    }
}

#[test]
fn clocksource_gettimeofday_measures_whole_microseconds() {
    let dir = tempdir();
    let r = iomark_json(dir.path(), &null_job("clocksource=gettimeofday"));
    for kind in ["slat_ns", "clat_ns", "lat_ns"] {
        let lat = &r["jobs"][0]["read"][kind];
        for end in ["min", "max"] {
            let ns = lat[end].as_u64().expect("ns");
            assert_eq!(ns % 1000, 0, "{kind} {end} = {ns}");
        }
    }
    for source in ["clock_gettime", "cpu"] {
        let r = iomark_json(dir.path(), &null_job(&format!("clocksource={source}")));
        assert_eq!(samples(&r, "clat_ns"), 256, "{source}");
    }
}

// ---------------------------------------------------------------------------------------
// CPUs and priorities, read back from inside each job through exec_prerun
// ---------------------------------------------------------------------------------------

/// Runs `job` under `program` in a fresh directory and returns, per job name in `names`,
/// what its `exec_prerun` printed (trimmed).
fn prerun_outputs(program: &str, job: &str, names: &[&str]) -> Vec<String> {
    let dir = tempdir();
    json_of(dir.path(), program, job);
    names
        .iter()
        .map(|n| {
            let path = dir.path().join(format!("{n}.prerun.txt"));
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{program}: {}: {e}", path.display()));
            text.trim().to_string()
        })
        .collect()
}

/// The CPU list of the `Cpus_allowed_list:` line a prerun printed.
fn cpu_list(line: &str) -> String {
    line.trim_start_matches("Cpus_allowed_list:").trim().to_string()
}

/// This process's CPUs as the kernel lists them (`0-1`).
fn own_cpus() -> String {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let line = status.lines().find(|l| l.starts_with("Cpus_allowed_list:")).expect("cpus");
    cpu_list(line)
}

const AFFINITY_PROBE: &str = "exec_prerun=grep Cpus_allowed_list /proc/self/status";

#[test]
fn cpus_allowed_split_gives_each_job_its_own_cpu_as_fio_does() {
    if !own_cpus().starts_with("0-") {
        eprintln!("skipped: needs CPUs 0 and 1 (this process may use {})", own_cpus());
        return;
    }
    // Job numbers count every job of the run: z is 0, a 1, b 2, c 3.
    let job = format!(
        "[global]\nioengine=null\nsize=64k\n{AFFINITY_PROBE}\n[z]\n\
         [a]\ncpus_allowed=0-1\ncpus_allowed_policy=split\n\
         [b]\ncpus_allowed=0-1\ncpus_allowed_policy=split\n\
         [c]\ncpumask=3\ncpus_allowed_policy=split\n\
         [d]\ncpus_allowed=0-1\n[e]\ncpumask=2\n"
    );
    let names = ["z", "a", "b", "c", "d", "e"];
    let want = [own_cpus(), "1".into(), "0".into(), "1".into(), "0-1".into(), "1".into()];
    for program in programs() {
        let got: Vec<String> =
            prerun_outputs(program, &job, &names).iter().map(|l| cpu_list(l)).collect();
        assert_eq!(got, want, "{program}");
    }
}

#[test]
fn clones_split_the_set_round_robin() {
    if std::thread::available_parallelism().map_or(1, |n| n.get()) < 2 {
        eprintln!("skipped: needs two CPUs");
        return;
    }
    // Four clones on two CPUs: each CPU twice. The clones share one output file, so each
    // appends its CPU to another file (in a shell of its own: fio adds its redirection to
    // the end of the command).
    let job = "[global]\nioengine=null\nsize=64k\ncpus_allowed=0-1\n\
               cpus_allowed_policy=split\nnumjobs=4\n\
               exec_prerun=sh -c 'grep Cpus_allowed_list /proc/self/status >> cpus.txt'\n[j]\n";
    for program in programs() {
        let dir = tempdir();
        json_of(dir.path(), program, job);
        let text = std::fs::read_to_string(dir.path().join("cpus.txt")).expect("cpus.txt");
        let mut cpus: Vec<String> = text.lines().map(cpu_list).collect();
        cpus.sort();
        assert_eq!(cpus, ["0", "0", "1", "1"], "{program}");
    }
}

#[test]
fn a_cpu_the_system_lacks_is_refused_with_the_option() {
    let dir = tempdir();
    for (option, value) in [("cpus_allowed", "1023"), ("cpumask", "0x4000000000000000")] {
        let job = format!("[j]\nioengine=null\nsize=64k\n{option}={value}\n");
        write_job(dir.path(), &job);
        let out = run_in(dir.path(), IOMARK, &["job.fio"]);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{option}: {err}");
        assert!(err.contains(&format!("job 'j': option '{option}': CPU ")), "{err}");
    }
}

/// The nice value of this process (field 19 of /proc/self/stat).
fn own_nice() -> i32 {
    let stat = std::fs::read_to_string("/proc/self/stat").expect("/proc/self/stat");
    let after_name = &stat[stat.rfind(')').expect("stat") + 2..];
    after_name.split(' ').nth(16).expect("nice field").parse().expect("nice")
}

#[test]
fn nice_is_added_to_the_jobs_thread() {
    let base = own_nice();
    if base > 14 {
        eprintln!("skipped: running at nice {base}, too close to 19");
        return;
    }
    let probe = "exec_prerun=cut -d')' -f2 /proc/self/stat | cut -d' ' -f18";
    let job = format!("[global]\nioengine=null\nsize=64k\n{probe}\n[plain]\n[nice]\nnice=5\n");
    for program in programs() {
        let got = prerun_outputs(program, &job, &["plain", "nice"]);
        assert_eq!(got, [base.to_string(), (base + 5).to_string()], "{program}");
    }
}

#[test]
fn prio_and_prioclass_set_the_jobs_io_priority() {
    if !command("ionice").arg("-p").arg("1").output().is_ok_and(|o| o.status.success()) {
        eprintln!("skipped: ionice (util-linux) not installed");
        return;
    }
    let job = "[global]\nioengine=null\nsize=64k\nexec_prerun=ionice -p $$\n\
               [plain]\n[level]\nprio=4\n[idle]\nprioclass=3\n[both]\nprioclass=2\nprio=6\n";
    let names = ["plain", "level", "idle", "both"];
    let plain = prerun_outputs(IOMARK, job, &["plain"]).remove(0);
    let want = [plain, "best-effort: prio 4".into(), "idle".into(), "best-effort: prio 6".into()];
    for program in programs() {
        assert_eq!(prerun_outputs(program, job, &names), want, "{program}");
    }
}

#[test]
fn numa_options_bind_cpus_and_memory_without_libnuma() {
    let have_node0 = Path::new("/sys/devices/system/node/node0").exists();
    if !have_node0 || !Path::new("/proc/self/numa_maps").exists() {
        eprintln!("skipped: no NUMA node 0 or no /proc/self/numa_maps");
        return;
    }
    let node0 = std::fs::read_to_string("/sys/devices/system/node/node0/cpulist")
        .expect("node0 cpulist")
        .trim()
        .to_string();
    let maps = "exec_prerun=head -1 /proc/self/numa_maps | cut -d' ' -f2";
    let job = format!(
        "[global]\nioengine=null\nsize=64k\n[cpus]\nnuma_cpu_nodes=0\n{AFFINITY_PROBE}\n\
         [bind]\nnuma_mem_policy=bind:0\n{maps}\n[inter]\nnuma_mem_policy=interleave:all\n{maps}\n\
         [local]\nnuma_mem_policy=local\n{maps}\n"
    );
    let names = ["cpus", "bind", "inter", "local"];
    let want = [node0, "bind:0".into(), "interleave:0".into(), "local".into()];
    for program in programs() {
        let mut got = prerun_outputs(program, &job, &names);
        got[0] = cpu_list(&got[0]);
        if Path::new("/sys/devices/system/node/node1").exists() {
            got[2] = got[2].split(',').next().unwrap_or_default().replace("-1", "");
        }
        assert_eq!(got, want, "{program}");
    }
}

// ---------------------------------------------------------------------------------------
// exec_prerun, exec_postrun
// ---------------------------------------------------------------------------------------

#[test]
fn prerun_and_postrun_output_goes_to_the_jobs_files() {
    // (`;` would start a comment in a job file.)
    let job = "[j]\nioengine=null\nsize=64k\nexec_prerun=echo before && echo oops >&2\n\
               exec_postrun=echo after\n";
    let dir = tempdir();
    write_job(dir.path(), job);
    let out = run_in(dir.path(), IOMARK, &["--output-format=json", "job.fio"]);
    assert_eq!(out.status.code(), Some(0));
    let r: Value = serde_json::from_slice(&out.stdout).expect("stdout is the JSON report alone");
    assert_eq!(r["jobs"][0]["read"]["total_ios"].as_u64(), Some(16));
    let read = |n: &str| std::fs::read_to_string(dir.path().join(n)).expect(n);
    assert_eq!(read("j.prerun.txt"), "before\noops\n");
    assert_eq!(read("j.postrun.txt"), "after\n");
    assert_eq!(text(&out.stderr), "", "a run that succeeds writes nothing on stderr");
    let notes = r["iomark notes"].as_array().expect("the notes in the document");
    assert!(notes.iter().any(|n| n == "job 'j': Saving output of prerun in j.prerun.txt"));
}

#[test]
fn a_failing_prerun_skips_the_jobs_io_and_its_postrun_as_in_fio() {
    let job = "[fails]\nioengine=null\nsize=64k\nexec_prerun=exit 3\nexec_postrun=echo after\n\
               [runs]\nioengine=null\nsize=64k\n";
    for program in programs() {
        let dir = tempdir();
        let r = json_of(dir.path(), program, job);
        let ios: Vec<u64> = (0..2)
            .map(|j| r["jobs"][j]["read"]["total_ios"].as_u64().expect("total_ios"))
            .collect();
        assert_eq!(ios, [0, 16], "{program}");
        assert_eq!(r["jobs"][0]["error"].as_u64(), Some(0), "{program}");
        assert!(!dir.path().join("fails.postrun.txt").exists(), "{program}");
    }
}

// ---------------------------------------------------------------------------------------
// ioscheduler (root and a loop device)
// ---------------------------------------------------------------------------------------

/// A loop device whose I/O scheduler is set back to `none` before it is detached.
struct SchedDisk(LoopDevice);

impl std::ops::Deref for SchedDisk {
    type Target = LoopDevice;
    fn deref(&self) -> &LoopDevice {
        &self.0
    }
}

impl SchedDisk {
    /// The device's `queue/scheduler` file.
    fn scheduler_file(&self) -> String {
        let name = Path::new(&self.dev).file_name().expect("name").to_string_lossy().into_owned();
        format!("/sys/block/{name}/queue/scheduler")
    }

    /// The schedulers the device offers, and the selected one.
    fn schedulers(&self) -> (Vec<String>, String) {
        let text = std::fs::read_to_string(self.scheduler_file()).unwrap_or_default();
        let all = text.split_whitespace().map(|w| w.trim_matches(['[', ']']).to_string());
        let selected = text.split_whitespace().find(|w| w.starts_with('[')).unwrap_or("");
        (all.collect(), selected.trim_matches(['[', ']']).to_string())
    }
}

impl Drop for SchedDisk {
    fn drop(&mut self) {
        let _ = std::fs::write(self.scheduler_file(), "none");
    }
}

#[test]
fn ioscheduler_switches_the_disk_and_leaves_it_so_as_fio_does() {
    let Some(disk) = LoopDevice::new(16 << 20).map(SchedDisk) else { return };
    let (offered, _) = disk.schedulers();
    let wanted: Vec<&str> = ["mq-deadline", "kyber", "bfq"]
        .into_iter()
        .filter(|s| offered.iter().any(|o| o == s))
        .collect();
    if wanted.is_empty() {
        eprintln!("skipped: {} offers no scheduler but {offered:?}", disk.dev);
        return;
    }
    for program in programs() {
        for name in &wanted {
            std::fs::write(disk.scheduler_file(), "none").expect("reset the scheduler");
            let dir = tempdir();
            let job = format!("[j]\nfilename={}\nsize=1m\nrw=read\nioscheduler={name}\n", disk.dev);
            let r = json_of(dir.path(), program, &job);
            assert_eq!(r["jobs"][0]["read"]["total_ios"].as_u64(), Some(256), "{program}");
            assert_eq!(disk.schedulers().1, *name, "{program}");
        }
    }
    // A scheduler the disk does not have fails the job before any I/O.
    let dir = tempdir();
    write_job(dir.path(), &format!("[j]\nfilename={}\nsize=1m\nioscheduler=bogus\n", disk.dev));
    let out = run_in(dir.path(), IOMARK, &["job.fio"]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("option 'ioscheduler': cannot set the I/O scheduler of loop"), "{err}");
    assert!(err.contains("to 'bogus'"), "{err}");
}

// ---------------------------------------------------------------------------------------
// cmdprio_*: per-I/O priorities and their statistics
// ---------------------------------------------------------------------------------------

/// (prioclass, prio, N) of each entry of a direction's `prios`, if it has them.
fn prios(report: &Value, dir: &str) -> Option<Vec<(u64, u64, u64)>> {
    let list = report["jobs"][0][dir].get("prios")?.as_array()?;
    let n = |p: &Value| {
        let lat = p.get("clat_ns").or_else(|| p.get("lat_ns")).expect("a latency");
        lat["N"].as_u64().expect("N")
    };
    Some(
        list.iter()
            .map(|p| (p["prioclass"].as_u64().unwrap(), p["prio"].as_u64().unwrap(), n(p)))
            .collect(),
    )
}

/// Whether a libaio job with direct I/O runs in `dir`; prints the skip message when not.
fn libaio_direct_works(dir: &Path) -> bool {
    let probe = "[p]\nioengine=libaio\ndirect=1\nfilename=probe.dat\nsize=64k\nrw=read\n";
    write_job(dir, probe);
    let ok = run_in(dir, IOMARK, &["job.fio"]).status.code() == Some(0);
    if !ok {
        eprintln!("skipped: libaio with direct I/O does not work in {}", dir.display());
    }
    ok
}

#[test]
fn cmdprio_splits_the_latency_by_priority_as_fio_does() {
    let dir = tempdir();
    if !libaio_direct_works(dir.path()) {
        return;
    }
    let engines = ["libaio", "io_uring"];
    for program in programs() {
        for engine in engines {
            let job = format!(
                "[j]\nioengine={engine}\niodepth=4\ndirect=1\nfilename=prio.dat\nsize=4m\n\
                 number_ios=2000\nrw=randrw\nprio=4\ncmdprio_percentage=30,0\n\
                 cmdprio_class=2\ncmdprio=1\n"
            );
            let r = json_of(dir.path(), program, &job);
            let reads = r["jobs"][0]["read"]["total_ios"].as_u64().expect("reads");
            let got = prios(&r, "read").unwrap_or_else(|| panic!("{program} {engine}: no prios"));
            // The job's own priority (best effort 4) first, then cmdprio's (best effort 1).
            let shape: Vec<(u64, u64)> = got.iter().map(|p| (p.0, p.1)).collect();
            assert_eq!(shape, [(2, 4), (2, 1)], "{program} {engine}");
            assert_eq!(got[0].2 + got[1].2, reads, "{program} {engine}");
            let share = got[1].2 as f64 / reads as f64;
            assert!((0.22..0.38).contains(&share), "{program} {engine}: {share}");
            // Writes all had the job's priority: one priority, no prios.
            assert_eq!(prios(&r, "write"), None, "{program} {engine}");
        }
        let job = "[j]\nioengine=libaio\niodepth=4\ndirect=1\nfilename=prio.dat\nsize=4m\n\
                   number_ios=500\nrw=randread\ncmdprio_percentage=100\n";
        assert_eq!(prios(&json_of(dir.path(), program, job), "read"), None, "{program} 100%");
    }
}

/// How many rows of `dir`'s `NAME_clat.1.log` end in each priority value.
fn log_prios(dir: &Path, name: &str) -> std::collections::BTreeMap<String, u64> {
    let text = std::fs::read_to_string(dir.join(format!("{name}_clat.1.log"))).expect("log");
    let mut counts = std::collections::BTreeMap::new();
    for line in text.lines() {
        let prio = line.rsplit(", ").next().expect("a priority column").to_string();
        *counts.entry(prio).or_insert(0) += 1;
    }
    counts
}

#[test]
fn latency_logs_carry_each_ios_priority_as_fio_does() {
    let dir = tempdir();
    if !libaio_direct_works(dir.path()) {
        return;
    }
    // Real-time class 3 for every read, the job's best effort 4 for every write: the
    // default column says 1 for the real-time ones, `log_prio=1` gives each value in hex.
    for program in programs() {
        for (log_prio, values) in [(0, ["0", "1"]), (1, ["0x2003", "0x4004"])] {
            let name = format!("p{log_prio}");
            let job = format!(
                "[j]\nioengine=libaio\niodepth=4\ndirect=1\nfilename=prio.dat\nsize=4m\n\
                 number_ios=300\nrw=randrw\nrwmixread=50\nprioclass=2\nprio=4\n\
                 cmdprio_percentage=100,0\ncmdprio_class=1\ncmdprio=3\n\
                 write_lat_log={name}\nlog_prio={log_prio}\n"
            );
            let r = json_of(dir.path(), program, &job);
            let reads = r["jobs"][0]["read"]["total_ios"].as_u64().expect("reads");
            let got = log_prios(dir.path(), &name);
            let keys: Vec<&str> = got.keys().map(String::as_str).collect();
            assert_eq!(keys, values, "{program} log_prio={log_prio}");
            assert_eq!(got[values[1 - log_prio]], reads, "{program} log_prio={log_prio}");
            assert_eq!(got.values().sum::<u64>(), 300, "{program}: {got:?}");
        }
    }
}
