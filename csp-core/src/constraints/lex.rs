use crate::Domains;
use std::cmp::Ordering;

use crate::{
    Constraint, ExplainCtx, Literal, LiteralRelation, PropagationCtx, Propagator, VarId, Wipeout,
    constraints::util::{Args, dedup_reasons},
    revision::Priority,
};

/// What an explanation falls back on when the constraint's own reasoning (whose pushes after
/// `start` are dropped) did not show the change: the constraint's explanation of its failure
/// (`failure`: a change made while the constraint was failed already), else the fixed values of
/// the rest of `scope` ([`explain_by_fixed`], for the checker's forward checking).
pub(super) fn fall_back(
    start: usize,
    scope: &[VarId],
    changed: VarId,
    ctx: &ExplainCtx<'_>,
    reasons: &mut Vec<Literal>,
    failure: impl FnOnce(&mut Vec<Literal>) -> bool,
) -> bool {
    reasons.truncate(start);
    failure(reasons) || {
        reasons.truncate(start);
        explain_by_fixed(scope, Some(changed), ctx, reasons)
    }
}

/// Pushes `x = v` for every variable of `scope` but `changed` (every one, without), when all of
/// them were fixed then: what the checker's forward checking rests on (it prunes the last
/// unassigned variable, or fails, by the constraint's checker alone). False when one was not
/// fixed.
pub(super) fn explain_by_fixed(
    scope: &[VarId],
    changed: Option<VarId>,
    ctx: &ExplainCtx<'_>,
    reasons: &mut Vec<Literal>,
) -> bool {
    let start = reasons.len();
    for &x in scope {
        if Some(x) == changed {
            continue;
        }
        let (lo, hi) = ctx.bounds(x);
        if lo != hi {
            reasons.truncate(start);
            return false;
        }
        reasons.push(Literal::eq(x, lo));
    }
    true
}

/// Pushes why every value of `literal.var` then that `literal` excludes was gone, by `gone`
/// for each (which pushes its reasons, or returns false when it cannot show it), with the
/// variable's own bounds then for a bound (the values beyond them need no reason). False when
/// one value could not be shown, or too many values lie between the bounds to walk.
pub(super) fn explain_values(
    literal: Literal,
    ctx: &ExplainCtx<'_>,
    reasons: &mut Vec<Literal>,
    mut gone: impl FnMut(i32, &mut Vec<Literal>) -> bool,
) -> bool {
    let x = literal.var;
    let (lo, hi) = ctx.bounds(x);
    let k = literal.value;
    let excluded = match literal.relation {
        LiteralRelation::Ne => k..=k,
        LiteralRelation::Le => k.saturating_add(1)..=hi,
        LiteralRelation::Ge => lo..=k.saturating_sub(1),
        LiteralRelation::Eq => lo..=hi,
    };
    if i64::from(*excluded.end()) - i64::from(*excluded.start()) > 1 << 16 {
        return false;
    }
    ctx.push_own_bounds(literal, reasons);
    excluded
        .into_iter()
        .all(|w| literal.holds_for(w) || !ctx.contains_within(x, w, (lo, hi)) || gone(w, reasons))
}

