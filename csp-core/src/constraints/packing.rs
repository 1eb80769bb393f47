//! Packing: rectangles that may not overlap (MiniZinc's `diffn` and `diffn_nonstrict`), and items
//! put into bins of limited or variable load (`bin_packing`, `bin_packing_capa`,
//! `bin_packing_load`).

use crate::Domains;
use crate::{
    Constraint, EventSet, ExplainCtx, Literal, LiteralRelation, ModelError, PropagationCtx,
    Propagator, VarId, Wipeout,
    constraints::util::{Args, dedup_reasons, invalid},
    revision::Priority,
};

/// A box of origins `[xa, xb] × [ya, yb]` a rectangle may not take (inclusive).
#[derive(Debug, Clone, Copy)]
struct Region {
    xa: i64,
    xb: i64,
    ya: i64,
    yb: i64,
}

impl Region {
    /// The same region with the axes swapped.
    fn transposed(self) -> Region {
        Region {
            xa: self.ya,
            xb: self.yb,
            ya: self.xa,
            yb: self.xb,
        }
    }

    /// The same region with `x` reversed.
    fn mirrored(self) -> Region {
        Region {
            xa: -self.xb,
            xb: -self.xa,
            ..self
        }
    }
}

/// The least `x` in `x_lo..=x_hi` at which some `y` in `y_lo..=y_hi` lies in none of `regions`:
/// Beldiceanu & Carlsson's sweep (*Sweep as a Generic Pruning Technique Applied to the
/// Non-overlapping Rectangles Constraint*, CP 2001). The sweep line stops at `x`; if the regions
/// active there cover the whole `y` range, it jumps past the first of them to end, since until then
/// the cover holds. `None` when every `x` is covered.
fn least_free(x_lo: i64, x_hi: i64, y_lo: i64, y_hi: i64, regions: &[Region]) -> Option<i64> {
    let relevant: Vec<Region> = regions
        .iter()
        .copied()
        .filter(|r| r.xb >= x_lo && r.xa <= x_hi && r.yb >= y_lo && r.ya <= y_hi)
        .collect();
    let mut active: Vec<Region> = Vec::with_capacity(relevant.len());
    let mut x = x_lo;
    while x <= x_hi {
        active.clear();
        active.extend(relevant.iter().filter(|r| r.xa <= x && x <= r.xb));
        active.sort_unstable_by_key(|r| r.ya);
        // The first y not covered by the active regions.
        let mut reach = y_lo;
        for r in &active {
            if r.ya > reach || reach > y_hi {
                break;
            }
            reach = reach.max(r.yb + 1);
        }
        if reach <= y_hi {
            return Some(x);
        }
        x = active
            .iter()
            .map(|r| r.xb)
            .min()
            .expect("a cover has regions")
            + 1;
    }
    None
}

/// Rectangles that may not overlap: MiniZinc's `diffn(x, y, dx, dy)` (rectangle `i` has its lower
/// left corner at `(xᵢ, yᵢ)` and sizes `dxᵢ × dyᵢ`; two rectangles overlap when
/// `xⱼ − dxᵢ < xᵢ < xⱼ + dxⱼ` and likewise in `y`, so a rectangle of zero width still may not lie
/// inside another), and `diffn_nonstrict`, where a rectangle of zero width or height overlaps nothing.
///
/// Consistency: Beldiceanu & Carlsson's sweep (CP 2001) on each rectangle's origin, axis by axis and
/// both ways: each other rectangle's compulsory part (over its least sizes) forbids a box of
/// origins, and each bound of `xᵢ` moves to the first value at which some `yᵢ` between its bounds is
/// free of every box (likewise `yᵢ`), until nothing moves. With every variable fixed the boxes are
/// exactly the overlapping placements, so the sweep fails exactly when two rectangles overlap. The
/// sizes are not pruned.
#[derive(Debug, Clone)]
pub struct Diffn {
    /// `[x₁…xₙ, y₁…yₙ, dx₁…dxₙ, dy₁…dyₙ]`.
    args: Args,
    n: usize,
    strict: bool,
}

impl Diffn {
    /// `diffn(x, y, dx, dy)` (`strict`), or `diffn_nonstrict`. The four arrays have one entry per
    /// rectangle.
    pub fn new(
        x: Vec<VarId>,
        y: Vec<VarId>,
        dx: Vec<VarId>,
        dy: Vec<VarId>,
        strict: bool,
    ) -> Result<Self, ModelError> {
        let n = x.len();
        for (what, array) in [("y", &y), ("dx", &dx), ("dy", &dy)] {
            if array.len() != n {
                return Err(ModelError::ArityMismatch {
                    constraint: format!("diffn {what}"),
                    expected: n,
                    found: array.len(),
                });
            }
        }
        Ok(Diffn {
            args: Args::new(x.into_iter().chain(y).chain(dx).chain(dy)),
            n,
            strict,
        })
    }

    /// Whether rectangles `i` and `j` overlap in the assignment `values`.
    fn overlap(&self, values: &[i32], i: usize, j: usize) -> bool {
        let v = |k: usize| i64::from(self.args.value(values, k));
        let n = self.n;
        let (xi, yi, wi, hi) = (v(i), v(n + i), v(2 * n + i), v(3 * n + i));
        let (xj, yj, wj, hj) = (v(j), v(n + j), v(2 * n + j), v(3 * n + j));
        if !self.strict && [wi, hi, wj, hj].contains(&0) {
            return false;
        }
        xj - wi < xi && xi < xj + wj && yj - hi < yi && yi < yj + hj
    }

