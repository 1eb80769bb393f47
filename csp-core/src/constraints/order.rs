//! Globals about positions in an array: a sorted array (`increasing`, `decreasing`), a value
//! preceding another (`value_precede`), and the position of the first maximum or minimum
//! (`arg_max`, `arg_min`).

use crate::{
    Constraint, EventSet, PropagationCtx, Propagator, VarId, Wipeout, constraints::util::Args,
};

/// `x₁ ≤ x₂ ≤ … ≤ xₙ`: MiniZinc's `increasing(x)`, and `decreasing(x)` over the array reversed.
///
/// Consistency: domain consistent when the variables are distinct (sound with one repeated): one
/// pass forward raises each least value to its predecessor's, one pass back lowers each largest
/// value to its successor's. Then every value left has the predecessors' least values below it and
/// the successors' largest above it.
#[derive(Debug, Clone)]
pub struct Increasing {
    args: Args,
}

impl Increasing {
    /// `xs` in non-decreasing order.
    pub fn new(xs: Vec<VarId>) -> Self {
        Increasing {
            args: Args::new(xs),
        }
    }

    /// `xs` in non-increasing order.
    pub fn decreasing(mut xs: Vec<VarId>) -> Self {
        xs.reverse();
        Self::new(xs)
    }
}

impl Constraint for Increasing {
    fn scope(&self) -> &[VarId] {
        &self.args.scope
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let xs: Vec<i32> = self.args.values(values).collect();
        xs.windows(2).all(|w| w[0] <= w[1])
    }

    fn propagator(&self) -> Option<&dyn Propagator> {
        Some(self)
    }
}

impl Propagator for Increasing {
    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        let n = self.args.slots.len();
        loop {
            let mut changed = false;
            for i in 1..n {
                let before = i64::from(ctx.lb(self.args.var(i - 1)));
                changed |= ctx.set_min(self.args.var(i), before)?;
            }
            for i in (0..n.saturating_sub(1)).rev() {
                let after = i64::from(ctx.ub(self.args.var(i + 1)));
                changed |= ctx.set_max(self.args.var(i), after)?;
            }
            // Only a repeated variable can leave work for another pass.
            if !changed || self.args.scope.len() == n {
                return Ok(());
            }
        }
    }

    fn subscribe(&self, _position: usize) -> EventSet {
        EventSet::BOUNDS
    }
}

/// If some `xᵢ = t`, then some `xⱼ = s` with `j < i`: MiniZinc's `value_precede(s, t, x)`, which
/// breaks the symmetry of interchangeable values. (With `s = t` no `x` may take `t`, as MiniZinc's
/// definition says.)
///
/// Consistency: domain consistent when the variables are distinct (sound with one repeated), after
/// Law & Lee (*Global Constraints for Integer and Set Value Precedence*, CP 2004): with `α` the first
/// position that can take `s`, no variable up to `α` takes `t`; with `β` the next position that
/// can take `s`, and `γ` the first position fixed to `t`, `xα = s` when `γ < β`.
#[derive(Debug, Clone)]
pub struct ValuePrecede {
    args: Args,
    s: i32,
    t: i32,
}

impl ValuePrecede {
    /// `s` precedes `t` in `xs`.
    pub fn new(s: i32, t: i32, xs: Vec<VarId>) -> Self {
        ValuePrecede {
            args: Args::new(xs),
            s,
            t,
        }
    }
}

impl Constraint for ValuePrecede {
    fn scope(&self) -> &[VarId] {
        &self.args.scope
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let mut seen_s = false;
        for x in self.args.values(values) {
            if x == self.t && !seen_s {
                return false;
            }
            seen_s |= x == self.s;
        }
        true
    }

    fn propagator(&self) -> Option<&dyn Propagator> {
        Some(self)
    }
}

impl Propagator for ValuePrecede {
    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        let n = self.args.slots.len();
        let (s, t) = (self.s, self.t);
        loop {
            let mut changed = false;
            if s == t {
                for i in 0..n {
                    changed |= ctx.remove(self.args.var(i), t)?;
                }
            } else {
                let can_s =
                    |ctx: &PropagationCtx<'_>, i: usize| ctx.domain(self.args.var(i)).contains(s);
                let alpha = (0..n).find(|&i| can_s(ctx, i)).unwrap_or(n);
                for i in 0..n.min(alpha + 1) {
                    changed |= ctx.remove(self.args.var(i), t)?;
                }
                if alpha < n {
                    let beta = (alpha + 1..n).find(|&i| can_s(ctx, i)).unwrap_or(n);
                    let gamma = (0..n).find(|&i| ctx.fixed_value(self.args.var(i)) == Some(t));
                    if gamma.is_some_and(|g| g < beta) {
                        changed |= ctx.fix(self.args.var(alpha), i64::from(s))?;
                    }
                }
            }
            // A repeated variable can leave work for another pass.
            if !changed || self.args.scope.len() == n {
                return Ok(());
            }
        }
    }
}

