//! The percentile blocks of the normal output:
//!
//! ```text
//!     clat percentiles (usec):
//!      |  1.00th=[ 1778],  5.00th=[ 2573], 10.00th=[ 2999], 20.00th=[ 3621],
//!      | 99.99th=[32637]
//! ```
//!
//! Rules established against fio 3.33:
//! - the unit is chosen from the smallest and largest value ([`LatUnit::for_percentiles`])
//!   and values are rounded *up* to it;
//! - values are right-aligned to the width of the largest one, at least five;
//! - every percentile shows as many decimals as the most precise one in the list, in a field
//!   three wider than that;
//! - as many entries go on a line as fit in 72 columns (at least one), the last without a
//!   comma.

use std::fmt::Write as _;

use iomark_stats::report::LatStats;

use crate::units::LatUnit;

/// Writes the percentile block of `stats` under `label` (`clat`, `lat`, `slat`, `sync`), if
/// it has percentiles and samples.
pub(super) fn write_percentiles(out: &mut String, label: &str, stats: &LatStats) {
    let Some(list) = stats.percentiles.as_deref() else {
        return;
    };
    if list.is_empty() || stats.n == 0 {
        return;
    }
    let min = list.iter().map(|(_, v)| *v).min().unwrap_or(0);
    let max = list.iter().map(|(_, v)| *v).max().unwrap_or(0);
    let unit = LatUnit::for_percentiles(min, max);
    let div = unit.divisor();
    let values: Vec<u64> = list.iter().map(|(_, v)| v.div_ceil(div)).collect();
    let value_width = values.iter().map(|v| v.to_string().len()).max().unwrap_or(0).max(5);
    let precision = list.iter().map(|(p, _)| decimals(*p)).max().unwrap_or(0);
    let label_width = precision + 3;
    // " " label "th=[" value "],"
    let entry_width = 1 + label_width + 4 + value_width + 2;
    let per_line = (72 / entry_width).max(1);

    let _ = writeln!(out, "    {label} percentiles ({}):", unit.name());
    for (i, ((p, _), value)) in list.iter().zip(&values).enumerate() {
        if i % per_line == 0 {
            out.push_str("     |");
        }
        let _ = write!(out, " {p:>label_width$.precision$}th=[{value:>value_width$}]");
        if i + 1 == list.len() {
            out.push('\n');
        } else if i % per_line == per_line - 1 {
            out.push_str(",\n");
        } else {
            out.push(',');
        }
    }
}

/// The decimals of the shortest decimal form of `p` (`99.95` has 2, `50` has 0).
///
/// fio counts the decimals as written in `percentile_list`; the report carries the values
/// only, so a list written with trailing zeros (`50.000`) shows fewer decimals than fio.
fn decimals(p: f64) -> usize {
    let text = p.to_string();
    text.split_once('.').map_or(0, |(_, frac)| frac.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stats(list: &[(f64, u64)]) -> LatStats {
        LatStats { n: 10, percentiles: Some(list.to_vec()), ..LatStats::default() }
    }

    #[test]
    fn integer_percentiles_and_wide_values() {
        let mut out = String::new();
        let list =
            [(1.0, 10), (2.0, 20), (3.0, 20), (4.0, 20), (5.0, 20), (6.0, 20), (100.0, 3_883_008)];
        write_percentiles(&mut out, "clat", &stats(&list));
        assert_eq!(
            out,
            "    clat percentiles (nsec):\n     \
             |   1th=[     10],   2th=[     20],   3th=[     20],   4th=[     20],\n     \
             |   5th=[     20],   6th=[     20], 100th=[3883008]\n"
        );
    }

    #[test]
    fn precise_percentiles_take_fewer_per_line() {
        let mut out = String::new();
        let list = [(1.1234, 30), (2.0, 30), (3.0, 30), (4.0, 30)];
        write_percentiles(&mut out, "clat", &stats(&list));
        assert_eq!(
            out,
            "    clat percentiles (nsec):\n     \
             |  1.1234th=[   30],  2.0000th=[   30],  3.0000th=[   30],\n     \
             |  4.0000th=[   30]\n"
        );
    }

    #[test]
    fn usec_values_round_up() {
        let mut out = String::new();
        let list = [(1.0, 552_960), (99.99, 23_199_744)];
        write_percentiles(&mut out, "sync", &stats(&list));
        assert_eq!(out, "    sync percentiles (usec):\n     |  1.00th=[  553], 99.99th=[23200]\n");
    }
}
