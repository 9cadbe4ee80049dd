//! Tables of command lines run under iomark and fio 3.33 alike (`files::options`,
//! `files::regions`): each case prepares a fresh temporary directory, runs the same command line
//! (with `write_iolog`) under iomark and, where fio is installed, under fio, and compares
//! the exit code, each job's I/O counts, the data I/Os of the iolog (in order, or as a
//! multiset where the clones of a job share one iolog) and the sizes of the files left in
//! the directory. iomark alone must also give the values written in the case, so that a
//! table means something without fio (which then prints `skipped: fio not installed`).

use super::iolog::data_ios;
use super::report::report_json;
use super::run::{run_in, tempdir, IOMARK};
use super::tools::fio_installed;
use std::collections::BTreeMap;
use std::path::Path;

/// How a case's iolog is compared.
#[derive(Clone, Copy, PartialEq)]
pub enum Order {
    /// I/O by I/O.
    Exact,
    /// As a multiset: clones write the one iolog in turns of their own.
    Sorted,
}

/// One command line and what iomark must do with it.
pub struct Case {
    pub name: &'static str,
    /// Makes the directory's files before the run.
    pub setup: fn(&Path),
    pub args: &'static [&'static str],
    pub order: Order,
    /// The exit code.
    pub code: i32,
    /// The data I/Os of the iolog, as `FILE:DIR:OFFSET+LEN` (the first letter of the
    /// direction); `None` when the run has no iolog (it failed before it).
    pub ios: Option<&'static str>,
    /// The size of each file left in the directory (iolog and job files aside).
    pub sizes: &'static [(&'static str, u64)],
}

/// A file of `len` zero bytes at `dir/name`, with its parents.
pub fn file(dir: &Path, name: &str, len: usize) {
    let path = dir.join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, vec![0u8; len]).unwrap();
}

/// No file before the run.
pub fn nothing(_: &Path) {}

/// What one run gave: exit code, per-job counts, iolog I/Os, and the files left.
#[derive(Debug, PartialEq)]
pub struct Outcome {
    pub code: Option<i32>,
    pub counts: Vec<(String, [u64; 4])>,
    pub ios: Vec<String>,
    pub sizes: BTreeMap<String, u64>,
}

/// Sizes of the regular files under `dir` (relative names), iolog aside.
fn sizes(dir: &Path, root: &Path, out: &mut BTreeMap<String, u64>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let kind = entry.file_type().unwrap();
        let path = entry.path();
        if kind.is_dir() {
            sizes(&path, root, out);
        } else if kind.is_file() && path.file_name().is_some_and(|n| n != "x.iolog") {
            let name = path.strip_prefix(root).unwrap().display().to_string();
            out.insert(name, entry.metadata().unwrap().len());
        }
    }
}

/// Runs `program` on `case` in a fresh directory.
pub fn run(program: &str, case: &Case) -> Outcome {
    let dir = tempdir();
    (case.setup)(dir.path());
    let mut args = case.args.to_vec();
    args.extend(["--write_iolog=x.iolog", "--output-format=json"]);
    let out = run_in(dir.path(), program, &args);
    let code = out.status.code();
    let mut counts = Vec::new();
    if code == Some(0) {
        let json = report_json(program, &out);
        for job in json["jobs"].as_array().expect("jobs") {
            let n = |d: &str, f: &str| job[d][f].as_u64().unwrap_or(0);
            counts.push((
                job["jobname"].as_str().unwrap_or("?").to_string(),
                [
                    n("read", "total_ios"),
                    n("read", "io_bytes"),
                    n("write", "total_ios"),
                    n("write", "io_bytes"),
                ],
            ));
        }
    }
    let text = std::fs::read_to_string(dir.path().join("x.iolog")).unwrap_or_default();
    let mut ios: Vec<String> = data_ios(&text).iter().map(|io| io.short()).collect();
    if case.order == Order::Sorted {
        ios.sort();
    }
    let mut left = BTreeMap::new();
    sizes(dir.path(), dir.path(), &mut left);
    Outcome { code, counts, ios, sizes: left }
}

/// Runs every case under iomark (checked against the case) and, where it is installed,
/// under fio (checked against iomark); fails with every difference found.
pub fn check_against_fio(cases: &[Case]) {
    let fio = fio_installed();
    let mut diffs = Vec::new();
    for case in cases {
        let ours = run(IOMARK, case);
        if ours.code != Some(case.code) {
            diffs.push(format!("{}: iomark exit {:?}, want {}", case.name, ours.code, case.code));
        }
        if let Some(want) = case.ios {
            let mut want: Vec<String> = want.split(' ').map(String::from).collect();
            if case.order == Order::Sorted {
                want.sort();
            }
            if ours.ios != want {
                diffs.push(format!("{}: iomark I/Os {:?}, want {want:?}", case.name, ours.ios));
            }
        }
        let want: BTreeMap<String, u64> =
            case.sizes.iter().map(|&(name, len)| (name.to_string(), len)).collect();
        if case.ios.is_some() && ours.sizes != want {
            diffs.push(format!("{}: iomark left {:?}, want {want:?}", case.name, ours.sizes));
        }
        if fio {
            let theirs = run("fio", case);
            // fio exits 1 where iomark refuses a configuration with 2.
            let same_code =
                theirs.code == ours.code || (ours.code == Some(2) && theirs.code == Some(1));
            // A configuration iomark refuses leaves nothing to compare.
            let same = same_code
                && (ours.code == Some(2)
                    || (theirs.counts == ours.counts
                        && theirs.ios == ours.ios
                        && theirs.sizes == ours.sizes));
            if !same {
                diffs.push(format!("{}:\n  fio    {theirs:?}\n  iomark {ours:?}", case.name));
            }
        }
    }
    assert!(diffs.is_empty(), "differences:\n{}", diffs.join("\n"));
}
