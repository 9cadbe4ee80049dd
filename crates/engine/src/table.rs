//! A job's units and their free list as one table ([`UnitTable`]) indexed without bounds
//! checks: its indexes ([`Slot`]) are made only by the table, and carry the table's brand
//! (a lifetime no other table has), so every slot is in range of the one table that takes
//! it.
//!
//! The brand is a lifetime made fresh for each call of [`UnitTable::scope`] (the closure is
//! generic over it, so no two calls share one, and it is invariant, so it neither shrinks
//! nor grows to match another). [`Brand`] is the one token of that lifetime; it cannot be
//! copied, and [`UnitTable::new`] consumes it: one table per brand. A slot of one table
//! does not type-check as a slot of another.

use crate::unit::IoUnit;
use std::marker::PhantomData;

/// An invariant lifetime marker: `'id` can be neither shortened nor lengthened.
type Invariant<'id> = PhantomData<fn(&'id ()) -> &'id ()>;

/// The one token of a brand `'id`: what [`UnitTable::new`] needs to make the table of
/// that brand. Only [`UnitTable::scope`] makes it.
pub struct Brand<'id>(Invariant<'id>);

/// The index of a unit of the table of brand `'id`: always less than its number of
/// units. Only the table makes slots.
///
/// A slot of one table does not fit another:
///
/// ```compile_fail
/// use iomark_engine::{IoUnit, UnitTable};
/// UnitTable::scope(|a| {
///     UnitTable::scope(|b| {
///         let mut big = UnitTable::new((0..4).filter_map(|i| IoUnit::new(i, 512, 512)).collect(), a);
///         let small = UnitTable::new(Vec::new(), b);
///         let slot = big.pop().unwrap();
///         let _ = small.get(slot);
///     })
/// });
/// ```
///
/// nor outlives its table's scope:
///
/// ```compile_fail
/// use iomark_engine::{IoUnit, UnitTable};
/// let slot = UnitTable::scope(|a| {
///     let mut t = UnitTable::new((0..4).filter_map(|i| IoUnit::new(i, 512, 512)).collect(), a);
///     t.pop()
/// });
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Slot<'id> {
    index: u32,
    brand: Invariant<'id>,
}

impl Slot<'_> {
    /// The unit's index in its table (the unit's [`IoUnit::index`]).
    #[inline(always)]
    pub fn index(self) -> u32 {
        self.index
    }
}

/// A job's units and the free list of those not in flight.
pub struct UnitTable<'id> {
    /// The units; their number never changes.
    units: Box<[IoUnit]>,
    /// The free units, a stack: the first `free_len` entries, each less than the number
    /// of units.
    free: Box<[u32]>,
    /// How many units are free.
    free_len: usize,
    brand: Invariant<'id>,
}

impl UnitTable<'_> {
    /// Calls `f` with a brand no other call has.
    pub fn scope<R>(f: impl for<'id> FnOnce(Brand<'id>) -> R) -> R {
        f(Brand(PhantomData))
    }
}

impl<'id> UnitTable<'id> {
    /// The table of `units` (unit `i` at index `i`), every one free; unit 0 is taken
    /// first. Units beyond what a `u32` counts are left out (an `iodepth` is a `u32`).
    pub fn new(mut units: Vec<IoUnit>, brand: Brand<'id>) -> Self {
        units.truncate(u32::MAX as usize);
        let n = units.len() as u32;
        UnitTable {
            units: units.into_boxed_slice(),
            free: (0..n).rev().collect(),
            free_len: n as usize,
            brand: brand.0,
        }
    }

    /// The number of units.
    pub fn len(&self) -> usize {
        self.units.len()
    }

    /// Whether the table has no unit.
    pub fn is_empty(&self) -> bool {
        self.units.is_empty()
    }

