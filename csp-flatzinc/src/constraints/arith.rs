use csp_core::{CheckCtx, Constraint, PropagationCtx, VarId, Wipeout};

use super::{Slots, check_when_fixed, checker_revise};
use crate::Elem;

/// The function an [`Arith`] constraint computes, as FlatZinc defines it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArithOp {
    /// `int_times(x, y, z)`: `z = x × y`.
    Times,
    /// `int_div(x, y, z)`: `z = x / y`, rounding towards zero; `y ≠ 0`.
    Div,
    /// `int_mod(x, y, z)`: `z = x − y × (x / y)`, the remainder of [`ArithOp::Div`]; `y ≠ 0`.
    Mod,
    /// `int_min(x, y, z)`: `z = min(x, y)`.
    Min,
    /// `int_max(x, y, z)`: `z = max(x, y)`.
    Max,
    /// `int_pow(x, y, z)`: `z = x^y`; for `y < 0` only `x = ±1` is defined (MiniZinc's rule).
    Pow,
    /// `int_abs(x, z)`: `z = |x|` (the second argument is unused).
    Abs,
}

impl ArithOp {
    /// The function's value, or `None` where it is undefined or beyond 64 bits.
    pub fn apply(self, x: i64, y: i64) -> Option<i64> {
        match self {
            ArithOp::Times => x.checked_mul(y),
            ArithOp::Div => x.checked_div(y),
            ArithOp::Mod => x.checked_rem(y),
            ArithOp::Min => Some(x.min(y)),
            ArithOp::Max => Some(x.max(y)),
            ArithOp::Abs => x.checked_abs(),
            ArithOp::Pow => match (x, y) {
                (_, 0) => Some(1),
                (1, _) => Some(1),
                (-1, _) => Some(if y % 2 == 0 { 1 } else { -1 }),
                (_, y) if y < 0 => None,
                (x, y) => u32::try_from(y).ok().and_then(|y| x.checked_pow(y)),
            },
        }
    }
}

/// `z = f(x, y)` for one of FlatZinc's integer functions ([`ArithOp`]). A temporary constraint until
/// the catalogue's arithmetic lands (see the module's documentation).
///
/// Propagation: `z`'s bounds from the bounds of `x` and `y` (the function's extremes lie at the
/// corners of the box, or at ±1 for a divisor); back from `z` to `x` and `y` for min, max, abs and a
/// product with one factor fixed; a divisor loses 0; then generalised arc consistency from the
/// checker while the domains hold at most 4,096 tuples; and the check once everything is fixed.
#[derive(Debug, Clone)]
pub struct Arith {
    op: ArithOp,
    /// `x`, `y`, `z` (for `Abs`, `y` is the constant 0).
    slots: Slots,
}

const X: usize = 0;
const Y: usize = 1;
const Z: usize = 2;

impl Arith {
    /// `z = op(x, y)`.
    pub fn new(op: ArithOp, x: Elem, y: Elem, z: Elem) -> Self {
        Arith {
            op,
            slots: Slots::new(&[x, y, z]),
        }
    }

    /// The range of `op` over the box `x × y`: `Some(None)` when no value is defined there, `None`
    /// when no range is known (a corner beyond 64 bits, or a power with negative arguments).
    fn image(&self, x: (i64, i64), y: (i64, i64)) -> Option<Option<(i128, i128)>> {
        // Every corner's value, or `None` as soon as one is undefined: the extremes are then unknown.
        let corners = |xs: &[i64], ys: &[i64]| -> Option<Option<(i128, i128)>> {
            let mut range: Option<(i128, i128)> = None;
            for &a in xs {
                for &b in ys {
                    let v = i128::from(self.op.apply(a, b)?);
                    range = Some(range.map_or((v, v), |(lo, hi)| (lo.min(v), hi.max(v))));
                }
            }
            Some(range)
        };
        match self.op {
            ArithOp::Times => {
                // In 128 bits no product of two 64-bit corners overflows.
                let products = [
                    i128::from(x.0) * i128::from(y.0),
                    i128::from(x.0) * i128::from(y.1),
                    i128::from(x.1) * i128::from(y.0),
                    i128::from(x.1) * i128::from(y.1),
                ];
                let lo = products.iter().copied().min().expect("four products");
                let hi = products.iter().copied().max().expect("four products");
                Some(Some((lo, hi)))
            }
            ArithOp::Min => Some(Some((i128::from(x.0.min(y.0)), i128::from(x.1.min(y.1))))),
            ArithOp::Max => Some(Some((i128::from(x.0.max(y.0)), i128::from(x.1.max(y.1))))),
            ArithOp::Abs => Some(Some(if x.0 >= 0 {
                (i128::from(x.0), i128::from(x.1))
            } else if x.1 <= 0 {
                (-i128::from(x.1), -i128::from(x.0))
            } else {
                (0, i128::from(x.1).max(-i128::from(x.0)))
            })),
            ArithOp::Div => {
                // Truncated division is monotone in x for a divisor of fixed sign, and in the divisor
                // on each side of 0, so its extremes lie at the corners or at divisors ±1.
                let mut divisors: smallvec::SmallVec<[i64; 4]> = smallvec::SmallVec::new();
                for d in [y.0, y.1, -1, 1] {
                    if d != 0 && y.0 <= d && d <= y.1 && !divisors.contains(&d) {
                        divisors.push(d);
                    }
                }
                corners(&[x.0, x.1], &divisors)
            }
            ArithOp::Mod => {
                // The remainder has x's sign and is smaller in magnitude than the divisor.
                let m = i128::from(y.0).abs().max(i128::from(y.1).abs()) - 1;
                if m < 0 {
                    return Some(None);
                }
                let (lo, hi) = (i128::from(x.0), i128::from(x.1));
                let lo = if lo >= 0 { 0 } else { lo.max(-m) };
                let hi = if hi <= 0 { 0 } else { hi.min(m) };
                Some(Some((lo, hi)))
            }
            // x^y is monotone in both for x ≥ 0 and y ≥ 0.
            ArithOp::Pow if x.0 >= 0 && y.0 >= 0 => corners(&[x.0, x.1], &[y.0, y.1]),
            ArithOp::Pow => None,
        }
    }

