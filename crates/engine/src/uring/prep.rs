//! Making the submission entry of a unit: which operation, on which descriptor (plain or
//! registered), with which buffer (plain, registered, or behind the unit's own iovec) and
//! which per-I/O flags.

use crate::options::EngineOptions;
use crate::unit::IoUnit;
use io_uring::{opcode, squeue, types};
use iomark_core::Ddir;

/// How reads and writes are submitted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RwOp {
    /// `READ_FIXED`/`WRITE_FIXED` on the registered buffers (`fixedbufs`).
    Fixed,
    /// `READ`/`WRITE` (`nonvectored`).
    Plain,
    /// `READV`/`WRITEV` with one preallocated iovec per unit.
    Vectored,
}

/// One iovec per unit, for `READV`/`WRITEV`.
struct Iovecs(Box<[libc::iovec]>);

// SAFETY: the iovecs only hold addresses of the units' buffers; the engine that owns them
// moves between threads as a whole, and nothing else reads them but the kernel while a unit
// is in flight.
unsafe impl Send for Iovecs {}

impl Iovecs {
    fn new(len: usize) -> Self {
        let empty = libc::iovec { iov_base: std::ptr::null_mut(), iov_len: 0 };
        Iovecs(vec![empty; len].into_boxed_slice())
    }
}

/// Everything that decides how a unit's request is made.
pub struct Prep {
    /// The operation for reads and writes.
    pub op: RwOp,
    /// Files are addressed by their index among the registered files (`registerfiles`).
    pub registered_files: bool,
    /// `RWF_NOWAIT` (`nowait`), `RWF_DONTCACHE` (`uncached`).
    rw_flags: i32,
    iovecs: Iovecs,
}

impl Prep {
    /// The requests `options` ask for; `has_read_write` says whether the kernel has the
    /// non-vectored operations, for `nonvectored=-1`.
    pub fn new(options: &EngineOptions, has_read_write: bool) -> Self {
        let op = if options.fixedbufs {
            RwOp::Fixed
        } else {
            Self::unregistered_op(options, has_read_write)
        };
        let mut rw_flags = 0;
        if options.nowait {
            rw_flags |= libc::RWF_NOWAIT;
        }
        if options.uncached != 0 {
            rw_flags |= libc::RWF_DONTCACHE;
        }
        Prep {
            op,
            registered_files: options.registerfiles,
            rw_flags,
            iovecs: Iovecs::new(options.iodepth.max(1) as usize),
        }
    }

    /// The read and write requests without registered buffers: `READ`/`WRITE` where the
    /// kernel has them and `nonvectored` allows, else `READV`/`WRITEV`.
    pub fn unregistered_op(options: &EngineOptions, has_read_write: bool) -> RwOp {
        if options.nonvectored > 0 || (options.nonvectored < 0 && has_read_write) {
            RwOp::Plain
        } else {
            RwOp::Vectored
        }
    }

    /// Makes sure there is an iovec for every unit index below `units`.
    pub fn make_room(&mut self, units: usize) {
        if units > self.iovecs.0.len() {
            self.iovecs = Iovecs::new(units);
        }
    }

    /// The submission entry of a read or write. For `READV`/`WRITEV` it points at the
    /// unit's iovec here, which stays as it is until the unit is queued again.
    pub fn rw(&mut self, unit: &mut IoUnit) -> squeue::Entry {
        let write = unit.ddir == Ddir::Write;
        let len = unit.len.min(unit.buf.len()).min(u32::MAX as usize);
        let ptr = unit.buf.as_mut_ptr();
        let mut iov: *const libc::iovec = std::ptr::null();
        if self.op == RwOp::Vectored {
            if let Some(slot) = self.iovecs.0.get_mut(unit.index as usize) {
                *slot = libc::iovec { iov_base: ptr.cast(), iov_len: len };
                iov = slot;
            }
        }
        let (op, len, off, flags) = (self.op, len as u32, unit.offset, self.rw_flags);
        let prio = unit.ioprio;
        let buf_index = unit.index as u16;
        // The descriptor's type differs between plain and registered files, so the entry
        // is built once for each.
        macro_rules! rw {
            ($fd:expr) => {
                match (op, write) {
                    (RwOp::Fixed, false) => opcode::ReadFixed::new($fd, ptr, len, buf_index)
                        .offset(off)
                        .rw_flags(flags)
                        .ioprio(prio)
                        .build(),
                    (RwOp::Fixed, true) => opcode::WriteFixed::new($fd, ptr, len, buf_index)
                        .offset(off)
                        .rw_flags(flags)
                        .ioprio(prio)
                        .build(),
                    (RwOp::Plain, false) => opcode::Read::new($fd, ptr, len)
                        .offset(off)
                        .rw_flags(flags)
                        .ioprio(prio)
                        .build(),
                    (RwOp::Plain, true) => opcode::Write::new($fd, ptr, len)
                        .offset(off)
                        .rw_flags(flags)
                        .ioprio(prio)
                        .build(),
                    (RwOp::Vectored, false) => opcode::Readv::new($fd, iov, 1)
                        .offset(off)
                        .rw_flags(flags)
                        .ioprio(prio)
                        .build(),
                    (RwOp::Vectored, true) => opcode::Writev::new($fd, iov, 1)
                        .offset(off)
                        .rw_flags(flags)
                        .ioprio(prio)
                        .build(),
                }
            };
        }
        if self.registered_files {
            rw!(types::Fixed(unit.file))
        } else {
            rw!(types::Fd(unit.fd))
        }
    }

    /// The submission entry of a `sync_file_range`. The request's length is 32 bits; a
    /// longer range is sent as length 0, which the kernel takes to the end of the file.
    pub fn sync_range(&self, unit: &IoUnit) -> squeue::Entry {
        let len = u32::try_from(unit.len).unwrap_or(0);
        macro_rules! op {
            ($fd:expr) => {
                opcode::SyncFileRange::new($fd, len)
                    .offset(unit.offset)
                    .flags(unit.sync_flags)
                    .build()
            };
        }
        if self.registered_files {
            op!(types::Fixed(unit.file))
        } else {
            op!(types::Fd(unit.fd))
        }
    }

    /// The submission entry of an `fsync`/`fdatasync`.
    pub fn sync(&self, unit: &IoUnit) -> squeue::Entry {
        let flags = if unit.ddir == Ddir::Datasync {
            types::FsyncFlags::DATASYNC
        } else {
            types::FsyncFlags::empty()
        };
        if self.registered_files {
            opcode::Fsync::new(types::Fixed(unit.file)).flags(flags).build()
        } else {
            opcode::Fsync::new(types::Fd(unit.fd)).flags(flags).build()
        }
    }
}
