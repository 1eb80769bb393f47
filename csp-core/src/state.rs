//! Typed trailed state. A constraint lays out its state once, when it is posted, as typed slots
//! handed out by the [`crate::PostCtx`]; it keeps the [`Slot`]s and [`Slots`] it was given and reads and writes
//! them through the contexts ([`crate::CheckCtx::get`], [`crate::PropagationCtx::set`]). The store
//! keeps the values in `i64` cells and trails every write, so undo needs no code in the
//! constraint.

use std::fmt;
use std::marker::PhantomData;

/// A value a state slot can hold, and how it is kept in `i64` cells.
pub trait StateValue: Copy {
    /// How many cells a value takes (1 or 2).
    const CELLS: usize;

    /// The value kept in `cells` (exactly [`CELLS`](StateValue::CELLS) of them). All-zero cells
    /// hold the value a slot starts with.
    fn load(cells: &[i64]) -> Self;

    /// The cells that keep `self`; only the first [`CELLS`](StateValue::CELLS) are written.
    fn store(self) -> [i64; 2];
}

impl StateValue for i64 {
    const CELLS: usize = 1;

    #[inline]
    fn load(cells: &[i64]) -> Self {
        cells[0]
    }

    #[inline]
    fn store(self) -> [i64; 2] {
        [self, 0]
    }
}

impl StateValue for u64 {
    const CELLS: usize = 1;

    #[inline]
    fn load(cells: &[i64]) -> Self {
        cells[0] as u64
    }

    #[inline]
    fn store(self) -> [i64; 2] {
        [self as i64, 0]
    }
}

impl StateValue for usize {
    const CELLS: usize = 1;

    #[inline]
    fn load(cells: &[i64]) -> Self {
        cells[0] as usize
    }

    #[inline]
    fn store(self) -> [i64; 2] {
        [self as i64, 0]
    }
}

impl StateValue for bool {
    const CELLS: usize = 1;

    #[inline]
    fn load(cells: &[i64]) -> Self {
        cells[0] != 0
    }

    #[inline]
    fn store(self) -> [i64; 2] {
        [i64::from(self), 0]
    }
}

/// Low word first.
impl StateValue for i128 {
    const CELLS: usize = 2;

    #[inline]
    fn load(cells: &[i64]) -> Self {
        (i128::from(cells[1]) << 64) | i128::from(cells[0] as u64)
    }

    #[inline]
    fn store(self) -> [i64; 2] {
        [self as i64, (self >> 64) as i64]
    }
}

/// One typed value of a constraint's trailed state: where it lies among the constraint's cells.
pub struct Slot<T> {
    cell: u32,
    value: PhantomData<fn() -> T>,
}

/// A run of typed values of a constraint's trailed state, indexed from 0.
pub struct Slots<T> {
    first: u32,
    len: u32,
    value: PhantomData<fn() -> T>,
}

// Derived impls would demand `T: Clone` and so on; a slot is a position whatever it holds.
impl<T> Clone for Slot<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Slot<T> {}

impl<T> fmt::Debug for Slot<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Slot({})", self.cell)
    }
}

impl<T> Clone for Slots<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Slots<T> {}

impl<T> fmt::Debug for Slots<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Slots({}, {})", self.first, self.len)
    }
}

impl<T: StateValue> Slot<T> {
    /// The first of the value's cells, within the constraint's cells.
    #[inline]
    pub(crate) fn cell(self) -> usize {
        self.cell as usize
    }
}

impl<T: StateValue> Slots<T> {
    /// The slot of value `index`.
    #[inline]
    pub fn at(self, index: usize) -> Slot<T> {
        debug_assert!(index < self.len as usize, "slot {index} of {}", self.len);
        Slot {
            cell: self.first + (index * T::CELLS) as u32,
            value: PhantomData,
        }
    }

    /// How many values the run holds.
    #[inline]
    pub fn len(self) -> usize {
        self.len as usize
    }

    /// Whether the run holds no value.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.len == 0
    }

    /// The run's cells, within the constraint's cells.
    #[inline]
    pub(crate) fn cells(self) -> std::ops::Range<usize> {
        let first = self.first as usize;
        first..first + self.len as usize * T::CELLS
    }
}

/// Lays out a constraint's trailed state: each call hands out the next free cells as a typed
/// slot. A [`crate::PostCtx`] holds one per posted constraint.
#[derive(Debug, Clone, Default)]
pub(crate) struct StateLayout {
    cells: usize,
}

impl StateLayout {
    /// The next value's slot.
    pub fn slot<T: StateValue>(&mut self) -> Slot<T> {
        let cell = self.take(T::CELLS);
        Slot {
            cell,
            value: PhantomData,
        }
    }

    /// A run of `len` values.
    pub fn slots<T: StateValue>(&mut self, len: usize) -> Slots<T> {
        let first = self.take(len * T::CELLS);
        Slots {
            first,
            len: u32::try_from(len).expect("a run of state slots fits in u32"),
            value: PhantomData,
        }
    }

    /// How many cells the slots handed out so far take.
    pub fn len(&self) -> usize {
        self.cells
    }

    fn take(&mut self, cells: usize) -> u32 {
        let first = self.cells;
        self.cells += cells;
        u32::try_from(first).expect("a constraint's state fits in u32 cells")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_round_trip_through_their_cells() {
        for x in [0i128, 1, -1, i128::from(i64::MAX) + 5, i128::MIN, i128::MAX] {
            assert_eq!(i128::load(&x.store()), x);
        }
        for x in [0i64, -7, i64::MIN] {
            assert_eq!(i64::load(&x.store()[..1]), x);
        }
        assert!(bool::load(&true.store()[..1]));
        assert_eq!(u64::load(&u64::MAX.store()[..1]), u64::MAX);
        // A fresh slot (all-zero cells) holds zero or false.
        assert_eq!(i128::load(&[0, 0]), 0);
        assert!(!bool::load(&[0]));
    }

    #[test]
    fn slots_do_not_overlap() {
        let mut layout = StateLayout::default();
        let a: Slot<bool> = layout.slot();
        let b: Slots<i128> = layout.slots(2);
        let c: Slot<i64> = layout.slot();
        assert_eq!(a.cell(), 0);
        assert_eq!(b.at(0).cell(), 1);
        assert_eq!(b.at(1).cell(), 3);
        assert_eq!(b.cells(), 1..5);
        assert_eq!(c.cell(), 5);
        assert_eq!(layout.len(), 6);
    }
}
