//! One open log file ([`LogFile`]), written a chunk at a time, and why creating or writing
//! one failed ([`LogError`]).

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::PathBuf;

/// Why a log file could not be created or written.
#[derive(Debug, thiserror::Error)]
pub enum LogError {
    /// The file could not be created (or opened for appending).
    #[error("cannot create log file '{}': {source}", path.display())]
    Create {
        /// The file.
        path: PathBuf,
        /// Why it could not be created.
        source: io::Error,
    },
    /// Writing to the file failed.
    #[error("cannot write log file '{}': {source}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// Why the write failed.
        source: io::Error,
    },
    /// The `--bandwidth-log` thread, or a job's log thread, panicked.
    #[error("the {0} thread panicked")]
    Panicked(&'static str),
    /// The job's log thread could not be started.
    #[error("cannot start the log thread: {0}")]
    Thread(io::Error),
    /// The job's log thread could not be placed on `log_compression_cpus`.
    #[error("cannot run the log thread on log_compression_cpus: {0}")]
    Affinity(io::Error),
}

/// One open log file.
pub(super) struct LogFile {
    path: PathBuf,
    file: File,
}

impl LogFile {
    /// Creates (or, for shared logs, opens for appending) the file at `path`.
    pub(super) fn create(path: PathBuf, append: bool) -> Result<LogFile, LogError> {
        let mut options = OpenOptions::new();
        if append {
            options.append(true).create(true);
        } else {
            options.write(true).create(true).truncate(true);
        }
        match options.open(&path) {
            Ok(file) => Ok(LogFile { path, file }),
            Err(source) => Err(LogError::Create { path, source }),
        }
    }

    /// Writes `text` in one call (an appending file takes it as one piece).
    pub(super) fn write(&mut self, text: &str) -> Result<(), LogError> {
        self.write_bytes(text.as_bytes())
    }

    /// Writes `bytes` in one call, as [`write`](Self::write).
    pub(super) fn write_bytes(&mut self, bytes: &[u8]) -> Result<(), LogError> {
        self.file
            .write_all(bytes)
            .map_err(|source| LogError::Write { path: self.path.clone(), source })
    }
}
