//! I/O units: what one I/O does, where, with which buffer, and its result.
//!
//! A job owns a fixed pool of `iodepth` units, each with a buffer allocated once, aligned for
//! direct I/O (an [`AlignedBuf`], see [`crate::mem`]), and never touched by the runner while
//! the unit is in flight. An engine gets a unit by `&mut` and fills in `result`.

use crate::mem::AlignedBuf;
use iomark_core::Ddir;
use std::os::fd::RawFd;

/// One I/O in the making: what to do, on which file, where, and its result.
pub struct IoUnit {
    /// The unit's position in its pool; async engines use it as the request's tag.
    pub index: u32,
    /// What the I/O does.
    pub ddir: Ddir,
    /// The index of the unit's file among the job's files (the `fds` of `Engine::setup`).
    pub file: u32,
    /// The open file.
    pub fd: RawFd,
    /// Where in the file.
    pub offset: u64,
    /// How many bytes (at most the buffer's length).
    pub len: usize,
    /// The unit's buffer.
    pub buf: AlignedBuf,
    /// The I/O's own priority (`ioprio_set(2)`'s value, see
    /// [`crate::thread::ioprio_value`]), 0 for the thread's: fio's `cmdprio_*`. Only the
    /// libaio and io_uring engines pass it on.
    pub ioprio: u16,
    /// The flags of a [`Ddir::SyncFileRange`]: `SYNC_FILE_RANGE_*` bits (fio's
    /// `sync_file_range`, the same for every sync of a job). Other I/Os ignore them.
    pub sync_flags: u32,
    /// Whether the I/O's time is a latency to record. Only the metadata engines set it (see
    /// [`crate::fileops`]): the first I/O of a file in a loop does the file's operation and
    /// is timed, the others do nothing and are not; other engines leave it true and the
    /// runner does not look at it.
    pub timed: bool,
    /// Bytes transferred, or a negated errno, once the I/O completed.
    pub result: i64,
    /// Whether the buffer holds data a read brought in, so that a write must refill it
    /// first. Engines leave it alone; the runner keeps it.
    pub holds_read_data: bool,
    /// When the I/O started and when its submission ended (ns of the job's clock), for
    /// its slat, clat and lat. Engines leave them alone; the runner keeps them beside
    /// the rest of the unit, so that one look-up of the unit finds them.
    pub stamps: (u64, u64),
}

impl IoUnit {
    /// A unit with a buffer of `buf_len` bytes aligned to `align`; `None` when memory is
    /// exhausted.
    pub fn new(index: u32, buf_len: usize, align: usize) -> Option<Self> {
        Some(IoUnit::with_buf(index, AlignedBuf::new(buf_len, align)?))
    }

    /// A unit with the buffer `buf` (see [`crate::mem::allocate`]).
    pub fn with_buf(index: u32, buf: AlignedBuf) -> Self {
        IoUnit {
            index,
            ddir: Ddir::Read,
            file: 0,
            fd: -1,
            offset: 0,
            len: 0,
            buf,
            ioprio: 0,
            sync_flags: 0,
            timed: true,
            result: 0,
            holds_read_data: false,
            stamps: (0, 0),
        }
    }
}
