use crate::Domains;
use crate::{
    CheckCtx, Constraint, DomainView, EventSet, ExplainCtx, Literal, LiteralRelation,
    PropagationCtx, Propagator, VarId, Wipeout, constraints::util::LIST_BUDGET, revision::Priority,
};

/// The weakest bound that a bound literal `x ≥ k` (`x ≤ k`) stands for given the variable's
/// domain just before it: the bound just past its nearest value below `k` (above it), since the
/// values between were gone and the learner cites their removals. Other literals keep their
/// value.
pub(crate) fn weakest_bound(literal: Literal, ctx: &ExplainCtx<'_>) -> i32 {
    let (lo, hi) = ctx.bounds(literal.var);
    let present = |w: i32| ctx.contains_within(literal.var, w, (lo, hi));
    match literal.relation {
        LiteralRelation::Ge => {
            let mut w = literal.value.saturating_sub(1);
            while w >= lo && !present(w) {
                w -= 1;
            }
            w.saturating_add(1).max(lo)
        }
        LiteralRelation::Le => {
            let mut w = literal.value.saturating_add(1);
            while w <= hi && !present(w) {
                w += 1;
            }
            w.saturating_sub(1).min(hi)
        }
        _ => literal.value,
    }
}

/// A removal of a variable's bound just before it, `x ≠ lo` or `x ≠ hi`, as the bound literal it
/// amounts to (`x ≥ lo + 1`, `x ≤ hi − 1`); any other literal as it is. Generic value-by-value
/// pruning removes the ends of an interval one value at a time.
pub(crate) fn as_bound(literal: Literal, ctx: &ExplainCtx<'_>) -> Literal {
    if literal.relation != LiteralRelation::Ne {
        return literal;
    }
    let (lo, hi) = ctx.bounds(literal.var);
    if literal.value == lo && lo < hi {
        Literal::ge(literal.var, lo + 1)
    } else if literal.value == hi && lo < hi {
        Literal::le(literal.var, hi - 1)
    } else {
        literal
    }
}

/// Pushes the domains of `vars` just before the change being explained: each variable's bounds
/// and the values missing between them. The explanation of reasoning that reads whole domains
/// and has nothing shorter to say; false when a span is too wide to list.
pub(crate) fn push_domains(
    vars: &[VarId],
    ctx: &ExplainCtx<'_>,
    reasons: &mut Vec<Literal>,
) -> bool {
    for &var in vars {
        let (lo, hi) = ctx.bounds(var);
        if i64::from(hi) - i64::from(lo) >= LIST_BUDGET as i64 {
            return false;
        }
        reasons.push(Literal::ge(var, lo));
        reasons.push(Literal::le(var, hi));
        reasons.extend(
            (lo..=hi)
                .filter(|&w| !ctx.contains_within(var, w, (lo, hi)))
                .map(|w| Literal::ne(var, w)),
        );
    }
    true
}

/// A finite set of integers as sorted, disjoint, non-touching ranges: FlatZinc's set literals
/// (`1..5`, `{1, 3, 5}`), however wide.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ValueSet {
    ranges: Vec<(i32, i32)>,
}

impl ValueSet {
    /// The set of the ranges `lo..=hi` given (empty ones, `lo > hi`, are skipped).
    pub(crate) fn from_ranges(ranges: impl IntoIterator<Item = (i32, i32)>) -> Self {
        let mut ranges: Vec<(i32, i32)> = ranges.into_iter().filter(|(a, b)| a <= b).collect();
        ranges.sort_unstable();
        let mut merged: Vec<(i32, i32)> = Vec::with_capacity(ranges.len());
        for (a, b) in ranges {
            match merged.last_mut() {
                Some((_, end)) if i64::from(a) <= i64::from(*end) + 1 => *end = (*end).max(b),
                _ => merged.push((a, b)),
            }
        }
        ValueSet { ranges: merged }
    }

    /// The set of `values`.
    pub(crate) fn from_values(values: impl IntoIterator<Item = i32>) -> Self {
        Self::from_ranges(values.into_iter().map(|v| (v, v)))
    }

