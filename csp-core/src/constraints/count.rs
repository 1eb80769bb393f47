use crate::Domains;
use hashbrown::HashSet;

use crate::{
    Constraint, ModelError, PropagationCtx, Propagator, VarId, Wipeout,
    constraints::{
        set::{ValueSet, as_bound, push_domains, weakest_bound},
        util::{Args, dedup_reasons, invalid},
    },
    revision::Priority,
};

/// `count = |{i : xᵢ ∈ S}|` for a constant set `S`: FlatZinc's `among(n, x, S)` and, with `S` one
/// value, `count_eq(x, v, c)` (`count`).
///
/// Consistency: domain consistent when the variables are distinct (the count not among the `xᵢ`):
/// with `must` the variables whose domain lies within `S` and `may` those whose domain meets it, the
/// count lies in `must..=may`; when it can be no more than `must`, the others lose `S`; when it can be
/// no less than `may`, those that meet `S` are kept within it. With a variable repeated it is sound.
#[derive(Debug, Clone)]
pub struct Among {
    /// `[x₁, …, xₙ, count]`.
    args: Args,
    set: ValueSet,
}

impl Among {
    /// `count = |{i : xs[i] ∈ values}|`.
    pub fn new(xs: Vec<VarId>, values: impl IntoIterator<Item = i32>, count: VarId) -> Self {
        Among {
            args: Args::new(xs.into_iter().chain([count])),
            set: ValueSet::from_values(values),
        }
    }

    /// `count = |{i : xs[i] = value}|` (FlatZinc's `count_eq` with a constant value).
    pub fn count(xs: Vec<VarId>, value: i32, count: VarId) -> Self {
        Self::new(xs, [value], count)
    }

    fn n(&self) -> usize {
        self.args.slots.len() - 1
    }
}

/// The widest domain an explanation of [`Among`] walks value by value; wider, the learner's
/// default explanation.
const EXPLAIN_WIDTH: i64 = 1 << 12;

impl Among {
    /// Whether `x`'s domain then lay within the set (`Some(true)`), outside it (`Some(false)`),
    /// or neither (`None`); `Err` when it is too wide to walk.
    fn side(&self, x: VarId, ctx: &crate::ExplainCtx<'_>) -> Result<Option<bool>, ()> {
        let (lo, hi) = ctx.bounds(x);
        if i64::from(hi) - i64::from(lo) > EXPLAIN_WIDTH {
            return Err(());
        }
        let (mut inside, mut outside) = (false, false);
        for u in lo..=hi {
            if ctx.contains_within(x, u, (lo, hi)) {
                if self.set.contains(u) {
                    inside = true;
                } else {
                    outside = true;
                }
            }
        }
        Ok(match (inside, outside) {
            (true, false) => Some(true),
            (false, true) => Some(false),
            _ => None,
        })
    }

    /// Pushes why `x`'s domain then lay within the set (`inside`) or outside it: its bounds, and
    /// each value between them on the other side, missing.
    fn push_side(
        &self,
        x: VarId,
        inside: bool,
        ctx: &crate::ExplainCtx<'_>,
        reasons: &mut Vec<crate::Literal>,
    ) {
        use crate::Literal;
        let (lo, hi) = ctx.bounds(x);
        reasons.extend([Literal::ge(x, lo), Literal::le(x, hi)]);
        reasons.extend(
            (lo..=hi)
                .filter(|&u| self.set.contains(u) != inside)
                .map(|u| Literal::ne(x, u)),
        );
    }

    /// Pushes why the variables other than `skip` that lay on side `inside` of the set were
    /// there, and returns how many they were; `None` when a domain is too wide to walk.
    fn push_all_on_side(
        &self,
        inside: bool,
        skip: Option<VarId>,
        ctx: &crate::ExplainCtx<'_>,
        reasons: &mut Vec<crate::Literal>,
    ) -> Option<i64> {
        let mut how_many = 0;
        for i in 0..self.n() {
            let x = self.args.var(i);
            if Some(x) != skip && self.side(x, ctx).ok()? == Some(inside) {
                self.push_side(x, inside, ctx, reasons);
                how_many += 1;
            }
        }
        Some(how_many)
    }
}