    /// The slot of index `index`, if the table has such a unit (for indexes an engine
    /// hands back).
    #[inline(always)]
    pub fn slot(&self, index: u32) -> Option<Slot<'id>> {
        ((index as usize) < self.units.len()).then_some(Slot { index, brand: self.brand })
    }

    /// The unit of `slot`.
    #[inline(always)]
    pub fn get(&self, slot: Slot<'id>) -> &IoUnit {
        debug_assert!((slot.index as usize) < self.units.len());
        // SAFETY: only this table makes slots of its brand, each less than its number of
        // units, which never changes.
        unsafe { self.units.get_unchecked(slot.index as usize) }
    }

    /// The unit of `slot`, to change.
    #[inline(always)]
    pub fn get_mut(&mut self, slot: Slot<'id>) -> &mut IoUnit {
        debug_assert!((slot.index as usize) < self.units.len());
        // SAFETY: as in `get`.
        unsafe { self.units.get_unchecked_mut(slot.index as usize) }
    }

    /// Every unit (for the engine's `setup` and `reap`).
    pub fn units_mut(&mut self) -> &mut [IoUnit] {
        &mut self.units
    }

    /// Every unit.
    pub fn units(&self) -> &[IoUnit] {
        &self.units
    }

    /// Takes a free unit, the one freed last.
    #[inline(always)]
    pub fn pop(&mut self) -> Option<Slot<'id>> {
        if self.free_len == 0 {
            return None;
        }
        self.free_len -= 1;
        debug_assert!(self.free_len < self.free.len());
        // SAFETY: `free_len` was at most `free.len()` and is now one less.
        let index = unsafe { *self.free.get_unchecked(self.free_len) };
        debug_assert!((index as usize) < self.units.len());
        Some(Slot { index, brand: self.brand })
    }

    /// Gives unit `slot` back. A unit given back twice without being taken between is a
    /// bug of the caller; the table stays sound (it ignores a push beyond its size) and a
    /// debug build panics.
    #[inline(always)]
    pub fn push(&mut self, slot: Slot<'id>) {
        if self.free_len < self.free.len() {
            // SAFETY: `free_len` is less than `free.len()`, just tested.
            unsafe { *self.free.get_unchecked_mut(self.free_len) = slot.index };
            self.free_len += 1;
        } else {
            debug_assert!(false, "unit {} given back to a full free list", slot.index);
        }
    }

    /// Whether no unit is free.
    #[inline(always)]
    pub fn none_free(&self) -> bool {
        self.free_len == 0
    }

    /// An empty list with room for every unit of the table (for the units queued since
    /// the last commit).
    pub fn slot_list(&self) -> SlotList<'id> {
        let filler = Slot { index: 0, brand: self.brand };
        SlotList { items: vec![filler; self.units.len()].into_boxed_slice(), len: 0 }
    }

    /// Whether unit `index` is free.
    pub fn is_free(&self, index: u32) -> bool {
        self.free[..self.free_len].contains(&index)
    }
}

/// Slots in the order they were pushed, with room for as many as the table has units and
/// never more: a push tests one bound and never allocates (what `Vec::push` does beyond its
/// capacity stays out of the loop). Made by [`UnitTable::slot_list`].
pub struct SlotList<'id> {
    /// The slots: the first `len` entries were pushed, the rest are filler never handed out.
    items: Box<[Slot<'id>]>,
    /// How many slots were pushed.
    len: usize,
}

impl<'id> SlotList<'id> {
    /// Appends `slot`. A list already holding as many slots as the table has units is a
    /// bug of the caller (a unit pushed twice): the push is ignored and a debug build
    /// panics.
    #[inline(always)]
    pub fn push(&mut self, slot: Slot<'id>) {
        if let Some(item) = self.items.get_mut(self.len) {
            *item = slot;
            self.len += 1;
        } else {
            debug_assert!(false, "unit {} pushed to a full slot list", slot.index);
        }
    }