    /// The box of origins of rectangle `i` that surely overlap rectangle `j`, if any.
    fn forbidden(&self, ctx: &PropagationCtx<'_>, i: usize, j: usize) -> Option<Region> {
        let n = self.n;
        let var = |k: usize| self.args.var(k);
        let (lb, ub) = (
            |k: usize| i64::from(ctx.lb(var(k))),
            |k: usize| i64::from(ctx.ub(var(k))),
        );
        if !self.strict
            && [2 * n + i, 3 * n + i, 2 * n + j, 3 * n + j]
                .iter()
                .any(|&k| ctx.domain(var(k)).contains(0))
        {
            return None;
        }
        let region = Region {
            xa: ub(j) - lb(2 * n + i) + 1,
            xb: lb(j) + lb(2 * n + j) - 1,
            ya: ub(n + j) - lb(3 * n + i) + 1,
            yb: lb(n + j) + lb(3 * n + j) - 1,
        };
        (region.xa <= region.xb && region.ya <= region.yb).then_some(region)
    }

    /// One sweep over every rectangle, both axes, both ways; returns whether a bound moved.
    fn sweep(&self, ctx: &mut PropagationCtx<'_>) -> Result<bool, Wipeout> {
        let n = self.n;
        let mut changed = false;
        for i in 0..n {
            let regions: Vec<Region> = (0..n)
                .filter(|&j| j != i)
                .filter_map(|j| self.forbidden(ctx, i, j))
                .collect();
            if regions.is_empty() {
                continue;
            }
            for axis in 0..2 {
                let (along, across) = (
                    self.args.var(axis * n + i),
                    self.args.var((1 - axis) * n + i),
                );
                let boxes: Vec<Region> = regions
                    .iter()
                    .map(|&r| if axis == 0 { r } else { r.transposed() })
                    .collect();
                let (lo, hi) = (i64::from(ctx.lb(along)), i64::from(ctx.ub(along)));
                let (y_lo, y_hi) = (i64::from(ctx.lb(across)), i64::from(ctx.ub(across)));
                let least = least_free(lo, hi, y_lo, y_hi, &boxes).ok_or(Wipeout)?;
                let mirrored: Vec<Region> = boxes.iter().map(|r| r.mirrored()).collect();
                let most = -least_free(-hi, -lo, y_lo, y_hi, &mirrored).ok_or(Wipeout)?;
                changed |= ctx.store.set_bounds(along, least, most)?;
            }
        }
        Ok(changed)
    }
}

impl Constraint for Diffn {
    fn scope(&self) -> &[VarId] {
        &self.args.scope
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        (0..self.n).all(|i| (i + 1..self.n).all(|j| !self.overlap(values, i, j)))
    }
}

impl Propagator for Diffn {
    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        while self.sweep(ctx)? {}
        Ok(())
    }

    /// A coordinate's bound by the boxes of origins the other rectangles forbid over the
    /// origins it passed, each lifted to the part needed; a removal by the rectangle it overlaps.
    fn explain(&self, literal: Literal, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        let start = reasons.len();
        let explained = self.explain_change(literal, ctx, reasons);
        if explained {
            dedup_reasons(reasons, start);
        } else {
            reasons.truncate(start);
        }
        explained
    }

    /// A rectangle left no free origin, by the boxes that cover them all, or two placed
    /// rectangles that overlap.
    fn explain_failure(&self, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        let start = reasons.len();
        let explained = self.explain_overlap(ctx, reasons);
        if explained {
            dedup_reasons(reasons, start);
        } else {
            reasons.truncate(start);
        }
        explained
    }

    fn subscribe(&self, _position: usize) -> EventSet {
        // Whether a size can be zero matters to the non-strict form (a variable may be both a size
        // and a coordinate, so every position subscribes alike).
        if self.strict {
            EventSet::BOUNDS
        } else {
            EventSet::ANY
        }
    }

    fn priority(&self) -> Priority {
        Priority::Low
    }
}

/// What the bins hold: a load variable each, or a constant capacity each.
#[derive(Debug, Clone)]
enum Bins {
    /// `bin_packing_load`: the loads are the arguments after the items' bins.
    Loads,
    /// `bin_packing_capa` (and `bin_packing`, every capacity the same).
    Capacities(Vec<i64>),
}

/// Items of constant weights put into bins: MiniZinc's `bin_packing_load(load, bin, w)` (bin `b`
/// holds items of total weight `load[b]`, and the loads add up to the total weight),
/// `bin_packing_capa(c, bin, w)` (bin `b` holds at most `c[b]`) and `bin_packing(c, bin, w)` (every
/// bin holds at most `c`, as `bin_packing_capa` over the bins the items can name). Each item goes
/// into one of the bins, numbered from `first`; weights are not negative.
///
/// Consistency: Shaw's rules (*A Constraint for Bin Packing*, CP 2004) but for his knapsack
/// reasoning: each load lies between the weight of the items committed to its bin and that plus the
/// items that may still go there, and between the total weight less the other loads' largest and
/// least values; an item leaves a bin it would overfill (beside the items committed there) and is
/// committed to a bin that cannot reach its least load without it; and the bins' largest loads (or
/// capacities) must hold the total weight. Until nothing moves; with every item placed the loads
/// are exact.
#[derive(Debug, Clone)]
pub struct BinPacking {
    /// `[bin₁…binₙ]`, then for `bin_packing_load` `[load₁…loadₘ]`.
    args: Args,
    weights: Vec<i64>,
    /// The number naming the first bin.
    first: i32,
    /// How many bins there are.
    m: usize,
    bins: Bins,
}

