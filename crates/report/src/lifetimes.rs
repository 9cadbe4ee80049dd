//! The normal report's "block lifetime percentiles" of `block_error_percentiles`, in fio
//! 3.33's layout: the trims at each percentile, ` P.PPth=N` separated by commas and wrapped
//! before a line would pass 75 characters, then the blocks per state.

use iomark_stats::lifetimes::{BlockLifetimes, BlockState};
use std::fmt::Write;

/// The widest line of percentiles, as fio wraps them.
const LINE_LENGTH: usize = 75;

/// Appends the section for `b` to `out`.
pub(crate) fn write_lifetimes(out: &mut String, b: &BlockLifetimes) {
    out.push_str("  block lifetime percentiles :\n   |");
    let mut pos = 0;
    for (i, (p, trims)) in b.percentiles.iter().enumerate() {
        let end = if i + 1 == b.percentiles.len() { '\n' } else { ',' };
        let entry = format!(" {p:3.2}th={trims}{end}");
        if pos + entry.len() > LINE_LENGTH {
            pos = 0;
            out.push_str("\n   |");
        }
        out.push_str(&entry);
        pos += entry.len();
    }
    out.push_str("        states               :");
    for (i, (state, n)) in BlockState::ALL.iter().zip(b.states).enumerate() {
        let end = if i + 1 == BlockState::ALL.len() { '\n' } else { ',' };
        let _ = write!(out, " {}={n}{end}", state.name());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_trim_prints_fios_empty_section() {
        let mut out = String::new();
        write_lifetimes(&mut out, &BlockLifetimes::default());
        assert_eq!(
            out,
            "  block lifetime percentiles :\n   |        states               : unwritten=0, \
             trimmed=0, written=0, trim failure=0, write failure=0\n"
        );
    }

    #[test]
    fn percentiles_wrap_at_75_characters() {
        let pcts = [1.0, 5.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0, 95.0, 99.0];
        let b = BlockLifetimes {
            percentiles: pcts.iter().map(|&p| (p, 1)).collect(),
            states: [2, 14, 0, 2, 0],
        };
        let mut out = String::new();
        write_lifetimes(&mut out, &b);
        assert_eq!(
            out,
            "  block lifetime percentiles :\n   | 1.00th=1, 5.00th=1, 10.00th=1, 20.00th=1, \
             30.00th=1, 40.00th=1, 50.00th=1,\n   | 60.00th=1, 70.00th=1, 80.00th=1, 90.00th=1, \
             95.00th=1, 99.00th=1\n        states               : unwritten=2, trimmed=14, \
             written=0, trim failure=2, write failure=0\n"
        );
    }
}
