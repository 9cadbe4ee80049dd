//! [`JobLog`]: the rows of one job's latency, bandwidth, IOPS and histogram logs (fio's
//! `write_lat_log`, `write_bw_log`, `write_iops_log` and `write_hist_log`), recorded at the
//! runner's single completion point.
//!
//! This module records rows and never formats or writes them; the runner drains the rows
//! into the log files. All memory is allocated by [`JobLog::new`]: each log holds up to
//! `chunk_rows` rows (fio's `log_entries`) plus a little headroom, and
//! [`JobLog::record`] answers whether a log is full, so that the runner hands the chunk
//! on before the next I/O: it swaps the full buffer for an empty one of the same size
//! ([`JobLog::swap_rows`], [`JobLog::swap_hist`]; spares from [`JobLog::spare_rows`] and
//! [`JobLog::spare_hist`], made before the run) and gives the full one to the thread that
//! writes the logs. Recording itself never allocates, locks or makes a system call.
//!
//! What a row holds follows fio 3.33, measured against it:
//!
//! - Times are milliseconds since the log's origin (the job's start, or the end of
//!   `ramp_time`); I/Os of the ramp are not logged. Windows are measured in these whole
//!   (truncated) milliseconds, as fio measures them.
//! - With `log_avg_msec=0` every I/O has a row in each log: its latency in nanoseconds
//!   (slat only where the engine measures one), its bandwidth `bytes × 10^6 / clat` (in
//!   bytes per millisecond, which is what fio 3.33 writes for a single I/O), and `1` for
//!   IOPS, with its block size and offset.
//! - With `log_avg_msec=W` time is cut into windows of `W` ms from the origin. A latency
//!   window is closed by the first completion at or after its end: each direction that
//!   completed I/Os in it gets one row with their mean (or, with `log_max_value`, their
//!   largest) latency, stamped with the closing completion's time; that completion belongs
//!   to the next window. The last, partial window is written when the job ends, stamped
//!   with the job's end. Bandwidth (KiB/s) and IOPS rows are taken at the first completion
//!   at or after each window's end, over the time since the previous sample, for each
//!   direction that moved; the partial window at the end is not logged (as in fio).
//!   Windowed rows have block size and offset 0.
//! - Histogram rows (`log_hist_msec=H`) are taken at the first completion `H` ms or more
//!   after the previous one (the window restarts there, as in fio 3.33): one row per
//!   direction the job performs, with the completion latencies of the window in fio's bins
//!   ([`fio_hist`]); no row for the partial window at the end (as in fio).

pub mod fio_hist;

use crate::hist::LatHistogram;
use fio_hist::{coarse_bins, FIO_HIST_BINS};
use iomark_core::Ddir;

const NS_PER_MS: u64 = 1_000_000;
/// Rows one [`JobLog::record`] call may add to one log at most (one per direction).
const HEADROOM: usize = 3;
/// Histogram rows held before the histogram log asks to be written out.
const HIST_CHUNK: usize = 16;

/// The logs of rows, by their file suffix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogKind {
    /// Submission latency (`NAME_slat.N.log`).
    Slat = 0,
    /// Completion latency (`NAME_clat.N.log`).
    Clat = 1,
    /// Total latency (`NAME_lat.N.log`).
    Lat = 2,
    /// Bandwidth (`NAME_bw.N.log`).
    Bw = 3,
    /// IOPS (`NAME_iops.N.log`).
    Iops = 4,
}

impl LogKind {
    /// All five, in order.
    pub const ALL: [LogKind; 5] =
        [LogKind::Slat, LogKind::Clat, LogKind::Lat, LogKind::Bw, LogKind::Iops];

    /// The file name's suffix: `slat`, `clat`, `lat`, `bw`, `iops`.
    pub fn suffix(self) -> &'static str {
        ["slat", "clat", "lat", "bw", "iops"][self as usize]
    }
}

/// One row of a latency, bandwidth or IOPS log.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LogRow {
    /// Milliseconds since the log's origin.
    pub time_ms: u64,
    /// Latency in ns, bandwidth, or IOPS.
    pub value: u64,
    /// 0 read, 1 write, 2 trim.
    pub dir: u8,
    /// The I/O's block size (0 in windowed logs).
    pub bs: u64,
    /// The I/O's offset in its file (0 in windowed logs).
    pub offset: u64,
    /// The I/O's priority, `ioprio_set(2)`'s value (0 in windowed logs).
    pub prio: u16,
}

/// The head of one histogram row; its bins come beside it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct HistRowHead {
    /// Milliseconds since the log's origin.
    pub time_ms: u64,
    /// 0 read, 1 write, 2 trim.
    pub dir: u8,
    /// The block size of the direction's last I/O.
    pub bs: u64,
}

