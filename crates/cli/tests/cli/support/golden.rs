//! Golden files: `crates/cli/tests/golden/<case>.fio` is a job, `<case>.<suffix>` the
//! output iomark must print for it under the fake clock, byte for byte.
//!
//! `IOMARK_BLESS=1 cargo test -p iomark --test cli -- golden terse` rewrites them from the
//! current output instead of comparing (the `run::golden` and `terse` tests are the ones
//! that read them); check the diff by eye against fio's layout before committing it.

use super::run::text;
use std::path::PathBuf;

/// The golden file `name` (`randrw70.json`).
pub fn path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden").join(name)
}

/// The job file of the golden case `case`, as a string for a command line.
pub fn job(case: &str) -> String {
    path(&format!("{case}.fio")).to_str().expect("a UTF-8 path").to_string()
}

/// The contents of the golden file `name`.
pub fn read(name: &str) -> Vec<u8> {
    let path = path(name);
    std::fs::read(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (IOMARK_BLESS=1 writes it)", path.display()))
}

/// Compares `got` with the golden file `name` byte for byte, or rewrites the file under
/// `IOMARK_BLESS=1`; the error names the first line that differs.
pub fn compare(name: &str, got: &[u8]) -> Result<(), String> {
    if std::env::var_os("IOMARK_BLESS").is_some_and(|v| v == "1") {
        std::fs::write(path(name), got).expect("write golden file");
        return Ok(());
    }
    let expected = read(name);
    if expected == got {
        return Ok(());
    }
    let (e, g) = (text(&expected), text(got));
    let (el, gl): (Vec<&str>, Vec<&str>) = (e.lines().collect(), g.lines().collect());
    for i in 0..el.len().max(gl.len()) {
        let (a, b) = (el.get(i).copied(), gl.get(i).copied());
        if a != b {
            return Err(format!("{name}: line {}:\n  want {a:?}\n  got  {b:?}", i + 1));
        }
    }
    Err(format!("{name}: differs (line endings or final newline)"))
}
