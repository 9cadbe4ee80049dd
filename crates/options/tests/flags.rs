//! The program-flag table as a whole, and what is printed from it: the command-line parser
//! agrees with the table both ways, `--help` and the suggestions list its flags, and the
//! checked-in man page `docs/iomark.1` is the one the tables print today (rewrite it with
//! `IOMARK_BLESS=1 cargo test -p iomark-options --test flags man_page_is_fresh`).

use iomark_options::cmdline::{self, ProgramOptions};
use iomark_options::flags::{self, help, man, Arg, FlagId, Status, Values, GENZIPF};
use iomark_options::table;
use std::process::Command;

mod common;

/// Every flag identity. The match below stops compiling when one is added, so that it is
/// added here too, and the test below then asks for its table entry.
const IDS: &[FlagId] = &[
    FlagId::Output,
    FlagId::OutputFormat,
    FlagId::Minimal,
    FlagId::AppendTerse,
    FlagId::TerseVersion,
    FlagId::ParseOnly,
    FlagId::Showcmd,
    FlagId::Cmdhelp,
    FlagId::Enghelp,
    FlagId::Section,
    FlagId::Readonly,
    FlagId::MaxJobs,
    FlagId::Eta,
    FlagId::EtaNewline,
    FlagId::EtaInterval,
    FlagId::StatusInterval,
    FlagId::BandwidthLog,
    FlagId::Debug,
    FlagId::Completions,
    FlagId::Man,
    FlagId::Version,
    FlagId::Help,
    FlagId::NotYet,
];

#[allow(dead_code)]
fn every_id_is_listed(id: FlagId) {
    match id {
        FlagId::Output
        | FlagId::OutputFormat
        | FlagId::Minimal
        | FlagId::AppendTerse
        | FlagId::TerseVersion
        | FlagId::ParseOnly
        | FlagId::Showcmd
        | FlagId::Cmdhelp
        | FlagId::Enghelp
        | FlagId::Section
        | FlagId::Readonly
        | FlagId::MaxJobs
        | FlagId::Eta
        | FlagId::EtaNewline
        | FlagId::EtaInterval
        | FlagId::StatusInterval
        | FlagId::BandwidthLog
        | FlagId::Debug
        | FlagId::Completions
        | FlagId::Man
        | FlagId::Version
        | FlagId::Help
        | FlagId::NotYet => {}
    }
}

#[test]
fn every_id_has_one_entry_and_names_are_unique() {
    for id in IDS {
        let n = flags::all().iter().filter(|f| f.id == *id).count();
        match id {
            FlagId::NotYet => assert!(n > 0),
            _ => assert_eq!(n, 1, "{id:?} has {n} entries"),
        }
    }
    for (i, f) in flags::all().iter().enumerate() {
        assert_eq!(f.status == Status::NotYet, f.id == FlagId::NotYet, "{}", f.long);
        assert!(flags::all()[..i].iter().all(|g| g.long != f.long), "--{} twice", f.long);
        if let Some(c) = f.short {
            assert!(flags::all()[..i].iter().all(|g| g.short != Some(c)), "-{c} twice");
        }
        assert!(!f.help.is_empty() && !f.help.ends_with('.'), "--{}: help line", f.long);
        assert!(!f.long_help.starts_with(f.help), "--{}: long help repeats the line", f.long);
    }
}

/// A job option of the same name would be out of reach on the command line.
#[test]
fn no_flag_hides_a_job_option() {
    for f in flags::all() {
        assert!(table::find(f.long).is_none(), "--{} is also a job option", f.long);
    }
}

/// A value that the parser takes for `flag`, other than its default.
fn sample(flag: &flags::Flag) -> String {
    if let Some(last) = flag.choices().last() {
        return last.to_string();
    }
    match flag.long {
        "max-jobs" => "4".into(),
        "eta-newline" | "eta-interval" | "status-interval" => "2s".into(),
        _ => "x".into(),
    }
}

fn parse(args: &[&str]) -> Result<cmdline::CommandLine, String> {
    cmdline::parse(args.iter().copied()).map_err(|e| e.to_string())
}

/// Table to parser: every flag is recognized, acts (the program options change, no job
/// option is made), and refuses what its [`Arg`] refuses. Parser to table: the parser
/// recognizes a flag only by looking it up (`flags::find`) and acts on every [`FlagId`]
/// (an exhaustive match), so a name missing from the table is no flag.
#[test]
fn the_parser_agrees_with_the_table() {
    for f in flags::all() {
        let bare = format!("--{}", f.long);
        if f.status == Status::NotYet {
            let e = parse(&[&bare]).unwrap_err();
            assert!(e.contains("not supported yet"), "{bare}: {e}");
            continue;
        }
        let value = sample(f);
        let given = match f.arg {
            Arg::None | Arg::Ignored => bare.clone(),
            Arg::Optional(_) | Arg::Required(_) => format!("{bare}={value}"),
        };
        let cmd = parse(&[&given]).unwrap_or_else(|e| panic!("{given}: {e}"));
        assert_ne!(cmd.program, ProgramOptions::default(), "{given} changed nothing");
        assert!(cmd.globals.is_empty() && cmd.jobs.is_empty(), "{given} made a job option");
        match f.arg {
            Arg::None => assert!(parse(&[&format!("{bare}=1")]).is_err(), "{bare}=1"),
            Arg::Ignored => assert!(parse(&[&format!("{bare}=1")]).is_ok(), "{bare}=1"),
            Arg::Optional(_) => assert!(parse(&[&bare]).is_ok(), "{bare}"),
            Arg::Required(_) => {
                let apart = parse(&[&bare, &value]).unwrap_or_else(|e| panic!("{bare}: {e}"));
                assert_eq!(apart.program, cmd.program, "{bare} {value}");
                assert!(apart.files.is_empty(), "{bare} {value}: the value became a file");
                assert!(parse(&[&bare]).is_err(), "{bare} without a value");
            }
        }
        if let Some(c) = f.short {
            let short = parse(&[&format!("-{c}")]).unwrap_or_else(|e| panic!("-{c}: {e}"));
            assert_eq!(short.program, cmd.program, "-{c}");
        }
    }
    assert!(parse(&["--no-such-flag"]).unwrap_err().contains("unknown option"));
    assert!(parse(&["-q"]).unwrap_err().contains("unknown option"));
}

