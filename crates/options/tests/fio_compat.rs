//! fio 3.33 as the reference: every good corpus file must mean the same to fio and iomark.
//!
//! When `fio` is on `PATH` (else the tests print `skipped: fio not installed`), each
//! `tests/jobs/good/*.fio` not marked `; fio: skip (<reason>)` is run through
//! `fio --parse-only --debug=parse FILE`, with the same environment as iomark's corpus test
//! (`IOMARK_TEST_SIZE=8m`) and this machine's `$ncpus`, `$pagesize` and `$mb_memory`.
//!
//! **Accepted**: fio must exit 0 and print no line that drops a job or fails to read a file
//! (`failed parsing`, `Bad option`, `unable to open`, `dropped`, `error=`); for good files, no
//! warning either (`out of range`, `not a floating point`).
//!
//! **Compared**, assignment by assignment: fio's debug output is split into sections at each
//! `Parsing section [X]` line (an `include` only adds a `Parsing ini file` line inside the
//! section). Global options are handled once, after their own section's `Parsing section`
//! line (fio prints them after echoing the next header, and copies them to later jobs with
//! `dup options` without handling them again). An engine's own options (`hipri`) come last,
//! after `init options` and `filling default options`, which first handles the engine's
//! defaults (`hipri_percentage=100`); such entries are dropped from the front while fio has
//! more of an option than iomark's section assigns. Within
//! a section fio handles options in its own priority order (`kb_base` first), not in file
//! order, but the assignments of one option keep their order; so for every section and every
//! option, the n-th `handle_option=NAME` of fio is matched with the n-th assignment of NAME in
//! that section of iomark (found through the `Place` of each setting). Each `handle_option`
//! is followed by one `__handle_option` per element (per direction, per list entry, per end
//! of a range), each with `ret=R, out=V`; `ret=1` marks a direction left blank. Compared:
//!
//! - `Int`, `Size`, `SizeOrPercent` given in bytes, `Bool` and `Flag`: the one `out=`.
//! - `SizeOrPercent` given as a percentage `p`: fio stores it as `-1 - p` in an unsigned
//!   64-bit integer, so `out` must be `u64::MAX - p`.
//! - `Time`: `out` is in microseconds when fio's type is `OPT_STR_VAL_TIME`; when fio reads
//!   the option as a plain `OPT_INT`, `out` is in the option's own unit (milliseconds for
//!   `bwavgtime`), and iomark's value is converted to that unit (except `thinktime_iotime`,
//!   an `OPT_INT` in seconds that fio stores in microseconds).
//! - `TimeRange`: the two ends, in microseconds (one `out` for a single time).
//! - `SizePerDir`, `IntPerDir`: direction by direction, for the elements fio prints with
//!   `ret=0`; directions fio does not print (fio copies the last one given) are not compared.
//! - `RangePerDir`: fio prints ends only for `OPT_STR_VAL` ranges (`filesize`): the two ends
//!   of the first direction. `OPT_RANGE` (`bsrange`) prints nothing, so nothing is compared.
//! - `FloatList` (`percentile_list`): every entry, to 6 decimals as fio prints them.
//!
//! **Not compared**: strings, file lists, enums (fio prints no `out=` for them), `BsSplit`
//! and `bsrange` (fio prints no values), the defaults fio fills in, and section names (fio
//! keeps blanks inside brackets, iomark drops them).
//!
//! **Bad files**: nothing to compare. Those that fio accepts (it may warn, but keeps every
//! job) although iomark refuses them carry a line `; fio: accepts (<reason>)`; the last test
//! checks that the mark is right both ways, so the list stays true. Today they are: `[a`,
//! `[]` and `[a]b` (fio takes them as sections), `bs=4kx`, `size=0xZZ`, `size=-1` and
//! `runtime=10parsecs` (fio reads a prefix and ignores the rest), `bssplit` shares that do
//! not add up or do not parse (fio checks them when the job starts), `percentile_list=50:abc`
//! and `50:101` (fio warns and goes on), a file with NUL bytes, and options or engines iomark
//! does not support yet (`verify`, `libaio`). A missing or looping `include` is refused by
//! both, although fio still exits 0.

