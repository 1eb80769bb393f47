use std::cmp::Ordering;

use csp_core::{ConstraintId, DomainView, Model, VarId};
use fixedbitset::FixedBitSet;
use rand::RngExt;

use super::brancher::{Branch, Brancher, Decision};
use super::selection::{IntSearch, ValueSelection, VariableSelection};
use crate::order::{DomWdeg, compare_dom_wdeg};
use crate::{Rng, SelectCtx, TiePolicy, rng_for};

/// The random stream `indomain_random` draws from (see [`rng_for`]; streams 1–4 belong to the
/// orderings of value enumeration).
const VALUE_STREAM: u64 = 5;

/// MiniZinc's search annotations as a brancher: `seq_search([int_search(...), ...])`, each search
/// branching on its variables until all are fixed, then the variables no search names, by dom/wdeg
/// and `indomain_min` (the free search's rule, [`DecisionBrancher::rest`]), except that a maximised
/// objective among them is tried at its largest value first: branch and bound then starts from the
/// best value the objective may take rather than walking up to it one solution at a time (Gecode's
/// FlatZinc interpreter does the same).
///
/// Every node is a binary decision (see [`ValueSelection`]); ties between equally good variables go to
/// the one listed first, as MiniZinc specifies.
#[derive(Debug, Clone)]
pub struct DecisionBrancher {
    searches: Vec<IntSearch>,
    rng: Rng,
    /// The constraint weights of `dom_w_deg`, raised on every failure.
    weights: DomWdeg,
    /// The completing search's index and the objective it tries at its largest value first, when
    /// the model maximises a variable no annotation names.
    maximised: Option<(usize, VarId)>,
    /// The completing search's index, if there is one.
    rest: Option<usize>,
}

impl DecisionBrancher {
    /// The searches over `model`, in order, then every variable they do not name by
    /// [`DecisionBrancher::rest`]; `seed` drives `indomain_random`.
    pub fn new(model: &Model, mut searches: Vec<IntSearch>, seed: u64) -> Self {
        let mut named = FixedBitSet::with_capacity(model.num_vars());
        for search in &searches {
            for var in &search.vars {
                named.insert(var.index());
            }
        }
        let rest: Vec<VarId> = model
            .vars()
            .filter(|v| !named.contains(v.index()))
            .collect();
        let maximised = match model.objective() {
            csp_core::Objective::Maximize(objective) if rest.contains(&objective) => {
                Some((searches.len(), objective))
            }
            _ => None,
        };
        let rest = (!rest.is_empty()).then(|| {
            searches.push(Self::rest(rest));
            searches.len() - 1
        });
        DecisionBrancher {
            searches,
            rng: rng_for(seed, VALUE_STREAM),
            weights: DomWdeg::new(TiePolicy::LowestIndex, seed),
            maximised,
            rest,
        }
    }

    /// The same brancher, every variable tried in the order `value` gives rather than as its
    /// annotation says (the objective of a maximisation still from its largest value).
    /// Large-neighbourhood search's neighbourhoods take `indomain_random`, so that each looks
    /// somewhere else: with the annotations' values every neighbourhood started at the same corner
    /// of its space (template_design catfood_3 stayed at 409 of 408 for 20 s; with random values it
    /// reaches 408 in about a second).
    pub fn with_values(mut self, value: ValueSelection) -> Self {
        for search in &mut self.searches {
            search.value = value;
        }
        self
    }

    /// The same brancher without the completing search: it branches only on the variables the
    /// searches name, and has nothing to branch on once they are fixed. A search that decides the
    /// rest its own way (learning's activity, [`crate::Conflicts::Learn`]) takes over there.
    pub fn without_rest(mut self) -> Self {
        if let Some(rest) = self.rest.take() {
            self.searches.remove(rest);
            self.maximised = None;
        }
        self
    }

