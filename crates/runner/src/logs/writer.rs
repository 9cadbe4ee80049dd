//! The job's log thread ([`Writer`]): it formats, compresses and writes the rows the job
//! thread hands over, so that none of that runs on the job's I/O thread.
//!
//! The job thread records rows into buffers sized before the run. When a log's buffer is
//! full it takes an empty one from the pool ([`Writer::spare_rows`]), swaps it for the full
//! one ([`JobLog::swap_rows`](iomark_stats::log::JobLog::swap_rows)) and sends the full
//! one down a bounded channel ([`Writer::send`]): no allocation, no lock held, and at most
//! one wake-up of this thread per chunk of `log_entries` rows. This thread writes the
//! rows out (text, or fio's compressed records, [`super::fz`]), empties the buffer and
//! gives it back to the pool. A pool that runs dry (the disk is slower than the job)
//! makes the job thread wait for a buffer: the logs are never cut short.
//!
//! With `log_compression_cpus` the thread runs on those CPUs only.

use super::file::{LogError, LogFile};
use super::format::{self, Columns};
use super::fz::{self, FzFile};
use iomark_stats::log::{HistRows, LogKind, LogRow};
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::thread::JoinHandle;

/// Spare buffers per log, beside the one the job fills: enough for the thread to write
/// one chunk while the job fills the next.
const SPARES: usize = 2;

/// Where one log's rows go.
pub(super) enum Sink {
    /// A text file.
    Text(LogFile),
    /// A compressed file (`log_store_compressed`).
    Compressed(FzFile),
}

/// What the job thread hands over.
enum Chunk {
    /// Rows of one log, and the milliseconds to add to their times.
    Rows(LogKind, Vec<LogRow>, u64),
    /// Histogram rows, and the milliseconds to add to their times.
    Hist(HistRows, u64),
}

/// The job's side of its log thread; see the module doc.
pub(super) struct Writer {
    chunks: Option<SyncSender<Chunk>>,
    spare_rows: Receiver<Vec<LogRow>>,
    spare_hist: Receiver<HistRows>,
    thread: Option<JoinHandle<Result<(), LogError>>>,
}

impl Writer {
    /// Starts the thread writing `sinks` (by [`LogKind`]) and `hist`, with `columns`; the
    /// pools get the spares `rows` and `hist_rows` make (called before the run; they
    /// allocate). With `cpus`, the thread runs on those CPUs.
    pub(super) fn start(
        sinks: [Option<Sink>; 5],
        hist: Option<Sink>,
        columns: Columns,
        cpus: Option<Vec<u32>>,
        (rows, hist_rows): (impl Fn() -> Vec<LogRow>, impl Fn() -> HistRows),
    ) -> Result<Writer, LogError> {
        let logs = sinks.iter().flatten().count();
        let (give_rows, spare_rows) = mpsc::sync_channel(SPARES * logs);
        for _ in 0..SPARES * logs {
            let _ = give_rows.send(rows());
        }
        let (give_hist, spare_hist) = mpsc::sync_channel(SPARES);
        if hist.is_some() {
            for _ in 0..SPARES {
                let _ = give_hist.send(hist_rows());
            }
        }
        let (chunks, received) = mpsc::sync_channel(SPARES * (logs + 1));
        let thread = std::thread::Builder::new()
            .name("iomark-logs".into())
            .spawn(move || {
                if let Some(cpus) = cpus {
                    iomark_engine::thread::set_affinity(&cpus).map_err(LogError::Affinity)?;
                }
                let mut thread = Thread { sinks, hist, columns, text: String::new() };
                thread.run(received, give_rows, give_hist)
            })
            .map_err(LogError::Thread)?;
        Ok(Writer { chunks: Some(chunks), spare_rows, spare_hist, thread: Some(thread) })
    }

    /// An empty row buffer, waiting for one if the thread has not given one back yet;
    /// `None` if the thread has ended (it failed: [`finish`](Self::finish) says why).
    pub(super) fn spare_rows(&mut self) -> Option<Vec<LogRow>> {
        self.spare_rows.recv().ok()
    }