impl Constraint for Among {
    fn scope(&self) -> &[VarId] {
        &self.args.scope
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let inside = (0..self.n())
            .filter(|&i| self.set.contains(self.args.value(values, i)))
            .count();
        i64::from(self.args.value(values, self.n())) == inside as i64
    }
}

impl Propagator for Among {
    /// By counting, as the revision does:
    /// - the count's lower bound, by the variables that lay within the set; its upper bound, by
    ///   those outside it (each by its bounds and the values missing between them);
    /// - a variable's values in the set, by the count's upper bound and as many others within
    ///   the set; its values outside the set, by the count's lower bound and as many others
    ///   outside it (the count's bound that the others already reached).
    ///
    /// With a variable repeated, or a domain wider than 4,096 values, the learner's default.
    fn explain(
        &self,
        literal: crate::Literal,
        ctx: &crate::ExplainCtx<'_>,
        reasons: &mut Vec<crate::Literal>,
    ) -> bool {
        use crate::{Literal, LiteralRelation};
        if self.args.scope.len() != self.args.slots.len() {
            // A variable named twice (perhaps as the count too) counts once per appearance; its
            // domains are the explanation.
            return push_domains(&self.args.scope, ctx, reasons);
        }
        let start = reasons.len();
        let count = self.args.var(self.n());
        let n = self.n() as i64;
        let done = if literal.var == count {
            let literal = as_bound(literal, ctx);
            let (lower, upper) = match literal.relation {
                LiteralRelation::Ge => (true, false),
                LiteralRelation::Le => (false, true),
                LiteralRelation::Eq => (true, true),
                LiteralRelation::Ne => (false, false),
            };
            // count ≥ (those within), count ≤ n − (those outside).
            (lower || upper)
                && (!lower
                    || self
                        .push_all_on_side(true, None, ctx, reasons)
                        .is_some_and(|m| {
                            let k = weakest_bound(Literal::ge(count, literal.value), ctx);
                            i64::from(k) <= m
                        }))
                && (!upper
                    || self
                        .push_all_on_side(false, None, ctx, reasons)
                        .is_some_and(|m| {
                            let k = weakest_bound(Literal::le(count, literal.value), ctx);
                            i64::from(k) >= n - m
                        }))
        } else {
            let x = literal.var;
            let (lo, hi) = ctx.bounds(x);
            let (mut cut_inside, mut cut_outside) = (false, false);
            for w in lo..=hi {
                if !literal.holds_for(w) && ctx.contains_within(x, w, (lo, hi)) {
                    if self.set.contains(w) {
                        cut_inside = true;
                    } else {
                        cut_outside = true;
                    }
                }
            }
            let (c_lo, c_hi) = ctx.bounds(count);
            i64::from(hi) - i64::from(lo) <= EXPLAIN_WIDTH
                && (!cut_inside || {
                    // The others within the set already reach the count's upper bound.
                    reasons.push(Literal::le(count, c_hi));
                    self.push_all_on_side(true, Some(x), ctx, reasons)
                        .is_some_and(|m| m >= i64::from(c_hi))
                })
                && (!cut_outside || {
                    // The others outside it leave no more than the count's lower bound.
                    reasons.push(Literal::ge(count, c_lo));
                    self.push_all_on_side(false, Some(x), ctx, reasons)
                        .is_some_and(|m| n - m <= i64::from(c_lo))
                })
        };
        if !done {
            // Generic value-by-value pruning the counting arguments do not cover: the other
            // variables' domains.
            reasons.truncate(start);
            let others: Vec<VarId> = self
                .args
                .scope
                .iter()
                .copied()
                .filter(|&y| y != literal.var)
                .collect();
            if !push_domains(&others, ctx, reasons) {
                return false;
            }
        }
        if literal.var != count || !done {
            // The values beyond the variable's bounds then need no reason of their own.
            ctx.push_own_bounds(literal, reasons);
        }
        dedup_reasons(reasons, start);
        true
    }