    /// How the variables no search names are branched on: dom/wdeg with `indomain_min`, the default
    /// of free search.
    pub fn rest(vars: Vec<VarId>) -> IntSearch {
        IntSearch::new(vars, VariableSelection::DomWDeg, ValueSelection::Min)
    }

    /// The searches, the completing one included.
    pub fn searches(&self) -> &[IntSearch] {
        &self.searches
    }
}

impl Brancher for DecisionBrancher {
    fn branch(&mut self, ctx: &SelectCtx<'_>, _values: &mut Vec<i32>) -> Option<Branch> {
        for (index, search) in self.searches.iter().enumerate() {
            if let Some(var) = select(search.variable, &search.vars, ctx, &self.weights) {
                let value = if self.maximised == Some((index, var)) {
                    ValueSelection::Max
                } else {
                    search.value
                };
                let decision = decide(value, var, ctx.domain(var), &mut self.rng);
                return Some(Branch::Binary(decision));
            }
        }
        None
    }

    fn on_wipeout(&mut self, constraint: ConstraintId, ctx: &SelectCtx<'_>) {
        crate::VariableOrder::on_wipeout(&mut self.weights, constraint, ctx);
    }
}

/// The variable `selection` picks among the unfixed ones of `vars`, if any is unfixed.
fn select(
    selection: VariableSelection,
    vars: &[VarId],
    ctx: &SelectCtx<'_>,
    weights: &DomWdeg,
) -> Option<VarId> {
    let mut unfixed = vars.iter().copied().filter(|&v| ctx.size(v) != 1);
    let degree = |v: VarId| ctx.model().constraints_of(v).len() as i128;
    // Every selection but dom/wdeg minimises a key; the first variable with the least key wins.
    let key = |v: VarId| -> (i128, i128) {
        let d = ctx.domain(v);
        match selection {
            VariableSelection::InputOrder => (0, 0),
            VariableSelection::FirstFail => (i128::from(d.size()), 0),
            VariableSelection::AntiFirstFail => (-i128::from(d.size()), 0),
            VariableSelection::Smallest => (i128::from(d.lb()), 0),
            VariableSelection::Largest => (-i128::from(d.ub()), 0),
            VariableSelection::Occurrence => (-degree(v), 0),
            VariableSelection::MostConstrained => (i128::from(d.size()), -degree(v)),
            VariableSelection::MaxRegret => {
                let second = d.next_value(d.lb()).unwrap_or(d.lb());
                (-(i128::from(second) - i128::from(d.lb())), 0)
            }
            VariableSelection::DomWDeg => (0, 0),
        }
    };
    match selection {
        VariableSelection::InputOrder => unfixed.next(),
        VariableSelection::DomWDeg => {
            let mut best: Option<(VarId, (u64, u64))> = None;
            for v in unfixed {
                let size = ctx.size(v);
                // As in `DomWdeg::select`: a variable whose ratio is worse than the best so far
                // even with every constraint counted can be neither chosen nor tied, so its
                // weighted degree (a pass over its constraints) is not needed. This is a fifth of
                // the time of a node on still_life, whose free search ranges over 537 variables.
                if best.is_some_and(|(_, b)| {
                    compare_dom_wdeg((size, weights.weighted_degree_bound(ctx, v)), b)
                        == Ordering::Greater
                }) {
                    continue;
                }
                let candidate = (size, weights.weighted_degree(ctx, v));
                if best.is_none_or(|(_, b)| compare_dom_wdeg(candidate, b) == Ordering::Less) {
                    best = Some((v, candidate));
                }
            }
            best.map(|(v, _)| v)
        }
        _ => {
            let first = unfixed.next()?;
            let mut best = (first, key(first));
            for v in unfixed {
                let k = key(v);
                if k < best.1 {
                    best = (v, k);
                }
            }
            Some(best.0)
        }
    }
}

