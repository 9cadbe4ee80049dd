//! The `mmap` engine: each file is mapped once, shared, and every I/O is a copy between the
//! unit's buffer and the mapping, done inside `queue`.
//!
//! What each direction does, as fio 3.33's mmap engine does it (checked with `strace`):
//!
//! - read: copy from the mapping; write: copy into it.
//! - `direct`: after each read or write, `msync(MS_SYNC)` of the I/O's page-aligned range
//!   (fio's "not really direct, but should drop the pages from the cache").
//! - `sync` (`EngineOptions::sync_writes`): `msync(MS_SYNC)` of each write's range. fio 3.33
//!   opens the file with `O_SYNC` and stops there, which has no effect on stores through a
//!   mapping; iomark makes the option mean what it says.
//! - fsync and fdatasync: `msync(MS_SYNC)` of the whole mapping.
//! - trim: a discard of the file through its descriptor (`crate::sync::trim`), as fio's mmap
//!   engine does (it issues the trim on the descriptor, never through the mapping). The hole
//!   shows in the mapping at once: a shared mapping is the file's page cache.
//!
//! An I/O that does not lie wholly inside the mapping fails with `-EINVAL`, as does any I/O
//! on a file that was empty at `setup` (nothing is mapped); a write to a file opened
//! read-only fails with `-EBADF` and never touches the mapping.
//!
//! `thp=1`: the mapping is private (`MAP_PRIVATE`) and advised `MADV_HUGEPAGE`, as fio
//! 3.33's is (seen with `strace`): transparent huge pages back it where the kernel can, and
//! writes stay in the private copy, never reaching the file.
//!
//! Out of scope: a file truncated by someone else while mapped makes the copy fault with
//! `SIGBUS`, which kills the process (fio has the same hazard). The files are mapped whole
//! at `setup`, so their size must not change during the job.

use crate::interface::{Engine, EngineError, Queued};
use crate::options::EngineOptions;
use crate::unit::IoUnit;
use iomark_core::Ddir;
use std::io;
use std::os::fd::RawFd;

/// One mapped file.
struct Mapping {
    /// The first byte of the mapping; null when nothing is mapped.
    base: *mut u8,
    /// The mapping's length in bytes (the file's size at `setup`).
    len: usize,
    /// Whether the mapping allows writes (the file is open read-write).
    writable: bool,
    /// Whether there is a file at all (a job's descriptor may be -1).
    open: bool,
}

/// The `mmap` engine.
pub struct MmapEngine {
    /// `msync` each write's range (the job's `sync`).
    sync_writes: bool,
    /// `msync` each read's and write's range (the job's `direct`).
    direct: bool,
    /// One entry per job file, by `IoUnit::file`.
    maps: Vec<Mapping>,
    /// The size of a memory page.
    page: usize,
    /// `thp`: private mappings advised `MADV_HUGEPAGE`.
    thp: bool,
}

// SAFETY: the mappings are owned by this engine alone (unmapped in Drop) and are ordinary
// process memory, usable from any thread.
unsafe impl Send for MmapEngine {}

fn errno() -> i64 {
    -i64::from(io::Error::last_os_error().raw_os_error().unwrap_or(libc::EIO))
}

const EINVAL: i64 = -(libc::EINVAL as i64);
const EBADF: i64 = -(libc::EBADF as i64);

impl MmapEngine {
    /// An engine with the job's `direct` and `sync` behaviour; it maps files in `setup`.
    pub fn new(options: &EngineOptions) -> Self {
        MmapEngine {
            sync_writes: options.sync_writes,
            direct: options.direct,
            maps: Vec::new(),
            page: crate::system::page_size() as usize,
            thp: options.thp,
        }
    }

    /// Maps the file open as `fd` whole.
    fn map(fd: RawFd, index: usize, thp: bool) -> Result<Mapping, EngineError> {
        let fail = |what: &str| {
            let e = io::Error::last_os_error();
            EngineError::other(format!("mmap: file {index}: {what}: {e}"))
        };
        // SAFETY: stat is plain data; all-zero is a valid value.
        let mut st: libc::stat = unsafe { std::mem::zeroed() };
        // SAFETY: fstat writes into `st`, which we own; a bad fd returns -1.
        if unsafe { libc::fstat(fd, &mut st) } < 0 {
            return Err(fail("cannot stat"));
        }
        let size = if st.st_mode & libc::S_IFMT == libc::S_IFBLK {
            crate::file::block_device_size(fd).map_err(|e| {
                EngineError::other(format!("mmap: file {index}: cannot get device size: {e}"))
            })?
        } else {
            st.st_size.max(0) as u64
        };
        // SAFETY: F_GETFL only reads the descriptor's flags.
        let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
        if flags < 0 {
            return Err(fail("cannot read the open flags"));
        }
        let writable = flags & libc::O_ACCMODE == libc::O_RDWR;
        if flags & libc::O_ACCMODE == libc::O_WRONLY {
            return Err(EngineError::other(format!(
                "mmap: file {index}: open write-only; a mapping needs read access"
            )));
        }
        let Ok(len) = usize::try_from(size) else {
            return Err(EngineError::other(format!(
                "mmap: file {index}: {size} bytes do not fit in the address space"
            )));
        };
        if len == 0 {
            return Ok(Mapping { base: std::ptr::null_mut(), len: 0, writable, open: true });
        }
        let prot = if writable { libc::PROT_READ | libc::PROT_WRITE } else { libc::PROT_READ };
        let share = if thp { libc::MAP_PRIVATE } else { libc::MAP_SHARED };
        // SAFETY: a new mapping of `len` bytes of fd at offset 0, placed by the kernel; it
        // overlaps no memory Rust knows about.
        let base = unsafe { libc::mmap(std::ptr::null_mut(), len, prot, share, fd, 0) };
        if base == libc::MAP_FAILED {
            return Err(fail("cannot map"));
        }
        // SAFETY: advice on the mapping just made, whose bounds are base and len. A kernel
        // without transparent huge pages refuses it; the mapping works without them.
        if thp && unsafe { libc::madvise(base, len, libc::MADV_HUGEPAGE) } < 0 {
            let _ = io::Error::last_os_error();
        }
        Ok(Mapping { base: base.cast(), len, writable, open: true })
    }