    /// A failure the store did not refuse is rare (a bound past the other end is explained as
    /// that bound): the scope's domains explain it.
    fn explain_failure(
        &self,
        ctx: &crate::ExplainCtx<'_>,
        reasons: &mut Vec<crate::Literal>,
    ) -> bool {
        push_domains(&self.args.scope, ctx, reasons)
    }

    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        let count = self.args.var(self.n());
        loop {
            let (mut must, mut may) = (0i64, 0i64);
            for i in 0..self.n() {
                let domain = ctx.domain(self.args.var(i));
                if self.set.covers(domain) {
                    must += 1;
                    may += 1;
                } else if self.set.intersects(domain) {
                    may += 1;
                }
            }
            let mut changed = ctx.store.set_bounds(count, must, may)?;
            let (lo, hi) = (i64::from(ctx.lb(count)), i64::from(ctx.ub(count)));
            if hi == must || lo == may {
                for i in 0..self.n() {
                    let x = self.args.var(i);
                    let domain = ctx.domain(x);
                    if self.set.covers(domain) || !self.set.intersects(domain) {
                        continue;
                    }
                    let size = ctx.size(x);
                    if hi == must {
                        self.set.exclude(ctx, x)?;
                    } else {
                        self.set.restrict(ctx, x)?;
                    }
                    changed |= ctx.size(x) != size;
                }
            }
            if !changed {
                return Ok(());
            }
        }
    }

    fn priority(&self) -> Priority {
        Priority::Medium
    }
}

/// `counts[j] = |{i : xᵢ = cover[j]}|` for every `j`: FlatZinc's `global_cardinality(x, cover,
/// counts)`, and `global_cardinality_closed` (every `xᵢ` takes a value of `cover`).
///
/// Consistency: each count is domain consistent as [`Among`] with one value, and the counts' sum is
/// bounds consistent against the number of variables (at most `n`, exactly `n` when closed). This is
/// the decomposition MiniZinc's library uses, in one propagator; it is weaker than Régin's flow-based
/// generalised arc consistency (AAAI 1996), which sees Hall sets across values.
#[derive(Debug, Clone)]
pub struct GlobalCardinality {
    /// `[x₁, …, xₙ, counts₁, …, countsₘ]`.
    args: Args,
    n: usize,
    cover: Vec<i32>,
    closed: bool,
}

impl GlobalCardinality {
    /// `counts[j]` variables of `xs` take `cover[j]`; when `closed`, every variable takes a value of
    /// `cover`. `cover` and `counts` must have the same length and `cover` no value twice.
    pub fn new(
        xs: Vec<VarId>,
        cover: Vec<i32>,
        counts: Vec<VarId>,
        closed: bool,
    ) -> Result<Self, ModelError> {
        if cover.len() != counts.len() {
            return Err(ModelError::ArityMismatch {
                constraint: "global_cardinality counts".to_owned(),
                expected: cover.len(),
                found: counts.len(),
            });
        }
        let mut seen = HashSet::new();
        if let Some(v) = cover.iter().find(|v| !seen.insert(**v)) {
            return Err(invalid(
                "global_cardinality",
                format!("the cover names {v} twice"),
            ));
        }
        Ok(GlobalCardinality {
            n: xs.len(),
            args: Args::new(xs.into_iter().chain(counts)),
            cover,
            closed,
        })
    }

    fn x(&self, i: usize) -> VarId {
        self.args.var(i)
    }

    fn count(&self, j: usize) -> VarId {
        self.args.var(self.n + j)
    }
}

