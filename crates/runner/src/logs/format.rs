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
    let offset = columns.offset.then_some(row.offset);
    let fields = Fields { ddir: u32::from(row.dir), prio: u32::from(row.prio), offset };
    line(out, row.time_ms + epoch_ms, row.value, row.bs, fields, columns.prio_hex);
}

/// The columns of a row whose width varies: fio 3.33's direction and priority words, and
/// the offset when the row has one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Fields {
    /// The direction (0 read, 1 write, 2 trim).
    pub ddir: u32,
    /// The priority, `ioprio_set(2)`'s value.
    pub prio: u32,
    /// The offset column, if the row has one.
    pub offset: Option<u64>,
}

/// Appends one row, `time, value, direction, block size, [offset, ]priority`, and its
/// newline: the priority in hex when `prio_hex`, else `1` for the real-time class and `0`
/// otherwise. The one layout of text logs and of `--inflate-log`'s output.
pub(crate) fn line(out: &mut String, time: u64, value: u64, bs: u64, f: Fields, prio_hex: bool) {
    // Writing to a String cannot fail.
    let _ = write!(out, "{time}, {value}, {}, {bs}, ", f.ddir);
    if let Some(offset) = f.offset {
        let _ = write!(out, "{offset}, ");
    }
    if prio_hex {
        let _ = writeln!(out, "0x{:04x}", f.prio);
    } else {
        let _ = writeln!(out, "{}", u8::from(f.prio >> 13 == 1));
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
