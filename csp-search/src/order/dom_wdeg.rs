use std::cmp::Ordering;

use csp_core::{ConstraintId, VarId};
use rand::RngExt;

use super::select::{SelectCtx, VariableOrder};
use crate::{Rng, TiePolicy, rng_for};

/// The random stream dom/wdeg's tie breaking draws from (see [`rng_for`]; MIN's ties use stream 1).
const TIE_STREAM: u64 = 4;

/// Boussemart, Hemery, Lecoutre and Saïs's dom/wdeg ("Boosting systematic search by weighting
/// constraints", ECAI 2004): the unassigned variable with the smallest ratio of its choices to its
/// weighted degree.
///
/// Every constraint has a weight, 1 at the start, raised by 1 each time the constraint's propagation
/// fails ([`VariableOrder::on_wipeout`]). A variable's weighted degree sums the weights of its
/// constraints that still have another unassigned variable. So search turns first to the variables of
/// the constraints that have failed most often: the hard part of the problem, wherever the model put
/// it. The weights persist across restarts, which is what makes restarting with dom/wdeg pay even
/// without randomness: each run starts from what the earlier ones learnt.
///
/// The choices are the domain size under forward checking and MAC, the consistent values under
/// check-past (which reports no wipe-outs, so the weights stay 1 and the rule is dom/deg there). A
/// variable with no constraint left to another unassigned variable has an infinite ratio and comes
/// last. Equal ratios go to the smaller domain, then by [`TiePolicy`].
#[derive(Debug, Clone)]
pub struct DomWdeg {
    ties: TiePolicy,
    rng: Rng,
    /// How often each constraint has failed, by [`ConstraintId::index`]; grown on the first failure.
    failures: Vec<u64>,
    /// For each variable, the failures of all its constraints together (grown with `failures`): with
    /// its number of constraints, a bound on its weighted degree that costs nothing to read.
    var_failures: Vec<u64>,
    /// The unassigned variables at the current node: choices and weighted degree.
    scratch: Vec<(VarId, u64, u64)>,
    /// Under check-past: one variable's values, filtered in place to count its choices.
    values: Vec<i32>,
}

impl DomWdeg {
    /// dom/wdeg with the given tie policy; `seed` drives [`TiePolicy::Random`].
    pub fn new(ties: TiePolicy, seed: u64) -> Self {
        DomWdeg {
            ties,
            rng: rng_for(seed, TIE_STREAM),
            failures: Vec::new(),
            var_failures: Vec::new(),
            scratch: Vec::new(),
            values: Vec::new(),
        }
    }

    /// The constraint's weight: 1 plus its failures so far.
    pub fn weight(&self, constraint: ConstraintId) -> u64 {
        1 + self.failures.get(constraint.index()).copied().unwrap_or(0)
    }

    /// The sum of the weights of `var`'s constraints that still relate it to another unassigned
    /// variable.
    pub fn weighted_degree(&self, ctx: &SelectCtx<'_>, var: VarId) -> u64 {
        ctx.model()
            .constraints_of(var)
            .iter()
            .filter(|&&c| ctx.store().unassigned_in_scope(c) > 1)
            .map(|&c| self.weight(c))
            .sum()
    }

    /// A bound on [`DomWdeg::weighted_degree`] that costs nothing to read: the variable's
    /// constraints and their failures, every constraint counted whether or not it still relates
    /// the variable to another unassigned one.
    pub(crate) fn weighted_degree_bound(&self, ctx: &SelectCtx<'_>, var: VarId) -> u64 {
        ctx.model().constraints_of(var).len() as u64
            + self.var_failures.get(var.index()).copied().unwrap_or(0)
    }
}

/// Orders two candidates `(choices, weighted degree)` by dom/wdeg, smaller ratio first, comparing
/// `a/b < c/d` as `a·d < c·b` so that no rounding enters; equal ratios go to fewer choices.
pub(crate) fn compare(a: (u64, u64), b: (u64, u64)) -> Ordering {
    let left = u128::from(a.0) * u128::from(b.1);
    let right = u128::from(b.0) * u128::from(a.1);
    // A zero weighted degree is an infinite ratio, never better than a finite one.
    match (a.1 == 0, b.1 == 0) {
        (true, false) => Ordering::Greater,
        (false, true) => Ordering::Less,
        _ => left.cmp(&right).then(a.0.cmp(&b.0)),
    }
}

