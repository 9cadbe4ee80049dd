//! The rows of the program-flag table and the look-ups into it, the subcommands' flags
//! (`genzipf`, `report`, `sweep`, `compare`, `fuse-export`), and the exit statuses: the data
//! that the parser reads and that `--help`, the man page and the completions print.

use super::flag::{Arg, ExitStatus, Flag, FlagId, ShortFlag, Status, Subcommand, Values};

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

/// fio 3.33's `--crctest` checksums, in its order.
pub const CRCTEST_NAMES: &[&str] = &[
    "md5", "crc64", "crc32", "crc32c", "crc16", "crc7", "sha1", "sha256", "sha512", "xxhash",
    "murmur3", "jhash", "fnv", "sha3-224", "sha3-256", "sha3-384", "sha3-512",
];

/// A flag that iomark acts on, with no long help and any value.
const fn flag(id: FlagId, long: &'static str, arg: Arg, help: &'static str) -> Flag {
    Flag {
        id,
        long,
        short: None,
        arg,
        values: Values::Any,
        help,
        long_help: "",
        status: Status::Yes,
    }
}

/// One of fio's flags that iomark refuses for now (none today: kept for the next one).
#[allow(dead_code)]
const fn not_yet(long: &'static str, arg: Arg, help: &'static str) -> Flag {
    Flag { status: Status::NotYet, ..flag(FlagId::NotYet, long, arg, help) }
}

impl Flag {
    /// The same flag with this long help.
    const fn long_help(mut self, text: &'static str) -> Self {
        self.long_help = text;
        self
    }

    /// The same flag, whose value is one of these or made of these.
    const fn values(mut self, values: Values) -> Self {
        self.values = values;
        self
    }

    /// The same flag with a short name.
    const fn short(mut self, c: char) -> Self {
        self.short = Some(c);
        self
    }
}

use Arg::{Ignored, Optional, Required};
use FlagId as F;

