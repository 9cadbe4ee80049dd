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
//! **Lenient files** (`tests/jobs/lenient/`, malformed values that fio 3.33 runs and iomark
//! runs with fio's meaning and a note): fio must accept each (it may warn), and its numbers
//! are compared as above, so that the meaning iomark gives them is fio's.
//!
//! **Bad files**: nothing to compare. Those that fio accepts (it may warn, but keeps every
//! job) although iomark refuses them carry a line `; fio: accepts (<reason>)`; the last test
//! checks that the mark is right both ways, so the list stays true. Today they are:
//! `size=-1` (fio stores -1 as a huge unsigned size), a file with NUL bytes, and options or
//! engines iomark does not support. A missing or looping `include` is refused by both,
//! although fio still exits 0.

mod compare;
mod fio;
mod leniency;

use compare::{differences, iomark_sections};
use fio::{corpus, fio_available, fio_mark, run_fio, MachineLoader};

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
fn fio_runs_every_lenient_file_and_reads_the_same_numbers() {
    if !fio_available() {
        return;
    }
    let loader = MachineLoader::new();
    let mut failures = Vec::new();
    let mut compared = 0;
    for path in corpus("lenient") {
        let run = run_fio(&path);
        if !run.accepted() {
            failures.push(format!("{}: fio refuses: {:?}", path.display(), run.refusals()));
            continue;
        }
        match iomark_sections(&path, &loader) {
            Ok(ours) => {
                for diff in differences(&run, &ours, &mut compared) {
                    failures.push(format!("{}: {diff}", path.display()));
                }
            }
            Err(e) => failures.push(format!("{}: iomark refuses: {e}", path.display())),
        }
    }
    println!("{compared} lenient assignments compared with fio");
    assert!(failures.is_empty(), "{} differences:\n{}", failures.len(), failures.join("\n"));
    assert!(compared >= 20, "only {compared} assignments compared");
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
