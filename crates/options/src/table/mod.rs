//! The option table: one row per fio option, and the only description of options in iomark.
//!
//! Each [`OptionDef`] row names an option, its aliases, the kind of value it takes, its
//! default, its category and its help. The job-file parser, the command-line parser,
//! `--help`, `--cmdhelp`, the generated `docs/options.md` and the JSON echo of options all
//! read this one table; nothing else lists options. The rows follow fio 3.33's
//! `fio --cmdhelp=all` plus the options of the engines iomark has.

mod rows;

use crate::value::TimeUnit;

/// One option of the table.
#[derive(Debug, Clone, Copy)]
pub struct OptionDef {
    /// The canonical name, as fio prints it (`bs`, `rw`, `ioengine`).
    pub name: &'static str,
    /// Other names that mean the same option (`blocksize` for `bs`).
    pub aliases: &'static [&'static str],
    /// What value the option takes, and how it is parsed.
    pub kind: Kind,
    /// The default as fio 3.33 reports it, written in the option's own value grammar;
    /// `None` where fio has no default (the option is unset until given).
    pub default: Option<&'static str>,
    /// Where the option belongs, following the sections of fio's HOWTO.
    pub category: Category,
    /// One line of help (what `--cmdhelp` prints beside the name).
    pub help: &'static str,
    /// A longer explanation for `--cmdhelp=NAME` and `docs/options.md`; empty when the one
    /// line says it all.
    pub long_help: &'static str,
    /// Whether iomark acts on the option yet.
    pub support: Support,
    /// For engine-specific options, the engines that define them; empty for general options.
    pub engines: &'static [&'static str],
    /// Whether a job file may give the option with no value at all (fio's log options then
    /// take the job's name); it parses as an empty [`Kind::Str`].
    pub value_optional: bool,
}

impl OptionDef {
    /// A row with no alias, no default and no long help, not supported yet, for no engine;
    /// the other builders below fill in the rest.
    pub const fn new(
        name: &'static str,
        kind: Kind,
        category: Category,
        help: &'static str,
    ) -> Self {
        OptionDef {
            name,
            aliases: &[],
            kind,
            default: None,
            category,
            help,
            long_help: "",
            support: Support::NotYet,
            engines: &[],
            value_optional: false,
        }
    }

    /// The same row with these aliases.
    pub const fn alias(mut self, aliases: &'static [&'static str]) -> Self {
        self.aliases = aliases;
        self
    }

    /// The same row with this default, written in the option's value grammar.
    pub const fn default(mut self, default: &'static str) -> Self {
        self.default = Some(default);
        self
    }

    /// The same row as an option of these engines only.
    pub const fn engines(mut self, engines: &'static [&'static str]) -> Self {
        self.engines = engines;
        self
    }

    /// The same row, supported by iomark, with its long help.
    pub const fn supported(mut self, long_help: &'static str) -> Self {
        self.support = Support::Yes;
        self.long_help = long_help;
        self
    }

    /// The same row, whose value a job file may leave out (see
    /// [`value_optional`](Self::value_optional)).
    pub const fn value_optional(mut self) -> Self {
        self.value_optional = true;
        self
    }

    /// The same row with a long help, without changing its support.
    pub const fn long_help(mut self, long_help: &'static str) -> Self {
        self.long_help = long_help;
        self
    }
}

impl Choice {
    /// The same choice, taking `arg` after a `:`.
    pub const fn arg(mut self, arg: ChoiceArg) -> Self {
        self.arg = arg;
        self
    }
}

/// Whether iomark acts on an option yet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Support {
    /// iomark parses the option and gives it fio's meaning.
    Yes,
    /// iomark knows the option but refuses it: `option 'X' is not supported yet`.
    NotYet,
}

