//! Verify blocks: what a write with `verify` puts in each block, and how a block read back
//! is checked. Pure functions over caller-owned buffers: nothing here allocates.
//!
//! A block is cut into chunks of `verify_interval` bytes (the whole block without it; the
//! last chunk may be shorter). With a header method each chunk starts with the 40-byte
//! [`Header`] (magic, method, length, seed, offset, thread, write number, header CRC) and
//! the method's checksum of the rest of the chunk ([`method`] has the layouts); the data
//! under it is the job's buffer contents, or `verify_pattern` when it is set. With
//! `verify_offset=N` the header is then swapped with the chunk's bytes at N (fio 3.33: the
//! header lands at byte N, the bytes that were there move to the chunk's start), and
//! swapped back before checking. `pattern` writes and checks the pattern alone, and
//! `pattern_hdr` a header over the pattern.
//!
//! A chunk is checked field by field, in the order that names the likeliest cause first:
//! magic, header CRC, method, length, offset, seed and write number (when the caller knows
//! them), then the checksum or pattern. So a block written at another offset (two blocks
//! swapped) is reported as a bad offset, a damaged header as a bad magic or CRC, damaged
//! data as a checksum mismatch.

mod header;
pub mod method;
mod pattern;
#[cfg(test)]
mod tests;

pub use header::{Header, HEADER_LEN, MAGIC};
pub use method::{Method, MAX_DIGEST};
pub use pattern::{VerifyPattern, MAX_VERIFY_PATTERN};

use std::fmt;

/// How a job's blocks are laid out for verification.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VerifyFormat {
    /// The method.
    pub method: Method,
    /// `verify_interval`: bytes per header (0: the whole block).
    pub interval: usize,
    /// `verify_offset`: where in each chunk the header goes.
    pub header_offset: usize,
    /// `verify_pattern`, if set.
    pub pattern: Option<VerifyPattern>,
}

/// What a write stamps in its headers besides offsets and lengths.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Stamp {
    /// The write's seed.
    pub seed: u64,
    /// The job's thread number, from 1.
    pub thread: u16,
    /// The write's number in the job.
    pub numberio: u64,
}

/// What a check expects beyond what the format says; `None` checks nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Expect {
    /// The seed the write stamped.
    pub seed: Option<u64>,
    /// The write's number.
    pub numberio: Option<u64>,
}

/// What was wrong with a chunk.
// Checksums are held inline so that a check allocates nothing, even when it fails.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MismatchKind {
    /// The magic number is not [`MAGIC`].
    Magic,
    /// The header's CRC does not match its bytes (the value computed is `expected`).
    HeaderCrc {
        /// The CRC of the header's bytes.
        computed: u32,
    },
    /// The header names another method.
    Method,
    /// The header covers another length.
    Length,
    /// The header covers another offset.
    Offset,
    /// The header holds another seed.
    Seed,
    /// The header holds another write number.
    Numberio,
    /// The data's checksum is not the one in the header.
    Checksum {
        /// The checksum stored in the header (field bytes).
        stored: [u8; MAX_DIGEST],
        /// The checksum of the data read (field bytes).
        computed: [u8; MAX_DIGEST],
        /// The field's length.
        len: usize,
    },
    /// A byte differs from the pattern.
    Pattern {
        /// The byte's index in the chunk.
        at: usize,
        /// The pattern's byte.
        expected: u8,
        /// The byte read.
        found: u8,
    },
}

