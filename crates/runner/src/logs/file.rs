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
    /// The `--bandwidth-log` thread panicked.
    #[error("the bandwidth log thread panicked")]
    Panicked,
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
        self.file
            .write_all(text.as_bytes())
            .map_err(|source| LogError::Write { path: self.path.clone(), source })
    }
}
