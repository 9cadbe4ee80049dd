//! Whatever the input, parsing answers `Ok` or `Err`, and never panics.
//!
//! Four kinds of input, a few hundred cases each so that the suite stays fast:
//! random bytes as a job file; near-valid job files built from a small grammar (section
//! headers, option names from the table, values from a pool of tricky strings, includes,
//! comments); random argument vectors for the command line; and random strings for every
//! kind of value and for keyword substitution.

use iomark_options::jobfile::{self, Loader};
use iomark_options::table::{self, Kind};
use iomark_options::value::subst::{self, Keywords};
use iomark_options::value::{self, Ctx, TimeUnit};
use iomark_options::{cmdline, parse_jobs};
use proptest::prelude::*;
use std::path::Path;

// ---------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------

/// Values that have broken parsers before, or might: huge numbers, unbalanced expressions,
/// keywords, separators, unicode and control characters.
const TRICKY: &[&str] = &[
    "",
    " ",
    "0",
    "1",
    "-1",
    "-0",
    "4k",
    "4kx",
    "1.5m",
    "1e308",
    "nan",
    "inf",
    "18446744073709551615",
    "18446744073709551616",
    "9223372036854775807",
    "-9223372036854775808",
    "99999999999999999999999999999999k",
    "16777216p",
    "0x",
    "0xffffffffffffffffffff",
    "0xZZ",
    "(",
    "(((",
    ")))",
    "(1+",
    "()",
    "($pagesize/0)",
    "($pagesize%0)",
    "($ncpus-$ncpus-1)",
    "$ncpus*",
    "$ncpus*$ncpus*$ncpus*$ncpus*$ncpus*$ncpus*$ncpus*$ncpus",
    "$mb_memory$mb_memory$mb_memory",
    "$",
    "${",
    "${X",
    "${}",
    "${IOMARK_FUZZ}",
    "${IOMARK_FUZZ_LOOP}",
    "%",
    "0%",
    "100%",
    "101%",
    "-5%",
    "1e9%",
    ",",
    ",,,",
    ",8k,",
    ":",
    ":::",
    "\\:",
    "a\\:b:c",
    "/",
    "4k/",
    "4k/50:",
    "4k/50:8k/60",
    "/50",
    "4k//",
    "-",
    "1k-",
    "-4k",
    "1k-4k-8k",
    "4k-1k",
    "1k:4k,2k-",
    "1h2m",
    "10ms",
    "10parsecs",
    "1-",
    "s",
    "read:",
    "randread:8",
    "randread:-1",
    "=",
    "==",
    "[",
    "]",
    "é",
    "日本語",
    "\u{0}",
    "\u{1}",
    "\u{7f}",
    "\u{feff}",
    "\u{10ffff}",
];

/// Keywords that make arithmetic overflow easy.
const KEYWORDS: Keywords = Keywords { ncpus: u64::MAX / 2, pagesize: 4096, mb_memory: u64::MAX };

/// One job file of given bytes at `job.fio`, which may include itself; an environment with
/// a variable that expands to another reference.
struct FuzzLoader {
    job: Vec<u8>,
}

impl Loader for FuzzLoader {
    fn load(&self, path: &Path) -> std::io::Result<Vec<u8>> {
        match path.file_name().and_then(|n| n.to_str()) {
            Some("job.fio") => Ok(self.job.clone()),
            Some("other.fio") => Ok(b"[other]\nbs=4k\n".to_vec()),
            _ => Err(std::io::ErrorKind::NotFound.into()),
        }
    }

    fn env(&self, name: &str) -> Option<String> {
        match name {
            "IOMARK_FUZZ" => Some("4k".into()),
            "IOMARK_FUZZ_LOOP" => Some("${IOMARK_FUZZ_LOOP}".into()),
            _ => None,
        }
    }

    fn keywords(&self) -> Keywords {
        KEYWORDS
    }
}

/// Parses `bytes` as the job file `job.fio`, to jobs; the result is ignored.
fn parse_job_file(bytes: Vec<u8>) {
    let loader = FuzzLoader { job: bytes };
    let _ = jobfile::read(Path::new("job.fio"), &loader);
    if let Ok(cmd) = cmdline::parse(["job.fio"]) {
        let _ = parse_jobs(&cmd, &loader);
    }
}

/// Every option name and alias of the table.
fn option_names() -> Vec<&'static str> {
    table::all()
        .iter()
        .flat_map(|d| std::iter::once(d.name).chain(d.aliases.iter().copied()))
        .collect()
}

/// A value: mostly from the tricky pool, sometimes two glued together, sometimes random.
fn value_text() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::sample::select(TRICKY).prop_map(str::to_string),
        2 => (prop::sample::select(TRICKY), prop::sample::select(TRICKY))
            .prop_map(|(a, b)| format!("{a}{b}")),
        1 => "\\PC{0,12}",
        1 => "[0-9kKmMgGiIbB.,:/%x() -]{0,16}",
    ]
}

