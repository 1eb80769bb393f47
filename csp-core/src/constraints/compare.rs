use smallvec::SmallVec;

use crate::{
    CheckCtx, Constraint, EventSet, ModelError, PropagationCtx, Propagator, ValueEnumeration,
    VarId, Wipeout,
    constraints::{
        Reification,
        util::{LIST_BUDGET, clamp_i64, invalid, retain_values_where},
    },
    revision::Priority,
};

/// How the left side of a [`Compare`] relates to its right side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Comparison {
    /// `=` (FlatZinc's `int_eq`, `bool_eq`, `bool2int`).
    Equal,
    /// `≠` (`int_ne`, `bool_not`).
    NotEqual,
    /// `≤` (`int_le`, `bool_le`).
    LessOrEqual,
    /// `<` (`int_lt`, `bool_lt`).
    Less,
    /// `≥`.
    GreaterOrEqual,
    /// `>`.
    Greater,
}

impl Comparison {
    /// Whether `left ⋈ right`.
    pub fn holds(self, left: i128, right: i128) -> bool {
        match self {
            Comparison::Equal => left == right,
            Comparison::NotEqual => left != right,
            Comparison::LessOrEqual => left <= right,
            Comparison::Less => left < right,
            Comparison::GreaterOrEqual => left >= right,
            Comparison::Greater => left > right,
        }
    }

    /// The comparison with its sides swapped: `a ⋈ b` exactly when `b ⋈' a`.
    pub fn mirrored(self) -> Comparison {
        match self {
            Comparison::LessOrEqual => Comparison::GreaterOrEqual,
            Comparison::Less => Comparison::Greater,
            Comparison::GreaterOrEqual => Comparison::LessOrEqual,
            Comparison::Greater => Comparison::Less,
            same => same,
        }
    }
}

/// The comparisons a [`Compare`] keeps, once `<` and `>` have become `≤` and `≥` with the offset moved
/// by one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Eq,
    Ne,
    Le,
    Ge,
}

/// `x ⋈ y + c` or `x ⋈ c` for a [`Comparison`] `⋈`: FlatZinc's `int_eq`, `int_ne`, `int_le`,
/// `int_lt` (and their Boolean twins, on 0/1 variables), between two variables or a variable and a
/// constant.
///
/// Consistency: `≤`, `<`, `≥` and `>` are bounds consistent, which on one inequality is domain
/// consistency (a value is supported exactly when it lies on the right side of the partner's bound).
/// `≠` is domain consistent: it removes a value once the other side is fixed. `=` is domain
/// consistent: each domain keeps the values the other side can match, while the domains hold at most
/// 2¹⁶ values each; beyond that it is bounds consistent. The offset is an `i64` and all arithmetic is
/// done in 128 bits, so no offset overflows.
#[derive(Debug, Clone)]
pub struct Compare {
    /// `[x]` or `[x, y]`.
    scope: Vec<VarId>,
    op: Op,
    /// `c`: the right side is `y + c`, or `c` alone.
    offset: i128,
}

impl Compare {
    /// `x ⋈ y + offset`. `x` and `y` must differ (a comparison of a variable with itself is a
    /// constant truth, which a front end settles before posting).
    pub fn new(
        x: VarId,
        comparison: Comparison,
        y: VarId,
        offset: i64,
    ) -> Result<Self, ModelError> {
        if x == y {
            return Err(invalid(
                "comparison",
                format!("both sides are {x:?}; compare a variable with another"),
            ));
        }
        Ok(Self::build(vec![x, y], comparison, i128::from(offset)))
    }

    /// `x ⋈ c`, a comparison with a constant (`int_le(x, 5)`).
    pub fn constant(x: VarId, comparison: Comparison, c: i64) -> Self {
        Self::build(vec![x], comparison, i128::from(c))
    }

    /// `x = y`.
    pub fn equal(x: VarId, y: VarId) -> Result<Self, ModelError> {
        Self::new(x, Comparison::Equal, y, 0)
    }

    /// `x ≠ y`.
    pub fn not_equal(x: VarId, y: VarId) -> Result<Self, ModelError> {
        Self::new(x, Comparison::NotEqual, y, 0)
    }

    /// `x ≤ y`.
    pub fn less_or_equal(x: VarId, y: VarId) -> Result<Self, ModelError> {
        Self::new(x, Comparison::LessOrEqual, y, 0)
    }

    /// `x < y`.
    pub fn less(x: VarId, y: VarId) -> Result<Self, ModelError> {
        Self::new(x, Comparison::Less, y, 0)
    }

