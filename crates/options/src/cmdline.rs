//! fio's command-line grammar.
//!
//! Arguments are of three sorts: program options that only exist on the command line
//! (`--output`, `--parse-only`, …), job options from the table (`--bs=4k`), and job files.
//! Job options before the first `--name` are global; `--name=X` opens a job that takes the
//! job options after it. A job option's value follows `=` or comes as the next argument;
//! a flag (`--stonewall`) takes a value only after `=`. Job files may stand anywhere.

use crate::assemble::Sources;
use crate::error::{ErrorKind, ParseError, Place};
use crate::jobfile::{self, Loader, RawLine, RawSection};
use crate::table::{self, Kind};
use crate::value::{self, Ctx, TimeUnit, Value};
use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

/// The report formats asked for with `--output-format` (comma-separated) or `--minimal`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutputFormats {
    /// fio's human-readable report.
    pub normal: bool,
    /// The `;`-separated terse lines.
    pub terse: bool,
    /// The JSON document.
    pub json: bool,
    /// The JSON document with latency histogram bins.
    pub json_plus: bool,
}

impl Default for OutputFormats {
    fn default() -> Self {
        OutputFormats { normal: true, terse: false, json: false, json_plus: false }
    }
}

impl OutputFormats {
    /// Parses fio's comma-separated list; each format counts once.
    pub fn parse(list: &str) -> Result<Self, String> {
        let mut f = OutputFormats { normal: false, terse: false, json: false, json_plus: false };
        for name in list.split(',') {
            match name.trim() {
                "normal" => f.normal = true,
                "terse" => f.terse = true,
                "json" => f.json = true,
                "json+" => f.json_plus = true,
                other => {
                    return Err(format!(
                        "invalid output format '{other}' (valid: normal, terse, json, json+)"
                    ))
                }
            }
        }
        Ok(f)
    }
}

/// When to print the ETA line (`--eta`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Eta {
    /// Only when standard output is a terminal.
    #[default]
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// fio's `--debug` categories; iomark prints output for `parse`.
pub const DEBUG_CATEGORIES: &[&str] = &[
    "process",
    "file",
    "io",
    "mem",
    "blktrace",
    "verify",
    "random",
    "parse",
    "diskutil",
    "job",
    "mutex",
    "profile",
    "time",
    "net",
    "rate",
    "compress",
    "steadystate",
    "helperthread",
    "zbd",
    "all",
];

/// fio's command-line-only options that iomark refuses for now.
pub const NOT_YET: &[&str] = &[
    "merge-blktrace-only",
    "cpuclock-test",
    "crctest",
    "alloc-size",
    "warnings-fatal",
    "server",
    "daemonize",
    "client",
    "remote-config",
    "idle-prof",
    "inflate-log",
    "trigger-file",
    "trigger-timeout",
    "trigger",
    "trigger-remote",
    "aux-path",
];

/// The program options: what to do, and how to report.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ProgramOptions {
    /// `--output=FILE`: write the report there instead of standard output.
    pub output: Option<PathBuf>,
    /// `--output-format`, or terse for `--minimal`.
    pub formats: OutputFormats,
    /// `--terse-version` (2, 3, 4 or 5; fio's default 3).
    pub terse_version: Option<u32>,
    /// `--parse-only`: check the jobs, run nothing.
    pub parse_only: bool,
    /// `--showcmd`: print each job as a command line.
    pub showcmd: bool,
    /// `--cmdhelp[=NAME|all]`; `Some("")` when no name was given.
    pub cmdhelp: Option<String>,
    /// `--enghelp[=ENGINE[,OPTION]]`; `Some("")` when no engine was given.
    pub enghelp: Option<String>,
    /// `--version`.
    pub version: bool,
    /// `--help` or `-h`.
    pub help: bool,
    /// `--section=NAME`, repeatable.
    pub sections: Vec<String>,
    /// `--readonly`: refuse any job that writes.
    pub readonly: bool,
    /// `--max-jobs=N`: the most jobs (clones included) that may run.
    pub max_jobs: Option<u64>,
    /// `--eta`.
    pub eta: Eta,
    /// `--eta-newline=TIME`.
    pub eta_newline: Option<Duration>,
    /// `--eta-interval=TIME`.
    pub eta_interval: Option<Duration>,
    /// `--status-interval=TIME`.
    pub status_interval: Option<Duration>,
    /// `--debug=LIST`, the categories named.
    pub debug: Vec<String>,
    /// `--bandwidth-log`: fio's aggregate bandwidth logs (`agg-read_bw.log`, …).
    pub bandwidth_log: bool,
}

