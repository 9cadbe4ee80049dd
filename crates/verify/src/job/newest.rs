//! Which writes are still the newest of their place, for `verify_backlog`.
//!
//! A backlog verify read checks a logged write while the job goes on writing. With
//! `norandommap`, several loops or overlapping block sizes, a newer write may already have
//! overwritten that place (it completed, or it is in flight and the read would wait for
//! it): the block then holds the newer data, and checking it against the older write would
//! report a failure that is none. Such a superseded write is dropped instead (fio 3.33
//! drops it too); the newer one is logged and verified in its turn, so the newest write of
//! every place is verified exactly once.
//!
//! The table maps each grain (`grain` bytes of a file) to the number of the newest write
//! issued over it. A write registers its grains when it is issued; when the backlog draws
//! a logged write it is the newest of its place if every one of its grains still holds its
//! number, and its grains are then forgotten (a later write registers again). The grain is
//! the largest size that divides every write's offset and length (so two writes share a
//! grain exactly when they overlap), but no smaller than a 64th of the largest block; a
//! job whose writes are aligned more finely than that (`bs_unaligned`, an odd `blockalign`
//! or `offset`) may see two writes that touch one grain without overlapping, and then the
//! older one is dropped although still the newest of its bytes: less is verified, nothing
//! is reported wrongly.
//!
//! The table is open addressing with linear probing, reserved when the job starts for
//! four times the writes a backlog round can hold (a batch begins whenever
//! `verify_backlog` writes wait, so no more wait than that and the ones in flight); like
//! the write log, it grows (doubling) only if more writes wait to be verified.

use super::written::Written;

/// The fewest grains a block of the largest size may span before the grain is coarsened.
const MAX_GRAINS_PER_BLOCK: u64 = 64;

/// An empty slot's write number.
const EMPTY: u64 = u64::MAX;

#[derive(Debug, Clone, Copy)]
struct Slot {
    file: u32,
    grain: u64,
    numberio: u64,
}

const FREE: Slot = Slot { file: 0, grain: 0, numberio: EMPTY };

/// The newest write issued over each grain of the job's files.
#[derive(Debug)]
pub(super) struct Newest {
    grain: u64,
    slots: Vec<Slot>,
    used: usize,
}

impl Newest {
    /// A table for grains of `grain` bytes (the largest block being `max_bs`), with room
    /// for `writes` writes.
    pub(super) fn new(grain: u64, max_bs: u64, writes: u64) -> Newest {
        let grain = grain.max(max_bs / MAX_GRAINS_PER_BLOCK).max(1);
        let per_write = max_bs.div_ceil(grain) + 1;
        let want = (writes.saturating_mul(per_write).saturating_mul(2)).clamp(64, 1 << 24);
        Newest { grain, slots: vec![FREE; want.next_power_of_two() as usize], used: 0 }
    }

    fn grains(&self, w: &Written) -> std::ops::RangeInclusive<u64> {
        let end = w.offset + u64::from(w.len.max(1)) - 1;
        w.offset / self.grain..=end / self.grain
    }

