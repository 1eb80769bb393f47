//! Arithmetic on integer variables, as MiniZinc defines it: `x · y = z`, `x div y = z`,
//! `x mod y = z` (truncating; `y = 0` has no result), `|x| = z`, `x ^ y = z`, and the minimum or
//! maximum of an array.

use crate::Domains;
use smallvec::SmallVec;

use crate::{
    Constraint, Constructor, LiteralRelation, ModelError, PostCtx, PropagationCtx, Propagator,
    Slot, VarId, Wipeout,
    constraints::util::{
        Args, ceil_div, clamp_i64, floor_div, invalid, keep_flagged, retain_values,
    },
    revision::Priority,
};

/// The most tuples of the inputs' current values [`Arithmetic`] enumerates for domain consistency;
/// above it, interval reasoning takes over.
const ENUMERATION_BUDGET: u64 = 1 << 8;

/// The most values of `z` the enumeration walks to remove the values no tuple gives, or eight per
/// distinct result if that is more; a wider `z` is cut to the results' bounds only.
const HOLES_BUDGET: u64 = 1 << 8;

/// The values of [`Arithmetic`]'s `in_step` slot that name the fixed factor.
const X_FIXED: i64 = 1;
const Y_FIXED: i64 = 2;

/// An input's values, or the results, during enumeration: at most [`ENUMERATION_BUDGET`] of them,
/// kept on the stack.
type List = SmallVec<[i32; ENUMERATION_BUDGET as usize]>;

/// Which function an [`Arithmetic`] constraint computes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Function {
    Times,
    Div,
    Mod,
    Pow,
    Abs,
}

/// `z = f(x, y)` (or `z = |x|`) for MiniZinc's integer functions: FlatZinc's `int_times`, `int_div`,
/// `int_mod`, `int_pow` and `int_abs`. Division and remainder truncate towards zero, as MiniZinc
/// defines them (`x mod y = x − y · (x div y)`, so the remainder has the sign of `x`), and have no
/// result for `y = 0`; `x ^ y` for `y < 0` is `1 div x^|y|`, with no result for `x = 0`. All arithmetic
/// is done in 128 bits, so nothing overflows; a result beyond `i32` simply has no value to match.
///
/// Consistency:
/// - While the inputs' current domains hold at most 2⁸ tuples, domain consistent: the tuples are
///   enumerated, and each variable keeps the values of some tuple whose result `z` can take. `z`
///   keeps exactly the results while its domain holds at most 256 values or eight per distinct
///   result, and is cut to the results' bounds beyond (walking a wide domain per revision costs
///   more than the holes save; Gecode's `int_times` is bounds consistent throughout).
/// - Beyond that, interval reasoning to a fixpoint. `x · y = z` is bounds consistent over the reals
///   (each bound is cut to the hull of the other two's quotient or product, splitting divisors at
///   zero). `div` cuts `z` to the exact range of `x div y` over the inputs' bounds, `x` to the values
///   whose quotient can land in `z`, and `y` by the magnitudes and signs that allow it; with `y`
///   fixed this is bounds(Z) consistency on `x` and `z`. `mod` bounds `z` by `|y| − 1` and the sign
///   and size of `x`, and `y` by `|z| + 1`. `pow` is bounds(Z) consistent on `x` and `z` once `y` is
///   fixed (integer roots), and bounds `z` once `x` is fixed; `abs` is bounds(Z) consistent.
///
/// Once the inputs are fixed, the enumeration (one tuple) fixes the result, so the propagator is
/// checker-complete whatever the domains' sizes.
#[derive(Debug, Clone)]
pub struct Arithmetic {
    /// `[x, y, z]`, or `[x, z]` for `abs`.
    args: Args,
    function: Function,
    /// The one state slot of `x · y = z` over three distinct variables: 0, or [`X_FIXED`] or
    /// [`Y_FIXED`] when the last enumeration on this path left that factor fixed to some `k ≠ 0`
    /// and `z` holding exactly `k` times the other factor's values (see
    /// [`Arithmetic::times_in_step`]).
    in_step: Option<Slot<i64>>,
}

impl Arithmetic {
    fn binary(x: VarId, y: VarId, z: VarId, function: Function) -> Constructor<Self> {
        Self::laid_out(Args::new([x, y, z]), function)
    }

    fn laid_out(args: Args, function: Function) -> Constructor<Self> {
        Constructor::new(move |state: &mut PostCtx| {
            let in_step =
                (function == Function::Times && args.scope.len() == 3).then(|| state.slot());
            Ok(Arithmetic {
                args,
                function,
                in_step,
            })
        })
    }

    /// `x · y = z` (`int_times`).
    pub fn times(x: VarId, y: VarId, z: VarId) -> Constructor<Self> {
        Self::binary(x, y, z, Function::Times)
    }

    /// `x div y = z`, truncating (`int_div`).
    pub fn div(x: VarId, y: VarId, z: VarId) -> Constructor<Self> {
        Self::binary(x, y, z, Function::Div)
    }

    /// `x mod y = z`, the remainder of truncating division (`int_mod`).
    pub fn modulo(x: VarId, y: VarId, z: VarId) -> Constructor<Self> {
        Self::binary(x, y, z, Function::Mod)
    }

    /// `x ^ y = z` (`int_pow`; for `y < 0`, `1 div x^|y|`).
    pub fn pow(x: VarId, y: VarId, z: VarId) -> Constructor<Self> {
        Self::binary(x, y, z, Function::Pow)
    }

    /// `|x| = z` (`int_abs`).
    pub fn abs(x: VarId, z: VarId) -> Constructor<Self> {
        Self::laid_out(Args::new([x, z]), Function::Abs)
    }

    fn unary(&self) -> bool {
        self.function == Function::Abs
    }

    /// The argument position of `z`.
    fn output(&self) -> usize {
        if self.unary() { 1 } else { 2 }
    }

    /// `f(x, y)`, or `None` where it has no value.
    fn eval(&self, x: i64, y: i64) -> Option<i128> {
        let (x, y) = (i128::from(x), i128::from(y));
        match self.function {
            Function::Times => Some(x * y),
            Function::Div => (y != 0).then(|| x / y),
            Function::Mod => (y != 0).then(|| x % y),
            Function::Pow => pow(x, y),
            Function::Abs => Some(x.abs()),
        }
    }

    /// The number of input tuples of the current domains: the product of the distinct inputs'
    /// sizes (`x` alone when `y` is the same variable, or for `abs`).
    fn tuples(&self, ctx: &PropagationCtx<'_>) -> u64 {
        let x = self.args.slots[0];
        let size_x = ctx.size(self.args.scope[x]);
        match self.args.slots[..self.output()] {
            [_, y] if y != x => size_x.saturating_mul(ctx.size(self.args.scope[y])),
            _ => size_x,
        }
    }

    /// Domain consistency by enumerating the inputs' tuples (the scope's distinct variables, `z`
    /// among them only when it is also an input).
    ///
    /// Runs only while the tuples number at most [`ENUMERATION_BUDGET`], so every list below fits
    /// on the stack: a revision allocates nothing, where one vector per list, mark and result made
    /// allocation a quarter of a search's time on models full of small products.
    fn enumerate(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        // One copy of the loop per function, so that the tuple loop does not dispatch on it.
        // The inputs are `i32` values widened to `i64`, where products, quotients and remainders
        // cannot overflow; only `pow` saturates (in 128 bits), and a result beyond `i64` is beyond
        // every domain anyway.
        match self.function {
            Function::Times if self.has_in_step_cell() => {
                if let Some(done) = self.times_zero(ctx).or_else(|| self.times_in_step(ctx)) {
                    return done;
                }
                self.enumerate_with(ctx, |x, y| Some(x * y))?;
                self.note_in_step(ctx);
                Ok(())
            }
            Function::Times => self.enumerate_with(ctx, |x, y| Some(x * y)),
            Function::Div => self.enumerate_with(ctx, |x, y| (y != 0).then(|| x / y)),
            Function::Mod => self.enumerate_with(ctx, |x, y| (y != 0).then(|| x % y)),
            Function::Pow => self.enumerate_with(ctx, |x, y| {
                pow(i128::from(x), i128::from(y)).and_then(|r| i64::try_from(r).ok())
            }),
            Function::Abs => self.enumerate_with(ctx, |x, _| Some(x.abs())),
        }
    }

    /// [`Arithmetic::enumerate`] with `f` as [`Arithmetic::eval`] for this constraint's function.
    /// Kept out of line, so that the shortcuts before it do not pay for its arrays on the stack.
    #[inline(never)]
    fn enumerate_with(
        &self,
        ctx: &mut PropagationCtx<'_>,
        f: impl Fn(i64, i64) -> Option<i64>,
    ) -> Result<(), Wipeout> {
        if !self.unary() && self.args.scope.len() == 3 {
            self.enumerate_distinct(ctx, f)
        } else {
            self.enumerate_aliased(ctx, f)
        }
    }

