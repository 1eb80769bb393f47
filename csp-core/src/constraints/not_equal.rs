use crate::Domains;
use crate::{
    CheckCtx, Constraint, EventSet, ExplainCtx, Literal, LiteralRelation, PropagationCtx,
    Propagator, VarId, Wipeout,
    constraints::{Linear, Relation},
    revision::Priority,
};

/// `x + a != y + b`: plain disequality with offsets, enough to state the N-queens diagonals
/// pairwise (`q[i] + i != q[j] + j`).
#[derive(Debug, Clone)]
pub struct NotEqual {
    scope: [VarId; 2],
    /// `b - a`, so that the constraint reads `x != y + delta`.
    delta: i64,
}

impl NotEqual {
    /// `x != y`.
    pub fn new(x: VarId, y: VarId) -> Self {
        Self::with_offsets(x, 0, y, 0)
    }

    /// `x + a != y + b`.
    pub fn with_offsets(x: VarId, a: i32, y: VarId, b: i32) -> Self {
        NotEqual {
            scope: [x, y],
            delta: i64::from(b) - i64::from(a),
        }
    }

    /// The value of the other variable that `var = value` rules out.
    #[inline]
    fn forbidden_partner(&self, var: VarId, value: i32) -> (VarId, i64) {
        if var == self.scope[0] {
            (self.scope[1], i64::from(value) - self.delta)
        } else {
            (self.scope[0], i64::from(value) + self.delta)
        }
    }
}

impl Constraint for NotEqual {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        i64::from(values[0]) != i64::from(values[1]) + self.delta
    }
}

impl Propagator for NotEqual {
    /// Arc consistency: a value loses its last support only when the other variable is fixed to
    /// the one value it forbids. Each side is looked at once, the second after the first's removal,
    /// which is a fixpoint: a side fixed by that removal forbids a value the first side no longer has.
    #[inline]
    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        for var in self.scope {
            if let Some(value) = ctx.fixed_value(var) {
                let (other, forbidden) = self.forbidden_partner(var, value);
                if let Ok(forbidden) = i32::try_from(forbidden) {
                    ctx.remove(other, forbidden)?;
                }
            }
        }
        Ok(())
    }

    /// A removal by the partner's value: `x ≠ y + delta` removes `v` from one side only once the
    /// other is fixed to the value that `v` would equal.
    fn explain(&self, literal: Literal, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        if literal.relation != LiteralRelation::Ne || !self.scope.contains(&literal.var) {
            return false;
        }
        let other = if literal.var == self.scope[0] {
            self.scope[1]
        } else {
            self.scope[0]
        };
        let (lo, hi) = ctx.bounds(other);
        let (partner, forbidden) = self.forbidden_partner(other, lo);
        if lo != hi || partner != literal.var || forbidden != i64::from(literal.value) {
            return false;
        }
        reasons.push(Literal::eq(other, lo));
        true
    }

    /// Both sides fixed to values the offset makes equal.
    fn explain_failure(&self, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        let [x, y] = self.scope;
        let ((x_lo, x_hi), (y_lo, y_hi)) = (ctx.bounds(x), ctx.bounds(y));
        if x_lo != x_hi || y_lo != y_hi || self.is_satisfied(&[x_lo, y_lo]) {
            return false;
        }
        reasons.push(Literal::eq(x, x_lo));
        reasons.push(Literal::eq(y, y_lo));
        true
    }

    /// Only a fixed variable forbids anything.
    fn subscribe(&self, _position: usize) -> EventSet {
        EventSet::FIXED
    }

    fn priority(&self) -> Priority {
        Priority::High
    }

    /// Entailed once the two domains share no value that the offset could make equal, which bounds
    /// show cheaply: `x + a` wholly below or above `y + b`.
    fn entailment(&self, ctx: &CheckCtx<'_>) -> Option<bool> {
        let [x, y] = self.scope;
        let (x_lo, x_hi) = (i64::from(ctx.lb(x)), i64::from(ctx.ub(x)));
        let (y_lo, y_hi) = (
            i64::from(ctx.lb(y)) + self.delta,
            i64::from(ctx.ub(y)) + self.delta,
        );
        if x_hi < y_lo || y_hi < x_lo {
            return Some(true);
        }
        if x_lo == x_hi && y_lo == y_hi {
            return Some(x_lo != y_lo);
        }
        let value = match (ctx.fixed_value(x), ctx.fixed_value(y)) {
            (Some(v), None) => Some((y, i64::from(v) - self.delta)),
            (None, Some(v)) => Some((x, i64::from(v) + self.delta)),
            _ => None,
        };
        match value {
            Some((other, forbidden)) => i32::try_from(forbidden).map_or(Some(true), |f| {
                (!ctx.domain(other).contains(f)).then_some(true)
            }),
            None => None,
        }
    }

    /// `x − y = delta`.
    fn negation(&self) -> Option<Box<dyn crate::Post>> {
        let [x, y] = self.scope;
        Some(Box::new(Linear::with_i64(
            vec![(1, x), (-1, y)],
            Relation::Equal,
            self.delta,
        )))
    }

    // Value enumeration.
    /// A binary constraint whose check refuses only a value the assigned partner forbids.
    fn check_is_pairwise(&self) -> bool {
        true
    }

    #[inline]
    fn check(&self, var: VarId, value: i32, ctx: &CheckCtx<'_>) -> bool {
        let (other, forbidden) = self.forbidden_partner(var, value);
        ctx.value(other).is_none_or(|v| i64::from(v) != forbidden)
    }

    #[inline]
    fn forward_check(&self, var: VarId, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        let value = ctx.value(var).ok_or(Wipeout)?;
        let (other, forbidden) = self.forbidden_partner(var, value);
        if let Ok(forbidden) = i32::try_from(forbidden) {
            ctx.remove(other, forbidden)?;
        }
        Ok(())
    }
}