    /// The range of the set holding `value`, if any.
    fn range_of(&self, value: i32) -> Option<(i32, i32)> {
        let i = self.ranges.partition_point(|&(_, end)| end < value);
        self.ranges.get(i).copied().filter(|&(a, _)| a <= value)
    }

    /// The largest member below `value`, if any.
    fn member_below(&self, value: i32) -> Option<i32> {
        let i = self.ranges.partition_point(|&(a, _)| a < value);
        let &(_, b) = self.ranges.get(i.checked_sub(1)?)?;
        Some(b.min(value - 1))
    }

    /// The smallest member above `value`, if any.
    fn member_above(&self, value: i32) -> Option<i32> {
        let i = self.ranges.partition_point(|&(_, end)| end <= value);
        let &(a, _) = self.ranges.get(i)?;
        Some(a.max(value + 1))
    }

    /// The most general lower bound `x ≥ a` that, with `x ∈ S` (`x ∉ S` when `negated`), rules
    /// out every value below `lo`, the variable's lower bound then; `None` when the membership
    /// alone does.
    fn lifted_lower(&self, lo: i32, negated: bool) -> Option<i32> {
        if negated {
            Some(self.range_of(lo).map_or(lo, |(a, _)| a))
        } else {
            self.member_below(lo).map(|s| s + 1)
        }
    }

    /// The mirror of [`ValueSet::lifted_lower`] for the upper bound `hi`.
    fn lifted_upper(&self, hi: i32, negated: bool) -> Option<i32> {
        if negated {
            Some(self.range_of(hi).map_or(hi, |(_, b)| b))
        } else {
            self.member_above(hi).map(|s| s - 1)
        }
    }

    /// Explains a change of `x` made by the membership `x ∈ S` (`x ∉ S` when `negated`) alone: a
    /// removal needs nothing, a bound the lifted bound before it on its side (the learner cites
    /// the removals it passed).
    pub(crate) fn explain_membership(
        &self,
        literal: Literal,
        negated: bool,
        ctx: &ExplainCtx<'_>,
        reasons: &mut Vec<Literal>,
    ) {
        let x = literal.var;
        let (lo, hi) = ctx.bounds(x);
        if matches!(literal.relation, LiteralRelation::Ge | LiteralRelation::Eq)
            && let Some(a) = self.lifted_lower(lo, negated)
        {
            reasons.push(Literal::ge(x, a));
        }
        if matches!(literal.relation, LiteralRelation::Le | LiteralRelation::Eq)
            && let Some(b) = self.lifted_upper(hi, negated)
        {
            reasons.push(Literal::le(x, b));
        }
    }

    /// Explains that `x` has no value in `S` (in its complement when `negated`): its lifted
    /// bounds and `x ≠ w` for each such value between them. False when they are too many to
    /// list.
    pub(crate) fn explain_no_value(
        &self,
        x: VarId,
        negated: bool,
        ctx: &ExplainCtx<'_>,
        reasons: &mut Vec<Literal>,
    ) -> bool {
        let (lo, hi) = ctx.bounds(x);
        if i64::from(hi) - i64::from(lo) >= LIST_BUDGET as i64 {
            return false;
        }
        let a = self.lifted_lower(lo, negated);
        let b = self.lifted_upper(hi, negated);
        reasons.extend(a.map(|a| Literal::ge(x, a)));
        reasons.extend(b.map(|b| Literal::le(x, b)));
        let (from, to) = (a.unwrap_or(lo).max(lo), b.unwrap_or(hi).min(hi));
        for w in from..=to {
            if self.contains(w) != negated {
                reasons.push(Literal::ne(x, w));
            }
        }
        true
    }

    pub(crate) fn contains(&self, value: i32) -> bool {
        let i = self.ranges.partition_point(|&(_, end)| end < value);
        i < self.ranges.len() && self.ranges[i].0 <= value
    }

