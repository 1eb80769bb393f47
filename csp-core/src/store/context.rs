//! The contexts through which a constraint reads and changes a [`Store`]: [`CheckCtx`] (read-only,
//! for checks and entailment) and [`PropagationCtx`] (trailed changes, for propagation). They hold
//! the store and the constraint's own range of state cells.

use fixedbitset::FixedBitSet;

use super::Store;
use crate::state::{Slot, Slots, StateValue};
use crate::{DomainView, VarId, Wipeout};

/// What [`Propagator::check`](crate::Propagator::check) and [`Propagator::entailment`](crate::Propagator::entailment) may read: the current domains and
/// assignment, and the constraint's own state cells.
pub struct CheckCtx<'a> {
    pub(crate) store: &'a Store,
    /// Where this constraint's cells lie in the store.
    pub(crate) cells: std::ops::Range<usize>,
}

impl<'a> CheckCtx<'a> {
    /// A read-only context over `store` for a constraint whose state cells are `cells` (from
    /// [`crate::Model::cell_range`]): for wrappers that ask an inner constraint, and for tests.
    pub fn new(store: &'a Store, cells: std::ops::Range<usize>) -> Self {
        CheckCtx { store, cells }
    }

    /// The variable's value, if search assigned it.
    #[inline]
    pub fn value(&self, var: VarId) -> Option<i32> {
        self.store.value(var)
    }

    /// The variable's current domain.
    #[inline]
    pub fn domain(&self, var: VarId) -> DomainView<'a> {
        self.store.domain(var)
    }

    /// The value in one of the constraint's state slots.
    #[inline]
    pub fn get<T: StateValue>(&self, slot: Slot<T>) -> T {
        let first = self.cells.start + slot.cell();
        T::load(&self.store.cells[first..first + T::CELLS])
    }

    /// The values of a run of `i64` slots, as one slice (for a tight loop over many).
    #[inline]
    pub fn run(&self, slots: Slots<i64>) -> &'a [i64] {
        let cells = slots.cells();
        &self.store.cells[self.cells.start + cells.start..self.cells.start + cells.end]
    }

    /// The same view with the state of an inner constraint, kept in the run `state` of this
    /// constraint's slots (for wrappers such as [`crate::constraints::Reified`]).
    pub fn inner(&self, state: Slots<i64>) -> CheckCtx<'a> {
        let cells = state.cells();
        debug_assert!(self.cells.start + cells.end <= self.cells.end);
        CheckCtx {
            store: self.store,
            cells: self.cells.start + cells.start..self.cells.start + cells.end,
        }
    }
}

/// What [`Propagator::on_assign`](crate::Propagator::on_assign), [`Propagator::forward_check`](crate::Propagator::forward_check), [`Propagator::revise`](crate::Propagator::revise) and
/// [`Propagator::notify`](crate::Propagator::notify) may read and change. Every change is recorded on the store's trail.
///
/// Bounds are taken and given as `i64` where a propagator computes them, so that no arithmetic on the
/// way overflows: a bound beyond the `i32` range simply empties the domain (or changes nothing).
pub struct PropagationCtx<'a> {
    pub(crate) store: &'a mut Store,
    /// Where this constraint's cells lie in the store.
    pub(crate) cells: std::ops::Range<usize>,
    /// Whether the revision found the constraint entailed ([`PropagationCtx::entailed`]).
    pub(crate) entailed: bool,
}

