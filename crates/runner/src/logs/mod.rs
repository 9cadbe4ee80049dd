//! The log files a job writes, with fio 3.33's names and layouts: `write_lat_log`,
//! `write_bw_log`, `write_iops_log`, `write_hist_log` and `write_iolog`.
//!
//! [`LogPlan`] (the plan's) is what the job's options ask for; [`JobLogs`] opens the files when the job
//! starts, records through a [`JobLog`] (which keeps the rows) and an iolog buffer, and
//! writes the rows out. Nothing on the I/O path allocates: every buffer is sized when the
//! job starts, and a log that holds a full chunk (`log_entries` rows, 16 histogram rows)
//! is formatted and written out at once from the completion point, one `write` per log
//! (fio instead grows its logs in memory and writes them when the job ends). The rest is
//! written when the job ends.
//!
//! File names are fio's: `PREFIX_clat.N.log`, `PREFIX_slat.N.log`, `PREFIX_lat.N.log`,
//! `PREFIX_bw.N.log`, `PREFIX_iops.N.log` and `PREFIX_clat_hist.N.log`, where `PREFIX` is
//! the option's value (the job's name when it has none) and `N` the job's number among all
//! the jobs of the run, from 1, clones included. With `per_job_logs=0` the `.N` is left out
//! and the jobs add their rows to one file, which fio 3.33 opens for appending (a second run
//! adds to the file); with `per_job_logs=1` (the default) each run replaces the file.
//! Every file is created when the job starts, also those that will stay empty (the slat
//! log of a synchronous engine, the histogram log without `log_hist_msec`).

pub(crate) mod agg;
mod file;
mod format;
mod iolog;

pub use file::LogError;
use file::LogFile;

use crate::request::Request;
use iomark_plan::files::FilesPlan;
use iomark_plan::logs::LogPlan;
use iomark_plan::timing::Timing;
use iomark_stats::log::{JobLog, LogConfig, LogKind, LoggedIo};

/// One job's logs while it runs; see the module doc.
pub struct JobLogs {
    log: JobLog,
    /// The row logs' files, by [`LogKind`].
    files: [Option<LogFile>; 5],
    hist_file: Option<LogFile>,
    /// Whether any row or histogram log is kept (the iolog aside).
    rows: bool,
    iolog: Option<iolog::IoLog>,
    /// Still in `ramp_time`: nothing is logged yet.
    ramping: bool,
    /// The clock reading that the log times count from.
    origin_ns: u64,
    /// Milliseconds added to every time (the origin's time on the epoch clock, if any).
    epoch_ms: u64,
    fake: bool,
    /// The clock whose epoch the times count from, if not the job's start.
    epoch_clock: Option<i32>,
    columns: format::Columns,
    /// The text of a chunk, reused.
    text: String,
    /// The first write error.
    error: Option<LogError>,
}

impl JobLogs {
    /// Opens the logs `p` asks for at clock reading `now_ns` (the job's start), if any: those
    /// of the latencies `timing` measures, the iolog naming the job's `files`; `ramping`
    /// says the job begins with a `ramp_time`.
    /// any; `dirs` are the directions the job performs, `fake` says the fake clock runs
    /// (Unix times are then 0 + the log time, so that files are the same on every run).
    pub fn open(
        (p, timing, job_files): (&LogPlan, &Timing, &FilesPlan),
        ramping: bool,
        dirs: [bool; 3],
        fake: bool,
        now_ns: u64,
    ) -> Result<Option<JobLogs>, LogError> {
        if !p.any() {
            return Ok(None);
        }
        let append = !p.per_job;
        let mut files: [Option<LogFile>; 5] = Default::default();
        let mut kinds = [false; 5];
        for kind in LogKind::ALL {
            let prefix = match kind {
                LogKind::Slat | LogKind::Clat | LogKind::Lat => &p.lat,
                LogKind::Bw => &p.bw,
                LogKind::Iops => &p.iops,
            };
            // A latency the job does not measure has no log; without bandwidth (or IOPS)
            // measurement the log is there but stays empty, as in fio 3.33.
            let t = timing;
            let (create, rows) = match kind {
                LogKind::Slat => (t.slat, t.slat),
                LogKind::Clat => (t.clat, t.clat),
                LogKind::Lat => (t.lat, t.lat),
                LogKind::Bw => (true, t.bw_log),
                LogKind::Iops => (true, t.iops_log),
            };
            if let Some(prefix) = prefix.as_ref().filter(|_| create) {
                files[kind as usize] =
                    Some(LogFile::create(p.path(prefix, kind.suffix()), append)?);
                kinds[kind as usize] = rows;
            }
        }
        let hist_file = match &p.hist {
            Some(prefix) => Some(LogFile::create(p.path(prefix, "clat_hist"), append)?),
            None => None,
        };
        let config = LogConfig {
            kinds,
            avg_ms: p.avg_ms,
            max_value: p.max_value,
            hist_ms: if hist_file.is_some() { p.hist_ms } else { 0 },
            hist_coarseness: p.hist_coarseness,
            dirs,
            chunk_rows: p.entries,
        };
        let rows = kinds.contains(&true) || config.hist_ms > 0;
        let iolog = match &p.iolog {
            Some(path) => Some(iolog::IoLog::open(path, job_files, p.entries, now_ns)?),
            None => None,
        };
        let text_capacity = if rows { p.entries * 48 } else { 0 };
        let mut logs = JobLogs {
            log: JobLog::new(config),
            files,
            hist_file,
            rows,
            iolog,
            ramping,
            origin_ns: now_ns,
            epoch_ms: 0,
            fake,
            epoch_clock: p.epoch_clock,
            columns: format::Columns { offset: p.offset, prio_hex: p.prio },
            text: String::with_capacity(text_capacity),
            error: None,
        };
        logs.set_origin(now_ns);
        Ok(Some(logs))
    }

