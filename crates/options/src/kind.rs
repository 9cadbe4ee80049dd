//! The kinds of value an option takes: the small vocabulary that the option table (which
//! names a [`Kind`] in every row) and the value grammar (which picks its parser by the
//! [`Kind`]) share. It lives apart from both so that both depend on it and neither on the
//! other.

/// The kind of value an option takes; it selects the parser in the value grammar.
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
    /// of the value grammar's per-direction ranges, a single size as `n-n`.
    SizeRange,
    /// Block sizes with shares per direction (`bssplit=4k/10:64k/50,32k/`).
    BsSplit,
    /// A `:`-separated list of percentiles, each in 0..=100 (`percentile_list=50:99.9`).
    FloatList,
    /// A `:`-separated list of positive floating point numbers without an upper bound
    /// (`merge_blktrace_scalars=50:200`).
    Floats,
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
    /// A size may follow (`rw=write:4k`: the gap between sequential I/Os).
    OptionalSize,
    /// A count may follow, which fio 3.33 reads as C's `atoi` does: digits, no unit
    /// (`rw=randread:8`, `file_service_type=random:4`; `randread:4k` is 4).
    OptionalCount,
    /// A floating point number may follow (`random_distribution=normal:10`).
    OptionalFloat,
    /// A floating point number must follow (`random_distribution=zipf:1.2`).
    Float,
    /// Free text may follow (`random_distribution=zoned:60/10:30/20:10/70`).
    OptionalStr,
}

impl Choice {
    /// The same choice, taking `arg` after a `:`.
    pub const fn arg(mut self, arg: ChoiceArg) -> Self {
        self.arg = arg;
        self
    }
}

/// The unit of a time value written as a bare number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeUnit {
    /// Seconds (`runtime`, `ramp_time`, `startdelay`).
    Seconds,
    /// Milliseconds.
    Millis,
    /// Microseconds (`thinktime`, `latency_target`).
    Micros,
}
