//! A job's per-I/O segment logs ([`SegLogs`]): each matched I/O's four segments, one log
//! per segment in fio's latency-log layout (see [`iomark_stats::block::BlockLog`]), written
//! by the tracer's thread as it matches.

use iomark_stats::block::{BlockLog, IoTrace};
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};

/// The four open logs.
#[derive(Debug)]
pub struct SegLogs {
    files: Vec<BufWriter<File>>,
    offset: bool,
    from_ns: u64,
    /// The first write error.
    pub error: Option<String>,
}

impl SegLogs {
    /// Creates (or, for logs shared by the jobs, opens for appending) the logs of `spec`.
    pub fn create(spec: &BlockLog) -> Result<SegLogs, String> {
        let mut files = Vec::with_capacity(4);
        for path in &spec.paths {
            let mut o = OpenOptions::new();
            match spec.append {
                true => o.append(true).create(true),
                false => o.write(true).create(true).truncate(true),
            };
            let f = o.open(path).map_err(|e| format!("{}: {e}", path.display()))?;
            files.push(BufWriter::with_capacity(64 << 10, f));
        }
        Ok(SegLogs { files, offset: spec.offset, from_ns: spec.from_ns, error: None })
    }

    /// One matched I/O's rows: `time, value, direction, block size, [offset, ]0` (the
    /// priority is not known here: 0), its time the I/O's completion in ms.
    pub fn row(&mut self, io: &IoTrace, segments: [u64; 4]) {
        let Some(since) = io.done_ns.checked_sub(self.from_ns) else { return };
        let dir = io.dir.data_index().unwrap_or(0);
        for (file, ns) in self.files.iter_mut().zip(segments) {
            // The row whole into one buffer first: a log shared by the jobs gets whole rows.
            let mut row = [0u8; 128];
            let mut at = &mut row[..];
            let time = since / 1_000_000;
            let r = match self.offset {
                true => writeln!(at, "{time}, {ns}, {dir}, {}, {}, 0", io.len, io.offset),
                false => writeln!(at, "{time}, {ns}, {dir}, {}, 0", io.len),
            };
            let n = 128 - at.len();
            if let Err(e) = r.and_then(|()| file.write_all(&row[..n])) {
                self.error.get_or_insert(e.to_string());
            }
        }
    }

    /// Writes out what is held.
    pub fn flush(&mut self) {
        for f in &mut self.files {
            if let Err(e) = f.flush() {
                self.error.get_or_insert(e.to_string());
            }
        }
    }
}
