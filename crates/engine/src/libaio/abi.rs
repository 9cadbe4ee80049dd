//! The kernel's Linux AIO interface, declared from `linux/aio_abi.h` (x86_64, little-endian):
//! the request (`iocb`) and completion (`io_event`) structures, the opcodes, and thin
//! wrappers over the four system calls. No C library is involved.

use std::ptr;

/// `IOCB_CMD_PREAD`: read `aio_nbytes` bytes at `aio_offset` into `aio_buf`.
pub const IOCB_CMD_PREAD: u16 = 0;
/// `IOCB_CMD_PWRITE`: write `aio_nbytes` bytes from `aio_buf` at `aio_offset`.
pub const IOCB_CMD_PWRITE: u16 = 1;
/// `IOCB_CMD_FSYNC`: `fsync` the file (Linux 4.18 and later).
pub const IOCB_CMD_FSYNC: u16 = 2;
/// `IOCB_CMD_FDSYNC`: `fdatasync` the file (Linux 4.18 and later).
pub const IOCB_CMD_FDSYNC: u16 = 3;

/// The kernel's `aio_context_t`: the handle `io_setup` returns. On Linux it is the address
/// of the completion ring mapped into the process.
pub type AioContext = libc::c_ulong;

/// `aio_flags`: `aio_reqprio` holds the request's I/O priority.
pub const IOCB_FLAG_IOPRIO: u32 = 1 << 1;

/// One request, `struct iocb` (64 bytes).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct Iocb {
    /// Returned unchanged in the completion's `data` (iomark: the unit's index).
    pub aio_data: u64,
    /// Written by the kernel (`KIOCB_KEY`); comes before `aio_rw_flags` on little-endian.
    pub aio_key: u32,
    /// `RWF_*` flags of a read or write (`RWF_NOWAIT`, ...).
    pub aio_rw_flags: i32,
    /// One of the `IOCB_CMD_*` opcodes.
    pub aio_lio_opcode: u16,
    /// I/O priority, with `IOCB_FLAG_IOPRIO` in `aio_flags`.
    pub aio_reqprio: i16,
    /// The file descriptor.
    pub aio_fildes: u32,
    /// The buffer's address.
    pub aio_buf: u64,
    /// The transfer's length in bytes.
    pub aio_nbytes: u64,
    /// The file offset.
    pub aio_offset: i64,
    /// Reserved, must be zero.
    pub aio_reserved2: u64,
    /// `IOCB_FLAG_*` flags (iomark: `IOCB_FLAG_IOPRIO` only).
    pub aio_flags: u32,
    /// An eventfd to signal (`IOCB_FLAG_RESFD`), unused here.
    pub aio_resfd: u32,
}

/// One completion, `struct io_event` (32 bytes).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct IoEvent {
    /// The request's `aio_data`.
    pub data: u64,
    /// The address of the request's `iocb`.
    pub obj: u64,
    /// The result: bytes transferred, or a negated errno.
    pub res: i64,
    /// A secondary result, zero for reads, writes and syncs.
    pub res2: i64,
}

/// The calling thread's errno after a failed system call.
fn errno() -> i32 {
    std::io::Error::last_os_error().raw_os_error().unwrap_or(libc::EIO)
}

/// `io_setup`: a context that holds up to `nr_events` requests in flight.
pub fn io_setup(nr_events: u32) -> Result<AioContext, i32> {
    let mut ctx: AioContext = 0;
    // SAFETY: io_setup writes the new context to the pointer, which points to `ctx` (zeroed,
    // as the kernel requires).
    let r = unsafe { libc::syscall(libc::SYS_io_setup, nr_events, &mut ctx as *mut AioContext) };
    if r < 0 {
        Err(errno())
    } else {
        Ok(ctx)
    }
}

/// `io_destroy`: cancels or waits for the context's requests and unmaps its ring.
pub fn io_destroy(ctx: AioContext) {
    // SAFETY: io_destroy takes the context by value; the kernel checks it.
    unsafe { libc::syscall(libc::SYS_io_destroy, ctx) };
}

/// `io_submit`: hands the kernel `nr` requests; returns how many it took, or the errno of
/// the first request when it took none.
///
/// # Safety
/// `iocbs` must point to `nr` pointers to valid `Iocb`s, and each request's buffer must stay
/// valid and untouched until its completion is reaped.
pub unsafe fn io_submit(ctx: AioContext, nr: usize, iocbs: *mut *mut Iocb) -> Result<usize, i32> {
    // SAFETY: the caller guarantees the array and the requests' buffers.
    let r = unsafe { libc::syscall(libc::SYS_io_submit, ctx, nr as libc::c_long, iocbs) };
    if r < 0 {
        Err(errno())
    } else {
        Ok(r as usize)
    }
}

/// `io_getevents` without a timeout: waits for at least `min` completions and stores at
/// most `events.len()`; returns how many.
pub fn io_getevents(ctx: AioContext, min: usize, events: &mut [IoEvent]) -> Result<usize, i32> {
    // SAFETY: the kernel writes at most `events.len()` events into `events`; a null timeout
    // means wait for `min` events.
    let r = unsafe {
        libc::syscall(
            libc::SYS_io_getevents,
            ctx,
            min as libc::c_long,
            events.len() as libc::c_long,
            events.as_mut_ptr(),
            ptr::null_mut::<libc::timespec>(),
        )
    };
    if r < 0 {
        Err(errno())
    } else {
        Ok(r as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::{offset_of, size_of};

    #[test]
    fn the_layout_is_the_kernels() {
        assert_eq!(size_of::<Iocb>(), 64);
        assert_eq!(size_of::<IoEvent>(), 32);
        assert_eq!(offset_of!(Iocb, aio_rw_flags), 12);
        assert_eq!(offset_of!(Iocb, aio_lio_opcode), 16);
        assert_eq!(offset_of!(Iocb, aio_fildes), 20);
        assert_eq!(offset_of!(Iocb, aio_buf), 24);
        assert_eq!(offset_of!(Iocb, aio_offset), 40);
        assert_eq!(offset_of!(Iocb, aio_resfd), 60);
        assert_eq!(offset_of!(IoEvent, res), 16);
    }
}