impl Constraint for GlobalCardinality {
    fn scope(&self) -> &[VarId] {
        &self.args.scope
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let xs: Vec<i32> = (0..self.n).map(|i| self.args.value(values, i)).collect();
        let counted = self.cover.iter().enumerate().all(|(j, &v)| {
            i64::from(self.args.value(values, self.n + j))
                == xs.iter().filter(|&&x| x == v).count() as i64
        });
        counted && (!self.closed || xs.iter().all(|x| self.cover.contains(x)))
    }
}

impl GlobalCardinality {
    /// Whether some variable is named twice, or is both counted and a count: then the counting
    /// arguments below do not apply as they stand, and the domains explain.
    fn repeats(&self) -> bool {
        self.args.scope.len() != self.args.slots.len()
    }

    /// Pushes the domains of the scope's variables other than `x`: the explanation of generic
    /// value-by-value pruning, which the counting arguments do not cover.
    fn push_other_domains(
        &self,
        x: VarId,
        ctx: &crate::ExplainCtx<'_>,
        reasons: &mut Vec<crate::Literal>,
    ) -> bool {
        let others: Vec<VarId> = self
            .args
            .scope
            .iter()
            .copied()
            .filter(|&y| y != x)
            .collect();
        push_domains(&others, ctx, reasons)
    }

    /// Pushes `x = v` for the counted arguments other than `skip` fixed to `v`, as many as
    /// `need` (false if fewer).
    fn push_fixed_to(
        &self,
        v: i32,
        skip: Option<VarId>,
        need: i64,
        ctx: &crate::ExplainCtx<'_>,
        reasons: &mut Vec<crate::Literal>,
    ) -> bool {
        let mut found = 0;
        for i in 0..self.n {
            if found >= need {
                break;
            }
            let x = self.x(i);
            if Some(x) != skip && ctx.bounds(x) == (v, v) {
                reasons.push(crate::Literal::eq(x, v));
                found += 1;
            }
        }
        found >= need
    }

    /// Pushes `x ≠ v` for the counted arguments other than `skip` that lack `v`, as many as
    /// `need` (false if fewer).
    fn push_lacking(
        &self,
        v: i32,
        skip: Option<VarId>,
        need: i64,
        ctx: &crate::ExplainCtx<'_>,
        reasons: &mut Vec<crate::Literal>,
    ) -> bool {
        let mut found = 0;
        for i in 0..self.n {
            if found >= need {
                break;
            }
            let x = self.x(i);
            if Some(x) != skip && !ctx.contains(x, v) {
                reasons.push(crate::Literal::ne(x, v));
                found += 1;
            }
        }
        found >= need
    }

    /// Explains a bound of `counts[j]`: by the arguments fixed to (or lacking) its value, else by
    /// the other counts' bounds against the number of arguments.
    fn explain_count(
        &self,
        j: usize,
        literal: crate::Literal,
        ctx: &crate::ExplainCtx<'_>,
        reasons: &mut Vec<crate::Literal>,
    ) -> bool {
        use crate::{Literal, LiteralRelation};
        let n = self.n as i64;
        let v = self.cover[j];
        let count = self.count(j);
        // The removals between the count's old bound and the new are the learner's to cite.
        let k_lower = i64::from(weakest_bound(Literal::ge(count, literal.value), ctx));
        let k_upper = i64::from(weakest_bound(Literal::le(count, literal.value), ctx));
        let lower = matches!(literal.relation, LiteralRelation::Ge | LiteralRelation::Eq);
        let upper = matches!(literal.relation, LiteralRelation::Le | LiteralRelation::Eq);
        if literal.relation == LiteralRelation::Ne {
            return false;
        }
        let start = reasons.len();
        let others = || (0..self.cover.len()).filter(move |&i| i != j);
        if lower {
            // Enough arguments fixed to the value, or (closed) the others' counts leave no less.
            let mut fixed = Vec::new();
            if !self.push_fixed_to(v, None, k_lower, ctx, &mut fixed) {
                let highs: i64 = others().map(|i| i64::from(ctx.ub(self.count(i)))).sum();
                if !self.closed || n - highs < k_lower {
                    reasons.truncate(start);
                    return false;
                }
                fixed.clear();
                fixed.extend(others().map(|i| Literal::le(self.count(i), ctx.ub(self.count(i)))));
            }
            reasons.extend(fixed);
        }
        if upper {
            let mut lacking = Vec::new();
            if !self.push_lacking(v, None, n - k_upper, ctx, &mut lacking) {
                let lows: i64 = others().map(|i| i64::from(ctx.lb(self.count(i)))).sum();
                if n - lows > k_upper {
                    reasons.truncate(start);
                    return false;
                }
                lacking.clear();
                lacking.extend(others().map(|i| Literal::ge(self.count(i), ctx.lb(self.count(i)))));
            }
            reasons.extend(lacking);
        }
        true
    }
}