/// The sides of a bound change that its constraint must explain: `(upper, lower)`, a largest
/// value to show when the change lowered the variable's upper bound and a least value to show
/// when it raised its lower bound (a removal of a bound counts as the bound moved). The store moves a bound to the next value of the domain, so
/// the bound shown may stop short of the one logged where the values between were gone already
/// (the learner adds their removals itself). The side of an `x = v` that did not move rests on
/// the variable's own bound then, which is pushed. `None` for a removal inside the bounds,
/// which no bounds reasoning makes.
pub(super) fn bound_sides(
    literal: Literal,
    ctx: &ExplainCtx<'_>,
    reasons: &mut Vec<Literal>,
) -> Option<(Option<i32>, Option<i32>)> {
    /// How far a bound is relaxed over missing values at most (a cheap explanation).
    const RELAX: i32 = 1 << 10;
    let x = literal.var;
    let (lo, hi) = ctx.bounds(x);
    let k = literal.value;
    // Whether `x` had no value in `from..=to` then (within a short walk).
    let none_in = |from: i32, to: i32| {
        i64::from(to) - i64::from(from) < i64::from(RELAX)
            && (from..=to).all(|w| !ctx.contains_within(x, w, (lo, hi)))
    };
    let (upper, lower) = match literal.relation {
        // A removal of the largest or least value is a bound moved past it (the bounds read from
        // the log may lie beyond values removed one by one).
        LiteralRelation::Ne if k < hi && none_in(k + 1, hi) => (Some(k - 1), None),
        LiteralRelation::Ne if k > lo && none_in(lo, k - 1) => (None, Some(k + 1)),
        LiteralRelation::Ne => return None,
        LiteralRelation::Le => (Some(k), None),
        LiteralRelation::Ge => (None, Some(k)),
        LiteralRelation::Eq => (Some(k), Some(k)),
    };
    let upper = upper.and_then(|k| {
        if k >= hi {
            reasons.push(Literal::le(x, hi));
            return None;
        }
        let mut shown = k;
        while shown < hi && shown - k < RELAX && !ctx.contains_within(x, shown + 1, (lo, hi)) {
            shown += 1;
        }
        Some(shown)
    });
    let lower = lower.and_then(|k| {
        if k <= lo {
            reasons.push(Literal::ge(x, lo));
            return None;
        }
        let mut shown = k;
        while shown > lo && k - shown < RELAX && !ctx.contains_within(x, shown - 1, (lo, hi)) {
            shown -= 1;
        }
        Some(shown)
    });
    Some((upper, lower))
}

/// `x ≤lex y` or `x <lex y`: FlatZinc's `lex_lesseq_int`, `lex_less_int` and their Boolean twins. The
/// arrays may differ in length, as in MiniZinc: when the shorter is a prefix of the longer, the
/// shorter is the smaller.
///
/// Consistency: generalised arc consistency when the variables are distinct, by the pointers of
/// Frisch, Hnich, Kiziltan, Miguel & Walsh, *Global Constraints for Lexicographic Orderings*, CP
/// 2002: α, the first position whose pair is not fixed equal, and β, the first position from which
/// the rest of `x` is certainly larger than the rest of `y`. Only the pair at α is pruned: to `xα <
/// yα` when β = α + 1, to `xα ≤ yα` otherwise; a failure when β = α. Every value after α is then
/// supported (by `xα < yα`, or the pair at α becomes fixed equal and α moves on). Computed afresh
/// in each revision, in O(n). With variables repeated (or shared between the arrays) the same
/// reasoning is sound.
#[derive(Debug, Clone)]
pub struct LexLess {
    /// `[x₁, …, xₙ, y₁, …, yₘ]`.
    args: Args,
    nx: usize,
    ny: usize,
    strict: bool,
}

impl LexLess {
    /// `x ≤lex y`.
    pub fn less_or_equal(x: Vec<VarId>, y: Vec<VarId>) -> Self {
        Self::new(x, y, false)
    }

    /// `x <lex y`.
    pub fn less(x: Vec<VarId>, y: Vec<VarId>) -> Self {
        Self::new(x, y, true)
    }

    fn new(x: Vec<VarId>, y: Vec<VarId>, strict: bool) -> Self {
        let (nx, ny) = (x.len(), y.len());
        LexLess {
            args: Args::new(x.into_iter().chain(y)),
            nx,
            ny,
            strict,
        }
    }

    fn x(&self, i: usize) -> VarId {
        self.args.var(i)
    }

    fn y(&self, i: usize) -> VarId {
        self.args.var(self.nx + i)
    }

    /// Pushes why `x` is surely greater than `y` from position `from` on (`xᵢ ≥ yᵢ` up to a
    /// position where `xᵢ > yᵢ`, or to the end of the common prefix when the arrays equal there
    /// violate the constraint), by the shortest such chain of bounds: `xᵢ ≥ m`, `yᵢ ≤ m` (or
    /// `m + 1` for the strict one) with `m` the largest value of `yᵢ`. False when the bounds
    /// then do not show it.
    fn push_larger(&self, from: usize, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        for i in from..self.nx.min(self.ny) {
            match self.compare_at(i, ctx) {
                Some(Ordering::Greater) => {
                    let y_hi = ctx.ub(self.y(i));
                    reasons.extend([
                        Literal::ge(self.x(i), y_hi + 1),
                        Literal::le(self.y(i), y_hi),
                    ]);
                    return true;
                }
                Some(Ordering::Equal) => self.push_at_least(i, ctx, reasons),
                _ => return false,
            }
        }
        self.equal_prefix_fails()
    }

