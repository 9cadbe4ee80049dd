//! `read_iolog_chunked`: a replay that reads its log as it goes, a chunk of I/Os at a
//! time, instead of holding the whole log in memory.
//!
//! The plan reads the whole log once, keeping only what it needs to lay out the files and
//! size the buffers ([`iomark_plan::replay::Summary`]); the job then reads it again from the start
//! through the same line parser, so the replay is the same I/O for I/O as one of the whole
//! log (fio 3.33's chunked replay is identical to its whole one, too). A refill happens
//! between two I/Os when the chunk is used up: a read of the log of up to [`CHUNK`] I/Os'
//! lines, through buffers allocated once, like the log writers' flushes of a full buffer.
//! The log must be a regular file, read twice; a log that changed in between ends the
//! replay where it no longer matches, with a note.

use iomark_plan::replay::parse::{LineParser, Lines};
use iomark_plan::replay::{ReplayIo, ReplayPlan};
use std::path::PathBuf;

/// The I/Os read from the log at a time.
pub const CHUNK: usize = 4096;

/// The log of a chunked replay, being read.
pub(super) struct Chunks {
    lines: Lines,
    parser: LineParser,
    /// The log's files (known from the plan's reading: an `add` adds nothing new).
    files: Vec<PathBuf>,
    /// The job's files: an I/O's file is below this.
    job_files: usize,
    buf: Vec<ReplayIo>,
    pos: usize,
    done: bool,
    /// Why the replay ended early, if the log changed since the plan read it.
    changed: Option<String>,
}

impl Chunks {
    /// Opens the log of `plan` again, from its start.
    pub(super) fn open(plan: &ReplayPlan) -> Result<Chunks, String> {
        let (lines, parser, files) = plan.reopen()?;
        Ok(Chunks {
            lines,
            parser,
            files,
            job_files: plan.files.len(),
            buf: Vec::with_capacity(CHUNK),
            pos: 0,
            done: false,
            changed: None,
        })
    }

    /// Why the replay ended before the log's end, if the log changed since the job
    /// started: a note for the run's report.
    pub(super) fn note(&self) -> Option<&str> {
        self.changed.as_deref()
    }

    /// The next I/O of the log; `None` at its end.
    #[inline]
    pub(super) fn next(&mut self) -> Option<ReplayIo> {
        if self.pos == self.buf.len() && !self.refill() {
            return None;
        }
        let io = self.buf[self.pos];
        self.pos += 1;
        Some(io)
    }

    /// Reads the next chunk; false when the log has no more I/Os.
    #[cold]
    #[inline(never)]
    fn refill(&mut self) -> bool {
        self.buf.clear();
        self.pos = 0;
        let known = self.files.len();
        while !self.done && self.buf.len() < CHUNK {
            let read = match self.lines.next_line() {
                Ok(Some((no, line))) => self.parser.line(no, line, &mut self.files),
                Ok(None) => {
                    self.done = true;
                    break;
                }
                Err(e) => Err(e),
            };
            match read {
                Ok(Some(io))
                    if (io.file as usize) < self.job_files && self.files.len() == known =>
                {
                    self.buf.push(io)
                }
                Ok(Some(_)) => self.changed("a file it did not add before"),
                Ok(None) if self.files.len() != known => {
                    self.changed("a file it did not add before")
                }
                Ok(None) => {}
                Err(e) => self.changed(&e),
            }
        }
        !self.buf.is_empty()
    }

    /// The log no longer reads as it did when the job was planned: the replay ends here.
    #[cold]
    fn changed(&mut self, what: &str) {
        self.changed = Some(format!(
            "read_iolog_chunked: '{}' changed since the job started ({what}); the replay ends \
             here",
            self.lines.log().display()
        ));
        self.done = true;
    }
}