/// A parsed command line: program options, and where the jobs come from.
#[derive(Debug, Default)]
pub struct CommandLine {
    /// The program options.
    pub program: ProgramOptions,
    /// Job options before the first `--name`.
    pub globals: Vec<RawLine>,
    /// The `--name` jobs.
    pub jobs: Vec<RawSection>,
    /// The job files, in order (`-` is standard input).
    pub files: Vec<PathBuf>,
}

impl CommandLine {
    /// Reads the job files and gathers everything the jobs are built from.
    pub fn sources(&self, loader: &dyn Loader) -> Result<Sources, ParseError> {
        let mut files = Vec::new();
        for path in &self.files {
            files.push(jobfile::read(path, loader)?);
        }
        Ok(Sources {
            cli_globals: self.globals.clone(),
            cli_jobs: self.jobs.clone(),
            files,
            only_sections: self.program.sections.clone(),
        })
    }
}

/// Parses the arguments after the program name.
pub fn parse<I>(args: I) -> Result<CommandLine, ParseError>
where
    I: IntoIterator,
    I::Item: Into<OsString>,
{
    let mut parser = lexopt::Parser::from_args(args);
    let mut cmd = CommandLine::default();
    let mut arg = 0usize;
    loop {
        let next = parser.next().map_err(|e| usage(arg + 1, e.to_string()))?;
        let Some(next) = next else { break };
        arg += 1;
        let at = arg;
        match next {
            lexopt::Arg::Value(v) => cmd.files.push(PathBuf::from(v)),
            lexopt::Arg::Short('h') => cmd.program.help = true,
            lexopt::Arg::Short(c) => {
                return Err(usage(at, format!("unknown option '-{c}' (see --help)")));
            }
            lexopt::Arg::Long(name) => {
                let name = name.to_string();
                let inline = parser.optional_value().map(|v| text(at, v)).transpose()?;
                let given = inline.clone();
                let mut take = || -> Result<String, ParseError> {
                    if let Some(v) = &given {
                        return Ok(v.clone());
                    }
                    arg += 1;
                    let v =
                        parser.value().map_err(|_| usage(at, format!("--{name} needs a value")))?;
                    text(at, v)
                };
                if program_option(&mut cmd.program, &name, inline.clone(), &mut take, at)? {
                    continue;
                }
                job_option(&mut cmd, &name, inline, &mut take, at)?;
            }
        }
    }
    if cmd.program.formats.terse && cmd.program.terse_version.is_none() {
        cmd.program.terse_version = Some(3);
    }
    Ok(cmd)
}

/// Handles a command-line-only option; `false` when `name` is not one.
fn program_option(
    p: &mut ProgramOptions,
    name: &str,
    inline: Option<String>,
    take: &mut dyn FnMut() -> Result<String, ParseError>,
    at: usize,
) -> Result<bool, ParseError> {
    let no_value = |v: &Option<String>| match v {
        Some(_) => Err(usage(at, format!("--{name} takes no value"))),
        None => Ok(()),
    };
    match name {
        "output" => p.output = Some(PathBuf::from(take()?)),
        "output-format" => p.formats = OutputFormats::parse(&take()?).map_err(|m| usage(at, m))?,
        "minimal" => {
            no_value(&inline)?;
            p.formats = OutputFormats { normal: false, terse: true, json: false, json_plus: false };
        }
        // Deprecated in fio 3.33 but honoured: adds terse to the formats chosen so far; a
        // value (`--append-terse=1`) is ignored, as fio ignores it.
        "append-terse" => p.formats.terse = true,
        "terse-version" => {
            let v = take()?;
            match v.trim().parse::<u32>() {
                Ok(n @ 2..=5) => p.terse_version = Some(n),
                _ => {
                    return Err(usage(
                        at,
                        format!("invalid terse version '{v}' (valid: 2, 3, 4, 5)"),
                    ))
                }
            }
        }
        "parse-only" => no_value(&inline).map(|()| p.parse_only = true)?,
        "showcmd" => no_value(&inline).map(|()| p.showcmd = true)?,
        "cmdhelp" => p.cmdhelp = Some(inline.unwrap_or_default()),
        "enghelp" => p.enghelp = Some(inline.unwrap_or_default()),
        "version" => no_value(&inline).map(|()| p.version = true)?,
        "help" => no_value(&inline).map(|()| p.help = true)?,
        "section" => p.sections.push(take()?),
        "readonly" => no_value(&inline).map(|()| p.readonly = true)?,
        "bandwidth-log" => no_value(&inline).map(|()| p.bandwidth_log = true)?,
        "max-jobs" => {
            let v = take()?;
            let n = v.trim().parse::<u64>().ok().filter(|&n| n > 0);
            p.max_jobs = Some(n.ok_or_else(|| usage(at, format!("invalid --max-jobs '{v}'")))?);
        }
        "eta" => {
            p.eta = match take()?.as_str() {
                "auto" => Eta::Auto,
                "always" => Eta::Always,
                "never" => Eta::Never,
                v => {
                    return Err(usage(
                        at,
                        format!("invalid --eta '{v}' (valid: always, never, auto)"),
                    ))
                }
            }
        }
        "eta-newline" => p.eta_newline = Some(time(at, name, &take()?, TimeUnit::Seconds)?),
        "eta-interval" => p.eta_interval = Some(time(at, name, &take()?, TimeUnit::Millis)?),
        "status-interval" => {
            p.status_interval = Some(time(at, name, &take()?, TimeUnit::Seconds)?);
        }
        "debug" => {
            for category in take()?.split(',') {
                if !DEBUG_CATEGORIES.contains(&category) {
                    let valid = DEBUG_CATEGORIES.join(",");
                    return Err(usage(
                        at,
                        format!("invalid --debug '{category}' (valid: {valid})"),
                    ));
                }
                p.debug.push(category.to_string());
            }
        }
        n if NOT_YET.contains(&n) => {
            return Err(usage(at, format!("--{n} is not supported yet")));
        }
        _ => return Ok(false),
    }
    Ok(true)
}

