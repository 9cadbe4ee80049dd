//! The file system and environment as seen by the job-file parser.

use iomark_options::jobfile::Loader;
use iomark_options::value::subst::Keywords;
use std::io::Read;
use std::path::Path;

/// Reads job files from disk (`-` is standard input) and keywords from this machine (the
/// hidden `IOMARK_MB_MEMORY` environment variable replaces its memory in MiB).
pub struct FsLoader;

impl Loader for FsLoader {
    fn load(&self, path: &Path) -> std::io::Result<Vec<u8>> {
        if path == Path::new("-") {
            let mut bytes = Vec::new();
            std::io::stdin().read_to_end(&mut bytes)?;
            return Ok(bytes);
        }
        std::fs::read(path)
    }

    fn env(&self, name: &str) -> Option<String> {
        std::env::var(name).ok()
    }

    fn keywords(&self) -> Keywords {
        use iomark_engine::system;
        Keywords {
            ncpus: system::online_cpus(),
            pagesize: system::page_size(),
            // The hidden `IOMARK_MB_MEMORY` stands for the machine's memory, so that tests
            // can run what is sized from it (tiobench's files) small.
            mb_memory: std::env::var("IOMARK_MB_MEMORY")
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(system::mb_memory),
        }
    }
}
