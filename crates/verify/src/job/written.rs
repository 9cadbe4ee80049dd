//! One write as verification logs it ([`Written`]): where it went, its number, and whether
//! (and when) a trim zeroed it.

use super::trim::Trimmed;

/// One completed write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Written {
    /// File index in the job.
    pub file: u32,
    /// Length in bytes.
    pub len: u32,
    /// File offset.
    pub offset: u64,
    /// The write's number in the job.
    pub numberio: u64,
    /// Whether, and when, `trim_percentage` trimmed it.
    pub trimmed: Trimmed,
}

impl Written {
    /// Whether `other` touches any of the same bytes.
    pub(super) fn overlaps(&self, other: &Written) -> bool {
        self.file == other.file
            && self.offset < other.offset + u64::from(other.len)
            && other.offset < self.offset + u64::from(self.len)
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// A write of file 0.
    pub(crate) fn w(offset: u64, len: u32, numberio: u64) -> Written {
        Written { file: 0, len, offset, numberio, trimmed: Trimmed::No }
    }
}
