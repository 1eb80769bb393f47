//! Globals about which values an array takes: how many distinct ones (`nvalue`), whether a value is
//! among them (`member`), and all different but for some values (`alldifferent_except`).

use crate::Domains;
use crate::{
    Constraint, ExplainCtx, Literal, LiteralRelation, PropagationCtx, Propagator, VarId, Wipeout,
    constraints::{
        set::{ValueSet, as_bound, push_domains, weakest_bound},
        util::{Args, LIST_BUDGET, dedup_reasons, retain_values},
    },
};

/// The widest range of values an explanation here walks; wider, the scope's domains explain.
const EXPLAIN_WIDTH: i64 = 1 << 12;

/// Pushes a literal that held then and says `var` lacks `value`: its lower or upper bound when
/// `value` lies beyond it (one literal for every value past that bound), else `var ≠ value`.
fn push_lacks(var: VarId, value: i32, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) {
    let (lo, hi) = ctx.bounds(var);
    reasons.push(if value < lo {
        Literal::ge(var, lo)
    } else if value > hi {
        Literal::le(var, hi)
    } else {
        Literal::ne(var, value)
    });
}

/// The values of `literal.var` that the change took (present just before it, not satisfying
/// it), or `None` when they are too far apart to walk.
fn values_taken(literal: Literal, ctx: &ExplainCtx<'_>) -> Option<Vec<i32>> {
    let (lo, hi) = ctx.bounds(literal.var);
    if i64::from(hi) - i64::from(lo) > EXPLAIN_WIDTH {
        return None;
    }
    Some(
        (lo..=hi)
            .filter(|&w| !literal.holds_for(w) && ctx.contains_within(literal.var, w, (lo, hi)))
            .collect(),
    )
}

/// `n` is the number of distinct values the `x` take: MiniZinc's `nvalue(n, x)`.
///
/// Consistency: `n` lies between a lower bound, the fewest points that meet every `[lb xᵢ, ub xᵢ]`
/// (found greedily by least upper bound, as in Beldiceanu, *Pruning for the minimum constraint
/// family and for the number of distinct values constraint family*, CP 2001), and the number of
/// values in the union of the domains (the number of variables when that union is too large to
/// list); once the distinct fixed values are as many as `n` can be, every other variable is kept
/// among them. Until nothing moves; with every `x` fixed, `n` is exact.
#[derive(Debug, Clone)]
pub struct NValue {
    /// `[x₁, …, xₖ, n]`.
    args: Args,
}

impl NValue {
    /// `n` is the number of distinct values of `xs`.
    pub fn new(n: VarId, xs: Vec<VarId>) -> Self {
        NValue {
            args: Args::new(xs.into_iter().chain([n])),
        }
    }

    fn k(&self) -> usize {
        self.args.slots.len() - 1
    }

    fn round(&self, ctx: &mut PropagationCtx<'_>) -> Result<bool, Wipeout> {
        let k = self.k();
        let count = self.args.var(k);
        let xs: Vec<VarId> = (0..k).map(|i| self.args.var(i)).collect();
        // Fewest values: points hitting every interval, each placed at the least upper bound of the
        // intervals not yet hit.
        let mut intervals: Vec<(i32, i32)> = xs.iter().map(|&x| (ctx.lb(x), ctx.ub(x))).collect();
        intervals.sort_unstable_by_key(|&(lo, hi)| (hi, lo));
        let mut fewest = 0i64;
        let mut point: Option<i32> = None;
        for &(lo, hi) in &intervals {
            if point.is_none_or(|p| lo > p) {
                point = Some(hi);
                fewest += 1;
            }
        }
        // Most values: the union of the domains, when it can be listed.
        let listed: u64 = xs.iter().map(|&x| ctx.size(x)).sum();
        let most = if listed <= LIST_BUDGET {
            let mut union: Vec<i32> = xs.iter().flat_map(|&x| ctx.domain(x).values()).collect();
            union.sort_unstable();
            union.dedup();
            union.len() as i64
        } else {
            k as i64
        };
        let mut changed = ctx.store.set_bounds(count, fewest, most)?;
        let mut fixed: Vec<i32> = xs.iter().filter_map(|&x| ctx.fixed_value(x)).collect();
        fixed.sort_unstable();
        fixed.dedup();
        if fixed.len() as i64 == i64::from(ctx.ub(count)) {
            for &x in &xs {
                if !ctx.is_fixed(x) {
                    let bounds = (fixed[0], fixed[fixed.len() - 1]);
                    changed |= ctx
                        .store
                        .set_bounds(x, i64::from(bounds.0), i64::from(bounds.1))?;
                    let before = ctx.size(x);
                    retain_values(ctx, x, |v| fixed.binary_search(&v).is_ok())?;
                    changed |= ctx.size(x) != before;
                }
            }
        }
        Ok(changed)
    }
}