impl BinPacking {
    /// `bin_packing_load(loads, bins, weights)`: bins numbered from `first`, one load variable
    /// each.
    pub fn with_loads(
        loads: Vec<VarId>,
        first: i32,
        bins: Vec<VarId>,
        weights: Vec<i64>,
    ) -> Result<Self, ModelError> {
        let m = loads.len();
        Self::validate(&bins, &weights, first, m)?;
        Ok(BinPacking {
            args: Args::new(bins.into_iter().chain(loads)),
            weights,
            first,
            m,
            bins: Bins::Loads,
        })
    }

    /// `bin_packing_capa(capacities, bins, weights)`: bins numbered from `first`, each holding at
    /// most its capacity.
    pub fn with_capacities(
        capacities: Vec<i64>,
        first: i32,
        bins: Vec<VarId>,
        weights: Vec<i64>,
    ) -> Result<Self, ModelError> {
        let m = capacities.len();
        Self::validate(&bins, &weights, first, m)?;
        Ok(BinPacking {
            args: Args::new(bins),
            weights,
            first,
            m,
            bins: Bins::Capacities(capacities),
        })
    }

    fn validate(bins: &[VarId], weights: &[i64], first: i32, m: usize) -> Result<(), ModelError> {
        if weights.len() != bins.len() {
            return Err(ModelError::ArityMismatch {
                constraint: "bin_packing weights".to_owned(),
                expected: bins.len(),
                found: weights.len(),
            });
        }
        if weights.iter().any(|&w| w < 0) {
            return Err(invalid("bin_packing", "weights must not be negative"));
        }
        if weights
            .iter()
            .try_fold(0i64, |sum, &w| sum.checked_add(w))
            .is_none()
        {
            return Err(invalid("bin_packing", "the weights add up beyond 64 bits"));
        }
        if i64::from(first) + m as i64 - 1 > i64::from(i32::MAX) {
            return Err(invalid("bin_packing", "the bins' numbers exceed 32 bits"));
        }
        Ok(())
    }

    fn n(&self) -> usize {
        self.weights.len()
    }

    /// The bin a value names, if it names one.
    fn bin_of(&self, value: i32) -> Option<usize> {
        usize::try_from(i64::from(value) - i64::from(self.first))
            .ok()
            .filter(|&b| b < self.m)
    }

    /// The least and largest load bin `b` may have.
    fn load_bounds(&self, ctx: &PropagationCtx<'_>, b: usize) -> (i64, i64) {
        match &self.bins {
            Bins::Loads => {
                let load = self.args.var(self.n() + b);
                (i64::from(ctx.lb(load)), i64::from(ctx.ub(load)))
            }
            Bins::Capacities(c) => (i64::MIN, c[b]),
        }
    }

    /// One round of the rules; returns whether anything moved.
    fn round(&self, ctx: &mut PropagationCtx<'_>) -> Result<bool, Wipeout> {
        let (n, m) = (self.n(), self.m);
        let mut changed = false;
        // Committed and possible weight per bin.
        let mut committed = vec![0i64; m];
        let mut possible = vec![0i64; m];
        for i in 0..n {
            let var = self.args.var(i);
            let w = self.weights[i];
            if let Some(value) = ctx.fixed_value(var) {
                let b = self.bin_of(value).ok_or(Wipeout)?;
                committed[b] += w;
                possible[b] += w;
            } else {
                for value in ctx.domain(var).values() {
                    if let Some(b) = self.bin_of(value) {
                        possible[b] += w;
                    }
                }
            }
        }
        let total: i64 = self.weights.iter().sum();
        match &self.bins {
            Bins::Loads => {
                let loads: Vec<VarId> = (0..m).map(|b| self.args.var(n + b)).collect();
                let (sum_lo, sum_hi) = loads.iter().fold((0i64, 0i64), |(lo, hi), &l| {
                    (lo + i64::from(ctx.lb(l)), hi + i64::from(ctx.ub(l)))
                });
                for (b, &load) in loads.iter().enumerate() {
                    let (lo, hi) = (i64::from(ctx.lb(load)), i64::from(ctx.ub(load)));
                    let others = (sum_lo - lo, sum_hi - hi);
                    let least = committed[b].max(total - others.1);
                    let most = possible[b].min(total - others.0);
                    changed |= ctx.store.set_bounds(load, least, most)?;
                }
            }
            Bins::Capacities(c) => {
                if (0..m).any(|b| committed[b] > c[b]) {
                    return Err(Wipeout);
                }
                let room: i64 = (0..m).map(|b| c[b].min(possible[b]).max(0)).sum();
                if room < total {
                    return Err(Wipeout);
                }
            }
        }
        // Items: out of bins they would overfill, into a bin that needs them.
        for i in 0..n {
            let var = self.args.var(i);
            if ctx.is_fixed(var) {
                continue;
            }
            let w = self.weights[i];
            let values: Vec<i32> = ctx.domain(var).values().collect();
            for value in values {
                let Some(b) = self.bin_of(value) else {
                    changed |= ctx.remove(var, value)?;
                    continue;
                };
                let (least, most) = self.load_bounds(ctx, b);
                if committed[b] + w > most {
                    changed |= ctx.remove(var, value)?;
                } else if w > 0 && possible[b] - w < least {
                    changed |= ctx.fix(var, i64::from(value))?;
                    break;
                }
            }
        }
        Ok(changed)
    }
}

impl Constraint for BinPacking {
    fn scope(&self) -> &[VarId] {
        &self.args.scope
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let mut loads = vec![0i64; self.m];
        for i in 0..self.n() {
            match self.bin_of(self.args.value(values, i)) {
                Some(b) => loads[b] += self.weights[i],
                None => return false,
            }
        }
        match &self.bins {
            Bins::Loads => loads
                .iter()
                .enumerate()
                .all(|(b, &load)| i64::from(self.args.value(values, self.n() + b)) == load),
            Bins::Capacities(c) => loads.iter().zip(c).all(|(load, cap)| load <= cap),
        }
    }
}

