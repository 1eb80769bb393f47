use hashbrown::HashSet;

use crate::{
    Constraint, ModelError, PropagationCtx, Propagator, VarId, Wipeout,
    constraints::{
        set::ValueSet,
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

    fn propagator(&self) -> Option<&dyn Propagator> {
        Some(self)
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
            return false;
        }
        let start = reasons.len();
        let count = self.args.var(self.n());
        let n = self.n() as i64;
        let done = if literal.var == count {
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
                        .is_some_and(|m| i64::from(literal.value) <= m))
                && (!upper
                    || self
                        .push_all_on_side(false, None, ctx, reasons)
                        .is_some_and(|m| i64::from(literal.value) >= n - m))
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
            reasons.truncate(start);
            return false;
        }
        if literal.var != count {
            // The values beyond the variable's bounds then need no reason of their own.
            ctx.push_own_bounds(literal, reasons);
        }
        dedup_reasons(reasons, start);
        true
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

    fn propagator(&self) -> Option<&dyn Propagator> {
        Some(self)
    }
}

impl Propagator for GlobalCardinality {
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
