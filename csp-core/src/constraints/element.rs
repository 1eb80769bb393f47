use crate::Domains;
use smallvec::SmallVec;

use crate::{
    Constraint, DomainView, ModelError, PropagationCtx, Propagator, VarId, Wipeout,
    constraints::{
        set::push_domains,
        util::{Args, LIST_BUDGET, dedup_reasons, invalid, retain_values, retain_values_where},
    },
    revision::Priority,
};

/// The array position `index` names, if it names one: `index − first` within `0..len`.
fn position(index: i32, first: i32, len: usize) -> Option<usize> {
    usize::try_from(i64::from(index) - i64::from(first))
        .ok()
        .filter(|&k| k < len)
}

/// The index values that name a position of an array of `len` elements.
fn index_range(first: i32, len: usize) -> (i64, i64) {
    (i64::from(first), i64::from(first) + len as i64 - 1)
}

/// `array[index] = result` for a constant array: FlatZinc's `array_int_element(b, as, c)` and
/// `array_bool_element` (with 0/1 values), whose arrays are indexed from 1.
///
/// Consistency: domain consistent on both variables: the index keeps the positions whose element the
/// result can take, the result the elements of the positions the index can take (while the result's
/// domain holds at most 2¹⁶ values; beyond that, its bounds).
#[derive(Debug, Clone)]
pub struct Element {
    /// `[index, result]`, which may be one variable.
    args: Args,
    array: Vec<i32>,
    /// The index of the array's first element.
    first: i32,
}

impl Element {
    /// `array[index] = result`, the array's first element at index `first` (FlatZinc: 1). The array
    /// must not be empty.
    pub fn new(
        index: VarId,
        array: Vec<i32>,
        result: VarId,
        first: i32,
    ) -> Result<Self, ModelError> {
        if array.is_empty() {
            return Err(invalid("element", "the array is empty"));
        }
        Ok(Element {
            args: Args::new([index, result]),
            array,
            first,
        })
    }

    fn index(&self) -> VarId {
        self.args.var(0)
    }

    fn result(&self) -> VarId {
        self.args.var(1)
    }
}

impl Constraint for Element {
    fn scope(&self) -> &[VarId] {
        &self.args.scope
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let (index, result) = (self.args.value(values, 0), self.args.value(values, 1));
        position(index, self.first, self.array.len()).is_some_and(|k| self.array[k] == result)
    }
}

impl Propagator for Element {
    /// Every pair `(i, array[i])` that gave a value the change took is gone: an index value
    /// rests on its element missing from the result (`result ≠ array[i]`), a result value on every
    /// index that names it missing (`index ≠ i`). A bound also rests on the variable's bound
    /// before it, so that the values beyond that bound need no pair of their own.
    fn explain(
        &self,
        literal: crate::Literal,
        ctx: &crate::ExplainCtx<'_>,
        reasons: &mut Vec<crate::Literal>,
    ) -> bool {
        use crate::Literal;
        let (index, result) = (self.index(), self.result());
        let x = literal.var;
        let (lo, hi) = ctx.bounds(x);
        // One variable in both places: its values whose element is not themselves go by the
        // constraint alone.
        if index == result {
            ctx.push_own_bounds(literal, reasons);
            return true;
        }
        // Too many values to walk: the learner's default.
        let width = i64::from(hi) - i64::from(lo) + 1;
        let last_index = i64::from(self.first) + self.array.len() as i64 - 1;
        if last_index > i64::from(i32::MAX)
            || width.saturating_mul(self.array.len() as i64) > 1 << 20
        {
            return false;
        }
        let start = reasons.len();
        ctx.push_own_bounds(literal, reasons);
        let other = if x == index { result } else { index };
        let other_bounds = ctx.bounds(other);
        let mut gone: SmallVec<[i32; 4]> = SmallVec::new();
        for w in lo..=hi {
            if literal.holds_for(w) || !ctx.contains_within(x, w, (lo, hi)) {
                continue;
            }
            gone.clear();
            if x == index {
                gone.extend(position(w, self.first, self.array.len()).map(|k| self.array[k]));
            } else {
                gone.extend(
                    (0..self.array.len())
                        .filter(|&k| self.array[k] == w)
                        .map(|k| (i64::from(self.first) + k as i64) as i32),
                );
            }
            for &u in &gone {
                // The pair must be gone already; if not, the change came from elsewhere.
                if ctx.contains_within(other, u, other_bounds) {
                    reasons.truncate(start);
                    return false;
                }
                reasons.push(Literal::ne(other, u));
            }
        }
        dedup_reasons(reasons, start);
        true
    }