impl Propagator for BinPacking {
    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        let (lo, hi) = (
            i64::from(self.first),
            i64::from(self.first) + self.m as i64 - 1,
        );
        for i in 0..self.n() {
            ctx.restrict_bounds(self.args.var(i), lo, hi)?;
        }
        while self.round(ctx)? {}
        Ok(())
    }

    /// An item's lost bins by the items committed there and the load's largest value, or by the
    /// bin that needs the item; a load's bound by the committed or excluded items, or by the
    /// other loads and the total weight.
    fn explain(&self, literal: Literal, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        let start = reasons.len();
        let explained = self.explain_change(literal, ctx, reasons);
        if explained {
            dedup_reasons(reasons, start);
        } else {
            reasons.truncate(start);
        }
        explained
    }

    /// An overfilled or unreachable bin, capacities that cannot hold the total weight, or a load
    /// left no value.
    fn explain_failure(&self, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        let start = reasons.len();
        let explained = self.explain_infeasible(ctx, reasons);
        if explained {
            dedup_reasons(reasons, start);
        } else {
            reasons.truncate(start);
        }
        explained
    }

    fn subscribe(&self, _position: usize) -> EventSet {
        // An item's bins by any removal (a bin lost changes its possible weight); a variable may
        // be both an item's bin and a load, so the loads subscribe alike.
        EventSet::ANY
    }
}

/// `x` within `i32`, for a literal (a bound beyond the range holds of every value or of none).
fn clamp(x: i64) -> i32 {
    x.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
}

/// Explanations (lazy clause generation), each from the domains of the moment it is asked about,
/// in the terms of Shaw's rules: the items committed to a bin (`binₖ = b`), the items that can no
/// longer go there (`binₖ ≠ b`), and the loads' bounds. Where a rule has slack, the lightest items
/// are left out of the reason while the rest still suffices.
impl BinPacking {
    fn item(&self, k: usize) -> VarId {
        self.args.var(k)
    }

    fn load(&self, b: usize) -> VarId {
        self.args.var(self.n() + b)
    }

    /// The value naming bin `b`.
    fn bin_value(&self, b: usize) -> i32 {
        self.first + b as i32
    }

    /// Cites items committed to bin `b` (but `except`), heaviest first, until their weight
    /// reaches `need`; returns that weight, or `None` (citing nothing) when the committed items
    /// do not reach it.
    fn cite_committed(
        &self,
        b: usize,
        except: Option<usize>,
        need: i64,
        ctx: &ExplainCtx<'_>,
        reasons: &mut Vec<Literal>,
    ) -> Option<i64> {
        let value = self.bin_value(b);
        let mut committed: Vec<usize> = (0..self.n())
            .filter(|&k| Some(k) != except && ctx.bounds(self.item(k)) == (value, value))
            .collect();
        committed.sort_unstable_by_key(|&k| std::cmp::Reverse(self.weights[k]));
        let mut sum = 0;
        let mut cited = 0;
        for &k in &committed {
            if sum >= need {
                break;
            }
            sum += self.weights[k];
            cited += 1;
        }
        if sum < need {
            return None;
        }
        reasons.extend(
            committed[..cited]
                .iter()
                .map(|&k| Literal::eq(self.item(k), value)),
        );
        Some(sum)
    }

    /// Cites items (but `except`) that can no longer go into bin `b`, enough that the items that
    /// still may (with those left uncited) weigh at most `bound`; returns that weight, or `None`
    /// (citing nothing) when even the items that may weigh more.
    fn cite_excluded(
        &self,
        b: usize,
        except: Option<usize>,
        bound: i64,
        ctx: &ExplainCtx<'_>,
        reasons: &mut Vec<Literal>,
    ) -> Option<i64> {
        let value = self.bin_value(b);
        let (mut possible, mut excluded) = (0i64, Vec::new());
        for k in (0..self.n()).filter(|&k| Some(k) != except && self.weights[k] > 0) {
            if ctx.contains(self.item(k), value) {
                possible += self.weights[k];
            } else {
                excluded.push(k);
            }
        }
        if possible > bound {
            return None;
        }
        // The lightest exclusions are spared while the slack covers them.
        excluded.sort_unstable_by_key(|&k| self.weights[k]);
        for k in excluded {
            if possible + self.weights[k] <= bound {
                possible += self.weights[k];
            } else {
                reasons.push(Literal::ne(self.item(k), value));
            }
        }
        Some(possible)
    }

    /// Why bin `b`'s load is at least `v`: the items committed to it, or the total weight less
    /// the other loads' largest values.
    fn load_at_least(
        &self,
        b: usize,
        v: i64,
        ctx: &ExplainCtx<'_>,
        reasons: &mut Vec<Literal>,
    ) -> bool {
        if self.cite_committed(b, None, v, ctx, reasons).is_some() {
            return true;
        }
        let total: i64 = self.weights.iter().sum();
        let others: i64 = (0..self.m)
            .filter(|&c| c != b)
            .map(|c| i64::from(ctx.bounds(self.load(c)).1))
            .sum();
        if total - others < v {
            return false;
        }
        for c in (0..self.m).filter(|&c| c != b) {
            let load = self.load(c);
            reasons.push(Literal::le(load, ctx.bounds(load).1));
        }
        true
    }

