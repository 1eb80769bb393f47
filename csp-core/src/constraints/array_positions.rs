//! Globals about positions in an array: a sorted array (`increasing`, `decreasing`), a value
//! preceding another (`value_precede`), and the position of the first maximum or minimum
//! (`arg_max`, `arg_min`).

use crate::Domains;
use crate::{
    Constraint, EventSet, ExplainCtx, Literal, LiteralRelation, PropagationCtx, Propagator, VarId,
    Wipeout,
    constraints::{
        lex::{bound_sides, explain_by_fixed, fall_back},
        util::{Args, dedup_reasons},
    },
};

/// `x₁ ≤ x₂ ≤ … ≤ xₙ`: MiniZinc's `increasing(x)`, and `decreasing(x)` over the array reversed.
///
/// Consistency: domain consistent when the variables are distinct (sound with one repeated): one
/// pass forward raises each least value to its predecessor's, one pass back lowers each largest
/// value to its successor's. Then every value left has the predecessors' least values below it and
/// the successors' largest above it.
#[derive(Debug, Clone)]
pub struct Increasing {
    args: Args,
}

impl Increasing {
    /// `xs` in non-decreasing order.
    pub fn new(xs: Vec<VarId>) -> Self {
        Increasing {
            args: Args::new(xs),
        }
    }

    /// `xs` in non-increasing order.
    pub fn decreasing(mut xs: Vec<VarId>) -> Self {
        xs.reverse();
        Self::new(xs)
    }
}

impl Constraint for Increasing {
    fn scope(&self) -> &[VarId] {
        &self.args.scope
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let xs: Vec<i32> = self.args.values(values).collect();
        xs.windows(2).all(|w| w[0] <= w[1])
    }
}