    fn build(scope: Vec<VarId>, comparison: Comparison, offset: i128) -> Self {
        let (op, offset) = match comparison {
            Comparison::Equal => (Op::Eq, offset),
            Comparison::NotEqual => (Op::Ne, offset),
            Comparison::LessOrEqual => (Op::Le, offset),
            Comparison::Less => (Op::Le, offset - 1),
            Comparison::GreaterOrEqual => (Op::Ge, offset),
            Comparison::Greater => (Op::Ge, offset + 1),
        };
        Compare { scope, op, offset }
    }

    /// The comparison that holds exactly when this one does not.
    fn negated(&self) -> Compare {
        let (op, offset) = match self.op {
            Op::Eq => (Op::Ne, self.offset),
            Op::Ne => (Op::Eq, self.offset),
            Op::Le => (Op::Ge, self.offset + 1),
            Op::Ge => (Op::Le, self.offset - 1),
        };
        Compare {
            scope: self.scope.clone(),
            op,
            offset,
        }
    }

    fn x(&self) -> VarId {
        self.scope[0]
    }

    fn y(&self) -> Option<VarId> {
        self.scope.get(1).copied()
    }

    /// Whether `x ⋈ right` holds.
    fn holds(&self, x: i32, right: i128) -> bool {
        let x = i128::from(x);
        match self.op {
            Op::Eq => x == right,
            Op::Ne => x != right,
            Op::Le => x <= right,
            Op::Ge => x >= right,
        }
    }

    /// The right side's range, `y + c` over `y`'s bounds or `c` alone.
    fn right_bounds(&self, ctx: &CheckCtx<'_>) -> (i128, i128) {
        match self.y() {
            Some(y) => (
                i128::from(ctx.lb(y)) + self.offset,
                i128::from(ctx.ub(y)) + self.offset,
            ),
            None => (self.offset, self.offset),
        }
    }

    /// The right side's only value, if it has one.
    fn right_fixed(&self, ctx: &CheckCtx<'_>) -> Option<i128> {
        match self.y() {
            Some(y) => ctx.fixed_value(y).map(|v| i128::from(v) + self.offset),
            None => Some(self.offset),
        }
    }

    fn filter(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        let x = self.x();
        let c = self.offset;
        match (self.op, self.y()) {
            (Op::Le, None) => ctx.set_max(x, clamp_i64(c)).map(drop),
            (Op::Ge, None) => ctx.set_min(x, clamp_i64(c)).map(drop),
            (Op::Eq, None) => ctx.fix(x, clamp_i64(c)).map(drop),
            (Op::Ne, None) => remove_i128(ctx, x, c),
            (Op::Le, Some(y)) => {
                ctx.set_max(x, clamp_i64(i128::from(ctx.ub(y)) + c))?;
                ctx.set_min(y, clamp_i64(i128::from(ctx.lb(x)) - c))
                    .map(drop)
            }
            (Op::Ge, Some(y)) => {
                ctx.set_min(x, clamp_i64(i128::from(ctx.lb(y)) + c))?;
                ctx.set_max(y, clamp_i64(i128::from(ctx.ub(x)) - c))
                    .map(drop)
            }
            (Op::Ne, Some(y)) => {
                if let Some(v) = ctx.fixed_value(y) {
                    remove_i128(ctx, x, i128::from(v) + c)?;
                }
                if let Some(v) = ctx.fixed_value(x) {
                    remove_i128(ctx, y, i128::from(v) - c)?;
                }
                Ok(())
            }
            (Op::Eq, Some(y)) => {
                // Bounds first (one change each), then the holes, one side against the other: a
                // value kept on the second side still has its partner on the first, so one round is
                // a fixpoint.
                ctx.restrict_bounds(
                    x,
                    clamp_i64(i128::from(ctx.lb(y)) + c),
                    clamp_i64(i128::from(ctx.ub(y)) + c),
                )?;
                ctx.restrict_bounds(
                    y,
                    clamp_i64(i128::from(ctx.lb(x)) - c),
                    clamp_i64(i128::from(ctx.ub(x)) - c),
                )?;
                if ctx.size(x) > LIST_BUDGET || ctx.size(y) > LIST_BUDGET {
                    return Ok(());
                }
                retain_values_where(ctx, x, |ctx, v| {
                    i32::try_from(i128::from(v) - c).is_ok_and(|w| ctx.domain(y).contains(w))
                })?;
                retain_values_where(ctx, y, |ctx, w| {
                    i32::try_from(i128::from(w) + c).is_ok_and(|v| ctx.domain(x).contains(v))
                })?;
                Ok(())
            }
        }
    }

