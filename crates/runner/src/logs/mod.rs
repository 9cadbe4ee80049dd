//! The log files a job writes, with fio 3.33's names and layouts: `write_lat_log`,
//! `write_bw_log`, `write_iops_log`, `write_hist_log` and `write_iolog`.
//!
//! [`LogPlan`] (the plan's) is what the job's options ask for; [`JobLogs`] opens the files when the job
//! starts, records through a [`JobLog`] (which keeps the rows) and an iolog buffer, and
//! hands the rows to the job's log thread ([`writer`]), which formats, compresses
//! (`log_store_compressed`, [`fz`]) and writes them. Nothing on the I/O path allocates:
//! every buffer is sized when the job starts, and a log that holds a full chunk
//! (`log_entries` rows, 16 histogram rows) is swapped for an empty buffer and sent to the
//! log thread from the completion point (fio instead grows its logs in memory, compresses
//! them on helper threads with `log_compression`, and writes them when the job ends). The
//! rest is handed over when the job ends. The iolog (`write_iolog`) is formatted and
//! written by the job thread, a chunk of `log_entries` lines at a time.
//!
//! File names are fio's: `PREFIX_clat.N.log`, `PREFIX_slat.N.log`, `PREFIX_lat.N.log`,
//! `PREFIX_bw.N.log`, `PREFIX_iops.N.log` and `PREFIX_clat_hist.N.log`, where `PREFIX` is
//! the option's value (the job's name when it has none) and `N` the job's number among all
//! the jobs of the run, from 1, clones included. With `per_job_logs=0` the `.N` is left out
//! and the jobs add their rows to one file, which fio 3.33 opens for appending (a second run
//! adds to the file); with `per_job_logs=1` (the default) each run replaces the file.
//! Every file is created when the job starts, also those that will stay empty (the slat
//! log of a synchronous engine, the histogram log without `log_hist_msec`). With
//! `log_store_compressed` the names end in `.fz`.

pub(crate) mod agg;
mod file;
mod format;
mod fz;
mod iolog;
mod writer;

pub use file::LogError;
use file::LogFile;
pub use fz::{hist_text, inflate, records_text, InflateError};
use writer::{Sink, Writer};

use crate::request::Request;
use iomark_plan::files::FilesPlan;
use iomark_plan::logs::LogPlan;
use iomark_plan::timing::Timing;
use iomark_stats::log::{JobLog, LogConfig, LogKind, LoggedIo};

/// One job's logs while it runs; see the module doc.
pub struct JobLogs {
    log: JobLog,
    /// The log thread, which writes the row and histogram logs.
    writer: Option<Writer>,
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
    /// The first write error.
    error: Option<LogError>,
}

/// The epoch clock's time now in milliseconds (0 without one, or under the fake clock).
fn epoch_ms(clock: Option<i32>, fake: bool) -> u64 {
    match clock.filter(|_| !fake) {
        Some(id) => iomark_engine::system::clock_ms(id).unwrap_or(0),
        None => 0,
    }
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
        // The epoch clock is read first, next to `now_ns`: opening the files and starting the
        // writer thread below take time (much of it on a busy machine) that would otherwise
        // push every logged time later.
        let epoch_ms = epoch_ms(p.epoch_clock, fake);
        let append = !p.per_job;
        let sink = |path| -> Result<Sink, LogError> {
            let file = LogFile::create(path, append)?;
            Ok(match p.store_compressed {
                true => Sink::Compressed(fz::FzFile::new(file, p.compression)),
                false => Sink::Text(file),
            })
        };
        let mut files: [Option<Sink>; 5] = Default::default();
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
                files[kind as usize] = Some(sink(p.path(prefix, kind.suffix()))?);
                kinds[kind as usize] = rows;
            }
        }
        let hist_file = match &p.hist {
            Some(prefix) => Some(sink(p.path(prefix, "clat_hist"))?),
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
        let log = JobLog::new(config);
        let writer = if files.iter().any(Option::is_some) || hist_file.is_some() {
            let columns = format::Columns { offset: p.offset, prio_hex: p.prio };
            let spares = (|| log.spare_rows(), || log.spare_hist());
            let cpus = p.compression_cpus.clone();
            Some(Writer::start(files, hist_file, columns, cpus, spares)?)
        } else {
            None
        };
        let logs = JobLogs {
            log,
            writer,
            rows,
            iolog,
            ramping,
            origin_ns: now_ns,
            epoch_ms,
            fake,
            epoch_clock: p.epoch_clock,
            error: None,
        };
        Ok(Some(logs))
    }

    /// Log times count from `now_ns`; with an epoch clock, from that moment's time on it
    /// (0 under the fake clock). The plan has checked that the clock exists.
    fn set_origin(&mut self, now_ns: u64) {
        self.origin_ns = now_ns;
        self.epoch_ms = epoch_ms(self.epoch_clock, self.fake);
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

    /// The verify phase begins at `now_ns`: the files found over (`closed`) and then every
    /// file still open are closed (the iolog's lines; the verify reads open them again).
    #[cold]
    pub(crate) fn verify_begins(&mut self, now_ns: u64, closed: impl Iterator<Item = usize>) {
        self.closed_files(now_ns, closed);
        if let Some(iolog) = &mut self.iolog {
            iolog.close_open(now_ns);
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

    /// Ends the logs at `end_ns`: the last windows, every row, the iolog's closing lines;
    /// waits for the log thread to write everything. Returns the first error met while
    /// writing.
    pub fn finish(&mut self, end_ns: u64) -> Result<(), LogError> {
        if self.rows && !self.ramping {
            self.log.finish(end_ns.saturating_sub(self.origin_ns));
        }
        self.drain();
        if let Some(w) = &mut self.writer {
            let r = w.finish();
            self.keep_error(r);
        }
        if let Some(iolog) = &mut self.iolog {
            let r = iolog.finish(end_ns);
            self.keep_error(r);
        }
        match self.error.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Hands every row held to the log thread, each log's buffer swapped for a spare.
    /// Allocates nothing; waits only when the log thread is two chunks behind.
    fn drain(&mut self) {
        let Some(w) = &mut self.writer else {
            self.log.clear_rows();
            return;
        };
        for kind in LogKind::ALL {
            if self.log.rows(kind).is_empty() {
                continue;
            }
            match w.spare_rows() {
                Some(mut rows) => {
                    self.log.swap_rows(kind, &mut rows);
                    w.send_rows(kind, rows, self.epoch_ms);
                }
                // The thread has ended on an error, which finish() reports.
                None => self.log.clear_rows(),
            }
        }
        if self.log.hist_rows().next().is_some() {
            match w.spare_hist() {
                Some(mut rows) => {
                    self.log.swap_hist(&mut rows);
                    w.send_hist(rows, self.epoch_ms);
                }
                None => self.log.clear_rows(),
            }
        }
    }

    fn keep_error(&mut self, r: Result<(), LogError>) {
        if let (Err(e), None) = (r, &self.error) {
            self.error = Some(e);
        }
    }
}
