//! `verify_pattern`: fio's pattern syntax (as `buffer_pattern`) plus `%o`, which stands for
//! the 8 bytes of the block's file offset, little-endian (fio 3.33: `0xaa%o"xy"` at offset
//! 4096 writes `aa 00 10 00 00 00 00 00 00 78 79`, repeated).

use iomark_workload::{Pattern, PatternError, MAX_PATTERN};

/// The most `%o` a pattern may hold.
pub const MAX_OFFSET_SLOTS: usize = 8;
/// The most bytes a pattern expands to (pieces plus 8 bytes per `%o`).
pub const MAX_VERIFY_PATTERN: usize = MAX_PATTERN + 8 * MAX_OFFSET_SLOTS;

/// A parsed `verify_pattern`: fixed bytes, with 8-byte slots where `%o` stood.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct VerifyPattern {
    bytes: [u8; MAX_VERIFY_PATTERN],
    len: u16,
    slots: [u16; MAX_OFFSET_SLOTS],
    nslots: u8,
}

impl std::fmt::Debug for VerifyPattern {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VerifyPattern")
            .field("bytes", &&self.bytes[..usize::from(self.len)])
            .field("slots", &&self.slots[..usize::from(self.nslots)])
            .finish()
    }
}

impl VerifyPattern {
    /// Parses `text`; `read_file` reads the file of a `'name'` piece.
    pub fn parse(
        text: &str,
        mut read_file: impl FnMut(&str) -> std::io::Result<Vec<u8>>,
    ) -> Result<VerifyPattern, PatternError> {
        let mut p = VerifyPattern {
            bytes: [0; MAX_VERIFY_PATTERN],
            len: 0,
            slots: [0; MAX_OFFSET_SLOTS],
            nslots: 0,
        };
        let mut pieces = text.split("%o").peekable();
        while let Some(piece) = pieces.next() {
            if !piece.is_empty() {
                let part = Pattern::parse(piece, &mut read_file)?;
                p.push(part.as_bytes())?;
            }
            if pieces.peek().is_some() {
                if usize::from(p.nslots) == MAX_OFFSET_SLOTS {
                    return Err(PatternError::TooLong);
                }
                p.slots[usize::from(p.nslots)] = p.len;
                p.nslots += 1;
                p.push(&[0; 8])?;
            }
        }
        if p.len == 0 {
            return Err(PatternError::Empty);
        }
        Ok(p)
    }

    fn push(&mut self, bytes: &[u8]) -> Result<(), PatternError> {
        let at = usize::from(self.len);
        if at + bytes.len() > MAX_VERIFY_PATTERN || at + bytes.len() > usize::from(u16::MAX) {
            return Err(PatternError::TooLong);
        }
        self.bytes[at..at + bytes.len()].copy_from_slice(bytes);
        self.len += bytes.len() as u16;
        Ok(())
    }

    /// The pattern's length in bytes.
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// Whether the pattern is empty (never, once parsed).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether the pattern holds `%o`.
    pub fn has_offset(&self) -> bool {
        self.nslots > 0
    }

    /// The pattern's bytes for a block at `offset`.
    fn expanded(&self, offset: u64) -> [u8; MAX_VERIFY_PATTERN] {
        let mut b = self.bytes;
        for &s in &self.slots[..usize::from(self.nslots)] {
            let s = usize::from(s);
            b[s..s + 8].copy_from_slice(&offset.to_le_bytes());
        }
        b
    }

    /// Fills `buf` with the pattern for a block at `offset`, from the pattern's byte
    /// `phase` (the pattern runs on from the block's first byte).
    pub fn fill(&self, buf: &mut [u8], offset: u64, phase: usize) {
        let b = self.expanded(offset);
        let pat = &b[..self.len()];
        if let [byte] = pat {
            buf.fill(*byte);
            return;
        }
        let mut k = phase % pat.len();
        for x in buf.iter_mut() {
            *x = pat[k];
            k += 1;
            if k == pat.len() {
                k = 0;
            }
        }
    }

    /// The first byte of `buf` that differs from the pattern (for a block at `offset`,
    /// from the pattern's byte `phase`): its index, the expected and the found byte.
    pub fn first_difference(
        &self,
        buf: &[u8],
        offset: u64,
        phase: usize,
    ) -> Option<(usize, u8, u8)> {
        let b = self.expanded(offset);
        let pat = &b[..self.len()];
        let mut k = phase % pat.len();
        for (i, &x) in buf.iter().enumerate() {
            if x != pat[k] {
                return Some((i, pat[k], x));
            }
            k += 1;
            if k == pat.len() {
                k = 0;
            }
        }
        None
    }
}
