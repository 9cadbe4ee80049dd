//! Reading and writing the protocol's structures as bytes.
//!
//! The structures of [`crate::abi`] are plain data: `#[repr(C)]`, integers and arrays of
//! integers only, sizes checked against `fuse.h` with no padding anywhere. [`Plain`] marks
//! them; [`read`] copies one out of a byte slice (requests arrive unaligned inside larger
//! buffers) and [`put`] copies one into a byte slice.

use crate::abi::*;
use std::mem::size_of;

/// A structure of the FUSE ABI that any bytes of its size make valid, and whose bytes are
/// all initialised (no padding).
///
/// # Safety
/// Implement only for `#[repr(C)]` types made of integers (or arrays of them) whose size is
/// the sum of their fields' sizes.
pub unsafe trait Plain: Copy + Default {}

macro_rules! plain {
    ($($t:ty),*) => {$(
        // SAFETY: each of these is a `#[repr(C)]` structure of integers whose size is checked
        // in `abi.rs` against the size `fuse.h` gives it, which is the sum of its fields'.
        unsafe impl Plain for $t {}
    )*};
}

plain!(
    InHeader,
    OutHeader,
    Attr,
    EntryOut,
    AttrOut,
    SetattrIn,
    OpenIn,
    OpenOut,
    ReadIn,
    WriteIn,
    WriteOut,
    FallocateIn,
    StatfsOut,
    InitIn,
    InitOut,
    Dirent,
    UringEntInOut,
    UringCmdReq
);

/// The `T` at the start of `bytes`, or `None` when `bytes` is too short. Missing trailing
/// fields of a shorter (older) structure are not guessed: the caller gets `None`.
pub fn read<T: Plain>(bytes: &[u8]) -> Option<T> {
    if bytes.len() < size_of::<T>() {
        return None;
    }
    // SAFETY: `bytes` holds at least `size_of::<T>()` readable bytes, `read_unaligned`
    // needs no alignment, and `T: Plain` is valid for any bit pattern.
    Some(unsafe { std::ptr::read_unaligned(bytes.as_ptr().cast::<T>()) })
}

/// The `T` at the start of `bytes`, with fields past the end of `bytes` zero (for a request
/// header that an older kernel sends shorter).
pub fn read_prefix<T: Plain>(bytes: &[u8]) -> T {
    let mut out = T::default();
    let n = bytes.len().min(size_of::<T>());
    as_bytes_mut(&mut out)[..n].copy_from_slice(&bytes[..n]);
    out
}

/// The bytes of `value`.
pub fn as_bytes<T: Plain>(value: &T) -> &[u8] {
    // SAFETY: `T: Plain` has no padding, so all `size_of::<T>()` bytes behind the reference
    // are initialised; the slice borrows `value` and so cannot outlive it.
    unsafe { std::slice::from_raw_parts((value as *const T).cast::<u8>(), size_of::<T>()) }
}

/// The bytes of `value`, writable.
fn as_bytes_mut<T: Plain>(value: &mut T) -> &mut [u8] {
    // SAFETY: as in `as_bytes`; any bytes written make a valid `T` (`Plain`), and the slice
    // borrows `value` mutably for its whole life.
    unsafe { std::slice::from_raw_parts_mut((value as *mut T).cast::<u8>(), size_of::<T>()) }
}

/// Copies `value` to the start of `out` and returns its size; `out` must be large enough
/// (every reply area is at least [`MIN_READ_BUFFER`] bytes, far more than any structure).
pub fn put<T: Plain>(out: &mut [u8], value: &T) -> usize {
    let bytes = as_bytes(value);
    out[..bytes.len()].copy_from_slice(bytes);
    bytes.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_structure_goes_out_and_back_unchanged() {
        let h = InHeader { len: 80, opcode: op::WRITE, unique: 7, nodeid: 2, ..Default::default() };
        let mut buf = [0u8; 41];
        assert_eq!(put(&mut buf[1..], &h), 40);
        let back: InHeader = read(&buf[1..]).unwrap();
        assert_eq!((back.len, back.opcode, back.unique, back.nodeid), (80, op::WRITE, 7, 2));
        assert!(read::<InHeader>(&buf[2..]).is_none());
    }

    #[test]
    fn a_short_prefix_leaves_the_rest_zero() {
        let bytes = [1u8, 0, 0, 0, 2, 0, 0, 0];
        let init: InitIn = read_prefix(&bytes);
        assert_eq!((init.major, init.minor, init.flags), (1, 2, 0));
    }
}
