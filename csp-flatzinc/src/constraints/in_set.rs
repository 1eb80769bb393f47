use csp_core::{CheckCtx, Constraint, PropagationCtx, VarId, Wipeout};

use crate::ast::{Ranges, ranges_contain};

/// The most values a revision removes one by one from inside a variable's bounds; a set with wider
/// gaps is enforced at its bounds, and by the check once the variable is fixed.
const MAX_REMOVALS: i64 = 1 << 16;

/// `x ∈ S` (or `x ∉ S`) for a constant set `S`: FlatZinc's `set_in`, and through
/// [`csp_core::constraints::Reified`] its `_reif` and `_imp` forms. A temporary constraint until the
/// catalogue's `set_in` lands (see the module's documentation).
///
/// Propagation: the bounds move to the nearest values allowed, and the values between them that are
/// not allowed are removed (when there are at most 65,536 of them).
#[derive(Debug, Clone)]
pub struct InSet {
    scope: [VarId; 1],
    set: Ranges,
    /// The values outside the set, as ranges.
    gaps: Ranges,
    negated: bool,
}

impl InSet {
    /// `x ∈ set`.
    pub fn new(x: VarId, set: Ranges) -> Self {
        InSet {
            scope: [x],
            gaps: gaps(&set),
            set,
            negated: false,
        }
    }

    /// `x ∉ set`.
    pub fn not_in(x: VarId, set: Ranges) -> Self {
        InSet {
            negated: true,
            ..Self::new(x, set)
        }
    }

    /// The forbidden values as ranges: the gaps of the set, or the set itself when negated.
    fn forbidden(&self) -> &[(i64, i64)] {
        if self.negated { &self.set } else { &self.gaps }
    }
}

/// The values outside `set`, as ranges.
fn gaps(set: &[(i64, i64)]) -> Ranges {
    let mut gaps = Vec::with_capacity(set.len() + 1);
    let mut next = i64::MIN;
    for &(lo, hi) in set {
        if lo > next {
            gaps.push((next, lo - 1));
        }
        if hi == i64::MAX {
            return gaps;
        }
        next = hi + 1;
    }
    gaps.push((next, i64::MAX));
    gaps
}

impl Constraint for InSet {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        ranges_contain(&self.set, i64::from(values[0])) != self.negated
    }

    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        let x = self.scope[0];
        let forbidden = self.forbidden();
        // Bounds first: a bound inside a forbidden range moves past it. The ranges are sorted, so
        // one pass upwards settles the lower bound and one downwards the upper.
        for &(lo, hi) in forbidden {
            let lb = i64::from(ctx.lb(x));
            if lo <= lb && lb <= hi {
                ctx.set_min(x, hi.saturating_add(1))?;
            }
        }
        for &(lo, hi) in forbidden.iter().rev() {
            let ub = i64::from(ctx.ub(x));
            if lo <= ub && ub <= hi {
                ctx.set_max(x, lo.saturating_sub(1))?;
            }
        }
        let (lb, ub) = (i64::from(ctx.lb(x)), i64::from(ctx.ub(x)));
        let inside: i64 = forbidden
            .iter()
            .filter(|&&(lo, hi)| lo <= ub && hi >= lb)
            .map(|&(lo, hi)| hi.min(ub) - lo.max(lb) + 1)
            .sum();
        if inside <= MAX_REMOVALS {
            for &(lo, hi) in forbidden.iter().filter(|&&(lo, hi)| lo <= ub && hi >= lb) {
                for value in lo.max(lb)..=hi.min(ub) {
                    ctx.remove(x, value as i32)?;
                }
            }
        }
        match ctx.fixed_value(x) {
            Some(value) if !self.is_satisfied(&[value]) => Err(Wipeout),
            _ => Ok(()),
        }
    }

    /// Entailed when the bounds lie within one allowed stretch, disentailed when they lie within one
    /// forbidden stretch.
    fn entailment(&self, ctx: &CheckCtx<'_>) -> Option<bool> {
        let x = self.scope[0];
        let (lb, ub) = (i64::from(ctx.lb(x)), i64::from(ctx.ub(x)));
        let within = |ranges: &[(i64, i64)]| {
            let i = ranges.partition_point(|&(_, hi)| hi < lb);
            ranges.get(i).is_some_and(|&(lo, hi)| lo <= lb && ub <= hi)
        };
        if within(&self.set) {
            return Some(!self.negated);
        }
        if within(&self.gaps) {
            return Some(self.negated);
        }
        None
    }

    fn negation(&self) -> Option<Box<dyn Constraint>> {
        Some(Box::new(InSet {
            negated: !self.negated,
            ..self.clone()
        }))
    }
}