impl Constraint for NValue {
    fn scope(&self) -> &[VarId] {
        &self.args.scope
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let mut xs: Vec<i32> = self.args.values(values).take(self.k()).collect();
        xs.sort_unstable();
        xs.dedup();
        i64::from(self.args.value(values, self.k())) == xs.len() as i64
    }
}

impl Propagator for NValue {
    /// The count's lower bound by as many variables with pairwise disjoint ranges (the intervals
    /// that opened a new point in the greedy cover); its upper bound by the variables' domains
    /// (nothing when it is the number of variables); a variable kept among the fixed values by
    /// one variable fixed to each and the count's upper bound.
    fn explain(&self, literal: Literal, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        let k = self.k();
        let count = self.args.var(k);
        let xs: Vec<VarId> = (0..k).map(|i| self.args.var(i)).collect();
        if self.args.scope.len() != self.args.slots.len() {
            // A variable named twice, or counted and the count: the scope's domains.
            return push_domains(&self.args.scope, ctx, reasons);
        }
        let start = reasons.len();
        if literal.var == count {
            let literal = as_bound(literal, ctx);
            let lower = matches!(literal.relation, LiteralRelation::Ge | LiteralRelation::Eq);
            let upper = matches!(literal.relation, LiteralRelation::Le | LiteralRelation::Eq);
            if literal.relation == LiteralRelation::Ne {
                return push_domains(&xs, ctx, reasons);
            }
            if lower {
                let needed = i64::from(weakest_bound(Literal::ge(count, literal.value), ctx));
                let mut intervals: Vec<(i32, i32, VarId)> = xs
                    .iter()
                    .map(|&x| {
                        let (lo, hi) = ctx.bounds(x);
                        (lo, hi, x)
                    })
                    .collect();
                intervals.sort_unstable_by_key(|&(lo, hi, _)| (hi, lo));
                let mut point: Option<i32> = None;
                let mut found = 0i64;
                for &(lo, hi, x) in &intervals {
                    if found >= needed {
                        break;
                    }
                    if point.is_none_or(|p| lo > p) {
                        point = Some(hi);
                        found += 1;
                        reasons.extend([Literal::ge(x, lo), Literal::le(x, hi)]);
                    }
                }
                if found < needed {
                    reasons.truncate(start);
                    return push_domains(&xs, ctx, reasons);
                }
            }
            if upper {
                let allowed = i64::from(weakest_bound(Literal::le(count, literal.value), ctx));
                if allowed < k as i64 && !push_domains(&xs, ctx, reasons) {
                    reasons.truncate(start);
                    return false;
                }
            }
            dedup_reasons(reasons, start);
            return true;
        }
        // A variable kept among the fixed values: one variable fixed to each, and the count's
        // upper bound that many.
        let x = literal.var;
        let c_hi = ctx.ub(count);
        let mut fixed: Vec<(i32, VarId)> = xs
            .iter()
            .filter(|&&y| y != x)
            .filter_map(|&y| {
                let (lo, hi) = ctx.bounds(y);
                (lo == hi).then_some((lo, y))
            })
            .collect();
        fixed.sort_unstable_by_key(|&(v, _)| v);
        fixed.dedup_by_key(|&mut (v, _)| v);
        let taken_ok = values_taken(literal, ctx).is_some_and(|taken| {
            taken
                .iter()
                .all(|w| fixed.binary_search_by_key(w, |&(v, _)| v).is_err())
        });
        if fixed.len() as i64 == i64::from(c_hi) && taken_ok {
            reasons.push(Literal::le(count, c_hi));
            reasons.extend(fixed.iter().map(|&(v, y)| Literal::eq(y, v)));
            ctx.push_own_bounds(literal, reasons);
            dedup_reasons(reasons, start);
            return true;
        }
        let others: Vec<VarId> = self
            .args
            .scope
            .iter()
            .copied()
            .filter(|&y| y != x)
            .collect();
        if !push_domains(&others, ctx, reasons) {
            return false;
        }
        ctx.push_own_bounds(literal, reasons);
        true
    }

