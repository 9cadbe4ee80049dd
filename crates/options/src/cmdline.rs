//! fio's command-line grammar.
//!
//! Arguments are of three sorts: program flags that only exist on the command line
//! (`--output`, `--parse-only`, …: the flag table of [`crate::flags`]), job options from the
//! option table (`--bs=4k`), and job files.
//! Job options before the first `--name` are global; `--name=X` opens a job that takes the
//! job options after it. A job option's value follows `=` or comes as the next argument;
//! a flag (`--stonewall`) takes a value only after `=`. Job files may stand anywhere.

use crate::assemble::Sources;
use crate::error::{ErrorKind, ParseError, Place};
use crate::flags::Shell;
use crate::flags::{self, Arg, Flag, FlagId, DEBUG_CATEGORIES};
use crate::jobfile::{self, Loader, RawLine, RawSection};
use crate::profile::{self, GivenOption, Profile, ProfileRun};
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
    /// The self-contained HTML report (iomark's).
    pub html: bool,
    /// One JSON object per line: events while the jobs run, then the report (iomark's).
    pub json_stream: bool,
}

impl Default for OutputFormats {
    fn default() -> Self {
        OutputFormats { normal: true, ..OutputFormats::NONE }
    }
}

impl OutputFormats {
    /// No format at all.
    pub const NONE: OutputFormats = OutputFormats {
        normal: false,
        terse: false,
        json: false,
        json_plus: false,
        html: false,
        json_stream: false,
    };