    fn home(&self, file: u32, grain: u64) -> usize {
        let h = (grain ^ (u64::from(file) << 48)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        (h >> 32) as usize & (self.slots.len() - 1)
    }

    /// The slot of (`file`, `grain`), or the free slot where it would go.
    fn find(&self, file: u32, grain: u64) -> usize {
        let mask = self.slots.len() - 1;
        let mut i = self.home(file, grain);
        loop {
            let s = &self.slots[i];
            if s.numberio == EMPTY || (s.file == file && s.grain == grain) {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    /// Write `w` was issued: it is now the newest of its grains.
    #[inline]
    pub(super) fn issued(&mut self, w: &Written) {
        let grains = self.grains(w);
        if (self.used + (grains.end() - grains.start()) as usize + 1) * 2 > self.slots.len() {
            self.grow();
        }
        for grain in grains {
            let i = self.find(w.file, grain);
            if self.slots[i].numberio == EMPTY {
                self.used += 1;
            }
            self.slots[i] = Slot { file: w.file, grain, numberio: w.numberio };
        }
    }

    /// The backlog draws logged write `w`: whether nothing newer was issued over any of its
    /// bytes. Its grains are forgotten either way.
    #[inline]
    pub(super) fn take(&mut self, w: &Written) -> bool {
        let mut newest = true;
        for grain in self.grains(w) {
            let i = self.find(w.file, grain);
            match self.slots[i].numberio {
                EMPTY => {}
                n if n == w.numberio => self.remove(i),
                _ => newest = false,
            }
        }
        newest
    }

    /// Whether nothing newer than write `w` was issued over any of its bytes (as
    /// [`Newest::take`], but forgetting nothing).
    pub(super) fn holds(&self, w: &Written) -> bool {
        self.grains(w).all(|grain| {
            let n = self.slots[self.find(w.file, grain)].numberio;
            n == EMPTY || n == w.numberio
        })
    }

    /// Write `w` failed: the grains it is the newest of are forgotten.
    pub(super) fn forget(&mut self, w: &Written) {
        for grain in self.grains(w) {
            let i = self.find(w.file, grain);
            if self.slots[i].numberio == w.numberio {
                self.remove(i);
            }
        }
    }

    /// Forgets everything (the verify phase reads back what is left on its own terms).
    pub(super) fn clear(&mut self) {
        self.slots.fill(FREE);
        self.used = 0;
    }

    /// Empties slot `i`, moving back the entries of its probe run that it separated from
    /// their home (backward-shift deletion keeps every entry reachable without tombstones).
    fn remove(&mut self, i: usize) {
        let mask = self.slots.len() - 1;
        let mut hole = i;
        let mut j = (i + 1) & mask;
        while self.slots[j].numberio != EMPTY {
            let home = self.home(self.slots[j].file, self.slots[j].grain);
            // The entry at j may fill the hole if its home is not cyclically in (hole, j].
            if (j.wrapping_sub(home) & mask) >= (j.wrapping_sub(hole) & mask) {
                self.slots[hole] = self.slots[j];
                hole = j;
            }
            j = (j + 1) & mask;
        }
        self.slots[hole] = FREE;
        self.used -= 1;
    }

    /// Doubles the table (the uncommon path: more writes wait than it was reserved for).
    #[cold]
    fn grow(&mut self) {
        let doubled = vec![FREE; self.slots.len() * 2];
        let old = std::mem::replace(&mut self.slots, doubled);
        for s in old.into_iter().filter(|s| s.numberio != EMPTY) {
            let i = self.find(s.file, s.grain);
            self.slots[i] = s;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::written::tests::w;
    use super::*;

    #[test]
    fn a_newer_write_over_any_byte_supersedes_an_older_one() {
        let mut t = Newest::new(4096, 16384, 8);
        t.issued(&w(0, 16384, 0));
        t.issued(&w(12288, 4096, 1));
        t.issued(&w(32768, 4096, 2));
        assert!(!t.take(&w(0, 16384, 0)));
        assert!(t.take(&w(12288, 4096, 1)));
        assert!(t.take(&w(32768, 4096, 2)));
        assert_eq!(t.used, 0);
        // Taken grains are free again: the next write there is the newest.
        t.issued(&w(0, 4096, 3));
        assert!(t.take(&w(0, 4096, 3)));
    }

    #[test]
    fn files_are_apart_and_a_failed_write_is_forgotten() {
        let mut t = Newest::new(512, 4096, 4);
        let other = Written { file: 1, ..w(0, 4096, 1) };
        t.issued(&w(0, 4096, 0));
        t.issued(&other);
        t.forget(&other);
        assert_eq!(t.used, 8);
        assert!(t.take(&w(0, 4096, 0)));
        assert_eq!(t.used, 0);
    }

    #[test]
    fn removal_keeps_every_entry_reachable_while_the_table_grows() {
        // Many writes of one grain each, removed in a scattered order, over several growths.
        let mut t = Newest::new(1, 1, 1);
        let writes: Vec<Written> = (0..5000).map(|i| w(i * 7919 % 10007, 1, i)).collect();
        for x in &writes {
            t.issued(x);
        }
        for x in writes.iter().step_by(3) {
            assert!(t.take(x));
        }
        for (i, x) in writes.iter().enumerate().filter(|(i, _)| i % 3 != 0) {
            assert!(t.take(x), "write {i}");
        }
        assert_eq!(t.used, 0);
    }

    #[test]
    fn the_grain_is_coarsened_for_fine_alignment() {
        let t = Newest::new(1, 1 << 20, 1);
        assert_eq!(t.grain, (1 << 20) / MAX_GRAINS_PER_BLOCK);
    }
}
