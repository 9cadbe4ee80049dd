//! `--debug=parse`: the lines fio 3.33 prints for the options that print one (the steady
//! state threshold, a size or offset given as a percentage, the zones of a zoned
//! distribution, the numbers of a list), which iomark prints too, on standard output, in
//! fio's layout (`parse    PID  message`). Checked against fio where it is installed, and
//! against the lines fio printed when this was written everywhere. fio prints no other line
//! of its own for any option: a job per option of `fio --cmdhelp=all` and per engine
//! option, each with its default, its choices and some thirty typical and malformed values,
//! printed only these besides fio's trace of its parser (`handle_option=…`, `ret=0, out=…`,
//! `dup options`), which iomark does not imitate.

use crate::support::run::{iomark_in, run_in, tempdir, text, write_job};
use crate::support::tools::fio_installed;

/// Jobs of options that make fio print a line of its own, and those lines, in order (none
/// for a fraction of a percent, which fio reads as bytes and iomark as a percentage).
const JOB: &str = "[global]\nioengine=null\nfilename=data\nsize=1m\n\
    [iops]\nss=iops:10\n[iops-pct]\nsteadystate=iops_slope:0.5%\n[bw]\nss=bw:1m\n\
    [bw-slope]\nss=bw_slope:2%\n[size]\nsize=20%\n[fraction]\nsize=12.5%\n[offset]\noffset=50%\n[io-size]\nio_size=30%\n\
    [increment]\noffset_increment=10%\n[zoned]\nrw=randread\nrandom_distribution=zoned:60/10:40/\n\
    [zoned-abs]\nrw=randread\nrandom_distribution=zoned_abs:50/256k:50/512k\n\
    [percentiles]\npercentile_list=50:99.5\n[target]\nlatency_percentile=99\n";

/// What fio 3.33 prints for [`JOB`], in order.
const FIO_LINES: &[&str] = &[
    "set steady state IOPS threshold to 10.000000",
    "set steady state threshold to 0.500000%",
    "set steady state BW threshold to 1048576",
    "set steady state threshold to 2.000000%",
    "SET size_percent 20",
    "SET start_offset_percent 50",
    "SET io_size_percent 30",
    "SET offset_increment_percent 10",
    "zone ddir 0 (nr=2): ",
    "\t0: 60/10",
    "\t1: 40/90",
    "zone ddir 1 (nr=2): ",
    "\t0: 60/10",
    "\t1: 40/90",
    "zone ddir 2 (nr=2): ",
    "\t0: 60/10",
    "\t1: 40/90",
    "zone ddir 0 (nr=2): ",
    "\t0: 50/262144",
    "\t1: 50/524288",
    "zone ddir 1 (nr=2): ",
    "\t0: 50/262144",
    "\t1: 50/524288",
    "zone ddir 2 (nr=2): ",
    "\t0: 50/262144",
    "\t1: 50/524288",
    "  out=50.000000",
    "  out=99.500000",
    "  out=99.000000",
];

/// The messages of the `parse    PID  message` lines of `stdout` that are fio's lines for an
/// option (not fio's trace of its parser, nor iomark's own lines).
fn option_lines(stdout: &str) -> Vec<String> {
    let forms = ["set steady state", "SET ", "zone ddir", "\t", "  out="];
    stdout
        .lines()
        .filter_map(|l| l.strip_prefix("parse"))
        .map(|l| l.trim_start_matches(' ').trim_start_matches(|c: char| c.is_ascii_digit()))
        .filter_map(|l| l.strip_prefix(' '))
        // The pid is padded to five places, and then a blank.
        .map(|l| l.strip_prefix("    ").filter(|m| !m.starts_with(' ')).unwrap_or(l))
        .map(|m| m.trim_start_matches(' ').to_string())
        .map(|m| if m.starts_with("out=") { format!("  {m}") } else { m })
        .filter(|m| forms.iter().any(|f| m.starts_with(f)))
        .collect()
}