    /// No pair `(i, array[i])` is left: each is killed by `result ≠ array[i]` where the result
    /// lacks that element (one literal kills every position holding it), else by the index
    /// lacking `i`: `index ≠ i` inside its bounds, and one lifted bound for those beyond them.
    fn explain_failure(
        &self,
        ctx: &crate::ExplainCtx<'_>,
        reasons: &mut Vec<crate::Literal>,
    ) -> bool {
        use crate::Literal;
        let (index, result) = (self.index(), self.result());
        if index == result {
            return push_domains(&[index], ctx, reasons);
        }
        let start = reasons.len();
        let (lo, hi) = ctx.bounds(index);
        let result_bounds = ctx.bounds(result);
        let (mut below, mut above) = (None::<i32>, None::<i32>);
        for (k, &v) in self.array.iter().enumerate() {
            let Ok(i) = i32::try_from(i64::from(self.first) + k as i64) else {
                continue;
            };
            if !ctx.contains_within(result, v, result_bounds) {
                reasons.push(Literal::ne(result, v));
            } else if i < lo {
                below = below.max(Some(i));
            } else if i > hi {
                above = Some(above.map_or(i, |a| a.min(i)));
            } else if !ctx.contains_within(index, i, (lo, hi)) {
                reasons.push(Literal::ne(index, i));
            } else {
                // A pair still alive: not this constraint's failure alone.
                reasons.truncate(start);
                return push_domains(&self.args.scope, ctx, reasons);
            }
        }
        reasons.extend(below.map(|m| Literal::ge(index, m + 1)));
        reasons.extend(above.map(|m| Literal::le(index, m - 1)));
        dedup_reasons(reasons, start);
        true
    }

    /// One pass is a fixpoint: an index value is kept only with its element in the result's domain,
    /// and a result value only with a position that names it, neither of which the other side's
    /// pruning removes.
    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        let (index, result) = (self.index(), self.result());
        let (lo, hi) = index_range(self.first, self.array.len());
        ctx.restrict_bounds(index, lo, hi)?;
        let element = |i: i32| self.array[position(i, self.first, self.array.len()).unwrap_or(0)];
        if index == result {
            retain_values(ctx, index, |i| element(i) == i)?;
            return Ok(());
        }
        retain_values_where(ctx, index, |ctx, i| ctx.domain(result).contains(element(i)))?;
        let mut supported: SmallVec<[i32; 64]> = ctx.domain(index).values().map(element).collect();
        supported.sort_unstable();
        supported.dedup();
        let (&min, &max) = (
            supported.first().ok_or(Wipeout)?,
            supported.last().ok_or(Wipeout)?,
        );
        ctx.restrict_bounds(result, i64::from(min), i64::from(max))?;
        retain_values(ctx, result, |v| supported.binary_search(&v).is_ok())?;
        Ok(())
    }

    fn priority(&self) -> Priority {
        Priority::Medium
    }
}

/// `array[index] = result` for an array of variables: FlatZinc's `array_var_int_element(b, as, c)`
/// and `array_var_bool_element`, indexed from 1.
///
/// Consistency: domain consistent when the index, the result and the array's variables are distinct
/// (generalised arc consistency, as in Gecode's element): the index keeps the positions whose
/// variable shares a value with the result; the result keeps the values some such variable can take;
/// once the index is fixed, that variable and the result are kept equal. A domain of more than 2¹⁶
/// values is compared by its bounds. With a variable repeated, the same reasoning is sound.
#[derive(Debug, Clone)]
pub struct VarElement {
    /// `[index, result, array…]`.
    args: Args,
    len: usize,
    first: i32,
}

impl VarElement {
    /// `array[index] = result`, the array's first element at index `first` (FlatZinc: 1). The array
    /// must not be empty; its variables may repeat, and may include the index or the result.
    pub fn new(
        index: VarId,
        array: Vec<VarId>,
        result: VarId,
        first: i32,
    ) -> Result<Self, ModelError> {
        if array.is_empty() {
            return Err(invalid("element", "the array is empty"));
        }
        let len = array.len();
        Ok(VarElement {
            args: Args::new([index, result].into_iter().chain(array)),
            len,
            first,
        })
    }