    /// One round of bounds reasoning; returns whether a domain changed.
    fn bounds_round(&self, ctx: &mut PropagationCtx<'_>) -> Result<bool, Wipeout> {
        let s = &self.slots;
        let (x, y) = {
            let check = ctx.as_check();
            (s.bounds(X, &check), s.bounds(Y, &check))
        };
        let mut changed = false;
        match self.image(x, y) {
            Some(None) => return Err(Wipeout),
            Some(Some((lo, hi))) => changed |= s.restrict(Z, clamp(lo), clamp(hi), ctx)?,
            None => {}
        }
        let z = s.bounds(Z, &ctx.as_check());
        match self.op {
            ArithOp::Max => {
                changed |= s.restrict(X, i64::MIN, z.1, ctx)?;
                changed |= s.restrict(Y, i64::MIN, z.1, ctx)?;
                if x.1 < z.0 {
                    changed |= s.restrict(Y, z.0, i64::MAX, ctx)?;
                }
                if y.1 < z.0 {
                    changed |= s.restrict(X, z.0, i64::MAX, ctx)?;
                }
            }
            ArithOp::Min => {
                changed |= s.restrict(X, z.0, i64::MAX, ctx)?;
                changed |= s.restrict(Y, z.0, i64::MAX, ctx)?;
                if x.0 > z.1 {
                    changed |= s.restrict(Y, i64::MIN, z.1, ctx)?;
                }
                if y.0 > z.1 {
                    changed |= s.restrict(X, i64::MIN, z.1, ctx)?;
                }
            }
            ArithOp::Abs => {
                changed |= s.restrict(X, -z.1, z.1, ctx)?;
                let x = s.bounds(X, &ctx.as_check());
                if z.0 > 0 {
                    // |x| ≥ z.lb: a side of 0 too close to it is cut.
                    if x.0 > -z.0 {
                        changed |= s.restrict(X, z.0, i64::MAX, ctx)?;
                    } else if x.1 < z.0 {
                        changed |= s.restrict(X, i64::MIN, -z.0, ctx)?;
                    }
                }
            }
            ArithOp::Times => {
                // With one factor fixed to a ≠ 0, the other lies in z / a.
                for (fixed, other) in [(x, Y), (y, X)] {
                    if fixed.0 == fixed.1 && fixed.0 != 0 {
                        let a = i128::from(fixed.0);
                        let (p, q) = (i128::from(z.0), i128::from(z.1));
                        let (lo, hi) = if a > 0 {
                            (ceil_div(p, a), floor_div(q, a))
                        } else {
                            (ceil_div(q, a), floor_div(p, a))
                        };
                        changed |= s.restrict(other, clamp(lo), clamp(hi), ctx)?;
                    }
                }
                if z.0 > 0 || z.1 < 0 {
                    changed |= s.remove(X, 0, ctx)?;
                    changed |= s.remove(Y, 0, ctx)?;
                }
            }
            ArithOp::Div | ArithOp::Mod => changed |= s.remove(Y, 0, ctx)?,
            ArithOp::Pow => {}
        }
        Ok(changed)
    }
}

fn clamp(x: i128) -> i64 {
    x.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64
}

fn floor_div(a: i128, b: i128) -> i128 {
    let q = a / b;
    if a % b != 0 && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

fn ceil_div(a: i128, b: i128) -> i128 {
    let q = a / b;
    if a % b != 0 && ((a < 0) == (b < 0)) {
        q + 1
    } else {
        q
    }
}

/// The most rounds of bounds reasoning a revision makes: each round narrows some domain, and on wide
/// domains (`x = y × y` over the 32-bit range) convergence can take many; the rest is left to the next
/// wake-up and, at the latest, to the check once everything is fixed.
const MAX_ROUNDS: usize = 64;

impl Constraint for Arith {
    fn scope(&self) -> &[VarId] {
        self.slots.scope()
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let s = &self.slots;
        self.op.apply(s.value(X, values), s.value(Y, values)) == Some(s.value(Z, values))
    }

    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        for _ in 0..MAX_ROUNDS {
            if !self.bounds_round(ctx)? {
                break;
            }
        }
        checker_revise(self, ctx)?;
        check_when_fixed(self, ctx)
    }

    fn entailment(&self, ctx: &CheckCtx<'_>) -> Option<bool> {
        super::fixed_verdict(self, ctx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn functions_follow_flatzinc() {
        assert_eq!(ArithOp::Div.apply(-7, 2), Some(-3));
        assert_eq!(ArithOp::Mod.apply(-7, 2), Some(-1));
        assert_eq!(ArithOp::Mod.apply(7, -2), Some(1));
        assert_eq!(ArithOp::Div.apply(7, 0), None);
        assert_eq!(ArithOp::Pow.apply(2, 10), Some(1024));
        assert_eq!(ArithOp::Pow.apply(-1, -3), Some(-1));
        assert_eq!(ArithOp::Pow.apply(2, -1), None);
        assert_eq!(ArithOp::Abs.apply(-5, 0), Some(5));
        assert_eq!(ArithOp::Times.apply(i64::MAX, 2), None);
    }
}
