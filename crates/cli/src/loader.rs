//! The file system and environment as seen by the job-file parser.

use iomark_options::jobfile::Loader;
use iomark_options::value::subst::Keywords;
use std::io::Read;
use std::path::Path;

/// Reads job files from disk (`-` is standard input) and keywords from this machine.
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
            mb_memory: system::mb_memory(),
        }
    }
}