    /// How `xᵢ` surely compares with `yᵢ` by the bounds then: `Greater` when `xᵢ > yᵢ`, `Equal`
    /// when `xᵢ ≥ yᵢ` (or they are one variable), else `None`.
    fn compare_at(&self, i: usize, ctx: &ExplainCtx<'_>) -> Option<Ordering> {
        let (x, y) = (self.x(i), self.y(i));
        if x == y {
            return Some(Ordering::Equal);
        }
        let (x_lo, y_hi) = (ctx.lb(x), ctx.ub(y));
        match x_lo.cmp(&y_hi) {
            Ordering::Greater if y_hi < i32::MAX => Some(Ordering::Greater),
            Ordering::Less => None,
            _ => Some(Ordering::Equal),
        }
    }

    /// Pushes `xᵢ ≥ m`, `yᵢ ≤ m` for `m` the largest value of `yᵢ` then (nothing when they are
    /// one variable): why `xᵢ ≥ yᵢ`.
    fn push_at_least(&self, i: usize, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) {
        let (x, y) = (self.x(i), self.y(i));
        if x != y {
            let y_hi = ctx.ub(y);
            reasons.extend([Literal::ge(x, y_hi), Literal::le(y, y_hi)]);
        }
    }

    /// Pushes why the pair at `position` must satisfy `xᵢ ≤ yᵢ - gap`, for `gap` 0 or 1: every
    /// earlier `xᵢ ≥ yᵢ` (so the arrays are equal before it), and for a gap of one the rest
    /// surely larger in `x`. False when the bounds then do not show it.
    fn push_pair(
        &self,
        position: usize,
        gap: bool,
        ctx: &ExplainCtx<'_>,
        reasons: &mut Vec<Literal>,
    ) -> bool {
        let start = reasons.len();
        let shown = (0..position).all(|i| {
            let at_least = self.compare_at(i, ctx).is_some();
            if at_least {
                self.push_at_least(i, ctx, reasons);
            }
            at_least
        }) && (!gap || self.push_larger(position + 1, ctx, reasons));
        if !shown {
            reasons.truncate(start);
        }
        shown
    }

    /// Whether the arrays equal on their common prefix violate the constraint.
    fn equal_prefix_fails(&self) -> bool {
        if self.strict {
            self.nx >= self.ny
        } else {
            self.nx > self.ny
        }
    }
}

impl Constraint for LexLess {
    fn scope(&self) -> &[VarId] {
        &self.args.scope
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        for i in 0..self.nx.min(self.ny) {
            let (x, y) = (
                self.args.value(values, i),
                self.args.value(values, self.nx + i),
            );
            if x != y {
                return x < y;
            }
        }
        !self.equal_prefix_fails()
    }
}