/// Histogram rows: their heads, and their bins one row after the other.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HistRows {
    /// The rows' heads.
    pub heads: Vec<HistRowHead>,
    /// The bins of every row, `width` per row.
    pub bins: Vec<u64>,
    /// Bins per row.
    pub width: usize,
}

impl HistRows {
    /// Room for `rows` rows of `width` bins.
    fn with_capacity(rows: usize, width: usize) -> Self {
        HistRows { heads: Vec::with_capacity(rows), bins: Vec::with_capacity(rows * width), width }
    }

    /// Each row's head with its bins.
    pub fn rows(&self) -> impl Iterator<Item = (HistRowHead, &[u64])> {
        self.heads.iter().zip(self.bins.chunks(self.width.max(1))).map(|(h, b)| (*h, b))
    }

    /// Whether there is no row.
    pub fn is_empty(&self) -> bool {
        self.heads.is_empty()
    }

    /// Forgets the rows; keeps the allocations.
    pub fn clear(&mut self) {
        self.heads.clear();
        self.bins.clear();
    }
}

/// Which logs a job keeps, and how.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LogConfig {
    /// Which row logs are kept, indexed by [`LogKind`].
    pub kinds: [bool; 5],
    /// `log_avg_msec`: 0 for a row per I/O, else the window in ms.
    pub avg_ms: u64,
    /// `log_max_value`: windows report their largest latency instead of the mean.
    pub max_value: bool,
    /// `log_hist_msec` when a histogram log is written, else 0.
    pub hist_ms: u64,
    /// `log_hist_coarseness`.
    pub hist_coarseness: u32,
    /// The directions the job performs (histogram rows are written for these).
    pub dirs: [bool; 3],
    /// Rows a log holds before it asks to be written out (`log_entries`, at least 1).
    pub chunk_rows: usize,
}

impl Default for LogConfig {
    /// No log at all.
    fn default() -> Self {
        LogConfig {
            kinds: [false; 5],
            avg_ms: 0,
            max_value: false,
            hist_ms: 0,
            hist_coarseness: 0,
            dirs: [true, false, false],
            chunk_rows: 1024,
        }
    }
}

/// One completed I/O, as the logs see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LoggedIo {
    /// Its direction.
    pub dir: Ddir,
    /// Bytes transferred.
    pub bytes: u64,
    /// Its block size (bytes asked for).
    pub bs: u64,
    /// Its offset in its file.
    pub offset: u64,
    /// Submission latency, where measured.
    pub slat_ns: Option<u64>,
    /// Completion latency.
    pub clat_ns: Option<u64>,
    /// Total latency.
    pub lat_ns: Option<u64>,
    /// Its priority, `ioprio_set(2)`'s value (class << 13 | level), 0 for none.
    pub prio: u16,
}

/// The sum, count and largest value of one direction's latencies in a window.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Window {
    sum: u128,
    count: u64,
    max: u64,
}

/// Everything one job's logs record; see the module doc.
#[derive(Debug, Clone)]
pub struct JobLog {
    config: LogConfig,
    rows: [Vec<LogRow>; 5],
    /// Latency windows, per latency log (slat, clat, lat) and direction.
    windows: [[Window; 3]; 3],
    /// The end of the current latency window, ms since the origin.
    window_end_ms: u64,
    /// Bytes and I/Os per direction since the last rate sample.
    moved: [[u64; 3]; 2],
    /// The last rate sample, ms since the origin.
    sampled_ms: u64,
    /// When the next rate sample is due, ms since the origin.
    sample_due_ms: u64,
    hist: Option<HistLog>,
}

impl JobLog {
    /// The logs of one job; allocates every buffer they will use.
    pub fn new(config: LogConfig) -> Self {
        let chunk = config.chunk_rows.max(1);
        let config = LogConfig { chunk_rows: chunk, ..config };
        let rows = LogKind::ALL.map(|k| {
            Vec::with_capacity(if config.kinds[k as usize] { chunk + HEADROOM } else { 0 })
        });
        let hist = (config.hist_ms > 0).then(|| HistLog::new(&config));
        let mut log = JobLog {
            config,
            rows,
            windows: [[Window::default(); 3]; 3],
            window_end_ms: 0,
            moved: [[0; 3]; 2],
            sampled_ms: 0,
            sample_due_ms: 0,
            hist,
        };
        log.restart();
        log
    }

    /// The configuration.
    pub fn config(&self) -> &LogConfig {
        &self.config
    }

    /// Forgets every row and restarts every window at the origin (the end of
    /// `ramp_time`). Keeps every allocation.
    pub fn restart(&mut self) {
        self.clear_rows();
        self.windows = [[Window::default(); 3]; 3];
        self.window_end_ms = self.config.avg_ms;
        self.moved = [[0; 3]; 2];
        self.sampled_ms = 0;
        self.sample_due_ms = self.config.avg_ms;
        if let Some(h) = &mut self.hist {
            h.restart();
        }
    }

