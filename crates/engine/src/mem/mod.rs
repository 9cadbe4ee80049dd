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

mod buf;
mod error;
mod region;

pub use buf::AlignedBuf;
pub use error::MemError;

use region::Region;
use std::path::PathBuf;
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
