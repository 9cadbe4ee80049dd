//! The table of malformed values, kind by kind of the option table, that was probed against
//! fio 3.33 to learn its leniency (`src/value/lenient/`), kept as a test: iomark must read
//! every row as the table says, and where fio is installed, fio must accept or refuse the
//! row as the table says and read the same numbers (its `--debug=parse` values, compared as
//! in `main.rs`).
//!
//! A row is an option, a value and what iomark does with it:
//! - [`Plain`]: a well-formed value, read without a note;
//! - [`Noted`]: malformed, run by fio: read with fio's meaning and a note;
//! - [`Own`]: iomark's reading, which differs from fio's on purpose (documented in
//!   `docs/job-files.md`): a well-formed value that fio misreads, or one that only iomark
//!   reads (fio refuses);
//! - [`Refused`]: refused by both;
//! - [`Broken`]: refused by iomark although fio runs it, because fio's run of it is broken
//!   or its meaning changes from option to option (the reason is in the row).

use crate::compare::{differences, iomark_sections};
use crate::fio::{fio_available, run_fio, MachineLoader};
use iomark_options::debug::canonical;
use iomark_options::{cmdline, parse_jobs, ParseError};
use Expect::{Broken, Noted, Own, Plain, Refused};

/// What iomark does with a row; the canonical values are `--debug=parse`'s.
#[derive(Debug, Clone, Copy)]
enum Expect {
    Plain(&'static str),
    Noted(&'static str),
    /// iomark's own reading; `true` when fio accepts the value (and reads it otherwise).
    Own(&'static str, bool),
    Refused,
    /// The reason iomark refuses what fio runs.
    Broken(&'static str),
}

/// The rows: option, value, what iomark does.
const TABLE: &[(&str, &str, Expect)] = &[
    // Whole numbers (fio's OPT_INT).
    ("iodepth", "4x", Noted("4")),
    ("iodepth", "4.5", Noted("4")),
    ("iodepth", "4k", Plain("4096")),
    ("iodepth", "4kx", Noted("4096")),
    ("iodepth", "0x4", Plain("4")),
    ("iodepth", "4e1", Noted("4")),
    ("iodepth", "4 4", Noted("4")),
    ("iodepth", "4)", Noted("4")),
    ("iodepth", "100x", Noted("256")),
    ("iodepth", " 4k", Noted("4")),
    ("iodepth", "0", Refused),
    ("iodepth", "k4", Refused),
    ("iodepth", "4z", Refused),
    ("iodepth", "(4)", Own("4", false)),
    ("iodepth", "-1", Broken("fio warns and keeps the default; other options take 1 or huge")),
    ("iodepth", "4-8", Broken("fio keeps 4 here, the second number for other options")),
    ("numjobs", "1.5k", Noted("1")),
    ("nice", "-5x", Broken("fio reads both -5 and 5 and keeps one of them")),
    ("nice", "25", Refused),
    // Sizes (OPT_STR_VAL, OPT_STR_VAL_ZONE, OPT_ULL).
    ("filesize", "65536)", Noted("65536-65536,-,-")),
    ("filesize", "4kx", Noted("4096-4096,-,-")),
    ("filesize", "1.5k", Noted("1-1,-,-")),
    ("filesize", "0x10k", Noted("16-16,-,-")),
    ("filesize", "1e3", Noted("1-1,-,-")),
    ("filesize", "64k 12", Noted("65536-65536,-,-")),
    ("filesize", "4 k", Noted("4-4,-,-")),
    ("filesize", "4K B", Noted("4096-4096,-,-")),
    ("filesize", "4kibx", Noted("4000-4000,-,-")),
    ("filesize", "4bk", Noted("4-4,-,-")),
    ("filesize", "4Z", Noted("4-4,-,-")),
    ("filesize", "10x10", Noted("16-16,-,-")),
    ("filesize", "4k-8kx", Noted("4096-8192,-,-")),
    ("filesize", "4k,", Noted("4096-4096,-,-")),
    ("filesize", "1z", Refused),
    ("filesize", "k4", Refused),
    (
        "filesize",
        "18446744073709551615",
        Own("18446744073709551615-18446744073709551615,-,-", false),
    ),
    ("randseed", "12x", Noted("12")),
    ("randseed", "0x12g", Noted("18")),
    ("randseed", "1.0", Plain("1")),
    ("size", "64k)", Noted("65536")),
    ("size", " 64k", Noted("64")),
    ("size", "10%x", Noted("10%")),
    ("size", "10%%x", Noted("10%")),
    ("size", "10 %", Noted("10")),
    ("size", "1.5m", Noted("1")),
    ("size", "12.5%", Own("12.5%", true)),
    ("size", "(1m)x", Refused),
    ("size", "101%", Broken("fio stores 2^64-102 bytes")),
    ("size", "-1", Broken("fio stores 2^64-1 bytes")),
    ("offset_align", "4kx", Noted("4096")),
    // Booleans (OPT_BOOL) and flags (OPT_STR_SET).
    ("direct", "1x", Noted("1")),
    ("direct", "1.5", Noted("1")),
    ("direct", "0x1", Plain("1")),
    ("direct", "1k", Noted("1")),
    ("direct", "01", Plain("1")),
    ("direct", "1 1", Noted("1")),
    ("direct", "0.9", Noted("0")),
    ("direct", "1e5", Noted("1")),
    ("direct", "1)", Noted("1")),
    ("direct", "2", Refused),
    ("direct", "true", Refused),
    ("direct", "on", Refused),
    ("direct", "x", Refused),
    ("stonewall", "1x", Noted("1")),
    ("stonewall", "2", Noted("1")),
    ("stonewall", "0x", Noted("0")),
    ("stonewall", "true", Refused),
    // Floating point numbers (OPT_FLOAT_LIST of one).
    ("latency_percentile", "99x", Noted("99")),
    ("latency_percentile", "99.5.5", Noted("99.5")),
    ("latency_percentile", "50:60", Noted("50")),
    ("latency_percentile", "1e1", Plain("10")),
    ("latency_percentile", "0x10", Noted("16")),
    ("latency_percentile", "101", Refused),
    // Times (OPT_STR_VAL_TIME in seconds, OPT_INT in microseconds).
    ("runtime", "2sec", Noted("2")),
    ("runtime", "5min", Noted("5")),
    ("runtime", "1.5ms", Noted("1000000")),
    ("runtime", "0x10", Noted("16")),
    ("runtime", "10sx", Noted("10")),
    ("runtime", "1s)", Noted("1")),
    ("runtime", "1 s", Noted("1000000")),
    ("runtime", "1m30s", Noted("1")),
    ("runtime", "5S", Plain("5000000")),
    ("runtime", "5 ms", Noted("5000000")),
    ("runtime", "1e3", Noted("1")),
    ("runtime", "100x", Noted("256")),
    ("runtime", "1.5", Noted("1000000")),
    ("runtime", "2usx", Noted("2")),
    ("runtime", "2msecx", Noted("2000")),
    ("runtime", "2mx", Noted("2")),
    ("runtime", "3ns", Noted("3")),
    ("runtime", "(2s)", Own("2000000", false)),
    ("runtime", "10-20", Broken("fio reads two times for one option")),
    ("thinktime", "2ms", Plain("2000")),
    ("thinktime", "2msx", Noted("2000")),
    ("thinktime", "1.5ms", Noted("1")),
    ("thinktime", "1 s", Noted("1")),
    ("thinktime", "10x", Noted("16")),
    ("startdelay", "1-5x", Noted("1-5")),
    ("startdelay", "1s-5sx", Noted("1-5")),
    ("startdelay", "5x-1", Noted("5-1000000")),
    ("startdelay", "1:5", Plain("1000000-5000000")),
    ("startdelay", "1s-5s", Own("1000000-5000000", true)),
    ("startdelay", "1-2-3", Broken("fio reads three times for a range of two")),
    // Per-direction values (OPT_ULL, OPT_INT with three slots).
    ("bs", "4kx", Noted("4096,4096,4096")),
    ("bs", "4k)", Noted("4096,4096,4096")),
    ("bs", "4k,8kx", Noted("4096,8192,8192")),
    ("bs", "4k-8k", Noted("4096,8192,8192")),
    ("bs", "4k:8k", Plain("4096,8192,8192")),
    ("bs", "4k,8k,16k,32k", Noted("4096,8192,16384")),
    ("bs", "4k/2", Noted("4096,4096,4096")),
    ("bs", "1.5k", Noted("1,1,1")),
    ("bs", " 4k", Noted("4,4,4")),
    ("bs", "4k,x", Noted("4096,-,-")),
    ("rate_iops", "100x", Noted("256,256,256")),
    ("rate_iops", "100x,50y", Noted("256,50,50")),
    ("rate_iops", "100,50,20,10", Noted("100,50,20")),
    ("rate_iops", "1.5", Noted("1,1,1")),
    ("rate", "1m-2m", Noted("1048576,2097152,2097152")),
    // Ranges (OPT_RANGE: fio prints no values; checked on fio's start lines by hand).
    ("bsrange", "512/25:1k:25:2k:25:4k/25", Noted("512-1024,512-1024,512-1024")),
    ("bsrange", " 1k-4k", Noted("1-4096,1-4096,1-4096")),
    ("bsrange", "1k - 4k", Noted("4-1024,4-1024,4-1024")),
    ("bsrange", "1k-4kx", Noted("1024-4096,1024-4096,1024-4096")),
    ("bsrange", "1kx-4k", Noted("1024-4096,1024-4096,1024-4096")),
    ("bsrange", "1k-4k/2k-8k", Noted("1024-4096,1024-4096,1024-4096")),
    ("bsrange", "1k-4k,2k-8k,512-1k,4k-8k", Noted("1024-4096,2048-8192,512-1024")),
    ("bsrange", "1k-4k,x", Noted("1024-4096,-,-")),
    ("bsrange", "4k", Refused),
    // bssplit (shares as fio's iologs show them, norandommap).
    ("bssplit", "4k/50:8k/60", Noted("4096/50:8192/50,4096/50:8192/50,4096/50:8192/50")),
    ("bssplit", "4k/80:8k/80", Noted("4096/80:8192/20,4096/80:8192/20,4096/80:8192/20")),
    ("bssplit", "4k/x:8k/50", Noted("4096/:8192/50,4096/:8192/50,4096/:8192/50")),
    ("bssplit", "4k/50x:8k/50", Noted("4096/50:8192/50,4096/50:8192/50,4096/50:8192/50")),
    ("bssplit", "4kx/50:8k/50", Noted("4096/50:8192/50,4096/50:8192/50,4096/50:8192/50")),
    ("bssplit", "4k/1.5:8k/", Noted("4096/1:8192/,4096/1:8192/,4096/1:8192/")),
    ("bssplit", "4k/0:8k/50", Plain("4096/:8192/50,4096/:8192/50,4096/:8192/50")),
    ("bssplit", "/10", Refused),
    ("bssplit", "4k/50:8k/60:16k/", Broken("the blank share gets what is left below 0")),
    // Lists of percentiles.
    ("percentile_list", "50:99x", Noted("50:99")),
    ("percentile_list", "50x", Noted("50")),
    ("percentile_list", "50:abc:60", Noted("50:60")),
    ("percentile_list", "50:101:60", Noted("50:60")),
    ("percentile_list", "50::60", Noted("50:60")),
    ("percentile_list", "50,60", Noted("50")),
    ("percentile_list", "101", Refused),
    // Choices.
    ("rw", "randread:8x", Noted("randread:8")),
    ("rw", "randread:4k", Noted("randread:4")),
    ("rw", "randread:x", Noted("randread:0")),
    ("rw", "randrw:-1", Noted("randrw:0")),
    ("file_service_type", "roundrobin:4k", Noted("roundrobin:4")),
    ("file_service_type", "random:x", Noted("random:0")),
    ("file_service_type", "sequential:0x4", Noted("sequential:0")),
    ("rw", "read:4kx", Noted("read:4096")),
    ("rw", "randreadx", Refused),
    ("rw", "READ", Refused),
    ("rw", "randread 8", Refused),
    ("random_distribution", "zipf:1.2x", Noted("zipf:1.2,zipf:1.2,zipf:1.2")),
    ("random_distribution", "zipf:1.2:0.25:3", Noted("zipf:1.2:0.25,zipf:1.2:0.25,zipf:1.2:0.25")),
    ("random_distribution", "normal:5x", Noted("normal:5,normal:5,normal:5")),
    ("random_distribution", "zipf:x", Refused),
    ("random_distribution", "pareto:0.5,zipf:1.1", Own("pareto:0.5,zipf:1.1,zipf:1.1", false)),
    ("sync_file_range", "write:4k", Noted("write:4")),
    ("sync_file_range", "write:abc", Noted("write:0")),
    ("sync_file_range", "write,foo:2", Noted("write:2")),
    ("sync_file_range", "write:2x", Noted("write:2")),
    ("sync_file_range", "write:-1", Noted("write:4294967295")),
    ("kb_base", "1000x", Refused),
    ("cpus_allowed", "0-1x", Noted("0,1")),
    ("cpus_allowed", "0:1", Noted("0")),
    ("cpus_allowed", "x", Noted("0")),
    ("cpus_allowed", "1-x", Broken("fio reads a reversed range (1-0) and fails the job")),
];

/// Parses the job of one row.
fn job_text(option: &str, value: &str) -> String {
    format!("[j]\nioengine=null\nsize=1m\n{option}={value}\n")
}

/// iomark's reading of a row: the canonical value and whether it was noted.
fn iomark(option: &str, value: &str) -> Result<(String, bool), ParseError> {
    let path = std::env::temp_dir().join(format!("iomark-leniency-{}.fio", std::process::id()));
    std::fs::write(&path, job_text(option, value)).unwrap();
    let cmd = cmdline::parse([path.as_os_str()]).unwrap();
    let jobs = parse_jobs(&cmd, &MachineLoader::new());
    std::fs::remove_file(&path).unwrap();
    let jobs = jobs?;
    let line = jobs[0].settings.iter().rev().find(|s| s.def.name == option).expect("the row");
    Ok((canonical(&line.value), line.lenient.is_some()))
}

#[test]
fn iomark_reads_every_row_as_the_table_says() {
    let mut wrong = Vec::new();
    for &(option, value, expect) in TABLE {
        let got = iomark(option, value);
        let ok = match (expect, &got) {
            (Plain(want) | Own(want, _), Ok((v, false))) => v == want,
            (Noted(want), Ok((v, true))) => v == want,
            (Refused | Broken(_), Err(_)) => true,
            _ => false,
        };
        if !ok {
            wrong.push(format!("{option}={value:?}: want {expect:?}, got {got:?}"));
        }
    }
    assert!(wrong.is_empty(), "{} rows:\n{}", wrong.len(), wrong.join("\n"));
}

#[test]
fn fio_reads_every_row_as_the_table_says() {
    if !fio_available() {
        return;
    }
    let loader = MachineLoader::new();
    let dir = std::env::temp_dir().join(format!("iomark-leniency-fio-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut wrong = Vec::new();
    let mut compared = 0;
    for (i, &(option, value, expect)) in TABLE.iter().enumerate() {
        let path = dir.join(format!("{i}.fio"));
        std::fs::write(&path, job_text(option, value)).unwrap();
        let run = run_fio(&path);
        let fio_runs = match expect {
            Plain(_) | Noted(_) | Broken(_) => true,
            Own(_, accepts) => accepts,
            Refused => false,
        };
        if run.accepted() != fio_runs {
            let why = if let Broken(why) = expect { why } else { "" };
            wrong.push(format!("{option}={value:?}: fio accepts: {} {why}", run.accepted()));
            continue;
        }
        if let (Plain(_) | Noted(_), Ok(ours)) = (expect, iomark_sections(&path, &loader)) {
            for diff in differences(&run, &ours, &mut compared) {
                wrong.push(format!("{option}={value:?}: {diff}"));
            }
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
    println!("{compared} values compared with fio's");
    assert!(wrong.is_empty(), "{} rows:\n{}", wrong.len(), wrong.join("\n"));
    assert!(compared >= 100, "only {compared} values compared");
}