use iomark_options::error::Place;
use iomark_options::jobfile::{self, Loader};
use iomark_options::spec::{JobSpec, Setting};
use iomark_options::table::{self, Kind};
use iomark_options::value::subst::Keywords;
use iomark_options::value::{SizeOrPercent, TimeUnit, Value};
use iomark_options::{cmdline, parse_jobs};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

// ---------------------------------------------------------------------------------------
// Helpers: the machine, the corpus, and running fio
// ---------------------------------------------------------------------------------------

/// The environment both programs see.
const ENV: &[(&str, &str)] = &[("IOMARK_TEST_SIZE", "8m")];

/// Lines of fio's output that mean it refused something (a job dropped, a file unread).
/// (`, error=` as in fio's `err=22/…, error=Invalid argument`: a bare `error=` would also
/// match the parse trace of `continue_on_error=` and `ignore_error=`.)
const FIO_REFUSALS: &[&str] =
    &["failed parsing", "Bad option", "unable to open", "dropped", ", error=", "syntax error"];

/// Lines of fio's output that warn about a value fio then uses anyway.
const FIO_WARNINGS: &[&str] = &["out of range", "not a floating point"];

/// Whether fio is installed; prints the skip message when it is not.
fn fio_available() -> bool {
    let ok = Command::new("fio").arg("--version").output().is_ok_and(|o| o.status.success());
    if !ok {
        println!("skipped: fio not installed");
    }
    ok
}

/// Reads files from disk, the environment from [`ENV`], keywords from this machine, as fio
/// does.
struct MachineLoader {
    keywords: Keywords,
}

impl MachineLoader {
    fn new() -> Self {
        let getconf = |name: &str| -> u64 {
            let out = Command::new("getconf").arg(name).output().expect("getconf");
            String::from_utf8_lossy(&out.stdout).trim().parse().expect("getconf number")
        };
        let meminfo = std::fs::read_to_string("/proc/meminfo").expect("/proc/meminfo");
        let kib: u64 = meminfo
            .lines()
            .find_map(|l| l.strip_prefix("MemTotal:"))
            .and_then(|l| l.trim().trim_end_matches("kB").trim().parse().ok())
            .expect("MemTotal");
        let keywords = Keywords {
            ncpus: getconf("_NPROCESSORS_ONLN"),
            pagesize: getconf("PAGESIZE"),
            mb_memory: kib / 1024,
        };
        MachineLoader { keywords }
    }
}

impl Loader for MachineLoader {
    fn load(&self, path: &Path) -> std::io::Result<Vec<u8>> {
        std::fs::read(path)
    }

    fn env(&self, name: &str) -> Option<String> {
        ENV.iter().find(|(k, _)| *k == name).map(|(_, v)| v.to_string())
    }

    fn keywords(&self) -> Keywords {
        self.keywords
    }
}

#[path = "../../../tests/support/corpus.rs"]
mod corpus_files;
use corpus_files::corpus;

/// The text of the first comment line starting with `; fio: <what> (`, if any.
fn fio_mark(path: &Path, what: &str) -> Option<String> {
    let bytes = std::fs::read(path).unwrap();
    let text = String::from_utf8_lossy(&bytes);
    let prefix = format!("; fio: {what} (");
    text.lines().find_map(|l| l.strip_prefix(&prefix).map(|r| r.trim_end_matches(')').to_string()))
}

/// What fio printed for one `--parse-only --debug=parse` run.
struct FioRun {
    /// fio's exit code.
    code: Option<i32>,
    /// Standard output and standard error together.
    text: String,
    /// The sections, in the order fio parsed them.
    sections: Vec<FioSection>,
}