/// `z` is the position (counted from `first`) of the first greatest of the `x`, or with `minimum`
/// of the first least: MiniZinc's `arg_max(x)` and `arg_min(x)` (`maximum_arg` and `minimum_arg`).
///
/// Consistency, on the bounds of the `x` (described for the maximum): `z` keeps only positions `i`
/// whose `xᵢ` can exceed every earlier `x`'s least value and reach every later one's; an `xⱼ` that
/// `z` cannot name stays below the largest value of the `x` it can name (strictly, when all of them
/// lie after it); and once `z` is fixed to `i`, `xᵢ` rises above the earlier `x`'s least values and
/// to the later ones'. Until nothing moves; with every variable fixed it is exact.
#[derive(Debug, Clone)]
pub struct ArgExtremum {
    /// `[x₁, …, xₙ, z]`.
    args: Args,
    first: i32,
    minimum: bool,
}

impl ArgExtremum {
    /// `z` is the position of the first greatest of `xs` (`minimum` false) or of the first least,
    /// positions numbered from `first`. `xs` must not be empty.
    pub fn new(xs: Vec<VarId>, z: VarId, first: i32, minimum: bool) -> Self {
        ArgExtremum {
            args: Args::new(xs.into_iter().chain([z])),
            first,
            minimum,
        }
    }

    fn n(&self) -> usize {
        self.args.slots.len() - 1
    }

    /// `xᵢ`'s bounds as the maximum sees them (negated for the minimum).
    fn bounds(&self, ctx: &PropagationCtx<'_>, i: usize) -> (i64, i64) {
        let var = self.args.var(i);
        let (lo, hi) = (i64::from(ctx.lb(var)), i64::from(ctx.ub(var)));
        if self.minimum { (-hi, -lo) } else { (lo, hi) }
    }

    /// Keeps `xᵢ` at or above `bound` as the maximum sees it.
    fn raise(&self, ctx: &mut PropagationCtx<'_>, i: usize, bound: i64) -> Result<bool, Wipeout> {
        let var = self.args.var(i);
        if self.minimum {
            ctx.set_max(var, -bound)
        } else {
            ctx.set_min(var, bound)
        }
    }

    /// Keeps `xᵢ` at or below `bound` as the maximum sees it.
    fn lower(&self, ctx: &mut PropagationCtx<'_>, i: usize, bound: i64) -> Result<bool, Wipeout> {
        let var = self.args.var(i);
        if self.minimum {
            ctx.set_min(var, -bound)
        } else {
            ctx.set_max(var, bound)
        }
    }

    fn round(&self, ctx: &mut PropagationCtx<'_>) -> Result<bool, Wipeout> {
        let n = self.n();
        let z = self.args.var(n);
        let first = i64::from(self.first);
        let mut changed = ctx.store.set_bounds(z, first, first + n as i64 - 1)?;
        let bounds: Vec<(i64, i64)> = (0..n).map(|i| self.bounds(ctx, i)).collect();
        // The greatest least value before each position, and from each position on.
        let mut before = vec![i64::MIN; n + 1];
        for i in 0..n {
            before[i + 1] = before[i].max(bounds[i].0);
        }
        let mut after = vec![i64::MIN; n + 1];
        for i in (0..n).rev() {
            after[i] = after[i + 1].max(bounds[i].0);
        }
        for i in 0..n {
            let position = first + i as i64;
            let can = bounds[i].1 > before[i] && bounds[i].1 >= after[i + 1];
            if !can && let Ok(position) = i32::try_from(position) {
                changed |= ctx.remove(z, position)?;
            }
        }
        let named: Vec<usize> = (0..n)
            .filter(|&i| i32::try_from(first + i as i64).is_ok_and(|p| ctx.domain(z).contains(p)))
            .collect();
        for j in 0..n {
            if named.contains(&j) {
                continue;
            }
            // xⱼ is not the first greatest: some named xᵢ is at least as great, strictly if i > j.
            let most = named
                .iter()
                .map(|&i| bounds[i].1 - i64::from(i > j))
                .max()
                .ok_or(Wipeout)?;
            changed |= self.lower(ctx, j, most)?;
        }
        if let [i] = named[..] {
            let least = before[i].saturating_add(1).max(after[i + 1]);
            changed |= self.raise(ctx, i, least)?;
        }
        Ok(changed)
    }
}

impl Constraint for ArgExtremum {
    fn scope(&self) -> &[VarId] {
        &self.args.scope
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let xs: Vec<i64> = self
            .args
            .values(values)
            .take(self.n())
            .map(|v| {
                if self.minimum {
                    -i64::from(v)
                } else {
                    i64::from(v)
                }
            })
            .collect();
        let Some(&best) = xs.iter().max() else {
            return false;
        };
        let position = xs
            .iter()
            .position(|&x| x == best)
            .expect("the maximum is there");
        i64::from(self.args.value(values, self.n())) == i64::from(self.first) + position as i64
    }

    fn propagator(&self) -> Option<&dyn Propagator> {
        Some(self)
    }
}

impl Propagator for ArgExtremum {
    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        while self.round(ctx)? {}
        Ok(())
    }
}
