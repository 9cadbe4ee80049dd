//! The shape of the flag tables: a program flag ([`Flag`]) and what the parser does with it
//! ([`FlagId`]), how it takes a value ([`Arg`]) and what the value may be ([`Values`]); a
//! subcommand's short flags; an exit status. The rows are in `defs.rs`.

/// One program flag.
#[derive(Debug, Clone, Copy)]
pub struct Flag {
    /// What the parser does with it.
    pub id: FlagId,
    /// The long name, without the dashes (`output-format`).
    pub long: &'static str,
    /// The short name, if it has one (`h` for `-h`).
    pub short: Option<char>,
    /// Whether it takes a value, and how it is written.
    pub arg: Arg,
    /// What its value may be, for help and completion.
    pub values: Values,
    /// One line of help, for `--help` and the completions.
    pub help: &'static str,
    /// A longer explanation for the man page; empty when the one line says it all.
    pub long_help: &'static str,
    /// Whether iomark acts on it yet.
    pub status: Status,
}

/// What the command-line parser does with a flag: one identity per flag iomark acts on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FlagId {
    /// `--output=FILE`.
    Output,
    /// `--output-format=LIST`.
    OutputFormat,
    /// `--minimal`.
    Minimal,
    /// `--append-terse`.
    AppendTerse,
    /// `--terse-version=N`.
    TerseVersion,
    /// `--parse-only`.
    ParseOnly,
    /// `--merge-blktrace-only`.
    MergeBlktraceOnly,
    /// `--warnings-fatal`.
    WarningsFatal,
    /// `--showcmd`.
    Showcmd,
    /// `--cmdhelp[=OPTION|all]`.
    Cmdhelp,
    /// `--enghelp[=ENGINE]`.
    Enghelp,
    /// `--section=NAME`.
    Section,
    /// `--readonly`.
    Readonly,
    /// `--max-jobs=N`.
    MaxJobs,
    /// `--eta=WHEN`.
    Eta,
    /// `--eta-newline=TIME`.
    EtaNewline,
    /// `--eta-interval=TIME`.
    EtaInterval,
    /// `--status-interval=TIME`.
    StatusInterval,
    /// `--bandwidth-log`.
    BandwidthLog,
    /// `--inflate-log=LOG`.
    InflateLog,
    /// `--debug=LIST`.
    Debug,
    /// `--completions=SHELL`.
    Completions,
    /// `--man`.
    Man,
    /// `--version`.
    Version,
    /// `--help`, `-h`.
    Help,
    /// `--html=FILE`.
    Html,
    /// `--web[=ADDR:PORT]`.
    Web,
    /// `--block-latency`.
    BlockLatency,
    /// `--crctest[=LIST]`.
    Crctest,
    /// `--cpuclock-test`.
    CpuclockTest,
    /// `--job-processes`.
    JobProcesses,
    /// `--idle-prof=OPTION`.
    IdleProf,
    /// `--alloc-size=KB`.
    AllocSize,
    /// `--trigger-file=FILE`.
    TriggerFile,
    /// `--trigger-timeout=TIME`.
    TriggerTimeout,
    /// `--trigger=COMMAND`.
    Trigger,
    /// `--trigger-remote=COMMAND`.
    TriggerRemote,
    /// `--aux-path=DIR`.
    AuxPath,
    /// `--server[=ARGS]`.
    Server,
    /// `--daemonize=PIDFILE`.
    Daemonize,
    /// `--client=HOSTNAME` (repeated).
    Client,
    /// `--remote-config=FILE`.
    RemoteConfig,
    /// One of fio's flags that iomark refuses for now ([`Status::NotYet`]).
    NotYet,
}

