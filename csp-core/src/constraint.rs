use std::fmt;

use smallvec::SmallVec;

use fixedbitset::FixedBitSet;

use crate::{DomainView, EventSet, LocalSearch, Store, VarId};

/// A constraint could not be satisfied under the current domains: a domain was wiped out, or the
/// fixed variables already violate it. Search answers it by backtracking.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Wipeout;

/// When a woken constraint runs, relative to the others waiting: the propagation queue runs every
/// waiting constraint of a higher priority before any of a lower one, so cheap reasoning reaches its
/// fixpoint before expensive reasoning looks at the result (the "cheap first" rule of Gecode and
/// Pumpkin). Within one priority constraints run in the order they were woken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum Priority {
    /// Constant or near-constant work a run: binary relations, reification glue, clauses.
    High,
    /// Work linear in the scope: sums, tables, element. The default.
    #[default]
    Medium,
    /// Super-linear work: matchings (Régin's all-different), edge-finding, cumulative profiles.
    Low,
}

impl Priority {
    /// The number of priorities, for queues indexed by [`Priority::index`].
    pub const COUNT: usize = 3;

    /// `0` for [`Priority::High`] up to `COUNT - 1` for [`Priority::Low`].
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }
}

/// A relation over some variables, with the incremental algorithms search needs.
///
/// Only [`scope`](Constraint::scope) and [`is_satisfied`](Constraint::is_satisfied) are required: the
/// other methods have correct (if slow) defaults built on the checker, so a new constraint is right
/// before it is fast. A constraint overrides them to be fast, and tests compare the fast path against the
/// checker.
///
/// The methods serve two kinds of search:
///
/// - **Value enumeration** (Stone & Stone's LEX and MIN, the N-queens experiments): search assigns one
///   variable at a time and asks [`on_assign`](Constraint::on_assign), then either
///   [`check`](Constraint::check) (Dijkstra's test, check-past) or [`propagate`](Constraint::propagate)
///   (forward checking).
/// - **Propagation to a fixpoint** (MAC, and every search by decisions): whenever a scope variable's
///   domain changes in a way the constraint [subscribes](Constraint::subscribe) to, it is
///   [notified](Constraint::notify) and queued by [priority](Constraint::priority); its
///   [`revise`](Constraint::revise), the propagator proper, then runs until no constraint changes
///   anything. [`entailment`](Constraint::entailment) and [`negation`](Constraint::negation) let
///   [`crate::constraints::Reified`] reify any constraint.
///
/// Local search asks for its own hooks through [`local_search`](Constraint::local_search), so that a
/// propagator is never asked about conflicts, nor local search about domains.
///
/// A constraint is immutable during search. Incremental state (counters, supports, running sums) lives
/// in [`state_size`](Constraint::state_size) cells of the [`Store`], reached through the contexts
/// below: every write is trailed, so undoing a decision restores the state with no code in the
/// constraint. This is why a [`crate::Model`] can be searched many times, or by several threads at once.
pub trait Constraint: fmt::Debug + Send + Sync {
    /// The variables the constraint relates, in the order [`is_satisfied`](Constraint::is_satisfied)
    /// reads their values. A variable appears at most once.
    fn scope(&self) -> &[VarId];

    /// The checker: whether `values` (one per scope variable, in scope order) satisfy the constraint.
    /// Keep it obviously correct; it is the reference for everything else.
    fn is_satisfied(&self, values: &[i32]) -> bool;

    /// How many `i64` state cells the constraint keeps in a [`Store`] (all zero at the start).
    fn state_size(&self) -> usize {
        0
    }

    /// `var` (in scope) was just assigned `value` by a search decision: bring the constraint's state
    /// cells up to date. Called under every propagation level, before [`check`](Constraint::check) or
    /// [`propagate`](Constraint::propagate) see the new assignment. (A variable fixed by propagation
    /// rather than assigned is not reported here; [`revise`](Constraint::revise) must not rely on it.)
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
        if ctx.size(free_var) > GENERIC_REVISE_BUDGET {
            return Ok(());
        }
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

