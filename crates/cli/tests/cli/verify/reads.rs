//! Checking, from the order of the I/Os in a job's `write_iolog` alone, that its verify
//! reads check what the file holds: each read is of the newest write of its place
//! (the same extent, nothing issued over it since), no write is read back twice, and
//! every write that nothing overwrote or trimmed afterwards is read back once.
//!
//! Overlapping I/Os of a verifying job are never in flight together, so the order in
//! which they are logged (issued) is the order in which they change the file.

use crate::support::iolog::Io;

/// One write or trim issued so far, with the times a verify read checked it and whether
/// anything issued later overlaps it.
struct Change {
    /// `write` or `trim`.
    kind: String,
    file: String,
    offset: u64,
    len: u64,
    reads: u32,
    overwritten: bool,
}

impl Change {
    fn overlaps(&self, file: &str, offset: u64, len: u64) -> bool {
        self.file == file && self.offset < offset + len && offset < self.offset + self.len
    }
}

/// Checks the reads of `ios` (see the module's note). A trim changes its place as a write
/// does: the writes it overlaps are no longer to be read back. With `zeros_read` the
/// trims are the job's `trim_percentage` ones, whose blocks are read back as zeros: a
/// read of a trim's exact extent is then the check of that trim, and every trim that
/// nothing changed afterwards must be read back once, as a write. Returns the reads.
pub fn check_reads(ios: &[Io], zeros_read: bool) -> Result<usize, String> {
    let mut changes: Vec<Change> = Vec::new();
    let mut reads = 0;
    for (i, Io { file, action: kind, offset, len }) in ios.iter().enumerate() {
        let (offset, len) = (*offset, *len);
        if kind != "read" {
            for c in changes.iter_mut().filter(|c| c.overlaps(file, offset, len)) {
                c.overwritten = true;
            }
            let (reads, overwritten) = (0, false);
            changes.push(Change {
                kind: kind.clone(),
                file: file.clone(),
                offset,
                len,
                reads,
                overwritten,
            });
            continue;
        }
        reads += 1;
        let newest = changes.iter_mut().rev().find(|c| c.overlaps(file, offset, len));
        match newest {
            Some(c) if (c.offset, c.len) == (offset, len) && (c.kind == "write" || zeros_read) => {
                c.reads += 1;
                if c.reads > 1 {
                    return Err(format!("I/O {i}: {offset}+{len} of {file} read back twice"));
                }
            }
            Some(c) => {
                return Err(format!(
                    "I/O {i}: the read of {offset}+{len} in {file} does not check the \
                     newest change there (a {} of {}+{})",
                    c.kind, c.offset, c.len
                ))
            }
            None => {
                return Err(format!("I/O {i}: the read of {offset}+{len} in {file} checks nothing"))
            }
        }
    }
    let unread = changes
        .iter()
        .find(|c| !c.overwritten && c.reads != 1 && (c.kind == "write" || zeros_read));
    match unread {
        Some(c) => Err(format!(
            "the last {} of {}+{} in {} was read {} times",
            c.kind, c.offset, c.len, c.file, c.reads
        )),
        None => Ok(reads),
    }
}
