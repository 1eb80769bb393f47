//! What every ordering is written against: the read-only [`SelectCtx`] a heuristic sees and the
//! [`VariableOrder`] trait it implements. A leaf module, so that the orderings beside it depend on
//! it and not on the module that gathers them.

use csp_core::{ConstraintId, DomainView, Model, Store, VarId};

use crate::Propagation;

/// A read-only view of the search state for heuristics.
#[derive(Clone, Copy)]
pub struct SelectCtx<'a> {
    pub(crate) model: &'a Model,
    pub(crate) store: &'a Store,
    pub(crate) propagation: Propagation,
}

impl<'a> SelectCtx<'a> {
    /// A view of `store` (a store of `model`) under `propagation`; for testing heuristics on their own.
    pub fn new(model: &'a Model, store: &'a Store, propagation: Propagation) -> Self {
        SelectCtx {
            model,
            store,
            propagation,
        }
    }

    /// The model being solved.
    pub fn model(&self) -> &'a Model {
        self.model
    }

    /// The current domains and assignment.
    pub fn store(&self) -> &'a Store {
        self.store
    }

    /// The propagation level of the search.
    pub fn propagation(&self) -> Propagation {
        self.propagation
    }

    /// The level of the node being expanded (1 at the root).
    pub fn level(&self) -> u32 {
        self.store.num_assigned() as u32 + 1
    }

    /// The variable's current domain.
    #[inline]
    pub fn domain(&self, var: VarId) -> DomainView<'a> {
        self.store.domain(var)
    }

    /// How many values the variable's domain holds: [`SelectCtx::domain`]'s size, read from the
    /// store's dense array of sizes without looking at the domain's values (what a fewest-choices
    /// ordering compares for every unassigned variable at every node).
    #[inline(always)]
    pub fn size(&self, var: VarId) -> u64 {
        self.store.size(var)
    }

    /// [`SelectCtx::size`] for a scan over many variables (see [`Store::sizes`]).
    #[inline(always)]
    pub fn sizes(&self) -> impl Fn(VarId) -> u64 + Copy + 'a {
        self.store.sizes()
    }

    /// The unassigned variables, in model order.
    pub fn unassigned(&self) -> impl Iterator<Item = VarId> + 'a {
        self.store.assigned_set().zeroes().map(VarId::from_index)
    }

    /// The unassigned variables in no particular order (deterministic for a given history of
    /// assignments): the cheapest way to scan them all.
    pub fn unassigned_unordered(&self) -> &'a [VarId] {
        self.store.unassigned()
    }

    /// Appends the variable's choices at this node to `out`, ascending, and returns how many there
    /// are: under forward checking its domain, under check-past the values that also pass Dijkstra's
    /// test against the assigned variables (one batch call per constraint). The engine, the MIN
    /// ordering and Knuth's probes all count choices through this one rule.
    #[inline(always)]
    pub fn append_choices(&self, var: VarId, out: &mut Vec<i32>) -> usize {
        let start = out.len();
        self.store.domain(var).append_values(out);
        if self.propagation == Propagation::CheckPast {
            let kept = self
                .store
                .retain_consistent(self.model, var, &mut out[start..]);
            out.truncate(start + kept);
        }
        out.len() - start
    }

    /// How many choices the variable has at this node (its branching factor if chosen), without a
    /// buffer; [`SelectCtx::append_choices`] is faster under check-past.
    #[inline]
    pub fn choices(&self, var: VarId) -> u64 {
        let domain = self.store.domain(var);
        match self.propagation {
            Propagation::ForwardChecking | Propagation::Mac => domain.size(),
            Propagation::CheckPast => domain
                .values()
                .filter(|&v| self.store.is_consistent(self.model, var, v))
                .count() as u64,
        }
    }

    /// The dynamic degree: over the constraints on `var`, how many other unassigned variables each
    /// relates it to, summed.
    pub fn degree(&self, var: VarId) -> u64 {
        self.model
            .constraints_of(var)
            .iter()
            .map(|&c| u64::from(self.store.unassigned_in_scope(c).saturating_sub(1)))
            .sum()
    }
}

/// Chooses the variable to branch on.
pub trait VariableOrder {
    /// An unassigned variable, or `None` if every variable is assigned.
    fn select(&mut self, ctx: &SelectCtx<'_>) -> Option<VarId>;

    /// Propagation failed at the node `ctx` shows (before it is undone): `constraint` emptied a
    /// domain or found its assigned variables inconsistent. Called under forward checking and MAC,
    /// at every such dead end, including one at the root. The default ignores it; conflict-driven
    /// orderings such as [`DomWdeg`](crate::order::DomWdeg) learn from it.
    fn on_wipeout(&mut self, constraint: ConstraintId, ctx: &SelectCtx<'_>) {
        let _ = (constraint, ctx);
    }
}

impl<T: VariableOrder + ?Sized> VariableOrder for &mut T {
    fn select(&mut self, ctx: &SelectCtx<'_>) -> Option<VarId> {
        (**self).select(ctx)
    }

    fn on_wipeout(&mut self, constraint: ConstraintId, ctx: &SelectCtx<'_>) {
        (**self).on_wipeout(constraint, ctx)
    }
}

impl<T: VariableOrder + ?Sized> VariableOrder for Box<T> {
    fn select(&mut self, ctx: &SelectCtx<'_>) -> Option<VarId> {
        (**self).select(ctx)
    }

    fn on_wipeout(&mut self, constraint: ConstraintId, ctx: &SelectCtx<'_>) {
        (**self).on_wipeout(constraint, ctx)
    }
}