    /// Whether the domain holds a value of the set.
    pub(crate) fn intersects(&self, domain: DomainView<'_>) -> bool {
        let (lo, hi) = (domain.lb(), domain.ub());
        let first = self.ranges.partition_point(|&(_, end)| end < lo);
        self.ranges[first..]
            .iter()
            .take_while(|&&(a, _)| a <= hi)
            .any(|&(a, b)| domain.count_in(a.max(lo), b.min(hi)) > 0)
    }

    /// Whether every value of the domain is in the set.
    pub(crate) fn covers(&self, domain: DomainView<'_>) -> bool {
        let (lo, hi) = (domain.lb(), domain.ub());
        let mut cursor = i64::from(lo);
        let first = self.ranges.partition_point(|&(_, end)| end < lo);
        for &(a, b) in &self.ranges[first..] {
            if cursor > i64::from(hi) {
                return true;
            }
            if i64::from(a) > cursor && domain.count_in(cursor as i32, a - 1) > 0 {
                return false;
            }
            cursor = i64::from(b) + 1;
        }
        cursor > i64::from(hi) || domain.count_in(cursor as i32, hi) == 0
    }

    /// The smallest value of the domain at or above `from` that is in the set.
    fn next_common(&self, domain: DomainView<'_>, from: i32) -> Option<i32> {
        let mut v = from;
        loop {
            if !domain.contains(v) {
                v = domain.next_value(v)?;
            }
            let i = self.ranges.partition_point(|&(_, end)| end < v);
            let &(a, _) = self.ranges.get(i)?;
            if a <= v {
                return Some(v);
            }
            v = a;
        }
    }

    /// The largest value of the domain at or below `from` that is in the set.
    fn prev_common(&self, domain: DomainView<'_>, from: i32) -> Option<i32> {
        let mut v = from;
        loop {
            if !domain.contains(v) {
                v = domain.prev_value(v)?;
            }
            let i = self.ranges.partition_point(|&(a, _)| a <= v);
            let &(_, b) = self.ranges.get(i.checked_sub(1)?)?;
            if v <= b {
                return Some(v);
            }
            v = b;
        }
    }

    /// Keeps only the domain's values in the set. The bounds always move to the set's; a gap of the
    /// set holding more than [`LIST_BUDGET`] of the domain's values is left alone (never listed).
    pub(crate) fn restrict(&self, ctx: &mut PropagationCtx<'_>, var: VarId) -> Result<(), Wipeout> {
        let domain = ctx.domain(var);
        let lo = self.next_common(domain, domain.lb()).ok_or(Wipeout)?;
        let hi = self.prev_common(domain, domain.ub()).ok_or(Wipeout)?;
        ctx.restrict_bounds(var, i64::from(lo), i64::from(hi))?;
        let first = self.ranges.partition_point(|&(_, end)| end < lo);
        let gaps: Vec<(i32, i32)> = self.ranges[first..]
            .windows(2)
            .map(|w| (w[0].1 + 1, w[1].0 - 1))
            .take_while(|&(a, _)| a < hi)
            .collect();
        for (a, b) in gaps {
            remove_range(ctx, var, a, b)?;
        }
        Ok(())
    }

    /// Removes the set's values from the domain: the bounds move past the set; a range of the set
    /// inside the domain holding more than [`LIST_BUDGET`] of its values is left alone.
    pub(crate) fn exclude(&self, ctx: &mut PropagationCtx<'_>, var: VarId) -> Result<(), Wipeout> {
        let domain = ctx.domain(var);
        let (mut lo, mut hi) = (domain.lb(), domain.ub());
        // Raise the lower bound past every range that covers it, lower the upper bound likewise.
        while self.contains(lo) {
            let i = self.ranges.partition_point(|&(_, end)| end < lo);
            lo = domain.next_value(self.ranges[i].1).ok_or(Wipeout)?;
        }
        while self.contains(hi) {
            let i = self.ranges.partition_point(|&(_, end)| end < hi);
            hi = domain.prev_value(self.ranges[i].0).ok_or(Wipeout)?;
        }
        ctx.restrict_bounds(var, i64::from(lo), i64::from(hi))?;
        let first = self.ranges.partition_point(|&(_, end)| end < lo);
        let inside: Vec<(i32, i32)> = self.ranges[first..]
            .iter()
            .take_while(|&&(a, _)| a < hi)
            .copied()
            .collect();
        for (a, b) in inside {
            remove_range(ctx, var, a, b)?;
        }
        Ok(())
    }
}

