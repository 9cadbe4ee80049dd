//! Number and unit formatting as fio shows it: scaled numbers with k/M/G or Ki/Mi/Gi prefixes
//! limited to a number of significant figures, the bandwidth and size pairs (`94.5MiB/s
//! (99.1MB/s)`), and the choice of nsec/usec/msec for latencies.
//!
//! Everything here is formatting of numbers that are already final; nothing is measured or
//! reduced. The rules were established by running fio 3.33 and reading its output:
//!
//! - A number is divided by 1000 (or 1024) while it has more digits than the allowed width,
//!   moving one prefix up each time. If it was divided at all and the integer part leaves room
//!   for a point and at least one decimal, the remainder of the last division fills the
//!   decimals (rounded, a carry raising the integer part: 99.975 with one decimal is `100.0`);
//!   otherwise the integer part is rounded to nearest by that remainder.
//! - `kb_base=1000` puts the decimal (SI) form first and the binary one in parentheses.
//! - `unit_base=1` shows bandwidth in bits (`Gibit/s`), sizes stay in bytes.

/// What a scaled number counts, which decides its suffix (and a factor of 8 for bits).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// A plain count (IOPS, latency values): no suffix.
    None,
    /// Bytes: `B`, `KiB`, `kB`, ….
    Byte,
    /// Bits (the value is given in bytes and multiplied by 8): `bit`, `Kibit`, `kbit`, ….
    Bit,
    /// Bytes per second: `B/s`, `MiB/s`, `MB/s`, ….
    BytePerSec,
    /// Bits per second (the value is given in bytes per second): `Mibit/s`, `Mbit/s`, ….
    BitPerSec,
}

impl Unit {
    fn suffix(self) -> &'static str {
        match self {
            Unit::None => "",
            Unit::Byte => "B",
            Unit::Bit => "bit",
            Unit::BytePerSec => "B/s",
            Unit::BitPerSec => "bit/s",
        }
    }

    fn factor(self) -> u64 {
        match self {
            Unit::Bit | Unit::BitPerSec => 8,
            _ => 1,
        }
    }
}

const SI_PREFIXES: [&str; 6] = ["", "k", "M", "G", "T", "P"];
const IEC_PREFIXES: [&str; 6] = ["", "Ki", "Mi", "Gi", "Ti", "Pi"];

/// Formats `value` the way fio scales numbers for display (its `num2str`).
///
/// `width` is the number of significant figures (fio's `significant_figures`, 4 by default;
/// 6 for latency minimum and maximum), counting the decimal point once decimals are shown.
/// `binary` picks powers of 1024 and `Ki`/`Mi` prefixes instead of 1000 and `k`/`M`.
pub fn scaled(value: u64, width: usize, binary: bool, unit: Unit) -> String {
    let step: u64 = if binary { 1024 } else { 1000 };
    let prefixes = if binary { &IEC_PREFIXES } else { &SI_PREFIXES };
    let mut num = value.saturating_mul(unit.factor());
    let mut level = 0usize;
    let mut remainder: Option<u64> = None;
    while level < prefixes.len() && digits(num) > width {
        remainder = Some(num % step);
        num /= step;
        level += 1;
    }
    let prefix = prefixes.get(level).copied().unwrap_or("");
    let Some(rem) = remainder else {
        return format!("{num}{prefix}{}", unit.suffix());
    };
    let room = width.saturating_sub(digits(num));
    if room <= 1 {
        if rem >= step / 2 {
            num += 1;
        }
        return format!("{num}{prefix}{}", unit.suffix());
    }
    let fraction = format!("{:.*}", room - 1, rem as f64 / step as f64);
    // The fraction prints as "0.xx", or "1.00" when rounding carried into the integer.
    let (carry, decimals) = fraction.split_once('.').unwrap_or(("0", ""));
    if carry == "1" {
        num += 1;
    }
    format!("{num}.{decimals}{prefix}{}", unit.suffix())
}

fn digits(n: u64) -> usize {
    n.checked_ilog10().map_or(1, |d| d as usize + 1)
}

/// The unit options that change how fio's normal output shows sizes and rates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PrintOptions {
    /// fio's `kb_base`: 1024 (binary prefixes first, the default) or 1000 (SI first).
    pub kb_base: u32,
    /// fio's `unit_base`: 1 shows bandwidth in bits; 0 (the default) and 8 in bytes.
    pub unit_base: u32,
    /// fio's `significant_figures`: digits of scaled numbers (4 by default).
    pub sig_figs: usize,
}

impl Default for PrintOptions {
    fn default() -> Self {
        PrintOptions { kb_base: 1024, unit_base: 0, sig_figs: 4 }
    }
}

impl PrintOptions {
    /// Whether the binary (KiB, MiB) form comes first.
    pub fn binary_first(&self) -> bool {
        self.kb_base != 1000
    }