    fn element(&self, index: i32) -> Option<VarId> {
        position(index, self.first, self.len).map(|k| self.args.var(2 + k))
    }
}

/// Whether two domains share a value; by their bounds alone when both are too large to list.
fn meet(a: DomainView<'_>, b: DomainView<'_>) -> bool {
    if a.ub() < b.lb() || b.ub() < a.lb() {
        return false;
    }
    let (small, large) = if a.size() <= b.size() { (a, b) } else { (b, a) };
    if small.size() > LIST_BUDGET {
        return true;
    }
    small.values().any(|v| large.contains(v))
}

impl VarElement {
    /// Pushes why value `w` of `x` was gone, given how `x` takes part (see
    /// [`Propagator::explain`] for `VarElement`); false when it was not gone for this
    /// constraint's reasons.
    fn explain_value(
        &self,
        x: VarId,
        w: i32,
        ctx: &crate::ExplainCtx<'_>,
        reasons: &mut Vec<crate::Literal>,
    ) -> bool {
        use crate::Literal;
        let (index, result) = (self.args.var(0), self.args.var(1));
        // Pushes `var ≠ u`, which must hold then.
        let gone = |var: VarId, u: i32, reasons: &mut Vec<Literal>| {
            let held = !ctx.contains(var, u);
            if held {
                reasons.push(Literal::ne(var, u));
            }
            held
        };
        if x == index {
            // Position `w` names a variable that shares no value with the result (or none).
            let Some(y) = self.element(w) else {
                return true;
            };
            let ((a, b), (c, d)) = (ctx.bounds(y), ctx.bounds(result));
            let (lo, hi) = (a.max(c), b.min(d));
            if i64::from(hi) - i64::from(lo) > i64::from(EXPLAIN_WIDTH) {
                return false;
            }
            reasons.extend([
                Literal::ge(y, a),
                Literal::le(y, b),
                Literal::ge(result, c),
                Literal::le(result, d),
            ]);
            (lo..=hi).all(|u| gone(result, u, reasons) || gone(y, u, reasons))
        } else if x == result {
            // No position the index can name has a variable that can take `w`.
            let (a, b) = ctx.bounds(index);
            if i64::from(b) - i64::from(a) > i64::from(EXPLAIN_WIDTH) {
                return false;
            }
            reasons.extend([Literal::ge(index, a), Literal::le(index, b)]);
            (a..=b).all(|i| {
                gone(index, i, reasons) || self.element(i).is_none_or(|y| gone(y, w, reasons))
            })
        } else {
            // `x` is the variable of the fixed index, kept equal to the result.
            match ctx.bounds(index) {
                (i, j) if i == j && self.element(i) == Some(x) => {
                    reasons.push(Literal::eq(index, i));
                    gone(result, w, reasons)
                }
                _ => false,
            }
        }
    }
}

/// The widest range of values an explanation of [`VarElement`] walks; wider, the learner's
/// default explanation.
const EXPLAIN_WIDTH: i32 = 1 << 12;

impl Constraint for VarElement {
    fn scope(&self) -> &[VarId] {
        &self.args.scope
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let (index, result) = (self.args.value(values, 0), self.args.value(values, 1));
        position(index, self.first, self.len)
            .is_some_and(|k| self.args.value(values, 2 + k) == result)
    }
}

impl Propagator for VarElement {
    /// Each value the change took from its variable, explained by what the revision saw:
    /// - an index value `i`, by the bounds and missing values showing that the variable at `i`
    ///   and the result share no value;
    /// - a result value `w`, by the index values gone and, at each position left, `w` missing
    ///   from its variable;
    /// - a value of the variable at a fixed index, by the index's value and the value missing
    ///   from the result.
    ///
    /// A variable that appears twice among the index, the result and the array gets the
    /// learner's default explanation.
    fn explain(
        &self,
        literal: crate::Literal,
        ctx: &crate::ExplainCtx<'_>,
        reasons: &mut Vec<crate::Literal>,
    ) -> bool {
        if self.args.scope.len() != self.args.slots.len() {
            // A variable in two roles: the reasoning reads its own domain too.
            return push_domains(&self.args.scope, ctx, reasons);
        }
        let x = literal.var;
        let (lo, hi) = ctx.bounds(x);
        if i64::from(hi) - i64::from(lo) > i64::from(EXPLAIN_WIDTH) {
            return false;
        }
        let start = reasons.len();
        ctx.push_own_bounds(literal, reasons);
        for w in lo..=hi {
            if literal.holds_for(w) || !ctx.contains_within(x, w, (lo, hi)) {
                continue;
            }
            if !self.explain_value(x, w, ctx, reasons) {
                reasons.truncate(start);
                return false;
            }
        }
        dedup_reasons(reasons, start);
        true
    }

