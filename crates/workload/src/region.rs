//! [`FileRegion`]: one file of a job and the part of it the job works in.

/// One file of the job and the region of it the job works in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileRegion {
    /// Where the region starts in the file, in bytes (fio's `offset`, plus
    /// `offset_increment` × job number; the runner computes it).
    pub offset: u64,
    /// The region's length in bytes: fio's per-file size (`size` / `nrfiles`, or
    /// `filesize`, or the file's size less `offset`). A tail shorter than the smallest
    /// block size is touched only when the file goes on past it (see `reach`): fio 3.33,
    /// `size=18k bs=4k` on a file of 18k reads 4 blocks, 16k.
    pub len: u64,
    /// How far from the region's start a sequential I/O of a fixed block size may end:
    /// the file's size less `offset` when the file goes on past the region, else `len`
    /// (a smaller value counts as `len`).
    /// fio 3.33 starts a sequential I/O anywhere before the region's end and lets a fixed
    /// size run past it as long as the file holds it (`size=9000 bs=4k` on a 20000-byte
    /// file reads 0, 4k and 8k; on a 12000-byte file 0 and 4k). Random offsets, and the
    /// sizes of a `bsrange` or `bssplit`, stay inside `len`.
    pub reach: u64,
}

impl FileRegion {
    /// The region of `len` bytes at `offset`, reaching no further than its end.
    pub fn new(offset: u64, len: u64) -> FileRegion {
        FileRegion { offset, len, reach: len }
    }
}
