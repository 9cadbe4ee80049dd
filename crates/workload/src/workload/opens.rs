//! Which files fio 3.33 closes while a job runs, for the `close` lines of `write_iolog`
//! (measured with `--write_iolog` on the null engine):
//!
//! - a file is closed when its pass is found over, at its first turn after its last block
//!   (a round robin over two files logs `b close` before `a`'s last I/O when `b` ended
//!   first); so between `loops` every file is closed, and opened again before its next I/O
//!   (the iolog writes an `open` line before the first I/O of a file not open);
//! - a file still open when the job ends is closed then, in the files' order;
//! - `time_based` jobs never close a file before the end, nor do random jobs without the
//!   random map whose offsets are uniform (their passes run on without it); a skewed
//!   distribution closes a file whose drawn block does not fit (see
//!   `crate::distribution`), and a skewed `file_service_type` closes none (it starts a
//!   file over when it draws it again).
//!
//! Nothing is recorded until the runner asks for it ([`FileCloses::enable`]).

/// The files closed and not yet taken.
#[derive(Debug, Clone, Default)]
pub(crate) struct FileCloses {
    on: bool,
    /// Passes end with the files closed (see the module note).
    closes: bool,
    closed: Vec<usize>,
}

impl FileCloses {
    /// The state of a job whose passes close the files when `closes`; recording nothing yet.
    pub(crate) fn new(closes: bool) -> FileCloses {
        FileCloses { on: false, closes, closed: Vec::new() }
    }

    /// Starts recording, with room for `files` closes (allocated here).
    pub(crate) fn enable(&mut self, files: usize) {
        self.on = true;
        self.closed.reserve(files + 1);
    }

    /// `file`'s pass was found over.
    pub(crate) fn done(&mut self, file: usize) {
        if self.on && self.closes {
            self.closed.push(file);
        }
    }

    /// Whether closes wait to be taken.
    #[inline]
    pub(crate) fn pending(&self) -> bool {
        !self.closed.is_empty()
    }

    /// The files closed since the last call, in order.
    pub(crate) fn take(&mut self) -> std::vec::Drain<'_, usize> {
        self.closed.drain(..)
    }
}