/// The kind of value an option takes; it selects the parser in [`crate::value`].
#[derive(Debug, Clone, Copy)]
pub enum Kind {
    /// Free text, stored as written (`description`, `wait_for`).
    Str,
    /// A `:`-separated list of file names, `\:` escaping a colon (`filename`).
    FileList,
    /// One of a fixed set of names (`rw`, `ioengine`), optionally with a `:` argument.
    Enum(&'static [Choice]),
    /// `0`/`1` and fio's other spellings of a boolean.
    Bool,
    /// A boolean that may also be given with no value, meaning true (`stonewall`).
    Flag,
    /// A whole number in `min..=max`; fio accepts size suffixes here too.
    Int {
        /// Smallest accepted value.
        min: i64,
        /// Largest accepted value.
        max: i64,
    },
    /// A floating point number in `min..=max`.
    Float {
        /// Smallest accepted value.
        min: f64,
        /// Largest accepted value.
        max: f64,
    },
    /// A byte count with k/m/g/t/p suffixes subject to `kb_base`, or `0x` hex.
    Size,
    /// A byte count or a percentage of the file or device (`size=20%`).
    SizeOrPercent,
    /// A duration; a bare number is in `unit`.
    Time {
        /// The unit of a number written without one.
        unit: TimeUnit,
    },
    /// A duration or a `min-max` range of durations (`startdelay=1s-5s`).
    TimeRange {
        /// The unit of a number written without one.
        unit: TimeUnit,
    },
    /// Up to three sizes, for reads, writes and trims (`bs=4k,64k`, `bs=,8k`).
    SizePerDir,
    /// Up to three whole numbers, for reads, writes and trims (`rate_iops=100,50`).
    IntPerDir,
    /// Up to three size ranges, for reads, writes and trims (`bsrange=1k-4k,2k:8k`).
    RangePerDir,
    /// A size or a size range `min-max` (`filesize=1m-4m`); parsed into the reads' range
    /// of a [`crate::value::Value::RangePerDir`], a single size as `n-n`.
    SizeRange,
    /// Block sizes with shares per direction (`bssplit=4k/10:64k/50,32k/`).
    BsSplit,
    /// A `:`-separated list of floating point numbers (`percentile_list=50:99.9`).
    FloatList,
    /// A list of CPUs: `0-3,6`, as fio's `cpus_allowed`.
    CpuList,
    /// `random_distribution`: a distribution with its numbers or zones, per direction
    /// (`zipf:1.2`, `zoned:60/10:40/90`); the choices are listed for help.
    Distribution(&'static [Choice]),
    /// One or more of a fixed set of names joined by `,`, optionally followed by `:N`, a
    /// count (`sync_file_range=wait_before,write:8`); the choices are listed for help.
    ChoiceSet(&'static [Choice]),
}

/// One accepted value of an [`Kind::Enum`] option.
#[derive(Debug, Clone, Copy)]
pub struct Choice {
    /// The value as written (`randread`).
    pub name: &'static str,
    /// What it means, one line.
    pub help: &'static str,
    /// What may follow the value after a `:` (`rw=randread:8`, `zipf:1.2`).
    pub arg: ChoiceArg,
}

/// What an enum value accepts after a `:`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChoiceArg {
    /// Nothing may follow.
    None,
    /// A size may follow (`rw=write:4k`, `file_service_type=random:4`).
    OptionalSize,
    /// A floating point number may follow (`random_distribution=normal:10`).
    OptionalFloat,
    /// A floating point number must follow (`random_distribution=zipf:1.2`).
    Float,
    /// Free text may follow (`random_distribution=zoned:60/10:30/20:10/70`).
    OptionalStr,
}

/// Where an option belongs; the sections of fio's HOWTO.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Category {
    /// Job description: `name`, `description`, `loops`, `numjobs`.
    JobDescription,
    /// Time related parameters: `runtime`, `time_based`, `ramp_time`.
    Time,
    /// Target file or device: `filename`, `directory`, `nrfiles`, `direct`.
    Target,
    /// I/O type: `rw`, `rwmixread`, `fsync`, `randrepeat`.
    IoType,
    /// Block size: `bs`, `bsrange`, `bssplit`, `blockalign`.
    BlockSize,
    /// Buffers and memory: `zero_buffers`, `iomem`, `buffer_pattern`.
    Buffers,
    /// I/O size: `size`, `io_size`, `filesize`, `offset`.
    IoSize,
    /// I/O engine: `ioengine` and the engines' own options.
    Engine,
    /// I/O depth: `iodepth`, `iodepth_batch_submit`.
    IoDepth,
    /// I/O rate: `rate`, `rate_iops`, `thinktime`.
    IoRate,
    /// I/O latency: `latency_target`, `max_latency`.
    IoLatency,
    /// I/O replay: `read_iolog`, `write_iolog`.
    IoReplay,
    /// Threads, processes and job synchronization: `thread`, `stonewall`, `cpus_allowed`.
    Threads,
    /// Verification: `verify` and its options.
    Verify,
    /// Steady state: `steadystate` and its options.
    SteadyState,
    /// Measurements and reporting: `group_reporting`, logs, percentiles.
    Reporting,
    /// Error handling: `continue_on_error`, `ignore_error`.
    ErrorHandling,
    /// Zoned block devices: `zonemode`, `zonesize`.
    Zones,
}

impl Category {
    /// Every category, in the order of fio's HOWTO.
    pub const ALL: [Category; 18] = [
        Category::JobDescription,
        Category::Time,
        Category::Target,
        Category::IoType,
        Category::BlockSize,
        Category::Buffers,
        Category::IoSize,
        Category::Engine,
        Category::IoDepth,
        Category::IoRate,
        Category::IoLatency,
        Category::IoReplay,
        Category::Threads,
        Category::Verify,
        Category::SteadyState,
        Category::Reporting,
        Category::ErrorHandling,
        Category::Zones,
    ];

    /// The section title, as in fio's HOWTO.
    pub fn title(self) -> &'static str {
        match self {
            Category::JobDescription => "Job description",
            Category::Time => "Time related parameters",
            Category::Target => "Target file/device",
            Category::IoType => "I/O type",
            Category::BlockSize => "Block size",
            Category::Buffers => "Buffers and memory",
            Category::IoSize => "I/O size",
            Category::Engine => "I/O engine",
            Category::IoDepth => "I/O depth",
            Category::IoRate => "I/O rate",
            Category::IoLatency => "I/O latency",
            Category::IoReplay => "I/O replay",
            Category::Threads => "Threads, processes and job synchronization",
            Category::Verify => "Verification",
            Category::SteadyState => "Steady state",
            Category::Reporting => "Measurements and reporting",
            Category::ErrorHandling => "Error handling",
            Category::Zones => "Zoned block devices",
        }
    }
}

/// Every option, in the order of fio's `--cmdhelp=all`.
pub fn all() -> &'static [OptionDef] {
    &rows::ROWS
}

/// The option called `name`, by its name or one of its aliases.
pub fn find(name: &str) -> Option<&'static OptionDef> {
    let name = name.trim();
    all().iter().find(|o| o.name == name || o.aliases.contains(&name))
}

/// The position of an option in [`all`], which is its stable identity in a `JobSpec`.
pub fn index_of(def: &OptionDef) -> usize {
    all().iter().position(|o| o.name == def.name).unwrap_or(usize::MAX)
}
