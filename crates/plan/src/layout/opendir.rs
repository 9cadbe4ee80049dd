//! `opendir=DIR`: every regular file under `DIR` becomes one of the job's files.
//!
//! As fio 3.33 does it (checked with `--write_iolog`): the walk goes depth first, in the
//! order the directory lists its entries (the order of `readdir`, which `ls -f` shows, not
//! sorted), entering each subdirectory where it meets it; regular files are taken, hidden
//! ones too, and symbolic links are not followed. `DIR` is relative to the working
//! directory, never to `directory`. Without `size` or `filesize`, each file's region is the
//! file itself, and a file too small for one block is left out (fio opens and closes it
//! without I/O, "file … may be ignored").

use crate::error::OptionError;
use iomark_options::keys;
use iomark_options::value::Value;
use iomark_options::JobSpec;
use std::path::{Path, PathBuf};

/// The files under the job's `opendir` directories, in fio's order, each in the place
/// fio gives it beside the files of `filename` ; `named` alone
/// without the option.
///
/// fio adds a directory's files as it reads each `opendir` assignment, so every
/// assignment counts (`--opendir=a --opendir=b` uses the files of both), and the files of
/// an assignment made before the last `filename` come before the named files.
pub(super) fn with_named(spec: &JobSpec, named: Vec<PathBuf>) -> Result<Vec<PathBuf>, OptionError> {
    // Each assignment counts, so the settings are read one by one (by the keys' names).
    let last_filename = spec.settings.iter().rposition(|s| s.def.name == keys::FILENAME.name);
    let (mut before, mut after) = (Vec::new(), Vec::new());
    for (at, setting) in spec.settings.iter().enumerate() {
        if setting.def.name != keys::OPENDIR.name {
            continue;
        }
        let Value::Str(dir) = &setting.value else { continue };
        let mut files = Vec::new();
        walk(Path::new(dir), &mut files).map_err(|why| OptionError::about(keys::OPENDIR, why))?;
        if files.is_empty() {
            // fio 3.33 runs such a job with no file at all, doing nothing (or fails it
            // for want of `size`); iomark says why instead.
            let why = format!(
                "no regular file under '{dir}' (fio 3.33 runs the job without I/O and reports \
                 success)"
            );
            return Err(OptionError::new(keys::OPENDIR, why));
        }
        if last_filename.is_some_and(|f| at < f) { &mut before } else { &mut after }.extend(files);
    }
    before.extend(named);
    before.extend(after);
    Ok(before)
}

/// Adds the regular files under `dir` to `out`, depth first in directory order.
fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let bad = |e: std::io::Error| format!("option 'opendir': cannot read '{}': {e}", dir.display());
    for entry in std::fs::read_dir(dir).map_err(bad)? {
        let entry = entry.map_err(bad)?;
        // The entry's own type: a symbolic link is neither a file nor a directory here.
        let kind = entry.file_type().map_err(bad)?;
        if kind.is_dir() {
            walk(&entry.path(), out)?;
        } else if kind.is_file() {
            out.push(entry.path());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_walk_takes_regular_files_depth_first_and_skips_links() {
        let dir = tempfile::tempdir().expect("temporary directory");
        let root = dir.path();
        std::fs::create_dir_all(root.join("sub/deep")).unwrap();
        for f in ["a", ".hidden", "sub/b", "sub/deep/c"] {
            std::fs::write(root.join(f), b"x").unwrap();
        }
        std::os::unix::fs::symlink(root.join("a"), root.join("link")).unwrap();
        std::os::unix::fs::symlink(root.join("sub"), root.join("dirlink")).unwrap();
        let mut found = Vec::new();
        walk(root, &mut found).unwrap();
        let mut names: Vec<String> =
            found.iter().map(|p| p.strip_prefix(root).unwrap().display().to_string()).collect();
        // sub/b and sub/deep/c come together, in the subdirectory's turn.
        let b = names.iter().position(|n| n == "sub/b").unwrap();
        let c = names.iter().position(|n| n == "sub/deep/c").unwrap();
        assert_eq!(b.abs_diff(c), 1, "{names:?}");
        names.sort();
        assert_eq!(names, [".hidden", "a", "sub/b", "sub/deep/c"]);
        let e = walk(&root.join("missing"), &mut found).unwrap_err();
        assert!(e.contains("option 'opendir'") && e.contains("missing"), "{e}");
    }
}