    /// The scope's domains admit no count.
    fn explain_failure(&self, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        push_domains(&self.args.scope, ctx, reasons)
    }

    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        while self.round(ctx)? {}
        Ok(())
    }
}

/// `y` is one of the `x`: MiniZinc's `member(x, y)`.
///
/// Consistency: domain consistent when `y` is not among the `x` (sound otherwise): `y` keeps the
/// values some `xᵢ` can take; when only one `xᵢ` can equal `y`, the two keep their common values.
/// Domains too wide to list are left to their bounds.
#[derive(Debug, Clone)]
pub struct Member {
    /// `[x₁, …, xₖ, y]`.
    args: Args,
}

impl Member {
    /// `y` is one of `xs`.
    pub fn new(xs: Vec<VarId>, y: VarId) -> Self {
        Member {
            args: Args::new(xs.into_iter().chain([y])),
        }
    }

    fn k(&self) -> usize {
        self.args.slots.len() - 1
    }

    /// Whether `x` and `y` may share a value (when both are too wide to list, they may as soon as
    /// their bounds meet).
    fn meet(ctx: &PropagationCtx<'_>, x: VarId, y: VarId) -> bool {
        if ctx.ub(x) < ctx.lb(y) || ctx.ub(y) < ctx.lb(x) {
            return false;
        }
        let (small, large) = if ctx.size(x) <= ctx.size(y) {
            (x, y)
        } else {
            (y, x)
        };
        if ctx.size(small) > LIST_BUDGET {
            return true;
        }
        let large = ctx.domain(large);
        ctx.domain(small).values().any(|v| large.contains(v))
    }

    fn round(&self, ctx: &mut PropagationCtx<'_>) -> Result<bool, Wipeout> {
        let k = self.k();
        let y = self.args.var(k);
        let xs: Vec<VarId> = (0..k).map(|i| self.args.var(i)).collect();
        let candidates: Vec<VarId> = xs
            .iter()
            .copied()
            .filter(|&x| Self::meet(ctx, x, y))
            .collect();
        let before: u64 = ctx.size(y) + candidates.iter().map(|&x| ctx.size(x)).sum::<u64>();
        match candidates[..] {
            [] => return Err(Wipeout),
            [x] => {
                // The only one that can equal y.
                for (a, b) in [(x, y), (y, x)] {
                    ctx.restrict_bounds(a, i64::from(ctx.lb(b)), i64::from(ctx.ub(b)))?;
                }
                if ctx.size(y) <= LIST_BUDGET {
                    let values: Vec<i32> = ctx.domain(y).values().collect();
                    retain_values(ctx, x, |v| values.binary_search(&v).is_ok())?;
                }
                if ctx.size(x) <= LIST_BUDGET {
                    let values: Vec<i32> = ctx.domain(x).values().collect();
                    retain_values(ctx, y, |v| values.binary_search(&v).is_ok())?;
                }
            }
            _ => {
                let lo = candidates.iter().map(|&x| ctx.lb(x)).min().unwrap_or(0);
                let hi = candidates.iter().map(|&x| ctx.ub(x)).max().unwrap_or(0);
                ctx.restrict_bounds(y, i64::from(lo), i64::from(hi))?;
                if candidates.iter().map(|&x| ctx.size(x)).sum::<u64>() <= LIST_BUDGET {
                    let mut union: Vec<i32> = candidates
                        .iter()
                        .flat_map(|&x| ctx.domain(x).values())
                        .collect();
                    union.sort_unstable();
                    union.dedup();
                    retain_values(ctx, y, |v| union.binary_search(&v).is_ok())?;
                }
            }
        }
        let after: u64 = ctx.size(y) + candidates.iter().map(|&x| ctx.size(x)).sum::<u64>();
        Ok(after != before)
    }
}

impl Constraint for Member {
    fn scope(&self) -> &[VarId] {
        &self.args.scope
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let y = self.args.value(values, self.k());
        self.args.values(values).take(self.k()).any(|x| x == y)
    }
}

