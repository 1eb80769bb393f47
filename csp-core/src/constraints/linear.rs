use crate::{
    CheckCtx, Constraint, EventSet, ModelError, PropagationCtx, VarId, Wipeout,
    constraint::Priority,
};

/// How a linear sum relates to its right-hand side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Relation {
    /// `Σ aᵢxᵢ = c`.
    Equal,
    /// `Σ aᵢxᵢ <= c`.
    LessOrEqual,
    /// `Σ aᵢxᵢ ≠ c`.
    NotEqual,
}

/// `Σ aᵢxᵢ = c`, `Σ aᵢxᵢ ≤ c` or `Σ aᵢxᵢ ≠ c`.
///
/// Equalities and inequalities are bounds consistent: each variable's bounds are cut to the values for
/// which the rest of the sum, at its own bounds, can still meet `c`, until nothing changes; each cut is
/// one bound change, however many values it removes. A disequality prunes only when one variable is
/// left unfixed (the value that would complete the sum to `c`). Sums are computed in `i128`, so no
/// coefficient, value or right-hand side can overflow them.
#[derive(Debug, Clone)]
pub struct Linear {
    scope: Vec<VarId>,
    coefficients: Vec<i64>,
    relation: Relation,
    rhs: i64,
}

impl Linear {
    /// The sum of `coefficient × variable` over `terms`, related to `rhs`.
    pub fn new(terms: Vec<(i32, VarId)>, relation: Relation, rhs: i32) -> Self {
        Self::with_i64(
            terms.into_iter().map(|(a, x)| (i64::from(a), x)).collect(),
            relation,
            i64::from(rhs),
        )
    }

    /// Like [`Linear::new`], with 64-bit coefficients and right-hand side (FlatZinc's integers are
    /// 64-bit; the sums are computed in 128 bits, so none overflows).
    pub fn with_i64(terms: Vec<(i64, VarId)>, relation: Relation, rhs: i64) -> Self {
        let (coefficients, scope): (Vec<i64>, Vec<VarId>) = terms.into_iter().unzip();
        Linear {
            scope,
            coefficients,
            relation,
            rhs,
        }
    }

    /// Like [`Linear::new`] from parallel slices, which must have the same length.
    pub fn from_slices(
        coefficients: &[i32],
        vars: &[VarId],
        relation: Relation,
        rhs: i32,
    ) -> Result<Self, ModelError> {
        if coefficients.len() != vars.len() {
            return Err(ModelError::ArityMismatch {
                constraint: "linear coefficients".to_owned(),
                expected: vars.len(),
                found: coefficients.len(),
            });
        }
        Ok(Self::new(
            coefficients
                .iter()
                .copied()
                .zip(vars.iter().copied())
                .collect(),
            relation,
            rhs,
        ))
    }

    /// The relation.
    pub fn relation(&self) -> Relation {
        self.relation
    }

    /// Whether a sum lying somewhere in `min..=max` can still meet the right-hand side.
    fn feasible(&self, min: i128, max: i128) -> bool {
        let rhs = i128::from(self.rhs);
        match self.relation {
            Relation::Equal => min <= rhs && rhs <= max,
            Relation::LessOrEqual => min <= rhs,
            Relation::NotEqual => !(min == max && min == rhs),
        }
    }

    /// The smallest and largest value of the sum over the current bounds.
    fn sum_bounds(&self, ctx: &CheckCtx<'_>) -> (i128, i128) {
        let (mut min, mut max) = (0i128, 0i128);
        for (&a, &v) in self.coefficients.iter().zip(&self.scope) {
            let (p, q) = term_bounds(a, ctx.lb(v), ctx.ub(v));
            min += p;
            max += q;
        }
        (min, max)
    }
}

/// The range of `a × x` for `x` in `lo..=hi`.
fn term_bounds(a: i64, lo: i32, hi: i32) -> (i128, i128) {
    let (p, q) = (
        i128::from(a) * i128::from(lo),
        i128::from(a) * i128::from(hi),
    );
    (p.min(q), p.max(q))
}

