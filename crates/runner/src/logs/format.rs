//! The text of log rows, as fio 3.33 writes them.
//!
//! A row of a latency, bandwidth or IOPS log is `time, value, direction, block size,
//! priority`, with the offset before the priority under `log_offset=1`. The priority is
//! fio 3.33's: by default `1` for an I/O of the real-time class and `0` otherwise; under
//! `log_prio=1` the I/O's priority in hex (`0x2003`: class 1, level 3), the job's own
//! (`prioclass`, `prio`) where `cmdprio_*` gave the I/O none. Averaged rows
//! (`log_avg_msec`) write `0` or `0x0000`, as fio's do. A histogram row is `time,
//! direction, block size` and the bins.

use iomark_stats::log::{HistRowHead, LogRow};
use std::fmt::Write;

/// The optional columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Columns {
    /// `log_offset`: the offset column.
    pub offset: bool,
    /// `log_prio`: the priority in hex.
    pub prio_hex: bool,
}

/// Appends one row and its newline; `epoch_ms` is added to the time.
pub(crate) fn row(out: &mut String, row: &LogRow, epoch_ms: u64, columns: Columns) {
    let time = row.time_ms + epoch_ms;
    // Writing to a String cannot fail.
    let _ = write!(out, "{time}, {}, {}, {}, ", row.value, row.dir, row.bs);
    if columns.offset {
        let _ = write!(out, "{}, ", row.offset);
    }
    if columns.prio_hex {
        let _ = writeln!(out, "0x{:04x}", row.prio);
    } else {
        let _ = writeln!(out, "{}", u8::from(row.prio >> 13 == 1));
    }
}

/// Appends one histogram row and its newline.
pub(crate) fn hist_row(out: &mut String, head: &HistRowHead, bins: &[u64], epoch_ms: u64) {
    let _ = write!(out, "{}, {}, {}", head.time_ms + epoch_ms, head.dir, head.bs);
    for b in bins {
        let _ = write!(out, ", {b}");
    }
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    const ROW: LogRow =
        LogRow { time_ms: 12, value: 10740, dir: 1, bs: 4096, offset: 61440, prio: 0 };

    #[test]
    fn rows_have_fios_columns() {
        let cases = [
            (Columns { offset: false, prio_hex: false }, "12, 10740, 1, 4096, 0\n"),
            (Columns { offset: true, prio_hex: false }, "12, 10740, 1, 4096, 61440, 0\n"),
            (Columns { offset: false, prio_hex: true }, "12, 10740, 1, 4096, 0x0000\n"),
            (Columns { offset: true, prio_hex: true }, "12, 10740, 1, 4096, 61440, 0x0000\n"),
        ];
        for (columns, expected) in cases {
            let mut s = String::new();
            row(&mut s, &ROW, 0, columns);
            assert_eq!(s, expected, "{columns:?}");
        }
        let mut s = String::new();
        row(&mut s, &ROW, 1_795_321_656_973, Columns::default());
        assert!(s.starts_with("1795321656985, "), "{s}");
    }

    #[test]
    fn histogram_rows_list_their_bins() {
        let mut s = String::new();
        hist_row(&mut s, &HistRowHead { time_ms: 101, dir: 0, bs: 4096 }, &[5, 0, 7], 0);
        assert_eq!(s, "101, 0, 4096, 5, 0, 7\n");
    }
}
