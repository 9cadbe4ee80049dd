//! Verify failure reports, `verify_dump` files and the verify state file.
//!
//! A report names the method, the file, the offset and length of the bad chunk and of the
//! block read, and what was expected against what was found, in fio 3.33's words:
//!
//! ```text
//! crc32c: verify failed at file /tmp/f offset 4096, length 4096 (requested block: offset=4096, length=4096)
//!        Expected CRC: 0b5c4cb7
//!        Received CRC: 4bda084f
//! verify: bad header offset 0, wanted 8192 at file /tmp/f offset 8192, length 4096 (requested block: offset=8192, length=4096)
//! ```
//!
//! With `verify_dump` the block read goes to `<file name>.<offset>.received` and the
//! block expected to `<file name>.<offset>.expected`, beside the file (fio's names). The
//! expected block is what iomark can know: the pattern where there is one, and headers
//! rewritten with the expected offset, length, seed and write number and the stored
//! checksum (the random data under a checksum is not kept anywhere).
//!
//! The state file (`verify_state_save`, on by default as in fio) is written when a job
//! that verifies has written, in the current directory, named as fio names it
//! (`local-<job>-<jobnum>-verify.state`); its contents are iomark's own text (fio's is a
//! binary structure): `iomark verify state 1` then `writes=<n>`, the writes the job
//! completed. `verify_state_load` with `verify_only` reads it and verifies only those.

use super::written::Written;
use crate::block::{Expect, Mismatch, MismatchKind, VerifyFormat};
use crate::plan::{VerifyJob, VerifyPlan};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The report of a bad block (the first bad chunk `first`, and with `verify_fatal=0`
/// every other bad chunk of the block too), after writing the dump files if asked.
pub(super) fn failure(
    plan: &VerifyPlan,
    file: &str,
    w: &Written,
    buf: &[u8],
    first: Mismatch,
    expect: &Expect,
) -> String {
    let format = plan.format;
    let mut out = String::new();
    line(&mut out, &format, file, w, &first);
    if !plan.fatal {
        // The other chunks after the first bad one (each check stops at a bad chunk).
        let mut at = first.chunk_start + first.len;
        while at < buf.len() {
            let mut rest = buf[at..].to_vec();
            match format.check(&mut rest, w.offset + at as u64, expect) {
                Ok(()) => break,
                Err(m) => {
                    let m = Mismatch { chunk_start: at + m.chunk_start, ..m };
                    line(&mut out, &format, file, w, &m);
                    at = m.chunk_start + m.len;
                }
            }
        }
    }
    if plan.dump {
        match dump(&format, file, w, buf, expect) {
            Ok((received, expected)) => {
                let _ = writeln!(out, "       received data dumped as {}", received.display());
                let _ = writeln!(out, "       expected data dumped as {}", expected.display());
            }
            Err(e) => {
                let _ = writeln!(out, "       verify_dump failed: {e}");
            }
        }
    }
    out
}

fn line(out: &mut String, format: &VerifyFormat, file: &str, w: &Written, m: &Mismatch) {
    let place = format!(
        "at file {file} offset {}, length {} (requested block: offset={}, length={})",
        m.offset, m.len, w.offset, w.len
    );
    let name = format.method.name();
    let _ = match m.kind {
        MismatchKind::Checksum { .. } | MismatchKind::Pattern { .. } => {
            let what = m.to_string();
            let what = what.trim_start_matches("checksum mismatch: ");
            let detail = what.replace(" Received", "\n       Received");
            writeln!(out, "{name}: verify failed {place}\n       {detail}")
        }
        _ => writeln!(out, "verify: {m} {place}"),
    };
    let h = &m.found;
    if format.method.has_header() {
        let _ = writeln!(
            out,
            "       header found: magic={:#06x} type={} len={} offset={} seed={:#x} thread={} \
             numberio={} crc={:08x}",
            h.magic, h.method, h.len, h.offset, h.seed, h.thread, h.numberio, h.crc
        );
    }
}

/// Writes the received and the expected block beside the file.
fn dump(
    format: &VerifyFormat,
    file: &str,
    w: &Written,
    buf: &[u8],
    expect: &Expect,
) -> std::io::Result<(PathBuf, PathBuf)> {
    let base = Path::new(file);
    let name = base.file_name().map_or_else(|| file.into(), |n| n.to_string_lossy().into_owned());
    let dir = base.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let received = dir.join(format!("{name}.{}.received", w.offset));
    let expected = dir.join(format!("{name}.{}.expected", w.offset));
    std::fs::write(&received, buf)?;
    let mut want = vec![0u8; buf.len()];
    format.expected_block(buf, w.offset, expect, &mut want);
    std::fs::write(&expected, &want)?;
    Ok((received, expected))
}

/// The state file of `job`'s clone (its name has the job's name and clone number, as
/// fio's), in its `state_dir` (`--aux-path`) or the current directory.
pub fn state_file(job: &VerifyJob) -> PathBuf {
    let name = format!("local-{}-{}-verify.state", job.name, job.jobnum);
    job.state_dir.as_ref().map_or_else(|| PathBuf::from(&name), |dir| dir.join(&name))
}

const STATE_HEADER: &str = "iomark verify state 1";

pub(super) fn save_state(job: &VerifyJob, writes: u64) -> Result<(), String> {
    let path = state_file(job);
    std::fs::write(&path, format!("{STATE_HEADER}\nwrites={writes}\n"))
        .map_err(|e| format!("option 'verify_state_save': '{}': {e}", path.display()))
}

pub(super) fn load_state(job: &VerifyJob) -> Result<u64, String> {
    let path = state_file(job);
    let fail = |what: String| format!("option 'verify_state_load': '{}': {what}", path.display());
    let text = std::fs::read_to_string(&path).map_err(|e| fail(e.to_string()))?;
    let mut lines = text.lines();
    if lines.next() != Some(STATE_HEADER) {
        return Err(fail("not an iomark verify state file".into()));
    }
    lines
        .find_map(|l| l.strip_prefix("writes="))
        .and_then(|n| n.trim().parse().ok())
        .ok_or_else(|| fail("no 'writes=' line".into()))
}
