//! fio's log files (`write_bw_log`, `write_iops_log`, `write_lat_log`), as fio 3.33 and
//! iomark write them: `time, value, direction, block size, offset[, priority]` per line,
//! time in milliseconds.
//!
//! The offset column is read when there is one (`log_offset`); the priority is not read.
//!
//! A log with a row per I/O (`log_avg_msec=0`: rows with a block size) gives, for a latency
//! log, the per-I/O trace of seed 002 (each I/O completed at its row's time and submitted
//! its latency earlier; times to the millisecond, as fio logs them) and a latency curve;
//! bandwidth and IOPS rows per I/O are summed per second. Windowed rows (`log_avg_msec=W`,
//! block size 0) are curves as they are.

use crate::model::{IoTrace, Metric, Run, TracedIo};
use std::path::Path;

/// Why a log could not be read.
#[derive(Debug, thiserror::Error)]
pub enum LogError {
    /// The file could not be read.
    #[error("{path}: {source}")]
    Read {
        /// The file.
        path: String,
        /// The error.
        source: std::io::Error,
    },
    /// A line is not a log row.
    #[error("{path}:{line}: not a row of a fio log: '{text}'")]
    Row {
        /// The file.
        path: String,
        /// The line number, from 1.
        line: usize,
        /// The line.
        text: String,
    },
    /// The file name is not a log's (`NAME_bw.log`, `NAME_lat.1.log`…).
    #[error("{0}: not a fio log name (NAME_bw, _iops, _lat, _clat or _slat, then [.N].log)")]
    Name(String),
}

/// What a log holds, from its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogKind {
    /// Bandwidth.
    Bw,
    /// IOPS.
    Iops,
    /// Total latency.
    Lat,
    /// Completion latency.
    Clat,
    /// Submission latency.
    Slat,
}

/// One row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Row {
    /// Milliseconds.
    pub time_ms: u64,
    /// The value.
    pub value: u64,
    /// 0 read, 1 write, 2 trim.
    pub dir: u8,
    /// Block size, 0 in windowed rows.
    pub bs: u64,
    /// Offset, when logged.
    pub offset: u64,
}

/// The job name (the prefix) and the kind of a log, from its file name.
pub fn name_of(path: &Path) -> Result<(String, LogKind), LogError> {
    let file = path.file_name().and_then(|f| f.to_str()).unwrap_or("");
    let bad = || LogError::Name(path.display().to_string());
    let stem = file.strip_suffix(".log").ok_or_else(bad)?;
    // `PREFIX_KIND.N` or `PREFIX_KIND`.
    let stem = match stem.rsplit_once('.') {
        Some((head, n)) if n.chars().all(|c| c.is_ascii_digit()) && !n.is_empty() => head,
        _ => stem,
    };
    let kinds = [
        ("_clat", LogKind::Clat),
        ("_slat", LogKind::Slat),
        ("_lat", LogKind::Lat),
        ("_iops", LogKind::Iops),
        ("_bw", LogKind::Bw),
    ];
    kinds
        .iter()
        .find_map(|(suffix, kind)| stem.strip_suffix(suffix).map(|job| (job.to_string(), *kind)))
        .filter(|(job, _)| !job.is_empty())
        .ok_or_else(bad)
}

/// The rows of a log's text; `path` names it in errors.
pub fn rows(text: &str, path: &str) -> Result<Vec<Row>, LogError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let bad = || LogError::Row { path: path.to_string(), line: i + 1, text: line.to_string() };
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        let num = |k: usize| -> Result<u64, LogError> {
            match fields.get(k) {
                Some(f) => f.parse().map_err(|_| bad()),
                None => Ok(0),
            }
        };
        if fields.len() < 3 {
            return Err(bad());
        }
        let dir = u8::try_from(num(2)?).ok().filter(|d| *d < 3).ok_or_else(bad)?;
        // `time, value, dir, bs, prio`, or with `log_offset` the offset before the priority.
        let offset = if fields.len() >= 6 { num(4)? } else { 0 };
        out.push(Row { time_ms: num(0)?, value: num(1)?, dir, bs: num(3)?, offset });
    }
    Ok(out)
}

/// Reads the log at `path` into `run`: its curves, and its trace if it is a per-I/O
/// latency log (a `lat` log, else a `clat` one: [`Run::traces`] keeps one per job).
pub fn read_into(run: &mut Run, path: &Path) -> Result<(), LogError> {
    let (job, kind) = name_of(path)?;
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path)
        .map_err(|source| LogError::Read { path: shown.clone(), source })?;
    add_rows(run, &job, kind, &rows(&text, &shown)?);
    Ok(())
}