impl Propagator for GlobalCardinality {
    /// A count's bound by the arguments fixed to its value (`x = v`) or lacking it (`x ≠ v`),
    /// else by the other counts' bounds (they add up to at most the number of arguments, exactly
    /// that when closed); an argument's removal of `v` by `counts[j] ≤ c` and `c` others fixed to
    /// `v`, its fixing to `v` by `counts[j] ≥ c` and all but `c − 1` others lacking `v`; a
    /// value outside a closed cover by nothing (its bounds lifted).
    fn explain(
        &self,
        literal: crate::Literal,
        ctx: &crate::ExplainCtx<'_>,
        reasons: &mut Vec<crate::Literal>,
    ) -> bool {
        use crate::{Literal, LiteralRelation};
        if self.repeats() {
            return push_domains(&self.args.scope, ctx, reasons);
        }
        let x = literal.var;
        if let Some(j) = (0..self.cover.len()).find(|&j| self.count(j) == x) {
            let start = reasons.len();
            return self.explain_count(j, as_bound(literal, ctx), ctx, reasons) || {
                reasons.truncate(start);
                self.push_other_domains(x, ctx, reasons) && {
                    ctx.push_own_bounds(literal, reasons);
                    true
                }
            };
        }
        let n = self.n as i64;
        let start = reasons.len();
        let done = match literal.relation {
            LiteralRelation::Ne => {
                // Outside a closed cover; or the value's count is full already; or the variable
                // must take another value of the cover, whose count needs it.
                let full = |reasons: &mut Vec<Literal>| {
                    self.cover
                        .iter()
                        .position(|&v| v == literal.value)
                        .is_some_and(|j| {
                            let count = self.count(j);
                            let hi = ctx.ub(count);
                            reasons.push(Literal::le(count, hi));
                            self.push_fixed_to(literal.value, Some(x), i64::from(hi), ctx, reasons)
                        })
                };
                let forced = |reasons: &mut Vec<Literal>| {
                    self.cover.iter().enumerate().any(|(j, &v)| {
                        let mark = reasons.len();
                        let count = self.count(j);
                        let lo = ctx.lb(count);
                        reasons.push(Literal::ge(count, lo));
                        let found = v != literal.value
                            && self.push_lacking(v, Some(x), n - i64::from(lo), ctx, reasons);
                        if !found {
                            reasons.truncate(mark);
                        }
                        found
                    })
                };
                (self.closed && !self.cover.contains(&literal.value))
                    || full(reasons)
                    || {
                        reasons.truncate(start);
                        forced(reasons)
                    }
                    || {
                        reasons.truncate(start);
                        self.push_other_domains(x, ctx, reasons)
                    }
            }
            // Fixed to a value of the cover (a bound when only one side moved), or a bound moved
            // by a closed cover's membership.
            LiteralRelation::Eq | LiteralRelation::Ge | LiteralRelation::Le => {
                let fixed = self
                    .cover
                    .iter()
                    .position(|&v| v == literal.value)
                    .is_some_and(|j| {
                        let count = self.count(j);
                        let lo = ctx.lb(count);
                        reasons.push(Literal::ge(count, lo));
                        self.push_lacking(literal.value, Some(x), n - i64::from(lo), ctx, reasons)
                    });
                if !fixed {
                    reasons.truncate(start);
                    if self.closed {
                        let cover = ValueSet::from_values(self.cover.iter().copied());
                        cover.explain_membership(literal, false, ctx, reasons);
                    }
                }
                fixed || self.closed || {
                    reasons.truncate(start);
                    self.push_other_domains(x, ctx, reasons) && {
                        ctx.push_own_bounds(literal, reasons);
                        true
                    }
                }
            }
        };
        if !done {
            reasons.truncate(start);
            return false;
        }
        dedup_reasons(reasons, start);
        true
    }

