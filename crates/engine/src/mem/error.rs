//! [`MemError`]: why the I/O buffers could not be made.

use std::path::PathBuf;

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

pub(crate) fn os_error(what: impl Into<String>) -> MemError {
    MemError::System { what: what.into(), source: std::io::Error::last_os_error() }
}