    /// Records one I/O completed `t_ns` after the origin; returns true when a log is full
    /// and must be drained ([`rows`](Self::rows), [`hist_rows`](Self::hist_rows), then
    /// [`clear_rows`](Self::clear_rows)) before the next call. Never allocates.
    #[inline]
    pub fn record(&mut self, t_ns: u64, io: &LoggedIo) -> bool {
        // Windows are measured in whole milliseconds, as fio measures them.
        let t_ms = t_ns / NS_PER_MS;
        if self.config.avg_ms == 0 {
            self.per_io(t_ms, io);
        } else {
            self.windowed(t_ms, io);
        }
        if let Some(h) = &mut self.hist {
            h.record(t_ms, io);
        }
        self.is_full()
    }

    /// Ends the logs at `t_ns` after the origin: writes the partial latency windows.
    pub fn finish(&mut self, t_ns: u64) {
        if self.config.avg_ms > 0 {
            self.close_windows(t_ns / NS_PER_MS);
        }
    }

    /// Whether a log holds a full chunk.
    pub fn is_full(&self) -> bool {
        self.rows.iter().any(|r| r.len() >= self.config.chunk_rows)
            || self.hist.as_ref().is_some_and(|h| h.rows.heads.len() >= HIST_CHUNK)
    }

    /// The rows of one log not yet drained.
    pub fn rows(&self, kind: LogKind) -> &[LogRow] {
        &self.rows[kind as usize]
    }

    /// The histogram rows not yet drained, with their bins.
    pub fn hist_rows(&self) -> impl Iterator<Item = (HistRowHead, &[u64])> {
        self.hist.iter().flat_map(|h| h.rows.rows())
    }

    /// Forgets the rows drained; keeps the allocations and the windows.
    pub fn clear_rows(&mut self) {
        self.rows.iter_mut().for_each(Vec::clear);
        if let Some(h) = &mut self.hist {
            h.rows.clear();
        }
    }

    /// An empty buffer that [`swap_rows`](Self::swap_rows) takes: room for a full chunk.
    /// Allocates; make the spares before the run.
    pub fn spare_rows(&self) -> Vec<LogRow> {
        Vec::with_capacity(self.config.chunk_rows + HEADROOM)
    }

    /// Hands over the rows of log `kind` in `spare`, and keeps `spare`'s room (an empty
    /// buffer from [`spare_rows`](Self::spare_rows), or one handed over before and
    /// emptied) for the next rows. Never allocates.
    pub fn swap_rows(&mut self, kind: LogKind, spare: &mut Vec<LogRow>) {
        spare.clear();
        std::mem::swap(&mut self.rows[kind as usize], spare);
    }

    /// An empty buffer that [`swap_hist`](Self::swap_hist) takes, as
    /// [`spare_rows`](Self::spare_rows) for the histogram log.
    pub fn spare_hist(&self) -> HistRows {
        let width = self.hist.as_ref().map_or(0, |h| h.rows.width);
        HistRows::with_capacity(HIST_CHUNK + HEADROOM, width)
    }

    /// Hands over the histogram rows in `spare`, as [`swap_rows`](Self::swap_rows) does.
    pub fn swap_hist(&mut self, spare: &mut HistRows) {
        spare.clear();
        if let Some(h) = &mut self.hist {
            std::mem::swap(&mut h.rows, spare);
        }
    }

    fn per_io(&mut self, t_ms: u64, io: &LoggedIo) {
        let row = |value| LogRow {
            time_ms: t_ms,
            value,
            dir: io.dir as u8,
            bs: io.bs,
            offset: io.offset,
            prio: io.prio,
        };
        let k = self.config.kinds;
        let lats = [io.slat_ns, io.clat_ns, io.lat_ns];
        for (i, lat) in lats.iter().enumerate() {
            if let (true, Some(ns)) = (k[i], lat) {
                self.rows[i].push(row(*ns));
            }
        }
        if k[LogKind::Bw as usize] {
            // fio 3.33: the I/O's bytes over its completion latency, per millisecond.
            let ns = io.clat_ns.or(io.lat_ns).unwrap_or(1).max(1);
            let rate = u128::from(io.bytes) * u128::from(NS_PER_MS) / u128::from(ns);
            self.rows[LogKind::Bw as usize].push(row(u64::try_from(rate).unwrap_or(u64::MAX)));
        }
        if k[LogKind::Iops as usize] {
            self.rows[LogKind::Iops as usize].push(row(1));
        }
    }

