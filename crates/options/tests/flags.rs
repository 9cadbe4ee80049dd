//! The program-flag table as a whole: every flag has one entry, no flag hides a job option,
//! the command-line parser agrees with the table both ways, and the did-you-mean suggestions
//! come from it. What the table prints (`--help`, the man page, the completions) is tested in
//! `iomark-manual`.

use iomark_options::cmdline::{self, ProgramOptions};
use iomark_options::flags::{self, Arg, FlagId, Status, Values};
use iomark_options::table;

/// Every flag identity. The match below stops compiling when one is added, so that it is
/// added here too, and the test below then asks for its table entry.
const IDS: &[FlagId] = &[
    FlagId::Output,
    FlagId::OutputFormat,
    FlagId::Minimal,
    FlagId::AppendTerse,
    FlagId::TerseVersion,
    FlagId::ParseOnly,
    FlagId::WarningsFatal,
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
    FlagId::BlockLatency,
    FlagId::InflateLog,
    FlagId::Debug,
    FlagId::Completions,
    FlagId::Man,
    FlagId::Version,
    FlagId::Help,
    FlagId::Html,
    FlagId::Web,
    FlagId::Crctest,
    FlagId::CpuclockTest,
    FlagId::JobProcesses,
    FlagId::IdleProf,
    FlagId::AllocSize,
    FlagId::TriggerFile,
    FlagId::TriggerTimeout,
    FlagId::Trigger,
    FlagId::TriggerRemote,
    FlagId::AuxPath,
    FlagId::Server,
    FlagId::Daemonize,
    FlagId::Client,
    FlagId::RemoteConfig,
    FlagId::MergeBlktraceOnly,
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
        | FlagId::MergeBlktraceOnly
        | FlagId::WarningsFatal
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
        | FlagId::BlockLatency
        | FlagId::InflateLog
        | FlagId::Debug
        | FlagId::Completions
        | FlagId::Man
        | FlagId::Version
        | FlagId::Help
        | FlagId::Html
        | FlagId::Web
        | FlagId::Crctest
        | FlagId::CpuclockTest
        | FlagId::JobProcesses
        | FlagId::IdleProf
        | FlagId::AllocSize
        | FlagId::TriggerFile
        | FlagId::TriggerTimeout
        | FlagId::Trigger
        | FlagId::TriggerRemote
        | FlagId::AuxPath
        | FlagId::Server
        | FlagId::Daemonize
        | FlagId::Client
        | FlagId::RemoteConfig
        | FlagId::NotYet => {}
    }
}

#[test]
fn every_id_has_one_entry_and_names_are_unique() {
    for id in IDS {
        let n = flags::all().iter().filter(|f| f.id == *id).count();
        match id {
            // Every fio flag is supported today; the status stays for the next one.
            FlagId::NotYet => {}
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
        "max-jobs" | "alloc-size" => "4".into(),
        "eta-newline" | "eta-interval" | "status-interval" | "trigger-timeout" => "2s".into(),
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
fn suggestions_come_from_the_table() {
    assert_eq!(flags::suggest("bandwith-log"), Some("bandwidth-log"));
    assert_eq!(flags::suggest("parse-onyl"), Some("parse-only"));
    assert_eq!(flags::suggest("completion"), Some("completions"));
    for f in flags::supported().filter(|f| f.long.len() > 3) {
        let typo = &f.long[..f.long.len() - 1];
        assert_eq!(flags::suggest(typo), Some(f.long), "{typo}");
    }
    let e = parse(&["--bandwith-log"]).unwrap_err();
    assert!(e.contains("did you mean 'bandwidth-log'?"), "{e}");
}