impl FioRun {
    /// The lines that show fio refused something.
    fn refusals(&self) -> Vec<&str> {
        self.text.lines().filter(|l| FIO_REFUSALS.iter().any(|r| l.contains(r))).collect()
    }

    /// The lines where fio warns about a value.
    fn warnings(&self) -> Vec<&str> {
        self.text.lines().filter(|l| FIO_WARNINGS.iter().any(|r| l.contains(r))).collect()
    }

    /// fio exits 0 and keeps every job, perhaps with a warning.
    fn accepted(&self) -> bool {
        self.code == Some(0) && self.refusals().is_empty()
    }

    /// fio accepts without a warning.
    fn clean(&self) -> bool {
        self.accepted() && self.warnings().is_empty()
    }
}

/// One section as fio parsed it.
#[derive(Debug)]
struct FioSection {
    name: String,
    /// Every option fio handled for the section, in fio's order.
    handled: Vec<FioOption>,
}

/// One `handle_option=NAME, ptr=VALUE` and what followed it.
#[derive(Debug)]
struct FioOption {
    /// The canonical name (iomark's), looked up from fio's.
    name: String,
    /// The value fio was given, after substitution.
    ptr: String,
    /// fio's type of the first element (`OPT_INT`, `OPT_ULL`, ...).
    kind: String,
    /// One `(ret, out)` per element; `ret == 1` for a blank direction.
    outs: Vec<(i64, String)>,
    /// Handled after `filling default options`: an engine's defaults, then its options.
    defaults: bool,
}

/// Runs fio on `path` and splits its debug output into sections.
fn run_fio(path: &Path) -> FioRun {
    let out = Command::new("fio")
        .args(["--parse-only", "--debug=parse"])
        .arg(path)
        .envs(ENV.iter().copied())
        .output()
        .expect("run fio");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let sections = fio_sections(&stdout);
    FioRun { code: out.status.code(), text: format!("{stdout}{stderr}"), sections }
}

/// The message of a `parse  PID  message` line.
fn debug_message(line: &str) -> Option<&str> {
    let rest = line.strip_prefix("parse")?.trim_start();
    Some(rest.trim_start_matches(|c: char| c.is_ascii_digit()).trim_start())
}

/// `key=value` items of a message such as `ret=0, out=4096`.
fn field<'a>(message: &'a str, key: &str) -> Option<&'a str> {
    message.split(", ").find_map(|part| part.trim().strip_prefix(key)?.strip_prefix('='))
}

/// Attributes fio's `handle_option` lines to sections; see the module documentation.
fn fio_sections(stdout: &str) -> Vec<FioSection> {
    let mut sections: Vec<FioSection> = Vec::new();
    let mut defaults = false;
    for message in stdout.lines().filter_map(debug_message) {
        if let Some(name) = message.strip_prefix("Parsing section [") {
            let name = name.strip_suffix(']').unwrap_or(name).trim().to_string();
            sections.push(FioSection { name, handled: Vec::new() });
            defaults = false;
        } else if message.starts_with("filling default options") {
            defaults = true;
        } else if sections.is_empty() {
            continue;
        } else if let Some(rest) = message.strip_prefix("handle_option=") {
            let (name, ptr) = rest.split_once(", ptr=").unwrap_or((rest, ""));
            let name = table::find(name).map_or(name, |d| d.name).to_string();
            let ptr = ptr.to_string();
            let option = FioOption { name, ptr, kind: String::new(), outs: vec![], defaults };
            sections.last_mut().unwrap().handled.push(option);
        } else if let Some(rest) = message.strip_prefix("__handle_option=") {
            let last = sections.last_mut().unwrap().handled.last_mut();
            if let (Some(option), Some(kind)) = (last, field(rest, "type")) {
                if option.kind.is_empty() {
                    option.kind = kind.to_string();
                }
            }
        } else if let Some(out) = field(message, "out") {
            let ret = field(message, "ret").and_then(|r| r.parse().ok()).unwrap_or(0);
            if let Some(option) = sections.last_mut().unwrap().handled.last_mut() {
                option.outs.push((ret, out.to_string()));
            }
        }
    }
    sections
}