    fn unmap_all(&mut self) {
        for m in self.maps.drain(..) {
            if !m.base.is_null() {
                // SAFETY: base and len describe a mapping made in `map` and not unmapped
                // since; no reference into it outlives this call.
                unsafe { libc::munmap(m.base.cast(), m.len) };
            }
        }
    }

    /// `msync(MS_SYNC)` of the pages holding `len` bytes at `offset` of `m`.
    fn msync(&self, m: &Mapping, offset: usize, len: usize) -> i64 {
        let start = offset - offset % self.page;
        // SAFETY: offset..offset+len lies inside the mapping (checked by the caller), and so
        // does the page-aligned start; msync only writes back dirty pages.
        let r =
            unsafe { libc::msync(m.base.add(start).cast(), offset + len - start, libc::MS_SYNC) };
        if r < 0 {
            errno()
        } else {
            0
        }
    }

    /// A read or a write: the copy, then the `msync` the options ask for.
    fn transfer(&self, m: &Mapping, unit: &mut IoUnit, write: bool) -> i64 {
        let len = unit.len.min(unit.buf.len());
        let Some(offset) = usize::try_from(unit.offset).ok().filter(|&o| o <= m.len) else {
            return EINVAL;
        };
        if len > m.len - offset {
            return EINVAL;
        }
        if write && !m.writable {
            return EBADF;
        }
        // SAFETY: the mapping is non-empty (checked by the caller) and offset + len <= m.len,
        // so m.base + offset starts `len` readable (and, for a write, writable) bytes; the
        // unit's buffer holds at least `len` bytes and is not part of any mapping. Only raw
        // pointers touch the mapping: another process may change the file under us, which
        // yields whatever bytes it wrote but never an invalid access (truncation aside,
        // see the module's note).
        unsafe {
            let map = m.base.add(offset);
            if write {
                std::ptr::copy_nonoverlapping(unit.buf.as_ptr(), map, len);
            } else {
                std::ptr::copy_nonoverlapping(map, unit.buf.as_mut_ptr(), len);
            }
        }
        if self.direct || (write && self.sync_writes) {
            let r = self.msync(m, offset, len);
            if r < 0 {
                return r;
            }
        }
        len as i64
    }
}

impl Drop for MmapEngine {
    fn drop(&mut self) {
        self.unmap_all();
    }
}

impl Engine for MmapEngine {
    fn name(&self) -> &'static str {
        "mmap"
    }

    fn is_sync(&self) -> bool {
        true
    }

    fn setup(&mut self, _units: &mut [IoUnit], fds: &[RawFd]) -> Result<(), EngineError> {
        self.unmap_all();
        self.maps.reserve(fds.len());
        for (index, &fd) in fds.iter().enumerate() {
            let m = if fd < 0 {
                Mapping { base: std::ptr::null_mut(), len: 0, writable: false, open: false }
            } else {
                Self::map(fd, index, self.thp)?
            };
            self.maps.push(m);
        }
        Ok(())
    }

    fn queue(&mut self, unit: &mut IoUnit) -> Queued {
        unit.result = match self.maps.get(unit.file as usize) {
            None => EBADF,
            Some(m) if !m.open => EBADF,
            Some(m) if m.base.is_null() => EINVAL,
            Some(m) => match unit.ddir {
                Ddir::Read => self.transfer(m, unit, false),
                Ddir::Write => self.transfer(m, unit, true),
                // fio 3.33 msyncs the whole mapping for sync_file_range too.
                Ddir::Sync | Ddir::Datasync | Ddir::SyncFileRange => self.msync(m, 0, m.len),
                Ddir::Trim => {
                    let end = unit.offset.checked_add(unit.len as u64);
                    if end.is_some_and(|end| end <= m.len as u64) {
                        crate::sync::trim(unit.fd, unit.offset, unit.len as u64)
                    } else {
                        EINVAL
                    }
                }
            },
        };
        Queued::Completed
    }
}
