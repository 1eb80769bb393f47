use std::fmt;

use smallvec::SmallVec;

use crate::{Domain, Store, VarId};

/// A constraint could not be satisfied under the current assignment: a domain was wiped out, or the
/// assigned variables already violate it. Search answers it by backtracking.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Wipeout;

/// Which changes to a scope variable's domain can give [`Constraint::revise`] something to remove.
/// Search maintaining arc consistency revises a constraint only after such a change, so a constraint
/// that reasons about fixed variables alone is not woken by every removal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Wake {
    /// Any removal (the default, always safe).
    #[default]
    AnyRemoval,
    /// A change of a variable's smallest or largest value, or a variable left with one value: for
    /// bounds reasoning.
    Bounds,
    /// A variable left with one value: for constraints such as `x != y` that can prune nothing
    /// before.
    Fixed,
}

/// A relation over some variables, with the incremental algorithms search needs.
///
/// Only [`scope`](Constraint::scope) and [`is_satisfied`](Constraint::is_satisfied) are required: the
/// other methods have correct (if slow) defaults built on the checker, so a new constraint is right
/// before it is fast. A constraint overrides them to be fast, and tests compare the fast path against the
/// checker.
///
/// A constraint is immutable during search. Incremental state (counters, supports) lives in
/// [`state_size`](Constraint::state_size) cells of the [`Store`], reached through the contexts below:
/// every write is trailed, so undoing an assignment restores the state with no code in the constraint.
/// This is why a [`crate::Model`] can be searched many times, or by several threads at once.
pub trait Constraint: fmt::Debug + Send + Sync {
    /// The variables the constraint relates, in the order [`is_satisfied`](Constraint::is_satisfied)
    /// reads their values.
    fn scope(&self) -> &[VarId];

    /// The checker: whether `values` (one per scope variable, in scope order) satisfy the constraint.
    /// Keep it obviously correct; it is the reference for everything else.
    fn is_satisfied(&self, values: &[i32]) -> bool;

    /// How many `i64` state cells the constraint keeps in a [`Store`] (all zero at the start).
    fn state_size(&self) -> usize {
        0
    }

