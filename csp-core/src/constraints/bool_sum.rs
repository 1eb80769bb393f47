//! Sums of Booleans with unit coefficients, and at most one integer term: the cardinality
//! constraints that MiniZinc's `sum(bool2int(...))`, `count` and neighbourhood sums flatten to.

use crate::Domains;
use crate::{
    CheckCtx, Constraint, Constructor, EventSet, ExplainCtx, Literal, ModelError, PostCtx,
    PropagationCtx, Propagator, Slot, Slots, VarId, Wipeout,
    constraints::{
        boolean::booleanise,
        linear::{Relation, divide_bounds, explain_bounds, explain_bounds_failure, term_bounds},
    },
    revision::Priority,
};

/// `Σ sᵢ·bᵢ + a·y = c` or `≤ c`, where each `bᵢ` is a 0/1 variable with a unit coefficient
/// `sᵢ = ±1`, and the integer term `a·y` is optional: the sum of Booleans that FlatZinc writes as
/// `int_lin_eq` or `bool_lin_le` (still life's neighbour counts, a count of chosen items, the
/// number of true conditions bounded by a variable).
///
/// It propagates exactly what [`crate::constraints::Linear`] does on the same terms (bounds
/// consistency, which on 0/1 terms with `a = ±1` removes every value without support between the
/// bounds), for a fraction of the cost. Write each term as a literal that is true when the
/// Boolean contributes its larger value (`bᵢ` for `sᵢ = 1`, `¬bᵢ` for `sᵢ = −1`); the sum is
/// then `L + a·y ⋈ k`, with `L` the number of true literals and `k = c + #{sᵢ = −1}`. The state
/// cells hold two bit sets over the Booleans, the literals known true and those known false, so a
/// Boolean being fixed costs one trailed write, however long the sum, where a linear sum moves
/// two 128-bit sums and two cached bounds. The revision runs only when something can be cut:
///
/// - `a·y` lies in `k − (n − F) ..= k − T` (`T` true and `F` false literals of `n`; under `≤`
///   only the upper side);
/// - once `T` reaches `k − min(a·y)`, every open literal is false; once `n − F` falls to
///   `k − max(a·y)` (under `=`), every open literal is true.
///
/// One pass reaches the fixpoint: the literals it fixes leave `a·y` where the first step put it.
/// Explanations are the linear sum's (each bound by the other terms' bounds), so learning from
/// failure sees the same clauses.
///
/// Every `bᵢ` is a Boolean: the checker refuses other values and the first revision cuts each
/// domain to `{0, 1}`.
#[derive(Debug, Clone)]
pub struct BoolSum {
    /// The Booleans, then `y` if there is an integer term.
    scope: Vec<VarId>,
    /// Each scope variable's coefficient: `±1` for the Booleans, then `a`.
    coefficients: Vec<i64>,
    /// How many Booleans (`n`): the scope positions before the integer term.
    booleans: usize,
    relation: Relation,
    rhs: i64,
    /// `k = c + #{sᵢ = −1}`, what the true literals and the integer term add up to.
    k: i128,
    /// Whether the bit sets describe the domains: false before the first revision.
    initialised: Slot<bool>,
    /// The bit set of the literals known true, a word per 64 Booleans ...
    known_true: Slots<i64>,
    /// ... and of those known false.
    known_false: Slots<i64>,
}