    /// Parses fio's comma-separated list; each format counts once.
    pub fn parse(list: &str) -> Result<Self, String> {
        let mut f = OutputFormats::NONE;
        for name in list.split(',') {
            match name.trim() {
                "normal" => f.normal = true,
                "terse" => f.terse = true,
                "json" => f.json = true,
                "json+" => f.json_plus = true,
                "html" => f.html = true,
                "json-stream" => f.json_stream = true,
                other => {
                    return Err(format!(
                        "invalid output format '{other}' (valid: normal, terse, json, json+, \
                         html, json-stream)"
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
    /// `--merge-blktrace-only`: write the jobs' merged blktrace traces, run nothing.
    pub merge_blktrace_only: bool,
    /// `--warnings-fatal`: refuse the malformed values that fio reads leniently.
    pub warnings_fatal: bool,
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
    /// `--block-latency`: split every job's latency at the block layer.
    pub block_latency: bool,
    /// `--inflate-log=LOG`: print this compressed log as text and run nothing.
    pub inflate_log: Option<PathBuf>,
    /// `--completions=SHELL`: print the completion script for that shell.
    pub completions: Option<Shell>,
    /// `--man`: print the man page.
    pub man: bool,
    /// `--html=FILE`: write the HTML report there, beside the other formats.
    pub html: Option<PathBuf>,
    /// `--web[=ADDR:PORT]`: serve the live page; `Some("")` for the default address.
    pub web: Option<String>,
    /// `--crctest[=LIST]`: the checksums named (`Some("")`: all), measured; runs no job.
    pub crctest: Option<String>,
    /// `--cpuclock-test`: check the clock on every CPU; runs no job.
    pub cpuclock_test: bool,
    /// `--job-processes`: every job without `thread` runs in a child process, as in fio.
    pub job_processes: bool,
    /// `--idle-prof=OPTION`: the CPUs' idleness, measured and reported.
    pub idle_prof: Option<IdleProf>,
    /// `--alloc-size=KB`: fio's pool size, checked and not needed.
    pub alloc_size: Option<u64>,
    /// `--trigger-file=FILE`: trigger when it exists.
    pub trigger_file: Option<PathBuf>,
    /// `--trigger-timeout=TIME`: trigger that long after the start.
    pub trigger_timeout: Option<Duration>,
    /// `--trigger=COMMAND`: what a trigger runs.
    pub trigger: Option<String>,
    /// `--trigger-remote=COMMAND`: what the servers run on a trigger (with `--client`).
    pub trigger_remote: Option<String>,
    /// `--aux-path=DIR`: where the verify state files go.
    pub aux_path: Option<PathBuf>,
    /// `--server[=ARGS]`: serve fio's clients; `Some("")` for the default address.
    pub server: Option<String>,
    /// `--daemonize=PIDFILE`: serve in the background.
    pub daemonize: Option<PathBuf>,
    /// `--client=HOSTNAME`, each time it is given, in order.
    pub clients: Vec<ClientArg>,
    /// `--remote-config=FILE` given before any `--client` (an error when the jobs run).
    pub remote_without_client: Vec<String>,
    /// The program flags given after the first `--client` that fio 3.33's client sends
    /// every server (`JOBLINE`), as `--name[=value]`: all but the client's own
    /// (`--client`, `--remote-config`, `--trigger*`, `--aux-path`).
    pub remote_args: Vec<String>,
    /// `--profile=NAME`: the profile whose jobs run (fio then prints no version line).
    pub profile: Option<Profile>,
    /// `--profile=act`: what its latency table and verdict need.
    pub act: Option<profile::ActSetup>,
}

/// What `--idle-prof` reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdleProf {
    /// `system`: the system's idleness and the unit of work.
    System,
    /// `percpu`: each CPU's idleness too.
    Percpu,
    /// `calibrate`: the unit of work only, and no job runs.
    Calibrate,
}

/// One `--client` and the job files given after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientArg {
    /// The host (or a file of hosts), as written.
    pub host: String,
    /// The index in [`CommandLine::files`] of the first job file given after it.
    pub first_file: usize,
    /// Job files on the server's side (`--remote-config` after it).
    pub remote: Vec<String>,
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
    /// `--profile=NAME` and the profile's own options, if a profile was named.
    pub profile: Option<ProfileRun>,
}

impl CommandLine {
    /// Reads the job files and gathers everything the jobs are built from.
    pub fn sources(&self, loader: &dyn Loader) -> Result<Sources, ParseError> {
        let mut files = Vec::new();
        if let Some(run) = &self.profile {
            if let Some(job) = self.jobs.first() {
                return Err(usage_at(&job.place, PROFILE_ALONE));
            }
            if !self.files.is_empty() {
                return Err(usage(run.arg, PROFILE_ALONE.into()));
            }
            files.push(run.sections(&loader.keywords())?);
        }
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
    let mut profile_options = Vec::new();
    let mut arg = 0usize;
    loop {
        let next = parser.next().map_err(|e| usage(arg + 1, e.to_string()))?;
        let Some(next) = next else { break };
        arg += 1;
        let at = arg;
        match next {
            lexopt::Arg::Value(v) => cmd.files.push(PathBuf::from(v)),
            lexopt::Arg::Short(c) => {
                let Some(flag) = flags::find_short(c) else {
                    return Err(usage(at, format!("unknown option '-{c}' (see --help)")));
                };
                let mut take = || -> Result<String, ParseError> {
                    arg += 1;
                    let v = parser.value().map_err(|_| usage(at, format!("-{c} needs a value")))?;
                    text(at, v)
                };
                program_flag(&mut cmd.program, flag, None, &mut take, at)?;
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
                match flags::find(&name) {
                    Some(flag) => {
                        let client = !cmd.program.clients.is_empty();
                        let value = program_flag(&mut cmd.program, flag, inline, &mut take, at)?;
                        if client && sent_to_servers(flag.id) {
                            let arg = match flag.arg {
                                Arg::Required(_) | Arg::Optional(_) if !value.is_empty() => {
                                    format!("--{}={value}", flag.long)
                                }
                                _ => format!("--{}", flag.long),
                            };
                            cmd.program.remote_args.push(arg);
                        }
                    }
                    None if name == "profile" => {
                        let value = take()?;
                        let profile = Profile::from_name(value.trim()).ok_or_else(|| {
                            let why = format!("profile '{value}' not found (valid: tiobench, act)");
                            usage(at, why)
                        })?;
                        cmd.profile = Some(ProfileRun { profile, arg: at, options: Vec::new() });
                        cmd.program.profile = Some(profile);
                    }
                    None if table::find(&name).is_none() && profile::is_profile_option(&name) => {
                        let flag = profile::Profile::ALL.iter().any(|(_, p)| {
                            p.options()
                                .iter()
                                .any(|o| o.name == name && o.kind == profile::ProfileKind::Flag)
                        });
                        let value = if flag { inline } else { Some(take()?) };
                        profile_options.push(GivenOption { name: name.clone(), value, arg: at });
                    }
                    None => job_option(&mut cmd, &name, inline, &mut take, at)?,
                }
                if let Some(client) =
                    cmd.program.clients.last_mut().filter(|c| c.first_file == usize::MAX)
                {
                    client.first_file = cmd.files.len();
                }
            }
        }
    }
    if let Some(first) = profile_options.first() {
        let Some(run) = cmd.profile.as_mut() else {
            let place = Place::CommandLine { arg: first.arg };
            let suggestion = crate::suggest::option(&first.name);
            return Err(ParseError::new(place, ErrorKind::UnknownOption { suggestion })
                .for_option(&first.name));
        };
        run.options = profile_options;
    }
    if let Some(run) = &cmd.profile {
        run.check()?;
        cmd.program.act = run.act_setup();
    }
    if cmd.program.formats.terse && cmd.program.terse_version.is_none() {
        cmd.program.terse_version = Some(3);
    }
    Ok(cmd)
}

/// Whether fio 3.33's client sends program flag `id`, given after a `--client`, to the
/// servers (all but the client's own).
fn sent_to_servers(id: FlagId) -> bool {
    use FlagId::*;
    !matches!(
        id,
        Client | RemoteConfig | TriggerFile | TriggerTimeout | Trigger | TriggerRemote | AuxPath
    )
}

/// Acts on a program flag (found in the flag table), given its value after `=`, if any;
/// `take` reads a value that may also come as the next argument. The value it used.
fn program_flag(
    p: &mut ProgramOptions,
    flag: &Flag,
    inline: Option<String>,
    take: &mut dyn FnMut() -> Result<String, ParseError>,
    at: usize,
) -> Result<String, ParseError> {
    let name = flag.long;
    let value = match flag.arg {
        // Refused below, whatever follows.
        _ if flag.id == FlagId::NotYet => String::new(),
        Arg::None if inline.is_some() => return Err(usage(at, format!("--{name} takes no value"))),
        // Deprecated flags that fio honours: a value (`--append-terse=1`) is ignored, as fio
        // ignores it.
        Arg::None | Arg::Ignored => String::new(),
        Arg::Optional(_) => inline.unwrap_or_default(),
        Arg::Required(_) => take()?,
    };
    let used = value.clone();
    match flag.id {
        FlagId::Output => p.output = Some(PathBuf::from(value)),
        FlagId::OutputFormat => {
            p.formats = OutputFormats::parse(&value).map_err(|m| usage(at, m))?
        }
        FlagId::Minimal => {
            p.formats = OutputFormats { terse: true, ..OutputFormats::NONE };
        }
        // Deprecated in fio 3.33 but honoured: adds terse to the formats chosen so far.
        FlagId::AppendTerse => p.formats.terse = true,
        FlagId::TerseVersion => match value.trim().parse::<u32>() {
            Ok(n @ 2..=5) => p.terse_version = Some(n),
            _ => {
                let why = format!("invalid terse version '{value}' (valid: 2, 3, 4, 5)");
                return Err(usage(at, why));
            }
        },
        FlagId::ParseOnly => p.parse_only = true,
        FlagId::MergeBlktraceOnly => p.merge_blktrace_only = true,
        FlagId::WarningsFatal => p.warnings_fatal = true,
        FlagId::Showcmd => p.showcmd = true,
        FlagId::Cmdhelp => p.cmdhelp = Some(value),
        FlagId::Enghelp => p.enghelp = Some(value),
        FlagId::Version => p.version = true,
        FlagId::Help => p.help = true,
        FlagId::Section => p.sections.push(value),
        FlagId::Readonly => p.readonly = true,
        FlagId::BandwidthLog => p.bandwidth_log = true,
        FlagId::BlockLatency => p.block_latency = true,
        FlagId::InflateLog => p.inflate_log = Some(PathBuf::from(value)),
        FlagId::MaxJobs => {
            let n = value.trim().parse::<u64>().ok().filter(|&n| n > 0);
            p.max_jobs = Some(n.ok_or_else(|| usage(at, format!("invalid --max-jobs '{value}'")))?);
        }
        FlagId::Eta => {
            p.eta = match value.as_str() {
                "auto" => Eta::Auto,
                "always" => Eta::Always,
                "never" => Eta::Never,
                v => {
                    let why = format!("invalid --eta '{v}' (valid: always, never, auto)");
                    return Err(usage(at, why));
                }
            }
        }
        FlagId::EtaNewline => p.eta_newline = Some(time(at, name, &value, TimeUnit::Seconds)?),
        FlagId::EtaInterval => p.eta_interval = Some(time(at, name, &value, TimeUnit::Millis)?),
        FlagId::StatusInterval => {
            p.status_interval = Some(time(at, name, &value, TimeUnit::Seconds)?);
        }
        FlagId::Debug => {
            for category in value.split(',') {
                if !DEBUG_CATEGORIES.contains(&category) {
                    let valid = DEBUG_CATEGORIES.join(",");
                    let why = format!("invalid --debug '{category}' (valid: {valid})");
                    return Err(usage(at, why));
                }
                p.debug.push(category.to_string());
            }
        }
        FlagId::Completions => {
            let shell = Shell::from_name(value.trim()).ok_or_else(|| {
                let valid = flag.choices().join(", ");
                usage(at, format!("--completions: unknown shell '{value}' (valid: {valid})"))
            })?;
            p.completions = Some(shell);
        }
        FlagId::Man => p.man = true,
        FlagId::Html => p.html = Some(PathBuf::from(value)),
        FlagId::Web => p.web = Some(value),
        FlagId::Crctest => {
            let names = flags::CRCTEST_NAMES;
            if let Some(bad) = value.split(',').find(|n| !n.is_empty() && !names.contains(n)) {
                let why = format!("invalid --crctest '{bad}' (valid: {})", names.join(","));
                return Err(usage(at, why));
            }
            p.crctest = Some(value)
        }
        FlagId::CpuclockTest => p.cpuclock_test = true,
        FlagId::JobProcesses => p.job_processes = true,
        FlagId::IdleProf => {
            p.idle_prof = Some(match value.as_str() {
                "system" => IdleProf::System,
                "percpu" => IdleProf::Percpu,
                "calibrate" => IdleProf::Calibrate,
                v => {
                    let why =
                        format!("invalid --idle-prof '{v}' (valid: system, percpu, calibrate)");
                    return Err(usage(at, why));
                }
            })
        }
        FlagId::AllocSize => match value.trim().parse::<u64>() {
            Ok(kb) if kb > 0 => p.alloc_size = Some(kb),
            _ => return Err(usage(at, format!("--{name}: '{value}' is not a size in KiB"))),
        },
        FlagId::TriggerFile => p.trigger_file = Some(PathBuf::from(value)),
        FlagId::TriggerTimeout => {
            p.trigger_timeout = Some(time(at, name, &value, TimeUnit::Seconds)?)
        }
        FlagId::Trigger => p.trigger = Some(value),
        FlagId::TriggerRemote => p.trigger_remote = Some(value),
        FlagId::AuxPath => p.aux_path = Some(PathBuf::from(value)),
        FlagId::Server => p.server = Some(value),
        FlagId::Daemonize => p.daemonize = Some(PathBuf::from(value)),
        // Its first file is known to the caller, which has the files so far.
        FlagId::Client => {
            p.clients.push(ClientArg { host: value, first_file: usize::MAX, remote: Vec::new() })
        }
        FlagId::RemoteConfig => match p.clients.last_mut() {
            Some(client) => client.remote.push(value),
            // Refused when the jobs run: it belongs to a --client.
            None => p.remote_without_client.push(value),
        },
        FlagId::NotYet => return Err(usage(at, format!("--{name} is not supported yet"))),
    }
    Ok(used)
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
        let suggestion = crate::suggest::option(name).or_else(|| flags::suggest(name));
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
            header_note: None,
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

/// Why a profile cannot be mixed with other jobs.
const PROFILE_ALONE: &str = "--profile runs the profile's jobs alone: iomark does not mix them \
     with --name jobs or job files (fio 3.33 merges the open --name job into the profile's \
     first job)";

fn usage_at(place: &Place, message: &str) -> ParseError {
    ParseError::new(place.clone(), ErrorKind::Usage(message.to_string()))
}

fn usage(arg: usize, message: String) -> ParseError {
    ParseError::new(Place::CommandLine { arg }, ErrorKind::Usage(message))
}