    /// `var` (in scope) was just assigned `value`: bring the constraint's state cells up to date.
    /// Called under every propagation level, before [`check`](Constraint::check) or
    /// [`propagate`](Constraint::propagate) see the new assignment.
    fn on_assign(&self, _var: VarId, _value: i32, _ctx: &mut PropagationCtx<'_>) {}

    /// Dijkstra's test: could `var = value` stand beside the variables assigned so far? `var` itself is
    /// unassigned. The default completes the scope only when every other variable is assigned.
    fn check(&self, var: VarId, value: i32, ctx: &CheckCtx<'_>) -> bool {
        let mut values: SmallVec<[i32; 8]> = SmallVec::with_capacity(self.scope().len());
        for &v in self.scope() {
            if v == var {
                values.push(value);
            } else if let Some(x) = ctx.value(v) {
                values.push(x);
            } else {
                return true;
            }
        }
        self.is_satisfied(&values)
    }

    /// [`check`](Constraint::check) for many values at once: moves the values of `values` that pass
    /// to the front, keeping their order, and returns how many passed. The default calls `check` once
    /// per value; a constraint overrides it when one tight loop is cheaper.
    fn retain_consistent(&self, var: VarId, values: &mut [i32], ctx: &CheckCtx<'_>) -> usize {
        let mut kept = 0;
        for i in 0..values.len() {
            let value = values[i];
            if self.check(var, value, ctx) {
                values[kept] = value;
                kept += 1;
            }
        }
        kept
    }

    /// Whether [`check`](Constraint::check) decomposes into pairs. If it does, then whenever the
    /// assigned variables are consistent, `check(var, value)` holds exactly when it holds with no
    /// variable assigned and with each assigned variable alone.
    ///
    /// Search may then work out each pair's relation once, as bit masks, and combine masks instead
    /// of calling `check`. Knuth's probes under check-past do this (`csp_search::knuth_probes`).
    ///
    /// Which constraints decompose:
    /// - Binary constraints do, if their check is monotone: it refuses a value under a partial
    ///   assignment only when every extension refuses it too.
    /// - All-different and the queens constraint do.
    /// - A sum over three or more variables does not.
    ///
    /// The default, `false`, is always safe.
    fn check_is_pairwise(&self) -> bool {
        false
    }

    /// Forward checking: `var` was just assigned. Remove from the unassigned variables of the scope the
    /// values that cannot stand beside the assigned ones, and fail if the assigned variables already
    /// violate the constraint or a domain empties.
    ///
    /// The default waits until at most one scope variable is unassigned, then filters that variable's
    /// domain with the checker (or checks the complete scope).
    fn propagate(&self, var: VarId, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        let _ = var;
        let mut free = None;
        let mut values: SmallVec<[i32; 8]> = SmallVec::with_capacity(self.scope().len());
        for (i, &v) in self.scope().iter().enumerate() {
            match ctx.value(v) {
                Some(x) => values.push(x),
                None if free.is_none() || free.map(|(_, w)| w) == Some(v) => {
                    free = Some((i, v));
                    values.push(0);
                }
                None => return Ok(()),
            }
        }
        let Some((_, free_var)) = free else {
            return if self.is_satisfied(&values) {
                Ok(())
            } else {
                Err(Wipeout)
            };
        };
        let candidates: SmallVec<[i32; 16]> = ctx.domain(free_var).values().collect();
        for value in candidates {
            for (slot, &v) in values.iter_mut().zip(self.scope()) {
                if v == free_var {
                    *slot = value;
                }
            }
            if !self.is_satisfied(&values) {
                ctx.remove(free_var, value)?;
            }
        }
        Ok(())
    }

    /// Maintaining arc consistency: remove from the unassigned variables of the scope values that have
    /// no support (no allowed tuple of current values containing them), and fail if no allowed tuple
    /// is left. An assigned variable counts as holding just its value. Search calls it whenever a scope
    /// variable's domain shrank, at the root and after [`propagate`](Constraint::propagate), until no
    /// constraint removes anything more.
    ///
    /// A revision must reach its own fixpoint: a second call with no domain change in between removes
    /// nothing, so search does not revise a constraint again because of its own removals. It must be
    /// sound (remove only values without support) and may be weaker than full arc consistency (bounds
    /// reasoning, say); the built-ins document their strength.
    ///
    /// The default enforces generalised arc consistency with the checker: it enumerates the tuples of
    /// current values, marking every value that takes part in an allowed one, as long as there are at
    /// most [`GENERIC_REVISE_BUDGET`] tuples; above that it removes nothing, leaving the constraint to
    /// forward checking.
    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        generic_revise(self, ctx)
    }

    /// Which domain changes can give [`revise`](Constraint::revise) something to do (default: any
    /// removal). A constraint must not claim a narrower [`Wake`] than its revision needs: a change
    /// it is not woken by must never leave it with values to remove.
    fn wake(&self) -> Wake {
        Wake::AnyRemoval
    }

    /// Local search: how many violations this constraint would count if `var` took `value`, every
    /// other variable keeping its value in `ctx`. The default counts 1 for a violated constraint.
    fn conflicts(&self, var: VarId, value: i32, ctx: &LocalCtx<'_>) -> u32 {
        let values: SmallVec<[i32; 8]> = self
            .scope()
            .iter()
            .map(|&v| {
                if v == var {
                    value
                } else {
                    ctx.values[v.index()]
                }
            })
            .collect();
        u32::from(!self.is_satisfied(&values))
    }

    /// Local search, many values at once: adds to `conflicts[i]` what
    /// [`conflicts`](Constraint::conflicts) counts for `var = values[i]`. Min-conflicts scans whole
    /// domains through this; override it when one tight loop beats a call per value.
    fn add_conflicts(&self, var: VarId, values: &[i32], ctx: &LocalCtx<'_>, conflicts: &mut [u32]) {
        for (&value, total) in values.iter().zip(conflicts) {
            *total += self.conflicts(var, value, ctx);
        }
    }

    /// Local search, every scope variable at once: adds to `conflicts[k]` what
    /// [`conflicts`](Constraint::conflicts) counts for the `k`-th scope variable at its current value.
    /// Min-conflicts finds its conflicted variables through this; override it when one tight loop
    /// beats a call per variable.
    fn add_scope_conflicts(&self, ctx: &LocalCtx<'_>, conflicts: &mut [u32]) {
        for (&var, total) in self.scope().iter().zip(conflicts) {
            *total += self.conflicts(var, ctx.values[var.index()], ctx);
        }
    }

