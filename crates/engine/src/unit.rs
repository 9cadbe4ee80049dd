//! I/O units and their aligned buffers.
//!
//! A job owns a fixed pool of `iodepth` units, each with a buffer allocated once, aligned for
//! direct I/O, and never touched by the runner while the unit is in flight. An engine gets a
//! unit by `&mut` and fills in `result`.

use std::alloc::{self, Layout};
use std::os::fd::RawFd;
use std::ptr::NonNull;
use std::sync::Arc;

use crate::mem::region::Region;
use iomark_core::Ddir;

/// An I/O buffer with a chosen alignment, zero-filled when made: its own heap allocation
/// (`mem=malloc`), or a slice of a region shared with the job's other buffers (the other
/// kinds of [`crate::mem::IoMem`]).
pub struct AlignedBuf {
    ptr: NonNull<u8>,
    len: usize,
    backing: Backing,
}

/// Who owns an [`AlignedBuf`]'s memory.
enum Backing {
    /// A heap allocation of this layout.
    Heap(Layout),
    /// A slice of a region, freed with the last buffer cut from it.
    Region(#[allow(dead_code)] Arc<Region>),
}

// SAFETY: the buffer's bytes are owned by this value alone (a region hands each buffer a
// disjoint slice); moving it to another thread moves that ownership.
unsafe impl Send for AlignedBuf {}

impl AlignedBuf {
    /// A zeroed heap buffer of `len` bytes aligned to `align` (a power of two); `None` if
    /// the layout is impossible or memory is exhausted. A zero length allocates one byte.
    pub fn new(len: usize, align: usize) -> Option<Self> {
        let layout = Layout::from_size_align(len.max(1), align.max(1)).ok()?;
        // SAFETY: the layout has a non-zero size.
        let ptr = unsafe { alloc::alloc_zeroed(layout) };
        Some(AlignedBuf {
            ptr: NonNull::new(ptr)?,
            len: layout.size(),
            backing: Backing::Heap(layout),
        })
    }

    /// The `len` bytes at `offset` of `region`; the caller cuts disjoint slices inside it.
    pub(crate) fn in_region(region: Arc<Region>, offset: usize, len: usize) -> Self {
        let ptr = NonNull::new(region.at(offset)).unwrap_or(NonNull::dangling());
        AlignedBuf { ptr, len, backing: Backing::Region(region) }
    }

    /// The buffer's length in bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the buffer is empty (never: a buffer holds at least one byte).
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The address of the first byte.
    pub fn as_ptr(&self) -> *const u8 {
        self.ptr.as_ptr()
    }

    /// The address of the first byte, for writing.
    pub fn as_mut_ptr(&mut self) -> *mut u8 {
        self.ptr.as_ptr()
    }

    /// The buffer's bytes.
    pub fn as_slice(&self) -> &[u8] {
        // SAFETY: ptr points to len initialised bytes owned by self.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }

    /// The buffer's bytes, for writing.
    pub fn as_mut_slice(&mut self) -> &mut [u8] {
        // SAFETY: ptr points to len initialised bytes owned exclusively by self.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl Drop for AlignedBuf {
    fn drop(&mut self) {
        if let Backing::Heap(layout) = self.backing {
            // SAFETY: ptr was allocated by alloc_zeroed with exactly this layout.
            unsafe { alloc::dealloc(self.ptr.as_ptr(), layout) }
        }
    }
}

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
    /// Bytes transferred, or a negated errno, once the I/O completed.
    pub result: i64,
    /// Whether the buffer holds data a read brought in, so that a write must refill it
    /// first. Engines leave it alone; the runner keeps it.
    pub holds_read_data: bool,
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
            result: 0,
            holds_read_data: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffers_are_aligned_and_zeroed() {
        for align in [1, 512, 4096] {
            let buf = AlignedBuf::new(8192, align).unwrap();
            assert_eq!(buf.as_ptr() as usize % align, 0);
            assert_eq!(buf.len(), 8192);
            assert!(buf.as_slice().iter().all(|&b| b == 0));
        }
        assert!(AlignedBuf::new(16, 3).is_none());
    }
}