impl BoolSum {
    /// `Σ sᵢ·bᵢ + a·y ⋈ rhs` over the Booleans `booleans` (`(sᵢ, bᵢ)` with `sᵢ = ±1`) and the
    /// optional integer term `(a, y)` with `a ≠ 0`, for `⋈` either `=` or `≤`.
    ///
    /// Refuses another coefficient on a Boolean, a zero `a`, a variable that appears twice, and the
    /// relation `≠` (a [`crate::constraints::Linear`] propagates that).
    pub fn new(
        booleans: Vec<(i64, VarId)>,
        integer: Option<(i64, VarId)>,
        relation: Relation,
        rhs: i64,
    ) -> Result<Constructor<Self>, ModelError> {
        let invalid = |reason: &str| ModelError::InvalidConstraint {
            constraint: "Boolean sum".to_owned(),
            reason: reason.to_owned(),
        };
        if relation == Relation::NotEqual {
            return Err(invalid("relates by = or ≤ only"));
        }
        if booleans.iter().any(|&(s, _)| s != 1 && s != -1) {
            return Err(invalid("a Boolean's coefficient must be 1 or -1"));
        }
        if integer.is_some_and(|(a, _)| a == 0) {
            return Err(invalid("the integer term's coefficient must not be 0"));
        }
        let (mut coefficients, mut scope): (Vec<i64>, Vec<VarId>) = booleans.into_iter().unzip();
        let n = scope.len();
        let negative = coefficients.iter().filter(|&&s| s < 0).count();
        if let Some((a, y)) = integer {
            coefficients.push(a);
            scope.push(y);
        }
        let mut sorted = scope.clone();
        sorted.sort_unstable();
        if sorted.windows(2).any(|w| w[0] == w[1]) {
            return Err(invalid("a variable appears twice"));
        }
        Ok(Constructor::new(move |state: &mut PostCtx| {
            let words = n.div_ceil(64);
            Ok(BoolSum {
                scope,
                coefficients,
                booleans: n,
                relation,
                rhs,
                k: i128::from(rhs) + negative as i128,
                initialised: state.slot(),
                known_true: state.slots(words),
                known_false: state.slots(words),
            })
        }))
    }

    /// The integer term's variable and coefficient.
    fn integer(&self) -> Option<(VarId, i64)> {
        (self.scope.len() > self.booleans)
            .then(|| (self.scope[self.booleans], self.coefficients[self.booleans]))
    }

    /// The value Boolean `i` takes when its literal is true.
    fn true_value(&self, i: usize) -> i64 {
        i64::from(self.coefficients[i] > 0)
    }

    /// `(T, F)`: how many literals the bit sets hold true and false.
    fn counts(&self, ctx: &CheckCtx<'_>) -> (i128, i128) {
        let ones = |set: &[i64]| {
            set.iter()
                .map(|&x| i128::from(x.count_ones()))
                .sum::<i128>()
        };
        (
            ones(ctx.run(self.known_true)),
            ones(ctx.run(self.known_false)),
        )
    }

    /// The range of `a·y` over `y`'s bounds, or `(0, 0)` without an integer term.
    fn integer_range(&self, lb: impl Fn(VarId) -> i32, ub: impl Fn(VarId) -> i32) -> (i128, i128) {
        match self.integer() {
            Some((y, a)) => term_bounds(a, lb(y), ub(y)),
            None => (0, 0),
        }
    }

    /// Whether a revision could cut something (or must report a failure), from the bit sets and
    /// `y`'s bounds: O(words).
    fn may_prune(&self, ctx: &PropagationCtx<'_>) -> bool {
        let (t, f) = self.counts(&ctx.as_check());
        let n = self.booleans as i128;
        let (low, high) = self.integer_range(|v| ctx.lb(v), |v| ctx.ub(v));
        let equal = self.relation == Relation::Equal;
        // `a·y` beyond what the literals leave it (without `y`, the same test is a failure).
        if high > self.k - t || (equal && low < self.k - (n - f)) {
            return true;
        }
        let open = n - t - f;
        open > 0 && (t >= self.k - low || (equal && n - f <= self.k - high))
    }

