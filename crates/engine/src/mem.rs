//! Where the I/O buffers live: fio's `iomem`/`mem` (malloc, mmap, mmapshared, mmaphuge,
//! shm, shmhuge) and `hugepage-size`.
//!
//! `malloc` gives each unit its own heap buffer. Every other kind makes one region of
//! `iodepth` buffers, as fio does (rounded up to the huge page size for the huge kinds),
//! and hands out slices of it; the region is unmapped or detached when the last buffer is
//! dropped. Huge pages need the system to have some: where `/proc/meminfo` says
//! `HugePages_Total: 0`, `shmhuge` and `mmaphuge` fail with a message that says so (fio
//! 3.33 prints "no huge pages available" and then crashes). `mmaphuge:FILE` needs the file
//! on a hugetlbfs mount (fio 3.33 dies of SIGBUS otherwise); `mmap:FILE` and
//! `mmapshared:FILE` create the file (or take an existing one), size it to the region and
//! map it, and remove it at the end only if they created it.

use crate::unit::AlignedBuf;
use std::ffi::CString;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The kind of memory behind the I/O buffers (fio's `mem`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum IoMem {
    /// `malloc` (default): heap memory.
    #[default]
    Malloc,
    /// `mmap`, `mmapshared`, `mmaphuge`: a mapping, anonymous or of `file`.
    Mmap {
        /// `mmapshared`: a shared mapping.
        shared: bool,
        /// `mmaphuge`: backed by huge pages.
        huge: bool,
        /// The file after the `:`, if any.
        file: Option<PathBuf>,
    },
    /// `shm`, `shmhuge`: a System V shared memory segment.
    Shm {
        /// `shmhuge`: backed by huge pages.
        huge: bool,
    },
}

impl IoMem {
    /// fio's name of this kind.
    pub fn name(&self) -> &'static str {
        match self {
            IoMem::Malloc => "malloc",
            IoMem::Mmap { huge: true, .. } => "mmaphuge",
            IoMem::Mmap { shared: true, .. } => "mmapshared",
            IoMem::Mmap { .. } => "mmap",
            IoMem::Shm { huge: true } => "shmhuge",
            IoMem::Shm { huge: false } => "shm",
        }
    }

    fn huge(&self) -> bool {
        matches!(self, IoMem::Mmap { huge: true, .. } | IoMem::Shm { huge: true })
    }
}

/// Why the buffers could not be made. Messages name what the user can change.
#[derive(Debug)]
pub enum MemError {
    /// A huge-page kind (named) on a system without huge pages.
    NoHugePages(&'static str),
    /// `mmaphuge:FILE` with a file that is not on hugetlbfs.
    NotHugetlbfs(PathBuf),
    /// The sizes do not make a valid allocation.
    Layout {
        /// How many buffers.
        count: usize,
        /// Each one's length.
        len: usize,
        /// Their alignment.
        align: usize,
    },
    /// The system refused.
    System {
        /// What was being done.
        what: String,
        /// The error.
        source: std::io::Error,
    },
}

impl std::fmt::Display for MemError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MemError::NoHugePages(kind) => write!(
                f,
                "{kind} needs huge pages and this system has none (HugePages_Total is 0 in \
                 /proc/meminfo; reserve some in /proc/sys/vm/nr_hugepages)"
            ),
            MemError::NotHugetlbfs(path) => {
                write!(f, "mmaphuge file {} is not on a hugetlbfs mount", path.display())
            }
            MemError::Layout { count, len, align } => {
                write!(f, "cannot lay out {count} buffers of {len} bytes aligned to {align}")
            }
            MemError::System { what, source } => write!(f, "{what}: {source}"),
        }
    }
}

impl std::error::Error for MemError {}

fn os_error(what: impl Into<String>) -> MemError {
    MemError::System { what: what.into(), source: std::io::Error::last_os_error() }
}

/// The system's huge pages: (`HugePages_Total`, `Hugepagesize` in bytes) from
/// `/proc/meminfo`; zeros where it says nothing.
pub fn huge_pages() -> (u64, u64) {
    let info = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
    let field = |name: &str| {
        info.lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|rest| rest.split_whitespace().next()?.parse::<u64>().ok())
            .unwrap_or(0)
    };
    (field("HugePages_Total:"), field("Hugepagesize:") * 1024)
}