// ---------------------------------------------------------------------------------------
// Helpers: iomark's side, and the comparison
// ---------------------------------------------------------------------------------------

/// One section as iomark read it: its name and its assignments, as validated settings.
struct IomarkSection {
    name: String,
    /// `(option, setting)`; the setting is `None` when no job received the assignment (a
    /// global section after the last job).
    assignments: Vec<(String, Option<Setting>)>,
}

/// iomark's sections of a file, each assignment with the setting it became in some job.
fn iomark_sections(path: &Path, loader: &dyn Loader) -> Result<Vec<IomarkSection>, String> {
    let cmd = cmdline::parse([path.as_os_str()]).map_err(|e| e.to_string())?;
    let jobs: Vec<JobSpec> = parse_jobs(&cmd, loader).map_err(|e| e.to_string())?;
    let mut by_place: HashMap<(PathBuf, usize), Setting> = HashMap::new();
    for s in jobs.iter().flat_map(|j| &j.settings) {
        if let Place::File { path, line } = &s.place {
            by_place.entry((path.clone(), *line)).or_insert_with(|| s.clone());
        }
    }
    let raw = jobfile::read(path, loader).map_err(|e| e.to_string())?;
    let sections = raw
        .into_iter()
        .map(|section| {
            let assignments = section
                .lines
                .iter()
                .map(|line| {
                    let name = table::find(&line.key).map_or(line.key.clone(), |d| d.name.into());
                    let setting = match &line.place {
                        Place::File { path, line } => by_place.get(&(path.clone(), *line)).cloned(),
                        _ => None,
                    };
                    (name, setting)
                })
                .collect();
            IomarkSection { name: section.name, assignments }
        })
        .collect();
    Ok(sections)
}

/// fio's `out` values with `ret=0`, as text, by position.
fn given(outs: &[(i64, String)]) -> Vec<Option<&str>> {
    outs.iter().map(|(ret, out)| (*ret == 0).then_some(out.as_str())).collect()
}

fn micros_in(unit: TimeUnit, us: u128) -> u128 {
    match unit {
        TimeUnit::Seconds => us / 1_000_000,
        TimeUnit::Millis => us / 1_000,
        TimeUnit::Micros => us,
    }
}