    /// An empty histogram buffer, as [`spare_rows`](Self::spare_rows).
    pub(super) fn spare_hist(&mut self) -> Option<HistRows> {
        self.spare_hist.recv().ok()
    }

    /// Hands over `rows` of log `kind`, to be stamped `epoch_ms` later.
    pub(super) fn send_rows(&mut self, kind: LogKind, rows: Vec<LogRow>, epoch_ms: u64) {
        if let Some(chunks) = &self.chunks {
            let _ = chunks.send(Chunk::Rows(kind, rows, epoch_ms));
        }
    }

    /// Hands over histogram rows, as [`send_rows`](Self::send_rows).
    pub(super) fn send_hist(&mut self, rows: HistRows, epoch_ms: u64) {
        if let Some(chunks) = &self.chunks {
            let _ = chunks.send(Chunk::Hist(rows, epoch_ms));
        }
    }

    /// Lets the thread write what it holds and end; its first error.
    pub(super) fn finish(&mut self) -> Result<(), LogError> {
        self.chunks = None;
        match self.thread.take().map(JoinHandle::join) {
            Some(Ok(result)) => result,
            Some(Err(_)) => Err(LogError::Panicked("log")),
            None => Ok(()),
        }
    }
}

impl Drop for Writer {
    /// A job that ends early (an error) still lets its log thread end.
    fn drop(&mut self) {
        let _ = self.finish();
    }
}

/// The log thread's state.
struct Thread {
    sinks: [Option<Sink>; 5],
    hist: Option<Sink>,
    columns: Columns,
    /// The text of a chunk, reused.
    text: String,
}

impl Thread {
    /// Writes every chunk received, gives the buffers back, and ends when the job's side
    /// closes; the first error (the thread goes on receiving, so that the job never waits
    /// on it).
    fn run(
        &mut self,
        received: Receiver<Chunk>,
        give_rows: SyncSender<Vec<LogRow>>,
        give_hist: SyncSender<HistRows>,
    ) -> Result<(), LogError> {
        let mut result = Ok(());
        for chunk in received {
            match chunk {
                Chunk::Rows(kind, mut rows, epoch_ms) => {
                    let r = self.rows(kind, &rows, epoch_ms);
                    result = result.and(r);
                    rows.clear();
                    let _ = give_rows.try_send(rows);
                }
                Chunk::Hist(mut rows, epoch_ms) => {
                    let r = self.hist(&rows, epoch_ms);
                    result = result.and(r);
                    rows.clear();
                    let _ = give_hist.try_send(rows);
                }
            }
        }
        for sink in self.sinks.iter_mut().chain(std::iter::once(&mut self.hist)).flatten() {
            if let Sink::Compressed(fz) = sink {
                result = result.and(fz.finish());
            }
        }
        result
    }

    fn rows(&mut self, kind: LogKind, rows: &[LogRow], epoch_ms: u64) -> Result<(), LogError> {
        let columns = self.columns;
        match &mut self.sinks[kind as usize] {
            Some(Sink::Text(file)) => {
                self.text.clear();
                for row in rows {
                    format::row(&mut self.text, row, epoch_ms, columns);
                }
                file.write(&self.text)
            }
            Some(Sink::Compressed(fz)) => {
                for row in rows {
                    fz.push(|out| fz::encode(out, row, epoch_ms, columns))?;
                }
                fz.end_chunk()
            }
            None => Ok(()),
        }
    }

    fn hist(&mut self, rows: &HistRows, epoch_ms: u64) -> Result<(), LogError> {
        self.text.clear();
        match &mut self.hist {
            Some(Sink::Text(file)) => {
                for (head, bins) in rows.rows() {
                    format::hist_row(&mut self.text, &head, bins, epoch_ms);
                }
                file.write(&self.text)
            }
            Some(Sink::Compressed(fz)) => {
                for (head, bins) in rows.rows() {
                    self.text.clear();
                    format::hist_row(&mut self.text, &head, bins, epoch_ms);
                    let line = self.text.as_bytes();
                    fz.push(|out| out.extend_from_slice(line))?;
                }
                fz.end_chunk()
            }
            None => Ok(()),
        }
    }
}