    /// Why bin `b`'s load is at most `v`: the items that can no longer go there, or the total
    /// weight less the other loads' least values.
    fn load_at_most(
        &self,
        b: usize,
        v: i64,
        ctx: &ExplainCtx<'_>,
        reasons: &mut Vec<Literal>,
    ) -> bool {
        if self.cite_excluded(b, None, v, ctx, reasons).is_some() {
            return true;
        }
        let total: i64 = self.weights.iter().sum();
        let others: i64 = (0..self.m)
            .filter(|&c| c != b)
            .map(|c| i64::from(ctx.bounds(self.load(c)).0))
            .sum();
        if total - others > v {
            return false;
        }
        for c in (0..self.m).filter(|&c| c != b) {
            let load = self.load(c);
            reasons.push(Literal::ge(load, ctx.bounds(load).0));
        }
        true
    }

    /// Why item `i` cannot go into bin `b`: the items committed there leave it no room (below
    /// the load's largest value or the capacity), or another bin needs it to reach its least
    /// load, or the bins cannot be filled at all.
    fn item_not_in(
        &self,
        i: usize,
        b: usize,
        ctx: &ExplainCtx<'_>,
        reasons: &mut Vec<Literal>,
    ) -> bool {
        let w = self.weights[i];
        match &self.bins {
            Bins::Loads => {
                let load = self.load(b);
                let most = i64::from(ctx.bounds(load).1);
                if let Some(sum) = self.cite_committed(b, Some(i), most - w + 1, ctx, reasons) {
                    reasons.push(Literal::le(load, clamp(sum + w - 1)));
                    return true;
                }
                if w > 0
                    && (0..self.m)
                        .filter(|&c| c != b)
                        .any(|c| self.needs(i, c, ctx, reasons))
                {
                    return true;
                }
            }
            Bins::Capacities(capacities) => {
                if self
                    .cite_committed(b, Some(i), capacities[b] - w + 1, ctx, reasons)
                    .is_some()
                {
                    return true;
                }
            }
        }
        self.explain_infeasible(ctx, reasons)
    }

    /// Whether bin `c` cannot reach its least load without item `i` (citing why: the items that
    /// can no longer go there, and the load's least value that they miss).
    fn needs(&self, i: usize, c: usize, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        let load = self.load(c);
        let least = i64::from(ctx.bounds(load).0);
        match self.cite_excluded(c, Some(i), least - 1, ctx, reasons) {
            Some(possible) => {
                reasons.push(Literal::ge(load, clamp(possible + 1)));
                true
            }
            None => false,
        }
    }

    /// Why the propagator made `literal` true: for an item, why each bin it lost was
    /// impossible (a value naming no bin needs no reason; a fixing to a bin that needs the
    /// item is explained by that bin alone); for a load, the bound's rule.
    fn explain_change(
        &self,
        literal: Literal,
        ctx: &ExplainCtx<'_>,
        reasons: &mut Vec<Literal>,
    ) -> bool {
        let var = literal.var;
        let start = reasons.len();
        if matches!(self.bins, Bins::Loads) {
            for b in (0..self.m).filter(|&b| self.load(b) == var) {
                if self.explain_load(b, literal, ctx, reasons) {
                    return true;
                }
                reasons.truncate(start);
            }
        }
        for i in (0..self.n()).filter(|&i| self.item(i) == var) {
            if self.explain_item(i, literal, ctx, reasons) {
                return true;
            }
            reasons.truncate(start);
        }
        false
    }

    /// [`BinPacking::explain_change`] for item `i`.
    fn explain_item(
        &self,
        i: usize,
        literal: Literal,
        ctx: &ExplainCtx<'_>,
        reasons: &mut Vec<Literal>,
    ) -> bool {
        let var = self.item(i);
        let (lo, hi) = ctx.bounds(var);
        // The bins the literal takes away (values naming no bin need no reason).
        let lost: Vec<usize> = (0..self.m)
            .filter(|&b| {
                let value = self.bin_value(b);
                (lo..=hi).contains(&value) && ctx.contains(var, value) && !literal.holds_for(value)
            })
            .collect();
        // A fixing to a bin that needs the item: that bin's reason covers every bin lost.
        let kept: Vec<usize> = (0..self.m)
            .filter(|&b| {
                let value = self.bin_value(b);
                literal.holds_for(value) && ctx.contains(var, value)
            })
            .collect();
        if let [c] = kept[..]
            && matches!(self.bins, Bins::Loads)
            && self.weights[i] > 0
            && lost.len() > 1
        {
            let start = reasons.len();
            if self.needs(i, c, ctx, reasons) {
                return true;
            }
            reasons.truncate(start);
        }
        lost.into_iter()
            .all(|b| self.item_not_in(i, b, ctx, reasons))
    }

    /// [`BinPacking::explain_change`] for bin `b`'s load.
    fn explain_load(
        &self,
        b: usize,
        literal: Literal,
        ctx: &ExplainCtx<'_>,
        reasons: &mut Vec<Literal>,
    ) -> bool {
        let var = literal.var;
        let (lb, ub) = ctx.bounds(var);
        let v = i64::from(literal.value);
        // A bound lands on the nearest value left; the values passed were holes already.
        let (mut from_below, mut from_above) = (v, v);
        if ctx.has_holes(var) {
            while from_below > i64::from(lb) && !ctx.contains(var, clamp(from_below - 1)) {
                from_below -= 1;
            }
            while from_above < i64::from(ub) && !ctx.contains(var, clamp(from_above + 1)) {
                from_above += 1;
            }
        }
        match literal.relation {
            LiteralRelation::Ge => self.load_at_least(b, from_below, ctx, reasons),
            LiteralRelation::Le => self.load_at_most(b, from_above, ctx, reasons),
            LiteralRelation::Eq => {
                let lower = if i64::from(lb) < v {
                    self.load_at_least(b, from_below, ctx, reasons)
                } else {
                    reasons.push(Literal::ge(var, lb));
                    true
                };
                lower
                    && if i64::from(ub) > v {
                        self.load_at_most(b, from_above, ctx, reasons)
                    } else {
                        reasons.push(Literal::le(var, ub));
                        true
                    }
            }
            LiteralRelation::Ne => {
                // Forward checking's removal, the items placed: the load they make differs.
                let start = reasons.len();
                if self.load_at_least(b, v + 1, ctx, reasons) {
                    return true;
                }
                reasons.truncate(start);
                if self.load_at_most(b, v - 1, ctx, reasons) {
                    return true;
                }
                reasons.truncate(start);
                self.explain_infeasible(ctx, reasons)
            }
        }
    }