/// One chunk that failed its check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mismatch {
    /// The chunk's file offset.
    pub offset: u64,
    /// The chunk's length.
    pub len: usize,
    /// The chunk's start in the block.
    pub chunk_start: usize,
    /// What was wrong.
    pub kind: MismatchKind,
    /// The header as found (all zeros for `pattern`).
    pub found: Header,
    /// The header as it should be.
    pub expected: Header,
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (e, g) = (&self.expected, &self.found);
        match self.kind {
            MismatchKind::Magic => {
                write!(f, "bad magic header {:x}, wanted {:x}", g.magic, e.magic)
            }
            MismatchKind::HeaderCrc { computed } => {
                write!(f, "bad header crc {:x}, calculated {:x}", g.crc, computed)
            }
            MismatchKind::Method => {
                write!(f, "verify type mismatch ({} media, {} given)", g.method, e.method)
            }
            MismatchKind::Length => write!(f, "bad header length {}, wanted {}", g.len, e.len),
            MismatchKind::Offset => {
                write!(f, "bad header offset {}, wanted {}", g.offset, e.offset)
            }
            MismatchKind::Seed => write!(f, "bad header rand_seed {}, wanted {}", g.seed, e.seed),
            MismatchKind::Numberio => {
                write!(f, "bad header numberio {}, wanted {}", g.numberio, e.numberio)
            }
            MismatchKind::Checksum { stored, computed, len } => write!(
                f,
                "checksum mismatch: Expected CRC: {} Received CRC: {}",
                hex(&stored[..len]),
                hex(&computed[..len])
            ),
            MismatchKind::Pattern { at, expected, found } => write!(
                f,
                "pattern mismatch at byte {at} (file offset {}): expected {expected:#04x}, \
                 received {found:#04x}",
                self.offset + at as u64
            ),
        }
    }
}

impl VerifyFormat {
    /// The header plus the checksum field.
    pub fn header_total(&self) -> usize {
        if self.method.has_header() {
            HEADER_LEN + self.method.field_len()
        } else {
            0
        }
    }

    /// The chunks of a block of `len` bytes: (start, length).
    fn chunks(&self, len: usize) -> impl Iterator<Item = (usize, usize)> {
        let step = if self.interval == 0 { len.max(1) } else { self.interval };
        (0..len).step_by(step).map(move |s| (s, step.min(len - s)))
    }

    /// Where the header goes in a chunk of `len` bytes, if it fits there.
    fn header_at(&self, len: usize) -> Option<usize> {
        let total = self.header_total();
        if total == 0 || total > len {
            return None;
        }
        Some(if self.header_offset + total <= len { self.header_offset } else { 0 })
    }

    /// Prepares `buf`, the contents of a write at file `offset`: the pattern (when set),
    /// then each chunk's header and checksum. Allocates nothing.
    pub fn stamp(&self, buf: &mut [u8], offset: u64, stamp: &Stamp) {
        if self.method == Method::Null {
            return;
        }
        if let Some(p) = &self.pattern {
            p.fill(buf, offset, 0);
        }
        let total = self.header_total();
        let mut field = [0u8; MAX_DIGEST];
        for (start, len) in self.chunks(buf.len()) {
            let Some(at) = self.header_at(len) else { continue };
            let chunk = &mut buf[start..start + len];
            let n = self.method.checksum(&chunk[total..], &mut field);
            chunk[HEADER_LEN..HEADER_LEN + n].copy_from_slice(&field[..n]);
            self.header(offset + start as u64, len, stamp).write(chunk);
            swap(chunk, at, total, false);
        }
    }

    fn header(&self, offset: u64, len: usize, stamp: &Stamp) -> Header {
        Header {
            magic: MAGIC,
            method: self.method.type_code(),
            len: len as u32,
            seed: stamp.seed,
            offset,
            time_sec: 0,
            time_nsec: 0,
            thread: stamp.thread,
            numberio: stamp.numberio as u16,
            crc: 0,
        }
    }