    /// Whether the constraint keeps the `in_step` slot: `x · y = z` over three distinct
    /// variables.
    fn has_in_step_cell(&self) -> bool {
        self.in_step.is_some()
    }

    /// After an enumeration of `x · y = z`: records in the `in_step` slot whether one factor is fixed to
    /// some `k ≠ 0` and `z` holds exactly `k` times the other factor's values (the enumeration kept
    /// only values with support, and punched every hole of `z`).
    fn note_in_step(&self, ctx: &mut PropagationCtx<'_>) {
        let [x, y, z] = [0, 1, 2].map(|i| self.args.var(i));
        let side = if ctx.fixed_value(x).is_some_and(|k| k != 0) {
            X_FIXED
        } else if ctx.fixed_value(y).is_some_and(|k| k != 0) {
            Y_FIXED
        } else {
            0
        };
        let other = if side == X_FIXED { y } else { x };
        // `z` holds `k` times each of the other factor's values, one each: as many values.
        let in_step = side != 0 && ctx.size(z) == ctx.size(other);
        if let Some(slot) = self.in_step {
            ctx.set(slot, if in_step { side } else { 0 });
        }
    }

    /// The enumeration of `x · y = z` in O(1) when a factor is fixed to 0: every tuple gives 0, so
    /// if `z` holds 0 every value keeps its support and `z` is fixed to 0, and otherwise no tuple
    /// is left. `None` when no factor is fixed to 0.
    fn times_zero(&self, ctx: &mut PropagationCtx<'_>) -> Option<Result<(), Wipeout>> {
        let [x, y, z] = [0, 1, 2].map(|i| self.args.var(i));
        if ctx.fixed_value(x) != Some(0) && ctx.fixed_value(y) != Some(0) {
            return None;
        }
        if !ctx.domain(z).contains(0) {
            return Some(Err(Wipeout));
        }
        Some(ctx.restrict_bounds(z, 0, 0))
    }

    /// The enumeration of `x · y = z` in O(1), when the `in_step` slot says that, at some earlier point
    /// of this path, a factor was fixed to `k ≠ 0` and `z` held exactly `k` times the other
    /// factor's values `W`, and the domains have kept a shape that makes the enumeration's result
    /// a matter of bounds: the other factor's values now form an interval, and `z`'s values are all
    /// the multiples of `k` between its bounds (they are multiples of `k`, since `z` can only have
    /// lost values since). The tuples with a result in `z` are then the other factor's values in
    /// the interval of `z`'s quotients, so the enumeration would cut that factor to it and `z` to
    /// `k` times it, with no hole to punch; this makes the same two bound changes, in the same
    /// order, and leaves the two in step again. `None` when the shape does not hold: the caller
    /// enumerates.
    fn times_in_step(&self, ctx: &mut PropagationCtx<'_>) -> Option<Result<(), Wipeout>> {
        let side = self.in_step.map_or(0, |slot| ctx.get(slot));
        if side == 0 {
            return None;
        }
        let [x, y, z] = [0, 1, 2].map(|i| self.args.var(i));
        let (fixed, other) = if side == X_FIXED { (x, y) } else { (y, x) };
        let k = i64::from(ctx.fixed_value(fixed)?);
        let (lo, hi) = (i64::from(ctx.lb(other)), i64::from(ctx.ub(other)));
        if ctx.size(other) != (hi - lo + 1) as u64 {
            return None;
        }
        let (z_lo, z_hi) = (i64::from(ctx.lb(z)), i64::from(ctx.ub(z)));
        debug_assert!(z_lo % k == 0 && z_hi % k == 0, "z kept multiples of {k}");
        let (q_lo, q_hi) = ((z_lo / k).min(z_hi / k), (z_lo / k).max(z_hi / k));
        if ctx.size(z) != (q_hi - q_lo + 1) as u64 {
            return None;
        }
        let (lo, hi) = (lo.max(q_lo), hi.min(q_hi));
        if lo > hi {
            // No tuple: the enumeration fails on its first variable, before any change.
            return Some(Err(Wipeout));
        }
        // The fixed factor keeps its value; the other is cut first (both orders of the
        // enumeration's variables agree on that), then `z`.
        Some(
            ctx.restrict_bounds(other, lo, hi)
                .and_then(|()| ctx.restrict_bounds(z, (k * lo).min(k * hi), (k * lo).max(k * hi))),
        )
    }

    /// The enumeration of `z = f(x, y)` over three distinct variables: every constraint a model
    /// posts on its own variables. The same pruning as [`Arithmetic::enumerate_aliased`], in the
    /// same order (`x`'s values, then `y`'s, then `z`'s bounds and holes, each ascending), from
    /// plain arrays on the stack: the values' marks are bits, the results are sorted only when the
    /// tuples did not give them in order (a fixed positive factor does), and `z` is listed only
    /// when it has more values than there are results.
    #[inline(always)]
    fn enumerate_distinct(
        &self,
        ctx: &mut PropagationCtx<'_>,
        f: impl Fn(i64, i64) -> Option<i64>,
    ) -> Result<(), Wipeout> {
        const CAPACITY: usize = ENUMERATION_BUDGET as usize;
        debug_assert!(self.tuples(ctx) <= ENUMERATION_BUDGET);
        let [x, y, z] = [0, 1, 2].map(|i| self.args.var(i));
        if let Some(base) = window_base(ctx.domain(z)) {
            return self.enumerate_in_window(ctx, base, f);
        }
        let mut xs = [0i32; CAPACITY];
        let mut ys = [0i32; CAPACITY];
        let xs = list_into(ctx.domain(x), &mut xs);
        let ys = list_into(ctx.domain(y), &mut ys);
        let mut x_marks = [0u64; CAPACITY / 64];
        let mut y_marks = [0u64; CAPACITY / 64];
        let mut results = [0i32; CAPACITY];
        let mut count = 0;
        let mut sorted = true;
        let z_domain = ctx.domain(z);
        let (z_lo, z_hi) = (i64::from(z_domain.lb()), i64::from(z_domain.ub()));
        for (a, &xv) in xs.iter().enumerate() {
            for (b, &yv) in ys.iter().enumerate() {
                debug_assert_eq!(
                    f(i64::from(xv), i64::from(yv)),
                    self.eval(i64::from(xv), i64::from(yv))
                        .and_then(|r| i64::try_from(r).ok())
                );
                // Within z's bounds, which the domain's test would check first anyway.
                let Some(r) = f(i64::from(xv), i64::from(yv)).filter(|r| (z_lo..=z_hi).contains(r))
                else {
                    continue;
                };
                let r = r as i32;
                if z_domain.contains(r) {
                    x_marks[a / 64] |= 1 << (a % 64);
                    y_marks[b / 64] |= 1 << (b % 64);
                    sorted &= count == 0 || results[count - 1] <= r;
                    results[count] = r;
                    count += 1;
                }
            }
        }
        keep_marked(ctx, x, xs, &x_marks)?;
        keep_marked(ctx, y, ys, &y_marks)?;
        let results = &mut results[..count];
        if !sorted {
            results.sort_unstable();
        }
        let (&lo, &hi) = (
            results.first().ok_or(Wipeout)?,
            results.last().ok_or(Wipeout)?,
        );
        ctx.restrict_bounds(z, i64::from(lo), i64::from(hi))?;
        // The distinct results, for the holes budget below.
        let mut distinct = 1;
        for k in 1..count {
            if results[k] != results[distinct - 1] {
                results[distinct] = results[k];
                distinct += 1;
            }
        }
        let results = &results[..distinct];
        let holes_budget = HOLES_BUDGET.max(8 * distinct as u64);
        let size = ctx.size(z);
        // Every result is a value of `z`, so `z` has no hole to punch when it has no more values
        // than results: the commonest case once a first revision punched them.
        if size as usize > distinct && size <= holes_budget {
            // The values no tuple gives, found by one merge walk (both ascending), then removed
            // in that order.
            let mut doomed: SmallVec<[i32; 64]> = SmallVec::new();
            let mut next = 0;
            for v in ctx.domain(z).values() {
                // `v` lies within the results' bounds, so some result is at least `v`.
                while results[next] < v {
                    next += 1;
                }
                if results[next] != v {
                    doomed.push(v);
                }
            }
            for v in doomed {
                ctx.remove(z, v)?;
            }
        }
        Ok(())
    }

