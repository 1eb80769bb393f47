//! What every brancher is written against: the [`Decision`]s and [`Branch`]es a node can split
//! into and the [`Brancher`] trait. A leaf module, so that the branchers beside it depend on it and
//! not on the module that gathers them.

use std::fmt;

use csp_core::{ConstraintId, Store, VarId, Wipeout};

use crate::SelectCtx;

/// A restriction of one variable's domain: what one child of a binary node adds to its parent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Decision {
    /// `x = v`: the variable is assigned the value.
    Assign(VarId, i32),
    /// `x ≠ v`.
    Exclude(VarId, i32),
    /// `x ≤ m`.
    AtMost(VarId, i32),
    /// `x ≥ m`.
    AtLeast(VarId, i32),
}

impl Decision {
    /// Restricts `store`'s domain of the decision's variable to the values the decision allows,
    /// without assigning it (as a restriction of a search's root does): whether anything changed,
    /// or a [`Wipeout`] when no value is left.
    pub fn restrict(self, store: &mut Store) -> Result<bool, Wipeout> {
        match self {
            Decision::Assign(var, value) => {
                store.set_bounds(var, i64::from(value), i64::from(value))
            }
            Decision::Exclude(var, value) => store.remove_value(var, value),
            Decision::AtMost(var, bound) => store.set_bounds(var, i64::MIN, i64::from(bound)),
            Decision::AtLeast(var, bound) => store.set_bounds(var, i64::from(bound), i64::MAX),
        }
    }

    /// The variable the decision restricts.
    pub fn var(self) -> VarId {
        match self {
            Decision::Assign(var, _)
            | Decision::Exclude(var, _)
            | Decision::AtMost(var, _)
            | Decision::AtLeast(var, _) => var,
        }
    }

    /// The decision that holds exactly when this one does not: `x = v` and `x ≠ v`, `x ≤ m` and
    /// `x ≥ m + 1`. `None` for the bounds no `i32` value passes (`x ≤ i32::MAX` has no negation).
    pub fn negation(self) -> Option<Decision> {
        Some(match self {
            Decision::Assign(var, v) => Decision::Exclude(var, v),
            Decision::Exclude(var, v) => Decision::Assign(var, v),
            Decision::AtMost(var, m) => Decision::AtLeast(var, m.checked_add(1)?),
            Decision::AtLeast(var, m) => Decision::AtMost(var, m.checked_sub(1)?),
        })
    }

    /// Whether the value satisfies the decision.
    pub fn allows(self, value: i32) -> bool {
        match self {
            Decision::Assign(_, v) => value == v,
            Decision::Exclude(_, v) => value != v,
            Decision::AtMost(_, m) => value <= m,
            Decision::AtLeast(_, m) => value >= m,
        }
    }

    /// The decision as text with the variable written by `name`: `q3=5`, `q3!=5`, `q3<=5`, `q3>=6`.
    pub fn display<'a>(&self, name: &'a str) -> impl fmt::Display + 'a {
        let (op, value) = match *self {
            Decision::Assign(_, v) => ("=", v),
            Decision::Exclude(_, v) => ("!=", v),
            Decision::AtMost(_, v) => ("<=", v),
            Decision::AtLeast(_, v) => (">=", v),
        };
        DecisionText { name, op, value }
    }
}

/// A decision as text; see [`Decision::display`].
struct DecisionText<'a> {
    name: &'a str,
    op: &'static str,
    value: i32,
}

impl fmt::Display for DecisionText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}{}", self.name, self.op, self.value)
    }
}

/// How a node branches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Branch {
    /// One child per value the brancher appended to the engine's candidate stack, in order, each
    /// assigning the variable that value (d-way branching, Stone & Stone's search). No value appended
    /// makes the node a dead end.
    Values(VarId),
    /// Two children: the decision, then its negation.
    Binary(Decision),
}