/// Every program flag, in the order of `--help`, then fio's flags that iomark refuses.
const FLAGS: &[Flag] = &[
    flag(F::Output, "output", Required("FILE"), "Write the report to FILE")
        .values(Values::File)
        .long_help("Instead of standard output; messages still go to standard error."),
    flag(F::OutputFormat, "output-format", Required("LIST"), "Report formats: normal, terse, json, json+, html, json-stream")
        .values(Values::List(&["normal", "terse", "json", "json+", "html", "json-stream"]))
        .long_help(
            "Each format is printed once, in fio 3.33's order whatever the order of the list: the \
             terse lines, then the JSON document, then the normal report. json+ adds the latency \
             histogram bins to the JSON document. html (iomark's) is one self-contained HTML \
             report with charts (docs/report.md); alone it goes to standard output or --output, \
             beside other formats to --html=FILE. json-stream (iomark's) writes one JSON object per \
             line: the jobs' start and end, every interval's figures (that interval's alone), and \
             the final report as the last line; it stands alone on its output.",
        ),
    flag(F::Minimal, "minimal", Arg::None, "Terse output (same as --output-format=terse)"),
    flag(F::AppendTerse, "append-terse", Ignored, "Add terse to the formats (deprecated in fio; use --output-format)")
        .long_help("Adds terse to the formats chosen so far; a value such as --append-terse=1 is ignored, as fio ignores it."),
    flag(F::TerseVersion, "terse-version", Required("N"), "Terse format version: 2, 3 (default), 4 or 5")
        .values(Values::Fixed(&["2", "3", "4", "5"]))
        .long_help("Picks the layout of the terse lines; it does not turn terse output on by itself."),
    flag(F::ParseOnly, "parse-only", Arg::None, "Check the jobs as a run would, run nothing")
        .long_help(
            "Parses the job files and options, and plans every job as a run does before its first \
             I/O (files, sizes, engines, wait_for and the rest), without creating or writing any file; prints \
             the notes and exits with 0, or with 2 and the message a run would give.",
        ),
    flag(F::WarningsFatal, "warnings-fatal", Arg::None, "Refuse malformed values that fio reads leniently")
        .long_help(
            "fio 3.33 reads the leading part of some malformed values and runs them ('filesize=65536)' \
             is 65536); iomark does the same and notes it. With this flag every such note is an \
             error instead (exit code 2), with the message iomark gives without fio's leniency.",
        ),
    flag(F::Showcmd, "showcmd", Arg::None, "Print each job as one iomark command line"),
    flag(F::Cmdhelp, "cmdhelp", Optional("OPTION|all"), "Help on a job option, or on all of them")
        .values(Values::OptionName)
        .long_help(
            "With no value or all, lists every general job option with fio 3.33's layout; with \
             the name of an option, prints fio's block on it (type, default, range, values), then \
             whether iomark supports it and a longer explanation.",
        ),
    flag(F::Enghelp, "enghelp", Optional("ENGINE"), "List the I/O engines, or the options of one")
        .values(Values::Engine)
        .long_help("--enghelp=ENGINE,OPTION prints the block of one option of the engine."),
    flag(F::Section, "section", Required("NAME"), "Run only job sections called NAME (repeatable)")
        .long_help("Global sections still apply to the jobs selected."),
    flag(F::Readonly, "readonly", Arg::None, "Refuse any job that writes or trims"),
    flag(F::MaxJobs, "max-jobs", Required("N"), "Refuse to run more than N jobs (clones included)"),
    flag(F::Eta, "eta", Required("WHEN"), "When to print the ETA line: auto, always, never")
        .values(Values::Fixed(&["auto", "always", "never"]))
        .long_help(
            "The ETA line is printed only with the normal report; auto prints it when standard \
             output is a terminal.",
        ),
    flag(F::EtaNewline, "eta-newline", Required("TIME"), "Start a new ETA line every TIME")
        .long_help("A bare number is in seconds."),
    flag(F::EtaInterval, "eta-interval", Required("TIME"), "Update the ETA line every TIME (milliseconds by default)")
        .long_help("At least 250 ms; the default is one second."),
    flag(F::StatusInterval, "status-interval", Required("TIME"), "Print a full report every TIME")
        .long_help(
            "A bare number is in seconds; at least 1 ms. Each report is cumulative since the start \
             of the run, in the output formats asked for. SIGUSR1 prints one at any time. With \
             json-stream, html or --web it is also the interval of the figures over time (500 ms \
             when not given).",
        ),
    flag(F::Html, "html", Required("FILE"), "Also write the HTML report to FILE")
        .values(Values::File)
        .long_help("Whatever the other formats; the charts over time come from the run's intervals (see --status-interval)."),
    flag(F::Web, "web", Optional("ADDR:PORT"), "Serve a live page of the run (default 127.0.0.1, a free port)")
        .long_help(
            "Read-only, on loopback unless told another address. Its address is printed on \
             standard output when the run starts; at the end the page becomes the final HTML \
             report.",
        ),
    flag(F::BlockLatency, "block-latency", Arg::None, "Split each I/O's latency at the block layer")
        .long_help(
            "iomark's own: sets block_latency for every job. While the jobs run, iomark follows \
             the kernel's block tracepoints for the disks under their files and splits each \
             I/O's completion latency into pre (issue to the block layer), queue, device and \
             completion, reported after clat (docs/block-latency.md). Needs root; \
             without, a note says why and the run goes on without the split.",
        ),
    flag(F::BandwidthLog, "bandwidth-log", Arg::None, "Write agg-{read,write,trim}_bw.log while the ETA line runs")
        .long_help(
            "fio's aggregate bandwidth logs of the whole run, one sample every --eta-interval; \
             as in fio, they stay empty when the ETA line does not run.",
        ),
    flag(F::InflateLog, "inflate-log", Required("LOG"), "Print a compressed log as text")
        .values(Values::File)
        .long_help(
            "Reads a log stored with log_store_compressed (NAME_clat.1.log.fz), fio 3.33's or \
             iomark's, and prints its rows as the plain log has them; runs no job.",
        ),
    flag(F::Debug, "debug", Required("LIST"), "Debug output; 'parse' prints every parsed value")
        .values(Values::List(DEBUG_CATEGORIES))
        .long_help(
            "Takes fio's categories, comma separated; iomark prints output for parse (every value \
             of every job, and the lines fio 3.33 prints for the options that print one, such as \
             'set steady state IOPS threshold to 10.000000', on standard output as fio does) and \
             all, and accepts the others.",
        ),
    flag(F::Completions, "completions", Required("SHELL"), "Print the completion script for bash, zsh or fish")
        .values(Values::Fixed(&["bash", "zsh", "fish"]))
        .long_help(
            "The script completes these flags, the job options with their fixed values, and job \
             file names; see INSTALLING below.",
        ),
    flag(F::Server, "server", Optional("ARGS"), "Run as a server, waiting for clients")
        .long_help(
            "Speaks fio 3.33's client/server protocol, so that `fio --client=HOST job.fio` and \
             gfio run jobs here. ARGS is fio's: `ip:ADDR[,PORT]`, `ip6:ADDR[,PORT]` or \
             `sock:PATH`; by default all IPv4 addresses, port 8765. See docs/multi-host.md.",
        ),
    flag(F::Daemonize, "daemonize", Required("PIDFILE"), "Run the server in the background")
        .long_help("With --server: the server goes on in the background and its process id is written to PIDFILE."),
    flag(F::Client, "client", Required("HOSTNAME"), "Run the jobs on a server (repeat for several)")
        .long_help(
            "HOSTNAME is fio's: `HOST[,PORT]`, `ip6:HOST[,PORT]`, `sock:PATH`, or a file naming \
             one host a line. The job files that follow a --client go to that server; a \
             server given none runs the job files given before the first --client. Job \
             options on the command line, and the flags after the first --client, go to \
             every server. fio's servers and iomark's alike; the report shows each server's \
             jobs, then \"All clients\" under group_reporting; the servers' log files are \
             written here as NAME.HOST. See docs/multi-host.md.",
        ),
    flag(F::RemoteConfig, "remote-config", Required("FILE"), "Tell the server to read a job file of its own")
        .long_help("After a --client: that server runs FILE, a path on the server's side."),
    flag(F::Man, "man", Arg::None, "Print the manual page (roff)"),
    flag(F::Version, "version", Arg::None, "Print the version and exit"),
    flag(F::Help, "help", Arg::None, "Print this text").short('h'),
    // Self-tests, triggers and fio's memory pool (issue 19).
    flag(F::Crctest, "crctest", Optional("LIST"), "Measure the checksums' throughput and exit")
        .values(Values::List(CRCTEST_NAMES))
        .long_help(
            "Hashes a buffer with each checksum named (all of fio 3.33's when none is) and \
             prints MiB/sec per checksum in fio's table; runs no job.",
        ),
    flag(F::CpuclockTest, "cpuclock-test", Arg::None, "Check the clock on every CPU and exit")
        .long_help(
            "Reads iomark's clock on every CPU in turn and checks that it never goes back \
             between CPUs; prints what it saw and Pass! or Failed! (exit code 1), as fio's.",
        ),
    flag(F::IdleProf, "idle-prof", Required("OPTION"), "Report the idleness of the CPUs")
        .values(Values::Fixed(&["system", "percpu", "calibrate"]))
        .long_help(
            "As fio 3.33: measures a unit of work on every CPU, then runs an idle-priority \
             (SCHED_IDLE) spinner per CPU during the jobs and reports how idle the CPUs \
             were: system shows the whole system's idleness and the unit of work, percpu \
             each CPU's too, calibrate only measures the unit of work, prints it and runs \
             no job. The report's \"CPU idleness\" section (JSON: cpu_idleness) is fio's.",
        ),
    flag(F::JobProcesses, "job-processes", Arg::None, "Run jobs without thread in processes, as fio")
        .long_help(
            "fio runs each job in a process of its own unless the job sets thread; iomark \
             runs jobs as threads. With this switch every job without thread runs in a \
             child process of iomark, as in fio (jobs with cgroup, uid or gid always do). \
             Their reports merge as any job's. See docs/running.md.",
        ),
    flag(F::AllocSize, "alloc-size", Required("KB"), "fio's shared memory pool size (accepted, not needed)")
        .long_help(
            "fio keeps what its job processes share in a pool of this many KiB; iomark's jobs \
             share memory without a fixed pool, so the value is checked and has nothing to size.",
        ),
    flag(F::TriggerFile, "trigger-file", Required("FILE"), "Trigger when FILE exists (checked every 250 ms)")
        .values(Values::File)
        .long_help(
            "When the file appears it is removed and the trigger fires: the jobs stop as on \
             SIGTERM (saving verify state where they save it), --trigger's command runs, and \
             the report of what was done is printed; the exit code is 0, as in fio 3.33.",
        ),
    flag(F::TriggerTimeout, "trigger-timeout", Required("TIME"), "Trigger TIME after the start")
        .long_help("A bare number is in seconds; the trigger does what --trigger-file's does."),
    flag(F::AuxPath, "aux-path", Required("DIR"), "Where verify state files go")
        .values(Values::File)
        .long_help(
            "The directory of the files a run keeps state in: the verify state files \
             (local-JOB-N-verify.state) are saved and loaded there instead of the current \
             directory, as fio 3.33's.",
        ),
    flag(F::Trigger, "trigger", Required("COMMAND"), "The command a trigger runs (sh -c)")
        .long_help(
            "Run with sh -c when the trigger fires, before the report is printed. With \
             --client it runs here once a server has sent back its jobs' write states.",
        ),
    flag(F::TriggerRemote, "trigger-remote", Required("COMMAND"), "The command servers run on a trigger")
        .long_help(
            "With --client: when the trigger fires, every server sends back its jobs' write \
             states (saved here as HOST-JOB-N-verify.state), stops its jobs and runs COMMAND \
             with sh -c. See docs/multi-host.md.",
        ),
    flag(F::MergeBlktraceOnly, "merge-blktrace-only", Arg::None, "Merge the jobs' blktrace traces, run nothing")
        .long_help(
            "Writes the merged trace of every job with merge_blktrace_file (the traces of its \
             read_iolog, merged in time order as merge_blktrace_scalars and merge_blktrace_iters \
             say), then exits without running the jobs.",
        ),
];

