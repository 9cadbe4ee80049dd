//! The job-file corpus under `tests/jobs/` at the top of the workspace, which the options
//! crate's tests read too (the listing is shared with them through `#[path]`).

#[path = "../../../../../tests/support/corpus.rs"]
mod shared;

pub use shared::{corpus, corpus_dir};

/// The corpus file `tests/jobs/good/<name>`.
pub fn good(name: &str) -> std::path::PathBuf {
    corpus_dir().join("good").join(name)
}