/// Removes every value of `a..=b` from the domain, one at a time, unless there are more than
/// [`LIST_BUDGET`] of them.
fn remove_range(ctx: &mut PropagationCtx<'_>, var: VarId, a: i32, b: i32) -> Result<(), Wipeout> {
    if a > b || ctx.domain(var).count_in(a, b) > LIST_BUDGET {
        return Ok(());
    }
    let domain = ctx.domain(var);
    let mut next = if domain.contains(a) {
        Some(a)
    } else {
        domain.next_value(a)
    };
    while let Some(v) = next.filter(|&v| v <= b) {
        next = ctx.domain(var).next_value(v);
        ctx.remove(var, v)?;
    }
    Ok(())
}

/// `x ∈ S` (or `x ∉ S`) for a constant set `S`: FlatZinc's `set_in(x, S)`; `set_in_reif(x, S, b)` is
/// [`Reified`](crate::constraints::Reified) around it, which uses its entailment and negation.
///
/// Consistency: domain consistent, except that a gap of `S` inside `x`'s bounds holding more than
/// 2¹⁶ of `x`'s values is not walked (the bounds still move to `S`'s). The set is any union of
/// ranges, however wide.
#[derive(Debug, Clone)]
pub struct SetIn {
    scope: [VarId; 1],
    set: ValueSet,
    negated: bool,
}

impl SetIn {
    /// `x ∈ values`.
    pub fn new(x: VarId, values: impl IntoIterator<Item = i32>) -> Self {
        SetIn {
            scope: [x],
            set: ValueSet::from_values(values),
            negated: false,
        }
    }

    /// `x ∈ lo₁..hi₁ ∪ lo₂..hi₂ ∪ …` (empty ranges, `lo > hi`, add nothing).
    pub fn ranges(x: VarId, ranges: impl IntoIterator<Item = (i32, i32)>) -> Self {
        SetIn {
            scope: [x],
            set: ValueSet::from_ranges(ranges),
            negated: false,
        }
    }

    /// The same set, with `x ∉ S` instead of `x ∈ S`.
    pub fn negated(mut self) -> Self {
        self.negated = !self.negated;
        self
    }
}

impl Constraint for SetIn {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        self.set.contains(values[0]) != self.negated
    }
}

impl Propagator for SetIn {
    /// The membership alone: a removal needs no reason, a bound the lifted bound before it.
    fn explain(&self, literal: Literal, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        self.set
            .explain_membership(literal, self.negated, ctx, reasons);
        true
    }

    /// No value of the domain satisfies the membership.
    fn explain_failure(&self, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        self.set
            .explain_no_value(self.scope[0], self.negated, ctx, reasons)
    }

    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        if self.negated {
            self.set.exclude(ctx, self.scope[0])
        } else {
            self.set.restrict(ctx, self.scope[0])
        }
    }

    /// Settled by its first revision.
    fn subscribe(&self, _position: usize) -> EventSet {
        EventSet::EMPTY
    }

    fn priority(&self) -> Priority {
        Priority::High
    }

    fn entailment(&self, ctx: &CheckCtx<'_>) -> Option<bool> {
        let domain = ctx.domain(self.scope[0]);
        if self.set.covers(domain) {
            Some(!self.negated)
        } else if !self.set.intersects(domain) {
            Some(self.negated)
        } else {
            None
        }
    }

    fn negation(&self) -> Option<Box<dyn crate::Post>> {
        Some(Box::new(self.clone().negated()))
    }

    // Value enumeration.
    fn check_is_pairwise(&self) -> bool {
        true
    }
}