/// The decision `selection` makes on `var`, whose domain (not fixed) is `domain`.
fn decide(
    selection: ValueSelection,
    var: VarId,
    domain: DomainView<'_>,
    rng: &mut Rng,
) -> Decision {
    let (lb, ub) = (domain.lb(), domain.ub());
    // ⌊(min + max) / 2⌋, rounding down for negative sums too.
    let middle = (i64::from(lb) + i64::from(ub)).div_euclid(2) as i32;
    match selection {
        ValueSelection::Min => Decision::Assign(var, lb),
        ValueSelection::Max => Decision::Assign(var, ub),
        ValueSelection::Median => Decision::Assign(var, median(domain)),
        ValueSelection::Middle => {
            let value = if domain.contains(middle) {
                middle
            } else {
                match (domain.prev_value(middle), domain.next_value(middle)) {
                    (Some(below), Some(above)) => {
                        let twice = i64::from(lb) + i64::from(ub);
                        let distance = |v: i32| (2 * i64::from(v) - twice).abs();
                        if distance(below) <= distance(above) {
                            below
                        } else {
                            above
                        }
                    }
                    (Some(v), None) | (None, Some(v)) => v,
                    (None, None) => lb,
                }
            };
            Decision::Assign(var, value)
        }
        ValueSelection::Random => {
            let k = rng.random_range(0..domain.size());
            Decision::Assign(var, domain.nth_value(k).expect("k is below the size"))
        }
        ValueSelection::Split => Decision::AtMost(var, middle),
        // `middle < ub` for an unfixed domain, so `middle + 1` cannot overflow.
        ValueSelection::ReverseSplit => Decision::AtLeast(var, middle + 1),
        ValueSelection::Interval => {
            let (_, first_end) = domain.runs().next().expect("an unfixed domain has values");
            // One interval: no hole to branch on, so halve it.
            Decision::AtMost(var, if first_end < ub { first_end } else { middle })
        }
        ValueSelection::OutdomainMin => Decision::Exclude(var, lb),
        ValueSelection::OutdomainMax => Decision::Exclude(var, ub),
        ValueSelection::OutdomainMedian => Decision::Exclude(var, median(domain)),
    }
}

/// The median value of a domain (the lower of the two middle values when it has an even number).
fn median(domain: DomainView<'_>) -> i32 {
    domain
        .nth_value((domain.size() - 1) / 2)
        .expect("the domain has that many values")
}

#[cfg(test)]
mod tests {
    use csp_core::{ModelBuilder, Store, constraints::NotEqual};

    use super::*;
    use crate::Propagation;

    #[test]
    fn each_selection_picks_as_minizinc_defines_it() {
        let mut builder = ModelBuilder::new();
        let a = builder.int_var("a", 0..=9).unwrap(); // 10 values, regret 1
        let b = builder.int_var_with_values("b", [3, 7, 8]).unwrap(); // 3 values, regret 4
        let c = builder.int_var("c", -5..=-2).unwrap(); // 4 values, smallest
        let d = builder.int_var("d", 20..=40).unwrap(); // largest, 21 values
        let e = builder.int_var("e", 1..=1).unwrap(); // fixed: never chosen
        builder.post(NotEqual::new(c, d)).unwrap();
        builder.post(NotEqual::new(c, a)).unwrap();
        let model = builder.build();
        let store = Store::new(&model);
        let ctx = SelectCtx::new(&model, &store, Propagation::Mac);
        let weights = DomWdeg::new(TiePolicy::LowestIndex, 0);
        let vars = [e, a, b, c, d];
        let pick = |s| select(s, &vars, &ctx, &weights);
        assert_eq!(pick(VariableSelection::InputOrder), Some(a));
        assert_eq!(pick(VariableSelection::FirstFail), Some(b));
        assert_eq!(pick(VariableSelection::AntiFirstFail), Some(d));
        assert_eq!(pick(VariableSelection::Smallest), Some(c));
        assert_eq!(pick(VariableSelection::Largest), Some(d));
        assert_eq!(pick(VariableSelection::Occurrence), Some(c));
        assert_eq!(pick(VariableSelection::MostConstrained), Some(b));
        assert_eq!(pick(VariableSelection::MaxRegret), Some(b));
        // c has two constraints for 4 values: the best ratio.
        assert_eq!(pick(VariableSelection::DomWDeg), Some(c));
        assert_eq!(
            select(VariableSelection::FirstFail, &[e], &ctx, &weights),
            None
        );
    }