/// Handles a job option: `--name` opens a job, anything else goes to the current one.
fn job_option(
    cmd: &mut CommandLine,
    name: &str,
    inline: Option<String>,
    take: &mut dyn FnMut() -> Result<String, ParseError>,
    at: usize,
) -> Result<(), ParseError> {
    let place = Place::CommandLine { arg: at };
    let Some(def) = table::find(name) else {
        let suggestion = crate::suggest::option(name).or_else(|| program_suggestion(name));
        let e = ParseError::new(place, ErrorKind::UnknownOption { suggestion }).for_option(name);
        return Err(match cmd.jobs.last() {
            Some(job) => e.in_job(job.name.clone()),
            None => e,
        });
    };
    let value = match def.kind {
        Kind::Flag => inline,
        _ => Some(take()?),
    };
    if def.name == "name" {
        let name = value.unwrap_or_default();
        cmd.jobs.push(RawSection {
            name: name.clone(),
            place: place.clone(),
            global: false,
            lines: vec![RawLine { key: "name".into(), value: Some(name), place }],
        });
        return Ok(());
    }
    let line = RawLine { key: name.to_string(), value, place };
    match cmd.jobs.last_mut() {
        Some(job) => job.lines.push(line),
        None => cmd.globals.push(line),
    }
    Ok(())
}

/// A near-miss among the command-line-only options.
fn program_suggestion(name: &str) -> Option<&'static str> {
    const PROGRAM: &[&str] = &[
        "output",
        "output-format",
        "minimal",
        "append-terse",
        "terse-version",
        "parse-only",
        "showcmd",
        "cmdhelp",
        "enghelp",
        "version",
        "help",
        "section",
        "readonly",
        "max-jobs",
        "eta",
        "eta-newline",
        "eta-interval",
        "status-interval",
        "debug",
    ];
    PROGRAM.iter().copied().find(|p| strsim::damerau_levenshtein(name, p) <= 2)
}

fn time(at: usize, name: &str, raw: &str, unit: TimeUnit) -> Result<Duration, ParseError> {
    match value::parse(&Kind::Time { unit }, raw, &Ctx::default()) {
        Ok(Value::Time(d)) => Ok(d),
        Ok(_) => Err(usage(at, format!("--{name}: invalid time '{raw}'"))),
        Err(e) => Err(usage(at, format!("--{name}: {e}"))),
    }
}

fn text(at: usize, v: OsString) -> Result<String, ParseError> {
    v.into_string().map_err(|v| {
        ParseError::new(
            Place::CommandLine { arg: at },
            ErrorKind::NotText { why: format!("argument {v:?} is not valid UTF-8") },
        )
    })
}

fn usage(arg: usize, message: String) -> ParseError {
    ParseError::new(Place::CommandLine { arg }, ErrorKind::Usage(message))
}