/// Compares one assignment; `Err` describes a difference. `Ok(false)` when the kind is not
/// compared.
fn compare(fio: &FioOption, setting: &Setting) -> Result<bool, String> {
    let outs = given(&fio.outs);
    let one = || -> Result<&str, String> {
        match outs.as_slice() {
            [Some(out)] => Ok(out),
            _ => Err(format!("fio printed {:?}", fio.outs)),
        }
    };
    let expect = |want: String, got: &str| -> Result<bool, String> {
        if want == got {
            Ok(true)
        } else {
            Err(format!("fio {got}, iomark {want}"))
        }
    };
    let per_dir = |values: Vec<Option<String>>| -> Result<bool, String> {
        for (i, out) in outs.iter().enumerate().take(3) {
            let Some(out) = out else { continue };
            let want = values[i].clone().unwrap_or_else(|| "-".into());
            if want != *out {
                return Err(format!("direction {i}: fio {out}, iomark {want}"));
            }
        }
        Ok(true)
    };
    match (&setting.def.kind, &setting.value) {
        (Kind::Int { .. }, Value::Int(n)) => expect(n.to_string(), one()?),
        (Kind::Size, Value::Size(n)) => expect(n.to_string(), one()?),
        (Kind::Bool | Kind::Flag, Value::Bool(b)) => expect(u8::from(*b).to_string(), one()?),
        (Kind::SizeOrPercent, Value::SizeOrPercent(SizeOrPercent::Bytes(n))) => {
            expect(n.to_string(), one()?)
        }
        (Kind::SizeOrPercent, Value::SizeOrPercent(SizeOrPercent::Percent(p))) => {
            if p.fract() != 0.0 {
                return Ok(false);
            }
            expect((u64::MAX - *p as u64).to_string(), one()?)
        }
        (Kind::Time { unit }, Value::Time(d)) => {
            let us = d.as_micros();
            // `thinktime_iotime` is an `OPT_INT` in seconds that fio 3.33 stores (and
            // prints) in microseconds.
            let stored_in_micros = fio.kind == "OPT_STR_VAL_TIME" || fio.name == "thinktime_iotime";
            let want = if stored_in_micros { us } else { micros_in(*unit, us) };
            expect(want.to_string(), one()?)
        }
        (Kind::TimeRange { .. }, Value::TimeRange(a, b)) => {
            let (a, b) = (a.as_micros().to_string(), b.as_micros().to_string());
            match outs.as_slice() {
                [Some(x)] if a == b => expect(a, x),
                [Some(x), Some(y)] => expect(format!("{a}-{b}"), &format!("{x}-{y}")),
                _ => Err(format!("fio printed {:?}, iomark {a}-{b}", fio.outs)),
            }
        }
        (Kind::SizePerDir, Value::SizePerDir(v)) => {
            per_dir(v.iter().map(|d| d.map(|n| n.to_string())).collect())
        }
        (Kind::IntPerDir, Value::IntPerDir(v)) => {
            per_dir(v.iter().map(|d| d.map(|n| n.to_string())).collect())
        }
        (Kind::RangePerDir | Kind::SizeRange, Value::RangePerDir(v))
            if fio.kind == "OPT_STR_VAL" =>
        {
            let Some((lo, hi)) = v[0] else { return Err("no range for reads".into()) };
            match outs.as_slice() {
                [Some(x)] => expect(format!("{lo}-{hi}"), &format!("{x}-{x}")),
                [Some(x), Some(y)] => expect(format!("{lo}-{hi}"), &format!("{x}-{y}")),
                _ => Err(format!("fio printed {:?}", fio.outs)),
            }
        }
        (Kind::FloatList, Value::Floats(v)) => {
            let want: Vec<String> = v.iter().map(|x| format!("{x:.6}")).collect();
            let got: Vec<&str> = outs.iter().map(|o| o.unwrap_or("-")).collect();
            expect(want.join(":"), &got.join(":"))
        }
        (
            Kind::Int { .. }
            | Kind::Size
            | Kind::Bool
            | Kind::Flag
            | Kind::SizeOrPercent
            | Kind::Time { .. }
            | Kind::TimeRange { .. }
            | Kind::SizePerDir
            | Kind::IntPerDir
            | Kind::FloatList,
            other,
        ) => Err(format!("iomark's value {other:?} does not fit the option's kind")),
        _ => Ok(false),
    }
}

/// fio's handled options of a section, without the engine defaults it filled in: for each
/// option, entries handled after `filling default options` are dropped from the front while
/// fio has more of the option than iomark's section assigns.
fn without_defaults<'a>(handled: &'a [FioOption], mine: &IomarkSection) -> Vec<&'a FioOption> {
    let mut extra: HashMap<&str, usize> = HashMap::new();
    for option in handled {
        *extra.entry(option.name.as_str()).or_default() += 1;
    }
    for (name, count) in extra.iter_mut() {
        let ours = mine.assignments.iter().filter(|(n, _)| n == name).count();
        *count = count.saturating_sub(ours);
    }
    handled
        .iter()
        .filter(|o| {
            let left = extra.get_mut(o.name.as_str()).unwrap();
            if o.defaults && *left > 0 {
                *left -= 1;
                return false;
            }
            true
        })
        .collect()
}

