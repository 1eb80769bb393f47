//! The constraint interface: [`Constraint`], what search asks of a relation (checks, propagation,
//! entailment), and [`LocalSearch`], the conflict-counting hooks a constraint may offer local search.
//! The two traits name each other (a constraint offers its hooks; the hooks belong to a
//! constraint), so they live together.

use std::fmt;

use smallvec::SmallVec;

use crate::lines::LineRule;
use crate::{CheckCtx, EventSet, Priority, PropagationCtx, VarId, Wipeout};

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
/// in [`state_size`](Constraint::state_size) cells of the [`Store`](crate::Store), reached through the contexts
/// below: every write is trailed, so undoing a decision restores the state with no code in the
/// constraint. This is why a [`crate::Model`] can be searched many times, or by several threads at once.
pub trait Constraint: fmt::Debug + Send + Sync {
    /// The variables the constraint relates, in the order [`is_satisfied`](Constraint::is_satisfied)
    /// reads their values. A variable appears at most once.
    fn scope(&self) -> &[VarId];

    /// The checker: whether `values` (one per scope variable, in scope order) satisfy the constraint.
    /// Keep it obviously correct; it is the reference for everything else.
    fn is_satisfied(&self, values: &[i32]) -> bool;

    /// How many `i64` state cells the constraint keeps in a [`Store`](crate::Store) (all zero at the start).
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

    /// Why this constraint's propagator made `literal` true, for search that learns from failure
    /// ([`crate::Store::enable_change_log`]): pushes literals that held just before the change (read
    /// the domains of that moment from `ctx`) and that, with the constraint, imply `literal`, then
    /// returns true. A bound literal may be explained by a weaker bound: the learner adds the
    /// values removed between them itself.
    ///
    /// Default: no explanation of its own (false), and the learner explains the change by the
    /// domains of the whole scope, which is always sound but makes longer, less general clauses.
    fn explain(
        &self,
        _literal: crate::Literal,
        _ctx: &crate::ExplainCtx<'_>,
        _reasons: &mut Vec<crate::Literal>,
    ) -> bool {
        false
    }

    /// The constraint's local-search hooks, if it has its own (see [`LocalSearch`]). Without them local
    /// search counts one conflict per violated constraint, from the checker.
    fn local_search(&self) -> Option<&dyn LocalSearch> {
        None
    }

    /// The constraint as rows and lines (see [`LineRule`]), if it is one: then a store searched by
    /// forward checking may keep the constraint's forward checking itself, with a bit per line
    /// in place of removed values ([`Store::keep_lines`](crate::Store::keep_lines)). Offer it only
    /// if [`propagate`](Constraint::propagate) removes exactly what the rule says.
    fn lines(&self) -> Option<LineRule> {
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

/// What local-search hooks may read: the complete assignment, indexed by [`VarId::index`], and the
/// constraint's own state cells.
#[derive(Debug, Clone, Copy)]
pub struct LocalCtx<'a> {
    /// The current value of every variable of the model.
    pub values: &'a [i32],
    /// The constraint's state cells, as [`LocalSearch::reset_local`] and [`LocalSearch::moved`] left
    /// them.
    pub cells: &'a [i64],
}

/// A constraint's own conflict counting for local search (min-conflicts repair in `csp-local`), with
/// incremental state in its cells. A constraint offers it through
/// [`Constraint::local_search`]; one without it counts one conflict when its checker refuses the
/// assignment ([`checker_conflicts`]).
///
/// Local search needs no undo: it changes one assignment in place, and keeps the cells current through
/// [`reset_local`](LocalSearch::reset_local) and [`moved`](LocalSearch::moved).
pub trait LocalSearch: Constraint {
    /// How many violations this constraint would count if `var` took `value`, every other variable
    /// keeping its value in `ctx`.
    fn conflicts(&self, var: VarId, value: i32, ctx: &LocalCtx<'_>) -> u32;

    /// Many values at once: adds to `conflicts[i]` what [`conflicts`](LocalSearch::conflicts) counts for
    /// `var = values[i]`. Min-conflicts scans whole domains through this; override it when one tight
    /// loop beats a call per value.
    fn add_conflicts(&self, var: VarId, values: &[i32], ctx: &LocalCtx<'_>, conflicts: &mut [u32]) {
        for (&value, total) in values.iter().zip(conflicts) {
            *total += self.conflicts(var, value, ctx);
        }
    }

    /// Every scope variable at once: adds to `conflicts[k]` what
    /// [`conflicts`](LocalSearch::conflicts) counts for the `k`-th scope variable at its current
    /// value. Min-conflicts finds its conflicted variables through this; override it when one tight
    /// loop beats a call per variable.
    fn add_scope_conflicts(&self, ctx: &LocalCtx<'_>, conflicts: &mut [u32]) {
        for (&var, total) in self.scope().iter().zip(conflicts) {
            *total += self.conflicts(var, ctx.values[var.index()], ctx);
        }
    }

    /// Rebuild the state cells from the complete assignment `values` (default: nothing).
    fn reset_local(&self, _values: &[i32], _cells: &mut [i64]) {}

    /// `var` moved from `old` to `new`; keep the state cells current (default: nothing).
    fn moved(&self, _var: VarId, _old: i32, _new: i32, _cells: &mut [i64]) {}
}

/// The conflicts of a constraint without [`LocalSearch`] hooks: 1 if its checker refuses the assignment
/// with `var = value`, else 0.
pub fn checker_conflicts(
    constraint: &dyn Constraint,
    var: VarId,
    value: i32,
    values: &[i32],
) -> u32 {
    let scope_values: SmallVec<[i32; 8]> = constraint
        .scope()
        .iter()
        .map(|&v| if v == var { value } else { values[v.index()] })
        .collect();
    u32::from(!constraint.is_satisfied(&scope_values))
}