    /// Why the domains at the failure admit no packing: an item naming no bin; a bin whose
    /// committed items exceed its largest load or capacity; a bin that cannot reach its least
    /// load; bins whose capacities (or the weight that may still go there) cannot hold the total
    /// weight; or a load with no value left between the bounds the rules give it (their reasons
    /// and the holes between).
    fn explain_infeasible(&self, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        let start = reasons.len();
        let (first, last) = (
            i64::from(self.first),
            i64::from(self.first) + self.m as i64 - 1,
        );
        for i in 0..self.n() {
            let var = self.item(i);
            let (lo, hi) = ctx.bounds(var);
            let (lo, hi) = (i64::from(lo).max(first), i64::from(hi).min(last));
            if lo > hi || hi - lo < 64 && (lo..=hi).all(|v| !ctx.contains(var, v as i32)) {
                let (lo, hi) = ctx.bounds(var);
                reasons.extend([Literal::ge(var, lo), Literal::le(var, hi)]);
                reasons.extend(
                    (i64::from(lo).max(first)..=i64::from(hi).min(last))
                        .map(|v| Literal::ne(var, v as i32)),
                );
                return true;
            }
        }
        for b in 0..self.m {
            let most = match &self.bins {
                Bins::Loads => i64::from(ctx.bounds(self.load(b)).1),
                Bins::Capacities(c) => c[b],
            };
            if let Some(sum) = self.cite_committed(b, None, most + 1, ctx, reasons) {
                if matches!(self.bins, Bins::Loads) {
                    reasons.push(Literal::le(self.load(b), clamp(sum - 1)));
                }
                return true;
            }
        }
        let total: i64 = self.weights.iter().sum();
        match &self.bins {
            Bins::Capacities(c) => {
                let possible = |b: usize| -> i64 {
                    (0..self.n())
                        .filter(|&k| ctx.contains(self.item(k), self.bin_value(b)))
                        .map(|k| self.weights[k])
                        .sum()
                };
                let room: i64 = (0..self.m).map(|b| c[b].min(possible(b)).max(0)).sum();
                if room >= total {
                    return false;
                }
                for (b, &capacity) in c.iter().enumerate() {
                    // Where the weight that may still go is below the capacity, the items
                    // that cannot go there are why.
                    let p = possible(b);
                    if p < capacity {
                        self.cite_excluded(b, None, p, ctx, reasons);
                    }
                }
                true
            }
            Bins::Loads => {
                for b in 0..self.m {
                    if self.load_gap(b, total, ctx, reasons) {
                        return true;
                    }
                    reasons.truncate(start);
                }
                false
            }
        }
    }

    /// Whether bin `b`'s load has no value left between the least and largest loads the rules
    /// give it (committed items or the other loads' largest values; the items that may still go
    /// there or the other loads' least values), citing their reasons and the holes between.
    fn load_gap(
        &self,
        b: usize,
        total: i64,
        ctx: &ExplainCtx<'_>,
        reasons: &mut Vec<Literal>,
    ) -> bool {
        let value = self.bin_value(b);
        let (mut committed, mut possible) = (0i64, 0i64);
        for k in 0..self.n() {
            let var = self.item(k);
            if ctx.bounds(var) == (value, value) {
                committed += self.weights[k];
            }
            if ctx.contains(var, value) {
                possible += self.weights[k];
            }
        }
        let (sum_lo, sum_hi) = (0..self.m).fold((0i64, 0i64), |(lo, hi), c| {
            let (l, h) = ctx.bounds(self.load(c));
            (lo + i64::from(l), hi + i64::from(h))
        });
        let load = self.load(b);
        let (lb, ub) = ctx.bounds(load);
        let (lb, ub) = (i64::from(lb), i64::from(ub));
        let least = committed.max(total - (sum_hi - ub));
        let most = possible.min(total - (sum_lo - lb));
        let (from, to) = (least.max(lb), most.min(ub));
        if to - from > i64::from(u16::MAX) || (from..=to).any(|v| ctx.contains(load, clamp(v))) {
            return false;
        }
        if least > lb {
            if !self.load_at_least(b, least, ctx, reasons) {
                return false;
            }
        } else {
            reasons.push(Literal::ge(load, clamp(lb)));
        }
        if most < ub {
            if !self.load_at_most(b, most, ctx, reasons) {
                return false;
            }
        } else {
            reasons.push(Literal::le(load, clamp(ub)));
        }
        reasons.extend((from..=to).map(|v| Literal::ne(load, clamp(v))));
        true
    }
}

/// Explanations (lazy clause generation) of the sweep, from the domains of the moment asked
/// about: a bound of a rectangle's origin moved because every origin it passed lies, across the
/// other axis's bounds, in the boxes the other rectangles' compulsory parts forbid (a 2-D
/// time-table); each box is cited by the bounds that make it, lifted to the part of it the
/// passed origins need (Schutt et al.'s lifting of time-table reasons, *Explaining the
/// cumulative propagator*, 2011, applied to both axes).
impl Diffn {
    /// The argument holding coordinate `axis` (0: x, 1: y) of rectangle `i`, or its size along
    /// that axis (`size`).
    fn arg(&self, axis: usize, size: bool, i: usize) -> VarId {
        self.args.var((2 * usize::from(size) + axis) * self.n + i)
    }

