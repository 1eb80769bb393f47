use csp_core::{CheckCtx, Constraint, PropagationCtx, VarId, Wipeout};

use super::{Slots, check_when_fixed};
use crate::Elem;

/// `z = xs[i]` over an array of variables (and constants), indices counted from `base`: FlatZinc's
/// `array_var_int_element` and `array_var_bool_element` (base 1). A temporary constraint until the
/// catalogue's element lands (see the module's documentation).
///
/// Propagation, to a fixpoint: `i` keeps only the indices whose element can still equal `z` (bounds
/// overlap, or a fixed element's value in `z`'s domain); `z` lies within the bounds of the elements
/// `i` can still pick; once `i` is fixed, `z` and the element it picks share bounds.
#[derive(Debug, Clone)]
pub struct VarElement {
    /// `i`, `z`, then the array's elements.
    slots: Slots,
    base: i64,
}

const I: usize = 0;
const Z: usize = 1;

impl VarElement {
    /// `z = xs[i]`, the first element having index `base`.
    pub fn new(i: Elem, xs: &[Elem], z: Elem, base: i64) -> Self {
        let mut args = Vec::with_capacity(xs.len() + 2);
        args.push(i);
        args.push(z);
        args.extend_from_slice(xs);
        VarElement {
            slots: Slots::new(&args),
            base,
        }
    }

    fn len(&self) -> usize {
        self.slots.len() - 2
    }

    /// The slot of element `k` (0-based).
    fn element(k: usize) -> usize {
        k + 2
    }

    /// One round; returns whether a domain changed.
    fn round(&self, ctx: &mut PropagationCtx<'_>) -> Result<bool, Wipeout> {
        let s = &self.slots;
        let n = self.len() as i64;
        let mut changed = s.restrict(I, self.base, self.base + n - 1, ctx)?;
        // The indices still possible, and the hull of their elements' bounds.
        let indices: smallvec::SmallVec<[i64; 32]> = match s.var(I) {
            Some(var) => ctx.domain(var).values().map(i64::from).collect(),
            None => smallvec::smallvec![s.bounds(I, &ctx.as_check()).0],
        };
        let z = s.bounds(Z, &ctx.as_check());
        let (mut lo, mut hi) = (i64::MAX, i64::MIN);
        for index in indices {
            let k = (index - self.base) as usize;
            let check = ctx.as_check();
            let (a, b) = s.bounds(Self::element(k), &check);
            let possible = if a == b {
                s.can_take(Z, a, &check)
            } else {
                a <= z.1 && z.0 <= b
            };
            if possible {
                lo = lo.min(a);
                hi = hi.max(b);
            } else {
                changed |= s.remove(I, index, ctx)?;
            }
        }
        if lo > hi {
            return Err(Wipeout);
        }
        changed |= s.restrict(Z, lo, hi, ctx)?;
        let (i_lo, i_hi) = s.bounds(I, &ctx.as_check());
        if i_lo == i_hi {
            let picked = Self::element((i_lo - self.base) as usize);
            let z = s.bounds(Z, &ctx.as_check());
            changed |= s.restrict(picked, z.0, z.1, ctx)?;
            let x = s.bounds(picked, &ctx.as_check());
            changed |= s.restrict(Z, x.0, x.1, ctx)?;
        }
        Ok(changed)
    }
}

impl Constraint for VarElement {
    fn scope(&self) -> &[VarId] {
        self.slots.scope()
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let index = self.slots.value(I, values) - self.base;
        usize::try_from(index).is_ok_and(|k| {
            k < self.len()
                && self.slots.value(Self::element(k), values) == self.slots.value(Z, values)
        })
    }

    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        while self.round(ctx)? {}
        check_when_fixed(self, ctx)
    }

    fn entailment(&self, ctx: &CheckCtx<'_>) -> Option<bool> {
        super::fixed_verdict(self, ctx)
    }
}
