//! The job-file corpus under `tests/jobs/`, for the test binaries of several crates
//! (included with `#[path]`).

use std::path::{Path, PathBuf};

/// `tests/jobs` at the top of the workspace.
pub fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/jobs")
}

/// The `*.fio` files of `tests/jobs/<sub>`, sorted.
pub fn corpus(sub: &str) -> Vec<PathBuf> {
    let dir = corpus_dir().join(sub);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "fio"))
        .collect();
    files.sort();
    files
}