    /// [`Arithmetic::enumerate_distinct`] when `z`'s bounds fit in a window of [`WINDOW_WORDS`]
    /// words from `base` (see [`window_base`]): `z`'s values are read into bits once, each tuple's
    /// result is a bit test, and the results found are bits too, so they need no sorting, no
    /// removal of duplicates and no list; the holes to punch are `z`'s bits without a result, a word
    /// at a time. The same changes in the same order as the general path: `x`'s values, `y`'s,
    /// `z`'s bounds, then its holes ascending, under the same holes budget.
    #[inline(always)]
    fn enumerate_in_window(
        &self,
        ctx: &mut PropagationCtx<'_>,
        base: i32,
        f: impl Fn(i64, i64) -> Option<i64>,
    ) -> Result<(), Wipeout> {
        const CAPACITY: usize = ENUMERATION_BUDGET as usize;
        let [x, y, z] = [0, 1, 2].map(|i| self.args.var(i));
        let mut xs = [0i32; CAPACITY];
        let mut ys = [0i32; CAPACITY];
        let xs = list_into(ctx.domain(x), &mut xs);
        let ys = list_into(ctx.domain(y), &mut ys);
        let z_domain = ctx.domain(z);
        let words = window_words(z_domain, base);
        let mut z_bits = [0u64; WINDOW_WORDS];
        let z_bits = &mut z_bits[..words];
        z_domain.write_bits(base, z_bits);
        let mut x_marks = [0u64; CAPACITY / 64];
        let mut y_marks = [0u64; CAPACITY / 64];
        let mut found = [0u64; WINDOW_WORDS];
        let found = &mut found[..words];
        let (base_wide, width) = (i64::from(base), 64 * words as u64);
        for (a, &xv) in xs.iter().enumerate() {
            for (b, &yv) in ys.iter().enumerate() {
                debug_assert_eq!(
                    f(i64::from(xv), i64::from(yv)),
                    self.eval(i64::from(xv), i64::from(yv))
                        .and_then(|r| i64::try_from(r).ok())
                );
                let Some(r) = f(i64::from(xv), i64::from(yv)) else {
                    continue;
                };
                // Below the window wraps around to beyond it: one comparison for both ends.
                let offset = r.wrapping_sub(base_wide) as u64;
                if offset >= width {
                    continue;
                }
                let (word, bit) = (offset as usize / 64, 1u64 << (offset % 64));
                if z_bits[word] & bit != 0 {
                    x_marks[a / 64] |= 1 << (a % 64);
                    y_marks[b / 64] |= 1 << (b % 64);
                    found[word] |= bit;
                }
            }
        }
        keep_marked(ctx, x, xs, &x_marks)?;
        keep_marked(ctx, y, ys, &y_marks)?;
        let (lo, hi) = marked_span(found).ok_or(Wipeout)?;
        ctx.restrict_bounds(z, base_wide + lo as i64, base_wide + hi as i64)?;
        let distinct: u64 = found.iter().map(|w| u64::from(w.count_ones())).sum();
        let holes_budget = HOLES_BUDGET.max(8 * distinct);
        let size = ctx.size(z);
        // As in the general path: no hole to punch when `z` has no more values than results.
        if size > distinct && size <= holes_budget {
            // `z`'s values between the results' bounds that no tuple gave (its bits outside those
            // bounds are gone since the cut above), ascending, a word at a time: the window's
            // words are `z`'s own (see `window_base`), so each is one trail entry.
            for w in lo / 64..=hi / 64 {
                let mut holes = z_bits[w] & !found[w];
                if w == lo / 64 {
                    holes &= u64::MAX << (lo % 64);
                }
                if w == hi / 64 {
                    holes &= u64::MAX >> (63 - hi % 64);
                }
                ctx.remove_mask(z, (base_wide + 64 * w as i64) as i32, holes)?;
            }
        }
        Ok(())
    }

    /// The enumeration when the arguments name a variable twice (`x · x = z`, `x · y = x`), or for
    /// `abs`: the tuples of the distinct inputs, `z` among them only when it is one.
    #[inline(always)]
    fn enumerate_aliased(
        &self,
        ctx: &mut PropagationCtx<'_>,
        f: impl Fn(i64, i64) -> Option<i64>,
    ) -> Result<(), Wipeout> {
        debug_assert!(self.tuples(ctx) <= ENUMERATION_BUDGET);
        let scope = &self.args.scope;
        let out = self.args.slots[self.output()];
        // The distinct input slots, ascending: one or two.
        let mut inputs: SmallVec<[usize; 2]> =
            self.args.slots[..self.output()].iter().copied().collect();
        inputs.sort_unstable();
        inputs.dedup();
        let z_is_input = inputs.contains(&out);
        let mut lists: [List; 2] = Default::default();
        for (list, &slot) in lists.iter_mut().zip(&inputs) {
            let domain = ctx.domain(scope[slot]);
            list.resize(domain.size() as usize, 0);
            domain.write_values(list);
        }
        let mut marks = [[false; ENUMERATION_BUDGET as usize]; 2];
        let mut results = List::new();
        let mut values = [0i32; 3];
        let mut digits = [0usize; 2];
        let z_domain = ctx.domain(scope[out]);
        'tuples: loop {
            for (k, &s) in inputs.iter().enumerate() {
                values[s] = lists[k][digits[k]];
            }
            let x = i64::from(self.args.value(&values, 0));
            let y = if self.unary() {
                0
            } else {
                i64::from(self.args.value(&values, 1))
            };
            debug_assert_eq!(f(x, y), self.eval(x, y).and_then(|r| i64::try_from(r).ok()));
            if let Some(r) = f(x, y).and_then(|r| i32::try_from(r).ok()) {
                let supported = if z_is_input {
                    values[out] == r
                } else {
                    z_domain.contains(r)
                };
                if supported {
                    for (k, &d) in digits[..inputs.len()].iter().enumerate() {
                        marks[k][d] = true;
                    }
                    if !z_is_input {
                        results.push(r);
                    }
                }
            }
            let mut k = 0;
            loop {
                if k == inputs.len() {
                    break 'tuples;
                }
                digits[k] += 1;
                if digits[k] < lists[k].len() {
                    break;
                }
                digits[k] = 0;
                k += 1;
            }
        }
        for (k, &s) in inputs.iter().enumerate() {
            keep_flagged(ctx, scope[s], &lists[k], &marks[k])?;
        }
        if !z_is_input {
            results.sort_unstable();
            results.dedup();
            let (&lo, &hi) = (
                results.first().ok_or(Wipeout)?,
                results.last().ok_or(Wipeout)?,
            );
            ctx.restrict_bounds(scope[out], i64::from(lo), i64::from(hi))?;
            // Punching the holes walks `z`'s whole domain: worth it only while that domain is not
            // much wider than the results (a product of two small factors in a wide range is not).
            let holes_budget = HOLES_BUDGET.max(8 * results.len() as u64);
            if ctx.size(scope[out]) <= holes_budget {
                // Both ascending: one merge walk finds the values no tuple gives.
                let mut next = 0;
                retain_values(ctx, scope[out], |v| {
                    while next < results.len() && results[next] < v {
                        next += 1;
                    }
                    results.get(next) == Some(&v)
                })?;
            }
        }
        Ok(())
    }

    /// One round of interval reasoning; the caller repeats it until nothing changes.
    fn narrow(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        let x = self.args.var(0);
        let z = self.args.var(self.output());
        match self.function {
            Function::Abs => narrow_abs(ctx, x, z),
            Function::Times => narrow_times(ctx, x, self.args.var(1), z),
            Function::Div => narrow_div(ctx, x, self.args.var(1), z),
            Function::Mod => narrow_mod(ctx, x, self.args.var(1), z),
            Function::Pow => narrow_pow(ctx, x, self.args.var(1), z),
        }
    }
}

impl Constraint for Arithmetic {
    fn scope(&self) -> &[VarId] {
        &self.args.scope
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let x = i64::from(self.args.value(values, 0));
        let y = if self.unary() {
            0
        } else {
            i64::from(self.args.value(values, 1))
        };
        let z = i128::from(self.args.value(values, self.output()));
        self.eval(x, y) == Some(z)
    }
}

impl Propagator for Arithmetic {
    /// By the other variables' bounds, when they alone imply the change: no tuple within those
    /// bounds (holes ignored) gives the changed variable a value the change took, which is checked
    /// by enumerating them (up to 2¹⁶ tuples). A bound also rests on the variable's bound before
    /// it. A change that needed the holes (the enumeration's domain consistency) is left to the
    /// learner's default.
    ///
    /// A change that needed the holes (the enumeration's domain consistency), or a variable in
    /// two places, is explained by supports (`explain_by_supports`): every tuple that would
    /// have kept a value the change took is blocked by a value missing from another variable.
    fn explain(
        &self,
        literal: crate::Literal,
        ctx: &crate::ExplainCtx<'_>,
        reasons: &mut Vec<crate::Literal>,
    ) -> bool {
        let start = reasons.len();
        if self.explain_by_bounds(literal, ctx, reasons) {
            return true;
        }
        reasons.truncate(start);
        self.explain_by_inputs(Some(literal), ctx, reasons)
            || explain_by_supports(self, Some(literal), ctx, reasons)
    }

    /// No tuple of the variables' values is a solution: each pair of inputs within their bounds
    /// is blocked by a value missing from one of the three (`Arithmetic::explain_by_inputs`).
    fn explain_failure(
        &self,
        ctx: &crate::ExplainCtx<'_>,
        reasons: &mut Vec<crate::Literal>,
    ) -> bool {
        self.explain_by_inputs(None, ctx, reasons) || explain_by_supports(self, None, ctx, reasons)
    }

