use crate::{
    CheckCtx, Constraint, DomainView, EventSet, PropagationCtx, Propagator, ValueEnumeration,
    VarId, Wipeout, constraints::util::LIST_BUDGET, revision::Priority,
};

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

    fn propagator(&self) -> Option<&dyn Propagator> {
        Some(self)
    }

    fn value_enumeration(&self) -> Option<&dyn ValueEnumeration> {
        Some(self)
    }
}

impl Propagator for SetIn {
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

    fn negation(&self) -> Option<Box<dyn Constraint>> {
        Some(Box::new(self.clone().negated()))
    }
}

impl ValueEnumeration for SetIn {
    fn check_is_pairwise(&self) -> bool {
        true
    }
}
