//! The terse output end to end: golden lines under the fake clock in every terse version,
//! the order of combined formats, and the fields of iomark's lines against fio 3.33's on
//! the same job files.
//!
//! Golden files (see [`crate::support::golden`]): `<case>.terse<N>` is the
//! `--output-format=terse --terse-version=N` output of `<case>.fio`,
//! `<case>.terse_json_normal` the output of `--output-format=normal,terse,json`.
//! `IOMARK_BLESS=1` rewrites them from the current output; check the diff by eye against
//! fio's layout (the report crate's terse tests hold fio's own lines) before committing.
//! Every run happens in a temporary directory; the fio comparison prints `skipped: …` and
//! passes when `fio` is not on the `PATH` or is not fio 3.33.

use crate::support::golden;
use crate::support::run::{iomark_in, run_in, tempdir, text, write_job, IOMARK};
use crate::support::tools::fio_3_33_installed;

/// Runs `program` with `args` in a fresh temporary directory; `fake` runs iomark under
/// the fake clock. Returns standard output, and fails the test on a non-zero exit or any
/// standard error.
fn run(program: &str, args: &[&str], fake: bool) -> String {
    let dir = tempdir();
    let out = match fake {
        true => iomark_in(dir.path(), args, true),
        false => run_in(dir.path(), program, args),
    };
    let what = format!("{program} {}", args.join(" "));
    assert_eq!(out.status.code(), Some(0), "{what}: {}", text(&out.stderr));
    assert!(out.stderr.is_empty(), "{what}: stderr: {}", text(&out.stderr));
    text(&out.stdout)
}

fn iomark(args: &[&str]) -> String {
    run(IOMARK, args, true)
}

