use crate::{CheckCtx, Constraint, ModelError, PropagationCtx, VarId, Wake, Wipeout};

/// How a linear sum relates to its right-hand side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Relation {
    /// `Σ aᵢxᵢ = c`.
    Equal,
    /// `Σ aᵢxᵢ <= c`.
    LessOrEqual,
}

/// `Σ aᵢxᵢ = c` or `Σ aᵢxᵢ <= c`, with bounds propagation: each unassigned variable's domain is cut to
/// the values for which the rest of the sum, at its own bounds, can still meet `c`, until nothing
/// changes.
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
        let (coefficients, scope): (Vec<i64>, Vec<VarId>) =
            terms.into_iter().map(|(a, x)| (i64::from(a), x)).unzip();
        Linear {
            scope,
            coefficients,
            relation,
            rhs: i64::from(rhs),
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

    /// Whether a sum lying somewhere in `min..=max` can still meet the right-hand side.
    fn feasible(&self, min: i128, max: i128) -> bool {
        let rhs = i128::from(self.rhs);
        match self.relation {
            Relation::Equal => min <= rhs && rhs <= max,
            Relation::LessOrEqual => min <= rhs,
        }
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
        self.scope.len() <= 2
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let sum: i128 = self
            .coefficients
            .iter()
            .zip(values)
            .map(|(&a, &x)| i128::from(a) * i128::from(x))
            .sum();
        match self.relation {
            Relation::Equal => sum == i128::from(self.rhs),
            Relation::LessOrEqual => sum <= i128::from(self.rhs),
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
        self.filter_bounds(ctx)
    }

    /// Bounds consistency, as under forward checking (which already reads every current domain):
    /// weaker than arc consistency on equalities, whose holes inside a domain it does not see.
    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        self.filter_bounds(ctx)
    }

    /// Bounds reasoning reads nothing but the bounds.
    fn wake(&self) -> Wake {
        Wake::Bounds
    }
}

impl Linear {
    /// Cuts every unassigned variable's domain to the values whose term the rest of the sum, at its
    /// bounds, can still complement, until nothing changes.
    fn filter_bounds(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        let rhs = i128::from(self.rhs);
        loop {
            let bounds = |v: VarId, ctx: &PropagationCtx<'_>| -> Result<(i32, i32), Wipeout> {
                if let Some(x) = ctx.value(v) {
                    return Ok((x, x));
                }
                let d = ctx.domain(v);
                Ok((d.min().ok_or(Wipeout)?, d.max().ok_or(Wipeout)?))
            };
            let (mut min, mut max) = (0i128, 0i128);
            for (&a, &v) in self.coefficients.iter().zip(&self.scope) {
                let (lo, hi) = bounds(v, ctx)?;
                let (p, q) = term_bounds(a, lo, hi);
                min += p;
                max += q;
            }
            if !self.feasible(min, max) {
                return Err(Wipeout);
            }
            let mut changed = false;
            for (&a, &v) in self.coefficients.iter().zip(&self.scope) {
                if a == 0 || ctx.value(v).is_some() {
                    continue;
                }
                let (lo, hi) = bounds(v, ctx)?;
                let (p, q) = term_bounds(a, lo, hi);
                // The rest of the sum lies in rest_min..=rest_max, so a·x must lie in
                // (-inf or rhs - rest_max)..=(rhs - rest_min).
                let (rest_min, rest_max) = (min - p, max - q);
                let upper = rhs - rest_min;
                let lower = match self.relation {
                    Relation::Equal => Some(rhs - rest_max),
                    Relation::LessOrEqual => None,
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
                let before = ctx.domain(v).size();
                ctx.restrict_bounds(v, x_lo, x_hi)?;
                changed |= ctx.domain(v).size() != before;
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