impl Member {
    /// Pushes why `a` and `b` share no value: their bounds, and for each value both bounds
    /// allow, one of them lacking it (`b`'s literal first, which other pairs with `b` share).
    /// False when that overlap is too wide to walk.
    fn push_apart(a: VarId, b: VarId, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        let ((a_lo, a_hi), (b_lo, b_hi)) = (ctx.bounds(a), ctx.bounds(b));
        let (lo, hi) = (a_lo.max(b_lo), a_hi.min(b_hi));
        if i64::from(hi) - i64::from(lo) > EXPLAIN_WIDTH {
            return false;
        }
        if lo > hi {
            // Apart by their bounds alone: the two facing bounds.
            if a_hi < b_lo {
                reasons.extend([Literal::le(a, a_hi), Literal::ge(b, b_lo)]);
            } else {
                reasons.extend([Literal::ge(a, a_lo), Literal::le(b, b_hi)]);
            }
            return true;
        }
        reasons.extend([
            Literal::ge(a, a_lo),
            Literal::le(a, a_hi),
            Literal::ge(b, b_lo),
            Literal::le(b, b_hi),
        ]);
        for u in lo..=hi {
            if !ctx.contains_within(b, u, (b_lo, b_hi)) {
                reasons.push(Literal::ne(b, u));
            } else if !ctx.contains_within(a, u, (a_lo, a_hi)) {
                reasons.push(Literal::ne(a, u));
            } else {
                return false;
            }
        }
        true
    }

    /// [`Propagator::explain`] for distinct variables; false when the change was not this
    /// reasoning's.
    fn explain_distinct(
        &self,
        literal: Literal,
        ctx: &ExplainCtx<'_>,
        reasons: &mut Vec<Literal>,
    ) -> bool {
        let k = self.k();
        let y = self.args.var(k);
        let xs: Vec<VarId> = (0..k).map(|i| self.args.var(i)).collect();
        let Some(taken) = values_taken(literal, ctx) else {
            return false;
        };
        if literal.var == y {
            // Each value taken from y: every x lacks it or shares nothing with y.
            for &w in &taken {
                for &x in &xs {
                    if !ctx.contains(x, w) {
                        push_lacks(x, w, ctx, reasons);
                    } else if !Self::push_apart(x, y, ctx, reasons) {
                        return false;
                    }
                }
            }
            ctx.push_own_bounds(literal, reasons);
            return true;
        }
        // The only x that can equal y keeps y's values: the others share nothing with y, and y
        // lacks each value taken.
        let x = literal.var;
        for &other in xs.iter().filter(|&&other| other != x) {
            if !Self::push_apart(other, y, ctx, reasons) {
                return false;
            }
        }
        for &w in &taken {
            if ctx.contains(y, w) {
                return false;
            }
            push_lacks(y, w, ctx, reasons);
        }
        ctx.push_own_bounds(literal, reasons);
        true
    }
}

impl Propagator for Member {
    /// A value taken from `y` by each `x` lacking it or sharing no value with `y`; a value taken
    /// from the only `x` that can equal `y` by the others sharing none with `y` and `y` lacking
    /// it; a failure by every `x` sharing none with `y`. A variable named twice (or `y` among the
    /// `x`) is explained by the scope's domains.
    fn explain(&self, literal: Literal, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        let start = reasons.len();
        if self.args.scope.len() == self.args.slots.len()
            && self.explain_distinct(literal, ctx, reasons)
        {
            dedup_reasons(reasons, start);
            return true;
        }
        reasons.truncate(start);
        push_domains(&self.args.scope, ctx, reasons)
    }

    fn explain_failure(&self, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        let k = self.k();
        let y = self.args.var(k);
        let start = reasons.len();
        if self.args.scope.len() == self.args.slots.len()
            && (0..k).all(|i| Self::push_apart(self.args.var(i), y, ctx, reasons))
        {
            dedup_reasons(reasons, start);
            return true;
        }
        reasons.truncate(start);
        push_domains(&self.args.scope, ctx, reasons)
    }

    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        while self.round(ctx)? {}
        Ok(())
    }
}

/// No two of the `x` take the same value, unless it is one of the exceptions: MiniZinc's
/// `alldifferent_except(x, S)` and `alldifferent_except_0(x)` (`S = {0}`).
///
/// Consistency: value consistency, as the pairwise decomposition under forward checking: a value
/// outside `S` fixed at one variable leaves the others. (A variable repeated in `x` must take a
/// value of `S`.)
#[derive(Debug, Clone)]
pub struct AllDifferentExcept {
    args: Args,
    except: ValueSet,
}