/// Chooses how each node branches. The engine asks at every node; `None` means there is nothing left
/// to branch on, and the node is a solution.
///
/// A brancher sees the search through a read-only [`SelectCtx`] and takes `&mut self` to keep its own
/// state (a random generator, weights, scratch space).
///
/// The engine's rule for a solution follows from the answer: when a brancher that enumerates values
/// says `None`, every variable must be assigned; when one that makes decisions does, every variable
/// must be fixed (search by decisions propagates to a fixpoint, whose propagators are checker-complete).
pub trait Brancher {
    /// How the node `ctx` shows branches, or `None` if it is a solution. For [`Branch::Values`], the
    /// values to try go onto the end of `values`, in order.
    fn branch(&mut self, ctx: &SelectCtx<'_>, values: &mut Vec<i32>) -> Option<Branch>;

    /// [`Brancher::branch`], allowed to list only the first value of a [`Branch::Values`] node: it
    /// answers `Some(n)` beside the branch when it appended the first of the node's `n` values
    /// alone, and the engine lists them all through [`Brancher::relist`] if search comes back to
    /// the node for its second child. A search that never backtracks (a large N-queens board under
    /// forward checking) then never lists a node's thousands of values. Only a brancher that
    /// [can relist](Brancher::can_relist) may answer `Some`. Default: [`Brancher::branch`], every
    /// value listed.
    fn branch_first(
        &mut self,
        ctx: &SelectCtx<'_>,
        values: &mut Vec<i32>,
    ) -> Option<(Branch, Option<u32>)> {
        self.branch(ctx, values).map(|branch| (branch, None))
    }

    /// Propagation failed at the node `ctx` shows (before it is undone): `constraint` emptied a domain
    /// or found its variables inconsistent. Conflict-driven heuristics (dom/wdeg) learn from it.
    fn on_wipeout(&mut self, constraint: ConstraintId, ctx: &SelectCtx<'_>) {
        let _ = (constraint, ctx);
    }

    /// Whether every node the brancher shows is a [`Branch::Values`] node, so that search changes
    /// domains only by assigning variables (and by propagation). Forward checking then lets the
    /// store keep a rows-and-lines constraint itself ([`csp_core::Store::keep_lines`]). Default:
    /// `false`.
    fn enumerates_values(&self) -> bool {
        false
    }

    /// Whether [`Brancher::relist`] can list a value node's values again. Default: `false`.
    fn can_relist(&self) -> bool {
        false
    }

    /// Appends to `values` again, in the same order, the values a [`Branch::Values`] node branching on
    /// `var` was given, the store being back in that node's state. Search calls it only if
    /// [`Brancher::can_relist`] says so, after dropping the lists of nodes far up a deep path to keep
    /// its memory bounded.
    fn relist(&mut self, var: VarId, ctx: &SelectCtx<'_>, values: &mut Vec<i32>) {
        let _ = (var, ctx, values);
        unreachable!("relist is called only when can_relist says so")
    }
}

impl<T: Brancher + ?Sized> Brancher for &mut T {
    #[inline(always)]
    fn branch(&mut self, ctx: &SelectCtx<'_>, values: &mut Vec<i32>) -> Option<Branch> {
        (**self).branch(ctx, values)
    }

    fn enumerates_values(&self) -> bool {
        (**self).enumerates_values()
    }

    #[inline(always)]
    fn branch_first(
        &mut self,
        ctx: &SelectCtx<'_>,
        values: &mut Vec<i32>,
    ) -> Option<(Branch, Option<u32>)> {
        (**self).branch_first(ctx, values)
    }

    fn on_wipeout(&mut self, constraint: ConstraintId, ctx: &SelectCtx<'_>) {
        (**self).on_wipeout(constraint, ctx)
    }

    fn can_relist(&self) -> bool {
        (**self).can_relist()
    }

    fn relist(&mut self, var: VarId, ctx: &SelectCtx<'_>, values: &mut Vec<i32>) {
        (**self).relist(var, ctx, values)
    }
}

impl<T: Brancher + ?Sized> Brancher for Box<T> {
    #[inline(always)]
    fn branch(&mut self, ctx: &SelectCtx<'_>, values: &mut Vec<i32>) -> Option<Branch> {
        (**self).branch(ctx, values)
    }

    fn enumerates_values(&self) -> bool {
        (**self).enumerates_values()
    }

    #[inline(always)]
    fn branch_first(
        &mut self,
        ctx: &SelectCtx<'_>,
        values: &mut Vec<i32>,
    ) -> Option<(Branch, Option<u32>)> {
        (**self).branch_first(ctx, values)
    }

    fn on_wipeout(&mut self, constraint: ConstraintId, ctx: &SelectCtx<'_>) {
        (**self).on_wipeout(constraint, ctx)
    }

    fn can_relist(&self) -> bool {
        (**self).can_relist()
    }

    fn relist(&mut self, var: VarId, ctx: &SelectCtx<'_>, values: &mut Vec<i32>) {
        (**self).relist(var, ctx, values)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negations_flip_each_decision() {
        let x = VarId::from_index(0);
        assert_eq!(
            Decision::Assign(x, 3).negation(),
            Some(Decision::Exclude(x, 3))
        );
        assert_eq!(
            Decision::AtMost(x, 3).negation(),
            Some(Decision::AtLeast(x, 4))
        );
        assert_eq!(
            Decision::AtLeast(x, 4).negation(),
            Some(Decision::AtMost(x, 3))
        );
        assert_eq!(Decision::AtMost(x, i32::MAX).negation(), None);
        for d in [
            Decision::Assign(x, 3),
            Decision::Exclude(x, 3),
            Decision::AtMost(x, 3),
            Decision::AtLeast(x, 3),
        ] {
            let n = d.negation().unwrap();
            for v in -2..8 {
                assert_ne!(d.allows(v), n.allows(v), "{d:?} at {v}");
            }
        }
        assert_eq!(Decision::AtMost(x, 3).display("q0").to_string(), "q0<=3");
    }
}