    /// Enumeration when the inputs have few tuples; otherwise interval reasoning until nothing
    /// changes, then enumeration if the domains have become small enough (so that a second call
    /// changes nothing).
    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        if self.tuples(ctx) > ENUMERATION_BUDGET {
            loop {
                let before = self.snapshot(ctx);
                self.narrow(ctx)?;
                if self.snapshot(ctx) == before {
                    break;
                }
            }
            if self.tuples(ctx) > ENUMERATION_BUDGET {
                return Ok(());
            }
        }
        self.enumerate(ctx)
    }

    fn priority(&self) -> Priority {
        Priority::Medium
    }
}

impl Arithmetic {
    /// [`explain_by_supports`] walking the inputs' pairs only, the result computed: every pair
    /// within the inputs' bounds that would have kept a value the change took (for a failure,
    /// every pair) has its `x`, its `y` or its result missing, and that value is cited (a missing
    /// result first, which many pairs share), beside the bounds of the variables other than the
    /// changed one. For three distinct variables whose inputs' bounds span at most 2¹⁶ pairs;
    /// false otherwise, or when a pair is not blocked.
    fn explain_by_inputs(
        &self,
        literal: Option<crate::Literal>,
        ctx: &crate::ExplainCtx<'_>,
        reasons: &mut Vec<crate::Literal>,
    ) -> bool {
        const BUDGET: i64 = 1 << 16;
        let scope = &self.args.scope;
        if scope.len() != self.args.slots.len() {
            return false;
        }
        let output = self.output();
        let changed = match literal {
            Some(l) => match scope.iter().position(|&v| v == l.var) {
                Some(c) => Some(c),
                None => return false,
            },
            None => None,
        };
        let bounds: SmallVec<[(i32, i32); 3]> = scope.iter().map(|&v| ctx.bounds(v)).collect();
        let (x_range, z_range) = (bounds[0], bounds[output]);
        let y_range = if self.unary() { (0, 0) } else { bounds[1] };
        let width = |(lo, hi): (i32, i32)| i64::from(hi) - i64::from(lo) + 1;
        if width(x_range).saturating_mul(width(y_range)) > BUDGET {
            return false;
        }
        let start = reasons.len();
        for (i, &var) in scope.iter().enumerate() {
            if Some(i) != changed {
                reasons.push(crate::Literal::ge(var, bounds[i].0));
                reasons.push(crate::Literal::le(var, bounds[i].1));
            }
        }
        // The missing values cited so far, so that a pair another one blocks already adds
        // nothing.
        let mut cited: hashbrown::HashSet<crate::Literal> = hashbrown::HashSet::new();
        // Whether the value of variable `i` is one the change took: only those pairs matter.
        let taken = |i: usize, value: i32| match (literal, changed) {
            (Some(l), Some(c)) if c == i => {
                !l.holds_for(value) && ctx.contains_within(scope[i], value, bounds[i])
            }
            _ => true,
        };
        for u in x_range.0..=x_range.1 {
            if !taken(0, u) {
                continue;
            }
            for v in y_range.0..=y_range.1 {
                if !self.unary() && !taken(1, v) {
                    continue;
                }
                let Some(r) = self.eval(i64::from(u), i64::from(v)) else {
                    continue;
                };
                let Ok(r) = i32::try_from(r) else { continue };
                if !(z_range.0..=z_range.1).contains(&r) || !taken(output, r) {
                    // Beyond the result's bounds (cited), or not a value the change took.
                    continue;
                }
                // The pair's values, each with whether it was missing; the changed variable's
                // was there (else `taken` passed it over).
                let mut candidates: SmallVec<[crate::Literal; 3]> = SmallVec::new();
                let mut consider = |i: usize, value: i32| {
                    if Some(i) != changed && !ctx.contains_within(scope[i], value, bounds[i]) {
                        candidates.push(crate::Literal::ne(scope[i], value));
                    }
                };
                consider(output, r);
                consider(0, u);
                if !self.unary() {
                    consider(1, v);
                }
                let Some(&first) = candidates.first() else {
                    reasons.truncate(start);
                    return false;
                };
                if !candidates.iter().any(|c| cited.contains(c)) {
                    cited.insert(first);
                    reasons.push(first);
                }
            }
        }
        if let Some(l) = literal {
            ctx.push_own_bounds(l, reasons);
        }
        true
    }

    /// The explanation by the other variables' bounds alone (see [`Arithmetic::explain`]), or
    /// false when the change needed more.
    fn explain_by_bounds(
        &self,
        literal: crate::Literal,
        ctx: &crate::ExplainCtx<'_>,
        reasons: &mut Vec<crate::Literal>,
    ) -> bool {
        const BUDGET: i64 = 1 << 16;
        let arity = if self.unary() { 2 } else { 3 };
        // A variable in two places: left to the default.
        if self.args.scope.len() != arity {
            return false;
        }
        let Some(changed) = self.args.scope.iter().position(|&v| v == literal.var) else {
            return false;
        };
        // Without holes in any domain then, the domains were their bounds and the change, which
        // the propagator inferred from them, follows from the bounds: the enumeration below
        // (up to 2^16 tuples, each a lookup of the log) would only confirm it.
        if !self.args.scope.iter().any(|&v| ctx.has_holes(v)) {
            ctx.push_own_bounds(literal, reasons);
            crate::explain_by_bounds(&self.args.scope, literal.var, ctx, reasons);
            return true;
        }
        let bounds: SmallVec<[(i32, i32); 3]> =
            self.args.scope.iter().map(|&v| ctx.bounds(v)).collect();
        let width = |(lo, hi): (i32, i32)| i64::from(hi) - i64::from(lo) + 1;
        // The values the change took: present before, false now.
        let x = literal.var;
        let own = bounds[changed];
        let taken = |w: i32| !literal.holds_for(w) && ctx.contains_within(x, w, own);
        let output = self.output();
        // The values the change took all lie in `span` (within the old bounds). For a product,
        // whose extremes over a box lie at its corners, one look at the corners often settles
        // what the enumeration below would find tuple by tuple: conflict analysis asks for these
        // explanations thousands of times a second, and the enumeration was most of its time on
        // models of products (template_design).
        let span = match literal.relation {
            LiteralRelation::Ge => Some((own.0, literal.value.saturating_sub(1))),
            LiteralRelation::Le => Some((literal.value.saturating_add(1), own.1)),
            LiteralRelation::Ne => Some((literal.value, literal.value)),
            LiteralRelation::Eq => None,
        };
        if self.function == Function::Times
            && let Some(span) = span
            && product_settles(changed, &bounds, span, taken, BUDGET)
        {
            ctx.push_own_bounds(literal, reasons);
            crate::explain_by_bounds(&self.args.scope, x, ctx, reasons);
            return true;
        }
        let implied = if changed == output {
            let (a, b) = bounds[0];
            let (c, d) = if self.unary() { (0, 0) } else { bounds[1] };
            if width((a, b)).saturating_mul(width((c, d))) > BUDGET {
                return false;
            }
            (a..=b).all(|u| {
                (c..=d).all(|v| {
                    self.eval(i64::from(u), i64::from(v))
                        .and_then(|r| i32::try_from(r).ok())
                        .is_none_or(|r| !taken(r))
                })
            })
        } else {
            let other = if self.unary() {
                None
            } else {
                Some(1 - changed)
            };
            let (c, d) = other.map_or((0, 0), |o| bounds[o]);
            let (e, f) = bounds[output];
            if width(own).saturating_mul(width((c, d))) > BUDGET {
                return false;
            }
            (own.0..=own.1).filter(|&w| taken(w)).all(|w| {
                (c..=d).all(|v| {
                    let (u, v) = if changed == 0 { (w, v) } else { (v, w) };
                    self.eval(i64::from(u), i64::from(v))
                        .is_none_or(|r| r < i128::from(e) || r > i128::from(f))
                })
            })
        };
        if !implied {
            return false;
        }
        ctx.push_own_bounds(literal, reasons);
        crate::explain_by_bounds(&self.args.scope, x, ctx, reasons);
        true
    }
}

/// Whether the bounds of a product's scope, `bounds` (`x`, `y`, `z` of `x · y = z`), imply the
/// change of argument `changed` that took values only in `span` (those for which `taken` holds),
/// decided without enumerating the box; false when undecided here, for the enumeration to decide.
///
/// An input's change is implied when the products of `span` with the other input's range miss
/// `z`'s range. The output's is when the box's products miss `span`, or, where fewer values of
/// `span` are within the products' range than the box has tuples, when no value taken has factors
/// in the box: each value costs a divisibility test per value of the narrower input range, and
/// the whole test at most `budget` of them, as the enumeration is bounded.
fn product_settles(
    changed: usize,
    bounds: &[(i32, i32)],
    span: (i32, i32),
    taken: impl Fn(i32) -> bool,
    budget: i64,
) -> bool {
    let wide = |(lo, hi): (i32, i32)| (i128::from(lo), i128::from(hi));
    let misses = |(lo, hi): (i128, i128), (a, b): (i128, i128)| hi < a || lo > b;
    const OUTPUT: usize = 2;
    if changed != OUTPUT {
        let products = product_range(wide(span), wide(bounds[1 - changed]));
        return misses(products, wide(bounds[OUTPUT]));
    }
    let (lo, hi) = product_range(wide(bounds[0]), wide(bounds[1]));
    let (from, to) = (i128::from(span.0).max(lo), i128::from(span.1).min(hi));
    if from > to {
        return true;
    }
    let width = |(a, b): (i32, i32)| i128::from(b) - i128::from(a) + 1;
    let divisions = (to - from + 1) * width(bounds[0]).min(width(bounds[1]));
    divisions < width(bounds[0]) * width(bounds[1])
        && divisions <= i128::from(budget)
        // `from..=to` lies within `span`, which holds `i32` values.
        && (from..=to).all(|w| !taken(w as i32) || !has_factors(w as i32, bounds[0], bounds[1]))
}

