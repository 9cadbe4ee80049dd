//! fio 3.33's compressed logs (`log_store_compressed`, files `NAME_clat.1.log.fz`), written
//! and read back (`--inflate-log`).
//!
//! The layout, learnt from the files fio 3.33 writes (hexdumps and zlib): a file is a
//! sequence of zlib streams, nothing around them. Each stream decompresses to whole binary
//! records, one per log row, little-endian:
//!
//! ```text
//! u64 time (ms, the epoch added)   u64 value   u32 direction | flags   u32 priority
//! u64 block size                   [u64 offset, when the flags say so]
//! ```
//!
//! Flag bit 31 says the record carries an offset (`log_offset`, 40 bytes instead of 32);
//! bit 30 says the priority column is printed in hex (`log_prio`). fio reads each stream
//! on its own: a record cut by the end of a stream is dropped, and the next stream starts
//! at a record. So every stream iomark writes holds whole records, at most
//! `log_compression` bytes of them (one stream per chunk of `log_entries` rows without
//! it); fio's own streams follow its in-memory arrays (1024, 2048, 4096… records, and
//! some empty streams).
//!
//! fio 3.33 stores histogram rows (`write_hist_log`) in the same records with the address
//! of the row's bins in memory as the value, so its `--inflate-log` prints addresses, not
//! bins. iomark stores the histogram log's text rows in the zlib streams instead, whole
//! lines per stream; its `--inflate-log` prints them back (a stream without a NUL byte is
//! text: every binary record holds NUL bytes, in its block size's upper bytes), and fio's
//! prints garbage for them as for its own.

use super::file::{LogError, LogFile};
use super::format::{self, Fields};
use flate2::write::ZlibEncoder;
use flate2::Compression;
use iomark_stats::log::LogRow;
use std::io::{self, BufRead, Read, Write};

/// Flag of the direction word: the record carries an offset.
const FLAG_OFFSET: u32 = 1 << 31;
/// Flag of the direction word: the priority is printed in hex.
const FLAG_PRIO_HEX: u32 = 1 << 30;
/// A record without an offset, in bytes.
const RECORD: usize = 32;
/// A record with an offset, in bytes.
const RECORD_WITH_OFFSET: usize = 40;

/// Appends `row`'s binary record (see the module doc); `epoch_ms` is added to its time.
pub(crate) fn encode(out: &mut Vec<u8>, row: &LogRow, epoch_ms: u64, columns: format::Columns) {
    let mut ddir = u32::from(row.dir);
    if columns.offset {
        ddir |= FLAG_OFFSET;
    }
    if columns.prio_hex {
        ddir |= FLAG_PRIO_HEX;
    }
    out.extend_from_slice(&(row.time_ms + epoch_ms).to_le_bytes());
    out.extend_from_slice(&row.value.to_le_bytes());
    out.extend_from_slice(&ddir.to_le_bytes());
    out.extend_from_slice(&u32::from(row.prio).to_le_bytes());
    out.extend_from_slice(&row.bs.to_le_bytes());
    if columns.offset {
        out.extend_from_slice(&row.offset.to_le_bytes());
    }
}

/// A compressed log being written: pieces (records, or text lines) gathered and written
/// as zlib streams of whole pieces, each at most `chunk` bytes before compression (at
/// least one piece). A log without rows gets one empty stream, as fio 3.33 writes for
/// most of its (an empty file is no compressed log to fio's `--inflate-log`).
pub(crate) struct FzFile {
    file: LogFile,
    chunk: Option<usize>,
    /// Whether a stream has been written.
    written: bool,
    /// Pieces not yet compressed.
    raw: Vec<u8>,
    /// A stream, reused.
    packed: Vec<u8>,
}

impl FzFile {
    /// Writes to `file`; streams of at most `chunk` bytes, or one per [`end_chunk`] call.
    ///
    /// [`end_chunk`]: FzFile::end_chunk
    pub(crate) fn new(file: LogFile, chunk: Option<usize>) -> FzFile {
        let room = chunk.unwrap_or(64 << 10).min(1 << 20);
        FzFile { file, chunk, written: false, raw: Vec::with_capacity(room), packed: Vec::new() }
    }

    /// Adds one piece, made by `piece` appending to a buffer; writes a stream first when
    /// the piece would not fit in the current one.
    pub(crate) fn push(&mut self, piece: impl FnOnce(&mut Vec<u8>)) -> Result<(), LogError> {
        let at = self.raw.len();
        piece(&mut self.raw);
        match self.chunk {
            Some(chunk) if at > 0 && self.raw.len() > chunk => {
                let tail = self.raw.split_off(at);
                let r = self.flush();
                self.raw = tail;
                r
            }
            _ => Ok(()),
        }
    }

    /// The end of a chunk of rows handed over: without `log_compression` it makes a
    /// stream of its own.
    pub(crate) fn end_chunk(&mut self) -> Result<(), LogError> {
        if self.chunk.is_none() {
            self.flush()
        } else {
            Ok(())
        }
    }

