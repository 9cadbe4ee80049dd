//! What an export is asked to do ([`Config`], from `iomark fuse-export`'s flags) and why it
//! can fail ([`ExportError`], with the exit code iomark gives each reason).

use crate::inject::FaultConfig;
use std::path::PathBuf;

/// `--transport`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transport {
    /// FUSE-over-io_uring, refused where the kernel does not offer it.
    Uring,
    /// Classic `/dev/fuse`.
    Dev,
    /// uring where the kernel offers it, else dev; the choice is printed.
    Auto,
}

/// What to export, and how.
#[derive(Debug, Clone)]
pub struct Config {
    /// The backing file or block device.
    pub backing: PathBuf,
    /// Where to mount (an empty directory).
    pub mountpoint: PathBuf,
    /// `--transport`.
    pub transport: Transport,
    /// `--enable-uring`: switch the kernel's FUSE-over-io_uring on for this export.
    pub enable_uring: bool,
    /// `--queues`: dev-transport queues (default 1).
    pub queues: Option<usize>,
    /// `--depth`: requests in flight per queue.
    pub depth: usize,
    /// `--direct`: backing I/O with `O_DIRECT` where aligned.
    pub direct: bool,
    /// `FOPEN_DIRECT_IO` (on unless `--page-cache`).
    pub direct_io: bool,
    /// `--max-write`: the largest READ or WRITE.
    pub max_write: u32,
    /// `--readonly`.
    pub readonly: bool,
    /// `--fail`, `--fail-after`, `--fail-range`, `--delay`, `--delay-dist`, `--corrupt`, `--seed`.
    pub faults: FaultConfig,
    /// `--daemon`.
    pub daemon: bool,
    /// `--summary`: where the summary goes instead of standard output.
    pub summary: Option<PathBuf>,
}

/// Why an export did not start or did not end well.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// The export was refused before anything was mounted: a bad backing store or mount
    /// point, a transport the kernel does not offer (exit code 2).
    #[error("{0}")]
    Refused(String),
    /// A system call failed while exporting (exit code 1).
    #[error("{what}: {source}")]
    Io {
        /// What was being done.
        what: String,
        /// The error.
        source: std::io::Error,
    },
    /// A second SIGINT or SIGTERM stopped the export at once (exit code 128 + signal).
    #[error("stopped by signal {0}")]
    Stopped(i32),
}

impl ExportError {
    pub(crate) fn io(what: &str, source: std::io::Error) -> ExportError {
        ExportError::Io { what: what.to_string(), source }
    }

    /// The exit code iomark gives for it.
    pub fn exit_code(&self) -> u8 {
        match self {
            ExportError::Refused(_) => 2,
            ExportError::Io { .. } => 1,
            ExportError::Stopped(sig) => 128u8.saturating_add(*sig as u8),
        }
    }
}