impl PropagationCtx<'_> {
    /// A context over `store` for a constraint whose state cells are `cells` (from
    /// [`crate::Model::cell_range`]): for tests that drive a constraint by hand.
    pub fn new(store: &mut Store, cells: std::ops::Range<usize>) -> PropagationCtx<'_> {
        PropagationCtx {
            store,
            cells,
            entailed: false,
        }
    }

    /// How strongly a propagator that offers a choice should propagate
    /// ([`crate::PropagationProfile`]): search that learns asks for short reasons.
    #[inline]
    pub fn profile(&self) -> crate::PropagationProfile {
        self.store.profile()
    }

    /// A read-only view of the same state.
    #[inline]
    pub fn as_check(&self) -> CheckCtx<'_> {
        CheckCtx {
            store: self.store,
            cells: self.cells.clone(),
        }
    }

    /// The same context with the state of an inner constraint, kept in the run `state` of this
    /// constraint's slots (for wrappers such as [`crate::constraints::Reified`]).
    pub fn inner(&mut self, state: Slots<i64>) -> PropagationCtx<'_> {
        let cells = state.cells();
        debug_assert!(self.cells.start + cells.end <= self.cells.end);
        // An inner constraint's entailment is not the wrapper's: it stays in this context.
        PropagationCtx {
            store: self.store,
            cells: self.cells.start + cells.start..self.cells.start + cells.end,
            entailed: false,
        }
    }

    /// Reports, from [`crate::Propagator::revise`], that the constraint holds for every value
    /// left in its scope: it will prune nothing more on this branch, so propagation neither
    /// notifies nor revises it until search backtracks above this point (Schulte & Stuckey's
    /// subsumption, "Efficient constraint propagation engines", TOPLAS 2008). A revision that
    /// reports it must have made every change it was going to make; the report is kept only when
    /// the revision succeeds. Inside a wrapper ([`PropagationCtx::inner`]) it is ignored.
    #[inline]
    pub fn entailed(&mut self) {
        self.entailed = true;
    }

    /// The variable's value, if search assigned it.
    #[inline]
    pub fn value(&self, var: VarId) -> Option<i32> {
        self.store.value(var)
    }

    /// The variable's current domain.
    #[inline]
    pub fn domain(&self, var: VarId) -> DomainView<'_> {
        self.store.domain(var)
    }

    /// How many values the variable has left.
    #[inline]
    pub fn size(&self, var: VarId) -> u64 {
        self.store.size(var)
    }

    /// Removes `value` from `var`'s domain; returns whether it was there. Emptying a domain is a
    /// [`Wipeout`]. (An assigned variable's domain holds its value alone.)
    #[inline(always)]
    pub fn remove(&mut self, var: VarId, value: i32) -> Result<bool, Wipeout> {
        self.store.remove_value(var, value)
    }

    /// For each unassigned variable among those with indices in `vars`, in ascending order,
    /// removes the values `values(i)` lists for it (`i` is the variable's index), in the order
    /// listed: the same changes, in the same order, as calling [`PropagationCtx::remove`] for
    /// each, stopping at the first [`Wipeout`]. Values outside a domain are no change.
    ///
    /// Forward checking for a constraint over a run of consecutive variables, such as the rows of
    /// an N-queens board; much cheaper per value than `remove` when the run's domains are
    /// interleaved bit sets (see [`Store`]'s layout) under forward checking.
    #[inline]
    pub fn remove_from_unassigned<const K: usize>(
        &mut self,
        vars: std::ops::Range<usize>,
        values: impl Fn(usize) -> [i32; K],
    ) -> Result<(), Wipeout> {
        self.store.remove_from_unassigned(vars, values)
    }

    /// Removes the values `first + i` for each bit `i` set in `mask`: the same changes as calling
    /// [`PropagationCtx::remove`] for each, ascending, stopping at the first [`Wipeout`].
    ///
    /// Holes punched a word at a time: when the values lie strictly inside the bounds and `first`
    /// starts a word of `var`'s bit set, the word is cleared at once and trailed (and later
    /// restored) as one entry ([`Store::remove_mask`]).
    #[inline]
    pub fn remove_mask(&mut self, var: VarId, first: i32, mask: u64) -> Result<(), Wipeout> {
        self.store.remove_mask(var, first, mask)
    }

    /// Removes every value below `bound`: one trail entry however many values go. Returns whether
    /// anything changed; emptying the domain is a [`Wipeout`].
    #[inline]
    pub fn set_min(&mut self, var: VarId, bound: i64) -> Result<bool, Wipeout> {
        self.store.set_bounds(var, bound, i64::MAX)
    }

    /// Removes every value above `bound`; see [`PropagationCtx::set_min`].
    #[inline]
    pub fn set_max(&mut self, var: VarId, bound: i64) -> Result<bool, Wipeout> {
        self.store.set_bounds(var, i64::MIN, bound)
    }

    /// Keeps only `value`; see [`PropagationCtx::set_min`].
    #[inline]
    pub fn fix(&mut self, var: VarId, value: i64) -> Result<bool, Wipeout> {
        self.store.set_bounds(var, value, value)
    }

    /// Keeps only values in `lo..=hi` of `var`'s domain.
    #[inline]
    pub fn restrict_bounds(&mut self, var: VarId, lo: i64, hi: i64) -> Result<(), Wipeout> {
        self.store.set_bounds(var, lo, hi).map(|_| ())
    }

    /// How many values the variable can still take: the same as [`PropagationCtx::size`] (an assigned
    /// variable's domain holds its value alone).
    #[inline]
    pub fn current_size(&self, var: VarId) -> u64 {
        self.size(var)
    }

    /// The values the variable can still take, ascending: its domain.
    pub fn current_values(&self, var: VarId) -> impl Iterator<Item = i32> + '_ {
        self.store.domain(var).values()
    }

    /// Whether the variable was assigned by a search decision.
    #[inline]
    pub fn is_assigned(&self, var: VarId) -> bool {
        self.store.is_assigned(var)
    }

    /// The assigned variables, by index: a propagator over consecutive variables can sweep the
    /// unassigned ones a word at a time instead of asking [`PropagationCtx::is_assigned`] of each.
    #[inline]
    pub fn assigned_set(&self) -> &FixedBitSet {
        self.store.assigned_set()
    }

    /// The value in one of the constraint's state slots.
    #[inline]
    pub fn get<T: StateValue>(&self, slot: Slot<T>) -> T {
        let first = self.cells.start + slot.cell();
        T::load(&self.store.cells[first..first + T::CELLS])
    }

    /// The values of a run of `i64` slots, as one slice (for a tight loop over many).
    #[inline]
    pub fn run(&self, slots: Slots<i64>) -> &[i64] {
        let cells = slots.cells();
        &self.store.cells[self.cells.start + cells.start..self.cells.start + cells.end]
    }

    /// Sets one of the constraint's state slots (trailed).
    #[inline(always)]
    pub fn set<T: StateValue>(&mut self, slot: Slot<T>, value: T) {
        let first = self.cells.start + slot.cell();
        if first + T::CELLS > self.cells.end {
            not_this_constraints(slot.cell());
        }
        // Written out rather than looped, so that a one-cell slot is one trailed write inline: the
        // hot write of every notified constraint.
        let [low, high] = value.store();
        self.store.set_cell(first, low);
        if T::CELLS == 2 {
            self.store.set_cell(first + 1, high);
        }
    }

    /// Adds `delta` to an `i64` slot (trailed).
    #[inline(always)]
    pub fn add(&mut self, slot: Slot<i64>, delta: i64) {
        // One cell, read and written by index: the hot write of counters such as the queens'.
        let cell = self.cells.start + slot.cell();
        if cell >= self.cells.end {
            not_this_constraints(slot.cell());
        }
        let old = self.store.cells[cell];
        self.store.set_cell(cell, old + delta);
    }
}

