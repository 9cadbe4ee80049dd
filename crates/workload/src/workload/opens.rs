//! Which of a job's files fio 3.33 holds open, for the `open` and `close` lines of
//! `write_iolog` (measured with `--write_iolog` on the null engine):
//!
//! - a file is opened just before its first I/O, and again before its first I/O after it
//!   was closed (`add` lines name every file at the start; a file that never serves an I/O
//!   is never opened);
//! - a file is closed when its pass is found over, at its first turn after its last block
//!   (a round robin over two files logs `b close` before `a`'s last I/O when `b` ended
//!   first); so between `loops` every file is closed and opened again;
//! - a file still open when the job ends is closed then, in the files' order;
//! - `time_based` jobs and random jobs without the random map never close a file before
//!   the end (their passes run on without it).
//!
//! Nothing is recorded until the runner asks for it ([`FileOpens::enable`]): a job without
//! `write_iolog` pays one test of a flag per I/O.

/// A file opened or closed, for the iolog.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileEvent {
    /// The file (an index into the job's files) is opened, before an I/O on it.
    Open(usize),
    /// The file's pass is over: it is closed.
    Close(usize),
}

/// The open files and the events not yet taken.
#[derive(Debug, Clone, Default)]
pub(crate) struct FileOpens {
    on: bool,
    /// Passes end with the files closed (see the module note).
    closes: bool,
    open: Vec<bool>,
    events: Vec<FileEvent>,
}

impl FileOpens {
    /// The state of `files` files, recording nothing yet; `closes` as the module note says.
    pub(crate) fn new(files: usize, closes: bool) -> FileOpens {
        FileOpens { on: false, closes, open: vec![false; files], events: Vec::new() }
    }

    /// Starts recording (room for every file's open and close, allocated here).
    pub(crate) fn enable(&mut self) {
        self.on = true;
        self.events.reserve(2 * self.open.len() + 2);
    }

    /// An I/O on `file` is about to be issued.
    #[inline]
    pub(crate) fn used(&mut self, file: usize) {
        if self.on && !self.open[file] {
            self.open[file] = true;
            self.events.push(FileEvent::Open(file));
        }
    }

    /// `file`'s pass was found over.
    pub(crate) fn done(&mut self, file: usize) {
        if self.on && self.closes && self.open[file] {
            self.open[file] = false;
            self.events.push(FileEvent::Close(file));
        }
    }

    /// Whether events wait to be taken.
    #[inline]
    pub(crate) fn pending(&self) -> bool {
        !self.events.is_empty()
    }

    /// The events since the last call, in order.
    pub(crate) fn take(&mut self) -> std::vec::Drain<'_, FileEvent> {
        self.events.drain(..)
    }
}