    /// The counts' lower bounds add up to more than the number of arguments, or (closed) their
    /// upper bounds to fewer.
    fn explain_failure(
        &self,
        ctx: &crate::ExplainCtx<'_>,
        reasons: &mut Vec<crate::Literal>,
    ) -> bool {
        use crate::Literal;
        if self.repeats() {
            return push_domains(&self.args.scope, ctx, reasons);
        }
        let n = self.n as i64;
        let counts = 0..self.cover.len();
        let lows: i64 = counts
            .clone()
            .map(|j| i64::from(ctx.lb(self.count(j))))
            .sum();
        let highs: i64 = counts
            .clone()
            .map(|j| i64::from(ctx.ub(self.count(j))))
            .sum();
        if lows > n {
            reasons.extend(counts.map(|j| Literal::ge(self.count(j), ctx.lb(self.count(j)))));
            true
        } else if self.closed && highs < n {
            reasons.extend(counts.map(|j| Literal::le(self.count(j), ctx.ub(self.count(j)))));
            true
        } else {
            push_domains(&self.args.scope, ctx, reasons)
        }
    }

    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        let n = self.n as i64;
        if self.closed {
            let cover = ValueSet::from_values(self.cover.iter().copied());
            for i in 0..self.n {
                cover.restrict(ctx, self.x(i))?;
            }
        }
        loop {
            let mut changed = false;
            for (j, &v) in self.cover.iter().enumerate() {
                let (mut must, mut may) = (0i64, 0i64);
                for i in 0..self.n {
                    let domain = ctx.domain(self.x(i));
                    if domain.contains(v) {
                        may += 1;
                        must += i64::from(domain.is_fixed());
                    }
                }
                let count = self.count(j);
                changed |= ctx.store.set_bounds(count, must, may)?;
                let (lo, hi) = (i64::from(ctx.lb(count)), i64::from(ctx.ub(count)));
                if hi == must || lo == may {
                    for i in 0..self.n {
                        let x = self.x(i);
                        if ctx.domain(x).is_fixed() || !ctx.domain(x).contains(v) {
                            continue;
                        }
                        changed = true;
                        if hi == must {
                            ctx.remove(x, v)?;
                        } else {
                            ctx.fix(x, i64::from(v))?;
                        }
                    }
                }
            }
            // The counts add up to at most n (exactly n when closed).
            let lows: i64 = (0..self.cover.len())
                .map(|j| i64::from(ctx.lb(self.count(j))))
                .sum();
            let highs: i64 = (0..self.cover.len())
                .map(|j| i64::from(ctx.ub(self.count(j))))
                .sum();
            if lows > n || (self.closed && highs < n) {
                return Err(Wipeout);
            }
            for j in 0..self.cover.len() {
                let count = self.count(j);
                let (lo, hi) = (i64::from(ctx.lb(count)), i64::from(ctx.ub(count)));
                let upper = n - (lows - lo);
                let lower = if self.closed {
                    n - (highs - hi)
                } else {
                    i64::MIN
                };
                changed |= ctx.store.set_bounds(count, lower, upper)?;
            }
            if !changed {
                return Ok(());
            }
        }
    }

    fn priority(&self) -> Priority {
        Priority::Medium
    }
}