/// Every program flag, in the order of `--help`; the ones not supported yet last.
pub fn all() -> &'static [Flag] {
    FLAGS
}

/// The flags iomark acts on.
pub fn supported() -> impl Iterator<Item = &'static Flag> {
    all().iter().filter(|f| f.status == Status::Yes)
}

/// The flag called `--long`.
pub fn find(long: &str) -> Option<&'static Flag> {
    all().iter().find(|f| f.long == long)
}

/// The flag called `-c`.
pub fn find_short(c: char) -> Option<&'static Flag> {
    all().iter().find(|f| f.short == Some(c))
}

/// The program flag (one iomark acts on) closest to `typed`, if one is within an edit
/// distance (with transpositions) of 2; ties go to the flag first in the table.
pub fn suggest(typed: &str) -> Option<&'static str> {
    let mut best: Option<(usize, &'static str)> = None;
    for flag in supported() {
        let d = strsim::damerau_levenshtein(typed, flag.long);
        if d <= 2 && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, flag.long));
        }
    }
    best.map(|(_, name)| name)
}

/// A subcommand flag that takes a value.
const fn valued(short: char, arg: &'static str, help: &'static str) -> ShortFlag {
    ShortFlag { short, long: None, arg: Some(arg), values: Values::Any, help }
}

