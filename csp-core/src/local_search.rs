//! Local-search hooks: a trait of their own, so that a propagator is never asked about conflicts, nor
//! local search about domains.

use smallvec::SmallVec;

use crate::{Constraint, VarId};

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