/// Whether a flag takes a value, and how.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arg {
    /// No value; one after `=` is refused (`--minimal=1`).
    None,
    /// A value, after `=` or as the next argument; the name shown in help (`FILE`).
    Required(&'static str),
    /// A value only after `=`, which may be left out (`--cmdhelp`, `--cmdhelp=bs`).
    Optional(&'static str),
    /// No value, but one after `=` is accepted and ignored, as fio does.
    Ignored,
}

/// What the value of a flag may be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Values {
    /// Nothing to offer: a number, a time, a name.
    Any,
    /// A file name.
    File,
    /// One of these.
    Fixed(&'static [&'static str]),
    /// Some of these, joined by `,`.
    List(&'static [&'static str]),
    /// A job option's name, or `all`.
    OptionName,
    /// An I/O engine's name.
    Engine,
}

/// Whether iomark acts on a flag yet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// iomark acts on it.
    Yes,
    /// One of fio's flags, refused with `--NAME is not supported yet`; left out of `--help`,
    /// the suggestions and the completions, named in the man page.
    NotYet,
}

impl Flag {
    /// How help shows the flag: `--output=FILE`, `--cmdhelp[=OPTION|all]`, `--help, -h`.
    pub fn usage(&self) -> String {
        let mut text = match self.arg {
            Arg::None | Arg::Ignored => format!("--{}", self.long),
            Arg::Required(v) => format!("--{}={v}", self.long),
            Arg::Optional(v) => format!("--{}[={v}]", self.long),
        };
        if let Some(c) = self.short {
            text.push_str(&format!(", -{c}"));
        }
        text
    }

    /// The fixed words its value is made of, if it has some.
    pub fn choices(&self) -> &'static [&'static str] {
        match self.values {
            Values::Fixed(words) | Values::List(words) => words,
            _ => &[],
        }
    }
}

/// A flag of a subcommand: short, as fio's small tools take them (`-t zipf` or `-tzipf`),
/// and for iomark's own subcommands also long (`--format=svg`).
#[derive(Debug, Clone, Copy)]
pub struct ShortFlag {
    /// The letter.
    pub short: char,
    /// The long name, without dashes, if it has one.
    pub long: Option<&'static str>,
    /// The name of its value, if it takes one.
    pub arg: Option<&'static str>,
    /// What its value may be.
    pub values: Values,
    /// Its help; a `\n` marks where the subcommand's own help breaks the line.
    pub help: &'static str,
}

/// A subcommand: `iomark NAME ARGS`.
#[derive(Debug, Clone, Copy)]
pub struct Subcommand {
    /// Its name (`genzipf`).
    pub name: &'static str,
    /// What it does, as a phrase that follows its name (`previews a zipf, …`).
    pub summary: &'static str,
    /// The first line of its own help.
    pub title: &'static str,
    /// Its flags, in the order of its help.
    pub flags: &'static [ShortFlag],
    /// What follows its flags (`FILE|DIR...`, file names), if anything.
    pub operands: Option<&'static str>,
}

impl Subcommand {
    /// The flag `-c`.
    pub fn find(&self, c: char) -> Option<&'static ShortFlag> {
        self.flags.iter().find(|f| f.short == c)
    }

    /// The flag `--long`.
    pub fn find_long(&self, long: &str) -> Option<&'static ShortFlag> {
        self.flags.iter().find(|f| f.long == Some(long))
    }
}

impl ShortFlag {
    /// How help shows it: `-t TYPE`, `-f, --format=FORMAT`.
    pub fn usage(&self) -> String {
        match (self.long, self.arg) {
            (Some(l), Some(v)) => format!("-{}, --{l}={v}", self.short),
            (Some(l), None) => format!("-{}, --{l}", self.short),
            (None, Some(v)) => format!("-{} {v}", self.short),
            (None, None) => format!("-{}", self.short),
        }
    }
}

/// One exit status of `iomark`.
#[derive(Debug, Clone, Copy)]
pub struct ExitStatus {
    /// The code (`0`, `128+N`).
    pub code: &'static str,
    /// What it means, short, for `--help`.
    pub meaning: &'static str,
    /// More on it, for the man page; empty when the meaning says it all.
    pub more: &'static str,
}