    fn events(&self, position: usize) -> EventSet {
        match (self.op, position) {
            (_, _) if self.scope.len() == 1 => EventSet::EMPTY,
            (Op::Eq, _) => EventSet::ANY,
            (Op::Ne, _) => EventSet::FIXED,
            (Op::Le, 0) | (Op::Ge, 1) => EventSet::LOWER_BOUND,
            (Op::Le, _) | (Op::Ge, _) => EventSet::UPPER_BOUND,
        }
    }

    fn entails(&self, ctx: &CheckCtx<'_>) -> Option<bool> {
        let x = self.x();
        let (x_lo, x_hi) = (i128::from(ctx.lb(x)), i128::from(ctx.ub(x)));
        let (r_lo, r_hi) = self.right_bounds(ctx);
        let equal = || -> Option<bool> {
            if x_hi < r_lo || r_hi < x_lo {
                return Some(false);
            }
            match (ctx.fixed_value(x), self.right_fixed(ctx)) {
                (Some(v), Some(r)) => Some(i128::from(v) == r),
                (None, Some(r)) => {
                    (!i32::try_from(r).is_ok_and(|r| ctx.domain(x).contains(r))).then_some(false)
                }
                (Some(v), None) => {
                    let y = self.y()?;
                    let w = i128::from(v) - self.offset;
                    (!i32::try_from(w).is_ok_and(|w| ctx.domain(y).contains(w))).then_some(false)
                }
                (None, None) => None,
            }
        };
        match self.op {
            Op::Le if x_hi <= r_lo => Some(true),
            Op::Le if x_lo > r_hi => Some(false),
            Op::Ge if x_lo >= r_hi => Some(true),
            Op::Ge if x_hi < r_lo => Some(false),
            Op::Le | Op::Ge => None,
            Op::Eq => equal(),
            Op::Ne => equal().map(|holds| !holds),
        }
    }
}

/// Removes `value` from `var` if it is an `i32` at all.
fn remove_i128(ctx: &mut PropagationCtx<'_>, var: VarId, value: i128) -> Result<(), Wipeout> {
    if let Ok(value) = i32::try_from(value) {
        ctx.remove(var, value)?;
    }
    Ok(())
}

impl Compare {
    /// The explanation of a change made by this comparison, or by a reification of it over
    /// `scope` (its Boolean and the compared variables): `≤` and `≥` reason on bounds alone, so
    /// the bounds of the scope's other variables explain any change of a bound. Reified, `=` and `≠`
    /// (and a removal) have no explanation of their own here.
    fn explain_by_bounds(
        &self,
        scope: &[VarId],
        literal: crate::Literal,
        ctx: &crate::ExplainCtx<'_>,
        reasons: &mut Vec<crate::Literal>,
    ) -> bool {
        if !matches!(self.op, Op::Le | Op::Ge) || literal.relation == crate::LiteralRelation::Ne {
            return false;
        }
        crate::explain_by_bounds(scope, literal.var, ctx, reasons);
        true
    }