impl VariableOrder for DomWdeg {
    fn select(&mut self, ctx: &SelectCtx<'_>) -> Option<VarId> {
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.clear();
        let mut best: Option<(u64, u64)> = None;
        for &var in ctx.unassigned_unordered() {
            let choices = if ctx.propagation().prunes_domains() {
                ctx.size(var)
            } else {
                self.values.clear();
                ctx.append_choices(var, &mut self.values) as u64
            };
            // The weighted degree costs a pass over the variable's constraints; skip it when even
            // the bound (every constraint counted) leaves the ratio worse than the best so far, so a
            // skipped variable is never among the best or tied with them.
            let bound = self.weighted_degree_bound(ctx, var);
            if best.is_some_and(|best| compare((choices, bound), best) == Ordering::Greater) {
                continue;
            }
            let key = (choices, self.weighted_degree(ctx, var));
            if best.is_none_or(|best| compare(key, best) == Ordering::Less) {
                best = Some(key);
            }
            scratch.push((var, key.0, key.1));
        }
        let chosen = best.and_then(|best| {
            let mut ties = scratch
                .iter()
                .filter(|&&(_, c, w)| compare((c, w), best) == Ordering::Equal)
                .map(|&(v, _, _)| v);
            match self.ties {
                TiePolicy::LowestIndex => ties.min(),
                TiePolicy::MaxDegree => ties.max_by_key(|&v| (ctx.degree(v), std::cmp::Reverse(v))),
                TiePolicy::Random => {
                    let count = ties.clone().count();
                    let pick = self.rng.random_range(0..count.max(1));
                    ties.nth(pick)
                }
            }
        });
        self.scratch = scratch;
        chosen
    }

    fn on_wipeout(&mut self, constraint: ConstraintId, ctx: &SelectCtx<'_>) {
        let model = ctx.model();
        if self.failures.len() <= constraint.index() {
            self.failures
                .resize(model.num_constraints().max(constraint.index() + 1), 0);
            self.var_failures.resize(model.num_vars(), 0);
        }
        self.failures[constraint.index()] += 1;
        for &var in model.constraint(constraint).scope() {
            if let Some(failures) = self.var_failures.get_mut(var.index()) {
                *failures += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use csp_core::constraints::NotEqual;
    use csp_core::{ModelBuilder, Store};

    use super::*;
    use crate::Propagation;

    #[test]
    fn ratios_compare_exactly_and_zero_degree_comes_last() {
        assert_eq!(
            compare((2, 1), (4, 2)),
            Ordering::Less,
            "equal ratio, fewer choices"
        );
        assert_eq!(compare((3, 2), (2, 1)), Ordering::Less, "1.5 < 2");
        assert_eq!(compare((1, 0), (9, 1)), Ordering::Greater);
        assert_eq!(
            compare((2, 0), (3, 0)),
            Ordering::Less,
            "both infinite: fewer choices"
        );
        assert_eq!(compare((2, 3), (2, 3)), Ordering::Equal);
    }

    #[test]
    fn a_failing_constraint_draws_the_search_to_its_variables() {
        // a ≠ b and c ≠ d, every domain the same: the degrees tie, so the lowest index goes first
        // until c ≠ d fails twice.
        let mut builder = ModelBuilder::new();
        let vars: Vec<_> = (0..4)
            .map(|i| builder.int_var(format!("v{i}"), 0..=2).unwrap())
            .collect();
        builder.post(NotEqual::new(vars[0], vars[1])).unwrap();
        let hard = builder.post(NotEqual::new(vars[2], vars[3])).unwrap();
        let model = builder.build();
        let store = Store::new(&model);
        let ctx = SelectCtx::new(&model, &store, Propagation::Mac);
        let mut order = DomWdeg::new(TiePolicy::LowestIndex, 0);
        assert_eq!(order.select(&ctx), Some(vars[0]));
        order.on_wipeout(hard, &ctx);
        assert_eq!(order.weight(hard), 2);
        assert_eq!(order.weighted_degree(&ctx, vars[2]), 2);
        assert_eq!(order.select(&ctx), Some(vars[2]));
    }

    #[test]
    fn random_ties_are_seeded_and_reach_every_tied_variable() {
        super::super::test_support::assert_random_ties_are_seeded_and_reach_every_variable(
            |seed| DomWdeg::new(TiePolicy::Random, seed),
        );
    }
}
