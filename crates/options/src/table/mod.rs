//! The option table: one row per fio option, and the only description of options in iomark.
//!
//! Each [`OptionDef`] row names an option, its aliases, the kind of value it takes, its
//! default, its category and its help. The job-file parser, the command-line parser,
//! `--help`, `--cmdhelp`, the generated `docs/options.md` and the JSON echo of options all
//! read this one table; nothing else lists options. The rows follow fio 3.33's
//! `fio --cmdhelp=all` plus the options of the engines iomark has.

mod rows;

pub use crate::kind::{Choice, ChoiceArg, Kind};

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

/// Whether iomark acts on an option yet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Support {
    /// iomark parses the option and gives it fio's meaning.
    Yes,
    /// iomark knows the option but refuses it: `option 'X' is not supported yet`.
    NotYet,
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
///
/// A look-up in an index of every name and alias, made once (planning reads each option of
/// each job through here: thousands of jobs make millions of look-ups). Where a name
/// would name two rows, the first row in the table wins.
pub fn find(name: &str) -> Option<&'static OptionDef> {
    // foldhash: the names are the table's own, so a fast hash without SipHash's defence
    // against chosen keys is enough (it was a tenth of planning 1 024 jobs).
    type Index = std::collections::HashMap<&'static str, usize, foldhash::fast::RandomState>;
    static INDEX: std::sync::OnceLock<Index> = std::sync::OnceLock::new();
    let index = INDEX.get_or_init(|| {
        let mut index = Index::default();
        for (i, o) in all().iter().enumerate() {
            for name in std::iter::once(&o.name).chain(o.aliases) {
                index.entry(*name).or_insert(i);
            }
        }
        index
    });
    index.get(name.trim()).map(|&i| &all()[i])
}

/// The position of an option in [`all`], which is its stable identity in a `JobSpec`.
pub fn index_of(def: &OptionDef) -> usize {
    all().iter().position(|o| o.name == def.name).unwrap_or(usize::MAX)
}