    /// Log times count from `now_ns`; with an epoch clock, from that moment's time on it
    /// (0 under the fake clock). The plan has checked that the clock exists.
    fn set_origin(&mut self, now_ns: u64) {
        self.origin_ns = now_ns;
        if let Some(id) = self.epoch_clock.filter(|_| !self.fake) {
            self.epoch_ms = iomark_engine::system::clock_ms(id).unwrap_or(0);
        }
    }

    /// `ramp_time` is over at `now_ns`: logging starts, with times from here.
    pub fn restart(&mut self, now_ns: u64) {
        self.ramping = false;
        self.log.restart();
        self.set_origin(now_ns);
    }

    /// Files closed at `now_ns`, before the I/O issued then (the iolog's lines).
    #[cold]
    pub(crate) fn closed_files(&mut self, now_ns: u64, files: impl Iterator<Item = usize>) {
        if let Some(iolog) = &mut self.iolog {
            for f in files {
                iolog.closed(now_ns, f);
            }
        }
    }

    /// An I/O issued at `now_ns` (the iolog's line).
    #[inline]
    pub(crate) fn issue(&mut self, now_ns: u64, req: Request) {
        if let Some(iolog) = &mut self.iolog {
            if iolog.record(now_ns, req.file, req.ddir, req.offset, req.len as u64) {
                let r = iolog.drain();
                self.keep_error(r);
            }
        }
    }

    /// A data I/O at `offset` of `file` completed (the iolog's syncs name it).
    #[inline]
    pub fn done(&mut self, file: usize, offset: u64) {
        if let Some(iolog) = &mut self.iolog {
            iolog.done(file, offset);
        }
    }

    /// A data I/O completed at `now_ns`; writes a chunk out when a log is full.
    #[inline]
    pub fn complete(&mut self, now_ns: u64, io: &LoggedIo) {
        if !self.rows || self.ramping {
            return;
        }
        if self.log.record(now_ns.saturating_sub(self.origin_ns), io) {
            self.drain();
        }
    }

    /// Ends the logs at `end_ns`: the last windows, every row, the iolog's closing lines.
    /// Returns the first error met while writing.
    pub fn finish(&mut self, end_ns: u64) -> Result<(), LogError> {
        if self.rows && !self.ramping {
            self.log.finish(end_ns.saturating_sub(self.origin_ns));
        }
        self.drain();
        if let Some(iolog) = &mut self.iolog {
            let r = iolog.finish(end_ns);
            self.keep_error(r);
        }
        match self.error.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Formats and writes every row held, then forgets them.
    fn drain(&mut self) {
        for kind in LogKind::ALL {
            let Some(file) = &mut self.files[kind as usize] else { continue };
            let rows = self.log.rows(kind);
            if rows.is_empty() {
                continue;
            }
            self.text.clear();
            for row in rows {
                format::row(&mut self.text, row, self.epoch_ms, self.columns);
            }
            let r = file.write(&self.text);
            if let (Err(e), None) = (r, &self.error) {
                self.error = Some(e);
            }
        }
        if let Some(file) = &mut self.hist_file {
            self.text.clear();
            for (head, bins) in self.log.hist_rows() {
                format::hist_row(&mut self.text, &head, bins, self.epoch_ms);
            }
            if !self.text.is_empty() {
                let r = file.write(&self.text);
                if let (Err(e), None) = (r, &self.error) {
                    self.error = Some(e);
                }
            }
        }
        self.log.clear_rows();
    }

    fn keep_error(&mut self, r: Result<(), LogError>) {
        if let (Err(e), None) = (r, &self.error) {
            self.error = Some(e);
        }
    }
}