/// Every difference between fio's and iomark's reading of one file; counts comparisons.
fn differences(fio: &FioRun, ours: &[IomarkSection], compared: &mut usize) -> Vec<String> {
    let mut diffs = Vec::new();
    if fio.sections.len() != ours.len() {
        let theirs: Vec<&str> = fio.sections.iter().map(|s| s.name.as_str()).collect();
        let mine: Vec<&str> = ours.iter().map(|s| s.name.as_str()).collect();
        return vec![format!("sections: fio {theirs:?}, iomark {mine:?}")];
    }
    for (theirs, mine) in fio.sections.iter().zip(ours) {
        let handled = without_defaults(&theirs.handled, mine);
        let mut seen: HashMap<&str, usize> = HashMap::new();
        for option in handled.iter().copied() {
            let n = seen.entry(option.name.as_str()).or_default();
            let nth = mine.assignments.iter().filter(|(name, _)| name == &option.name).nth(*n);
            *n += 1;
            let at = format!("[{}] {}={}", mine.name, option.name, option.ptr);
            match nth {
                None => diffs.push(format!("{at}: fio handled it, iomark has no such assignment")),
                Some((_, None)) => {}
                Some((_, Some(setting))) => match compare(option, setting) {
                    Ok(true) => *compared += 1,
                    Ok(false) => {}
                    Err(why) => diffs.push(format!("{at}: {why}")),
                },
            }
        }
        for (name, _) in &mine.assignments {
            let fio_count = handled.iter().filter(|o| &o.name == name).count();
            let our_count = mine.assignments.iter().filter(|(n, _)| n == name).count();
            if fio_count < our_count && seen.get(name.as_str()).is_none_or(|&n| n == fio_count) {
                diffs.push(format!(
                    "[{}] {name}: iomark has {our_count}, fio {fio_count}",
                    mine.name
                ));
                seen.insert(name, usize::MAX);
            }
        }
    }
    diffs
}

// ---------------------------------------------------------------------------------------
// The tests
// ---------------------------------------------------------------------------------------

#[test]
fn fio_accepts_every_good_file() {
    if !fio_available() {
        return;
    }
    let mut failures = Vec::new();
    for path in corpus("good") {
        if fio_mark(&path, "skip").is_some() {
            continue;
        }
        let run = run_fio(&path);
        if !run.clean() {
            let (refusals, warnings) = (run.refusals(), run.warnings());
            let code = run.code;
            failures.push(format!("{}: exit {code:?}: {refusals:?} {warnings:?}", path.display()));
        }
    }
    assert!(failures.is_empty(), "fio refuses:\n{}", failures.join("\n"));
}

#[test]
fn fio_and_iomark_read_the_same_numbers() {
    if !fio_available() {
        return;
    }
    let loader = MachineLoader::new();
    let mut failures = Vec::new();
    let mut compared = 0;
    for path in corpus("good") {
        if fio_mark(&path, "skip").is_some() {
            continue;
        }
        let run = run_fio(&path);
        if !run.clean() {
            continue; // reported by fio_accepts_every_good_file
        }
        let ours = match iomark_sections(&path, &loader) {
            Ok(ours) => ours,
            Err(e) => {
                failures.push(format!("{}: iomark refuses: {e}", path.display()));
                continue;
            }
        };
        for diff in differences(&run, &ours, &mut compared) {
            failures.push(format!("{}: {diff}", path.display()));
        }
    }
    println!("{compared} assignments compared with fio");
    assert!(failures.is_empty(), "{} differences:\n{}", failures.len(), failures.join("\n"));
    assert!(compared >= 100, "only {compared} assignments compared");
}

#[test]
fn fio_accepts_marks_on_bad_files_are_true() {
    if !fio_available() {
        return;
    }
    let mut wrong = Vec::new();
    for path in corpus("bad") {
        let marked = fio_mark(&path, "accepts").is_some();
        let accepted = run_fio(&path).accepted();
        if marked != accepted {
            let says = if accepted { "accepts" } else { "refuses" };
            wrong.push(format!("{}: fio {says} it; fix the '; fio: accepts' mark", path.display()));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
