//! Globals about which values an array takes: how many distinct ones (`nvalue`), whether a value is
//! among them (`member`), and all different but for some values (`alldifferent_except`).

use crate::{
    Constraint, PropagationCtx, Propagator, VarId, Wipeout,
    constraints::{
        set::ValueSet,
        util::{Args, LIST_BUDGET, retain_values},
    },
};

/// `n` is the number of distinct values the `x` take: MiniZinc's `nvalue(n, x)`.
///
/// Consistency: `n` lies between a lower bound, the fewest points that meet every `[lb xᵢ, ub xᵢ]`
/// (found greedily by least upper bound, as in Beldiceanu, *Pruning for the minimum constraint
/// family and for the number of distinct values constraint family*, CP 2001), and the number of
/// values in the union of the domains (the number of variables when that union is too large to
/// list); once the distinct fixed values are as many as `n` can be, every other variable is kept
/// among them. Until nothing moves; with every `x` fixed, `n` is exact.
#[derive(Debug, Clone)]
pub struct NValue {
    /// `[x₁, …, xₖ, n]`.
    args: Args,
}

impl NValue {
    /// `n` is the number of distinct values of `xs`.
    pub fn new(n: VarId, xs: Vec<VarId>) -> Self {
        NValue {
            args: Args::new(xs.into_iter().chain([n])),
        }
    }

    fn k(&self) -> usize {
        self.args.slots.len() - 1
    }

    fn round(&self, ctx: &mut PropagationCtx<'_>) -> Result<bool, Wipeout> {
        let k = self.k();
        let count = self.args.var(k);
        let xs: Vec<VarId> = (0..k).map(|i| self.args.var(i)).collect();
        // Fewest values: points hitting every interval, each placed at the least upper bound of the
        // intervals not yet hit.
        let mut intervals: Vec<(i32, i32)> = xs.iter().map(|&x| (ctx.lb(x), ctx.ub(x))).collect();
        intervals.sort_unstable_by_key(|&(lo, hi)| (hi, lo));
        let mut fewest = 0i64;
        let mut point: Option<i32> = None;
        for &(lo, hi) in &intervals {
            if point.is_none_or(|p| lo > p) {
                point = Some(hi);
                fewest += 1;
            }
        }
        // Most values: the union of the domains, when it can be listed.
        let listed: u64 = xs.iter().map(|&x| ctx.size(x)).sum();
        let most = if listed <= LIST_BUDGET {
            let mut union: Vec<i32> = xs.iter().flat_map(|&x| ctx.domain(x).values()).collect();
            union.sort_unstable();
            union.dedup();
            union.len() as i64
        } else {
            k as i64
        };
        let mut changed = ctx.store.set_bounds(count, fewest, most)?;
        let mut fixed: Vec<i32> = xs.iter().filter_map(|&x| ctx.fixed_value(x)).collect();
        fixed.sort_unstable();
        fixed.dedup();
        if fixed.len() as i64 == i64::from(ctx.ub(count)) {
            for &x in &xs {
                if !ctx.is_fixed(x) {
                    let bounds = (fixed[0], fixed[fixed.len() - 1]);
                    changed |= ctx
                        .store
                        .set_bounds(x, i64::from(bounds.0), i64::from(bounds.1))?;
                    let before = ctx.size(x);
                    retain_values(ctx, x, |v| fixed.binary_search(&v).is_ok())?;
                    changed |= ctx.size(x) != before;
                }
            }
        }
        Ok(changed)
    }
}

impl Constraint for NValue {
    fn scope(&self) -> &[VarId] {
        &self.args.scope
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let mut xs: Vec<i32> = self.args.values(values).take(self.k()).collect();
        xs.sort_unstable();
        xs.dedup();
        i64::from(self.args.value(values, self.k())) == xs.len() as i64
    }

    fn propagator(&self) -> Option<&dyn Propagator> {
        Some(self)
    }
}

impl Propagator for NValue {
    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        while self.round(ctx)? {}
        Ok(())
    }
}

/// `y` is one of the `x`: MiniZinc's `member(x, y)`.
///
/// Consistency: domain consistent when `y` is not among the `x` (sound otherwise): `y` keeps the
/// values some `xᵢ` can take; when only one `xᵢ` can equal `y`, the two keep their common values.
/// Domains too wide to list are left to their bounds.
#[derive(Debug, Clone)]
pub struct Member {
    /// `[x₁, …, xₖ, y]`.
    args: Args,
}

impl Member {
    /// `y` is one of `xs`.
    pub fn new(xs: Vec<VarId>, y: VarId) -> Self {
        Member {
            args: Args::new(xs.into_iter().chain([y])),
        }
    }

    fn k(&self) -> usize {
        self.args.slots.len() - 1
    }

    /// Whether `x` and `y` may share a value (when both are too wide to list, they may as soon as
    /// their bounds meet).
    fn meet(ctx: &PropagationCtx<'_>, x: VarId, y: VarId) -> bool {
        if ctx.ub(x) < ctx.lb(y) || ctx.ub(y) < ctx.lb(x) {
            return false;
        }
        let (small, large) = if ctx.size(x) <= ctx.size(y) {
            (x, y)
        } else {
            (y, x)
        };
        if ctx.size(small) > LIST_BUDGET {
            return true;
        }
        let large = ctx.domain(large);
        ctx.domain(small).values().any(|v| large.contains(v))
    }