impl Constraint for Linear {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    /// With at most two variables the check's bounds come from the partner alone (its value, or its
    /// domain, which check-past never narrows); with more, the bounds of several variables add up.
    fn check_is_pairwise(&self) -> bool {
        self.scope.len() <= 2 && self.relation != Relation::NotEqual
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let sum: i128 = self
            .coefficients
            .iter()
            .zip(values)
            .map(|(&a, &x)| i128::from(a) * i128::from(x))
            .sum();
        let rhs = i128::from(self.rhs);
        match self.relation {
            Relation::Equal => sum == rhs,
            Relation::LessOrEqual => sum <= rhs,
            Relation::NotEqual => sum != rhs,
        }
    }

    fn check(&self, var: VarId, value: i32, ctx: &CheckCtx<'_>) -> bool {
        let (mut min, mut max) = (0i128, 0i128);
        for (&a, &v) in self.coefficients.iter().zip(&self.scope) {
            let (lo, hi) = if v == var {
                (value, value)
            } else if let Some(x) = ctx.value(v) {
                (x, x)
            } else {
                let d = ctx.domain(v);
                match (d.min(), d.max()) {
                    (Some(lo), Some(hi)) => (lo, hi),
                    _ => return false,
                }
            };
            let (p, q) = term_bounds(a, lo, hi);
            min += p;
            max += q;
        }
        self.feasible(min, max)
    }

    fn propagate(&self, _var: VarId, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        self.filter(ctx)
    }

    /// Bounds consistency for `=` and `≤` (weaker than arc consistency on equalities, whose holes
    /// inside a domain it does not see); for `≠`, the one value that would complete the sum.
    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        self.filter(ctx)
    }

    /// Bounds reasoning reads nothing but the bounds; a disequality waits for fixed variables.
    fn subscribe(&self, _position: usize) -> EventSet {
        match self.relation {
            Relation::NotEqual => EventSet::FIXED,
            Relation::Equal | Relation::LessOrEqual => EventSet::BOUNDS,
        }
    }

    fn priority(&self) -> Priority {
        if self.scope.len() <= 2 {
            Priority::High
        } else {
            Priority::Medium
        }
    }

    /// From the sum's bounds: `≤ c` is entailed when the largest sum is at most `c`, `= c` when the sum
    /// is fixed at `c`, `≠ c` when `c` lies outside the sum's range; each is disentailed when no sum in
    /// the range can meet `c`.
    fn entailment(&self, ctx: &CheckCtx<'_>) -> Option<bool> {
        let (min, max) = self.sum_bounds(ctx);
        let rhs = i128::from(self.rhs);
        match self.relation {
            Relation::LessOrEqual if max <= rhs => Some(true),
            Relation::LessOrEqual if min > rhs => Some(false),
            Relation::Equal if min == max => Some(min == rhs),
            Relation::Equal if rhs < min || rhs > max => Some(false),
            Relation::NotEqual if rhs < min || rhs > max => Some(true),
            Relation::NotEqual if min == max => Some(min != rhs),
            _ => None,
        }
    }

    /// `= c` and `≠ c` negate each other; `Σ aᵢxᵢ ≤ c` negates to `Σ −aᵢxᵢ ≤ −c − 1`.
    fn negation(&self) -> Option<Box<dyn Constraint>> {
        let terms = || {
            self.coefficients
                .iter()
                .copied()
                .zip(self.scope.iter().copied())
        };
        let negated = match self.relation {
            Relation::Equal => Linear::with_i64(terms().collect(), Relation::NotEqual, self.rhs),
            Relation::NotEqual => Linear::with_i64(terms().collect(), Relation::Equal, self.rhs),
            Relation::LessOrEqual => Linear::with_i64(
                terms().map(|(a, x)| (-a, x)).collect(),
                Relation::LessOrEqual,
                // `c` is an i64, so −c − 1 is too: no overflow.
                self.rhs.checked_neg()?.checked_sub(1)?,
            ),
        };
        Some(Box::new(negated))
    }
}

