//! The program flags that run no job or stop one from outside: `--crctest`,
//! `--cpuclock-test`, `--alloc-size` and the triggers (`--trigger-file`,
//! `--trigger-timeout`, `--trigger`). Throughput figures are the benchmark's
//! (`bench/crctest`); here only the layout and the behaviour are checked.

use crate::support::run::{run_in, tempdir, text, IOMARK};
use crate::support::tools::fio_installed;

/// The checksum names of a `--crctest` table, in order.
fn names(table: &str) -> Vec<String> {
    table.lines().map(|l| l.split(':').next().unwrap_or("").to_string()).collect()
}

#[test]
fn crctest_prints_fios_table() {
    let dir = tempdir();
    let list = "--crctest=fnv,md5,sha3-512,crc32c";
    let out = run_in(dir.path(), IOMARK, &[list]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let table = text(&out.stdout);
    // fio's order, whatever the order of the list; fio's tabs and width.
    assert_eq!(names(&table), ["md5", "crc32c", "fnv", "sha3-512"], "{table}");
    for line in table.lines() {
        let (label, figure) = line.split_once('\t').expect("a tab after the name");
        let figure = figure.trim_start_matches('\t');
        assert!(figure.ends_with(" MiB/sec") && figure.len() == 16, "{line:?}");
        assert_eq!(label.len() < 8, line.contains("\t\t"), "{line:?}");
    }
    if fio_installed() {
        let theirs = text(&run_in(dir.path(), "fio", &[list]).stdout);
        assert_eq!(names(&theirs), names(&table), "fio:\n{theirs}");
    }
    let bad = run_in(dir.path(), IOMARK, &["--crctest=md4"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(text(&bad.stderr).contains("'md4'"), "{}", text(&bad.stderr));
}

#[test]
fn cpuclock_test_reads_every_cpu() {
    let dir = tempdir();
    let out = run_in(dir.path(), IOMARK, &["--cpuclock-test"]);
    let report = text(&out.stdout);
    let cpus = iomark_engine::thread::affinity().expect("affinity").len();
    assert!(report.contains(&format!("cs: Testing {cpus} CPUs")), "{report}");
    assert_eq!(report.matches(" clocks seen, first ").count(), cpus, "{report}");
    let passed = report.ends_with("cs: Pass!\n");
    assert!(passed || report.ends_with("cs: Failed!\n"), "{report}");
    assert_eq!(out.status.code(), Some(if passed { 0 } else { 1 }));
}

#[test]
fn alloc_size_is_accepted_and_checked() {
    let dir = tempdir();
    let job = ["--alloc-size=32768", "--name=j", "--ioengine=null", "--size=64k"];
    let out = run_in(dir.path(), IOMARK, &job);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = run_in(dir.path(), IOMARK, &["--alloc-size=lots", "--name=j", "--ioengine=null"]);
    assert_eq!(out.status.code(), Some(2));
}

/// A trigger file already there fires at once: it is removed, the jobs stop, the command
/// runs, the report is printed and the exit code is 0. A timeout fires the same way.
/// A command that fails is a note of the report.
#[test]
fn a_trigger_stops_the_run_and_runs_its_command() {
    let dir = tempdir();
    std::fs::write(dir.path().join("go"), b"").unwrap();
    let job = [
        "--name=j",
        "--ioengine=null",
        "--size=1g",
        "--time_based",
        "--runtime=120",
        "--output-format=json",
    ];
    let run = |extra: &[&str]| {
        let mut args = extra.to_vec();
        args.extend(job);
        run_in(dir.path(), IOMARK, &args)
    };
    let out = run(&["--trigger-file=go", "--trigger=touch ran"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stderr).is_empty(), "{}", text(&out.stderr));
    assert!(!dir.path().join("go").exists(), "the trigger file is removed");
    assert!(dir.path().join("ran").exists(), "the trigger command ran");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("the report");
    assert_eq!(json["jobs"][0]["jobname"], "j");
    let out = run(&["--trigger-timeout=0.2", "--trigger=echo fired"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).starts_with("fired\n"), "{}", text(&out.stdout));
    // A command that fails does not fail the run (fio 3.33 exits 0 too): a note with the
    // report, and nothing on standard error.
    let out = run(&["--trigger-timeout=0.2", "--trigger=exit 3"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stderr).is_empty(), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("the report");
    assert_eq!(json["iomark notes"][0], "--trigger 'exit 3': exit status: 3", "{json}");
}

/// `--aux-path`: the verify state file is saved there (fio's name, `local-JOB-N-verify.state`)
/// and loaded from there, and not in the current directory.
#[test]
fn aux_path_holds_the_verify_state_files() {
    let dir = tempdir();
    std::fs::create_dir(dir.path().join("aux")).unwrap();
    let job = ["--name=j", "--filename=f.dat", "--size=64k", "--rw=write", "--verify=crc32c"];
    let mut args = vec!["--aux-path=aux"];
    args.extend(job);
    let out = run_in(dir.path(), IOMARK, &args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(dir.path().join("aux/local-j-0-verify.state").exists());
    assert!(!dir.path().join("local-j-0-verify.state").exists());
    args.extend(["--verify_only", "--verify_state_load=1"]);
    let out = run_in(dir.path(), IOMARK, &args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}