    fn round(&self, ctx: &mut PropagationCtx<'_>) -> Result<bool, Wipeout> {
        let k = self.k();
        let y = self.args.var(k);
        let xs: Vec<VarId> = (0..k).map(|i| self.args.var(i)).collect();
        let candidates: Vec<VarId> = xs
            .iter()
            .copied()
            .filter(|&x| Self::meet(ctx, x, y))
            .collect();
        let before: u64 = ctx.size(y) + candidates.iter().map(|&x| ctx.size(x)).sum::<u64>();
        match candidates[..] {
            [] => return Err(Wipeout),
            [x] => {
                // The only one that can equal y.
                for (a, b) in [(x, y), (y, x)] {
                    ctx.restrict_bounds(a, i64::from(ctx.lb(b)), i64::from(ctx.ub(b)))?;
                }
                if ctx.size(y) <= LIST_BUDGET {
                    let values: Vec<i32> = ctx.domain(y).values().collect();
                    retain_values(ctx, x, |v| values.binary_search(&v).is_ok())?;
                }
                if ctx.size(x) <= LIST_BUDGET {
                    let values: Vec<i32> = ctx.domain(x).values().collect();
                    retain_values(ctx, y, |v| values.binary_search(&v).is_ok())?;
                }
            }
            _ => {
                let lo = candidates.iter().map(|&x| ctx.lb(x)).min().unwrap_or(0);
                let hi = candidates.iter().map(|&x| ctx.ub(x)).max().unwrap_or(0);
                ctx.restrict_bounds(y, i64::from(lo), i64::from(hi))?;
                if candidates.iter().map(|&x| ctx.size(x)).sum::<u64>() <= LIST_BUDGET {
                    let mut union: Vec<i32> = candidates
                        .iter()
                        .flat_map(|&x| ctx.domain(x).values())
                        .collect();
                    union.sort_unstable();
                    union.dedup();
                    retain_values(ctx, y, |v| union.binary_search(&v).is_ok())?;
                }
            }
        }
        let after: u64 = ctx.size(y) + candidates.iter().map(|&x| ctx.size(x)).sum::<u64>();
        Ok(after != before)
    }
}

impl Constraint for Member {
    fn scope(&self) -> &[VarId] {
        &self.args.scope
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let y = self.args.value(values, self.k());
        self.args.values(values).take(self.k()).any(|x| x == y)
    }

    fn propagator(&self) -> Option<&dyn Propagator> {
        Some(self)
    }
}

impl Propagator for Member {
    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        while self.round(ctx)? {}
        Ok(())
    }
}

/// No two of the `x` take the same value, unless it is one of the exceptions: MiniZinc's
/// `alldifferent_except(x, S)` and `alldifferent_except_0(x)` (`S = {0}`).
///
/// Consistency: value consistency, as the pairwise decomposition under forward checking: a value
/// outside `S` fixed at one variable leaves the others. (A variable repeated in `x` must take a
/// value of `S`.)
#[derive(Debug, Clone)]
pub struct AllDifferentExcept {
    args: Args,
    except: ValueSet,
}

impl AllDifferentExcept {
    /// `xs` differ, but for values in the ranges `except` (`lo..=hi` each).
    pub fn new(xs: Vec<VarId>, except: impl IntoIterator<Item = (i32, i32)>) -> Self {
        AllDifferentExcept {
            args: Args::new(xs),
            except: ValueSet::from_ranges(except),
        }
    }

    /// `xs` differ, but for 0: MiniZinc's `alldifferent_except_0`.
    pub fn except_zero(xs: Vec<VarId>) -> Self {
        Self::new(xs, [(0, 0)])
    }
}

impl Constraint for AllDifferentExcept {
    fn scope(&self) -> &[VarId] {
        &self.args.scope
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let mut taken: Vec<i32> = self
            .args
            .values(values)
            .filter(|&v| !self.except.contains(v))
            .collect();
        let all = taken.len();
        taken.sort_unstable();
        taken.dedup();
        taken.len() == all
    }

    fn propagator(&self) -> Option<&dyn Propagator> {
        Some(self)
    }
}

impl Propagator for AllDifferentExcept {
    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        let n = self.args.slots.len();
        // A variable named twice can only take an exception.
        let mut seen = vec![0u32; self.args.scope.len()];
        for &slot in &self.args.slots {
            seen[slot] += 1;
        }
        for (slot, &times) in seen.iter().enumerate() {
            if times > 1 {
                self.except.restrict(ctx, self.args.scope[slot])?;
            }
        }
        // Fixed values outside the exceptions, each removed from the others, until none is new.
        let mut done = vec![false; n];
        loop {
            let mut progress = false;
            for (i, done) in done.iter_mut().enumerate() {
                let var = self.args.var(i);
                let Some(value) = ctx.fixed_value(var) else {
                    continue;
                };
                if *done || self.except.contains(value) {
                    continue;
                }
                *done = true;
                progress = true;
                for j in (0..n).filter(|&j| j != i) {
                    let other = self.args.var(j);
                    if other != var {
                        ctx.remove(other, value)?;
                    }
                }
            }
            if !progress {
                return Ok(());
            }
        }
    }
}