/// The smallest and largest product `x · y` for `x` in `a..=b` and `y` in `c..=d`: a product's
/// extremes over a box lie at its corners.
fn product_range((a, b): (i128, i128), (c, d): (i128, i128)) -> (i128, i128) {
    hull([a * c, a * d, b * c, b * d]).expect("four products")
}

/// Explains by supports a change of `literal` made by `constraint` (or, without a literal, its
/// failure), in the domains of `ctx`: every tuple of the scope's values within their bounds that
/// satisfies the constraint and gives the changed variable a value the change took (for a
/// failure, every such tuple) is blocked by a value missing from another variable, which is
/// cited (`y ≠ v`), beside the other variables' bounds and, for a bound, the changed variable's
/// own bound. This is the reason the enumeration's domain consistency rests on (the generic
/// explanation of a table or extensional constraint by its missing supports, as in Katsirelos &
/// Bacchus 2005, "Generalized nogoods in CSPs"). Returns false, with `reasons` as they were,
/// when the bounds span more than 2¹⁶ tuples or a tuple is not blocked (the change came from
/// elsewhere).
pub(super) fn explain_by_supports(
    constraint: &dyn Constraint,
    literal: Option<crate::Literal>,
    ctx: &crate::ExplainCtx<'_>,
    reasons: &mut Vec<crate::Literal>,
) -> bool {
    const BUDGET: u64 = 1 << 16;
    let scope = constraint.scope();
    let bounds: SmallVec<[(i32, i32); 4]> = scope.iter().map(|&v| ctx.bounds(v)).collect();
    let changed = literal.and_then(|l| scope.iter().position(|&v| v == l.var));
    if literal.is_some() && changed.is_none() {
        return false;
    }
    let mut tuples = 1u64;
    for &(lo, hi) in &bounds {
        let width = u64::try_from(i64::from(hi) - i64::from(lo) + 1).unwrap_or(u64::MAX);
        tuples = tuples.saturating_mul(width);
    }
    if tuples > BUDGET {
        return false;
    }
    let start = reasons.len();
    for (i, &var) in scope.iter().enumerate() {
        if Some(i) != changed {
            reasons.push(crate::Literal::ge(var, bounds[i].0));
            reasons.push(crate::Literal::le(var, bounds[i].1));
        }
    }
    // The missing values cited so far (see `Arithmetic::explain_by_inputs`).
    let mut cited: hashbrown::HashSet<crate::Literal> = hashbrown::HashSet::new();
    let mut values: SmallVec<[i32; 4]> = bounds.iter().map(|b| b.0).collect();
    loop {
        let concerned = match (literal, changed) {
            (Some(l), Some(c)) => !l.holds_for(values[c]),
            _ => true,
        };
        if concerned && constraint.is_satisfied(&values) {
            // The tuple must be blocked: the changed variable's value was there (else the
            // learner's own bound covers it), so some other variable lacks its value.
            let own_missing =
                changed.is_some_and(|c| !ctx.contains_within(scope[c], values[c], bounds[c]));
            if !own_missing {
                let missing: SmallVec<[usize; 4]> = (0..scope.len())
                    .filter(|&i| {
                        Some(i) != changed && !ctx.contains_within(scope[i], values[i], bounds[i])
                    })
                    .collect();
                if missing.is_empty() {
                    reasons.truncate(start);
                    return false;
                }
                // A literal cited already blocks it too; else the first missing value.
                let blocked = missing
                    .iter()
                    .any(|&i| cited.contains(&crate::Literal::ne(scope[i], values[i])));
                if !blocked {
                    let reason = crate::Literal::ne(scope[missing[0]], values[missing[0]]);
                    cited.insert(reason);
                    reasons.push(reason);
                }
            }
        }
        // The next tuple, the last variable fastest.
        let mut k = scope.len();
        loop {
            if k == 0 {
                if let Some(l) = literal {
                    ctx.push_own_bounds(l, reasons);
                }
                return true;
            }
            k -= 1;
            if values[k] < bounds[k].1 {
                values[k] += 1;
                break;
            }
            values[k] = bounds[k].0;
        }
    }
}

/// Whether `w = x · y` for some `x` in `a..=b` and `y` in `c..=d`: a divisibility test for each
/// value of the narrower range.
fn has_factors(w: i32, (a, b): (i32, i32), (c, d): (i32, i32)) -> bool {
    let ((a, b), (c, d)) = if i64::from(b) - i64::from(a) <= i64::from(d) - i64::from(c) {
        ((a, b), (c, d))
    } else {
        ((c, d), (a, b))
    };
    let w = i64::from(w);
    (a..=b).any(|x| {
        let x = i64::from(x);
        if x == 0 {
            w == 0 && c <= d
        } else {
            w % x == 0 && (i64::from(c)..=i64::from(d)).contains(&(w / x))
        }
    })
}

impl Arithmetic {
    /// The bounds and sizes of the scope (at most three variables), to see when a round of interval
    /// reasoning has changed nothing; on the stack, since it is taken every round.
    fn snapshot(&self, ctx: &PropagationCtx<'_>) -> [(i32, i32, u64); 3] {
        let mut state = [(0, 0, 0); 3];
        for (slot, &v) in state.iter_mut().zip(&self.args.scope) {
            *slot = (ctx.lb(v), ctx.ub(v), ctx.size(v));
        }
        state
    }
}

/// Lists `domain` (at most [`ENUMERATION_BUDGET`] values) into the front of `slots`.
#[inline]
fn list_into<'a>(domain: crate::DomainView<'_>, slots: &'a mut [i32]) -> &'a [i32] {
    let size = domain.size() as usize;
    domain.write_values(&mut slots[..size]);
    &slots[..size]
}

/// The most words of `z`'s values [`Arithmetic::enumerate_in_window`] reads into bits (8,192
/// values, a kibibyte on the stack); a `z` whose bounds span more is enumerated by the general path.
const WINDOW_WORDS: usize = 128;

/// Where the window of `z`'s values for [`Arithmetic::enumerate_in_window`] starts, if its bounds
/// fit in one: for a bit set, at the start of the word of `z`'s span that holds its lower bound, so
/// that [`crate::DomainView::write_bits`] copies whole words; otherwise at the lower bound. `None`
/// for a domain of intervals (whose values are not bits) or bounds too far apart.
#[inline]
fn window_base(z: crate::DomainView<'_>) -> Option<i32> {
    if !z.is_bitset() {
        return None;
    }
    let (lo, span_lo) = (i64::from(z.lb()), i64::from(z.span_lo()));
    let base = span_lo + (lo - span_lo).div_euclid(64) * 64;
    (i64::from(z.ub()) - base < 64 * WINDOW_WORDS as i64).then_some(base as i32)
}

/// How many words of the window from `base` hold `z`'s bounds.
#[inline]
fn window_words(z: crate::DomainView<'_>, base: i32) -> usize {
    ((i64::from(z.ub()) - i64::from(base)) / 64 + 1) as usize
}

/// [`keep_flagged`] with the flags as bits: `values[k]` is kept when bit `k % 64` of
/// `marks[k / 64]` is set. The bounds move to the first and last values kept (one trail entry
/// each), and each value between them that is not kept is removed, ascending. Keeping none is a
/// [`Wipeout`].
fn keep_marked(
    ctx: &mut PropagationCtx<'_>,
    var: VarId,
    values: &[i32],
    marks: &[u64],
) -> Result<(), Wipeout> {
    let words = values.len().div_ceil(64);
    let marks = &marks[..words];
    let (first, last) = marked_span(marks).ok_or(Wipeout)?;
    ctx.restrict_bounds(var, i64::from(values[first]), i64::from(values[last]))?;
    // The values between `first` and `last` that are not kept.
    for_each_bit_between(
        first,
        last,
        |w| !marks[w],
        |k| ctx.remove(var, values[k]).map(drop),
    )
}

/// The positions of the first and last bits set in `marks`, or `None` when none is.
fn marked_span(marks: &[u64]) -> Option<(usize, usize)> {
    let first_word = marks.iter().position(|&w| w != 0)?;
    let last_word = marks.iter().rposition(|&w| w != 0)?;
    Some((
        64 * first_word + marks[first_word].trailing_zeros() as usize,
        64 * last_word + 63 - marks[last_word].leading_zeros() as usize,
    ))
}