/// `iomark genzipf`: fio-genzipf's flags, with its help lines.
pub const GENZIPF: Subcommand = Subcommand {
    name: "genzipf",
    summary: "previews a zipf, pareto or normal random_distribution (as fio-genzipf)",
    title: "iomark genzipf: preview a zipf, pareto or normal random_distribution (as fio-genzipf)",
    flags: &[
        ShortFlag {
            short: 'h',
            long: None,
            arg: None,
            values: Values::Any,
            help: "This help screen",
        },
        valued('p', "PERCENT", "Generate size of data set that are hit by this percentage"),
        ShortFlag {
            short: 't',
            long: None,
            arg: Some("TYPE"),
            values: Values::Fixed(&["zipf", "pareto", "normal"]),
            help: "Distribution type (zipf, pareto, or normal)",
        },
        valued(
            'i',
            "INPUT",
            "Distribution algorithm input (zipf theta, pareto power,\nor normal % deviation)",
        ),
        valued('b', "BYTES", "Block size of a given range (in bytes)"),
        valued('g', "GIB", "Size of data set (in gigabytes)"),
        valued('o', "ROWS", "Number of output rows"),
        ShortFlag {
            short: 'c',
            long: None,
            arg: None,
            values: Values::Any,
            help: "Output ranges in CSV format",
        },
        valued('s', "SEED", "Seed of the draws (default 0x89)"),
    ],
    operands: None,
};