    /// Computes the bit sets from the domains (every Boolean already in `{0, 1}`).
    fn initialise(&self, ctx: &mut PropagationCtx<'_>) {
        for word in 0..self.known_true.len() {
            let (mut known_true, mut known_false) = (0u64, 0u64);
            for i in word * 64..self.booleans.min(word * 64 + 64) {
                if let Some(value) = ctx.fixed_value(self.scope[i]) {
                    let bit = 1u64 << (i % 64);
                    if i64::from(value) == self.true_value(i) {
                        known_true |= bit;
                    } else {
                        known_false |= bit;
                    }
                }
            }
            ctx.set(self.known_true.at(word), known_true as i64);
            ctx.set(self.known_false.at(word), known_false as i64);
        }
        ctx.set(self.initialised, true);
    }

    /// Sets every open literal to `truth`.
    fn fix_open(&self, truth: bool, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        for i in 0..self.booleans {
            let b = self.scope[i];
            if ctx.lb(b) != ctx.ub(b) {
                let value = if truth {
                    self.true_value(i)
                } else {
                    1 - self.true_value(i)
                };
                ctx.restrict_bounds(b, value, value)?;
            }
        }
        Ok(())
    }

    /// Fails a sum without an integer term whose literals already break it, by flipping a literal
    /// that broke it (too many true, or under `=` too many false): the store refuses that change,
    /// which learning explains by the other literals, as the linear sum's failures are explained.
    fn fail_through_a_literal(
        &self,
        too_many_true: bool,
        ctx: &mut PropagationCtx<'_>,
    ) -> Result<(), Wipeout> {
        for i in 0..self.booleans {
            let b = self.scope[i];
            if let Some(value) = ctx.fixed_value(b) {
                let is_true = i64::from(value) == self.true_value(i);
                if is_true == too_many_true {
                    let flipped = 1 - i64::from(value);
                    ctx.restrict_bounds(b, flipped, flipped)?;
                }
            }
        }
        Err(Wipeout)
    }
}

impl Constraint for BoolSum {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let (bools, rest) = values.split_at(self.booleans);
        if bools.iter().any(|&v| v != 0 && v != 1) {
            return false;
        }
        let sum: i128 = self
            .coefficients
            .iter()
            .zip(bools.iter().chain(rest))
            .map(|(&a, &x)| i128::from(a) * i128::from(x))
            .sum();
        match self.relation {
            Relation::Equal => sum == i128::from(self.rhs),
            _ => sum <= i128::from(self.rhs),
        }
    }
}