/// Calls `f` with each position from `first` to `last` whose bit is set in `word(position / 64)`,
/// ascending, stopping at the first error.
fn for_each_bit_between(
    first: usize,
    last: usize,
    word: impl Fn(usize) -> u64,
    mut f: impl FnMut(usize) -> Result<(), Wipeout>,
) -> Result<(), Wipeout> {
    let (first_word, last_word) = (first / 64, last / 64);
    for w in first_word..=last_word {
        let mut bits = word(w);
        if w == first_word {
            bits &= u64::MAX << (first % 64);
        }
        if w == last_word {
            bits &= u64::MAX >> (63 - last % 64);
        }
        while bits != 0 {
            let position = 64 * w + bits.trailing_zeros() as usize;
            bits &= bits - 1;
            f(position)?;
        }
    }
    Ok(())
}

/// `x^y` as MiniZinc defines it, saturated far beyond the `i32` range.
fn pow(x: i128, y: i128) -> Option<i128> {
    if y < 0 {
        return match x {
            0 => None,
            1 => Some(1),
            -1 => Some(if y % 2 == 0 { 1 } else { -1 }),
            _ => Some(0),
        };
    }
    match x {
        0 => return Some(i128::from(y == 0)),
        1 => return Some(1),
        -1 => return Some(if y % 2 == 0 { 1 } else { -1 }),
        _ => {}
    }
    // |x| ≥ 2: beyond 2⁶⁴ the value matters only as "too large".
    const HUGE: i128 = 1 << 100;
    let magnitude = if y >= 64 {
        HUGE
    } else {
        x.unsigned_abs()
            .checked_pow(y as u32)
            .map_or(HUGE, |m| (m as i128).min(HUGE))
    };
    Some(if x < 0 && y % 2 == 1 {
        -magnitude
    } else {
        magnitude
    })
}

/// Cuts `var` to `lo..=hi` (in 128 bits).
fn restrict(ctx: &mut PropagationCtx<'_>, var: VarId, lo: i128, hi: i128) -> Result<(), Wipeout> {
    ctx.restrict_bounds(var, clamp_i64(lo), clamp_i64(hi))
}

fn bounds(ctx: &PropagationCtx<'_>, var: VarId) -> (i128, i128) {
    (i128::from(ctx.lb(var)), i128::from(ctx.ub(var)))
}

/// An integer range `lo..=hi` in 128 bits.
type Range = (i128, i128);

/// The smallest and largest absolute value in `lo..=hi`.
fn magnitudes((lo, hi): (i128, i128)) -> (i128, i128) {
    if lo <= 0 && 0 <= hi {
        (0, lo.abs().max(hi.abs()))
    } else {
        (lo.abs().min(hi.abs()), lo.abs().max(hi.abs()))
    }
}

/// The positive and negative parts of `lo..=hi`, zero left out.
fn sign_parts((lo, hi): (i128, i128)) -> [Option<(i128, i128)>; 2] {
    [
        (hi >= 1).then(|| (lo.max(1), hi)),
        (lo <= -1).then(|| (lo, hi.min(-1))),
    ]
}

/// The hull of `min..=max` over `candidates`.
fn hull(candidates: impl IntoIterator<Item = i128>) -> Option<(i128, i128)> {
    candidates.into_iter().fold(None, |acc, v| match acc {
        None => Some((v, v)),
        Some((lo, hi)) => Some((lo.min(v), hi.max(v))),
    })
}

/// The union hull of several optional ranges.
fn join(parts: impl IntoIterator<Item = Option<(i128, i128)>>) -> Option<(i128, i128)> {
    parts
        .into_iter()
        .flatten()
        .fold(None, |acc, (a, b)| match acc {
            None => Some((a, b)),
            Some((lo, hi)) => Some((lo.min(a), hi.max(b))),
        })
}

/// The integers of `z / y` for reals `z` in `z` and `y` in the positive range `a..=b`, rounded
/// inwards; `None` if there are none.
fn quotient_positive((zl, zu): (i128, i128), (a, b): (i128, i128)) -> Option<(i128, i128)> {
    let lo = ceil_div(zl, a).min(ceil_div(zl, b));
    let hi = floor_div(zu, a).max(floor_div(zu, b));
    (lo <= hi).then_some((lo, hi))
}

/// The integers `x` of `x`'s range with `x · y` in `z` for some integer `y ≠ 0` of `y`'s range, as
/// a hull: `None` for no constraint (zero can be both), `Err` when none exists.
///
/// Each sign of `y` gives its own range of `x`, cut to `x`'s range before the two are joined: when
/// `y` spans zero, one sign's quotient can lie wholly outside `x`'s range, and its hull with the
/// other would keep a bound of `x` that no real `y` supports.
fn quotient(
    z: (i128, i128),
    y: (i128, i128),
    x: (i128, i128),
) -> Result<Option<(i128, i128)>, Wipeout> {
    if y.0 <= 0 && 0 <= y.1 && z.0 <= 0 && 0 <= z.1 {
        return Ok(None);
    }
    let within_x = |(lo, hi): (i128, i128)| {
        let (lo, hi) = (lo.max(x.0), hi.min(x.1));
        (lo <= hi).then_some((lo, hi))
    };
    let [positive, negative] = sign_parts(y);
    let from_positive = positive
        .and_then(|p| quotient_positive(z, p))
        .and_then(within_x);
    // x = (−z) / (−y) with −y positive.
    let from_negative = negative
        .and_then(|(a, b)| quotient_positive((-z.1, -z.0), (-b, -a)))
        .and_then(within_x);
    join([from_positive, from_negative])
        .map(Some)
        .ok_or(Wipeout)
}

fn narrow_times(ctx: &mut PropagationCtx<'_>, x: VarId, y: VarId, z: VarId) -> Result<(), Wipeout> {
    let (xb, yb) = (bounds(ctx, x), bounds(ctx, y));
    let (lo, hi) = product_range(xb, yb);
    restrict(ctx, z, lo, hi)?;
    let zb = bounds(ctx, z);
    if let Some((lo, hi)) = quotient(zb, bounds(ctx, y), bounds(ctx, x))? {
        restrict(ctx, x, lo, hi)?;
    }
    if let Some((lo, hi)) = quotient(zb, bounds(ctx, x), bounds(ctx, y))? {
        restrict(ctx, y, lo, hi)?;
    }
    if !(zb.0 <= 0 && 0 <= zb.1) {
        ctx.remove(x, 0)?;
        ctx.remove(y, 0)?;
    }
    Ok(())
}

/// For `y > 0`: the smallest `x` with `x div y = z`.
fn div_low(z: i128, y: i128) -> i128 {
    if z > 0 { z * y } else { (z - 1) * y + 1 }
}

/// For `y > 0`: the largest `x` with `x div y = z`.
fn div_high(z: i128, y: i128) -> i128 {
    if z >= 0 { (z + 1) * y - 1 } else { z * y }
}

fn narrow_div(ctx: &mut PropagationCtx<'_>, x: VarId, y: VarId, z: VarId) -> Result<(), Wipeout> {
    ctx.remove(y, 0)?;
    let (xb, yb) = (bounds(ctx, x), bounds(ctx, y));
    // `x div y` is monotone in `x` for a fixed `y`, and in `y` within one sign for a fixed `x`, so
    // its range over a box is the hull of the box's corners, one sign of `y` at a time.
    let image = |(a, b): (i128, i128)| {
        hull([xb.0 / a, xb.0 / b, xb.1 / a, xb.1 / b]).expect("four corners")
    };
    let parts = sign_parts(yb);
    let images = parts.map(|p| p.map(image));
    let (lo, hi) = join(images).ok_or(Wipeout)?;
    restrict(ctx, z, lo, hi)?;
    let zb = bounds(ctx, z);
    // The x of each sign of y: for y > 0, x ∈ [div_low(z, y), div_high(z, y)], monotone in z and,
    // for a fixed z, in y; for y < 0, x div y = (−x) div (−y).
    let from_positive = parts[0].map(|(a, b)| {
        (
            div_low(zb.0, a).min(div_low(zb.0, b)),
            div_high(zb.1, a).max(div_high(zb.1, b)),
        )
    });
    let from_negative = parts[1].map(|(a, b)| {
        (
            -(div_high(zb.1, -b).max(div_high(zb.1, -a))),
            -(div_low(zb.0, -b).min(div_low(zb.0, -a))),
        )
    });
    let (lo, hi) = join([from_positive, from_negative]).ok_or(Wipeout)?;
    restrict(ctx, x, lo, hi)?;
    // y by magnitudes: |x div y| = ⌊|x| / |y|⌋, so |z|·|y| ≤ |x| < (|z| + 1)·|y|; a sign of y whose
    // quotients miss z's range is out.
    let (ax_min, ax_max) = magnitudes(bounds(ctx, x));
    let (az_min, az_max) = magnitudes(zb);
    let mag_lo = ax_min / (az_max + 1) + 1;
    let mag_hi = if az_min >= 1 {
        ax_max / az_min
    } else {
        i128::MAX
    };
    let allowed = |(part, image): (Option<Range>, Option<Range>)| {
        let ((a, b), (ilo, ihi)) = (part?, image?);
        if ihi < zb.0 || ilo > zb.1 {
            return None;
        }
        let (lo, hi) = if a > 0 {
            (a.max(mag_lo), b.min(mag_hi))
        } else {
            (a.max(-mag_hi), b.min(-mag_lo))
        };
        (lo <= hi).then_some((lo, hi))
    };
    let (lo, hi) = join([
        allowed((parts[0], images[0])),
        allowed((parts[1], images[1])),
    ])
    .ok_or(Wipeout)?;
    restrict(ctx, y, lo, hi)
}