    /// The propagator: remove from the scope's domains values that take part in no solution of the
    /// constraint (or only bounds, for bounds reasoning), and fail if none is left. Search calls it
    /// when a change the constraint [subscribes](Constraint::subscribe) to happened, at the root and
    /// after every decision, until no constraint changes anything more.
    ///
    /// Contract:
    /// - It must be *sound*: remove only values without support.
    /// - It must be *checker-complete*: when every scope variable is fixed, it fails exactly when
    ///   [`is_satisfied`](Constraint::is_satisfied) refuses the values. (So search by decisions needs
    ///   no other test of a solution.)
    /// - It must reach its own fixpoint: a second call with no domain change in between changes
    ///   nothing, so search does not queue a constraint again for its own changes.
    /// - It must not rely on [`on_assign`](Constraint::on_assign): variables fixed by propagation are
    ///   never assigned. It may rely on [`notify`](Constraint::notify) for every subscribed change.
    ///
    /// Its strength may be anything from bounds reasoning to generalised arc consistency; each built-in
    /// documents its own. The default enforces generalised arc consistency with the checker: it
    /// enumerates the tuples of current values, marking every value that takes part in an allowed one,
    /// as long as there are at most [`GENERIC_REVISE_BUDGET`] tuples; above that it waits until there
    /// are fewer, which happens at the latest when every variable is fixed.
    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        generic_revise(self, ctx)
    }

    /// Which changes to the domain of the scope variable at `position` (an index into
    /// [`scope`](Constraint::scope)) can give [`revise`](Constraint::revise) something to do. Default:
    /// every change. A constraint must not subscribe to less than its revision needs: a change it is not
    /// woken by must never leave it with values to remove, nor with a violation to report.
    fn subscribe(&self, position: usize) -> EventSet {
        let _ = position;
        EventSet::ANY
    }

    /// A subscribed change happened to the scope variable at `position`: `events` says which (see
    /// [`EventSet`]); the variable's domain already shows its new state. Update incremental state here
    /// (a running sum of bounds, say) and return whether the constraint should be queued for
    /// [`revise`](Constraint::revise). The default queues it every time.
    ///
    /// Called for the constraint's own changes too (after its `revise` returns), so that state it keeps
    /// about the domains stays exact; those never queue it again.
    fn notify(&self, position: usize, events: EventSet, ctx: &mut PropagationCtx<'_>) -> bool {
        let _ = (position, events, ctx);
        true
    }

    /// Whether [`notify`](Constraint::notify) does anything but return `true`. Search calls `notify`
    /// only for constraints that say so, sparing the others a call per change. Default: `false`.
    fn uses_notify(&self) -> bool {
        false
    }

    /// When a woken constraint runs relative to others (see [`Priority`]). Default: medium.
    fn priority(&self) -> Priority {
        Priority::Medium
    }

    /// Whether the constraint holds in every assignment of the current domains (`Some(true)`, it is
    /// entailed), in none (`Some(false)`, disentailed), or neither is known (`None`). It may answer
    /// `None` whenever it does not know, but must never answer wrongly. The default asks the checker
    /// once every scope variable is fixed.
    fn entailment(&self, ctx: &CheckCtx<'_>) -> Option<bool> {
        let mut values: SmallVec<[i32; 8]> = SmallVec::with_capacity(self.scope().len());
        for &var in self.scope() {
            values.push(ctx.domain(var).fixed_value()?);
        }
        Some(self.is_satisfied(&values))
    }

    /// The constraint's negation over the same scope, if it has a propagator worth posting: what a
    /// reified constraint propagates when its Boolean is false (`x ≤ y` gives `x > y`, say). Default:
    /// none, and the reification then waits for [`entailment`](Constraint::entailment) to fail.
    fn negation(&self) -> Option<Box<dyn Constraint>> {
        None
    }

    /// The constraint's local-search hooks, if it has its own (see [`LocalSearch`]). Without them local
    /// search counts one conflict per violated constraint, from the checker.
    fn local_search(&self) -> Option<&dyn LocalSearch> {
        None
    }
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
        let size = ctx.size(var);
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
        values.extend(ctx.domain(var).values());
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