#[test]
fn fios_option_lines_are_printed_on_stdout() {
    let dir = tempdir();
    std::fs::write(dir.path().join("data"), vec![0u8; 1 << 20]).unwrap();
    write_job(dir.path(), JOB);
    let out = iomark_in(dir.path(), &["--debug=parse", "--parse-only", "job.fio"], true);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stderr), "", "debug output goes to stdout, as fio's");
    let ours = option_lines(&text(&out.stdout));
    assert_eq!(ours, FIO_LINES, "{}", text(&out.stdout));
    if fio_installed() {
        let theirs = run_in(dir.path(), "fio", &["--debug=parse", "--parse-only", "job.fio"]);
        assert_eq!(option_lines(&text(&theirs.stdout)), FIO_LINES, "fio 3.33's lines changed");
    }
}

/// `steadystate` values, well formed and malformed, with fio 3.33's line for each and
/// whether iomark notes fio's reading; `None` where both refuse the value.
const STEADY: &[(&str, Option<&str>, bool)] = &[
    ("iops:10", Some("set steady state IOPS threshold to 10.000000"), false),
    ("iops_slope:0.5%", Some("set steady state threshold to 0.500000%"), false),
    ("bw:1m", Some("set steady state BW threshold to 1048576"), false),
    ("bw_slope:2%", Some("set steady state threshold to 2.000000%"), false),
    ("iops:1e3", Some("set steady state IOPS threshold to 1000.000000"), false),
    ("bw:4kib", Some("set steady state BW threshold to 4000"), false),
    ("iops:1k", Some("set steady state IOPS threshold to 1.000000"), true),
    ("iops:10x", Some("set steady state IOPS threshold to 10.000000"), true),
    ("iops:0x10", Some("set steady state IOPS threshold to 16.000000"), true),
    ("iops:1:2", Some("set steady state IOPS threshold to 1.000000"), true),
    ("iops:-1", Some("set steady state IOPS threshold to -1.000000"), true),
    ("iops:10%x", Some("set steady state threshold to 10.000000%"), true),
    ("bw:4k%", Some("set steady state threshold to 4.000000%"), true),
    ("bw:1.5m", Some("set steady state BW threshold to 1"), true),
    ("bw:1mx", Some("set steady state BW threshold to 1048576"), true),
    ("bw:1m-2m", Some("set steady state BW threshold to 1048576"), true),
    ("bw:-1m", Some("set steady state BW threshold to -1048576"), true),
    ("IOPS:10", None, false),
    ("iops:1,2", None, false),
    ("iops:x", None, false),
    ("bw:.5", None, false),
    ("lat:1", None, false),
];

/// The `set steady state` lines of a `--debug=parse` run.
fn steady_lines(stdout: &str) -> Vec<String> {
    option_lines(stdout).into_iter().filter(|l| l.starts_with("set steady")).collect()
}

#[test]
fn steadystate_is_read_as_fio_reads_it() {
    let dir = tempdir();
    let fio = fio_installed();
    let mut wrong = Vec::new();
    for &(value, line, noted) in STEADY {
        write_job(dir.path(), &format!("[j]\nioengine=null\nsize=1m\nss={value}\n"));
        let out = iomark_in(dir.path(), &["--debug=parse", "--parse-only", "job.fio"], true);
        let want: Vec<String> = line.map(String::from).into_iter().collect();
        let accepted = out.status.code() == Some(0);
        let note = text(&out.stdout).contains("is read as fio 3.33 reads it");
        if steady_lines(&text(&out.stdout)) != want || accepted != line.is_some() || note != noted {
            wrong.push(format!("iomark {value}: {}{}", text(&out.stdout), text(&out.stderr)));
        }
        if fio {
            let theirs = run_in(dir.path(), "fio", &["--debug=parse", "--parse-only", "job.fio"]);
            let refused = text(&theirs.stderr).contains("failed parsing");
            if steady_lines(&text(&theirs.stdout)) != want || refused == line.is_some() {
                wrong.push(format!("fio {value}: {}", text(&theirs.stdout)));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