/// Compares `got` with the golden file `name`, or rewrites it under `IOMARK_BLESS=1`.
fn check_golden(name: &str, got: &str) {
    golden::compare(name, got.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
}

/// Every terse version of `case` against its golden files; `--minimal` is version 3.
fn check_versions(case: &str) {
    let job = golden::job(case);
    let job = job.as_str();
    for version in 2..=5 {
        let flag = format!("--terse-version={version}");
        let got = iomark(&["--output-format=terse", &flag, job]);
        check_golden(&format!("{case}.terse{version}"), &got);
    }
    assert_eq!(iomark(&["--minimal", job]), iomark(&["--output-format=terse", job]));
}

#[test]
fn golden_randrw_mix_in_every_version() {
    check_versions("randrw70");
}

#[test]
fn golden_group_reporting_in_every_version() {
    check_versions("numjobs3_group");
}

#[test]
fn golden_description_and_trims_in_every_version() {
    check_versions("terse_description");
}

/// fio 3.33 prints the formats in one order whatever the list's: the start lines (with
/// normal), the terse lines, the JSON document, an empty line, the normal report.
#[test]
fn combined_formats_print_in_fios_order() {
    let job = golden::job("randrw70");
    let job = job.as_str();
    let got = iomark(&["--output-format=normal,terse,json", job]);
    check_golden("randrw70.terse_json_normal", &got);
    for other in ["--output-format=json,normal,terse", "--output-format=terse,json,normal,json"] {
        assert_eq!(iomark(&[other, job]), got, "{other}");
    }
    assert_eq!(iomark(&["--output-format=json,normal", "--append-terse", job]), got);
    assert_eq!(iomark(&["--append-terse=1", "--output-format=json,normal,terse", job]), got);
    let terse_json = iomark(&["--output-format=json,terse", job]);
    let terse_end = got.find("\n{\n").expect("the JSON document") + 1;
    let terse_start = got[..terse_end].rfind("Starting 1 process\n").expect("the start") + 19;
    let normal_start = got.find("\n}\n").expect("the document's end") + 3;
    assert_eq!(terse_json, got[terse_start..normal_start], "terse then JSON, no empty line");
}

// ---------------------------------------------------------------------------------------
// Against fio 3.33
// ---------------------------------------------------------------------------------------

/// Two groups: a random mix (whose split between reads and writes depends on the random
/// generator, so only its total is compared), and two cloned readers reported as one, with
/// a description. The null engine touches no disk, so neither line has disk fields.
const FIO_JOB: &str = "\
[mix]
ioengine=null
rw=randrw
size=1m
bs=4k

[reader]
new_group
ioengine=null
rw=read
size=512k
bs=4k
numjobs=2
group_reporting
description=reads for the terse test
";

/// Where a version's fields are: the first direction, the width of a direction, the
/// number of directions.
fn layout(version: u32) -> (usize, usize, usize) {
    let first = if version == 2 { 4 } else { 5 };
    let width = if version == 5 { 47 } else { 41 };
    (first, width, if version == 3 { 2 } else { 3 })
}

/// The fields of a line that do not depend on timing: version, name, group, error, the KiB
/// of each direction (or their total), the percentile labels, the I/O depths and what
/// follows them, the description.
fn steady_fields(line: &str, version: u32, total_only: bool) -> Vec<String> {
    let f: Vec<&str> = line.split(';').collect();
    let (first, width, dirs) = layout(version);
    let mut out: Vec<String> = vec![f[0].into(), f[first - 3].into(), f[first - 2].into()];
    out.push(f[first - 1].into());
    let kib: Vec<u64> = (0..dirs).map(|d| f[first + d * width].parse().expect("KiB")).collect();
    if total_only {
        out.push(kib.iter().sum::<u64>().to_string());
    } else {
        out.extend(kib.iter().map(u64::to_string));
    }
    for d in 0..dirs {
        let pct = first + d * width + 12;
        out.extend(f[pct..pct + 20].iter().map(|p| p.split('=').next().unwrap_or("").into()));
    }
    let depths = first + dirs * width + 5;
    out.extend(f[depths..depths + 7].iter().map(|s| (*s).into()));
    out.push(f[depths + 29..].join(";"));
    out
}

#[test]
fn terse_fields_match_fio() {
    if !fio_3_33_installed() {
        return;
    }
    let dir = tempdir();
    let job = write_job(dir.path(), FIO_JOB);
    let job = job.to_str().expect("a UTF-8 path");
    for version in [3, 5] {
        let flag = format!("--terse-version={version}");
        let args = ["--output-format=terse", flag.as_str(), job];
        let fio = run("fio", &args, false);
        let ours = run(IOMARK, &args, false);
        let (fio, ours): (Vec<&str>, Vec<&str>) = (fio.lines().collect(), ours.lines().collect());
        assert_eq!(ours.len(), fio.len(), "v{version}: lines\n{ours:?}\n{fio:?}");
        for (i, (o, f)) in ours.iter().zip(&fio).enumerate() {
            let what = format!("v{version} line {}", i + 1);
            assert_eq!(o.split(';').count(), f.split(';').count(), "{what}: field count");
            let total_only = i == 0;
            let (o, f) =
                (steady_fields(o, version, total_only), steady_fields(f, version, total_only));
            assert_eq!(o, f, "{what}");
        }
    }
}

#[test]
fn golden_unified_rw_reporting_in_every_version() {
    check_versions("unified_mixed");
    check_versions("unified_both");
}

/// `unified_rw_reporting`: `mixed` replaces the direction blocks with one mixed block,
/// `both` appends it; the line has fio's field count in every version and the mixed block
/// carries all the KiB.
#[test]
fn unified_rw_reporting_lines_match_fio() {
    if !fio_3_33_installed() {
        return;
    }
    let base = ["--name=u", "--ioengine=null", "--rw=randrw", "--bs=4k", "--size=1m"];
    for mode in ["mixed", "both"] {
        for version in 2..=5 {
            let flags =
                [format!("--unified_rw_reporting={mode}"), format!("--terse-version={version}")];
            let mut args: Vec<&str> = base.to_vec();
            args.extend(flags.iter().map(String::as_str));
            args.push("--minimal");
            let fio = run("fio", &args, false);
            let ours = run(IOMARK, &args, false);
            let what = format!("{mode} v{version}");
            assert_eq!(ours.split(';').count(), fio.split(';').count(), "{what}: field count");
            let (first, width, dirs) = layout(version);
            let mixed = if mode == "mixed" { first } else { first + dirs * width };
            let kib = |line: &str| line.split(';').nth(mixed).map(str::to_owned);
            assert_eq!(kib(&ours), Some("1024".to_owned()), "{what}: mixed KiB\n{ours}");
            assert_eq!(kib(&ours), kib(&fio), "{what}: mixed KiB against fio");
        }
    }
}