/// An option name: mostly from the table, sometimes mangled.
fn option_name() -> impl Strategy<Value = String> {
    let names = option_names();
    prop_oneof![
        6 => prop::sample::select(names).prop_map(str::to_string),
        1 => "[a-z_]{0,12}",
        1 => prop::sample::select(TRICKY).prop_map(str::to_string),
    ]
}

/// One line of a near-valid job file.
fn job_line() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => (option_name(), value_text()).prop_map(|(k, v)| format!("{k}={v}")),
        2 => option_name(),
        1 => prop::sample::select(vec![
            "[global]", "[job]", "[globalx]", "[a", "[]", "[a]b", "[ j b ]", "[[x]]",
        ])
        .prop_map(str::to_string),
        1 => prop::sample::select(vec![
            "include job.fio", "include other.fio", "include nope.inc", "include", "include  ",
        ])
        .prop_map(str::to_string),
        1 => (option_name(), value_text()).prop_map(|(k, v)| format!("{k}={v} ; {v} # x")),
        1 => value_text(),
    ]
}

/// A near-valid job file: usually opening with a section.
fn job_file() -> impl Strategy<Value = String> {
    (any::<bool>(), prop::collection::vec(job_line(), 0..24)).prop_map(|(header, lines)| {
        let mut text = if header { "[job]\n".to_string() } else { String::new() };
        for line in lines {
            text.push_str(&line);
            text.push('\n');
        }
        text
    })
}

/// One command-line argument.
fn argument() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => (option_name(), value_text()).prop_map(|(k, v)| format!("--{k}={v}")),
        2 => option_name().prop_map(|k| format!("--{k}")),
        2 => value_text(),
        1 => prop::sample::select(vec![
            "--name=x", "--name", "--name=", "job.fio", "other.fio", "-", "--", "-h", "-x",
            "--section=job", "--section=nope", "--max-jobs=0", "--max-jobs=1",
            "--output-format=json,terse", "--output-format=", "--minimal", "--terse-version=9",
            "--debug=parse,io", "--debug=", "--eta=always", "--eta-newline=(((",
            "--status-interval=1h2m", "--cmdhelp", "--parse-only", "--showcmd", "--readonly",
        ])
        .prop_map(str::to_string),
        1 => (prop::sample::select(vec!["output", "section", "max-jobs", "eta-interval",
            "terse-version", "debug"]), value_text())
            .prop_map(|(k, v)| format!("--{k}={v}")),
    ]
}

/// Every kind of value the table uses, and every kind in its plainest form.
fn kinds() -> Vec<Kind> {
    let mut kinds: Vec<Kind> = table::all().iter().map(|d| d.kind).collect();
    kinds.extend([
        Kind::Str,
        Kind::FileList,
        Kind::Bool,
        Kind::Flag,
        Kind::Int { min: i64::MIN, max: i64::MAX },
        Kind::Int { min: 0, max: 0 },
        Kind::Float { min: f64::MIN, max: f64::MAX },
        Kind::Size,
        Kind::SizeOrPercent,
        Kind::Time { unit: TimeUnit::Seconds },
        Kind::Time { unit: TimeUnit::Millis },
        Kind::Time { unit: TimeUnit::Micros },
        Kind::TimeRange { unit: TimeUnit::Seconds },
        Kind::SizePerDir,
        Kind::IntPerDir,
        Kind::RangePerDir,
        Kind::SizeRange,
        Kind::BsSplit,
        Kind::FloatList,
        Kind::Floats,
        Kind::CpuList,
        Kind::Distribution(&[]),
        Kind::ChoiceSet(&[]),
    ]);
    kinds
}

// ---------------------------------------------------------------------------------------
// The properties
// ---------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_as_a_job_file_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        parse_job_file(bytes);
    }

    #[test]
    fn near_valid_job_files_never_panic(text in job_file()) {
        parse_job_file(text.into_bytes());
    }

    #[test]
    fn random_command_lines_never_panic(args in prop::collection::vec(argument(), 0..12)) {
        let loader = FuzzLoader { job: b"[job]\nrw=read\n[global]\nbs=4k\n[job2]\n".to_vec() };
        if let Ok(cmd) = cmdline::parse(args.iter()) {
            let _ = parse_jobs(&cmd, &loader);
        }
    }

    #[test]
    fn keyword_substitution_never_panics(text in value_text()) {
        let env = |name: &str| FuzzLoader { job: vec![] }.env(name);
        let _ = subst::substitute(&text, &KEYWORDS, &env);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn every_kind_of_value_parses_without_panic(text in value_text(), decimal in any::<bool>()) {
        let ctx = Ctx { kb_base: if decimal { 1000 } else { 1024 } };
        for kind in kinds() {
            let _ = value::parse(&kind, &text, &ctx);
        }
    }
}
