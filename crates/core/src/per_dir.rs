//! [`PerDir`]: one value per data direction, fio's `bs=4k,8k,16k` convention.

use crate::ddir::Ddir;

/// One value per data direction, in fio's order (the `bs=4k,8k,16k` convention).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PerDir<T> {
    /// The value for reads.
    pub read: T,
    /// The value for writes.
    pub write: T,
    /// The value for trims.
    pub trim: T,
}

impl<T: Clone> PerDir<T> {
    /// The same value for all three directions.
    pub fn all(value: T) -> PerDir<T> {
        PerDir { read: value.clone(), write: value.clone(), trim: value }
    }
}

impl<T> PerDir<T> {
    /// The value for `dir`.
    ///
    /// # Panics
    ///
    /// For a sync, which has no value of its own.
    pub fn get(&self, dir: Ddir) -> &T {
        match dir {
            Ddir::Read => &self.read,
            Ddir::Write => &self.write,
            Ddir::Trim => &self.trim,
            Ddir::Sync | Ddir::Datasync | Ddir::SyncFileRange => {
                panic!("no per-direction value for {dir:?}")
            }
        }
    }
}

impl<T> std::ops::Index<Ddir> for PerDir<T> {
    type Output = T;

    /// See [`PerDir::get`].
    fn index(&self, dir: Ddir) -> &T {
        self.get(dir)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_follow_their_direction() {
        let v = PerDir { read: 1, write: 2, trim: 3 };
        assert_eq!(Ddir::DATA.map(|d| v[d]), [1, 2, 3]);
        assert_eq!(Ddir::DATA.map(|d| *v.get(d)), [1, 2, 3]);
        assert_eq!(PerDir::all(7), PerDir { read: 7, write: 7, trim: 7 });
    }

    #[test]
    #[should_panic(expected = "no per-direction value")]
    fn a_sync_has_no_value() {
        let _ = PerDir::all(0).get(Ddir::Sync);
    }
}
