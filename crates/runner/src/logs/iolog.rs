//! `write_iolog`: every I/O the job issues, in the trace format fio 3.33 writes.
//!
//! fio 3.33 writes version 3 of its trace format (its HOWTO still describes version 2 for
//! `write_iolog`; iomark follows the program): a first line `fio version 3 iolog`, then
//! `TIME FILE add` and `TIME FILE open` for each file, one `TIME FILE ACTION OFFSET LENGTH`
//! line per I/O issued (`read`, `write`, `trim`, `sync`, `datasync`; a sync carries the
//! offset of the file's last I/O and length 0, as in fio), and `TIME FILE close` at the
//! end. `TIME` is in microseconds since the job started; `FILE` is the file's name as the
//! job gives it. The file is opened for appending, as fio does: jobs that share it add
//! their blocks to it (fio warns that they may be interleaved; iomark writes whole chunks
//! of `log_entries` lines at a time). `add` names every file at the start; `open` and
//! `close` come where fio 3.33 opens and closes a file: `open` before the first I/O of a
//! file not open, `close` when its pass is found over (the workload says when, see
//! [`iomark_workload::Workload::closed_files`]) and at the end.

use super::file::{LogError, LogFile};
use iomark_core::Ddir;
use iomark_plan::files::FilesPlan;
use std::fmt::Write;
use std::path::Path;

/// One issued I/O.
#[derive(Debug, Clone, Copy)]
struct Line {
    time_us: u64,
    file: u32,
    ddir: Ddir,
    offset: u64,
    len: u64,
}

/// The iolog of one job.
pub(crate) struct IoLog {
    file: LogFile,
    names: Vec<String>,
    /// The offset of each file's last data I/O (a sync's offset).
    last_offset: Vec<u64>,
    /// The files open (logged `open` and not yet `close`).
    open: Vec<bool>,
    lines: Vec<Line>,
    chunk: usize,
    /// Text not yet written: the opening lines until the first chunk, then each chunk.
    text: String,
}

impl IoLog {
    /// Opens `path` for appending and prepares the opening lines (naming the job's
    /// `files`), stamped `now_ns`.
    pub(crate) fn open(
        path: &Path,
        files: &FilesPlan,
        chunk: usize,
        now_ns: u64,
    ) -> Result<IoLog, LogError> {
        let file = LogFile::create(path.to_path_buf(), true)?;
        let names: Vec<String> = files.list.iter().map(|f| f.path.display().to_string()).collect();
        let longest = names.iter().map(String::len).max().unwrap_or(0);
        let mut text = String::with_capacity(chunk * (longest + 48) + 64 * (names.len() + 1));
        text.push_str("fio version 3 iolog\n");
        let t = now_ns / 1000;
        for name in &names {
            let _ = writeln!(text, "{t} {name} add");
        }
        Ok(IoLog {
            file,
            last_offset: vec![0; names.len()],
            open: vec![false; names.len()],
            names,
            lines: Vec::with_capacity(chunk),
            chunk,
            text,
        })
    }

    /// Logs `file`'s pass found over at `now_ns`, after the I/Os recorded so far (written
    /// with them at the next [`drain`](Self::drain)): its `close`, after an `open` when it
    /// had none (fio 3.33 opens a file when it turns to it, even when no I/O of the file's
    /// pass fits: `rw=randwrite bs=4k,16k` with a zipf law may issue none).
    #[cold]
    pub(crate) fn closed(&mut self, now_ns: u64, file: usize) {
        if !self.open[file] {
            self.opened(now_ns, file);
        }
        self.lines_to_text();
        self.open[file] = false;
        let _ = writeln!(self.text, "{} {} close", now_ns / 1000, self.names[file]);
    }

    /// Logs every open file closed at `now_ns` (fio 3.33 closes the files between the
    /// writes and the verify phase, and opens them again for its reads).
    #[cold]
    pub(crate) fn close_open(&mut self, now_ns: u64) {
        self.lines_to_text();
        for (name, open) in self.names.iter().zip(&mut self.open) {
            if std::mem::replace(open, false) {
                let _ = writeln!(self.text, "{} {name} close", now_ns / 1000);
            }
        }
    }

    /// Logs `file` opened at `now_ns`, before its I/O.
    #[cold]
    fn opened(&mut self, now_ns: u64, file: usize) {
        self.lines_to_text();
        self.open[file] = true;
        let _ = writeln!(self.text, "{} {} open", now_ns / 1000, self.names[file]);
    }

    /// Records one I/O issued at `now_ns`; true when a chunk is full and must be written
    /// ([`drain`](Self::drain)) before the next one. Never allocates.
    #[inline]
    pub(crate) fn record(
        &mut self,
        now_ns: u64,
        file: usize,
        ddir: Ddir,
        offset: u64,
        len: u64,
    ) -> bool {
        if !self.open[file] {
            self.opened(now_ns, file);
        }
        let (offset, len) = match ddir {
            Ddir::Sync | Ddir::Datasync | Ddir::SyncFileRange => (self.last_offset[file], 0),
            _ => (offset, len),
        };
        self.lines.push(Line { time_us: now_ns / 1000, file: file as u32, ddir, offset, len });
        self.lines.len() >= self.chunk
    }

    /// An I/O at `offset` of `file` completed. A sync's line carries the offset of the last
    /// I/O completed on its file, as fio 3.33's does (with `iodepth=4` and `fsync=2`, the
    /// sync after the 4th write names the 1st, which alone had completed).
    #[inline]
    pub(crate) fn done(&mut self, file: usize, offset: u64) {
        self.last_offset[file] = offset;
    }

    /// Writes the text held and the lines recorded so far.
    pub(crate) fn drain(&mut self) -> Result<(), LogError> {
        self.lines_to_text();
        let r = self.file.write(&self.text);
        self.text.clear();
        r
    }

    /// Turns the lines recorded so far into text.
    fn lines_to_text(&mut self) {
        for l in &self.lines {
            let action = match l.ddir {
                Ddir::Read => "read",
                Ddir::Write => "write",
                Ddir::Trim => "trim",
                Ddir::Sync => "sync",
                Ddir::Datasync => "datasync",
                Ddir::SyncFileRange => "sync_file_range",
            };
            let name = &self.names[l.file as usize];
            let _ = writeln!(self.text, "{} {name} {action} {} {}", l.time_us, l.offset, l.len);
        }
        self.lines.clear();
    }

    /// The closing lines, stamped `end_ns`, and everything not yet written.
    pub(crate) fn finish(&mut self, end_ns: u64) -> Result<(), LogError> {
        let r = self.drain();
        let t = end_ns / 1000;
        for (name, _) in self.names.iter().zip(&self.open).filter(|(_, &open)| open) {
            let _ = writeln!(self.text, "{t} {name} close");
        }
        let r2 = self.file.write(&self.text);
        self.text.clear();
        r.and(r2)
    }
}