    /// No position the index can name holds a variable sharing a value with the result: the
    /// index's bounds and missing values, and for each index value left why its variable and
    /// the result are apart (as for the removal of that index value).
    fn explain_failure(
        &self,
        ctx: &crate::ExplainCtx<'_>,
        reasons: &mut Vec<crate::Literal>,
    ) -> bool {
        use crate::Literal;
        let index = self.args.var(0);
        let start = reasons.len();
        let (lo, hi) = ctx.bounds(index);
        let explained = self.args.scope.len() == self.args.slots.len()
            && i64::from(hi) - i64::from(lo) <= i64::from(EXPLAIN_WIDTH)
            && {
                reasons.extend([Literal::ge(index, lo), Literal::le(index, hi)]);
                (lo..=hi).all(|i| {
                    if ctx.contains_within(index, i, (lo, hi)) {
                        self.explain_value(index, i, ctx, reasons)
                    } else {
                        reasons.push(Literal::ne(index, i));
                        true
                    }
                })
            };
        if !explained {
            reasons.truncate(start);
            return push_domains(&self.args.scope, ctx, reasons);
        }
        dedup_reasons(reasons, start);
        true
    }

    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        let (index, result) = (self.args.var(0), self.args.var(1));
        let (lo, hi) = index_range(self.first, self.len);
        ctx.restrict_bounds(index, lo, hi)?;
        loop {
            // The index: positions whose variable can equal the result.
            let before = (ctx.size(index), ctx.size(result));
            let candidates: SmallVec<[i32; 64]> = ctx.domain(index).values().collect();
            for i in candidates {
                let x = self.element(i).ok_or(Wipeout)?;
                if !meet(ctx.domain(x), ctx.domain(result)) {
                    ctx.remove(index, i)?;
                }
            }
            // The result: values some candidate position's variable can take.
            let positions: SmallVec<[VarId; 64]> = ctx
                .domain(index)
                .values()
                .filter_map(|i| self.element(i))
                .collect();
            let lo = positions.iter().map(|&x| ctx.lb(x)).min().ok_or(Wipeout)?;
            let hi = positions.iter().map(|&x| ctx.ub(x)).max().ok_or(Wipeout)?;
            ctx.restrict_bounds(result, i64::from(lo), i64::from(hi))?;
            if positions.iter().all(|&x| ctx.size(x) <= LIST_BUDGET) {
                retain_values_where(ctx, result, |ctx, v| {
                    positions.iter().any(|&x| ctx.domain(x).contains(v))
                })?;
            }
            // A fixed index: its variable and the result are equal.
            if let Some(i) = ctx.fixed_value(index) {
                let x = self.element(i).ok_or(Wipeout)?;
                if x != result {
                    equalise(ctx, x, result)?;
                }
            }
            if (ctx.size(index), ctx.size(result)) == before {
                return Ok(());
            }
        }
    }

    fn priority(&self) -> Priority {
        Priority::Medium
    }
}

/// Keeps in each of `x` and `y` the values the other has (their bounds only, when a domain is too
/// large to list).
fn equalise(ctx: &mut PropagationCtx<'_>, x: VarId, y: VarId) -> Result<(), Wipeout> {
    let lo = ctx.lb(x).max(ctx.lb(y));
    let hi = ctx.ub(x).min(ctx.ub(y));
    ctx.restrict_bounds(x, i64::from(lo), i64::from(hi))?;
    ctx.restrict_bounds(y, i64::from(lo), i64::from(hi))?;
    if retain_values_where(ctx, x, |ctx, v| ctx.domain(y).contains(v))? {
        retain_values_where(ctx, y, |ctx, v| ctx.domain(x).contains(v))?;
    }
    Ok(())
}