impl Propagator for Increasing {
    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        let n = self.args.slots.len();
        loop {
            let mut changed = false;
            for i in 1..n {
                let before = i64::from(ctx.lb(self.args.var(i - 1)));
                changed |= ctx.set_min(self.args.var(i), before)?;
            }
            for i in (0..n.saturating_sub(1)).rev() {
                let after = i64::from(ctx.ub(self.args.var(i + 1)));
                changed |= ctx.set_max(self.args.var(i), after)?;
            }
            // Only a repeated variable can leave work for another pass.
            if !changed || self.args.scope.len() == n {
                return Ok(());
            }
        }
    }

    fn subscribe(&self, _position: usize) -> EventSet {
        EventSet::BOUNDS
    }

    /// `xᵢ ≥ k` by `xᵢ₋₁ ≥ k`, and `xᵢ ≤ k` by `xᵢ₊₁ ≤ k`, at a position of the variable whose
    /// neighbour's bound then shows it.
    fn explain(&self, literal: Literal, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        let start = reasons.len();
        let own = (|| {
            let start = reasons.len();
            let Some((upper, lower)) = bound_sides(literal, ctx, reasons) else {
                return false;
            };
            let n = self.args.slots.len();
            let v = literal.var;
            let neighbour = |next: bool, k: i32, reasons: &mut Vec<Literal>| {
                let found = (0..n).find_map(|i| {
                    let j = if next { i + 1 } else { i.checked_sub(1)? };
                    let w = self.args.var(j.min(n - 1));
                    let shows = self.args.var(i) == v
                        && j < n
                        && w != v
                        && if next { ctx.ub(w) <= k } else { ctx.lb(w) >= k };
                    shows.then_some(w)
                });
                if let Some(w) = found {
                    reasons.push(if next {
                        Literal::le(w, k)
                    } else {
                        Literal::ge(w, k)
                    });
                }
                found.is_some()
            };
            let shown = upper.is_none_or(|k| neighbour(true, k, reasons))
                && lower.is_none_or(|k| neighbour(false, k, reasons));
            if !shown {
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

    /// Some `xᵢ` had a least value above the largest value of a later `xⱼ`.
    fn explain_failure(&self, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        let start = reasons.len();
        let own = (|| {
            let n = self.args.slots.len();
            // The earlier variable with the greatest least value so far.
            let mut greatest: Option<(VarId, i32)> = None;
            for i in 0..n {
                let x = self.args.var(i);
                let (lo, hi) = ctx.bounds(x);
                if let Some((w, m)) = greatest
                    && hi < m
                {
                    reasons.extend([Literal::ge(w, m), Literal::le(x, m - 1)]);
                    return true;
                }
                if greatest.is_none_or(|(_, m)| lo > m) {
                    greatest = Some((x, lo));
                }
            }
            false
        })();
        own || {
            reasons.truncate(start);
            explain_by_fixed(self.scope(), None, ctx, reasons)
        }
    }
}

/// If some `xᵢ = t`, then some `xⱼ = s` with `j < i`: MiniZinc's `value_precede(s, t, x)`, which
/// breaks the symmetry of interchangeable values. (With `s = t` no `x` may take `t`, as MiniZinc's
/// definition says.)
///
/// Consistency: domain consistent when the variables are distinct (sound with one repeated), after
/// Law & Lee (*Global Constraints for Integer and Set Value Precedence*, CP 2004): with `α` the first
/// position that can take `s`, no variable up to `α` takes `t`; with `β` the next position that
/// can take `s`, and `γ` the first position fixed to `t`, `xα = s` when `γ < β`.
#[derive(Debug, Clone)]
pub struct ValuePrecede {
    args: Args,
    s: i32,
    t: i32,
}

impl ValuePrecede {
    /// `s` precedes `t` in `xs`.
    pub fn new(s: i32, t: i32, xs: Vec<VarId>) -> Self {
        ValuePrecede {
            args: Args::new(xs),
            s,
            t,
        }
    }
}

impl Constraint for ValuePrecede {
    fn scope(&self) -> &[VarId] {
        &self.args.scope
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let mut seen_s = false;
        for x in self.args.values(values) {
            if x == self.t && !seen_s {
                return false;
            }
            seen_s |= x == self.s;
        }
        true
    }
}

impl Propagator for ValuePrecede {
    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        let n = self.args.slots.len();
        let (s, t) = (self.s, self.t);
        loop {
            let mut changed = false;
            if s == t {
                for i in 0..n {
                    changed |= ctx.remove(self.args.var(i), t)?;
                }
            } else {
                let can_s =
                    |ctx: &PropagationCtx<'_>, i: usize| ctx.domain(self.args.var(i)).contains(s);
                let alpha = (0..n).find(|&i| can_s(ctx, i)).unwrap_or(n);
                for i in 0..n.min(alpha + 1) {
                    changed |= ctx.remove(self.args.var(i), t)?;
                }
                if alpha < n {
                    let beta = (alpha + 1..n).find(|&i| can_s(ctx, i)).unwrap_or(n);
                    let gamma = (0..n).find(|&i| ctx.fixed_value(self.args.var(i)) == Some(t));
                    if gamma.is_some_and(|g| g < beta) {
                        changed |= ctx.fix(self.args.var(alpha), i64::from(s))?;
                    }
                }
            }
            // A repeated variable can leave work for another pass.
            if !changed || self.args.scope.len() == n {
                return Ok(());
            }
        }
    }

    /// Some `xγ` was fixed to `t` with no earlier position left that could take `s` (with
    /// `s = t`, any `x` fixed to `t`).
    fn explain_failure(&self, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        let start = reasons.len();
        let own = (|| {
            let (s, t) = (self.s, self.t);
            let start = reasons.len();
            for gamma in 0..self.args.slots.len() {
                let g = self.args.var(gamma);
                if ctx.bounds(g) != (t, t) {
                    continue;
                }
                let mark = reasons.len();
                let shown = s == t
                    || (0..gamma).all(|j| {
                        let x = self.args.var(j);
                        let gone = x == g || !ctx.contains(x, s);
                        if gone && x != g {
                            reasons.push(Literal::ne(x, s));
                        }
                        gone
                    });
                if shown {
                    reasons.push(Literal::eq(g, t));
                    dedup_reasons(reasons, start);
                    return true;
                }
                reasons.truncate(mark);
            }
            false
        })();
        own || {
            reasons.truncate(start);
            explain_by_fixed(self.scope(), None, ctx, reasons)
        }
    }

    /// `xᵢ ≠ t` by `xⱼ ≠ s` for every earlier `j` (with `s = t`, by nothing); `xα = s` by some
    /// `xγ = t` and `xⱼ ≠ s` for every other `j < γ`, so that only `xα` can take `s` before
    /// `γ`. A bound that removed the value rests also on the variable's own bound.
    fn explain(&self, literal: Literal, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        let start = reasons.len();
        let own = (|| {
            let (s, t) = (self.s, self.t);
            let v = literal.var;
            let n = self.args.slots.len();
            let (lo, hi) = ctx.bounds(v);
            let start = reasons.len();
            let gone = |var: VarId, value: i32, reasons: &mut Vec<Literal>| {
                let held = !ctx.contains(var, value);
                if held {
                    reasons.push(Literal::ne(var, value));
                }
                held
            };
            // The values of `v` then that the literal excludes: only `t` for a removal of `t`.
            let k = literal.value;
            let excluded = match literal.relation {
                LiteralRelation::Ne => k..=k,
                LiteralRelation::Le => k.saturating_add(1)..=hi,
                LiteralRelation::Ge => lo..=k.saturating_sub(1),
                LiteralRelation::Eq => lo..=hi,
            };
            let only_t = excluded
                .into_iter()
                .all(|w| w == t || literal.holds_for(w) || !ctx.contains_within(v, w, (lo, hi)));
            let shown = if only_t {
                // `v ≠ t`: no position before `v`'s first could take `s`.
                ctx.push_own_bounds(literal, reasons);
                s == t || {
                    let first = (0..n).position(|i| self.args.var(i) == v).unwrap_or(n);
                    (0..first).all(|j| gone(self.args.var(j), s, reasons))
                }
            } else if s != t && literal.holds_for(s) {
                // `v = s`: some later position was fixed to `t` and no other before it could take `s`.
                (0..n).any(|gamma| {
                    let g = self.args.var(gamma);
                    if g == v || ctx.bounds(g) != (t, t) {
                        return false;
                    }
                    let mark = reasons.len();
                    let before_gamma = (0..gamma)
                        .map(|j| self.args.var(j))
                        .filter(|&x| x != v)
                        .all(|x| gone(x, s, reasons));
                    // `v` itself must come before `γ`.
                    if before_gamma && (0..gamma).any(|j| self.args.var(j) == v) {
                        reasons.push(Literal::eq(g, t));
                        true
                    } else {
                        reasons.truncate(mark);
                        false
                    }
                })
            } else {
                false
            };
            if !shown {
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
}

/// `z` is the position (counted from `first`) of the first greatest of the `x`, or with `minimum`
/// of the first least: MiniZinc's `arg_max(x)` and `arg_min(x)` (`maximum_arg` and `minimum_arg`).
///
/// Consistency, on the bounds of the `x` (described for the maximum): `z` keeps only positions `i`
/// whose `xᵢ` can exceed every earlier `x`'s least value and reach every later one's; an `xⱼ` that
/// `z` cannot name stays below the largest value of the `x` it can name (strictly, when all of them
/// lie after it); and once `z` is fixed to `i`, `xᵢ` rises above the earlier `x`'s least values and
/// to the later ones'. Until nothing moves; with every variable fixed it is exact.
#[derive(Debug, Clone)]
pub struct ArgExtremum {
    /// `[x₁, …, xₙ, z]`.
    args: Args,
    first: i32,
    minimum: bool,
}

impl ArgExtremum {
    /// `z` is the position of the first greatest of `xs` (`minimum` false) or of the first least,
    /// positions numbered from `first`. `xs` must not be empty.
    pub fn new(xs: Vec<VarId>, z: VarId, first: i32, minimum: bool) -> Self {
        ArgExtremum {
            args: Args::new(xs.into_iter().chain([z])),
            first,
            minimum,
        }
    }

    fn n(&self) -> usize {
        self.args.slots.len() - 1
    }

    /// `xᵢ`'s bounds as the maximum sees them (negated for the minimum).
    fn bounds(&self, ctx: &PropagationCtx<'_>, i: usize) -> (i64, i64) {
        let var = self.args.var(i);
        let (lo, hi) = (i64::from(ctx.lb(var)), i64::from(ctx.ub(var)));
        if self.minimum { (-hi, -lo) } else { (lo, hi) }
    }

    /// Keeps `xᵢ` at or above `bound` as the maximum sees it.
    fn raise(&self, ctx: &mut PropagationCtx<'_>, i: usize, bound: i64) -> Result<bool, Wipeout> {
        let var = self.args.var(i);
        if self.minimum {
            ctx.set_max(var, -bound)
        } else {
            ctx.set_min(var, bound)
        }
    }

    /// Keeps `xᵢ` at or below `bound` as the maximum sees it.
    fn lower(&self, ctx: &mut PropagationCtx<'_>, i: usize, bound: i64) -> Result<bool, Wipeout> {
        let var = self.args.var(i);
        if self.minimum {
            ctx.set_min(var, -bound)
        } else {
            ctx.set_max(var, bound)
        }
    }

    fn round(&self, ctx: &mut PropagationCtx<'_>) -> Result<bool, Wipeout> {
        let n = self.n();
        let z = self.args.var(n);
        let first = i64::from(self.first);
        let mut changed = ctx.store.set_bounds(z, first, first + n as i64 - 1)?;
        let bounds: Vec<(i64, i64)> = (0..n).map(|i| self.bounds(ctx, i)).collect();
        // The greatest least value before each position, and from each position on.
        let mut before = vec![i64::MIN; n + 1];
        for i in 0..n {
            before[i + 1] = before[i].max(bounds[i].0);
        }
        let mut after = vec![i64::MIN; n + 1];
        for i in (0..n).rev() {
            after[i] = after[i + 1].max(bounds[i].0);
        }
        for i in 0..n {
            let position = first + i as i64;
            let can = bounds[i].1 > before[i] && bounds[i].1 >= after[i + 1];
            if !can && let Ok(position) = i32::try_from(position) {
                changed |= ctx.remove(z, position)?;
            }
        }
        let named: Vec<usize> = (0..n)
            .filter(|&i| i32::try_from(first + i as i64).is_ok_and(|p| ctx.domain(z).contains(p)))
            .collect();
        for j in 0..n {
            if named.contains(&j) {
                continue;
            }
            // xⱼ is not the first greatest: some named xᵢ is at least as great, strictly if i > j.
            let most = named
                .iter()
                .map(|&i| bounds[i].1 - i64::from(i > j))
                .max()
                .ok_or(Wipeout)?;
            changed |= self.lower(ctx, j, most)?;
        }
        if let [i] = named[..] {
            let least = before[i].saturating_add(1).max(after[i + 1]);
            changed |= self.raise(ctx, i, least)?;
        }
        Ok(changed)
    }
}

impl Constraint for ArgExtremum {
    fn scope(&self) -> &[VarId] {
        &self.args.scope
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let xs: Vec<i64> = self
            .args
            .values(values)
            .take(self.n())
            .map(|v| {
                if self.minimum {
                    -i64::from(v)
                } else {
                    i64::from(v)
                }
            })
            .collect();
        let Some(&best) = xs.iter().max() else {
            return false;
        };
        let position = xs
            .iter()
            .position(|&x| x == best)
            .expect("the maximum is there");
        i64::from(self.args.value(values, self.n())) == i64::from(self.first) + position as i64
    }
}

impl Propagator for ArgExtremum {
    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        while self.round(ctx)? {}
        Ok(())
    }

    /// Each inference rests on bounds, as the maximum sees them, that show it then: a position
    /// gone from `z` on an earlier `x` at least as great, or a later one greater; a bound lowered
    /// on an `x` that `z` cannot name on the positions gone from `z` and the others' largest
    /// values; a bound raised on the one `x` that `z` names on `z`'s value and the `x` it must
    /// beat. A variable with several roles is explained by whichever role shows the change.
    fn explain(&self, literal: Literal, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        let start = reasons.len();
        let own = (|| {
            let n = self.n();
            let z = self.args.var(n);
            let v = literal.var;
            let start = reasons.len();
            if v == z && self.explain_z(literal, ctx, reasons) {
                dedup_reasons(reasons, start);
                return true;
            }
            reasons.truncate(start);
            let Some((upper, lower)) = bound_sides(literal, ctx, reasons) else {
                return false;
            };
            // The sides as the maximum sees them: a lowered upper bound of `xᵢ` is a lowered view.
            let (view_upper, view_lower) = if self.minimum {
                (lower.map(|k| -i64::from(k)), upper.map(|k| -i64::from(k)))
            } else {
                (upper.map(i64::from), lower.map(i64::from))
            };
            let shown = view_upper.is_none_or(|k| {
                (0..n).any(|j| self.args.var(j) == v && self.push_below(j, k, ctx, reasons))
            }) && view_lower.is_none_or(|k| {
                (0..n).any(|i| self.args.var(i) == v && self.push_above(i, k, ctx, reasons))
            });
            if !shown {
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

    /// `z` had no position left, or an inference of [`ArgExtremum::explain`] found its variable
    /// without a value it allows.
    fn explain_failure(&self, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        let start = reasons.len();
        let own = (|| {
            let n = self.n();
            let z = self.args.var(n);
            let (Some(first), Some(last)) = (self.position(0), self.position(n - 1)) else {
                return false;
            };
            let start = reasons.len();
            if push_no_value(z, (first, last), ctx, reasons) {
                return true;
            }
            reasons.truncate(start);
            let named: Vec<usize> = (0..n)
                .filter(|&i| ctx.contains(z, first + i as i32))
                .collect();
            // The range of real values above (`above`) or below a bound as the maximum sees it.
            let range = |k: i64, above: bool| -> Option<(i32, i32)> {
                let k = i32::try_from(if self.minimum { -k } else { k }).ok()?;
                Some(if above != self.minimum {
                    (k, i32::MAX)
                } else {
                    (i32::MIN, k)
                })
            };
            for j in 0..n {
                let x = self.args.var(j);
                let shown = if named.contains(&j) {
                    let [i] = named[..] else { continue };
                    let least = (0..n)
                        .filter(|&j| j != i)
                        .map(|j| self.view(ctx, j).0 + i64::from(j < i))
                        .max();
                    least.is_some_and(|k| {
                        range(k, true).is_some_and(|r| push_no_value(x, r, ctx, reasons))
                            && self.push_above(i, k, ctx, reasons)
                    })
                } else {
                    let most = named
                        .iter()
                        .map(|&i| self.view(ctx, i).1 - i64::from(i > j))
                        .max();
                    most.is_some_and(|k| {
                        range(k, false).is_some_and(|r| push_no_value(x, r, ctx, reasons))
                            && self.push_below(j, k, ctx, reasons)
                    })
                };
                if shown {
                    dedup_reasons(reasons, start);
                    return true;
                }
                reasons.truncate(start);
            }
            false
        })();
        own || {
            reasons.truncate(start);
            explain_by_fixed(self.scope(), None, ctx, reasons)
        }
    }
}

/// Pushes why `x` had no value in `from..=to` then: its bounds where they lay beyond the range's
/// ends and its holes within; false when it had one (or the range is too wide to walk).
fn push_no_value(
    x: VarId,
    (from, to): (i32, i32),
    ctx: &ExplainCtx<'_>,
    reasons: &mut Vec<Literal>,
) -> bool {
    let (lo, hi) = ctx.bounds(x);
    let (a, b) = (from.max(lo), to.min(hi));
    if a <= b && i64::from(b) - i64::from(a) > 1 << 12 {
        return false;
    }
    if (a..=b).any(|w| ctx.contains_within(x, w, (lo, hi))) {
        return false;
    }
    if lo > to {
        reasons.push(Literal::ge(x, lo));
        return true;
    }
    if hi < from {
        reasons.push(Literal::le(x, hi));
        return true;
    }
    if lo > from {
        reasons.push(Literal::ge(x, lo));
    }
    if hi < to {
        reasons.push(Literal::le(x, hi));
    }
    reasons.extend((a..=b).map(|w| Literal::ne(x, w)));
    true
}

impl ArgExtremum {
    /// `xᵢ`'s bounds then, as the maximum sees them.
    fn view(&self, ctx: &ExplainCtx<'_>, i: usize) -> (i64, i64) {
        let (lo, hi) = ctx.bounds(self.args.var(i));
        let (lo, hi) = (i64::from(lo), i64::from(hi));
        if self.minimum { (-hi, -lo) } else { (lo, hi) }
    }

    /// `xᵢ ≤ k` as the maximum sees it, if `k` is a value.
    fn view_le(&self, i: usize, k: i64) -> Option<Literal> {
        let var = self.args.var(i);
        if self.minimum {
            i32::try_from(-k).ok().map(|k| Literal::ge(var, k))
        } else {
            i32::try_from(k).ok().map(|k| Literal::le(var, k))
        }
    }

    /// `xᵢ ≥ k` as the maximum sees it, if `k` is a value.
    fn view_ge(&self, i: usize, k: i64) -> Option<Literal> {
        let var = self.args.var(i);
        if self.minimum {
            i32::try_from(-k).ok().map(|k| Literal::le(var, k))
        } else {
            i32::try_from(k).ok().map(|k| Literal::ge(var, k))
        }
    }

    /// The value of `z` naming position `i`.
    fn position(&self, i: usize) -> Option<i32> {
        i32::try_from(i64::from(self.first) + i as i64).ok()
    }

    /// Pushes why `z` could not name `i`: an earlier `xⱼ` at least as great as `xᵢ`'s largest
    /// value, or a later one greater.
    fn push_not_named(&self, i: usize, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        let (_, hi) = self.view(ctx, i);
        let beaten = (0..self.n()).find_map(|j| {
            let need = hi + i64::from(j > i);
            (j != i && self.view(ctx, j).0 >= need).then_some((j, need))
        });
        let Some((j, need)) = beaten else {
            return false;
        };
        match (self.view_le(i, hi), self.view_ge(j, need)) {
            (Some(a), Some(b)) => {
                reasons.extend([a, b]);
                true
            }
            _ => false,
        }
    }

    /// A change of `z`: every value it excludes then was a position that `z` could not name (or
    /// no position at all); a bound rests also on `z`'s own bound where it lay within the
    /// positions.
    fn explain_z(
        &self,
        literal: Literal,
        ctx: &ExplainCtx<'_>,
        reasons: &mut Vec<Literal>,
    ) -> bool {
        let z = literal.var;
        let (lo, hi) = ctx.bounds(z);
        let Some(last) = self.position(self.n() - 1) else {
            return false;
        };
        if matches!(literal.relation, LiteralRelation::Ge | LiteralRelation::Eq) && lo > self.first
        {
            reasons.push(Literal::ge(z, lo));
        }
        if matches!(literal.relation, LiteralRelation::Le | LiteralRelation::Eq) && hi < last {
            reasons.push(Literal::le(z, hi));
        }
        let (from, to) = (lo.max(self.first), hi.min(last));
        (from..=to).all(|p| {
            literal.holds_for(p)
                || !ctx.contains_within(z, p, (lo, hi))
                || self.push_not_named(
                    (i64::from(p) - i64::from(self.first)) as usize,
                    ctx,
                    reasons,
                )
        })
    }

    /// Pushes why `xⱼ ≤ k` as the maximum sees it, `xⱼ` not named by `z`: each other position
    /// either gone from `z` or with an `x` no greater than `k` (than `k + 1` after `j`), which
    /// the first greatest would have to reach.
    fn push_below(
        &self,
        j: usize,
        k: i64,
        ctx: &ExplainCtx<'_>,
        reasons: &mut Vec<Literal>,
    ) -> bool {
        let n = self.n();
        let z = self.args.var(n);
        let (Some(first), Some(last)) = (self.position(0), self.position(n - 1)) else {
            return false;
        };
        let (z_lo, z_hi) = ctx.bounds(z);
        let mark = reasons.len();
        if z_lo > first {
            reasons.push(Literal::ge(z, z_lo));
        }
        if z_hi < last {
            reasons.push(Literal::le(z, z_hi));
        }
        let shown = (0..n).all(|i| {
            let p = first + i as i32;
            if !(z_lo..=z_hi).contains(&p) {
                return true;
            }
            let bound = k + i64::from(i > j);
            if i != j && self.view(ctx, i).1 <= bound {
                return self.view_le(i, bound).map(|l| reasons.push(l)).is_some();
            }
            // Otherwise `z` could not name it then.
            if ctx.contains_within(z, p, (z_lo, z_hi)) {
                return false;
            }
            reasons.push(Literal::ne(z, p));
            true
        });
        if !shown {
            reasons.truncate(mark);
        }
        shown
    }

    /// Pushes why `xᵢ ≥ k` as the maximum sees it: `z` named `i` alone, and an earlier `x` at
    /// least `k - 1` or a later one at least `k`.
    fn push_above(
        &self,
        i: usize,
        k: i64,
        ctx: &ExplainCtx<'_>,
        reasons: &mut Vec<Literal>,
    ) -> bool {
        let z = self.args.var(self.n());
        let Some(p) = self.position(i) else {
            return false;
        };
        if ctx.bounds(z) != (p, p) {
            return false;
        }
        let beaten = (0..self.n()).find_map(|j| {
            let need = k - i64::from(j < i);
            (j != i && self.view(ctx, j).0 >= need).then_some((j, need))
        });
        match beaten.and_then(|(j, need)| self.view_ge(j, need)) {
            Some(l) => {
                reasons.extend([Literal::eq(z, p), l]);
                true
            }
            None => false,
        }
    }
}