    /// [`Diffn::forbidden`] from the domains of `ctx`'s moment.
    fn forbidden_then(&self, ctx: &ExplainCtx<'_>, i: usize, j: usize) -> Option<Region> {
        let lb = |v: VarId| i64::from(ctx.bounds(v).0);
        let ub = |v: VarId| i64::from(ctx.bounds(v).1);
        if !self.strict && self.sizes(i, j).iter().any(|&v| ctx.contains(v, 0)) {
            return None;
        }
        let region = Region {
            xa: ub(self.arg(0, false, j)) - lb(self.arg(0, true, i)) + 1,
            xb: lb(self.arg(0, false, j)) + lb(self.arg(0, true, j)) - 1,
            ya: ub(self.arg(1, false, j)) - lb(self.arg(1, true, i)) + 1,
            yb: lb(self.arg(1, false, j)) + lb(self.arg(1, true, j)) - 1,
        };
        (region.xa <= region.xb && region.ya <= region.yb).then_some(region)
    }

    /// The four sizes of rectangles `i` and `j`.
    fn sizes(&self, i: usize, j: usize) -> [VarId; 4] {
        [
            self.arg(0, true, i),
            self.arg(1, true, i),
            self.arg(0, true, j),
            self.arg(1, true, j),
        ]
    }

    /// Cites why rectangle `i`'s origin may not lie in `part` (a part of the box rectangle `j`
    /// forbids): `j`'s coordinates and the least sizes, each coordinate bound lifted to the
    /// weakest that still forbids all of `part`; in the non-strict form, that no size is zero.
    fn cite_box(
        &self,
        ctx: &ExplainCtx<'_>,
        i: usize,
        j: usize,
        part: Region,
        reasons: &mut Vec<Literal>,
    ) {
        let lb = |v: VarId| i64::from(ctx.bounds(v).0);
        for (axis, (from, to)) in [(0, (part.xa, part.xb)), (1, (part.ya, part.yb))] {
            let (own, other) = (self.arg(axis, true, i), self.arg(axis, true, j));
            let at = self.arg(axis, false, j);
            // `i` overlaps `j` along the axis from any origin in `from..=to` as long as
            // `at − dᵢ < from` and `to < at + dⱼ`.
            reasons.push(Literal::le(at, clamp(from + lb(own) - 1)));
            reasons.push(Literal::ge(at, clamp(to - lb(other) + 1)));
            reasons.push(Literal::ge(own, clamp(lb(own))));
            reasons.push(Literal::ge(other, clamp(lb(other))));
        }
        if !self.strict {
            reasons.extend(self.sizes(i, j).iter().map(|&v| Literal::ne(v, 0)));
        }
    }

    /// Whether every origin of rectangle `i` with its coordinate `axis` in `from..=to` and the
    /// other coordinate between its bounds is forbidden, citing the other coordinate's bounds
    /// and the boxes that meet that area; false, citing nothing, when some origin is free.
    fn covered(
        &self,
        ctx: &ExplainCtx<'_>,
        i: usize,
        axis: usize,
        (from, to): (i64, i64),
        reasons: &mut Vec<Literal>,
    ) -> bool {
        if from > to {
            return true;
        }
        let across = self.arg(1 - axis, false, i);
        let (a_lo, a_hi) = ctx.bounds(across);
        let (a_lo, a_hi) = (i64::from(a_lo), i64::from(a_hi));
        let boxes: Vec<(usize, Region)> = (0..self.n)
            .filter(|&j| j != i)
            .filter_map(|j| self.forbidden_then(ctx, i, j).map(|r| (j, r)))
            .collect();
        let oriented: Vec<Region> = boxes
            .iter()
            .map(|&(_, r)| if axis == 0 { r } else { r.transposed() })
            .collect();
        if least_free(from, to, a_lo, a_hi, &oriented).is_some() {
            return false;
        }
        self.cite_cover(ctx, i, axis, (from, to), &boxes, reasons);
        true
    }

    /// Cites the other coordinate's bounds and the boxes meeting the area `from..=to` (along
    /// `axis`) × the other coordinate's bounds, each clipped to it.
    fn cite_cover(
        &self,
        ctx: &ExplainCtx<'_>,
        i: usize,
        axis: usize,
        (from, to): (i64, i64),
        boxes: &[(usize, Region)],
        reasons: &mut Vec<Literal>,
    ) {
        let across = self.arg(1 - axis, false, i);
        let (a_lo, a_hi) = ctx.bounds(across);
        reasons.push(Literal::ge(across, a_lo));
        reasons.push(Literal::le(across, a_hi));
        let (a_lo, a_hi) = (i64::from(a_lo), i64::from(a_hi));
        let area = if axis == 0 {
            Region {
                xa: from,
                xb: to,
                ya: a_lo,
                yb: a_hi,
            }
        } else {
            Region {
                xa: a_lo,
                xb: a_hi,
                ya: from,
                yb: to,
            }
        };
        for &(j, r) in boxes {
            let part = Region {
                xa: r.xa.max(area.xa),
                xb: r.xb.min(area.xb),
                ya: r.ya.max(area.ya),
                yb: r.yb.min(area.yb),
            };
            if part.xa <= part.xb && part.ya <= part.yb {
                self.cite_box(ctx, i, j, part, reasons);
            }
        }
    }