/// Every fixed value of a flag is accepted, and a wrong one is refused with a message that
/// names them all.
#[test]
fn fixed_values_are_the_parsers() {
    for f in flags::supported().filter(|f| !f.choices().is_empty()) {
        for choice in f.choices() {
            let arg = format!("--{}={choice}", f.long);
            assert!(parse(&[&arg]).is_ok(), "{arg} refused");
        }
        if let Values::List(words) = f.values {
            let arg = format!("--{}={}", f.long, words.join(","));
            assert!(parse(&[&arg]).is_ok(), "{arg} refused");
        }
        let e = parse(&[&format!("--{}=bogus", f.long)]).unwrap_err();
        for choice in f.choices() {
            assert!(e.contains(choice), "--{}=bogus: '{e}' does not name {choice}", f.long);
        }
    }
}

#[test]
fn help_lists_every_flag_iomark_acts_on_in_table_order() {
    let text = help::text();
    let mut at = 0;
    for f in flags::all() {
        let line = format!("  {}", f.usage());
        match (f.status, text[at..].find(&line)) {
            (Status::Yes, Some(i)) => at += i + line.len(),
            (Status::Yes, None) => panic!("--help lacks {line:?} (or has it out of order)"),
            (Status::NotYet, found) => assert!(found.is_none(), "--help lists --{}", f.long),
        }
    }
    assert!(text.contains(&format!("`iomark {} -h`", GENZIPF.name)));
    assert!(text.lines().all(|l| l.len() <= 92), "a line of --help is too long");
}

#[test]
fn suggestions_come_from_the_table() {
    assert_eq!(flags::suggest("bandwith-log"), Some("bandwidth-log"));
    assert_eq!(flags::suggest("parse-onyl"), Some("parse-only"));
    assert_eq!(flags::suggest("completion"), Some("completions"));
    for f in flags::supported().filter(|f| f.long.len() > 3) {
        let typo = &f.long[..f.long.len() - 1];
        assert_eq!(flags::suggest(typo), Some(f.long), "{typo}");
    }
    assert_eq!(flags::suggest("merge-blktrace-onl"), None, "refused flags are no hint");
    let e = parse(&["--bandwith-log"]).unwrap_err();
    assert!(e.contains("did you mean 'bandwidth-log'?"), "{e}");
}

#[test]
fn genzipf_help_lists_its_flags() {
    let text = help::subcommand(&GENZIPF);
    for f in GENZIPF.flags {
        assert!(text.contains(&format!("\t-{}\t", f.short)), "-{} missing", f.short);
    }
    assert!(text.starts_with(GENZIPF.title));
}

#[test]
fn man_page_is_fresh() {
    common::assert_fresh(
        "docs/iomark.1",
        &man::page(),
        "IOMARK_BLESS=1 cargo test -p iomark-options --test flags man_page_is_fresh` (or \
         `iomark --man > docs/iomark.1",
    );
}

#[test]
fn man_page_names_every_flag_and_job_option() {
    let page = man::page();
    let roff = |s: &str| s.replace('-', "\\-");
    for f in flags::all() {
        assert!(page.contains(&format!("\\fB\\-\\-{}\\fR", roff(f.long))), "--{}", f.long);
    }
    for def in table::all() {
        assert!(page.contains(&format!(".TP\n\\fB{}\\fR", roff(def.name))), "{}", def.name);
    }
    for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "JOB OPTIONS", "EXIT STATUS"] {
        assert!(page.contains(&format!(".SH {section}\n")), "no {section}");
    }
    assert!(page.contains(".BR fio (1)"));
}

/// groff reads the page without a warning (`-ww` turns every warning on).
#[test]
fn man_page_renders_without_warnings() {
    let dir = std::env::temp_dir().join(format!("iomark-man-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("iomark.1");
    std::fs::write(&file, man::page()).unwrap();
    let out = Command::new("groff").args(["-man", "-Tutf8", "-ww"]).arg(&file).output();
    let _ = std::fs::remove_dir_all(&dir);
    let Ok(out) = out else {
        println!("skipped: groff is not installed (apt-get install groff-base)");
        return;
    };
    assert!(out.status.success(), "groff failed");
    let warnings = String::from_utf8_lossy(&out.stderr);
    assert!(warnings.is_empty(), "groff warns:\n{warnings}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("User Commands"), "{text}");
}