/// What [`Constraint::check`] and [`Constraint::entailment`] may read: the current domains and
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

    /// The variable's smallest value.
    #[inline]
    pub fn lb(&self, var: VarId) -> i32 {
        self.store.lb(var)
    }

    /// The variable's largest value.
    #[inline]
    pub fn ub(&self, var: VarId) -> i32 {
        self.store.ub(var)
    }

    /// The variable's only value, if it has one left.
    #[inline]
    pub fn fixed_value(&self, var: VarId) -> Option<i32> {
        (self.store.size(var) == 1).then(|| self.store.lb(var))
    }

    /// The constraint's state cell `index`.
    #[inline]
    pub fn cell(&self, index: usize) -> i64 {
        self.cells()[index]
    }

    /// All of the constraint's state cells.
    #[inline]
    pub fn cells(&self) -> &'a [i64] {
        &self.store.cells[self.cells.clone()]
    }

    /// The same view with the cells of an inner constraint: `offset..offset + len` of this
    /// constraint's cells (for wrappers such as [`crate::constraints::Reified`]).
    pub fn inner(&self, offset: usize, len: usize) -> CheckCtx<'a> {
        let start = self.cells.start + offset;
        debug_assert!(start + len <= self.cells.end);
        CheckCtx {
            store: self.store,
            cells: start..start + len,
        }
    }
}

/// What [`Constraint::on_assign`], [`Constraint::propagate`], [`Constraint::revise`] and
/// [`Constraint::notify`] may read and change. Every change is recorded on the store's trail.
///
/// Bounds are taken and given as `i64` where a propagator computes them, so that no arithmetic on the
/// way overflows: a bound beyond the `i32` range simply empties the domain (or changes nothing).
pub struct PropagationCtx<'a> {
    pub(crate) store: &'a mut Store,
    /// Where this constraint's cells lie in the store.
    pub(crate) cells: std::ops::Range<usize>,
}

impl PropagationCtx<'_> {
    /// A context over `store` for a constraint whose state cells are `cells` (from
    /// [`crate::Model::cell_range`]): for tests that drive a constraint by hand.
    pub fn new(store: &mut Store, cells: std::ops::Range<usize>) -> PropagationCtx<'_> {
        PropagationCtx { store, cells }
    }

    /// A read-only view of the same state.
    #[inline]
    pub fn as_check(&self) -> CheckCtx<'_> {
        CheckCtx {
            store: self.store,
            cells: self.cells.clone(),
        }
    }

    /// The same context with the cells of an inner constraint: `offset..offset + len` of this
    /// constraint's cells (for wrappers such as [`crate::constraints::Reified`]).
    pub fn inner(&mut self, offset: usize, len: usize) -> PropagationCtx<'_> {
        let start = self.cells.start + offset;
        debug_assert!(start + len <= self.cells.end);
        PropagationCtx {
            store: self.store,
            cells: start..start + len,
        }
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

    /// The variable's smallest value.
    #[inline]
    pub fn lb(&self, var: VarId) -> i32 {
        self.store.lb(var)
    }

    /// The variable's largest value.
    #[inline]
    pub fn ub(&self, var: VarId) -> i32 {
        self.store.ub(var)
    }

    /// How many values the variable has left.
    #[inline]
    pub fn size(&self, var: VarId) -> u64 {
        self.store.size(var)
    }

    /// Whether the variable has exactly one value left.
    #[inline]
    pub fn is_fixed(&self, var: VarId) -> bool {
        self.store.size(var) == 1
    }

    /// Removes `value` from `var`'s domain; returns whether it was there. Emptying a domain is a
    /// [`Wipeout`]. (An assigned variable's domain holds its value alone.)
    #[inline(always)]
    pub fn remove(&mut self, var: VarId, value: i32) -> Result<bool, Wipeout> {
        self.store.remove_value(var, value)
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

    /// The variable's only possible value, if it has one.
    #[inline]
    pub fn fixed_value(&self, var: VarId) -> Option<i32> {
        (self.store.size(var) == 1).then(|| self.store.lb(var))
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