    /// The explanation of a change made by `x = y + c` or `x ≠ y + c` (not reified), each side's
    /// literal by the other side's, shifted by the offset. A removal rests on the partner's value
    /// missing (`=`) or fixed (`≠`). A bound of `=` rests on the variable's own bound before it
    /// and, for each value it passed that was still there, on the partner's bound beyond it or
    /// the partner's value missing: the propagator moves a bound past values whose partners are
    /// holes, not only past the partner's bound.
    fn explain_by_partner(
        &self,
        literal: crate::Literal,
        ctx: &crate::ExplainCtx<'_>,
        reasons: &mut Vec<crate::Literal>,
    ) -> bool {
        use crate::{Literal, LiteralRelation as R};
        /// The most values a bound's explanation walks; beyond it, the learner's default.
        const PASSED_BUDGET: i64 = 1 << 10;
        let Some(y) = self.y() else { return false };
        let x = literal.var;
        // `partner = value - shift` on the other side.
        let (partner, shift) = if x == self.x() {
            (y, self.offset)
        } else if x == y {
            (self.x(), -self.offset)
        } else {
            return false;
        };
        let to_partner = |v: i32| i32::try_from(i128::from(v) - shift).ok();
        let partner_bounds = ctx.bounds(partner);
        match (self.op, literal.relation) {
            (Op::Eq, R::Ne) => match to_partner(literal.value) {
                Some(w) if !ctx.contains_within(partner, w, partner_bounds) => {
                    reasons.push(Literal::ne(partner, w));
                    true
                }
                _ => false,
            },
            (Op::Ne, R::Ne) => match to_partner(literal.value) {
                Some(w) if partner_bounds == (w, w) => {
                    reasons.push(Literal::eq(partner, w));
                    true
                }
                _ => false,
            },
            (Op::Eq, R::Ge | R::Le | R::Eq) => {
                let own = ctx.bounds(x);
                let start = reasons.len();
                ctx.push_own_bounds(literal, reasons);
                // The values passed on each side that moved: `(first, last)` within the old
                // bounds, and whether it is the lower side.
                let mut sides: SmallVec<[(i32, i32, bool); 2]> = SmallVec::new();
                if matches!(literal.relation, R::Ge | R::Eq) && literal.value > own.0 {
                    sides.push((own.0, literal.value - 1, true));
                }
                if matches!(literal.relation, R::Le | R::Eq) && literal.value < own.1 {
                    sides.push((literal.value + 1, own.1, false));
                }
                for (first, last, lower) in sides {
                    if i64::from(last) - i64::from(first) >= PASSED_BUDGET {
                        reasons.truncate(start);
                        return false;
                    }
                    // The partner value nearest its bound that lay beyond it, if any: the weakest
                    // bound literal that excludes them all.
                    let mut beyond: Option<i32> = None;
                    for v in first..=last {
                        if !ctx.contains_within(x, v, own) {
                            continue;
                        }
                        let Some(w) = to_partner(v) else {
                            reasons.truncate(start);
                            return false;
                        };
                        if lower && w < partner_bounds.0 || !lower && w > partner_bounds.1 {
                            beyond = Some(match beyond {
                                Some(b) if lower => b.max(w),
                                Some(b) => b.min(w),
                                None => w,
                            });
                        } else if ctx.contains_within(partner, w, partner_bounds) {
                            // The value's partner was there: the change came from elsewhere.
                            reasons.truncate(start);
                            return false;
                        } else {
                            reasons.push(Literal::ne(partner, w));
                        }
                    }
                    if let Some(w) = beyond {
                        reasons.push(if lower {
                            Literal::ge(partner, w + 1)
                        } else {
                            Literal::le(partner, w - 1)
                        });
                    }
                }
                true
            }
            _ => false,
        }
    }
}

impl Constraint for Compare {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let right = match values.get(1) {
            Some(&y) => i128::from(y) + self.offset,
            None => self.offset,
        };
        self.holds(values[0], right)
    }

    fn propagator(&self) -> Option<&dyn Propagator> {
        Some(self)
    }

    fn value_enumeration(&self) -> Option<&dyn ValueEnumeration> {
        Some(self)
    }
}

impl Propagator for Compare {
    /// `≤` and `≥` reason on bounds alone: the other variable's bounds explain a change. `=` and
    /// `≠` between two variables explain a change by the partner's literal.
    fn explain(
        &self,
        literal: crate::Literal,
        ctx: &crate::ExplainCtx<'_>,
        reasons: &mut Vec<crate::Literal>,
    ) -> bool {
        match self.op {
            Op::Eq | Op::Ne => self.explain_by_partner(literal, ctx, reasons),
            Op::Le | Op::Ge => self.explain_by_bounds(&self.scope, literal, ctx, reasons),
        }
    }

    /// See [`Compare`] for the consistency of each comparison.
    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        self.filter(ctx)?;
        if self.entails(&ctx.as_check()) == Some(true) {
            ctx.entailed();
        }
        Ok(())
    }

    /// An inequality needs one bound of each side, a disequality fixed sides, an equality every
    /// removal; a comparison with a constant is settled by its first revision.
    fn subscribe(&self, position: usize) -> EventSet {
        self.events(position)
    }

    fn priority(&self) -> Priority {
        Priority::High
    }

    /// From the bounds (and, for `=` and `≠`, a fixed side's value against the other's domain).
    fn entailment(&self, ctx: &CheckCtx<'_>) -> Option<bool> {
        self.entails(ctx)
    }

    /// `=` and `≠` negate each other, `x ≤ y + c` becomes `x ≥ y + c + 1`.
    fn negation(&self) -> Option<Box<dyn Constraint>> {
        Some(Box::new(self.negated()))
    }
}

impl ValueEnumeration for Compare {
    /// A comparison refuses a value only for what the one other variable holds, and monotonely.
    fn check_is_pairwise(&self) -> bool {
        true
    }
}