    fn windowed(&mut self, t_ms: u64, io: &LoggedIo) {
        let k = self.config.kinds;
        let window = self.config.avg_ms;
        let d = io.dir.index();
        if k[..3].contains(&true) {
            if t_ms >= self.window_end_ms {
                self.close_windows(t_ms);
                self.window_end_ms = (t_ms / window + 1) * window;
            }
            for (i, lat) in [io.slat_ns, io.clat_ns, io.lat_ns].iter().enumerate() {
                if let (true, Some(ns)) = (k[i], lat) {
                    let w = &mut self.windows[i][d];
                    w.sum += u128::from(*ns);
                    w.count += 1;
                    w.max = w.max.max(*ns);
                }
            }
        }
        if k[LogKind::Bw as usize] || k[LogKind::Iops as usize] {
            self.moved[0][d] += io.bytes;
            self.moved[1][d] += 1;
            if t_ms >= self.sample_due_ms {
                self.sample_rates(t_ms);
                self.sample_due_ms = (t_ms / window + 1) * window;
            }
        }
    }

    /// One row per latency log and direction with samples, stamped `time_ms`.
    fn close_windows(&mut self, time_ms: u64) {
        for i in 0..3 {
            for d in 0..3 {
                let w = std::mem::take(&mut self.windows[i][d]);
                if w.count == 0 || !self.config.kinds[i] {
                    continue;
                }
                let value = if self.config.max_value {
                    w.max
                } else {
                    u64::try_from(w.sum / u128::from(w.count)).unwrap_or(u64::MAX)
                };
                self.rows[i].push(LogRow {
                    time_ms,
                    value,
                    dir: d as u8,
                    bs: 0,
                    offset: 0,
                    prio: 0,
                });
            }
        }
    }

    /// Bandwidth (KiB/s) and IOPS since the last sample, for each direction that moved.
    fn sample_rates(&mut self, time_ms: u64) {
        let spent_ms = time_ms - self.sampled_ms;
        for (kind, moved, scale) in [(LogKind::Bw, 0, 1024), (LogKind::Iops, 1, 1)] {
            for d in 0..3 {
                let delta = std::mem::take(&mut self.moved[moved][d]);
                if delta == 0 || !self.config.kinds[kind as usize] {
                    continue;
                }
                let value = if spent_ms == 0 {
                    0
                } else {
                    u128::from(delta) * 1000 / u128::from(spent_ms) / scale
                };
                let value = u64::try_from(value).unwrap_or(u64::MAX);
                let row = LogRow { time_ms, value, dir: d as u8, bs: 0, offset: 0, prio: 0 };
                self.rows[kind as usize].push(row);
            }
        }
        self.sampled_ms = time_ms;
    }
}

/// The histogram log: per direction, iomark's histogram of the window's completion
/// latencies, folded into fio's bins when the window closes.
#[derive(Debug, Clone)]
struct HistLog {
    window_ms: u64,
    coarseness: u32,
    started_ms: u64,
    hists: [Option<LatHistogram>; 3],
    last_bs: [u64; 3],
    fine: Box<[u64; FIO_HIST_BINS]>,
    rows: HistRows,
}

impl HistLog {
    fn new(config: &LogConfig) -> Self {
        let nbins = coarse_bins(config.hist_coarseness);
        let rows = HIST_CHUNK + HEADROOM;
        HistLog {
            window_ms: config.hist_ms,
            coarseness: config.hist_coarseness,
            started_ms: 0,
            hists: [0, 1, 2].map(|d| config.dirs[d].then(LatHistogram::new)),
            last_bs: [0; 3],
            fine: Box::new([0; FIO_HIST_BINS]),
            rows: HistRows::with_capacity(rows, nbins),
        }
    }

    fn restart(&mut self) {
        self.started_ms = 0;
        self.hists.iter_mut().flatten().for_each(LatHistogram::clear);
        self.rows.clear();
    }

    #[inline]
    fn record(&mut self, t_ms: u64, io: &LoggedIo) {
        let d = io.dir.index();
        if let (Some(h), Some(ns)) = (&mut self.hists[d], io.clat_ns) {
            h.record(ns);
        }
        self.last_bs[d] = io.bs;
        if t_ms.saturating_sub(self.started_ms) >= self.window_ms {
            self.close(t_ms);
            self.started_ms = t_ms;
        }
    }

    /// One row per direction: the window's counts in fio's bins; the window restarts.
    fn close(&mut self, time_ms: u64) {
        for d in 0..3 {
            let Some(h) = &mut self.hists[d] else { continue };
            self.fine.fill(0);
            fio_hist::fold(h, &mut self.fine);
            h.clear();
            let rows = &mut self.rows;
            let at = rows.bins.len();
            rows.bins.resize(at + rows.width, 0);
            fio_hist::coarsen(&self.fine, self.coarseness, &mut rows.bins[at..]);
            rows.heads.push(HistRowHead { time_ms, dir: d as u8, bs: self.last_bs[d] });
        }
    }
}

#[cfg(test)]
mod tests;