/// A slot beyond the constraint's cells: a slot laid out in another constraint's context. Out of
/// line, so that the check costs the writes one comparison.
#[cold]
#[inline(never)]
fn not_this_constraints(cell: usize) -> ! {
    panic!("state slot at cell {cell} is not this constraint's: it was laid out in another context")
}

/// Reading the variables' domains: what every context a constraint is handed offers alike, so
/// that code that reads domains (a propagator's reasoning, and the explanation that replays it)
/// is written once for any of them. [`CheckCtx`] and [`PropagationCtx`] read the current domains,
/// [`ExplainCtx`](crate::ExplainCtx) the domains just before a logged change.
pub trait Domains {
    /// The variable's smallest value.
    fn lb(&self, var: VarId) -> i32;

    /// The variable's largest value.
    fn ub(&self, var: VarId) -> i32;

    /// Whether `value` is in the variable's domain.
    fn contains(&self, var: VarId, value: i32) -> bool;

    /// The variable's smallest and largest values.
    #[inline]
    fn bounds(&self, var: VarId) -> (i32, i32) {
        (self.lb(var), self.ub(var))
    }

    /// The variable's only value, if it has one left.
    #[inline]
    fn fixed_value(&self, var: VarId) -> Option<i32> {
        let (lo, hi) = self.bounds(var);
        (lo == hi).then_some(lo)
    }

    /// Whether the variable has exactly one value left.
    #[inline]
    fn is_fixed(&self, var: VarId) -> bool {
        self.lb(var) == self.ub(var)
    }
}

impl Domains for CheckCtx<'_> {
    #[inline]
    fn lb(&self, var: VarId) -> i32 {
        self.store.context_lb(var)
    }

    #[inline]
    fn ub(&self, var: VarId) -> i32 {
        self.store.context_ub(var)
    }

    #[inline]
    fn contains(&self, var: VarId, value: i32) -> bool {
        self.store.domain(var).contains(value)
    }
}

impl Domains for PropagationCtx<'_> {
    #[inline]
    fn lb(&self, var: VarId) -> i32 {
        self.store.context_lb(var)
    }

    #[inline]
    fn ub(&self, var: VarId) -> i32 {
        self.store.context_ub(var)
    }

    #[inline]
    fn contains(&self, var: VarId, value: i32) -> bool {
        self.store.domain(var).contains(value)
    }
}
