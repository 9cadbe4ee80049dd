//! [`Ddir`]: what one I/O does, fio's `ddir`.

/// What an I/O does: one of the three data directions, in fio's order (their values
/// index every per-direction array), or one of the syncs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Ddir {
    /// Read `len` bytes at `offset`.
    Read = 0,
    /// Write `len` bytes at `offset`.
    Write = 1,
    /// Discard (trim) `len` bytes at `offset`.
    Trim = 2,
    /// `fsync` the file.
    Sync = 3,
    /// `fdatasync` the file.
    Datasync = 4,
    /// `sync_file_range(2)` of `len` bytes at `offset` with the unit's `sync_flags`. A
    /// length of 0 means that nothing was written since the file's last sync: the engines
    /// that sync a range make no call then (to the kernel, 0 would mean "to the end of the
    /// file"), as fio 3.33 does; those that sync the whole file (posixaio, mmap) sync it.
    SyncFileRange = 5,
}

impl Ddir {
    /// The three data directions, in fio's order (reads, writes, trims).
    pub const DATA: [Ddir; 3] = [Ddir::Read, Ddir::Write, Ddir::Trim];

    /// Whether this is a data direction (a read, a write or a trim), not a sync.
    #[inline]
    pub const fn is_data(self) -> bool {
        (self as u8) < 3
    }

    /// The index of a data direction in per-direction arrays (read 0, write 1, trim 2),
    /// for the hot loop: no branch and no `Option`. Only for data directions: a sync's
    /// value (3 and up) indexes past a per-direction array (checked in debug builds).
    #[inline(always)]
    pub const fn index(self) -> usize {
        debug_assert!(self.is_data(), "index() of a sync");
        self as usize
    }

    /// The index of a data direction in per-direction arrays (read 0, write 1, trim 2);
    /// `None` for syncs.
    #[inline]
    pub const fn data_index(self) -> Option<usize> {
        if self.is_data() {
            Some(self as usize)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_directions_index_per_direction_arrays() {
        assert_eq!(Ddir::DATA.map(Ddir::index), [0, 1, 2]);
        assert_eq!(Ddir::Read.data_index(), Some(0));
        assert_eq!(Ddir::Trim.data_index(), Some(2));
        assert_eq!(Ddir::Sync.data_index(), None);
        assert_eq!(Ddir::Datasync.data_index(), None);
        assert_eq!(Ddir::SyncFileRange.data_index(), None);
        assert!(Ddir::DATA.iter().all(|d| d.is_data()));
    }
}