/// Makes `count` buffers of `len` bytes (zeroed), each aligned to `align` (a power of
/// two), in memory of `kind`. `hugepage_size` (fio's `hugepage-size`) rounds the region of
/// the huge kinds.
pub fn allocate(
    kind: &IoMem,
    count: usize,
    len: usize,
    align: usize,
    hugepage_size: usize,
) -> Result<Vec<AlignedBuf>, MemError> {
    let bad = || MemError::Layout { count, len, align };
    if *kind == IoMem::Malloc {
        return (0..count).map(|_| AlignedBuf::new(len, align).ok_or_else(bad)).collect();
    }
    if kind.huge() && huge_pages().0 == 0 {
        return Err(MemError::NoHugePages(kind.name()));
    }
    let align = align.max(crate::system::page_size() as usize);
    if !align.is_power_of_two() {
        return Err(bad());
    }
    let stride = len.max(1).checked_next_multiple_of(align).ok_or_else(bad)?;
    let mut size = stride.checked_mul(count.max(1)).ok_or_else(bad)?;
    if kind.huge() {
        let page = hugepage_size.max(huge_pages().1 as usize).max(1);
        size = size.checked_next_multiple_of(page).ok_or_else(bad)?;
    }
    let region = match kind {
        IoMem::Shm { huge } => Region::segment(size, *huge)?,
        IoMem::Mmap { shared, huge, file } => Region::mapping(size, *shared, *huge, file)?,
        IoMem::Malloc => return Err(bad()),
    };
    let region = Arc::new(region);
    Ok((0..count).map(|i| AlignedBuf::in_region(Arc::clone(&region), i * stride, len)).collect())
}

/// One mapping or shared memory segment that buffers are cut from.
pub(crate) struct Region {
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
    pub(crate) fn at(&self, at: usize) -> *mut u8 {
        debug_assert!(at <= self.size);
        // SAFETY: at is within the region (the buffers are cut inside it).
        unsafe { self.ptr.add(at) }
    }

    fn segment(size: usize, huge: bool) -> Result<Region, MemError> {
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

    fn mapping(
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

#[cfg(test)]
mod tests {
    use super::*;

    fn check(kind: &IoMem) {
        let mut bufs = allocate(kind, 3, 10_000, 4096, 2 << 20)
            .unwrap_or_else(|e| panic!("{}: {e}", kind.name()));
        assert_eq!(bufs.len(), 3);
        for (i, b) in bufs.iter_mut().enumerate() {
            assert_eq!(b.len(), 10_000);
            assert_eq!(b.as_ptr() as usize % 4096, 0);
            assert!(b.as_slice().iter().all(|&x| x == 0), "zeroed");
            b.as_mut_slice().fill(i as u8 + 1);
        }
        for (i, b) in bufs.iter().enumerate() {
            assert!(b.as_slice().iter().all(|&x| x == i as u8 + 1), "buffers are disjoint");
        }
    }

    #[test]
    fn every_kind_gives_disjoint_aligned_buffers() {
        check(&IoMem::Malloc);
        check(&IoMem::Mmap { shared: false, huge: false, file: None });
        check(&IoMem::Mmap { shared: true, huge: false, file: None });
        check(&IoMem::Shm { huge: false });
    }

    #[test]
    fn a_mapped_file_is_made_and_removed_but_an_existing_one_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("buffers");
        let kind = IoMem::Mmap { shared: true, huge: false, file: Some(path.clone()) };
        let bufs = allocate(&kind, 2, 4096, 4096, 2 << 20).unwrap();
        assert!(path.exists());
        drop(bufs);
        assert!(!path.exists(), "made by iomark, removed by it");
        std::fs::write(&path, b"mine").unwrap();
        drop(allocate(&kind, 2, 4096, 4096, 2 << 20).unwrap());
        assert!(path.exists(), "the user's file stays");
    }

    #[test]
    fn huge_kinds_need_huge_pages() {
        for kind in
            [IoMem::Shm { huge: true }, IoMem::Mmap { shared: false, huge: true, file: None }]
        {
            match allocate(&kind, 2, 4096, 4096, 2 << 20) {
                Err(MemError::NoHugePages(name)) => {
                    assert_eq!(huge_pages().0, 0);
                    assert_eq!(name, kind.name());
                    eprintln!("skipped: {name} allocation (the system has no huge pages)");
                }
                Ok(bufs) => assert_eq!(bufs.len(), 2),
                Err(e) => eprintln!("skipped: {}: huge pages exist but: {e}", kind.name()),
            }
        }
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("huge");
        let kind = IoMem::Mmap { shared: false, huge: true, file: Some(file.clone()) };
        if huge_pages().0 > 0 {
            assert!(matches!(
                allocate(&kind, 1, 4096, 4096, 2 << 20),
                Err(MemError::NotHugetlbfs(_))
            ));
            assert!(!file.exists());
        }
    }
}