/// Adds a log's rows to `run` (see [`read_into`]).
pub fn add_rows(run: &mut Run, job: &str, kind: LogKind, rows: &[Row]) {
    let per_io = !rows.is_empty() && rows.iter().all(|r| r.bs > 0);
    let latency = match kind {
        LogKind::Lat => Some("lat"),
        LogKind::Clat => Some("clat"),
        LogKind::Slat => Some("slat"),
        _ => None,
    };
    match (latency, per_io) {
        (Some(name), _) => {
            for r in rows {
                let t = r.time_ms as f64 / 1000.0;
                run.curve(job, usize::from(r.dir), Metric::Latency(name)).push(t, r.value as f64);
            }
            if per_io && kind != LogKind::Slat {
                add_trace(run, job, kind, rows);
            }
        }
        (None, false) => {
            for r in rows {
                let t = r.time_ms as f64 / 1000.0;
                let (metric, v) = match kind {
                    LogKind::Bw => (Metric::Bandwidth, r.value as f64 * 1024.0),
                    _ => (Metric::Iops, r.value as f64),
                };
                run.curve(job, usize::from(r.dir), metric).push(t, v);
            }
        }
        (None, true) => {
            // A row per I/O: summed per second (bytes for bandwidth, I/Os for IOPS).
            let mut sums: Vec<(usize, u64, f64)> = Vec::new();
            for r in rows {
                let (d, second) = (usize::from(r.dir), r.time_ms / 1000);
                let add = if kind == LogKind::Bw { r.bs as f64 } else { 1.0 };
                match sums.iter_mut().find(|s| s.0 == d && s.1 == second) {
                    Some(s) => s.2 += add,
                    None => sums.push((d, second, add)),
                }
            }
            let metric = if kind == LogKind::Bw { Metric::Bandwidth } else { Metric::Iops };
            for (d, second, v) in sums {
                run.curve(job, d, metric).push(second as f64 + 1.0, v);
            }
        }
    }
}

fn add_trace(run: &mut Run, job: &str, kind: LogKind, rows: &[Row]) {
    if let Some(at) = run.traces.iter().position(|t| t.job == job) {
        // A lat log's trace (from the start) wins over a clat log's (from the submission).
        if kind != LogKind::Lat {
            return;
        }
        run.traces.remove(at);
    }
    let mut ios: Vec<TracedIo> = rows
        .iter()
        .map(|r| {
            let complete_ns = r.time_ms * 1_000_000;
            TracedIo {
                submit_ns: complete_ns.saturating_sub(r.value),
                complete_ns,
                dir: r.dir,
                offset: r.offset,
            }
        })
        .collect();
    ios.sort_by_key(|io| (io.submit_ns, io.offset));
    run.traces.push(IoTrace { job: job.to_string(), ios, resolution_ns: 1_000_000 });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_give_the_job_and_the_kind() {
        let n = |s: &str| name_of(Path::new(s)).ok();
        assert_eq!(n("seq_write_lat.1.log"), Some(("seq_write".into(), LogKind::Lat)));
        assert_eq!(n("/d/j_clat.log"), Some(("j".into(), LogKind::Clat)));
        assert_eq!(n("a_b_iops.12.log"), Some(("a_b".into(), LogKind::Iops)));
        assert_eq!(n("agg-read_bw.log"), Some(("agg-read".into(), LogKind::Bw)));
        assert_eq!(n("x.log"), None);
        assert_eq!(n("_bw.log"), None);
    }

    #[test]
    fn a_per_io_lat_log_is_a_trace_in_submission_order() {
        let text = "3, 2500000, 1, 512, 1024, 0\n1, 400000, 1, 512, 0, 0\n2, 100000, 1, 512, 512, 0x0000\n";
        let rows = rows(text, "t").expect("rows");
        let mut run = Run::new("r", crate::input::empty_report());
        add_rows(&mut run, "j", LogKind::Lat, &rows);
        let trace = &run.traces[0];
        let submits: Vec<u64> = trace.ios.iter().map(|io| io.submit_ns).collect();
        assert_eq!(submits, [500_000, 600_000, 1_900_000]);
        assert_eq!(trace.ios[0].complete_ns, 3_000_000);
        assert_eq!(trace.resolution_ns, 1_000_000);
    }

    #[test]
    fn windowed_rows_are_curves_and_per_io_rates_are_summed_per_second() {
        let mut run = Run::new("r", crate::input::empty_report());
        add_rows(
            &mut run,
            "j",
            LogKind::Bw,
            &rows("500, 100, 0, 0, 0\n1000, 200, 0, 0, 0\n", "b").unwrap(),
        );
        assert_eq!(run.curves[0].points, [(0.5, 102_400.0), (1.0, 204_800.0)]);
        add_rows(
            &mut run,
            "j",
            LogKind::Iops,
            &rows("10, 1, 0, 4096\n20, 1, 0, 4096\n1500, 1, 0, 4096\n", "i").unwrap(),
        );
        assert_eq!(run.curves[1].points, [(1.0, 2.0), (2.0, 1.0)]);
    }

    #[test]
    fn a_bad_row_names_its_file_and_line() {
        let e = rows("1, 2, 0\nnot, a, row\n", "f.log").unwrap_err();
        assert_eq!(e.to_string(), "f.log:2: not a row of a fio log: 'not, a, row'");
        assert!(rows("1, 2, 7\n", "f.log").is_err(), "direction 7");
    }
}