    /// How many slots the list holds.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list holds no slot.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The slots, first pushed first.
    #[inline(always)]
    pub fn as_slice(&self) -> &[Slot<'id>] {
        &self.items[..self.len]
    }

    /// Removes the first `n` slots (all of them when `n` is at least their number).
    #[inline]
    pub fn remove_first(&mut self, n: usize) {
        if n >= self.len {
            self.len = 0;
        } else {
            self.items.copy_within(n..self.len, 0);
            self.len -= n;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn units(n: u32) -> Vec<IoUnit> {
        (0..n).map(|i| IoUnit::new(i, 512, 512).unwrap()).collect()
    }

    #[test]
    fn takes_unit_zero_first_and_the_last_freed_next() {
        UnitTable::scope(|brand| {
            let mut t = UnitTable::new(units(3), brand);
            assert_eq!(t.len(), 3);
            let a = t.pop().unwrap();
            let b = t.pop().unwrap();
            assert_eq!((a.index(), b.index()), (0, 1));
            assert!(!t.is_free(0) && t.is_free(2));
            t.push(a);
            assert_eq!(t.pop().unwrap().index(), 0);
            let c = t.pop().unwrap();
            assert_eq!(c.index(), 2);
            assert!(t.none_free());
            assert!(t.pop().is_none());
            t.get_mut(c).offset = 7;
            assert_eq!(t.get(c).offset, 7);
            assert_eq!(t.get(c).index, 2);
        });
    }

    #[test]
    fn slots_of_indexes_are_checked() {
        UnitTable::scope(|brand| {
            let t = UnitTable::new(units(2), brand);
            assert_eq!(t.slot(1).map(Slot::index), Some(1));
            assert!(t.slot(2).is_none());
            assert!(t.slot(u32::MAX).is_none());
        });
    }

    #[test]
    fn nested_tables_each_take_their_own_slots() {
        // What the compile_fail examples on `Slot` change: `small.get` of `big`'s slot.
        UnitTable::scope(|a| {
            UnitTable::scope(|b| {
                let mut big = UnitTable::new(units(4), a);
                let mut small = UnitTable::new(units(1), b);
                let slot = big.pop().unwrap();
                assert_eq!(big.get(slot).index, 0);
                let other = small.pop().unwrap();
                assert_eq!(small.get(other).index, 0);
            })
        });
        let index = UnitTable::scope(|a| UnitTable::new(units(4), a).pop().map(Slot::index));
        assert_eq!(index, Some(0));
    }

    #[test]
    fn a_slot_list_keeps_order_and_removes_from_the_front() {
        UnitTable::scope(|brand| {
            let mut t = UnitTable::new(units(3), brand);
            let mut list = t.slot_list();
            assert!(list.is_empty());
            let (a, b, c) = (t.pop().unwrap(), t.pop().unwrap(), t.pop().unwrap());
            list.push(b);
            list.push(a);
            list.push(c);
            assert_eq!(list.len(), 3);
            let order: Vec<u32> = list.as_slice().iter().map(|s| s.index()).collect();
            assert_eq!(order, vec![1, 0, 2]);
            list.remove_first(1);
            let order: Vec<u32> = list.as_slice().iter().map(|s| s.index()).collect();
            assert_eq!(order, vec![0, 2]);
            list.remove_first(5);
            assert!(list.is_empty() && list.as_slice().is_empty());
        });
    }

    #[test]
    fn an_empty_table_has_no_slot() {
        UnitTable::scope(|brand| {
            let mut t = UnitTable::new(Vec::new(), brand);
            assert!(t.is_empty() && t.none_free());
            assert!(t.pop().is_none() && t.slot(0).is_none());
        });
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "given back to a full free list")]
    fn a_unit_given_back_twice_panics_in_debug_builds() {
        UnitTable::scope(|brand| {
            let mut t = UnitTable::new(units(1), brand);
            let a = t.pop().unwrap();
            t.push(a);
            t.push(a);
        });
    }
}
