use crate::Domains;
use smallvec::SmallVec;

use crate::{
    CheckCtx, Constraint, EventSet, ExplainCtx, Literal, LiteralRelation as R, ModelError,
    PropagationCtx, Propagator, VarId, Wipeout,
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

/// `value` as an `i32`, saturated at the type's ends: a literal on a bound beyond them holds
/// (or fails) as the saturated one does.
fn clamp_i32(value: i128) -> i32 {
    i32::try_from(value).unwrap_or(if value < 0 { i32::MIN } else { i32::MAX })
}

/// Removes `value` from `var` if it is an `i32` at all.
fn remove_i128(ctx: &mut PropagationCtx<'_>, var: VarId, value: i128) -> Result<(), Wipeout> {
    if let Ok(value) = i32::try_from(value) {
        ctx.remove(var, value)?;
    }
    Ok(())
}

impl Compare {
    /// The explanation of a bound moved by `x ≤ y + c` or `x ≥ y + c` (or the same against a
    /// constant): the one bound of the partner that the propagator read, just before the change
    /// (`x ≤ y + c` sets `x ≤ ub(y) + c` and `y ≥ lb(x) − c`). A constant side needs no reason.
    fn explain_inequality(
        &self,
        literal: Literal,
        ctx: &ExplainCtx<'_>,
        reasons: &mut Vec<Literal>,
    ) -> bool {
        let Some(y) = self.y() else {
            return literal.var == self.x();
        };
        let x = self.x();
        // The bound moved (or, on a domain of two values, the removal of the value it left
        // behind) follows from the partner's bound on the same side.
        let pushed = match self.op {
            Op::Le if literal.var == x => Literal::le(y, ctx.ub(y)),
            Op::Le if literal.var == y => Literal::ge(x, ctx.lb(x)),
            Op::Ge if literal.var == x => Literal::ge(y, ctx.lb(y)),
            Op::Ge if literal.var == y => Literal::le(x, ctx.ub(x)),
            _ => return false,
        };
        reasons.push(pushed);
        true
    }

    /// The explanation of a change made by this comparison alone (not reified): by bounds for
    /// `≤` and `≥`, by the partner's literal for `=` and `≠`.
    fn explain_change(
        &self,
        literal: Literal,
        ctx: &ExplainCtx<'_>,
        reasons: &mut Vec<Literal>,
    ) -> bool {
        match (self.op, self.y()) {
            (Op::Le | Op::Ge, _) => self.explain_inequality(literal, ctx, reasons),
            // Against a constant, every change follows from the constraint alone.
            (Op::Eq | Op::Ne, None) => literal.var == self.x(),
            (Op::Eq | Op::Ne, Some(_)) => self.explain_by_partner(literal, ctx, reasons),
        }
    }

    /// Pushes literals true in `ctx` under which the comparison holds for every assignment, and
    /// returns true; false (with `reasons` as they were) when the domains do not show that. The
    /// negated comparison's explanation is this one's explanation of a failure, and a reified
    /// comparison's of its Boolean.
    fn explain_holds(&self, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        let x = self.x();
        let c = self.offset;
        let (x_lo, x_hi) = ctx.bounds(x);
        match (self.op, self.y()) {
            (Op::Le, None) if i128::from(x_hi) <= c => reasons.push(Literal::le(x, x_hi)),
            (Op::Ge, None) if i128::from(x_lo) >= c => reasons.push(Literal::ge(x, x_lo)),
            // `x ≤ y + c` holds once `ub(x) − c ≤ lb(y)`: the weakest pair of bounds saying so.
            (Op::Le, Some(y)) if i128::from(x_hi) <= i128::from(ctx.lb(y)) + c => {
                reasons.push(Literal::le(x, x_hi));
                reasons.push(Literal::ge(y, clamp_i32(i128::from(x_hi) - c)));
            }
            (Op::Ge, Some(y)) if i128::from(x_lo) >= i128::from(ctx.ub(y)) + c => {
                reasons.push(Literal::ge(x, x_lo));
                reasons.push(Literal::le(y, clamp_i32(i128::from(x_lo) - c)));
            }
            (Op::Eq, None) if x_lo == x_hi && i128::from(x_lo) == c => {
                reasons.push(Literal::eq(x, x_lo));
            }
            (Op::Eq, Some(y)) => {
                let (y_lo, y_hi) = ctx.bounds(y);
                if x_lo != x_hi || y_lo != y_hi || i128::from(x_lo) != i128::from(y_lo) + c {
                    return false;
                }
                reasons.push(Literal::eq(x, x_lo));
                reasons.push(Literal::eq(y, y_lo));
            }
            (Op::Ne, _) => return self.explain_no_common_value(ctx, reasons),
            _ => return false,
        }
        true
    }

    /// Pushes literals true in `ctx` under which `x` and the right side share no value (`x = y +
    /// c` cannot hold), and returns true; false, with `reasons` as they were, when they share one
    /// or the overlap of their bounds is too wide to list. Each side's bound is cited only where
    /// it is the tighter one, and each value of the overlap by the one side that misses it.
    fn explain_no_common_value(&self, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        /// The widest overlap of the two sides' bounds whose values are listed.
        const OVERLAP_BUDGET: i128 = 1 << 10;
        let x = self.x();
        let c = self.offset;
        let x_bounds = ctx.bounds(x);
        let (x_lo, x_hi) = (i128::from(x_bounds.0), i128::from(x_bounds.1));
        let Some(y) = self.y() else {
            let reason = if c < x_lo {
                Literal::ge(x, x_bounds.0)
            } else if c > x_hi {
                Literal::le(x, x_bounds.1)
            } else if !ctx.contains_within(x, clamp_i32(c), x_bounds) {
                Literal::ne(x, clamp_i32(c))
            } else {
                return false;
            };
            reasons.push(reason);
            return true;
        };
        let y_bounds = ctx.bounds(y);
        let (r_lo, r_hi) = (i128::from(y_bounds.0) + c, i128::from(y_bounds.1) + c);
        // Disjoint bounds: the one side's upper bound below the other's lower bound.
        if x_hi < r_lo {
            reasons.push(Literal::le(x, x_bounds.1));
            reasons.push(Literal::ge(y, clamp_i32(x_hi + 1 - c)));
            return true;
        }
        if r_hi < x_lo {
            reasons.push(Literal::ge(x, x_bounds.0));
            reasons.push(Literal::le(y, clamp_i32(x_lo - 1 - c)));
            return true;
        }
        let (lo, hi) = (x_lo.max(r_lo), x_hi.min(r_hi));
        if hi - lo >= OVERLAP_BUDGET {
            return false;
        }
        let start = reasons.len();
        reasons.push(if x_lo >= r_lo {
            Literal::ge(x, clamp_i32(lo))
        } else {
            Literal::ge(y, clamp_i32(lo - c))
        });
        reasons.push(if x_hi <= r_hi {
            Literal::le(x, clamp_i32(hi))
        } else {
            Literal::le(y, clamp_i32(hi - c))
        });
        for v in lo..=hi {
            let (v, w) = (clamp_i32(v), clamp_i32(v - c));
            if !ctx.contains_within(x, v, x_bounds) {
                reasons.push(Literal::ne(x, v));
            } else if !ctx.contains_within(y, w, y_bounds) {
                reasons.push(Literal::ne(y, w));
            } else {
                reasons.truncate(start);
                return false;
            }
        }
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
        literal: Literal,
        ctx: &ExplainCtx<'_>,
        reasons: &mut Vec<Literal>,
    ) -> bool {
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
            // A fixed partner fixes the variable: its value alone explains any bound.
            (Op::Eq, R::Ge | R::Le | R::Eq) if partner_bounds.0 == partner_bounds.1 => {
                reasons.push(Literal::eq(partner, partner_bounds.0));
                true
            }
            (Op::Eq, R::Ge | R::Le | R::Eq) => {
                let own = ctx.bounds(x);
                let start = reasons.len();
                ctx.push_own_bounds(literal, reasons);
                // The values passed on each side that moved, `(first, last)` within the old
                // bounds.
                let mut sides: SmallVec<[(i64, i64); 2]> = SmallVec::new();
                if matches!(literal.relation, R::Ge | R::Eq) && literal.value > own.0 {
                    sides.push((i64::from(own.0), i64::from(literal.value) - 1));
                }
                if matches!(literal.relation, R::Le | R::Eq) && literal.value < own.1 {
                    sides.push((i64::from(literal.value) + 1, i64::from(own.1)));
                }
                // The passed values whose partners lay between the partner's bounds, which are
                // explained one by one; those below or above the partner's bounds are explained
                // by one bound literal of the partner.
                let Ok(shift) = i64::try_from(shift) else {
                    reasons.truncate(start);
                    return false;
                };
                let (p_lo, p_hi) = (
                    i64::from(partner_bounds.0) + shift,
                    i64::from(partner_bounds.1) + shift,
                );
                // The first present value of `x` in `range` (walked in its order), within the
                // budget: `Ok(Some(v))`, `Ok(None)` if none, `Err` if the budget ran out.
                let first_present = |range: &mut dyn Iterator<Item = i64>| {
                    for (step, v) in range.enumerate() {
                        if step as i64 >= PASSED_BUDGET {
                            return Err(());
                        }
                        if ctx.contains_within(x, v as i32, own) {
                            return Ok(Some(v));
                        }
                    }
                    Ok(None)
                };
                for (first, last) in sides {
                    // Below the partner's range: the weakest `partner ≥ w` that excludes the
                    // passed value nearest that range.
                    if first < p_lo {
                        let reason = match first_present(&mut (first..=last.min(p_lo - 1)).rev()) {
                            Ok(Some(v)) => Some(Literal::ge(partner, (v - shift + 1) as i32)),
                            Ok(None) => None,
                            Err(()) => Some(Literal::ge(partner, partner_bounds.0)),
                        };
                        reasons.extend(reason);
                    }
                    if last > p_hi {
                        let reason = match first_present(&mut (first.max(p_hi + 1)..=last)) {
                            Ok(Some(v)) => Some(Literal::le(partner, (v - shift - 1) as i32)),
                            Ok(None) => None,
                            Err(()) => Some(Literal::le(partner, partner_bounds.1)),
                        };
                        reasons.extend(reason);
                    }
                    let (lo, hi) = (first.max(p_lo), last.min(p_hi));
                    if hi - lo >= PASSED_BUDGET {
                        reasons.truncate(start);
                        return false;
                    }
                    for v in lo..=hi {
                        if !ctx.contains_within(x, v as i32, own) {
                            continue;
                        }
                        let w = (v - shift) as i32;
                        if ctx.contains_within(partner, w, partner_bounds) {
                            // The value's partner was there: the change came from elsewhere.
                            reasons.truncate(start);
                            return false;
                        }
                        reasons.push(Literal::ne(partner, w));
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
}

impl Propagator for Compare {
    /// `≤` and `≥` by the one bound of the partner that moved the bound, `=` and `≠` by the
    /// partner's literal (see `Compare::explain_by_partner`).
    fn explain(&self, literal: Literal, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        self.explain_change(literal, ctx, reasons)
    }

    /// A failure is the negated comparison holding: `x ≤ y + c` fails on `lb(x) > ub(y) + c`,
    /// `=` on two sides with no common value, `≠` on two fixed equal sides.
    fn explain_failure(&self, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        self.negated().explain_holds(ctx, reasons)
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
    fn negation(&self) -> Option<Box<dyn crate::Post>> {
        Some(Box::new(self.negated()))
    }

    // Value enumeration.
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
}

impl ReifiedCompare {
    /// The comparison that must hold while `b` has the bounds `b_bounds`, and the literal on `b`
    /// that says so; `None` while `b` is open, or false under an implication.
    fn holding(&self, b_bounds: (i32, i32)) -> Option<(&Compare, Literal)> {
        let b = self.b();
        match (b_bounds, self.mode) {
            ((1, 1), _) => Some((&self.comparison, Literal::ge(b, 1))),
            ((0, 0), Reification::Equivalent) => Some((&self.negation, Literal::le(b, 0))),
            _ => None,
        }
    }
}

impl Propagator for ReifiedCompare {
    /// A change of `b` by the comparison's entailment (`b = 1`) or disentailment (`b = 0`); `b`'s
    /// bounds `0..=1` by the constraint alone; a change of a compared variable by `b`'s value and
    /// the explanation the comparison (or its negation) alone gives.
    fn explain(&self, literal: Literal, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        let b = self.b();
        if literal.var == b {
            let (lo, hi) = ctx.bounds(b);
            if lo < 0 || hi > 1 {
                // `b`'s cut to `0..=1`, which the constraint makes alone.
                return true;
            }
            // A literal on `b` either holds for both values (no reason needed), says `b = 1`
            // (the comparison is entailed) or says `b = 0` (it is disentailed).
            return match (literal.holds_for(0), literal.holds_for(1)) {
                (true, true) => true,
                (false, true) => self.comparison.explain_holds(ctx, reasons),
                (true, false) => self.negation.explain_holds(ctx, reasons),
                (false, false) => false,
            };
        }
        let Some((holding, because)) = self.holding(ctx.bounds(b)) else {
            return false;
        };
        if !holding.explain_change(literal, ctx, reasons) {
            return false;
        }
        reasons.push(because);
        true
    }

    /// A failure once `b` is fixed: the comparison that must hold fails, with `b`'s value.
    fn explain_failure(&self, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        let Some((holding, because)) = self.holding(ctx.bounds(self.b())) else {
            return false;
        };
        if !holding.negated().explain_holds(ctx, reasons) {
            return false;
        }
        reasons.push(because);
        true
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
