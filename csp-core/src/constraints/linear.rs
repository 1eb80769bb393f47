use crate::Domains;
use crate::{
    CheckCtx, Constraint, Constructor, EventSet, ExplainCtx, Literal, ModelError, PostCtx,
    PropagationCtx, Propagator, Slot, Slots, VarId, Wipeout,
    constraints::util::{ceil_div, clamp_i64, floor_div},
    revision::Priority,
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

/// `Σ aᵢxᵢ = c`, `Σ aᵢxᵢ ≤ c` or `Σ aᵢxᵢ ≠ c` (FlatZinc's `int_lin_eq`, `int_lin_le`, `int_lin_ne`,
/// and `bool_lin_eq`, `bool_lin_le` over 0/1 variables).
///
/// Equalities and inequalities are bounds consistent: each variable's bounds are cut to the values for
/// which the rest of the sum, at its own bounds, can still meet `c`, until nothing changes; each cut is
/// one bound change, however many values it removes. A disequality prunes only when one variable is
/// left unfixed (the value that would complete the sum to `c`). Sums are computed in `i128`, so no
/// coefficient, value or right-hand side can overflow them.
///
/// The propagation is incremental, as in Pumpkin's `linear_less_or_equal` and every CP solver's
/// linear propagator: the sum of the terms' smallest values (and for `=` of their largest) lives in
/// trailed state cells, with each term's bounds as last seen, and [`Propagator::notify`] updates it by
/// the change of one term, in O(1) whatever the number of terms. `≤` subscribes only to the bound that
/// moves each term's smallest value, so the other bound's changes do not wake it at all. It also keeps an upper bound on the widest term's span
/// (`|aᵢ|·(max xᵢ − min xᵢ)`): no term can lose a value while the slack (`c − Σ min`, and for `=` also
/// `Σ max − c`) is at least that wide, so a bound change that cannot prune anything never queues the
/// revision. A revision that does run is one pass over the terms (repeated while it cuts something),
/// and leaves the exact widest span for the next bound changes to be judged against.
///
/// For `≠`, the cells count the fixed terms and their sum, and the constraint waits until one term is
/// left unfixed.
#[derive(Debug, Clone)]
pub struct Linear {
    scope: Vec<VarId>,
    coefficients: Vec<i64>,
    relation: Relation,
    rhs: i64,
    state: LinearState,
}

/// [`Linear`]'s trailed state. Each relation reads its own slots; the others are laid out but
/// never read (a few cells).
#[derive(Debug, Clone)]
struct LinearState {
    /// Whether the slots describe the domains: false before the first notification or revision.
    initialised: Slot<bool>,
    /// `=` and `≤`: the sum of the terms' smallest values ...
    sum_min: Slot<i128>,
    /// ... and (`=` only) of their largest values ...
    sum_max: Slot<i128>,
    /// ... an upper bound on the widest term's span, saturated to `i64::MAX` ...
    widest: Slot<i64>,
    /// ... under `=` each term's lower bound as last seen, under `≤` each term's *smallest-value
    /// bound* alone (its variable's lower bound for a coefficient of 0 or more, its upper bound for
    /// a negative one) ...
    lower: Slots<i64>,
    /// ... and under `=` each term's upper bound as last seen.
    upper: Slots<i64>,
    /// `≠`: how many terms with a non-zero coefficient are unfixed ...
    unfixed: Slot<i64>,
    /// ... the sum of the fixed ones ...
    fixed_sum: Slot<i128>,
    /// ... and a flag per term, set once the term is counted as fixed.
    fixed: Slots<bool>,
}

impl LinearState {
    fn new(layout: &mut PostCtx, relation: Relation, terms: usize) -> Self {
        let runs = |r: Relation| if relation == r { terms } else { 0 };
        LinearState {
            initialised: layout.slot(),
            sum_min: layout.slot(),
            sum_max: layout.slot(),
            widest: layout.slot(),
            lower: layout.slots(terms - runs(Relation::NotEqual)),
            upper: layout.slots(runs(Relation::Equal)),
            unfixed: layout.slot(),
            fixed_sum: layout.slot(),
            fixed: layout.slots(runs(Relation::NotEqual)),
        }
    }
}

/// Parallel arrays of coefficients and variables must have one coefficient per variable.
fn same_length(coefficients: usize, vars: usize) -> Result<(), ModelError> {
    if coefficients == vars {
        Ok(())
    } else {
        Err(ModelError::ArityMismatch {
            constraint: "linear coefficients".to_owned(),
            expected: vars,
            found: coefficients,
        })
    }
}

impl Linear {
    /// The sum of `coefficient × variable` over `terms`, related to `rhs`.
    pub fn new(terms: Vec<(i32, VarId)>, relation: Relation, rhs: i32) -> Constructor<Self> {
        Self::with_i64(
            terms.into_iter().map(|(a, x)| (i64::from(a), x)).collect(),
            relation,
            i64::from(rhs),
        )
    }

    /// Like [`Linear::new`], with 64-bit coefficients and right-hand side (FlatZinc's integers are
    /// 64-bit; the sums are computed in 128 bits, so none overflows).
    pub fn with_i64(terms: Vec<(i64, VarId)>, relation: Relation, rhs: i64) -> Constructor<Self> {
        let (coefficients, scope): (Vec<i64>, Vec<VarId>) = terms.into_iter().unzip();
        Constructor::new(move |ctx: &mut PostCtx| {
            let state = LinearState::new(ctx, relation, scope.len());
            Ok(Linear {
                scope,
                coefficients,
                relation,
                rhs,
                state,
            })
        })
    }

    /// Like [`Linear::new`] from parallel slices, which must have the same length.
    pub fn from_slices(
        coefficients: &[i32],
        vars: &[VarId],
        relation: Relation,
        rhs: i32,
    ) -> Result<Constructor<Self>, ModelError> {
        same_length(coefficients.len(), vars.len())?;
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

    /// The smallest and largest value of the sum over the current bounds, from the cells when they
    /// are kept, else from the domains.
    /// (Under `≤` only the smallest sum is kept, so the largest is summed from the domains.)
    fn sum_bounds(&self, ctx: &CheckCtx<'_>) -> (i128, i128) {
        let initialised = self.relation != Relation::NotEqual && ctx.get(self.state.initialised);
        if initialised && self.relation == Relation::Equal {
            return (ctx.get(self.state.sum_min), ctx.get(self.state.sum_max));
        }
        let (mut min, mut max) = (0i128, 0i128);
        for (&a, &v) in self.coefficients.iter().zip(&self.scope) {
            let (p, q) = term_bounds(a, ctx.lb(v), ctx.ub(v));
            min += p;
            max += q;
        }
        if initialised {
            min = ctx.get(self.state.sum_min);
        }
        (min, max)
    }

    fn lower_cell(&self, term: usize) -> Slot<i64> {
        self.state.lower.at(term)
    }

    fn upper_cell(&self, term: usize) -> Slot<i64> {
        debug_assert_eq!(
            self.relation,
            Relation::Equal,
            "only `=` keeps upper bounds"
        );
        self.state.upper.at(term)
    }

    /// The bound of term `i`'s variable that gives the term its smallest value, `lo` for a
    /// coefficient of 0 or more and `hi` for a negative one: all that `≤` keeps of a term.
    #[inline]
    fn smallest_side(&self, i: usize, lo: i32, hi: i32) -> i32 {
        if self.coefficients[i] >= 0 { lo } else { hi }
    }

    /// Keeps term `i`'s bounds `lo..=hi` in its cells: both under `=`, the smallest-value bound
    /// under `≤`.
    #[inline]
    fn store_term(&self, i: usize, lo: i32, hi: i32, ctx: &mut PropagationCtx<'_>) {
        if self.relation == Relation::Equal {
            ctx.set(self.lower_cell(i), i64::from(lo));
            ctx.set(self.upper_cell(i), i64::from(hi));
        } else {
            ctx.set(self.lower_cell(i), i64::from(self.smallest_side(i, lo, hi)));
        }
    }

    /// Computes every cell from the current domains: O(terms), once per search.
    fn initialise(&self, ctx: &mut PropagationCtx<'_>) {
        match self.relation {
            Relation::NotEqual => {
                let (mut unfixed, mut sum) = (0i64, 0i128);
                for (i, (&a, &v)) in self.coefficients.iter().zip(&self.scope).enumerate() {
                    match ctx.fixed_value(v) {
                        _ if a == 0 => ctx.set(self.state.fixed.at(i), true),
                        Some(x) => {
                            sum += i128::from(a) * i128::from(x);
                            ctx.set(self.state.fixed.at(i), true);
                        }
                        None => {
                            unfixed += 1;
                            ctx.set(self.state.fixed.at(i), false);
                        }
                    }
                }
                ctx.set(self.state.unfixed, unfixed);
                ctx.set(self.state.fixed_sum, sum);
            }
            Relation::Equal | Relation::LessOrEqual => {
                let (mut min, mut max, mut widest) = (0i128, 0i128, 0i128);
                for (i, (&a, &v)) in self.coefficients.iter().zip(&self.scope).enumerate() {
                    let (lo, hi) = (ctx.lb(v), ctx.ub(v));
                    let (p, q) = term_bounds(a, lo, hi);
                    min += p;
                    max += q;
                    widest = widest.max(q - p);
                    self.store_term(i, lo, hi, ctx);
                }
                ctx.set(self.state.sum_min, min);
                if self.relation == Relation::Equal {
                    ctx.set(self.state.sum_max, max);
                }
                ctx.set(self.state.widest, clamp_i64(widest));
            }
        }
        ctx.set(self.state.initialised, true);
    }

    /// Whether a revision could cut a bound (or must report a failure), judged from the cells alone.
    fn may_prune(&self, ctx: &PropagationCtx<'_>) -> bool {
        let rhs = i128::from(self.rhs);
        let mut slack = rhs - ctx.get(self.state.sum_min);
        if self.relation == Relation::Equal {
            slack = slack.min(ctx.get(self.state.sum_max) - rhs);
        }
        slack < 0 || i128::from(ctx.get(self.state.widest)) > slack
    }

    /// Brings term `i`'s cached bounds and the sums up to date with its current bounds, and answers
    /// [`Linear::may_prune`] from the new sums; O(1), reading the cells once. A term's smallest
    /// value moves with its variable's lower bound when the coefficient is positive and with the
    /// upper bound when it is negative, and its largest value the other way round; `≤` keeps only
    /// the smallest values (and hears only of the bound that moves them).
    #[inline]
    fn refresh_term(&self, i: usize, ctx: &mut PropagationCtx<'_>) -> bool {
        let v = self.scope[i];
        let (lo, hi) = (ctx.lb(v), ctx.ub(v));
        let a = i128::from(self.coefficients[i]);
        let rhs = i128::from(self.rhs);
        let mut min = ctx.get(self.state.sum_min);
        let widest = i128::from(ctx.get(self.state.widest));
        let slack = if self.relation == Relation::Equal {
            let (lower, upper) = (self.lower_cell(i), self.upper_cell(i));
            let (old_lo, old_hi) = (ctx.get(lower) as i32, ctx.get(upper) as i32);
            let mut max = ctx.get(self.state.sum_max);
            if (lo, hi) != (old_lo, old_hi) {
                let lower_shift = a * (i128::from(lo) - i128::from(old_lo));
                let upper_shift = a * (i128::from(hi) - i128::from(old_hi));
                let (min_shift, max_shift) = if a >= 0 {
                    (lower_shift, upper_shift)
                } else {
                    (upper_shift, lower_shift)
                };
                min += min_shift;
                max += max_shift;
                ctx.set(self.state.sum_min, min);
                ctx.set(self.state.sum_max, max);
                ctx.set(lower, i64::from(lo));
                ctx.set(upper, i64::from(hi));
            }
            (rhs - min).min(max - rhs)
        } else {
            let cell = self.lower_cell(i);
            let (old, new) = (ctx.get(cell) as i32, self.smallest_side(i, lo, hi));
            if new != old {
                min += a * (i128::from(new) - i128::from(old));
                ctx.set(self.state.sum_min, min);
                ctx.set(cell, i64::from(new));
            }
            rhs - min
        };
        slack < 0 || widest > slack
    }

    /// The kept sums of the smallest and largest values; the second is meaningful under `=` only
    /// (`≤` never reads it).
    fn cached_sums(&self, ctx: &PropagationCtx<'_>) -> (i128, i128) {
        (ctx.get(self.state.sum_min), ctx.get(self.state.sum_max))
    }

    /// Bounds consistency from the cells: every term is cut to what the slack allows, until nothing
    /// changes; the sums follow each cut.
    ///
    /// Fails as a sum whose bounds `sums` cannot meet the right-hand side does, but by cutting its
    /// first term to what the rest leaves it, a cut that must empty its domain: the failure is
    /// then a bound the store refused ([`crate::Store::take_failure`]), which learning explains by
    /// the bounds of the other terms on that side (rather than by every domain of the scope).
    /// Search without learning sees the same wipe-out either way.
    fn fail_through_a_term(
        &self,
        ctx: &mut PropagationCtx<'_>,
        sums: (i128, i128),
    ) -> Result<(), Wipeout> {
        let rhs = i128::from(self.rhs);
        let equal = self.relation == Relation::Equal;
        if let Some((&a, &v)) = self
            .coefficients
            .iter()
            .zip(&self.scope)
            .find(|(a, _)| **a != 0)
        {
            let (p, q) = term_bounds(a, ctx.lb(v), ctx.ub(v));
            let upper = rhs - (sums.0 - p);
            let lower = equal.then(|| rhs - (sums.1 - q));
            let (x_lo, x_hi) = divide_bounds(a, lower, upper);
            ctx.restrict_bounds(v, x_lo, x_hi)?;
        }
        // The cut cannot succeed (the rest leaves the term less than its smallest value, or more
        // than its largest); should it, the sum fails all the same.
        Err(Wipeout)
    }

    /// The cells are exact on entry: every bound change of a scope variable was handed to
    /// [`Propagator::notify`] before the revision runs (or the initialisation computes them, on the
    /// first revision). A term can lose a value only when its span `|a|·(max x − min x)`
    /// exceeds the slack on one side (`c − Σ min`, and for `=` also `Σ max − c`), so the division that
    /// computes its new bounds runs only then, and a fixed term is passed over at once. The terms are
    /// visited and cut in scope order, so the domains change in the order the plain algorithm
    /// changes them.
    fn revise_bounds(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        debug_assert!(
            self.cells_match_domains(ctx),
            "a bound change reached {self:?} without notify"
        );
        let rhs = i128::from(self.rhs);
        let equal = self.relation == Relation::Equal;
        let mut sums = self.cached_sums(ctx);
        loop {
            if !self.feasible(sums.0, sums.1) {
                return self.fail_through_a_term(ctx, sums);
            }
            let mut slack = rhs - sums.0;
            if equal {
                slack = slack.min(sums.1 - rhs);
            }
            if i128::from(ctx.get(self.state.widest)) <= slack {
                break;
            }
            let mut changed = false;
            let mut widest = 0u128;
            // What the rest of the sum leaves the terms above their smallest values, and (for `=`)
            // below their largest; both only shrink as the pass cuts.
            let mut above = rhs - sums.0;
            let mut below = if equal { sums.1 - rhs } else { i128::MAX };
            for (i, (&a, &v)) in self.coefficients.iter().zip(&self.scope).enumerate() {
                let (lo, hi) = (ctx.lb(v), ctx.ub(v));
                if lo == hi || a == 0 {
                    // Its span is zero: nothing to cut, nothing to the widest.
                    continue;
                }
                // |a|·(hi − lo), in one widening multiplication.
                let mut span = u128::from(a.unsigned_abs()) * u128::from(hi.abs_diff(lo));
                if span as i128 > above || span as i128 > below {
                    let (p, q) = term_bounds(a, lo, hi);
                    // The rest of the sum lies in rest_min..=rest_max, so a·x must lie in
                    // (-inf or rhs - rest_max)..=(rhs - rest_min).
                    let upper = above + p;
                    let lower = equal.then(|| rhs - (sums.1 - q));
                    let (x_lo, x_hi) = divide_bounds(a, lower, upper);
                    // A failure is undone by search, cells included, so the sums need no saving.
                    ctx.restrict_bounds(v, x_lo, x_hi)?;
                    let (new_lo, new_hi) = (ctx.lb(v), ctx.ub(v));
                    if (new_lo, new_hi) != (lo, hi) {
                        changed = true;
                        let (new_p, new_q) = term_bounds(a, new_lo, new_hi);
                        sums.0 += new_p - p;
                        sums.1 += new_q - q;
                        above = rhs - sums.0;
                        if equal {
                            below = sums.1 - rhs;
                        }
                        span = (new_q - new_p) as u128;
                        self.store_term(i, new_lo, new_hi, ctx);
                    }
                }
                widest = widest.max(span);
            }
            ctx.set(self.state.widest, clamp_i64(widest as i128));
            if !changed {
                break;
            }
        }
        ctx.set(self.state.sum_min, sums.0);
        if equal {
            ctx.set(self.state.sum_max, sums.1);
        }
        Ok(())
    }

    /// Whether every term's cached bounds are its domain's, and the sums theirs: what
    /// [`Linear::revise_bounds`] relies on (checked in debug builds).
    fn cells_match_domains(&self, ctx: &PropagationCtx<'_>) -> bool {
        let (mut min, mut max) = (0i128, 0i128);
        for (i, (&a, &v)) in self.coefficients.iter().zip(&self.scope).enumerate() {
            let (lo, hi) = (ctx.lb(v), ctx.ub(v));
            let kept = if self.relation == Relation::Equal {
                ctx.get(self.lower_cell(i)) == i64::from(lo)
                    && ctx.get(self.upper_cell(i)) == i64::from(hi)
            } else {
                // A term with coefficient 0 hears of nothing (it adds nothing to the sums).
                a == 0 || ctx.get(self.lower_cell(i)) == i64::from(self.smallest_side(i, lo, hi))
            };
            if !kept {
                return false;
            }
            let (p, q) = term_bounds(a, lo, hi);
            min += p;
            max += q;
        }
        let (kept_min, kept_max) = self.cached_sums(ctx);
        kept_min == min && (self.relation != Relation::Equal || kept_max == max)
    }
}

/// Explains a bound that bounds reasoning on `Σ aᵢxᵢ ≤ c` (or `= c` when `equal`) set on one term:
/// `a·x ≤ c − Σ min(aᵢ·xᵢ)` holds because of the bound of each other term that gives its smallest
/// value (`xᵢ ≥ lo` for a positive coefficient, `xᵢ ≤ hi` for a negative one); under `=` the other
/// side likewise by the largest values. Shared by [`Linear`] and the Boolean sums
/// ([`super::BoolSum`]), whose reasoning is the same on 0/1 terms. Returns false (no explanation)
/// for a disequality literal or a variable that is not in the scope exactly once.
pub(super) fn explain_bounds(
    coefficients: &[i64],
    scope: &[VarId],
    equal: bool,
    rhs: i64,
    literal: Literal,
    ctx: &ExplainCtx<'_>,
    reasons: &mut Vec<Literal>,
) -> bool {
    let Some(j) = scope.iter().position(|&v| v == literal.var) else {
        return false;
    };
    if scope[j + 1..].contains(&literal.var) {
        // A variable twice in the sum: its bound reasoning is not per term.
        return false;
    }
    let a = coefficients[j];
    // A removal of a bound's value is explained as a bound that rules it out (the store may log
    // the cut of a two-valued domain so, and a removal the store refused on a fixed variable is
    // explained at the failure).
    let (lo, hi) = ctx.bounds(literal.var);
    let relation = match literal.relation {
        crate::LiteralRelation::Ne if literal.value == lo || literal.value == hi => {
            // The other terms' smallest and largest sums: `a·x ≤ c − Σ min` rules the value out
            // from above, and under `=`, `a·x ≥ c − Σ max` from below.
            let (others_min, others_max) = coefficients
                .iter()
                .zip(scope)
                .enumerate()
                .filter(|&(i, _)| i != j)
                .map(|(_, (&c, &v))| term_bounds(c, ctx.lb(v), ctx.ub(v)))
                .fold((0i128, 0i128), |(min, max), (p, q)| (min + p, max + q));
            let value = i128::from(a) * i128::from(literal.value);
            let above = value > i128::from(rhs) - others_min;
            let below = equal && value < i128::from(rhs) - others_max;
            // The side a bound's own value suggests first (a removal of a bound's value is
            // usually that bound moving by one), then the other: a cut that empties the domain
            // from one side removes the other bound's value too, and the reasons must be the
            // ones that rule the value out.
            let suggests_above = if lo == hi {
                above
            } else {
                (literal.value == lo) == (a < 0)
            };
            let from_above = match (above, below) {
                (true, true) => suggests_above,
                (true, false) => true,
                (false, true) => false,
                (false, false) => return false,
            };
            // Bounding a·x from above is x's upper bound for a positive coefficient, else its
            // lower bound.
            if from_above == (a > 0) {
                crate::LiteralRelation::Le
            } else {
                crate::LiteralRelation::Ge
            }
        }
        relation => relation,
    };
    // Whether the literal bounds a·x from above (the ≤ side) or from below (the ≥ side of =).
    let (from_above, from_below) = match relation {
        crate::LiteralRelation::Le => (a > 0, a < 0),
        crate::LiteralRelation::Ge => (a < 0, a > 0),
        crate::LiteralRelation::Eq => (true, true),
        crate::LiteralRelation::Ne => return false,
    };
    if from_below && !equal {
        return false;
    }
    for (i, (&c, &v)) in coefficients.iter().zip(scope).enumerate() {
        if i == j || c == 0 {
            continue;
        }
        // The smallest value of c·v: its lower bound if c > 0, else its upper bound.
        if from_above {
            reasons.push(if c > 0 {
                Literal::ge(v, ctx.lb(v))
            } else {
                Literal::le(v, ctx.ub(v))
            });
        }
        if from_below {
            reasons.push(if c > 0 {
                Literal::le(v, ctx.ub(v))
            } else {
                Literal::ge(v, ctx.lb(v))
            });
        }
    }
    true
}

/// Pushes the bound of each term of `Σ aᵢxᵢ ≤ c` that gives it its smallest value (`largest`
/// false) or its largest (`largest` true), skipping term `skip`.
fn push_side(
    coefficients: &[i64],
    scope: &[VarId],
    largest: bool,
    skip: Option<usize>,
    ctx: &ExplainCtx<'_>,
    reasons: &mut Vec<Literal>,
) {
    for (i, (&c, &v)) in coefficients.iter().zip(scope).enumerate() {
        if Some(i) == skip || c == 0 {
            continue;
        }
        reasons.push(if (c > 0) != largest {
            Literal::ge(v, ctx.lb(v))
        } else {
            Literal::le(v, ctx.ub(v))
        });
    }
}

/// Explains a failure of bounds reasoning on `Σ aᵢxᵢ ≤ c` (or `= c` when `equal`), in the domains
/// of `ctx`: the sum of the smallest values above `c` (one bound per term, the one giving its
/// smallest value), or under `=` the sum of the largest below `c`; otherwise one term whose
/// values all lie outside what the others' bounds leave it, explained by those bounds, its own
/// bounds and its values missing in between (a cut the store refused because the values between
/// the bounds were gone). Returns false, with `reasons` as they were, when none is found or the
/// missing values are too many to list.
pub(super) fn explain_bounds_failure(
    coefficients: &[i64],
    scope: &[VarId],
    equal: bool,
    rhs: i128,
    ctx: &ExplainCtx<'_>,
    reasons: &mut Vec<Literal>,
) -> bool {
    /// The most values of one term's range an explanation lists.
    const HOLES_BUDGET: i128 = 1 << 10;
    let bounds: Vec<(i128, i128)> = coefficients
        .iter()
        .zip(scope)
        .map(|(&a, &v)| term_bounds(a, ctx.lb(v), ctx.ub(v)))
        .collect();
    let min: i128 = bounds.iter().map(|b| b.0).sum();
    let max: i128 = bounds.iter().map(|b| b.1).sum();
    if min > rhs {
        push_side(coefficients, scope, false, None, ctx, reasons);
        return true;
    }
    if equal && max < rhs {
        push_side(coefficients, scope, true, None, ctx, reasons);
        return true;
    }
    for (j, (&a, &x)) in coefficients.iter().zip(scope).enumerate() {
        if a == 0 || scope[j + 1..].contains(&x) || scope[..j].contains(&x) {
            continue;
        }
        let (p, q) = bounds[j];
        let upper = rhs - (min - p);
        let lower = equal.then(|| rhs - (max - q));
        let (x_lo, x_hi) = divide_bounds(a, lower, upper);
        let own = ctx.bounds(x);
        let (lo, hi) = (x_lo.max(i64::from(own.0)), x_hi.min(i64::from(own.1)));
        if i128::from(hi) - i128::from(lo) >= HOLES_BUDGET {
            continue;
        }
        if (lo..=hi).any(|v| ctx.contains_within(x, v as i32, own)) {
            continue;
        }
        // Every value the others leave `x` is missing: the others' bounds on the sides that
        // cut it, `x`'s own bounds, and its holes between them.
        if x_hi < i64::from(own.1) {
            push_side(coefficients, scope, false, Some(j), ctx, reasons);
        }
        if x_lo > i64::from(own.0) {
            push_side(coefficients, scope, true, Some(j), ctx, reasons);
        }
        reasons.push(Literal::ge(x, own.0));
        reasons.push(Literal::le(x, own.1));
        for v in lo..=hi {
            reasons.push(Literal::ne(x, v as i32));
        }
        return true;
    }
    false
}

/// The range of `a × x` for `x` in `lo..=hi`.
pub(super) fn term_bounds(a: i64, lo: i32, hi: i32) -> (i128, i128) {
    let (p, q) = (
        i128::from(a) * i128::from(lo),
        i128::from(a) * i128::from(hi),
    );
    (p.min(q), p.max(q))
}

/// The values of `x` with `a·x` in `lower..=upper` (no lower limit when `lower` is `None`), rounded
/// inwards and flipped when `a` is negative, as `i64` bounds.
pub(super) fn divide_bounds(a: i64, lower: Option<i128>, upper: i128) -> (i64, i64) {
    let a = i128::from(a);
    let (x_lo, x_hi) = if a > 0 {
        (lower.map(|l| ceil_div(l, a)), Some(floor_div(upper, a)))
    } else {
        (Some(ceil_div(upper, a)), lower.map(|l| floor_div(l, a)))
    };
    (
        x_lo.map_or(i64::MIN, clamp_i64),
        x_hi.map_or(i64::MAX, clamp_i64),
    )
}

impl Constraint for Linear {
    fn scope(&self) -> &[VarId] {
        &self.scope
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
}

impl Propagator for Linear {
    /// Bounds reasoning explained by bounds: a bound set on one term holds because of the bound
    /// of each other term that gives its smallest value (under `=` also its largest, for the
    /// other side).
    ///
    /// A disequality's one removal, the value that would complete the sum, is explained by the
    /// values of the other terms.
    fn explain(&self, literal: Literal, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        if self.relation == Relation::NotEqual {
            return self.explain_not_equal(literal, ctx, reasons);
        }
        explain_bounds(
            &self.coefficients,
            &self.scope,
            self.relation == Relation::Equal,
            self.rhs,
            literal,
            ctx,
            reasons,
        )
    }

    /// A sum whose bounds cannot meet the right-hand side (see `explain_bounds_failure`); a
    /// disequality by the values of its terms, all fixed to a sum of `c`.
    fn explain_failure(&self, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        if self.relation != Relation::NotEqual {
            return explain_bounds_failure(
                &self.coefficients,
                &self.scope,
                self.relation == Relation::Equal,
                i128::from(self.rhs),
                ctx,
                reasons,
            );
        }
        let start = reasons.len();
        let mut sum = 0i128;
        for (&a, &v) in self.coefficients.iter().zip(&self.scope) {
            if a == 0 {
                continue;
            }
            let (lo, hi) = ctx.bounds(v);
            if lo != hi {
                reasons.truncate(start);
                return false;
            }
            sum += i128::from(a) * i128::from(lo);
            reasons.push(Literal::eq(v, lo));
        }
        if sum != i128::from(self.rhs) {
            reasons.truncate(start);
            return false;
        }
        true
    }

    /// Bounds consistency for `=` and `≤` (weaker than arc consistency on equalities, whose holes
    /// inside a domain it does not see); for `≠`, the one value that would complete the sum.
    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        if !ctx.get(self.state.initialised) {
            self.initialise(ctx);
        }
        match self.relation {
            Relation::NotEqual => {
                if ctx.get(self.state.unfixed) >= 2 {
                    return Ok(());
                }
                self.filter_not_equal(ctx)
            }
            Relation::Equal | Relation::LessOrEqual => self.revise_bounds(ctx),
        }
    }

    /// `=` reads both bounds. `≤` reads only the bound that gives each term its smallest value
    /// (a lower bound for a positive coefficient, an upper bound for a negative one): the other
    /// bound only narrows the term's span, which can prune nothing, and a change of it would find
    /// `may_prune` answering as it did after the last change. A disequality waits for
    /// fixed variables.
    fn subscribe(&self, position: usize) -> EventSet {
        match self.relation {
            Relation::NotEqual => EventSet::FIXED,
            Relation::Equal => EventSet::BOUNDS,
            Relation::LessOrEqual => match self.coefficients[position] {
                0 => EventSet::EMPTY,
                a if a > 0 => EventSet::LOWER_BOUND,
                _ => EventSet::UPPER_BOUND,
            },
        }
    }

    fn uses_notify(&self) -> bool {
        true
    }

    /// O(1): moves the sums by the change of one term's bounds (or counts one more fixed term), and
    /// queues the revision only when it could prune.
    fn notify(&self, position: usize, _events: EventSet, ctx: &mut PropagationCtx<'_>) -> bool {
        if !ctx.get(self.state.initialised) {
            self.initialise(ctx);
        } else if self.relation == Relation::NotEqual {
            let var = self.scope[position];
            if !ctx.get(self.state.fixed.at(position))
                && let Some(x) = ctx.fixed_value(var)
            {
                ctx.set(self.state.fixed.at(position), true);
                ctx.add(self.state.unfixed, -1);
                let sum = ctx.get(self.state.fixed_sum)
                    + i128::from(self.coefficients[position]) * i128::from(x);
                ctx.set(self.state.fixed_sum, sum);
            }
        } else {
            return self.refresh_term(position, ctx);
        }
        match self.relation {
            Relation::NotEqual => ctx.get(self.state.unfixed) <= 1,
            Relation::Equal | Relation::LessOrEqual => self.may_prune(ctx),
        }
    }

    fn priority(&self) -> Priority {
        if self.scope.len() <= 2 {
            Priority::High
        } else {
            Priority::Medium
        }
    }

    /// From the sum's bounds (kept in the cells for `=` and `≤`): `≤ c` is entailed when the largest
    /// sum is at most `c`, `= c` when the sum is fixed at `c`, `≠ c` when `c` lies outside the sum's
    /// range; each is disentailed when no sum in the range can meet `c`.
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
    fn negation(&self) -> Option<Box<dyn crate::Post>> {
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
                // `c` is an i64, so −c − 1 is too unless c is i64::MIN.
                self.rhs.checked_neg()?.checked_sub(1)?,
            ),
        };
        Some(Box::new(negated))
    }

    // Value enumeration.
    /// With at most two variables the check's bounds come from the partner alone (its value, or its
    /// domain, which check-past never narrows); with more, the bounds of several variables add up.
    fn check_is_pairwise(&self) -> bool {
        self.scope.len() <= 2 && self.relation != Relation::NotEqual
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

    /// Forward checking filters from scratch: one pass, whose cuts the store then notifies, so
    /// the cells follow them.
    fn forward_check(&self, _var: VarId, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        match self.relation {
            Relation::NotEqual => self.filter_not_equal(ctx),
            Relation::Equal | Relation::LessOrEqual => self.filter_bounds(ctx),
        }
    }
}

impl Linear {
    /// Why a disequality took the completing value from `literal.var`: every other term with a
    /// coefficient was fixed (their values are the reasons), and the value the literal excludes is
    /// the one that completes the sum (for a bound literal, with the variable's own bound, the
    /// only value between the two). False when that is not so, or the variable is in the sum
    /// twice.
    fn explain_not_equal(
        &self,
        literal: Literal,
        ctx: &ExplainCtx<'_>,
        reasons: &mut Vec<Literal>,
    ) -> bool {
        let x = literal.var;
        let Some(i) = self.scope.iter().position(|&v| v == x) else {
            return false;
        };
        if self.scope[i + 1..].contains(&x) || self.coefficients[i] == 0 {
            return false;
        }
        let start = reasons.len();
        let mut rest = i128::from(self.rhs);
        for (j, (&a, &v)) in self.coefficients.iter().zip(&self.scope).enumerate() {
            if j == i || a == 0 {
                continue;
            }
            match ctx.bounds(v) {
                (lo, hi) if lo == hi => {
                    rest -= i128::from(a) * i128::from(lo);
                    reasons.push(Literal::eq(v, lo));
                }
                _ => {
                    reasons.truncate(start);
                    return false;
                }
            }
        }
        let a = i128::from(self.coefficients[i]);
        let completing = (rest % a == 0)
            .then(|| i32::try_from(rest / a).ok())
            .flatten();
        // The values the literal takes, which must be the completing one alone.
        let (lo, hi) = ctx.bounds(x);
        let taken = |w: i32| !literal.holds_for(w) && ctx.contains_within(x, w, (lo, hi));
        let alone = match literal.relation {
            crate::LiteralRelation::Ne => completing == Some(literal.value),
            crate::LiteralRelation::Ge => {
                (lo..literal.value).all(|w| !taken(w) || Some(w) == completing)
            }
            crate::LiteralRelation::Le => {
                (literal.value.saturating_add(1)..=hi).all(|w| !taken(w) || Some(w) == completing)
            }
            crate::LiteralRelation::Eq => false,
        };
        if !alone {
            reasons.truncate(start);
            return false;
        }
        ctx.push_own_bounds(literal, reasons);
        true
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

    /// Bounds consistency from scratch (forward checking's filter): cuts every variable's bounds to
    /// the values whose term the rest of the sum, at its bounds, can still complement, until nothing
    /// changes.
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
                let upper = rhs - (min - p);
                let lower = match self.relation {
                    Relation::Equal => Some(rhs - (max - q)),
                    Relation::LessOrEqual | Relation::NotEqual => None,
                };
                let (x_lo, x_hi) = divide_bounds(a, lower, upper);
                changed |= ctx.store.set_bounds(v, x_lo, x_hi)?;
            }
            if !changed {
                return Ok(());
            }
        }
    }
}
