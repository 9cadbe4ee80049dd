//! [`AlignedBuf`]: one I/O buffer, aligned for direct I/O, on the heap or cut from a shared
//! [`Region`].

use super::region::Region;
use std::alloc::{self, Layout};
use std::ptr::NonNull;
use std::sync::Arc;

/// An I/O buffer with a chosen alignment, zero-filled when made: its own heap allocation
/// (`mem=malloc`), or a slice of a region shared with the job's other buffers (the other
/// kinds of [`super::IoMem`]).
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
    pub(super) fn in_region(region: Arc<Region>, offset: usize, len: usize) -> Self {
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