    /// The unit of rates: bytes or bits per second.
    pub fn rate_unit(&self) -> Unit {
        if self.unit_base == 1 {
            Unit::BitPerSec
        } else {
            Unit::BytePerSec
        }
    }

    /// A size in the preferred form only (`968KiB`).
    pub fn size(&self, bytes: u64) -> String {
        scaled(bytes, self.sig_figs, self.binary_first(), Unit::Byte)
    }

    /// A size in the preferred and the other form (`968KiB`, `991kB`).
    pub fn size_pair(&self, bytes: u64) -> (String, String) {
        let first = self.binary_first();
        (
            scaled(bytes, self.sig_figs, first, Unit::Byte),
            scaled(bytes, self.sig_figs, !first, Unit::Byte),
        )
    }

    /// A rate in bytes per second in the preferred and the other form (`94.5MiB/s`,
    /// `99.1MB/s`), in bits when `unit_base=1`.
    pub fn rate_pair(&self, bytes_per_sec: u64) -> (String, String) {
        let first = self.binary_first();
        let unit = self.rate_unit();
        (
            scaled(bytes_per_sec, self.sig_figs, first, unit),
            scaled(bytes_per_sec, self.sig_figs, !first, unit),
        )
    }

    /// A count such as IOPS (`30.2k`).
    pub fn count(&self, n: u64) -> String {
        scaled(n, self.sig_figs, false, Unit::None)
    }
}

/// The unit a latency line or percentile block is shown in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LatUnit {
    /// Nanoseconds, the unit of the numbers in `RunReport`.
    Nsec,
    /// Microseconds.
    Usec,
    /// Milliseconds.
    Msec,
}

impl LatUnit {
    /// The name fio prints in parentheses.
    pub fn name(self) -> &'static str {
        match self {
            LatUnit::Nsec => "nsec",
            LatUnit::Usec => "usec",
            LatUnit::Msec => "msec",
        }
    }

    /// Nanoseconds per unit.
    pub fn divisor(self) -> u64 {
        match self {
            LatUnit::Nsec => 1,
            LatUnit::Usec => 1_000,
            LatUnit::Msec => 1_000_000,
        }
    }

    /// The unit of a `clat (usec): min=…` line: a larger unit only when the minimum is above
    /// 2 of it, the maximum above 99999 of the smaller one and the deviation above 1000 of it.
    pub fn for_stats(min: u64, max: u64, stddev: f64) -> LatUnit {
        if min > 2_000_000 && max > 99_999_999 && stddev > 1_000_000.0 {
            LatUnit::Msec
        } else if min > 2_000 && max > 99_999 && stddev > 1_000.0 {
            LatUnit::Usec
        } else {
            LatUnit::Nsec
        }
    }

    /// The unit of a percentile block, from its smallest and largest value: a larger unit
    /// when the smallest is above 2 of it and the largest above 99999 of the smaller one.
    pub fn for_percentiles(min: u64, max: u64) -> LatUnit {
        if min > 2_000_000 && max > 99_999_999 {
            LatUnit::Msec
        } else if min > 2_000 && max > 99_999 {
            LatUnit::Usec
        } else {
            LatUnit::Nsec
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scaled_matches_fio_examples() {
        assert_eq!(scaled(30_250, 4, false, Unit::None), "30.2k");
        assert_eq!(scaled(2_712_000, 4, false, Unit::None), "2712k");
        assert_eq!(scaled(615, 4, false, Unit::None), "615");
        assert_eq!(scaled(99_975_168, 4, false, Unit::Byte), "100.0MB");
        assert_eq!(scaled(1_105_920, 4, false, Unit::Byte), "1106kB");
        assert_eq!(scaled(991_232, 4, true, Unit::Byte), "968KiB");
        assert_eq!(scaled(65_536, 4, true, Unit::Byte), "64.0KiB");
        assert_eq!(scaled(4096, 4, true, Unit::Byte), "4096B");
        assert_eq!(scaled(9_680_600, 6, false, Unit::None), "9680.6k");
        assert_eq!(scaled(16_238_400, 6, false, Unit::None), "16238k");
        assert_eq!(scaled(770_000, 2, false, Unit::None), "1M");
        assert_eq!(scaled(9_934_848_000, 2, false, Unit::BytePerSec), "10GB/s");
        assert_eq!(scaled(6_831_298_383, 4, true, Unit::BitPerSec), "50.9Gibit/s");
        assert_eq!(scaled(0, 4, true, Unit::Byte), "0B");
    }

    #[test]
    fn latency_units_follow_fio() {
        assert_eq!(LatUnit::for_stats(2915, 100_478, 758.52), LatUnit::Nsec);
        assert_eq!(LatUnit::for_stats(5001, 211_000, 1810.0), LatUnit::Usec);
        assert_eq!(LatUnit::for_stats(24_636, 82_865, 5098.8), LatUnit::Nsec);
        assert_eq!(LatUnit::for_percentiles(552_960, 23_200_000), LatUnit::Usec);
    }
}