    /// Local search: rebuild the state cells from the complete assignment `values` (default: nothing).
    fn reset_local(&self, _values: &[i32], _cells: &mut [i64]) {}

    /// Local search: `var` moved from `old` to `new`; keep the state cells current (default: nothing).
    fn moved(&self, _var: VarId, _old: i32, _new: i32, _cells: &mut [i64]) {}
}

/// The most tuples of current values the default [`Constraint::revise`] enumerates (one checker call
/// each); a constraint whose current domains hold more is left to forward checking.
pub const GENERIC_REVISE_BUDGET: u64 = 1 << 12;

/// Generalised arc consistency from the checker alone: the default of [`Constraint::revise`].
fn generic_revise<C: Constraint + ?Sized>(
    constraint: &C,
    ctx: &mut PropagationCtx<'_>,
) -> Result<(), Wipeout> {
    let scope = constraint.scope();
    // The sizes first, so that a huge domain is never listed.
    let mut tuples: u64 = 1;
    for &var in scope {
        let size = u64::from(ctx.current_size(var));
        if size == 0 {
            return Err(Wipeout);
        }
        tuples = tuples.saturating_mul(size);
        if tuples > GENERIC_REVISE_BUDGET {
            return Ok(());
        }
    }
    // Every scope variable's current values, one run after another: variable `i` owns
    // `values[starts[i]..starts[i + 1]]`.
    let mut values: SmallVec<[i32; 32]> = SmallVec::new();
    let mut starts: SmallVec<[usize; 9]> = SmallVec::new();
    for &var in scope {
        starts.push(values.len());
        values.extend(ctx.current_values(var));
    }
    starts.push(values.len());
    let mut supported: SmallVec<[bool; 32]> = smallvec::smallvec![false; values.len()];
    let mut unsupported = values.len();
    let mut any_allowed = false;
    // An odometer over the tuples: `digits[i]` indexes variable `i`'s run.
    let mut digits: SmallVec<[usize; 8]> = smallvec::smallvec![0; scope.len()];
    let mut tuple: SmallVec<[i32; 8]> = starts[..scope.len()].iter().map(|&s| values[s]).collect();
    'tuples: loop {
        if constraint.is_satisfied(&tuple) {
            any_allowed = true;
            for (i, &digit) in digits.iter().enumerate() {
                let slot = starts[i] + digit;
                if !supported[slot] {
                    supported[slot] = true;
                    unsupported -= 1;
                }
            }
            if unsupported == 0 {
                break;
            }
        }
        let mut i = scope.len();
        loop {
            if i == 0 {
                break 'tuples;
            }
            i -= 1;
            digits[i] += 1;
            if starts[i] + digits[i] < starts[i + 1] {
                tuple[i] = values[starts[i] + digits[i]];
                break;
            }
            digits[i] = 0;
            tuple[i] = values[starts[i]];
        }
    }
    if !any_allowed {
        return Err(Wipeout);
    }
    for (i, &var) in scope.iter().enumerate() {
        if ctx.is_assigned(var) {
            continue;
        }
        for slot in starts[i]..starts[i + 1] {
            if !supported[slot] {
                ctx.remove(var, values[slot])?;
            }
        }
    }
    Ok(())
}

/// What [`Constraint::check`] may read: the current domains and assignment, and the constraint's own
/// state cells.
pub struct CheckCtx<'a> {
    pub(crate) store: &'a Store,
    /// Where this constraint's cells lie in the store.
    pub(crate) cells: std::ops::Range<usize>,
}

impl CheckCtx<'_> {
    /// The variable's value, if it is assigned.
    #[inline]
    pub fn value(&self, var: VarId) -> Option<i32> {
        self.store.value(var)
    }

    /// The variable's current domain.
    #[inline]
    pub fn domain(&self, var: VarId) -> &Domain {
        self.store.domain(var)
    }

    /// The constraint's state cell `index`.
    #[inline]
    pub fn cell(&self, index: usize) -> i64 {
        self.cells()[index]
    }

    /// All of the constraint's state cells.
    #[inline]
    pub fn cells(&self) -> &[i64] {
        &self.store.cells[self.cells.clone()]
    }
}

/// What [`Constraint::on_assign`] and [`Constraint::propagate`] may read and change. Every change is
/// recorded on the store's trail.
pub struct PropagationCtx<'a> {
    pub(crate) store: &'a mut Store,
    /// Where this constraint's cells lie in the store.
    pub(crate) cells: std::ops::Range<usize>,
}

