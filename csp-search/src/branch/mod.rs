//! Branching: how a node splits the search. A [`Brancher`] looks at the node through a read-only
//! [`SelectCtx`] and answers with a [`Branch`]: either Stone & Stone's enumeration of a variable's
//! values (one child per value, [`Enumerate`]), or a binary [`Decision`] and its negation, as CP
//! solvers and MiniZinc's search annotations branch ([`DecisionBrancher`]).

mod brancher;
mod decisions;
mod selection;

pub use brancher::{Branch, Brancher, Decision};
pub use decisions::DecisionBrancher;
pub use selection::{IntSearch, ParseSelectionError, ValueSelection, VariableSelection};

use csp_core::{ConstraintId, VarId};

use crate::order::BuiltinVariableOrder;
use crate::value::BuiltinValueOrder;
use crate::{Propagation, SearchConfig, SelectCtx, Strategy, ValueOrder, VariableOrder};

/// The most values [`Enumerate`] lists at one node. A variable with more (a wide domain) is split in
/// halves, `x ≤ m` then `x > m`, until it has few enough, so that enumeration never tries to list
/// billions of values.
pub const MAX_ENUMERATED_VALUES: u64 = 1 << 24;

/// Value enumeration, Stone & Stone's d-way branching: a [`VariableOrder`] chooses the variable, its
/// choices at the node ([`SelectCtx::append_choices`]) are the children, in the order the
/// [`ValueOrder`] gives them. This is the brancher of LEX, MIN and dom/wdeg under check-past, forward
/// checking and MAC.
#[derive(Debug, Clone, Default)]
pub struct Enumerate<V, W> {
    /// The variable ordering.
    pub variables: V,
    /// The value ordering.
    pub values: W,
}

impl<V: VariableOrder, W: ValueOrder> Enumerate<V, W> {
    /// Enumeration with these orderings.
    pub fn new(variables: V, values: W) -> Self {
        Enumerate { variables, values }
    }
}

impl<V: VariableOrder, W: ValueOrder> Enumerate<V, W> {
    /// The node's branch on `var`: halves of a domain too wide to list, or its values listed in
    /// order.
    #[inline(always)]
    fn list(&mut self, var: VarId, ctx: &SelectCtx<'_>, values: &mut Vec<i32>) -> Branch {
        let domain = ctx.domain(var);
        if domain.size() > MAX_ENUMERATED_VALUES {
            let middle = ((i64::from(domain.lb()) + i64::from(domain.ub())).div_euclid(2)) as i32;
            return Branch::Binary(Decision::AtMost(var, middle));
        }
        let start = values.len();
        let len = ctx.append_choices(var, values);
        // An empty node is a dead end: the value ordering is not asked (its random draws stay in step
        // with the nodes that have values).
        if len > 0 {
            self.values.order(var, ctx, &mut values[start..]);
        }
        Branch::Values(var)
    }
}

impl<V: VariableOrder, W: ValueOrder> Brancher for Enumerate<V, W> {
    #[inline(always)]
    fn branch(&mut self, ctx: &SelectCtx<'_>, values: &mut Vec<i32>) -> Option<Branch> {
        let var = self.variables.select(ctx)?;
        Some(self.list(var, ctx, values))
    }

    /// Under forward checking and MAC a node's choices are its variable's domain values, so a
    /// value ordering that can name its first value ([`ValueOrder::first`]) gives the first child
    /// without listing the rest; under check-past each value must be checked to count the choices,
    /// and every value is listed.
    #[inline(always)]
    fn branch_first(
        &mut self,
        ctx: &SelectCtx<'_>,
        values: &mut Vec<i32>,
    ) -> Option<(Branch, Option<u32>)> {
        let var = self.variables.select(ctx)?;
        // The size alone, from the store's headers: a view can cost more than reading them
        // (a row of kept lines finds its bounds when viewed).
        let size = ctx.size(var);
        if ctx.propagation() != Propagation::CheckPast
            && (2..=MAX_ENUMERATED_VALUES).contains(&size)
            && self.values.reproducible()
            && let Some(first) = self.values.first(var, ctx)
        {
            values.push(first);
            return Some((Branch::Values(var), Some(size as u32)));
        }
        Some((self.list(var, ctx, values), None))
    }