/// `iomark report`: the HTML report, or its charts as SVG or PNG files, from fio's or
/// iomark's output files.
pub const REPORT: Subcommand = Subcommand {
    name: "report",
    summary: "builds the HTML report or SVG/PNG charts from fio's JSON and logs",
    title: "iomark report [flags] FILE|DIR...: the HTML report (or each chart as SVG or PNG) from fio's or iomark's\njson, json+, json-stream and log files; several runs overlay, with a table of their differences",
    flags: &[
        ShortFlag { short: 'h', long: Some("help"), arg: None, values: Values::Any, help: "This help screen" },
        ShortFlag {
            short: 'f',
            long: Some("format"),
            arg: Some("FORMAT"),
            values: Values::Fixed(&["html", "svg", "png"]),
            help: "html (one page, the default), svg or png (one file per chart)",
        },
        ShortFlag {
            short: 'o',
            long: Some("output"),
            arg: Some("PATH"),
            values: Values::File,
            help: "The HTML file (default: standard output), or the directory\nof the charts (default: the current one)",
        },
        ShortFlag {
            short: 't',
            long: Some("title"),
            arg: Some("TEXT"),
            values: Values::Any,
            help: "The page's title",
        },
    ],
    operands: Some("FILE|DIR..."),
};

/// A subcommand flag with a short and a long name.
const fn both(
    short: char,
    long: &'static str,
    arg: Option<&'static str>,
    help: &'static str,
) -> ShortFlag {
    ShortFlag { short, long: Some(long), arg, values: Values::Any, help }
}

impl ShortFlag {
    /// The same flag, whose value is one of these.
    const fn one_of(mut self, words: &'static [&'static str]) -> Self {
        self.values = Values::Fixed(words);
        self
    }

    /// The same flag, whose value is a file name.
    const fn file(mut self) -> Self {
        self.values = Values::File;
        self
    }
}

/// `iomark sweep`: one job over a grid of options, with the models fitted to the points
/// (docs/sweep.md).
pub const SWEEP: Subcommand = Subcommand {
    name: "sweep",
    summary: "sweeps a job over a grid of options, fits IOPS against depth",
    title: "iomark sweep [flags] [job options] [job file]: run one job over a grid of options (lists and\ndoubling ranges A..B), print a line per point as it goes, fit seed 003's queue model over\niodepth and the Universal Scalability Law over numjobs, with confidence intervals",
    flags: &[
        both('h', "help", None, "This help screen"),
        both('d', "iodepth", Some("LIST"), "Depths to sweep, such as 1,2,4..256"),
        both('j', "numjobs", Some("LIST"), "Numbers of jobs to sweep, such as 1..64"),
        both('b', "bs", Some("LIST"), "Block sizes to sweep, such as 4k..1m"),
        both('e', "ioengine", Some("LIST"), "Engines to sweep, such as psync,libaio,io_uring"),
        both('w', "rw", Some("LIST"), "I/O patterns to sweep, such as randread,randwrite"),
        both('s', "ioscheduler", Some("LIST"), "I/O schedulers to sweep, such as none,mq-deadline"),
        both('V', "vary", Some("OPTION=LIST"), "Any other job option to sweep (repeatable)"),
        both('r', "repeat", Some("N"), "Rounds over the grid (default 1): each point runs N times,\nand their spread weighs the fit"),
        both('c', "curve", Some("LIST"), "vdbench's curve: the maximum rate, then these percentages\nof it ('default': 10,50,70,80,90,100)"),
        both('l', "stop-at-latency", Some("TIME[:P]"), "End a series once latency percentile P (mean, 50,\n99 (default), 99.9) passes TIME"),
        both('J', "json", Some("FILE"), "Write the sweep's JSON (every point's report, the fits)\nto FILE (- for standard output)").file(),
        both('C', "csv", Some("FILE"), "Write a CSV line per point run to FILE (- for standard\noutput)").file(),
        both('H', "html", Some("FILE"), "Write the HTML report with the curves and fits to FILE\n(- for standard output)").file(),
    ],
    operands: Some("[JOB OPTIONS] [JOB FILE]"),
};