impl AllDifferentExcept {
    /// `xs` differ, but for values in the ranges `except` (`lo..=hi` each).
    pub fn new(xs: Vec<VarId>, except: impl IntoIterator<Item = (i32, i32)>) -> Self {
        AllDifferentExcept {
            args: Args::new(xs),
            except: ValueSet::from_ranges(except),
        }
    }

    /// `xs` differ, but for 0: MiniZinc's `alldifferent_except_0`.
    pub fn except_zero(xs: Vec<VarId>) -> Self {
        Self::new(xs, [(0, 0)])
    }
}

impl Constraint for AllDifferentExcept {
    fn scope(&self) -> &[VarId] {
        &self.args.scope
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let mut taken: Vec<i32> = self
            .args
            .values(values)
            .filter(|&v| !self.except.contains(v))
            .collect();
        let all = taken.len();
        taken.sort_unstable();
        taken.dedup();
        taken.len() == all
    }
}

impl AllDifferentExcept {
    /// How many times `var` is named.
    fn times(&self, var: VarId) -> usize {
        (0..self.args.slots.len())
            .filter(|&i| self.args.var(i) == var)
            .count()
    }
}

impl Propagator for AllDifferentExcept {
    /// A value outside the exceptions taken from a variable by another fixed to it (`y = v`); a
    /// variable named twice kept among the exceptions by the constraint alone (its bounds
    /// lifted past the values it excludes).
    fn explain(&self, literal: Literal, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        let x = literal.var;
        let value = literal.value;
        if self.times(x) > 1 {
            if literal.relation != LiteralRelation::Ne || !self.except.contains(value) {
                self.except.explain_membership(literal, false, ctx, reasons);
                return true;
            }
        } else if literal.relation == LiteralRelation::Ne && !self.except.contains(value) {
            let holder = self
                .args
                .scope
                .iter()
                .find(|&&y| y != x && ctx.bounds(y) == (value, value));
            if let Some(&y) = holder {
                reasons.push(Literal::eq(y, value));
                return true;
            }
        }
        let others: Vec<VarId> = self
            .args
            .scope
            .iter()
            .copied()
            .filter(|&y| y != x)
            .collect();
        if !push_domains(&others, ctx, reasons) {
            return false;
        }
        ctx.push_own_bounds(literal, reasons);
        true
    }

    /// Two variables fixed to one value outside the exceptions, or a variable named twice with
    /// no exception left.
    fn explain_failure(&self, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        let scope = &self.args.scope;
        for (i, &y) in scope.iter().enumerate() {
            let (lo, hi) = ctx.bounds(y);
            if lo == hi
                && !self.except.contains(lo)
                && let Some(&z) = scope[i + 1..].iter().find(|&&z| ctx.bounds(z) == (lo, lo))
            {
                reasons.extend([Literal::eq(y, lo), Literal::eq(z, lo)]);
                return true;
            }
        }
        for &y in scope {
            if self.times(y) > 1 {
                let (lo, hi) = ctx.bounds(y);
                let has_exception = i64::from(hi) - i64::from(lo) <= EXPLAIN_WIDTH
                    && (lo..=hi).any(|w| self.except.contains(w) && ctx.contains(y, w));
                if !has_exception && self.except.explain_no_value(y, false, ctx, reasons) {
                    return true;
                }
            }
        }
        push_domains(scope, ctx, reasons)
    }

    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        let n = self.args.slots.len();
        // A variable named twice can only take an exception.
        let mut seen = vec![0u32; self.args.scope.len()];
        for &slot in &self.args.slots {
            seen[slot] += 1;
        }
        for (slot, &times) in seen.iter().enumerate() {
            if times > 1 {
                self.except.restrict(ctx, self.args.scope[slot])?;
            }
        }
        // Fixed values outside the exceptions, each removed from the others, until none is new.
        let mut done = vec![false; n];
        loop {
            let mut progress = false;
            for (i, done) in done.iter_mut().enumerate() {
                let var = self.args.var(i);
                let Some(value) = ctx.fixed_value(var) else {
                    continue;
                };
                if *done || self.except.contains(value) {
                    continue;
                }
                *done = true;
                progress = true;
                for j in (0..n).filter(|&j| j != i) {
                    let other = self.args.var(j);
                    if other != var {
                        ctx.remove(other, value)?;
                    }
                }
            }
            if !progress {
                return Ok(());
            }
        }
    }
}