impl Propagator for LexLess {
    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        let common = self.nx.min(self.ny);
        loop {
            // α: the first pair that is not fixed equal.
            let alpha = (0..common).find(|&i| {
                let (x, y) = (self.x(i), self.y(i));
                !(ctx.is_fixed(x) && ctx.is_fixed(y) && ctx.lb(x) == ctx.lb(y))
            });
            let Some(alpha) = alpha else {
                return if self.equal_prefix_fails() {
                    Err(Wipeout)
                } else {
                    Ok(())
                };
            };
            // Whether the rest from position i is surely larger in x than in y, from the end back to
            // α: it is when min xᵢ > max yᵢ, or when min xᵢ ≥ max yᵢ (so xᵢ ≥ yᵢ) and the rest from
            // i + 1 is. β is the first position where it is; only whether β is α (a failure) or
            // α + 1 (so xα = yα is impossible) matters.
            let mut larger = self.equal_prefix_fails();
            let mut after_alpha = larger;
            for i in (alpha..common).rev() {
                if i == alpha {
                    after_alpha = larger;
                }
                let (x_lo, y_hi) = (ctx.lb(self.x(i)), ctx.ub(self.y(i)));
                larger = x_lo > y_hi || (x_lo >= y_hi && larger);
            }
            if larger {
                return Err(Wipeout);
            }
            let beta_is_next = after_alpha;
            let (x, y) = (self.x(alpha), self.y(alpha));
            let gap = i64::from(beta_is_next);
            if x == y {
                // One variable on both sides is equal to itself: fine unless the rest forbids it.
                return if beta_is_next { Err(Wipeout) } else { Ok(()) };
            }
            let before = (ctx.ub(x), ctx.lb(y));
            ctx.set_max(x, i64::from(ctx.ub(y)) - gap)?;
            ctx.set_min(y, i64::from(ctx.lb(x)) + gap)?;
            let settled = ctx.is_fixed(x) && ctx.is_fixed(y) && ctx.lb(x) == ctx.lb(y);
            if !settled && (ctx.ub(x), ctx.lb(y)) == before {
                return Ok(());
            }
        }
    }

    fn subscribe(&self, _position: usize) -> crate::EventSet {
        crate::EventSet::BOUNDS
    }

    fn priority(&self) -> Priority {
        Priority::Medium
    }

    /// A bound of the pair at α: the pairs before α were surely `xᵢ ≥ yᵢ` (lifted from their
    /// being fixed equal), so `xα ≤ yα`, and strictly when the rest of `x` was surely larger (a
    /// chain of bounds up to a strict pair); the other variable's bound gives the value.
    fn explain(&self, literal: Literal, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        let start = reasons.len();
        let own = (|| {
            let start = reasons.len();
            let Some((upper, lower)) = bound_sides(literal, ctx, reasons) else {
                return false;
            };
            let v = literal.var;
            let common = self.nx.min(self.ny);
            // `x_j ≤ k` by `y_j ≤ k + gap`.
            let shown_upper = upper.is_none_or(|k| {
                (0..common).any(|j| {
                    let y = self.y(j);
                    if self.x(j) != v || y == v {
                        return false;
                    }
                    let y_hi = i64::from(ctx.ub(y));
                    let gap = y_hi > i64::from(k);
                    if y_hi > i64::from(k) + 1 || !self.push_pair(j, gap, ctx, reasons) {
                        return false;
                    }
                    reasons.push(Literal::le(y, (i64::from(k) + i64::from(gap)) as i32));
                    true
                })
            });
            // `y_j ≥ k` by `x_j ≥ k - gap`.
            let shown_lower = shown_upper
                && lower.is_none_or(|k| {
                    (0..common).any(|j| {
                        let x = self.x(j);
                        if self.y(j) != v || x == v {
                            return false;
                        }
                        let x_lo = i64::from(ctx.lb(x));
                        let gap = x_lo < i64::from(k);
                        if x_lo < i64::from(k) - 1 || !self.push_pair(j, gap, ctx, reasons) {
                            return false;
                        }
                        reasons.push(Literal::ge(x, (i64::from(k) - i64::from(gap)) as i32));
                        true
                    })
                });
            if !shown_lower {
                reasons.truncate(start);
                return false;
            }
            dedup_reasons(reasons, start);
            true
        })();
        own || fall_back(start, self.scope(), literal.var, ctx, reasons, |reasons| {
            self.explain_failure(ctx, reasons)
        })
    }

    /// The arrays were surely ordered the wrong way: `xᵢ ≥ yᵢ` on a prefix, up to a strict pair
    /// or to the end of the common prefix when equal arrays violate the constraint.
    fn explain_failure(&self, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        let start = reasons.len();
        let own = (|| {
            let start = reasons.len();
            if !self.push_larger(0, ctx, reasons) {
                reasons.truncate(start);
                return false;
            }
            dedup_reasons(reasons, start);
            true
        })();
        own || {
            reasons.truncate(start);
            explain_by_fixed(self.scope(), None, ctx, reasons)
        }
    }
}