    #[inline]
    fn on_wipeout(&mut self, constraint: ConstraintId, ctx: &SelectCtx<'_>) {
        self.variables.on_wipeout(constraint, ctx);
    }

    /// The choices at a node are a function of its state, so they can be listed again whenever the
    /// value ordering is reproducible.
    fn can_relist(&self) -> bool {
        self.values.reproducible()
    }

    fn enumerates_values(&self) -> bool {
        true
    }

    fn relist(&mut self, var: VarId, ctx: &SelectCtx<'_>, values: &mut Vec<i32>) {
        let start = values.len();
        if ctx.append_choices(var, values) > 0 {
            self.values.order(var, ctx, &mut values[start..]);
        }
    }
}

/// The built-in branchers behind one type, as a [`SearchConfig`] names them.
#[derive(Debug, Clone)]
// One value exists per search; boxing the larger variant would buy nothing.
#[allow(clippy::large_enum_variant)]
pub enum BuiltinBrancher {
    /// [`Strategy::Enumerate`]: the configured variable and value orderings.
    Enumerate(Enumerate<BuiltinVariableOrder, BuiltinValueOrder>),
    /// [`Strategy::Decisions`]: MiniZinc-style searches, then the remaining variables.
    Decisions(DecisionBrancher),
}

impl BuiltinBrancher {
    /// The brancher `config` asks for over `model`, seeded from `config.seed`. Under learning the
    /// annotated searches leave the variables they do not name to the learner's activity.
    pub fn from_config(model: &csp_core::Model, config: &SearchConfig) -> Self {
        match &config.strategy {
            Strategy::Enumerate => Self::Enumerate(Enumerate::new(
                BuiltinVariableOrder::from_config(config),
                BuiltinValueOrder::from_config(config),
            )),
            Strategy::Decisions(searches) => {
                let brancher = DecisionBrancher::new(model, searches.clone(), config.seed);
                // Under learning, activity decides the variables the searches leave (see
                // `crate::Learning`), rather than dom/wdeg.
                Self::Decisions(if config.conflicts.learns() {
                    brancher.without_rest()
                } else {
                    brancher
                })
            }
        }
    }
}

impl Brancher for BuiltinBrancher {
    #[inline(always)]
    fn branch(&mut self, ctx: &SelectCtx<'_>, values: &mut Vec<i32>) -> Option<Branch> {
        match self {
            Self::Enumerate(brancher) => brancher.branch(ctx, values),
            Self::Decisions(brancher) => brancher.branch(ctx, values),
        }
    }

    #[inline(always)]
    fn branch_first(
        &mut self,
        ctx: &SelectCtx<'_>,
        values: &mut Vec<i32>,
    ) -> Option<(Branch, Option<u32>)> {
        match self {
            Self::Enumerate(brancher) => brancher.branch_first(ctx, values),
            Self::Decisions(brancher) => brancher.branch_first(ctx, values),
        }
    }

    #[inline]
    fn on_wipeout(&mut self, constraint: ConstraintId, ctx: &SelectCtx<'_>) {
        match self {
            Self::Enumerate(brancher) => brancher.on_wipeout(constraint, ctx),
            Self::Decisions(brancher) => brancher.on_wipeout(constraint, ctx),
        }
    }

    fn can_relist(&self) -> bool {
        match self {
            Self::Enumerate(brancher) => brancher.can_relist(),
            Self::Decisions(brancher) => brancher.can_relist(),
        }
    }

    fn enumerates_values(&self) -> bool {
        match self {
            Self::Enumerate(brancher) => brancher.enumerates_values(),
            Self::Decisions(brancher) => brancher.enumerates_values(),
        }
    }

    fn relist(&mut self, var: VarId, ctx: &SelectCtx<'_>, values: &mut Vec<i32>) {
        match self {
            Self::Enumerate(brancher) => brancher.relist(var, ctx, values),
            Self::Decisions(brancher) => brancher.relist(var, ctx, values),
        }
    }
}