impl Propagator for BoolSum {
    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        if !ctx.get(self.initialised) {
            booleanise(&self.scope[..self.booleans], ctx)?;
            self.initialise(ctx);
        }
        let (t, f) = self.counts(&ctx.as_check());
        let n = self.booleans as i128;
        let k = self.k;
        let equal = self.relation == Relation::Equal;
        match self.integer() {
            Some((y, a)) => {
                let lower = equal.then(|| k - (n - f));
                let (lo, hi) = divide_bounds(a, lower, k - t);
                ctx.restrict_bounds(y, lo, hi)?;
            }
            None if t > k => return self.fail_through_a_literal(true, ctx),
            None if equal && n - f < k => return self.fail_through_a_literal(false, ctx),
            None => {}
        }
        if n - t - f == 0 {
            return Ok(());
        }
        let (low, high) = self.integer_range(|v| ctx.lb(v), |v| ctx.ub(v));
        if t >= k - low {
            self.fix_open(false, ctx)
        } else if equal && n - f <= k - high {
            self.fix_open(true, ctx)
        } else {
            Ok(())
        }
    }

    /// A Boolean matters once fixed. `y` matters by both bounds under `=`, and under `≤` by the
    /// bound that gives `a·y` its smallest value.
    fn subscribe(&self, position: usize) -> EventSet {
        if position < self.booleans {
            return EventSet::FIXED;
        }
        match (self.relation, self.coefficients[position] > 0) {
            (Relation::Equal, _) => EventSet::BOUNDS,
            (_, true) => EventSet::LOWER_BOUND,
            (_, false) => EventSet::UPPER_BOUND,
        }
    }

    fn uses_notify(&self) -> bool {
        true
    }

    /// Records a fixed Boolean's literal in its bit set (once: a bit already set is left alone, so
    /// the revision's own changes, which it may have counted, are not counted twice), and queues
    /// the revision only when it could cut something.
    fn notify(&self, position: usize, _events: EventSet, ctx: &mut PropagationCtx<'_>) -> bool {
        if !ctx.get(self.initialised) {
            return true;
        }
        if position < self.booleans {
            let value = i64::from(ctx.lb(self.scope[position]));
            let bit = 1i64 << (position % 64);
            let set = if value == self.true_value(position) {
                self.known_true
            } else {
                self.known_false
            };
            let slot = set.at(position / 64);
            let word = ctx.get(slot);
            if word & bit == 0 {
                ctx.set(slot, word | bit);
            }
        }
        self.may_prune(ctx)
    }

    /// High: a revision is one pass that fixes Booleans or cuts one bound, cheap enough to run
    /// before the linear sums and globals (still life 9×9 searches 20 % more nodes a second than
    /// with medium priority).
    fn priority(&self) -> Priority {
        Priority::High
    }

    /// The linear sum's explanations: each bound by the bounds of the other terms. A Boolean's
    /// cut to `{0, 1}` needs no reason.
    fn explain(&self, literal: Literal, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        let var = literal.var;
        if self.scope[..self.booleans].contains(&var) {
            let (lo, hi) = ctx.bounds(var);
            // The cut to `{0, 1}` (the first revision's): a literal true of the Boolean values
            // left then follows from the constraint alone.
            if (lo < 0 || hi > 1)
                && (0..=1).all(|v| !ctx.contains_within(var, v, (lo, hi)) || literal.holds_for(v))
            {
                return true;
            }
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

    /// The linear sum's explanation of a failure; a Boolean left without 0 and 1 by its own
    /// bounds.
    fn explain_failure(&self, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        for &b in &self.scope[..self.booleans] {
            let (lo, hi) = ctx.bounds(b);
            if (0..=1).all(|v| !ctx.contains_within(b, v, (lo, hi))) {
                reasons.push(Literal::ge(b, lo));
                reasons.push(Literal::le(b, hi));
                for v in (0..=1).filter(|v| (lo..=hi).contains(v)) {
                    reasons.push(Literal::ne(b, v));
                }
                return true;
            }
        }
        explain_bounds_failure(
            &self.coefficients,
            &self.scope,
            self.relation == Relation::Equal,
            i128::from(self.rhs),
            ctx,
            reasons,
        )
    }

    /// From the domains: the sum lies between the true literals plus `min(a·y)` and the literals
    /// not false plus `max(a·y)`. Unknown while some Boolean's domain still holds another value
    /// than 0 and 1.
    fn entailment(&self, ctx: &CheckCtx<'_>) -> Option<bool> {
        let (mut t, mut f) = (0i128, 0i128);
        for i in 0..self.booleans {
            let b = self.scope[i];
            let (lo, hi) = (ctx.lb(b), ctx.ub(b));
            if lo < 0 || hi > 1 {
                return None;
            }
            if lo == hi {
                if i64::from(lo) == self.true_value(i) {
                    t += 1;
                } else {
                    f += 1;
                }
            }
        }
        let (low, high) = self.integer_range(|v| ctx.lb(v), |v| ctx.ub(v));
        let (min, max) = (t + low, self.booleans as i128 - f + high);
        let k = self.k;
        match self.relation {
            Relation::Equal if min == max => Some(min == k),
            Relation::Equal if k < min || k > max => Some(false),
            Relation::LessOrEqual if max <= k => Some(true),
            Relation::LessOrEqual if min > k => Some(false),
            _ => None,
        }
    }

    // Value enumeration.
    /// The revision, whose bit sets the store's notifications keep exact under forward checking
    /// too.
    fn forward_check(&self, _var: VarId, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        self.revise(ctx)
    }
}