    /// Checks `buf`, read back from file `offset`; on failure names the first chunk that
    /// fails. Headers moved by `verify_offset` are put back in place (the buffer is
    /// changed). Allocates nothing (the large error is on purpose: see [`MismatchKind`]).
    #[allow(clippy::result_large_err)]
    pub fn check(&self, buf: &mut [u8], offset: u64, expect: &Expect) -> Result<(), Mismatch> {
        if self.method == Method::Null {
            return Ok(());
        }
        let total = self.header_total();
        for (start, len) in self.chunks(buf.len()) {
            let at_file = offset + start as u64;
            let chunk = &mut buf[start..start + len];
            let mut want = self.header(at_file, len, &Stamp::default());
            let mismatch = |kind, found, expected| Mismatch {
                offset: at_file,
                len,
                chunk_start: start,
                kind,
                found,
                expected,
            };
            if self.method == Method::Pattern {
                if let Some(p) = &self.pattern {
                    if let Some((at, expected, found)) = p.first_difference(chunk, offset, start) {
                        let kind = MismatchKind::Pattern { at, expected, found };
                        return Err(mismatch(kind, Header::default(), want));
                    }
                }
                continue;
            }
            let Some(at) = self.header_at(len) else { continue };
            swap(chunk, at, total, true);
            let found = Header::read(chunk);
            want.seed = expect.seed.unwrap_or(found.seed);
            want.numberio = expect.numberio.map_or(found.numberio, |n| n as u16);
            want.thread = found.thread;
            let computed = method::header_crc(&chunk[..36]);
            want.crc = computed;
            let fail = |kind| mismatch(kind, found, want);
            // fio 3.33's order, found by damaging each header field of its blocks: the
            // magic, the length and the offset are checked before the header's CRC.
            if found.magic != MAGIC {
                return Err(fail(MismatchKind::Magic));
            }
            if found.len != want.len {
                return Err(fail(MismatchKind::Length));
            }
            if found.offset != want.offset {
                return Err(fail(MismatchKind::Offset));
            }
            if found.crc != computed {
                return Err(fail(MismatchKind::HeaderCrc { computed }));
            }
            if found.method != want.method {
                return Err(fail(MismatchKind::Method));
            }
            if found.seed != want.seed {
                return Err(fail(MismatchKind::Seed));
            }
            if found.numberio != want.numberio {
                return Err(fail(MismatchKind::Numberio));
            }
            if self.method.has_checksum() {
                let mut computed = [0u8; MAX_DIGEST];
                let n = self.method.checksum(&chunk[total..], &mut computed);
                let mut stored = [0u8; MAX_DIGEST];
                stored[..n].copy_from_slice(&chunk[HEADER_LEN..HEADER_LEN + n]);
                if stored[..n] != computed[..n] {
                    return Err(fail(MismatchKind::Checksum { stored, computed, len: n }));
                }
            }
            if let (Method::PatternHdr, Some(p)) = (self.method, &self.pattern) {
                if let Some((i, expected, found)) =
                    p.first_difference(&chunk[total..], offset, start + total)
                {
                    let at = total + i;
                    return Err(fail(MismatchKind::Pattern { at, expected, found }));
                }
            }
        }
        Ok(())
    }

    /// What a block at `offset` should hold, for `verify_dump`'s expected file, made from
    /// `received` (what was read, headers already back in place by [`VerifyFormat::check`]):
    /// the pattern where there is one, and every header rewritten with the expected fields
    /// (keeping the stored seed, thread and number where nothing else is known) and the
    /// stored checksum (the data under a checksum cannot be known).
    pub fn expected_block(&self, received: &[u8], offset: u64, expect: &Expect, out: &mut [u8]) {
        out.copy_from_slice(received);
        if self.method == Method::Null {
            return;
        }
        if let Some(p) = &self.pattern {
            p.fill(out, offset, 0);
            let total = self.header_total();
            for (start, len) in self.chunks(out.len()) {
                if self.header_at(len).is_some() && self.method.has_checksum() {
                    let src = &received[start + total..start + len];
                    out[start + total..start + len].copy_from_slice(src);
                }
            }
        }
        for (start, len) in self.chunks(out.len()) {
            if self.header_at(len).is_none() {
                continue;
            }
            let chunk = &mut out[start..start + len];
            let found = Header::read(&received[start..start + len]);
            let stamp = Stamp {
                seed: expect.seed.unwrap_or(found.seed),
                thread: found.thread,
                numberio: expect.numberio.unwrap_or(u64::from(found.numberio)),
            };
            let n = self.method.field_len();
            chunk[HEADER_LEN..HEADER_LEN + n]
                .copy_from_slice(&received[start + HEADER_LEN..start + HEADER_LEN + n]);
            self.header(offset + start as u64, len, &stamp).write(chunk);
        }
    }
}

/// Moves the header (`total` bytes at the chunk's start) to `at`, and the bytes there to
/// the start; `back` undoes it.
fn swap(chunk: &mut [u8], at: usize, total: usize, back: bool) {
    if at == 0 {
        return;
    }
    if at >= total {
        let (a, b) = chunk.split_at_mut(at);
        a[..total].swap_with_slice(&mut b[..total]);
    } else {
        // Overlapping ranges: a rotation puts the header at `at` and the bytes it covers
        // in front of it.
        if back {
            chunk[..at + total].rotate_left(at);
        } else {
            chunk[..at + total].rotate_right(at);
        }
    }
}