impl PropagationCtx<'_> {
    /// The variable's value, if it is assigned.
    #[inline]
    pub fn value(&self, var: VarId) -> Option<i32> {
        self.store.value(var)
    }

    /// The variable's current domain.
    #[inline]
    pub fn domain(&self, var: VarId) -> &Domain {
        self.store.domain(var)
    }

    /// Removes `value` from `var`'s domain; returns whether it was there. An assigned variable keeps its
    /// domain: removing its own value is a [`Wipeout`], any other value is ignored. Emptying a domain is a
    /// [`Wipeout`].
    #[inline(always)]
    pub fn remove(&mut self, var: VarId, value: i32) -> Result<bool, Wipeout> {
        self.store.remove_value(var, value)
    }

    /// How many values the variable can still take: 1 if it is assigned (an assigned variable keeps
    /// its domain in the store, but holds only its value), else its domain's size.
    #[inline]
    pub fn current_size(&self, var: VarId) -> u32 {
        if self.store.is_assigned(var) {
            1
        } else {
            self.store.domain(var).size()
        }
    }

    /// The values the variable can still take, ascending: its value if it is assigned, else its
    /// domain.
    pub fn current_values(&self, var: VarId) -> impl Iterator<Item = i32> + '_ {
        let value = self.store.value(var);
        let domain = value.is_none().then(|| self.store.domain(var).values());
        value.into_iter().chain(domain.into_iter().flatten())
    }

    /// The variable's only possible value, if it has one: its value if it is assigned, else the
    /// single value left in its domain.
    #[inline]
    pub fn fixed_value(&self, var: VarId) -> Option<i32> {
        match self.store.value(var) {
            Some(value) => Some(value),
            None => {
                let domain = self.store.domain(var);
                if domain.size() == 1 {
                    domain.min()
                } else {
                    None
                }
            }
        }
    }

    /// Keeps only values in `lo..=hi` of `var`'s domain.
    pub fn restrict_bounds(&mut self, var: VarId, lo: i64, hi: i64) -> Result<(), Wipeout> {
        let domain = self.store.domain(var);
        let (Some(min), Some(max)) = (domain.min(), domain.max()) else {
            return Err(Wipeout);
        };
        if i64::from(min) >= lo && i64::from(max) <= hi {
            return Ok(());
        }
        if let Some(value) = self.value(var) {
            return if (lo..=hi).contains(&i64::from(value)) {
                Ok(())
            } else {
                Err(Wipeout)
            };
        }
        let doomed: SmallVec<[i32; 16]> = self
            .domain(var)
            .values()
            .filter(|&v| !(lo..=hi).contains(&i64::from(v)))
            .collect();
        for v in doomed {
            self.remove(var, v)?;
        }
        Ok(())
    }

    /// Whether the variable is assigned.
    #[inline]
    pub fn is_assigned(&self, var: VarId) -> bool {
        self.store.is_assigned(var)
    }

    /// The constraint's state cell `index`.
    #[inline]
    pub fn cell(&self, index: usize) -> i64 {
        self.cells()[index]
    }

    /// All of the constraint's state cells.
    #[inline]
    pub fn cells(&self) -> &[i64] {
        &self.store.cells[self.cells.clone()]
    }

    /// Sets state cell `index` (trailed).
    #[inline]
    pub fn set_cell(&mut self, index: usize, value: i64) {
        assert!(
            index < self.cells.len(),
            "cell {index} is not this constraint's"
        );
        self.store.set_cell(self.cells.start + index, value);
    }

    /// Adds `delta` to state cell `index` (trailed).
    #[inline]
    pub fn add_cell(&mut self, index: usize, delta: i64) {
        let old = self.cell(index);
        self.store.set_cell(self.cells.start + index, old + delta);
    }
}

/// What [`Constraint::conflicts`] may read in local search: the complete assignment, indexed by
/// [`VarId::index`], and the constraint's own state cells.
#[derive(Debug, Clone, Copy)]
pub struct LocalCtx<'a> {
    /// The current value of every variable of the model.
    pub values: &'a [i32],
    /// The constraint's state cells, as [`Constraint::reset_local`] and [`Constraint::moved`] left them.
    pub cells: &'a [i64],
}