    /// Why the propagator made `literal` true: for a bound of an origin's coordinate, the
    /// boxes covering the origins it passed ([`Diffn::covered`]); for a removal (forward
    /// checking, the rest fixed), the rectangle the removed value would overlap.
    fn explain_change(
        &self,
        literal: Literal,
        ctx: &ExplainCtx<'_>,
        reasons: &mut Vec<Literal>,
    ) -> bool {
        let var = literal.var;
        if literal.relation == LiteralRelation::Ne {
            return self.pair_reason(ctx, Some((var, literal.value)), reasons);
        }
        let (lb, ub) = ctx.bounds(var);
        let v = i64::from(literal.value);
        let (lower, upper) = match literal.relation {
            LiteralRelation::Ge => (true, false),
            LiteralRelation::Le => (false, true),
            _ => (i64::from(lb) < v, i64::from(ub) > v),
        };
        // A bound lands on the nearest value left; the values passed were holes already.
        let (mut from_below, mut from_above) = (v, v);
        if ctx.has_holes(var) {
            while from_below > i64::from(lb) && !ctx.contains(var, clamp(from_below - 1)) {
                from_below -= 1;
            }
            while from_above < i64::from(ub) && !ctx.contains(var, clamp(from_above + 1)) {
                from_above += 1;
            }
        }
        let start = reasons.len();
        for i in 0..self.n {
            for axis in 0..2 {
                if self.arg(axis, false, i) != var {
                    continue;
                }
                let (lb, ub) = (i64::from(lb), i64::from(ub));
                let explained = (!lower
                    || self.covered(ctx, i, axis, (lb, from_below - 1), reasons))
                    && (!upper || self.covered(ctx, i, axis, (from_above + 1, ub), reasons));
                if explained {
                    // The bound the sweep started from on the side it moved, and for a fixing
                    // the other side's too.
                    let fixing = literal.relation == LiteralRelation::Eq;
                    if lower || fixing {
                        reasons.push(Literal::ge(var, clamp(lb)));
                    }
                    if upper || fixing {
                        reasons.push(Literal::le(var, clamp(ub)));
                    }
                    return true;
                }
                reasons.truncate(start);
            }
        }
        false
    }

    /// Why no placement is left: a rectangle none of whose origins (within its bounds, but
    /// for values its domain had lost) is free of the boxes, or two placed rectangles that
    /// overlap.
    fn explain_overlap(&self, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        let start = reasons.len();
        for i in 0..self.n {
            let boxes: Vec<(usize, Region)> = (0..self.n)
                .filter(|&j| j != i)
                .filter_map(|j| self.forbidden_then(ctx, i, j).map(|r| (j, r)))
                .collect();
            if boxes.is_empty() {
                continue;
            }
            for axis in 0..2 {
                let along = self.arg(axis, false, i);
                let across = self.arg(1 - axis, false, i);
                let (lo, hi) = ctx.bounds(along);
                let (lo, hi) = (i64::from(lo), i64::from(hi));
                let (a_lo, a_hi) = ctx.bounds(across);
                let oriented: Vec<Region> = boxes
                    .iter()
                    .map(|&(_, r)| if axis == 0 { r } else { r.transposed() })
                    .collect();
                // The free values along the axis must all be holes.
                let mut holes = Vec::new();
                let mut x = lo;
                let failed = loop {
                    match least_free(x, hi, i64::from(a_lo), i64::from(a_hi), &oriented) {
                        None => break true,
                        Some(free) if holes.len() < 64 && !ctx.contains(along, clamp(free)) => {
                            holes.push(Literal::ne(along, clamp(free)));
                            x = free + 1;
                        }
                        Some(_) => break false,
                    }
                };
                if failed {
                    reasons.push(Literal::ge(along, clamp(lo)));
                    reasons.push(Literal::le(along, clamp(hi)));
                    reasons.extend(holes);
                    self.cite_cover(ctx, i, axis, (lo, hi), &boxes, reasons);
                    return true;
                }
            }
        }
        reasons.truncate(start);
        self.pair_reason(ctx, None, reasons)
    }

    /// Two rectangles whose variables are all fixed (but `var`, taken at `value`) and overlap:
    /// their values. Forward checking's removals and failures, which the checker finds.
    fn pair_reason(
        &self,
        ctx: &ExplainCtx<'_>,
        removed: Option<(VarId, i32)>,
        reasons: &mut Vec<Literal>,
    ) -> bool {
        let value_of = |v: VarId| match removed {
            Some((var, value)) if var == v => Some(value),
            _ => {
                let (lo, hi) = ctx.bounds(v);
                (lo == hi).then_some(lo)
            }
        };
        let vars = |i: usize| [0, 1].map(|axis| [false, true].map(|size| self.arg(axis, size, i)));
        let mut values = vec![0; self.args.scope.len()];
        for i in 0..self.n {
            for j in i + 1..self.n {
                let both: Vec<VarId> = [vars(i), vars(j)].into_iter().flatten().flatten().collect();
                if removed.is_some_and(|(var, _)| !both.contains(&var)) {
                    continue;
                }
                let Some(fixed) = both
                    .iter()
                    .map(|&v| value_of(v))
                    .collect::<Option<Vec<i32>>>()
                else {
                    continue;
                };
                for (&v, &x) in both.iter().zip(&fixed) {
                    let slot = self
                        .args
                        .scope
                        .iter()
                        .position(|&s| s == v)
                        .expect("in scope");
                    values[slot] = x;
                }
                if self.overlap(&values, i, j) {
                    reasons.extend(
                        both.iter()
                            .zip(&fixed)
                            .filter(|&(&v, _)| removed.is_none_or(|(var, _)| var != v))
                            .map(|(&v, &x)| Literal::eq(v, x)),
                    );
                    return true;
                }
            }
        }
        false
    }
}