/// `iomark compare`: two runs, figure by figure, with confidence intervals.
pub const COMPARE: Subcommand = Subcommand {
    name: "compare",
    summary: "compares two runs, each figure with a confidence interval",
    title: "iomark compare [flags] A B [-- job options]: compare two runs figure by figure, the ratio B/A\nwith a confidence interval and a verdict; A and B are JSON files (fio's or iomark's, one\ndocument per round) or option sets (such as 'ioengine=libaio iodepth=8') run in turn",
    flags: &[
        both('h', "help", None, "This help screen"),
        both('r', "rounds", Some("N"), "Run option sets N times each, alternating (default 5)"),
        both('p', "confidence", Some("PERCENT"), "The level of the intervals (default 95)"),
        both('J', "json", Some("FILE"), "Also write the comparison as JSON to FILE (- for\nstandard output)").file(),
    ],
    operands: Some("A B [-- JOB OPTIONS]"),
};

/// `iomark fuse-export`: a FUSE export of one file served through io_uring, with fault and
/// latency injection (docs/fuse-export.md).
pub const FUSE_EXPORT: Subcommand = Subcommand {
    name: "fuse-export",
    summary: "exports a file or device through FUSE, with fault injection",
    title: "iomark fuse-export [flags] BACKING MOUNTPOINT: export BACKING through FUSE as\nMOUNTPOINT/volume, served with io_uring, with optional fault and latency injection",
    flags: &[
        both('h', "help", None, "This help screen"),
        both('t', "transport", Some("MODE"), "uring (FUSE-over-io_uring), dev (/dev/fuse) or\nauto (default: uring where the kernel offers it)")
            .one_of(&["auto", "uring", "dev"]),
        both('U', "enable-uring", None, "Switch the kernel's FUSE-over-io_uring on, and back off"),
        both('q', "queues", Some("N"), "dev transport: queues on cloned /dev/fuse descriptors\n(default 1; uring: one per possible CPU)"),
        both('d', "depth", Some("N"), "Requests in flight per queue (default 128)"),
        both('D', "direct", None, "Backing I/O with O_DIRECT (aligned requests)"),
        both('C', "page-cache", None, "Let the kernel cache the volume (no FOPEN_DIRECT_IO)"),
        both('w', "max-write", Some("SIZE"), "The largest READ or WRITE (default 128k, at most 1m)"),
        both('r', "readonly", None, "Export read-only"),
        both('b', "daemon", None, "Run in the background; return once the export is ready"),
        both('f', "fail", Some("ERRNO:PERCENT[:KIND]"), "Fail this share of requests of KIND (read, write,\nfsync, trim or all); repeatable"),
        both('a', "fail-after", Some("SIZE"), "No fault before SIZE bytes have been read or written"),
        both('R', "fail-range", Some("OFFSET-END"), "Faults only for requests touching this byte range"),
        both('l', "delay", Some("TIME[:PERCENT]"), "Answer this share of data requests TIME later"),
        both('L', "delay-dist", Some("DIST"), "How delays are drawn: fixed, uniform or exponential")
            .one_of(&["fixed", "uniform", "exponential"]),
        both('x', "corrupt", Some("PERCENT"), "Flip one byte in this share of reads"),
        both('s', "seed", Some("N"), "Seed of the injection's draws (default 0)"),
        both('S', "summary", Some("FILE"), "Write the summary at exit to FILE").file(),
    ],
    operands: Some("BACKING MOUNTPOINT"),
};

/// The subcommands, in the order of the help.
pub const SUBCOMMANDS: &[Subcommand] = &[GENZIPF, REPORT, SWEEP, COMPARE, FUSE_EXPORT];

/// The exit statuses of `iomark`, in order.
pub const EXIT_CODES: &[ExitStatus] = &[
    ExitStatus { code: "0", meaning: "success", more: "" },
    ExitStatus {
        code: "1",
        meaning: "a job or verification failed",
        more: "A job's I/O failed, verification found a bad block, or the report could not be \
               written; standard error says which.",
    },
    ExitStatus {
        code: "2",
        meaning: "bad usage or configuration",
        more: "One line on standard error names the file and line, the job, the option and the \
               value.",
    },
    ExitStatus {
        code: "128",
        meaning: "stopped by SIGINT or SIGTERM",
        more: "After printing the report of what was done, as fio 3.33.",
    },
    ExitStatus {
        code: "128+N",
        meaning: "a second signal N ended the run at once",
        more: "130 for SIGINT, 143 for SIGTERM; no report is printed.",
    },
];
