//! Helpers shared by the options crate's test programs: the check that a generated,
//! checked-in file is fresh.

/// Compares the checked-in file at `path` (from the workspace root) with `want`, or rewrites
/// it under `IOMARK_BLESS=1`; the failure names `bless`, the command that rewrites it.
pub fn assert_fresh(path: &str, want: &str, bless: &str) {
    let full = format!("{}/../../{path}", env!("CARGO_MANIFEST_DIR"));
    if std::env::var_os("IOMARK_BLESS").is_some_and(|v| v == "1") {
        std::fs::write(&full, want).unwrap_or_else(|e| panic!("write {path}: {e}"));
        return;
    }
    let have = std::fs::read_to_string(&full).unwrap_or_default();
    assert!(have == want, "{path} is stale; run `{bless}`");
}