impl Linear {
    fn filter(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        match self.relation {
            Relation::NotEqual => self.filter_not_equal(ctx),
            Relation::Equal | Relation::LessOrEqual => self.filter_bounds(ctx),
        }
    }

    /// With every variable fixed, the sum must differ from `c`; with one left, it must not take the
    /// value that completes the sum.
    fn filter_not_equal(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        let mut free = None;
        let mut fixed_sum = 0i128;
        for (&a, &v) in self.coefficients.iter().zip(&self.scope) {
            match ctx.fixed_value(v) {
                Some(x) => fixed_sum += i128::from(a) * i128::from(x),
                None if a == 0 => {}
                None if free.is_none() => free = Some((a, v)),
                None => return Ok(()),
            }
        }
        let rest = i128::from(self.rhs) - fixed_sum;
        match free {
            None if rest == 0 => Err(Wipeout),
            None => Ok(()),
            Some((a, v)) => {
                let a = i128::from(a);
                if rest % a == 0
                    && let Ok(value) = i32::try_from(rest / a)
                {
                    ctx.remove(v, value)?;
                }
                Ok(())
            }
        }
    }

    /// Cuts every variable's bounds to the values whose term the rest of the sum, at its bounds, can
    /// still complement, until nothing changes.
    fn filter_bounds(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        let rhs = i128::from(self.rhs);
        loop {
            let (min, max) = self.sum_bounds(&ctx.as_check());
            if !self.feasible(min, max) {
                return Err(Wipeout);
            }
            let mut changed = false;
            for (&a, &v) in self.coefficients.iter().zip(&self.scope) {
                if a == 0 {
                    continue;
                }
                let (lo, hi) = (ctx.lb(v), ctx.ub(v));
                if lo == hi {
                    continue;
                }
                let (p, q) = term_bounds(a, lo, hi);
                // The rest of the sum lies in rest_min..=rest_max, so a·x must lie in
                // (-inf or rhs - rest_max)..=(rhs - rest_min).
                let (rest_min, rest_max) = (min - p, max - q);
                let upper = rhs - rest_min;
                let lower = match self.relation {
                    Relation::Equal => Some(rhs - rest_max),
                    Relation::LessOrEqual | Relation::NotEqual => None,
                };
                let a = i128::from(a);
                // Divide a·x's range by a, rounding inwards, and flip it when a is negative.
                let (x_lo, x_hi) = if a > 0 {
                    (lower.map(|l| ceil_div(l, a)), Some(floor_div(upper, a)))
                } else {
                    (Some(ceil_div(upper, a)), lower.map(|l| floor_div(l, a)))
                };
                let x_lo = x_lo.map_or(i64::MIN, clamp_i64);
                let x_hi = x_hi.map_or(i64::MAX, clamp_i64);
                changed |= ctx.store.set_bounds(v, x_lo, x_hi)?;
            }
            if !changed {
                return Ok(());
            }
        }
    }
}

fn floor_div(a: i128, b: i128) -> i128 {
    let q = a / b;
    if (a % b != 0) && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

fn ceil_div(a: i128, b: i128) -> i128 {
    let q = a / b;
    if (a % b != 0) && ((a < 0) == (b < 0)) {
        q + 1
    } else {
        q
    }
}

fn clamp_i64(x: i128) -> i64 {
    x.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_division_rounds_the_right_way_for_every_sign() {
        assert_eq!((floor_div(7, 2), ceil_div(7, 2)), (3, 4));
        assert_eq!((floor_div(-7, 2), ceil_div(-7, 2)), (-4, -3));
        assert_eq!((floor_div(7, -2), ceil_div(7, -2)), (-4, -3));
        assert_eq!((floor_div(-7, -2), ceil_div(-7, -2)), (3, 4));
        assert_eq!((floor_div(6, 3), ceil_div(6, 3)), (2, 2));
    }
}