fn narrow_mod(ctx: &mut PropagationCtx<'_>, x: VarId, y: VarId, z: VarId) -> Result<(), Wipeout> {
    ctx.remove(y, 0)?;
    let (xb, yb) = (bounds(ctx, x), bounds(ctx, y));
    // |z| < |y|, |z| ≤ |x|, and z has the sign of x (or is 0).
    let largest = magnitudes(yb).1 - 1;
    let (lo, hi) = (xb.0.max(-largest).min(0), xb.1.min(largest).max(0));
    restrict(ctx, z, lo, hi)?;
    let zb = bounds(ctx, z);
    if zb.0 > 0 {
        restrict(ctx, x, zb.0, i128::MAX)?;
    }
    if zb.1 < 0 {
        restrict(ctx, x, i128::MIN, zb.1)?;
    }
    let least = magnitudes(zb).0 + 1;
    let parts = sign_parts(bounds(ctx, y));
    let (lo, hi) = join([
        parts[0].and_then(|(a, b)| (a.max(least) <= b).then_some((a.max(least), b))),
        parts[1].and_then(|(a, b)| (a <= b.min(-least)).then_some((a, b.min(-least)))),
    ])
    .ok_or(Wipeout)?;
    restrict(ctx, y, lo, hi)
}

/// The largest `r ≥ 0` with `rⁿ ≤ m`, for `m ≥ 0` and `n ≥ 1`.
fn root_floor(m: i128, n: i128) -> i128 {
    let (mut lo, mut hi) = (0i128, 1i128 << 32);
    while lo < hi {
        let mid = (lo + hi + 1) / 2;
        if pow(mid, n).is_some_and(|p| p <= m) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    lo
}

/// The smallest `r ≥ 0` with `rⁿ ≥ m`, for `m ≥ 0` and `n ≥ 1`.
fn root_ceil(m: i128, n: i128) -> i128 {
    let r = root_floor(m, n);
    if pow(r, n) == Some(m) { r } else { r + 1 }
}

fn narrow_pow(ctx: &mut PropagationCtx<'_>, x: VarId, y: VarId, z: VarId) -> Result<(), Wipeout> {
    let xb = bounds(ctx, x);
    if let Some(n) = ctx.fixed_value(y).map(i128::from) {
        match n {
            0 => return restrict(ctx, z, 1, 1),
            n if n < 0 => {
                ctx.remove(x, 0)?;
                restrict(ctx, z, -1, 1)?;
                if !ctx.domain(z).contains(0) {
                    restrict(ctx, x, -1, 1)?;
                }
                return Ok(());
            }
            _ => {}
        }
        let odd = n % 2 == 1;
        let power = |v: i128| pow(v, n).unwrap_or(0);
        let (lo, hi) = if odd {
            (power(xb.0), power(xb.1))
        } else {
            let (small, large) = magnitudes(xb);
            (power(small), power(large))
        };
        restrict(ctx, z, lo, hi)?;
        let zb = bounds(ctx, z);
        if odd {
            let signed_floor = |v: i128| {
                if v >= 0 {
                    root_floor(v, n)
                } else {
                    -root_ceil(-v, n)
                }
            };
            let signed_ceil = |v: i128| {
                if v >= 0 {
                    root_ceil(v, n)
                } else {
                    -root_floor(-v, n)
                }
            };
            return restrict(ctx, x, signed_ceil(zb.0), signed_floor(zb.1));
        }
        if zb.1 < 0 {
            return Err(Wipeout);
        }
        let largest = root_floor(zb.1, n);
        restrict(ctx, x, -largest, largest)?;
        if zb.0 > 0 {
            let least = root_ceil(zb.0, n);
            let (lo, hi) = bounds(ctx, x);
            if lo > -least && lo < least {
                restrict(ctx, x, least, i128::MAX)?;
            }
            if hi < least && hi > -least {
                restrict(ctx, x, i128::MIN, -least)?;
            }
        }
        return Ok(());
    }
    if let Some(v) = ctx.fixed_value(x).map(i128::from) {
        let yb = bounds(ctx, y);
        match v {
            0 => {
                restrict(ctx, y, 0, i128::MAX)?;
                restrict(ctx, z, 0, 1)
            }
            1 => restrict(ctx, z, 1, 1),
            -1 => restrict(ctx, z, -1, 1),
            _ if yb.1 < 0 => restrict(ctx, z, 0, 0),
            // |v| ≥ 2: vʸ for y ≥ 0 grows with y (alternating in sign when v < 0); 0 for y < 0.
            _ => {
                let largest = pow(v.abs(), yb.1).unwrap_or(0);
                if v < 0 {
                    restrict(ctx, z, -largest, largest)
                } else if yb.0 < 0 {
                    restrict(ctx, z, 0, largest)
                } else {
                    restrict(ctx, z, pow(v, yb.0).unwrap_or(0), largest)
                }
            }
        }
    } else {
        Ok(())
    }
}

fn narrow_abs(ctx: &mut PropagationCtx<'_>, x: VarId, z: VarId) -> Result<(), Wipeout> {
    let (small, large) = magnitudes(bounds(ctx, x));
    restrict(ctx, z, small, large)?;
    let (zl, zu) = bounds(ctx, z);
    restrict(ctx, x, -zu, zu)?;
    let (lo, hi) = bounds(ctx, x);
    if lo > -zl && lo < zl {
        restrict(ctx, x, zl, i128::MAX)?;
    }
    if hi < zl && hi > -zl {
        restrict(ctx, x, i128::MIN, -zl)?;
    }
    Ok(())
}

/// `m = max(x₁, …, xₙ)` or `m = min(x₁, …, xₙ)`: FlatZinc's `array_int_maximum(m, x)`,
/// `array_int_minimum(m, x)`, and `int_max(a, b, c)`, `int_min(a, b, c)` as the extremum of `[a, b]`.
///
/// Consistency: bounds(Z) consistent when the variables are distinct: `m` lies between the largest
/// lower bound and the largest upper bound of the `xᵢ`, each `xᵢ` lies below `m`'s upper bound, and
/// when only one `xᵢ` can reach `m`'s lower bound it is raised to it (mirrored for the minimum).
#[derive(Debug, Clone)]
pub struct Extremum {
    /// `[m, x₁, …, xₙ]`.
    args: Args,
    maximum: bool,
}

impl Extremum {
    /// `m = max(xs)`. `xs` must not be empty.
    pub fn maximum(m: VarId, xs: Vec<VarId>) -> Result<Self, ModelError> {
        Self::new(m, xs, true)
    }

    /// `m = min(xs)`. `xs` must not be empty.
    pub fn minimum(m: VarId, xs: Vec<VarId>) -> Result<Self, ModelError> {
        Self::new(m, xs, false)
    }

    fn new(m: VarId, xs: Vec<VarId>, maximum: bool) -> Result<Self, ModelError> {
        if xs.is_empty() {
            return Err(invalid(
                if maximum { "maximum" } else { "minimum" },
                "the array is empty",
            ));
        }
        Ok(Extremum {
            args: Args::new(std::iter::once(m).chain(xs)),
            maximum,
        })
    }

    /// The bounds of `var` mirrored for a minimum, so that one algorithm serves both.
    fn lo(&self, ctx: &PropagationCtx<'_>, var: VarId) -> i64 {
        if self.maximum {
            i64::from(ctx.lb(var))
        } else {
            -i64::from(ctx.ub(var))
        }
    }

    fn hi(&self, ctx: &PropagationCtx<'_>, var: VarId) -> i64 {
        if self.maximum {
            i64::from(ctx.ub(var))
        } else {
            -i64::from(ctx.lb(var))
        }
    }

    fn raise(&self, ctx: &mut PropagationCtx<'_>, var: VarId, bound: i64) -> Result<bool, Wipeout> {
        if self.maximum {
            ctx.set_min(var, bound)
        } else {
            ctx.set_max(var, -bound)
        }
    }

    fn lower(&self, ctx: &mut PropagationCtx<'_>, var: VarId, bound: i64) -> Result<bool, Wipeout> {
        if self.maximum {
            ctx.set_max(var, bound)
        } else {
            ctx.set_min(var, -bound)
        }
    }
}

impl Extremum {
    /// `var ≥ v` in the mirrored values of a minimum (`var ≤ -v`), or `None` if out of range.
    fn at_least(&self, var: VarId, v: i64) -> Option<crate::Literal> {
        if self.maximum {
            i32::try_from(v).ok().map(|v| crate::Literal::ge(var, v))
        } else {
            i32::try_from(-v).ok().map(|v| crate::Literal::le(var, v))
        }
    }

    /// `var ≤ v` in the mirrored values of a minimum (`var ≥ -v`), or `None` if out of range.
    fn at_most(&self, var: VarId, v: i64) -> Option<crate::Literal> {
        if self.maximum {
            i32::try_from(v).ok().map(|v| crate::Literal::le(var, v))
        } else {
            i32::try_from(-v).ok().map(|v| crate::Literal::ge(var, v))
        }
    }

    /// The bounds of `var` then, mirrored for a minimum.
    fn bounds_then(&self, ctx: &crate::ExplainCtx<'_>, var: VarId) -> (i64, i64) {
        let (lo, hi) = ctx.bounds(var);
        if self.maximum {
            (i64::from(lo), i64::from(hi))
        } else {
            (-i64::from(hi), -i64::from(lo))
        }
    }

    /// The reasons of one of [`Extremum::revise`]'s four rules (in the mirrored values of a
    /// minimum), or `None` when the change is not one of them then.
    fn rule_reasons(
        &self,
        var: VarId,
        raised: bool,
        ctx: &crate::ExplainCtx<'_>,
        reasons: &mut Vec<crate::Literal>,
    ) -> Option<()> {
        let m = self.args.var(0);
        let xs = &self.args.scope[1..];
        let own = self.bounds_then(ctx, var);
        match (var == m, raised) {
            // `m ≥ max lb(xᵢ)`: the array's largest lower bound.
            (true, true) => {
                let (best, lo) = xs
                    .iter()
                    .map(|&x| (x, self.bounds_then(ctx, x).0))
                    .max_by_key(|&(_, lo)| lo)?;
                (lo > own.0).then_some(())?;
                reasons.push(self.at_least(best, lo)?);
            }
            // `m ≤ max ub(xᵢ)`: every upper bound of the array.
            (true, false) => {
                let hi = xs.iter().map(|&x| self.bounds_then(ctx, x).1).max()?;
                (hi < own.1).then_some(())?;
                for &x in xs {
                    reasons.push(self.at_most(x, hi)?);
                }
            }
            // `xⱼ ≤ ub(m)`.
            (false, false) => {
                let hi = self.bounds_then(ctx, m).1;
                (hi < own.1).then_some(())?;
                reasons.push(self.at_most(m, hi)?);
            }
            // `xⱼ ≥ lb(m)`, the only variable of the array that reaches it.
            (false, true) => {
                let lo = self.bounds_then(ctx, m).0;
                (lo > own.0).then_some(())?;
                reasons.push(self.at_least(m, lo)?);
                for &x in xs.iter().filter(|&&x| x != var) {
                    (self.bounds_then(ctx, x).1 < lo).then_some(())?;
                    reasons.push(self.at_most(x, lo - 1)?);
                }
            }
        }
        Some(())
    }
}

impl Constraint for Extremum {
    fn scope(&self) -> &[VarId] {
        &self.args.scope
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let xs = self.args.values(values).skip(1);
        let extremum = if self.maximum { xs.max() } else { xs.min() };
        extremum == Some(self.args.value(values, 0))
    }
}

impl Propagator for Extremum {
    /// Each of the propagator's rules by the bounds it read: the bound of `m` raised by the
    /// array's largest lower bound, lowered by every upper bound of the array; a variable of the
    /// array lowered by `m`'s upper bound, raised by `m`'s lower bound when no other variable
    /// reaches it. Each also rests on the changed variable's own bound before, so that the holes
    /// a bound skipped are the learner's to add.
    fn explain(
        &self,
        literal: crate::Literal,
        ctx: &crate::ExplainCtx<'_>,
        reasons: &mut Vec<crate::Literal>,
    ) -> bool {
        use crate::LiteralRelation as R;
        let start = reasons.len();
        // A variable in two places, or a change that is no bound of one rule, by supports.
        let raised = match (literal.relation, self.maximum) {
            (R::Ge, true) | (R::Le, false) => Some(true),
            (R::Le, true) | (R::Ge, false) => Some(false),
            (R::Eq | R::Ne, _) => None,
        };
        if let Some(raised) = raised
            && self.args.slots.len() == self.args.scope.len()
            && self
                .rule_reasons(literal.var, raised, ctx, reasons)
                .is_some()
        {
            ctx.push_own_bounds(literal, reasons);
            return true;
        }
        reasons.truncate(start);
        explain_by_supports(self, Some(literal), ctx, reasons)
    }

    /// By supports (`explain_by_supports`), while the scope's bounds span few tuples.
    fn explain_failure(
        &self,
        ctx: &crate::ExplainCtx<'_>,
        reasons: &mut Vec<crate::Literal>,
    ) -> bool {
        explain_by_supports(self, None, ctx, reasons)
    }

    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        let m = self.args.var(0);
        // The array's variables, read through the slots on each use instead of collected into a
        // new vector every revision.
        let xs = || self.args.slots[1..].iter().map(|&s| self.args.scope[s]);
        loop {
            let mut changed = false;
            let best_lo = xs().map(|x| self.lo(ctx, x)).max().expect("not empty");
            let best_hi = xs().map(|x| self.hi(ctx, x)).max().expect("not empty");
            changed |= self.raise(ctx, m, best_lo)?;
            changed |= self.lower(ctx, m, best_hi)?;
            let (m_lo, m_hi) = (self.lo(ctx, m), self.hi(ctx, m));
            for x in xs() {
                changed |= self.lower(ctx, x, m_hi)?;
            }
            let mut reaching = xs().filter(|&x| self.hi(ctx, x) >= m_lo);
            match (reaching.next(), reaching.next()) {
                (None, _) => return Err(Wipeout),
                (Some(only), None) => changed |= self.raise(ctx, only, m_lo)?,
                _ => {}
            }
            if !changed {
                return Ok(());
            }
        }
    }

    fn subscribe(&self, _position: usize) -> crate::EventSet {
        crate::EventSet::BOUNDS
    }

    fn priority(&self) -> Priority {
        Priority::Medium
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The two shortcuts of a product's explanation answer what enumerating the box would: the
    /// corners bound every product, and a value has factors in the box exactly when some tuple
    /// multiplies to it, over every box of small ranges (negative, zero, one value wide).
    #[test]
    fn product_shortcuts_agree_with_the_enumeration() {
        let ranges: Vec<(i32, i32)> = (-4..=4)
            .flat_map(|a| (a..=4).map(move |b| (a, b)))
            .collect();
        for &x in &ranges {
            for &y in &ranges {
                let products: Vec<i32> = (x.0..=x.1)
                    .flat_map(|u| (y.0..=y.1).map(move |v| u * v))
                    .collect();
                let wide = |(a, b): (i32, i32)| (i128::from(a), i128::from(b));
                let (lo, hi) = product_range(wide(x), wide(y));
                assert_eq!(
                    (lo, hi),
                    (
                        i128::from(*products.iter().min().unwrap()),
                        i128::from(*products.iter().max().unwrap())
                    ),
                    "{x:?} × {y:?}"
                );
                for w in -20..=20 {
                    assert_eq!(
                        has_factors(w, x, y),
                        products.contains(&w),
                        "{w} in {x:?} × {y:?}"
                    );
                }
            }
        }
    }

    /// Factoring the values a product's output lost stays within the budget the enumeration
    /// has: over it, the shortcut leaves the question undecided rather than run a million tests.
    #[test]
    fn factoring_stays_within_its_budget() {
        // No prime has factors in 2..=1000 × 2..=1000, so the test, if run, settles.
        let is_prime = |w: i32| w >= 2 && (2..w).take_while(|d| d * d <= w).all(|d| w % d != 0);
        let bounds = [(2, 1000), (2, 1000), (0, 1_000_000)];
        let span = (4, 503);
        assert!(!product_settles(2, &bounds, span, is_prime, 1 << 16));
        assert!(product_settles(2, &bounds, span, is_prime, i64::MAX));
    }

    #[test]
    fn pow_follows_minizinc_for_every_sign() {
        assert_eq!(pow(2, 10), Some(1024));
        assert_eq!(pow(-2, 3), Some(-8));
        assert_eq!(pow(0, 0), Some(1));
        assert_eq!(pow(0, -1), None);
        assert_eq!(pow(-1, -3), Some(-1));
        assert_eq!(pow(2, -1), Some(0));
        assert!(pow(3, 1000).is_some_and(|p| p > i128::from(i64::MAX)));
    }

    #[test]
    fn integer_roots_round_the_right_way() {
        assert_eq!((root_floor(26, 3), root_ceil(26, 3)), (2, 3));
        assert_eq!((root_floor(27, 3), root_ceil(27, 3)), (3, 3));
        assert_eq!((root_floor(0, 2), root_ceil(1, 2)), (0, 1));
    }
}
