use crate::Domains;
use std::fmt;

use crate::{
    CheckCtx, Constraint, ExplainCtx, Literal, LiteralRelation, PropagationCtx, Propagator, VarId,
    Wipeout,
};

/// A binary relation given by a closure: `relation(x, y)` must hold.
pub struct Predicate {
    scope: [VarId; 2],
    name: String,
    relation: Box<dyn Fn(i32, i32) -> bool + Send + Sync>,
}

impl Predicate {
    /// `relation(value of x, value of y)` must be true; `name` is shown in messages and traces.
    pub fn new(
        name: impl Into<String>,
        x: VarId,
        y: VarId,
        relation: impl Fn(i32, i32) -> bool + Send + Sync + 'static,
    ) -> Self {
        Predicate {
            scope: [x, y],
            name: name.into(),
            relation: Box::new(relation),
        }
    }

    #[inline]
    fn holds(&self, var: VarId, value: i32, other_value: i32) -> bool {
        if var == self.scope[0] {
            (self.relation)(value, other_value)
        } else {
            (self.relation)(other_value, value)
        }
    }

    #[inline]
    fn other(&self, var: VarId) -> VarId {
        if var == self.scope[0] {
            self.scope[1]
        } else {
            self.scope[0]
        }
    }
}

impl Predicate {
    /// Pushes why `var = value` had no support in `other` under `ctx`: `other`'s bounds, each only
    /// where a value beyond it would have supported `value` (the relation is asked of the values
    /// up to the next value that would, within [`EXPLAIN_BUDGET`]), and the values between the
    /// bounds that would support `value` but are missing. Returns false, with `reasons` as they
    /// were, when a value of `other` supports it after all or the domain is too wide to walk.
    fn explain_unsupported(
        &self,
        var: VarId,
        value: i32,
        other: VarId,
        ctx: &ExplainCtx<'_>,
        reasons: &mut Vec<Literal>,
    ) -> bool {
        let (lo, hi) = ctx.bounds(other);
        if i64::from(hi) - i64::from(lo) >= i64::from(EXPLAIN_BUDGET) {
            return false;
        }
        let start = reasons.len();
        for u in lo..=hi {
            if self.holds(var, value, u) {
                if ctx.contains_within(other, u, (lo, hi)) {
                    reasons.truncate(start);
                    return false;
                }
                reasons.push(Literal::ne(other, u));
            }
        }
        // A bound is needed only if some value beyond it supports `value`; the weakest bound
        // literal that excludes the nearest such value within the budget, else the bound itself.
        let supports = |u: &i32| self.holds(var, value, *u);
        let below = lo.saturating_sub(EXPLAIN_BUDGET);
        if lo > i32::MIN {
            match (below..lo).rev().find(supports) {
                Some(u) => reasons.push(Literal::ge(other, u + 1)),
                None if below > i32::MIN => reasons.push(Literal::ge(other, below)),
                None => {}
            }
        }
        let above = hi.saturating_add(EXPLAIN_BUDGET);
        if hi < i32::MAX {
            match (hi + 1..=above).find(supports) {
                Some(u) => reasons.push(Literal::le(other, u - 1)),
                None if above < i32::MAX => reasons.push(Literal::le(other, above)),
                None => {}
            }
        }
        true
    }
}

impl fmt::Debug for Predicate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Predicate({}, {:?}, {:?})",
            self.name, self.scope[0], self.scope[1]
        )
    }
}

impl Constraint for Predicate {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        (self.relation)(values[0], values[1])
    }
}

impl Propagator for Predicate {
    fn priority(&self) -> crate::revision::Priority {
        crate::revision::Priority::High
    }

    /// Arc consistency (AC-3's revision, both ways): a value stays while some current value of the
    /// other variable satisfies the relation with it. One pass each way is a fixpoint, as a value
    /// that supports another is supported by it. Above 2¹⁶ pairs of values only a fixed variable
    /// prunes its partner (forward checking's strength), so wide domains cannot stall the search.
    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        let [x, y] = self.scope;
        let pairs = ctx.size(x).saturating_mul(ctx.size(y));
        for (var, other) in [(x, y), (y, x)] {
            if ctx.is_assigned(var) {
                continue;
            }
            // A wide domain is never listed: only a narrow one, against a fixed or narrow partner.
            if ctx.size(var) > REVISE_BUDGET
                || (pairs > REVISE_BUDGET && ctx.fixed_value(other).is_none())
            {
                continue;
            }
            let doomed: smallvec::SmallVec<[i32; 16]> = ctx
                .domain(var)
                .values()
                .filter(|&w| !ctx.current_values(other).any(|u| self.holds(var, w, u)))
                .collect();
            for w in doomed {
                ctx.remove(var, w)?;
            }
        }
        if ctx.is_assigned(x) && ctx.is_assigned(y) {
            let (Some(a), Some(b)) = (ctx.value(x), ctx.value(y)) else {
                return Err(Wipeout);
            };
            if !(self.relation)(a, b) {
                return Err(Wipeout);
            }
        }
        Ok(())
    }

    /// A removal of `value` from one side by the other side's values, none of which supported it
    /// (see `Predicate::explain_unsupported`).
    fn explain(&self, literal: Literal, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        if literal.relation != LiteralRelation::Ne || !self.scope.contains(&literal.var) {
            return false;
        }
        self.explain_unsupported(
            literal.var,
            literal.value,
            self.other(literal.var),
            ctx,
            reasons,
        )
    }

    /// The two fixed values the relation refuses.
    fn explain_failure(&self, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        let [x, y] = self.scope;
        let ((x_lo, x_hi), (y_lo, y_hi)) = (ctx.bounds(x), ctx.bounds(y));
        if x_lo != x_hi || y_lo != y_hi || (self.relation)(x_lo, y_lo) {
            return false;
        }
        reasons.push(Literal::eq(x, x_lo));
        reasons.push(Literal::eq(y, y_lo));
        true
    }

    // Value enumeration.
    /// A binary relation, checked only when the partner is assigned.
    fn check_is_pairwise(&self) -> bool {
        true
    }

    fn check(&self, var: VarId, value: i32, ctx: &CheckCtx<'_>) -> bool {
        ctx.value(self.other(var))
            .is_none_or(|other_value| self.holds(var, value, other_value))
    }

    fn forward_check(&self, var: VarId, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        let value = ctx.value(var).ok_or(Wipeout)?;
        let other = self.other(var);
        if let Some(other_value) = ctx.value(other) {
            return if self.holds(var, value, other_value) {
                Ok(())
            } else {
                Err(Wipeout)
            };
        }
        let doomed: smallvec::SmallVec<[i32; 16]> = ctx
            .domain(other)
            .values()
            .filter(|&w| !self.holds(other, w, value))
            .collect();
        for w in doomed {
            ctx.remove(other, w)?;
        }
        Ok(())
    }
}

/// The most value pairs [`Predicate`]'s arc-consistent revision examines (one closure call each).
const REVISE_BUDGET: u64 = 1 << 16;

/// The most values of the partner an explanation asks the relation about, between the partner's
/// bounds and beyond each of them.
const EXPLAIN_BUDGET: i32 = 1 << 10;
