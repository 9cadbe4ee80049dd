//! [`Region`]: one mapping or System V shared memory segment that the buffers of a job are
//! cut from, made and released by system calls.

use super::error::{os_error, MemError};
use std::ffi::CString;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

/// One mapping or shared memory segment that buffers are cut from.
pub(super) struct Region {
    ptr: *mut u8,
    size: usize,
    backing: Backing,
}

enum Backing {
    Mapping { created: Option<PathBuf> },
    Segment,
}

// SAFETY: the region is plain memory; the buffers cut from it are disjoint and each is
// used by one owner at a time, and unmapping happens once, when the last one is dropped.
unsafe impl Send for Region {}
// SAFETY: as above: the region itself is never written through a shared reference.
unsafe impl Sync for Region {}

impl Region {
    /// The address of byte `at`.
    pub(super) fn at(&self, at: usize) -> *mut u8 {
        debug_assert!(at <= self.size);
        // SAFETY: at is within the region (the buffers are cut inside it).
        unsafe { self.ptr.add(at) }
    }

    pub(super) fn segment(size: usize, huge: bool) -> Result<Region, MemError> {
        let flags = libc::IPC_CREAT | 0o600 | if huge { libc::SHM_HUGETLB } else { 0 };
        // SAFETY: shmget only creates a segment; no memory is touched.
        let id = unsafe { libc::shmget(libc::IPC_PRIVATE, size, flags) };
        if id < 0 {
            return Err(os_error(format!("shmget of {size} bytes")));
        }
        // SAFETY: attaches the segment just made at an address the kernel chooses.
        let ptr = unsafe { libc::shmat(id, std::ptr::null(), 0) };
        // Marked for removal now, so that it goes away with the last detach even if
        // iomark dies; attaching stays valid until then.
        // SAFETY: IPC_RMID takes no buffer.
        unsafe { libc::shmctl(id, libc::IPC_RMID, std::ptr::null_mut()) };
        if ptr as isize == -1 {
            return Err(os_error("shmat"));
        }
        Ok(Region { ptr: ptr.cast(), size, backing: Backing::Segment })
    }

    pub(super) fn mapping(
        size: usize,
        shared: bool,
        huge: bool,
        file: &Option<PathBuf>,
    ) -> Result<Region, MemError> {
        let share = if shared { libc::MAP_SHARED } else { libc::MAP_PRIVATE };
        let Some(path) = file else {
            let flags = share | libc::MAP_ANONYMOUS | if huge { libc::MAP_HUGETLB } else { 0 };
            let ptr = map(size, flags, -1)?;
            return Ok(Region { ptr, size, backing: Backing::Mapping { created: None } });
        };
        let created = !path.exists();
        let f = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(|source| MemError::System {
                what: format!("open {}", path.display()),
                source,
            })?;
        let created = created.then(|| path.clone());
        let fail = |e: MemError| {
            if let Some(p) = &created {
                let _ = std::fs::remove_file(p);
            }
            e
        };
        if huge && !on_hugetlbfs(path) {
            return Err(fail(MemError::NotHugetlbfs(path.clone())));
        }
        f.set_len(size as u64).map_err(|source| {
            fail(MemError::System { what: format!("size {}", path.display()), source })
        })?;
        use std::os::fd::AsRawFd;
        let ptr = map(size, share, f.as_raw_fd()).map_err(fail)?;
        Ok(Region { ptr, size, backing: Backing::Mapping { created } })
    }
}

/// `mmap` of `size` bytes, readable and writable.
fn map(size: usize, flags: libc::c_int, fd: libc::c_int) -> Result<*mut u8, MemError> {
    let prot = libc::PROT_READ | libc::PROT_WRITE;
    // SAFETY: a new mapping at an address the kernel chooses; nothing existing is touched.
    let ptr = unsafe { libc::mmap(std::ptr::null_mut(), size, prot, flags, fd, 0) };
    if ptr == libc::MAP_FAILED {
        return Err(os_error(format!("mmap of {size} bytes")));
    }
    Ok(ptr.cast())
}

/// Whether `path` lies on a hugetlbfs mount.
fn on_hugetlbfs(path: &Path) -> bool {
    const HUGETLBFS_MAGIC: i64 = 0x9584_58f6;
    let Ok(c) = CString::new(path.as_os_str().as_bytes()) else { return false };
    // SAFETY: statfs writes only into the zeroed struct it is given.
    let mut st: libc::statfs = unsafe { std::mem::zeroed() };
    // SAFETY: c is a valid C string and st a valid statfs to fill.
    let rc = unsafe { libc::statfs(c.as_ptr(), &mut st) };
    rc == 0 && st.f_type as i64 == HUGETLBFS_MAGIC
}

impl Drop for Region {
    fn drop(&mut self) {
        match &self.backing {
            Backing::Segment => {
                // SAFETY: ptr is the address shmat returned; no buffer is left using it.
                unsafe { libc::shmdt(self.ptr.cast()) };
            }
            Backing::Mapping { created } => {
                // SAFETY: ptr and size are exactly the mapping made; no buffer uses it now.
                unsafe { libc::munmap(self.ptr.cast(), self.size) };
                if let Some(path) = created {
                    let _ = std::fs::remove_file(path);
                }
            }
        }
    }
}