    /// The end of the log: the pieces held, or an empty stream if none was ever written.
    pub(crate) fn finish(&mut self) -> Result<(), LogError> {
        match self.written {
            true => self.flush(),
            false => self.stream(),
        }
    }

    /// Compresses the pieces held into one stream and writes it.
    pub(crate) fn flush(&mut self) -> Result<(), LogError> {
        if self.raw.is_empty() {
            return Ok(());
        }
        self.stream()
    }

    /// Compresses the pieces held (maybe none) into one stream and writes it.
    fn stream(&mut self) -> Result<(), LogError> {
        self.written = true;
        self.packed.clear();
        let mut z = ZlibEncoder::new(std::mem::take(&mut self.packed), Compression::default());
        // Writing into a Vec cannot fail.
        let _ = z.write_all(&self.raw);
        self.packed = z.finish().unwrap_or_default();
        self.raw.clear();
        self.file.write_bytes(&self.packed)
    }
}

/// Why a compressed log could not be read back.
#[derive(Debug, thiserror::Error)]
pub enum InflateError {
    /// Reading the input failed.
    #[error("cannot read it: {0}")]
    Read(io::Error),
    /// The input is not a sequence of zlib streams (from its byte `at` on).
    #[error("not a compressed log: no zlib stream at byte {at} ({source})")]
    NotZlib {
        /// Where the bad stream starts.
        at: u64,
        /// What zlib said.
        source: io::Error,
    },
    /// The input is empty (fio 3.33 refuses it too: "short read").
    #[error("the file is empty: no compressed chunk")]
    Empty,
    /// Writing the text failed.
    #[error("cannot write the text: {0}")]
    Write(io::Error),
}

/// Reads a compressed log from `input` and writes its text rows to `out`, as fio 3.33's
/// `--inflate-log` prints them (see the module doc for the layout; text streams, iomark's
/// histogram logs, are copied as they are). Everything readable is written before an
/// error is returned.
pub fn inflate(input: &mut impl BufRead, out: &mut impl Write) -> Result<(), InflateError> {
    let mut raw = Vec::new();
    let mut text = String::new();
    let mut at = 0u64;
    loop {
        if input.fill_buf().map_err(InflateError::Read)?.is_empty() {
            return if at == 0 { Err(InflateError::Empty) } else { Ok(()) };
        }
        raw.clear();
        let mut counted = Counted { inner: &mut *input, read: 0 };
        let result = flate2::bufread::ZlibDecoder::new(&mut counted).read_to_end(&mut raw);
        let read = counted.read;
        text.clear();
        if raw.contains(&0) {
            records(&raw, &mut text);
            out.write_all(text.as_bytes()).map_err(InflateError::Write)?;
        } else {
            out.write_all(&raw).map_err(InflateError::Write)?;
        }
        if let Err(source) = result {
            return Err(InflateError::NotZlib { at, source });
        }
        if read == 0 {
            return Ok(());
        }
        at += read;
    }
}

/// The text rows of binary log records (see the module doc), as fio 3.33 writes them; a
/// cut record at the end is dropped. What a client writes of a log a server sent.
pub fn records_text(raw: &[u8]) -> String {
    let mut text = String::new();
    records(raw, &mut text);
    text
}

/// One histogram row's text (`time, direction, block size, bins…`) and its newline.
pub fn hist_text(out: &mut String, time_ms: u64, dir: u8, bs: u64, bins: &[u64]) {
    format::hist_row(out, &iomark_stats::log::HistRowHead { time_ms, dir, bs }, bins, 0);
}

/// Appends the text of the whole records in `raw`; a cut record at the end is dropped,
/// as fio drops it.
fn records(mut raw: &[u8], text: &mut String) {
    let u64_at = |b: &[u8], i: usize| u64::from_le_bytes(b[i..i + 8].try_into().unwrap_or([0; 8]));
    let u32_at = |b: &[u8], i: usize| u32::from_le_bytes(b[i..i + 4].try_into().unwrap_or([0; 4]));
    while raw.len() >= RECORD {
        let word = u32_at(raw, 16);
        let size = if word & FLAG_OFFSET != 0 { RECORD_WITH_OFFSET } else { RECORD };
        if raw.len() < size {
            break;
        }
        let fields = Fields {
            ddir: word & !(FLAG_OFFSET | FLAG_PRIO_HEX),
            prio: u32_at(raw, 20),
            offset: (size == RECORD_WITH_OFFSET).then(|| u64_at(raw, 32)),
        };
        let hex = word & FLAG_PRIO_HEX != 0;
        format::line(text, u64_at(raw, 0), u64_at(raw, 8), u64_at(raw, 24), fields, hex);
        raw = &raw[size..];
    }
}

/// A reader that counts the bytes taken from it.
struct Counted<'a, R> {
    inner: &'a mut R,
    read: u64,
}

impl<R: BufRead> Read for Counted<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read += n as u64;
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Counted<'_, R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, amt: usize) {
        self.read += amt as u64;
        self.inner.consume(amt);
    }
}

#[cfg(test)]
mod tests;