/// `b ↔ x ⋈ y + c` or `b → x ⋈ y + c` (and the same with a constant right side): FlatZinc's
/// `int_eq_reif`, `int_ne_reif`, `int_le_reif`, `int_lt_reif`, their `_imp` forms, and the Boolean
/// twins, in one constraint of constant cost instead of the generic
/// [`Reified`](crate::constraints::Reified) wrapper's calls through a box.
///
/// Consistency: `b` is fixed as soon as the comparison is entailed or disentailed (see
/// [`Compare::entailment`](Propagator::entailment)); once `b` is fixed, the comparison (or, for an
/// equivalence with `b = 0`, its negation) propagates with [`Compare`]'s consistency.
#[derive(Debug, Clone)]
pub struct ReifiedCompare {
    /// `b`, then the comparison's scope.
    scope: Vec<VarId>,
    comparison: Compare,
    negation: Compare,
    mode: Reification,
}

impl ReifiedCompare {
    /// `b ↔ comparison` or `b → comparison`, as `mode` says. `b` must not be one of the comparison's
    /// variables.
    pub fn new(b: VarId, comparison: Compare, mode: Reification) -> Result<Self, ModelError> {
        if comparison.scope.contains(&b) {
            return Err(invalid(
                "reified comparison",
                format!("the Boolean {b:?} is compared itself"),
            ));
        }
        let mut scope = vec![b];
        scope.extend_from_slice(&comparison.scope);
        Ok(ReifiedCompare {
            scope,
            negation: comparison.negated(),
            comparison,
            mode,
        })
    }

    fn b(&self) -> VarId {
        self.scope[0]
    }
}

impl Constraint for ReifiedCompare {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let holds = self.comparison.is_satisfied(&values[1..]);
        match (self.mode, values[0]) {
            (Reification::Equivalent, 0) => !holds,
            (Reification::Implies, 0) => true,
            (_, 1) => holds,
            _ => false,
        }
    }

    fn propagator(&self) -> Option<&dyn Propagator> {
        Some(self)
    }
}

impl Propagator for ReifiedCompare {
    /// `≤` and `≥` (and their negations) reason on bounds alone: the Boolean's value and the other
    /// variables' bounds explain a change.
    fn explain(
        &self,
        literal: crate::Literal,
        ctx: &crate::ExplainCtx<'_>,
        reasons: &mut Vec<crate::Literal>,
    ) -> bool {
        self.comparison
            .explain_by_bounds(&self.scope, literal, ctx, reasons)
    }

    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        let b = self.b();
        ctx.restrict_bounds(b, 0, 1)?;
        if ctx.fixed_value(b).is_none() {
            match (self.comparison.entails(&ctx.as_check()), self.mode) {
                (Some(false), _) => {
                    ctx.fix(b, 0)?;
                }
                (Some(true), Reification::Equivalent) => {
                    ctx.fix(b, 1)?;
                }
                _ => return Ok(()),
            }
        }
        // With `b` fixed, what must hold is the comparison or its negation, and once that is
        // entailed nothing is left to do on this branch.
        let holding = match (ctx.fixed_value(b), self.mode) {
            (Some(1), _) => &self.comparison,
            (_, Reification::Equivalent) => &self.negation,
            (_, Reification::Implies) => {
                ctx.entailed();
                return Ok(());
            }
        };
        holding.filter(ctx)?;
        if holding.entails(&ctx.as_check()) == Some(true) {
            ctx.entailed();
        }
        Ok(())
    }

    /// `b` when fixed; the compared variables for whatever the comparison, its negation and their
    /// entailment read (both bounds, and removals for `=` and `≠`).
    fn subscribe(&self, position: usize) -> EventSet {
        match (position, self.comparison.op) {
            (0, _) => EventSet::FIXED,
            (_, Op::Le | Op::Ge) => EventSet::BOUNDS,
            (_, Op::Eq | Op::Ne) => EventSet::ANY,
        }
    }

    fn priority(&self) -> Priority {
        Priority::High
    }

    fn entailment(&self, ctx: &CheckCtx<'_>) -> Option<bool> {
        let holds = self.comparison.entails(ctx);
        match (self.mode, ctx.fixed_value(self.b())) {
            (Reification::Implies, Some(0)) => Some(true),
            (_, Some(1)) => holds,
            (Reification::Equivalent, Some(0)) => holds.map(|h| !h),
            _ => None,
        }
    }
}
