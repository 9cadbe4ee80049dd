//! One I/O as the job loop draws it (from the workload, a replayed log or the verify phase)
//! and hands it through its hooks to the unit that carries it.

use iomark_core::Ddir;

/// One I/O to issue: its direction, the index of its file, its offset and its length. Small
/// and `Copy`, so that the loop's hooks take it whole instead of four arguments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Request {
    /// Read, write, trim or one of the syncs.
    pub(crate) ddir: Ddir,
    /// Index into the job's files.
    pub(crate) file: usize,
    /// Absolute offset in the file, in bytes.
    pub(crate) offset: u64,
    /// Length in bytes (0 for a sync of the whole file).
    pub(crate) len: usize,
}

impl From<iomark_workload::IoRequest> for Request {
    #[inline(always)]
    fn from(r: iomark_workload::IoRequest) -> Request {
        Request { ddir: r.dir, file: r.file, offset: r.offset, len: r.len as usize }
    }
}