    #[test]
    fn without_the_completing_search_only_named_variables_are_branched_on() {
        let mut builder = ModelBuilder::new();
        let x = builder.int_var("x", 0..=3).unwrap();
        let y = builder.int_var("y", 0..=3).unwrap();
        let model = builder.build();
        let store = Store::new(&model);
        let ctx = SelectCtx::new(&model, &store, crate::Propagation::Mac);
        let searches = vec![IntSearch::new(
            vec![y],
            VariableSelection::InputOrder,
            ValueSelection::Max,
        )];
        let mut full = DecisionBrancher::new(&model, searches.clone(), 0);
        assert_eq!(full.searches().len(), 2, "x falls to the completing search");
        let mut named = DecisionBrancher::new(&model, searches, 0).without_rest();
        assert_eq!(named.searches().len(), 1);
        let expected = Some(Branch::Binary(Decision::Assign(y, 3)));
        assert_eq!(full.branch(&ctx, &mut Vec::new()), expected);
        assert_eq!(named.branch(&ctx, &mut Vec::new()), expected);
        let mut store = Store::new(&model);
        store.set_bounds(y, 2, 2).unwrap();
        let ctx = SelectCtx::new(&model, &store, crate::Propagation::Mac);
        assert_eq!(
            full.branch(&ctx, &mut Vec::new()),
            Some(Branch::Binary(Decision::Assign(x, 0)))
        );
        assert_eq!(named.branch(&ctx, &mut Vec::new()), None);
    }

    #[test]
    fn each_value_selection_makes_its_decision() {
        let mut builder = ModelBuilder::new();
        let x = builder
            .int_var_with_values("x", [-7, -3, 0, 4, 10])
            .unwrap();
        let model = builder.build();
        let store = Store::new(&model);
        let domain = store.domain(x);
        let mut rng = rng_for(0, VALUE_STREAM);
        let mut d = |s| decide(s, x, domain, &mut rng);
        assert_eq!(d(ValueSelection::Min), Decision::Assign(x, -7));
        assert_eq!(d(ValueSelection::Max), Decision::Assign(x, 10));
        assert_eq!(d(ValueSelection::Median), Decision::Assign(x, 0));
        // Bounds -7..10: the middle is 1; 0 is nearer than 4.
        assert_eq!(d(ValueSelection::Middle), Decision::Assign(x, 0));
        assert_eq!(d(ValueSelection::Split), Decision::AtMost(x, 1));
        assert_eq!(d(ValueSelection::ReverseSplit), Decision::AtLeast(x, 2));
        // The first interval is -7 alone.
        assert_eq!(d(ValueSelection::Interval), Decision::AtMost(x, -7));
        assert_eq!(d(ValueSelection::OutdomainMin), Decision::Exclude(x, -7));
        assert_eq!(d(ValueSelection::OutdomainMax), Decision::Exclude(x, 10));
        assert_eq!(d(ValueSelection::OutdomainMedian), Decision::Exclude(x, 0));
        let Decision::Assign(_, v) = d(ValueSelection::Random) else {
            panic!("random assigns");
        };
        assert!(domain.contains(v));
    }

    #[test]
    fn indomain_interval_halves_a_domain_without_holes() {
        let mut builder = ModelBuilder::new();
        let x = builder.int_var("x", 3..=10).unwrap();
        let model = builder.build();
        let store = Store::new(&model);
        let mut rng = rng_for(0, VALUE_STREAM);
        let decision = decide(ValueSelection::Interval, x, store.domain(x), &mut rng);
        assert_eq!(decision, Decision::AtMost(x, 6));
    }
}
