//! Adversarial tests of the built-in constraints against brute force.
//!
//! Every property here builds a small random model (at most five variables, at most five values each,
//! sometimes non-contiguous, sometimes negative, sometimes at the very ends of `i32`) and compares the
//! fast paths of one constraint (`check`, `propagate`, `conflicts`) with an exhaustive search over the
//! constraint's checker. The checkers themselves are compared with an independent restatement of each
//! relation, so that a wrong checker cannot make a wrong fast path look right.

use std::collections::BTreeSet;

use csp_core::constraints::{AllDifferent, Linear, NotEqual, Predicate, Relation, Table};
use csp_core::{
    Constraint, ConstraintId, LocalCtx, LocalState, Model, ModelBuilder, ModelError, Post,
    Propagator, Store, VarId,
};
use proptest::prelude::*;
use proptest::sample::select;
use proptest::test_runner::FileFailurePersistence;

// ---------------------------------------------------------------------------------------------------
// Random instances
// ---------------------------------------------------------------------------------------------------

/// How a variable is declared: the two declarations go through different domain constructors, so
/// both are generated.
#[derive(Debug, Clone)]
enum DomainSpec {
    /// `int_var(name, lo..=hi)`.
    Range(i32, i32),
    /// `int_var_with_values(name, values)`, unsorted and with duplicates as generated.
    Values(Vec<i32>),
}

impl DomainSpec {
    /// The values the domain should hold, ascending and without duplicates.
    fn values(&self) -> Vec<i32> {
        match self {
            DomainSpec::Range(lo, hi) => (*lo..=*hi).collect(),
            DomainSpec::Values(values) => values
                .iter()
                .copied()
                .collect::<BTreeSet<_>>()
                .into_iter()
                .collect(),
        }
    }
}

/// One constraint, described by plain data so that proptest can print and shrink it and the test can
/// restate its meaning independently of csp-core.
#[derive(Debug, Clone)]
enum Spec {
    /// `x + a != y + b`.
    NotEqual {
        x: usize,
        a: i32,
        y: usize,
        b: i32,
    },
    AllDifferent {
        scope: Vec<usize>,
    },
    Table {
        scope: Vec<usize>,
        tuples: Vec<Vec<i32>>,
    },
    Linear {
        terms: Vec<(i32, usize)>,
        relation: Relation,
        rhs: i32,
    },
    /// A relation given by the set of allowed pairs.
    Predicate {
        x: usize,
        y: usize,
        allowed: Vec<(i32, i32)>,
    },
    /// A table whose constraint implements only `scope` and `is_satisfied`, so that the trait's
    /// default `check`, `propagate` and `conflicts` face the same properties as the built-ins.
    CheckerOnly {
        scope: Vec<usize>,
        tuples: Vec<Vec<i32>>,
    },
}

fn var(index: usize) -> VarId {
    VarId::from_index(index)
}

/// A constraint that relies on every default method of [`Constraint`].
#[derive(Debug)]
struct CheckerOnly {
    scope: Vec<VarId>,
    tuples: Vec<Vec<i32>>,
}

impl Constraint for CheckerOnly {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        self.tuples.iter().any(|tuple| tuple == values)
    }
}

impl Propagator for CheckerOnly {}

impl Spec {
    fn build(&self) -> Box<dyn Post> {
        let vars = |scope: &[usize]| scope.iter().copied().map(var).collect::<Vec<_>>();
        match self {
            Spec::NotEqual { x, a, y, b } => {
                Box::new(NotEqual::with_offsets(var(*x), *a, var(*y), *b))
            }
            Spec::AllDifferent { scope } => Box::new(AllDifferent::new(vars(scope))),
            Spec::Table { scope, tuples } => {
                Box::new(Table::new(vars(scope), tuples.clone()).expect("tuples match the scope"))
            }
            Spec::Linear {
                terms,
                relation,
                rhs,
            } => Box::new(Linear::new(
                terms.iter().map(|&(a, x)| (a, var(x))).collect(),
                *relation,
                *rhs,
            )),
            Spec::Predicate { x, y, allowed } => {
                let allowed: BTreeSet<(i32, i32)> = allowed.iter().copied().collect();
                Box::new(Predicate::new(
                    "allowed pairs",
                    var(*x),
                    var(*y),
                    move |p, q| allowed.contains(&(p, q)),
                ))
            }
            Spec::CheckerOnly { scope, tuples } => Box::new(CheckerOnly {
                scope: vars(scope),
                tuples: tuples.clone(),
            }),
        }
    }

    /// The scope as variable indices, in the order the checker reads values.
    fn scope(&self) -> Vec<usize> {
        match self {
            Spec::NotEqual { x, y, .. } | Spec::Predicate { x, y, .. } => vec![*x, *y],
            Spec::AllDifferent { scope }
            | Spec::Table { scope, .. }
            | Spec::CheckerOnly { scope, .. } => scope.clone(),
            Spec::Linear { terms, .. } => terms.iter().map(|&(_, x)| x).collect(),
        }
    }

    /// The relation restated from its definition, without csp-core: the oracle for the checkers.
    fn holds(&self, values: &[i32]) -> bool {
        match self {
            Spec::NotEqual { a, b, .. } => {
                i64::from(values[0]) + i64::from(*a) != i64::from(values[1]) + i64::from(*b)
            }
            Spec::AllDifferent { .. } => {
                values.iter().collect::<BTreeSet<_>>().len() == values.len()
            }
            Spec::Table { tuples, .. } | Spec::CheckerOnly { tuples, .. } => {
                tuples.iter().any(|tuple| tuple.as_slice() == values)
            }
            Spec::Linear {
                terms,
                relation,
                rhs,
            } => {
                let sum: i128 = terms
                    .iter()
                    .zip(values)
                    .map(|(&(a, _), &x)| i128::from(a) * i128::from(x))
                    .sum();
                match relation {
                    Relation::Equal => sum == i128::from(*rhs),
                    Relation::LessOrEqual => sum <= i128::from(*rhs),
                    Relation::NotEqual => sum != i128::from(*rhs),
                }
            }
            Spec::Predicate { allowed, .. } => allowed.contains(&(values[0], values[1])),
        }
    }
}

#[derive(Debug, Clone)]
struct Instance {
    domains: Vec<DomainSpec>,
    specs: Vec<Spec>,
}

impl Instance {
    fn model(&self) -> Model {
        let mut builder = ModelBuilder::new();
        for (i, domain) in self.domains.iter().enumerate() {
            let name = format!("v{i}");
            match domain {
                DomainSpec::Range(lo, hi) => builder.int_var(name, *lo..=*hi),
                DomainSpec::Values(values) => builder.int_var_with_values(name, values.clone()),
            }
            .expect("generated domains are valid");
        }
        for spec in &self.specs {
            builder
                .post_boxed(spec.build())
                .expect("generated constraints are valid");
        }
        builder.build()
    }

    fn domain_values(&self) -> Vec<Vec<i32>> {
        self.domains.iter().map(DomainSpec::values).collect()
    }
}

/// Where a variable's values lie: near zero, or against one end of `i32` so that offsets, products
/// and sums overflow `i32` if a constraint computes them there.
fn base_strategy(extreme: bool) -> BoxedStrategy<i32> {
    if extreme {
        prop_oneof![Just(-5), Just(i32::MIN), Just(i32::MAX - 9)].boxed()
    } else {
        Just(-5).boxed()
    }
}

/// A domain of at most five values within `base..=base + 9`.
fn domain_strategy(extreme: bool) -> BoxedStrategy<DomainSpec> {
    base_strategy(extreme)
        .prop_flat_map(|base| {
            prop_oneof![
                (0i32..=5, 0i32..=4)
                    .prop_map(move |(lo, width)| DomainSpec::Range(base + lo, base + lo + width)),
                prop::collection::vec(0i32..=9, 1..=5).prop_map(move |offsets| {
                    DomainSpec::Values(offsets.into_iter().map(|o| base + o).collect())
                }),
            ]
        })
        .boxed()
}

/// Two distinct variables out of `n`.
fn pair_strategy(n: usize) -> impl Strategy<Value = (usize, usize)> {
    (0..n, 0..n - 1).prop_map(|(x, y)| (x, if y >= x { y + 1 } else { y }))
}

/// Between one and `n` distinct variables, in random order.
fn scope_strategy(n: usize) -> impl Strategy<Value = Vec<usize>> {
    Just((0..n).collect::<Vec<_>>())
        .prop_shuffle()
        .prop_flat_map(move |order| (1..=n).prop_map(move |k| order[..k].to_vec()))
}

/// Mostly a value of `domain`, sometimes a value just around it, so that tables mention values no
/// variable can take.
fn value_near(domain: &[i32]) -> BoxedStrategy<i32> {
    let lo = domain[0].saturating_sub(2);
    let hi = domain[domain.len() - 1].saturating_add(2);
    prop_oneof![6 => select(domain.to_vec()), 1 => lo..=hi].boxed()
}

fn tuples_strategy(
    domains: &[Vec<i32>],
    scope: Vec<usize>,
) -> impl Strategy<Value = (Vec<usize>, Vec<Vec<i32>>)> + use<> {
    let row: Vec<BoxedStrategy<i32>> = scope.iter().map(|&v| value_near(&domains[v])).collect();
    (Just(scope), prop::collection::vec(row, 0..=8))
}

fn offset_strategy(extreme: bool) -> BoxedStrategy<i32> {
    if extreme {
        prop_oneof![3 => -3i32..=3, 1 => Just(i32::MIN), 1 => Just(i32::MAX)].boxed()
    } else {
        (-3i32..=3).boxed()
    }
}

fn rhs_strategy(extreme: bool, reachable: i32) -> BoxedStrategy<i32> {
    if extreme {
        prop_oneof![
            Just(reachable),
            Just(reachable.saturating_add(1)),
            -15i32..=15,
            i32::MIN..=i32::MIN + 20,
            i32::MAX - 20..=i32::MAX,
        ]
        .boxed()
    } else {
        prop_oneof![Just(reachable), -15i32..=15].boxed()
    }
}

fn linear_strategy(domains: Vec<Vec<i32>>, extreme: bool) -> impl Strategy<Value = Spec> {
    let n = domains.len();
    scope_strategy(n)
        .prop_flat_map(move |scope| {
            let coefficients = prop::collection::vec(offset_strategy(extreme), scope.len());
            // One assignment of the scope, whose sum is used as a right-hand side that some
            // assignment reaches, so that `Equal` is not almost always infeasible.
            let sample: Vec<_> = scope.iter().map(|&v| select(domains[v].clone())).collect();
            (Just(scope), coefficients, sample)
        })
        .prop_flat_map(move |(scope, coefficients, sample)| {
            let sum: i128 = coefficients
                .iter()
                .zip(&sample)
                .map(|(&a, &x)| i128::from(a) * i128::from(x))
                .sum();
            let reachable = sum.clamp(i128::from(i32::MIN), i128::from(i32::MAX)) as i32;
            let terms: Vec<(i32, usize)> = coefficients.into_iter().zip(scope).collect();
            (
                Just(terms),
                prop_oneof![Just(Relation::Equal), Just(Relation::LessOrEqual)],
                rhs_strategy(extreme, reachable),
            )
        })
        .prop_map(|(terms, relation, rhs)| Spec::Linear {
            terms,
            relation,
            rhs,
        })
}

fn predicate_strategy(domains: Vec<Vec<i32>>) -> impl Strategy<Value = Spec> {
    pair_strategy(domains.len()).prop_flat_map(move |(x, y)| {
        let pairs: Vec<(i32, i32)> = domains[x]
            .iter()
            .flat_map(|&p| domains[y].iter().map(move |&q| (p, q)))
            .collect();
        prop::collection::vec(any::<bool>(), pairs.len()).prop_map(move |keep| Spec::Predicate {
            x,
            y,
            allowed: pairs
                .iter()
                .zip(keep)
                .filter_map(|(&pair, keep)| keep.then_some(pair))
                .collect(),
        })
    })
}

/// A table over some of the variables. It takes `extreme` only to share `spec_strategy`'s signature:
/// its values come from the domains, which already sit where the instance put them.
fn table_strategy(domains: Vec<Vec<i32>>, _extreme: bool) -> BoxedStrategy<Spec> {
    scope_strategy(domains.len())
        .prop_flat_map(move |scope| tuples_strategy(&domains, scope))
        .prop_map(|(scope, tuples)| Spec::Table { scope, tuples })
        .boxed()
}

fn spec_strategy(domains: Vec<Vec<i32>>, extreme: bool) -> BoxedStrategy<Spec> {
    let n = domains.len();
    let not_equal = (
        pair_strategy(n),
        offset_strategy(extreme),
        offset_strategy(extreme),
    )
        .prop_map(|((x, y), a, b)| Spec::NotEqual { x, a, y, b });
    let all_different = scope_strategy(n).prop_map(|scope| Spec::AllDifferent { scope });
    let table = table_strategy(domains.clone(), extreme);
    let checker_only = {
        let domains = domains.clone();
        scope_strategy(n)
            .prop_flat_map(move |scope| tuples_strategy(&domains, scope))
            .prop_map(|(scope, tuples)| Spec::CheckerOnly { scope, tuples })
    };
    prop_oneof![
        not_equal,
        all_different,
        table,
        linear_strategy(domains.clone(), extreme),
        predicate_strategy(domains),
        checker_only,
    ]
    .boxed()
}

/// Two to five variables and `1..=max_constraints` constraints of every kind over them; one instance
/// in five has its values at the ends of `i32`.
fn instance_strategy(max_constraints: usize) -> impl Strategy<Value = Instance> {
    instance_strategy_of(max_constraints, spec_strategy)
}

fn instance_strategy_of(
    max_constraints: usize,
    spec_strategy: fn(Vec<Vec<i32>>, bool) -> BoxedStrategy<Spec>,
) -> impl Strategy<Value = Instance> {
    prop_oneof![4 => Just(false), 1 => Just(true)]
        .prop_flat_map(|extreme| {
            (
                Just(extreme),
                prop::collection::vec(domain_strategy(extreme), 2..=5),
            )
        })
        .prop_flat_map(move |(extreme, domains)| {
            let values = domains.iter().map(DomainSpec::values).collect::<Vec<_>>();
            (
                Just(domains),
                prop::collection::vec(spec_strategy(values, extreme), 1..=max_constraints),
            )
        })
        .prop_map(|(domains, specs)| Instance { domains, specs })
}

/// An order in which to assign variables (indices at or above the model's size are skipped).
fn order_strategy() -> impl Strategy<Value = Vec<usize>> {
    Just((0..5).collect::<Vec<usize>>()).prop_shuffle()
}

/// Raw choices, reduced modulo the size of whatever they choose from.
fn picks_strategy() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(any::<u8>(), 5)
}

// ---------------------------------------------------------------------------------------------------
// Brute force
// ---------------------------------------------------------------------------------------------------

/// The first tuple of the Cartesian product of `choices` that `accept` takes, if any.
fn find_tuple(choices: &[Vec<i32>], mut accept: impl FnMut(&[i32]) -> bool) -> Option<Vec<i32>> {
    if choices.iter().any(Vec::is_empty) {
        return None;
    }
    let mut digits = vec![0usize; choices.len()];
    let mut tuple: Vec<i32> = choices.iter().map(|c| c[0]).collect();
    loop {
        if accept(&tuple) {
            return Some(tuple);
        }
        let mut position = 0;
        loop {
            if position == choices.len() {
                return None;
            }
            digits[position] += 1;
            if digits[position] < choices[position].len() {
                tuple[position] = choices[position][digits[position]];
                break;
            }
            digits[position] = 0;
            tuple[position] = choices[position][0];
            position += 1;
        }
    }
}

/// The candidate values of each scope position: `fixed` pins one variable, assigned variables hold
/// their value, and the others range over `domains`.
fn scope_choices(
    scope: &[VarId],
    store: &Store,
    domains: &[Vec<i32>],
    fixed: Option<(VarId, i32)>,
) -> Vec<Vec<i32>> {
    scope
        .iter()
        .map(|&v| match (fixed, store.value(v)) {
            (Some((w, value)), _) if w == v => vec![value],
            (_, Some(value)) => vec![value],
            _ => domains[v.index()].clone(),
        })
        .collect()
}

fn current_domains(store: &Store) -> Vec<Vec<i32>> {
    (0..store.num_vars())
        .map(|i| store.domain(var(i)).values().collect())
        .collect()
}

fn pick(values: &[i32], choice: u8) -> i32 {
    values[usize::from(choice) % values.len()]
}

/// A value outside `domain`: a hole inside its span when there is one (a bit set over the span must
/// not hold it), else one past an end.
fn outside_value(domain: &[i32]) -> i32 {
    for w in domain.windows(2) {
        if i64::from(w[1]) - i64::from(w[0]) > 1 {
            return w[0] + 1;
        }
    }
    domain[domain.len() - 1]
        .checked_add(1)
        .unwrap_or_else(|| domain[0] - 1)
}

/// One assignment in the search tree that [`explore`] walks, just after its forward check.
#[derive(Clone, Copy)]
struct Node<'a> {
    store: &'a Store,
    assigned: VarId,
    value: i32,
    /// Every variable's domain just before the assignment.
    before: &'a [Vec<i32>],
    /// What forward checking answered, or `None` where this level skips it.
    result: Option<Result<(), ConstraintId>>,
}

/// How many assignments [`explore`] makes per instance; enough to cover the whole tree of most
/// instances while keeping the suite fast.
const EXPLORE_BUDGET: usize = 200;

/// Walks the search tree of `model` depth first, as a forward-checking search would: variables in
/// `order` (indices beyond the model are skipped), each level trying its values from a rotated start
/// given by `picks`, forward checking unless `skips` says otherwise, descending only where forward
/// checking did not fail, and undoing each assignment before the next sibling. `visit` sees every
/// assignment. Undo is checked on the way, since every sibling must start from the same domains.
fn explore(
    model: &Model,
    order: &[usize],
    picks: &[u8],
    skips: &[bool],
    visit: &mut dyn FnMut(&Node<'_>) -> Result<(), TestCaseError>,
) -> Result<(), TestCaseError> {
    let order: Vec<VarId> = order
        .iter()
        .filter(|&&i| i < model.num_vars())
        .map(|&i| var(i))
        .collect();
    let mut store = Store::new(model);
    let mut budget = EXPLORE_BUDGET;
    explore_level(model, &mut store, &order, picks, skips, &mut budget, visit)
}

fn explore_level(
    model: &Model,
    store: &mut Store,
    order: &[VarId],
    picks: &[u8],
    skips: &[bool],
    budget: &mut usize,
    visit: &mut dyn FnMut(&Node<'_>) -> Result<(), TestCaseError>,
) -> Result<(), TestCaseError> {
    let depth = store.num_assigned();
    let Some(&assigned) = order.get(depth) else {
        return Ok(());
    };
    let before = current_domains(store);
    let values = &before[assigned.index()];
    let start = usize::from(picks[depth]);
    let skip = skips.get(depth).copied().unwrap_or(false);
    for k in 0..values.len() {
        if *budget == 0 {
            break;
        }
        *budget -= 1;
        let value = values[(start + k) % values.len()];
        let checkpoint = store.checkpoint();
        store.assign(model, assigned, value);
        let result = (!skip).then(|| store.forward_check(model, assigned));
        visit(&Node {
            store,
            assigned,
            value,
            before: &before,
            result,
        })?;
        if !matches!(result, Some(Err(_))) {
            explore_level(model, store, order, picks, skips, budget, visit)?;
        }
        store.undo_to(model, checkpoint);
        prop_assert_eq!(
            &current_domains(store),
            &before,
            "undo after {:?}={}",
            assigned,
            value
        );
    }
    Ok(())
}

fn only_constraint(model: &Model) -> ConstraintId {
    model
        .constraint_ids()
        .next()
        .expect("the instance has a constraint")
}

// ---------------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------------

/// Integration tests have no `lib.rs` beside them, so proptest's default cannot place its regression
/// file; this keeps failures in the crate's `proptest-regressions/`, committed like varisat's.
fn config() -> ProptestConfig {
    ProptestConfig {
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/proptest-regressions/constraints.txt"
        )))),
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    /// Every other property trusts `is_satisfied`, so it is held to the definition of the relation
    /// first, on values inside and outside the domains.
    #[test]
    fn every_checker_matches_the_definition_of_its_relation(instance in instance_strategy(3)) {
        let model = instance.model();
        let domains = instance.domain_values();
        for (spec, id) in instance.specs.iter().zip(model.constraint_ids()) {
            let constraint = model.constraint(id);
            let choices: Vec<Vec<i32>> = spec
                .scope()
                .iter()
                .map(|&v| {
                    let mut values = domains[v].clone();
                    values.push(outside_value(&domains[v]));
                    values
                })
                .collect();
            let mismatch = find_tuple(&choices, |t| constraint.is_satisfied(t) != spec.holds(t));
            prop_assert!(mismatch.is_none(), "{spec:?}: the checker is wrong on {mismatch:?}");
        }
    }

    /// Dijkstra's test may prune only values with no support among the current domains, and must be
    /// exact once every other variable of the scope is assigned.
    #[test]
    fn check_never_rejects_a_supported_value_and_is_exact_once_the_rest_is_assigned(
        instance in instance_strategy(1),
        plan in prop::collection::vec(prop::option::of(any::<u8>()), 5),
    ) {
        let model = instance.model();
        let id = only_constraint(&model);
        let constraint = model.constraint(id);
        let scope = constraint.scope().to_vec();
        let mut store = Store::new(&model);
        for (v, choice) in model.vars().zip(&plan) {
            if let Some(choice) = *choice {
                let values: Vec<i32> = store.domain(v).values().collect();
                store.assign(&model, v, pick(&values, choice));
            }
        }
        let domains = current_domains(&store);
        for &v in scope.iter().filter(|&&v| !store.is_assigned(v)) {
            let rest_assigned = scope.iter().all(|&w| w == v || store.is_assigned(w));
            for &value in &domains[v.index()] {
                let support = find_tuple(
                    &scope_choices(&scope, &store, &domains, Some((v, value))),
                    |t| constraint.is_satisfied(t),
                );
                let accepted = store.is_consistent(&model, v, value);
                prop_assert!(
                    accepted || support.is_none(),
                    "check rejected {v:?}={value} although {support:?} satisfies the constraint"
                );
                if rest_assigned {
                    prop_assert_eq!(
                        accepted,
                        support.is_some(),
                        "check is not exact for {:?}={} with the rest of the scope assigned",
                        v,
                        value
                    );
                }
            }
        }
    }

    /// Forward checking is sound: a value it removes has no support among the domains it started
    /// from, it changes no domain outside the unassigned part of the scope, it fails only when no
    /// completion of those domains satisfies the constraint, and with the whole scope assigned it
    /// succeeds only on a satisfying assignment.
    ///
    /// Some levels of the tree skip forward checking, so that later checks meet assigned variables
    /// that already violate the constraint, and must notice.
    #[test]
    fn forward_check_removes_only_unsupported_values_and_fails_only_without_a_solution(
        instance in instance_strategy(1),
        order in order_strategy(),
        picks in picks_strategy(),
        skips in prop::collection::vec(prop::bool::weighted(0.25), 5),
    ) {
        let model = instance.model();
        let id = only_constraint(&model);
        let constraint = model.constraint(id);
        let scope = constraint.scope().to_vec();
        explore(&model, &order, &picks, &skips, &mut |node| {
            let Node { store, assigned, value, before, result } = *node;
            let Some(result) = result else {
                return Ok(());
            };
            if let Err(failed) = result {
                prop_assert_eq!(failed, id);
                let witness = find_tuple(&scope_choices(&scope, store, before, None), |t| {
                    constraint.is_satisfied(t)
                });
                prop_assert!(
                    witness.is_none(),
                    "forward_check failed after {assigned:?}={value} although {witness:?} \
                     satisfies the constraint"
                );
                return Ok(());
            }
            let after = current_domains(store);
            for v in model.vars() {
                let (was, now) = (&before[v.index()], &after[v.index()]);
                if let Some(value) = store.value(v) {
                    // An assigned variable's domain holds its value alone.
                    prop_assert_eq!(now, &vec![value], "the domain of assigned {:?}", v);
                    continue;
                }
                if !scope.contains(&v) {
                    prop_assert_eq!(now, was, "forward_check changed the domain of {:?}", v);
                    continue;
                }
                prop_assert!(!now.is_empty(), "forward_check emptied {v:?} and reported success");
                prop_assert!(now.iter().all(|w| was.contains(w)), "forward_check added to {v:?}");
                for &w in was.iter().filter(|w| !now.contains(w)) {
                    let support = find_tuple(
                        &scope_choices(&scope, store, before, Some((v, w))),
                        |t| constraint.is_satisfied(t),
                    );
                    prop_assert!(
                        support.is_none(),
                        "forward_check after {assigned:?}={value} removed {v:?}={w}, supported \
                         by {support:?}"
                    );
                }
            }
            let values: Option<Vec<i32>> = scope.iter().map(|&v| store.value(v)).collect();
            if let (true, Some(values)) = (scope.contains(&assigned), values) {
                prop_assert!(
                    constraint.is_satisfied(&values),
                    "forward_check accepted the violating assignment {values:?}"
                );
            }
            Ok(())
        })?;
    }

    /// Table documents its propagation as arc consistency on the one constraint: once it has run,
    /// every value left to an unassigned scope variable lies in an allowed tuple that agrees with
    /// the assigned variables and the current domains.
    #[test]
    fn table_forward_check_leaves_every_remaining_value_a_supporting_tuple(
        instance in instance_strategy_of(1, table_strategy),
        order in order_strategy(),
        picks in picks_strategy(),
    ) {
        let model = instance.model();
        let constraint = model.constraint(only_constraint(&model));
        let scope = constraint.scope().to_vec();
        explore(&model, &order, &picks, &[], &mut |node| {
            let store = node.store;
            if node.result != Some(Ok(())) || !scope.iter().any(|&v| store.is_assigned(v)) {
                return Ok(());
            }
            let domains = current_domains(store);
            for &v in scope.iter().filter(|&&v| !store.is_assigned(v)) {
                for &w in &domains[v.index()] {
                    let support = find_tuple(
                        &scope_choices(&scope, store, &domains, Some((v, w))),
                        |t| constraint.is_satisfied(t),
                    );
                    prop_assert!(support.is_some(), "{v:?}={w} was left without support");
                }
            }
            Ok(())
        })?;
    }

    /// Forward checking is as strong as its name: with one scope variable left it keeps exactly the
    /// values that satisfy the checker (bounds reasoning is exact there too).
    #[test]
    fn forward_check_leaves_exactly_the_satisfying_values_of_the_last_free_variable(
        instance in instance_strategy(1),
        order in order_strategy(),
        picks in picks_strategy(),
    ) {
        let model = instance.model();
        let constraint = model.constraint(only_constraint(&model));
        let scope = constraint.scope().to_vec();
        explore(&model, &order, &picks, &[], &mut |node| {
            let store = node.store;
            if node.result != Some(Ok(())) {
                return Ok(());
            }
            let free: Vec<VarId> = scope.iter().copied().filter(|&v| !store.is_assigned(v)).collect();
            // Forward checking runs only when a scope variable is assigned, so a scope of one
            // variable that nobody assigned yet has not been filtered at all.
            let [last] = free[..] else {
                return Ok(());
            };
            if scope.len() == 1 {
                return Ok(());
            }
            let satisfying: Vec<i32> = model
                .initial_domain(last)
                .values()
                .filter(|&w| {
                    let values: Vec<i32> = scope
                        .iter()
                        .map(|&v| if v == last { w } else { store.value(v).unwrap() })
                        .collect();
                    constraint.is_satisfied(&values)
                })
                .collect();
            let kept: Vec<i32> = store.domain(last).values().collect();
            prop_assert_eq!(kept, satisfying, "the domain of the last free {:?}", last);
            Ok(())
        })?;
    }

    /// Local search's count is zero exactly when the constraint holds with `var = value`; an
    /// all-different instead counts the other scope variables that hold `value`, so it is zero
    /// exactly when `var` clashes with nobody, and zero for every variable exactly when it holds.
    #[test]
    fn conflicts_is_zero_exactly_when_the_constraint_holds(
        instance in instance_strategy(1),
        picks in picks_strategy(),
    ) {
        let model = instance.model();
        let constraint = model.constraint(only_constraint(&model));
        let scope = constraint.scope().to_vec();
        let domains = instance.domain_values();
        let values: Vec<i32> = domains.iter().zip(&picks).map(|(d, &c)| pick(d, c)).collect();
        let mut cells = vec![0; model.num_cells()];
        constraint.reset_local(
            &values,
            &mut LocalState::new(&mut cells[model.cell_range(only_constraint(&model))]),
        );
        let ctx = LocalCtx::new(&values, &cells[model.cell_range(only_constraint(&model))]);
        // Constraints with hooks of their own count through them; the others count from the checker.
        let conflicts = |v: VarId, value: i32| constraint.conflicts(v, value, &ctx);
        let is_all_different = matches!(instance.specs[0], Spec::AllDifferent { .. });
        for &v in &scope {
            for &value in &domains[v.index()] {
                let count = conflicts(v, value);
                if is_all_different {
                    let sharers = scope
                        .iter()
                        .filter(|&&w| w != v && values[w.index()] == value)
                        .count();
                    prop_assert_eq!(count as usize, sharers, "conflicts({:?}, {})", v, value);
                } else {
                    let tuple: Vec<i32> = scope
                        .iter()
                        .map(|&w| if w == v { value } else { values[w.index()] })
                        .collect();
                    let expected = u32::from(!constraint.is_satisfied(&tuple));
                    prop_assert_eq!(count, expected, "conflicts({:?}, {}) on {:?}", v, value, tuple);
                }
            }
        }
        let current: Vec<i32> = scope.iter().map(|&v| values[v.index()]).collect();
        let total: u32 = scope
            .iter()
            .map(|&v| conflicts(v, values[v.index()]))
            .sum();
        prop_assert_eq!(total == 0, constraint.is_satisfied(&current));
    }

    /// The reference every solver is tested against: a complete assignment is a solution exactly
    /// when each value lies in its domain (holes in a non-contiguous domain included) and every
    /// relation holds by its definition.
    #[test]
    fn is_solution_agrees_with_brute_force(instance in instance_strategy(3)) {
        let model = instance.model();
        let domains = instance.domain_values();
        let choices: Vec<Vec<i32>> = domains
            .iter()
            .map(|d| {
                let mut values = d.clone();
                values.push(outside_value(d));
                values
            })
            .collect();
        let disagreement = find_tuple(&choices, |values| {
            let in_domains = values.iter().zip(&domains).all(|(x, d)| d.contains(x));
            let holds = instance.specs.iter().all(|spec| {
                let scope_values: Vec<i32> = spec.scope().iter().map(|&v| values[v]).collect();
                spec.holds(&scope_values)
            });
            model.is_solution(values) != (in_domains && holds)
        });
        prop_assert!(disagreement.is_none(), "is_solution is wrong on {disagreement:?}");
        let first: Vec<i32> = domains.iter().map(|d| d[0]).collect();
        prop_assert!(!model.is_solution(&first[1..]), "a short assignment is no solution");
        let mut long = first;
        long.push(0);
        prop_assert!(!model.is_solution(&long), "a long assignment is no solution");
    }
}

// ---------------------------------------------------------------------------------------------------
// Hand-picked cases
// ---------------------------------------------------------------------------------------------------

/// `x + i32::MIN != y + i32::MAX` forbids `y = x - (2^32 - 1)`: with `x = i32::MAX` that is exactly
/// `i32::MIN`, so the offsets' difference must be taken in 64 bits and not dropped as out of range.
#[test]
fn not_equal_with_extreme_offsets_prunes_the_one_forbidden_partner() {
    let mut builder = ModelBuilder::new();
    let x = builder.int_var("x", i32::MAX - 1..=i32::MAX).unwrap();
    let y = builder.int_var("y", i32::MIN..=i32::MIN + 1).unwrap();
    builder
        .post(NotEqual::with_offsets(x, i32::MIN, y, i32::MAX))
        .unwrap();
    let model = builder.build();
    let mut store = Store::new(&model);
    assert!(
        store.is_consistent(&model, y, i32::MIN),
        "nothing is assigned yet, so nothing is ruled out"
    );
    store.assign(&model, x, i32::MAX);
    assert!(!store.is_consistent(&model, y, i32::MIN));
    assert!(store.is_consistent(&model, y, i32::MIN + 1));
    assert_eq!(store.forward_check(&model, x), Ok(()));
    assert_eq!(
        store.domain(y).values().collect::<Vec<_>>(),
        vec![i32::MIN + 1]
    );
}

/// Dijkstra's test with the rest of the scope assigned must agree with the checker, as the trait's
/// default `check` does. AllDifferent's override compares `var` only with the assigned variables, so
/// beside two assigned variables that already share a value it accepts every fresh value although
/// the constraint cannot hold. Search never builds such an assignment (each value passed `check` when
/// it was assigned), but any caller assigning without checking gets a wrong answer.
#[test]
fn all_different_check_rejects_every_value_beside_a_clashing_assignment() {
    let mut builder = ModelBuilder::new();
    let x = builder.int_var("x", 0..=2).unwrap();
    let y = builder.int_var("y", 0..=2).unwrap();
    let z = builder.int_var("z", 0..=2).unwrap();
    builder.post(AllDifferent::new(vec![x, y, z])).unwrap();
    let model = builder.build();
    let mut store = Store::new(&model);
    store.assign(&model, x, 0);
    store.assign(&model, z, 0);
    let accepted: Vec<i32> = (0..=2)
        .filter(|&value| store.is_consistent(&model, y, value))
        .collect();
    assert_eq!(
        accepted,
        Vec::<i32>::new(),
        "x = z = 0 violates the constraint whatever y is"
    );
}

/// Forward checking must "fail if the assigned variables already violate the constraint" (the
/// trait's words). AllDifferent's propagation removes the new value from the others and so notices a
/// clash with the new variable only: after `y = z = 0` were assigned without forward checking,
/// assigning `x = 1` completes a violated scope and forward checking still succeeds.
#[test]
fn all_different_forward_check_fails_on_a_clash_among_earlier_assignments() {
    let mut builder = ModelBuilder::new();
    let x = builder.int_var("x", 0..=2).unwrap();
    let y = builder.int_var("y", 0..=2).unwrap();
    let z = builder.int_var("z", 0..=2).unwrap();
    let all = builder.post(AllDifferent::new(vec![x, y, z])).unwrap();
    let model = builder.build();
    let mut store = Store::new(&model);
    store.assign(&model, y, 0);
    store.assign(&model, z, 0);
    store.assign(&model, x, 1);
    assert_eq!(
        store.forward_check(&model, x),
        Err(all),
        "x = 1, y = 0, z = 0 violates the constraint"
    );
}

/// `x + 1 != y` with `x = i32::MAX` forbids `y = 2^31`, which no `i32` is: nothing may be removed,
/// and in particular not `i32::MIN`, where that value lands if it wraps. The same holds from `y`'s
/// side, where `y = i32::MIN` forbids `x = -2^31 - 1`.
#[test]
fn not_equal_removes_nothing_when_the_forbidden_partner_lies_beyond_i32() {
    let mut builder = ModelBuilder::new();
    let x = builder.int_var("x", i32::MAX - 1..=i32::MAX).unwrap();
    let y = builder.int_var("y", i32::MIN..=i32::MIN + 1).unwrap();
    builder.post(NotEqual::with_offsets(x, 1, y, 0)).unwrap();
    let model = builder.build();
    let mut store = Store::new(&model);
    let start = store.checkpoint();
    store.assign(&model, x, i32::MAX);
    assert!(store.is_consistent(&model, y, i32::MIN));
    assert_eq!(store.forward_check(&model, x), Ok(()));
    assert_eq!(store.domain(y).size(), 2);
    store.undo_to(&model, start);
    store.assign(&model, y, i32::MIN);
    assert!(store.is_consistent(&model, x, i32::MAX));
    assert_eq!(store.forward_check(&model, y), Ok(()));
    assert_eq!(store.domain(x).size(), 2);
}

/// A zero coefficient contributes nothing, so `0·x <= -1` can never hold and `0·x + y = 2` is
/// decided by `y` alone whatever `x` is.
#[test]
fn linear_zero_coefficients_contribute_nothing() {
    let mut builder = ModelBuilder::new();
    let x = builder.int_var_with_values("x", [-3, 7]).unwrap();
    let y = builder.int_var("y", 0..=3).unwrap();
    builder
        .post(Linear::new(vec![(0, x), (1, y)], Relation::Equal, 2))
        .unwrap();
    let never = builder
        .post(Linear::new(vec![(0, x)], Relation::LessOrEqual, -1))
        .unwrap();
    let model = builder.build();
    let mut store = Store::new(&model);
    store.assign(&model, x, 7);
    assert_eq!(store.forward_check(&model, x), Err(never));
    let mut store = Store::new(&model);
    store.assign(&model, y, 2);
    assert!(!store.is_consistent(&model, x, -3) && !store.is_consistent(&model, x, 7));
}

/// With negative coefficients the bounds flip: `-2x - 3y <= -7` with `y = 1` leaves `x >= 2`.
#[test]
fn linear_negative_coefficients_flip_the_bound() {
    let mut builder = ModelBuilder::new();
    let x = builder.int_var("x", -2..=4).unwrap();
    let y = builder.int_var("y", 0..=2).unwrap();
    builder
        .post(Linear::new(
            vec![(-2, x), (-3, y)],
            Relation::LessOrEqual,
            -7,
        ))
        .unwrap();
    let model = builder.build();
    let mut store = Store::new(&model);
    store.assign(&model, y, 1);
    assert_eq!(store.forward_check(&model, y), Ok(()));
    assert_eq!(store.domain(x).values().collect::<Vec<_>>(), vec![2, 3, 4]);
}

// ---------------------------------------------------------------------------------------------------
// Model building errors
// ---------------------------------------------------------------------------------------------------

/// A front end prints an error on one line, so no message may contain a line break.
fn assert_one_line(error: &ModelError) {
    let message = error.to_string();
    assert!(
        !message.is_empty() && !message.contains('\n'),
        "{message:?}"
    );
}

#[test]
#[expect(
    clippy::reversed_empty_ranges,
    reason = "the empty range is what is under test"
)]
fn an_empty_range_is_an_empty_domain() {
    let mut builder = ModelBuilder::new();
    let error = builder.int_var("x", 3..=2).unwrap_err();
    assert_eq!(error, ModelError::EmptyDomain { name: "x".into() });
    assert_one_line(&error);
    assert_eq!(builder.num_vars(), 0);
}

#[test]
fn an_empty_value_set_is_an_empty_domain() {
    let mut builder = ModelBuilder::new();
    let error = builder.int_var_with_values("y", []).unwrap_err();
    assert_eq!(error, ModelError::EmptyDomain { name: "y".into() });
    assert_one_line(&error);
}

#[test]
fn a_name_used_twice_is_refused_whichever_way_it_was_declared() {
    let mut builder = ModelBuilder::new();
    builder.int_var("x", 0..=1).unwrap();
    let error = builder.int_var_with_values("x", [4]).unwrap_err();
    assert_eq!(error, ModelError::DuplicateName { name: "x".into() });
    assert_one_line(&error);
    assert_eq!(builder.num_vars(), 1);
}

/// A refused declaration must not reserve its name.
#[test]
#[expect(
    clippy::reversed_empty_ranges,
    reason = "an empty range is one of the refused declarations"
)]
fn a_refused_declaration_leaves_its_name_free() {
    let mut builder = ModelBuilder::new();
    assert!(builder.int_var("x", 1..=0).is_err());
    assert!(builder.int_var_with_values("x", []).is_err());
    assert!(builder.int_var("x", 0..=1).is_ok());
}

#[test]
fn domains_of_any_width_are_accepted_and_hold_their_values() {
    let mut builder = ModelBuilder::new();
    let whole = builder.int_var("x", i32::MIN..=i32::MAX).unwrap();
    let ends = builder
        .int_var_with_values("y", [i32::MIN, 0, i32::MAX])
        .unwrap();
    let billion = builder
        .int_var("z", -1_000_000_000..=1_000_000_000)
        .unwrap();
    let model = builder.build();
    assert_eq!(model.initial_domain(whole).size(), 1 << 32);
    assert_eq!(
        model.initial_domain(ends).values().collect::<Vec<_>>(),
        vec![i32::MIN, 0, i32::MAX]
    );
    assert_eq!(model.initial_domain(billion).size(), 2_000_000_001);
    assert!(!model.initial_domain(billion).is_bitset());
}

#[test]
fn a_variable_of_a_larger_model_is_unknown() {
    let mut larger = ModelBuilder::new();
    for name in ["a", "b", "c"] {
        larger.int_var(name, 0..=2).unwrap();
    }
    let foreign = VarId::from_index(2);
    let mut smaller = ModelBuilder::new();
    let x = smaller.int_var("x", 0..=2).unwrap();
    smaller.int_var("y", 0..=2).unwrap();
    let error = smaller.post(NotEqual::new(x, foreign)).unwrap_err();
    assert!(
        matches!(
            &error,
            ModelError::UnknownVariable {
                var: 2,
                num_vars: 2,
                ..
            }
        ),
        "{error:?}"
    );
    assert_one_line(&error);
    assert_eq!(smaller.build().num_constraints(), 0);
}

#[test]
fn a_scope_naming_a_variable_twice_is_invalid_for_every_builtin() {
    let mut builder = ModelBuilder::new();
    let x = builder.int_var("x", 0..=2).unwrap();
    let y = builder.int_var("y", 0..=2).unwrap();
    let constraints: Vec<Box<dyn Post>> = vec![
        Box::new(NotEqual::new(x, x)),
        Box::new(AllDifferent::new(vec![x, y, x])),
        Box::new(Table::new(vec![y, y], vec![vec![1, 1]]).unwrap()),
        Box::new(Linear::new(vec![(1, x), (-1, x)], Relation::Equal, 0)),
        Box::new(Predicate::new("less", y, y, |p, q| p < q)),
    ];
    for constraint in constraints {
        let error = builder.post_boxed(constraint).unwrap_err();
        assert!(
            matches!(error, ModelError::InvalidConstraint { .. }),
            "{error:?}"
        );
        assert_one_line(&error);
    }
    assert_eq!(builder.build().num_constraints(), 0);
}

#[test]
fn a_table_tuple_of_the_wrong_length_is_an_arity_mismatch() {
    let x = VarId::from_index(0);
    let y = VarId::from_index(1);
    let error = Table::new(vec![x, y], vec![vec![1, 2], vec![1, 2, 3]]).unwrap_err();
    assert!(
        matches!(
            &error,
            ModelError::ArityMismatch {
                expected: 2,
                found: 3,
                ..
            }
        ),
        "{error:?}"
    );
    assert_one_line(&error);
}

#[test]
fn linear_from_slices_of_different_lengths_is_an_arity_mismatch() {
    let vars = [VarId::from_index(0), VarId::from_index(1)];
    let error = Linear::from_slices(&[1, 2, 3], &vars, Relation::Equal, 0).unwrap_err();
    assert!(
        matches!(
            &error,
            ModelError::ArityMismatch {
                expected: 2,
                found: 3,
                ..
            }
        ),
        "{error:?}"
    );
    assert_one_line(&error);
    assert!(Linear::from_slices(&[1, 2], &vars, Relation::Equal, 0).is_ok());
}

// ---------------------------------------------------------------------------------------------------
// Arc consistency (`revise`)
// ---------------------------------------------------------------------------------------------------

/// Whether the constraint's revision is documented as full (generalised) arc consistency; `Linear`
/// promises bounds consistency only, so it is held to soundness alone.
fn revise_is_arc_consistent(spec: &Spec) -> bool {
    !matches!(spec, Spec::Linear { .. })
}

/// The current values of every scope variable: the value of an assigned one, else its domain.
fn current_choices(scope: &[VarId], store: &Store) -> Vec<Vec<i32>> {
    scope_choices(scope, store, &current_domains(store), None)
}

proptest! {
    #![proptest_config(config())]

    /// At every node of a forward-checking walk, arc consistency on the one constraint (run on a copy
    /// of the store, so the walk goes on unchanged) removes only values without support, fails only
    /// when no allowed tuple is left, leaves every value supported where it promises arc
    /// consistency, and is a fixpoint: a second run changes nothing.
    #[test]
    fn revise_removes_exactly_the_unsupported_values(
        instance in instance_strategy(1),
        order in order_strategy(),
        picks in picks_strategy(),
        skips in prop::collection::vec(prop::bool::weighted(0.25), 5),
    ) {
        let model = instance.model();
        let id = only_constraint(&model);
        let constraint = model.constraint(id);
        let scope = constraint.scope().to_vec();
        let exact = revise_is_arc_consistent(&instance.specs[0]);
        explore(&model, &order, &picks, &skips, &mut |node| {
            if matches!(node.result, Some(Err(_))) {
                return Ok(());
            }
            let mut store = node.store.clone();
            let before = current_domains(&store);
            let choices = current_choices(&scope, &store);
            let any = find_tuple(&choices, |t| constraint.is_satisfied(t));
            match store.establish_arc_consistency(&model) {
                Err(failed) => {
                    prop_assert_eq!(failed, id);
                    prop_assert!(any.is_none(), "revise failed although {any:?} is allowed");
                    return Ok(());
                }
                Ok(()) => prop_assert!(
                    !exact || any.is_some(),
                    "revise succeeded although no tuple of {choices:?} is allowed"
                ),
            }
            let after = current_domains(&store);
            for v in model.vars() {
                let (was, now) = (&before[v.index()], &after[v.index()]);
                if !scope.contains(&v) || store.is_assigned(v) {
                    prop_assert_eq!(now, was, "revise changed {:?}", v);
                    continue;
                }
                prop_assert!(now.iter().all(|w| was.contains(w)), "revise added to {v:?}");
                for &w in was {
                    let support = find_tuple(
                        &scope_choices(&scope, node.store, &before, Some((v, w))),
                        |t| constraint.is_satisfied(t),
                    );
                    if now.contains(&w) {
                        prop_assert!(
                            !exact || support.is_some(),
                            "revise kept {v:?}={w} without support in {choices:?}"
                        );
                    } else {
                        prop_assert!(
                            support.is_none(),
                            "revise removed {v:?}={w}, supported by {support:?}"
                        );
                    }
                }
            }
            prop_assert_eq!(store.establish_arc_consistency(&model), Ok(()));
            prop_assert_eq!(current_domains(&store), after, "a second revision changed something");
            Ok(())
        })?;
    }

    /// All-different has two implementations of Régin's algorithm: on words when the values fit in
    /// 64 consecutive integers, on adjacency lists otherwise. Spreading the same domains apart (every
    /// value times 100) moves an instance from the first to the second; the pruning must not change.
    #[test]
    fn all_different_prunes_the_same_on_words_and_on_lists(
        domains in prop::collection::vec(prop::collection::btree_set(0i32..=7, 1..=6), 1..=7),
        assigned in prop::collection::vec(any::<Option<u8>>(), 7),
    ) {
        let prune = |scale: i32| -> Result<Vec<Vec<i32>>, ConstraintId> {
            let mut builder = ModelBuilder::new();
            let vars: Vec<VarId> = domains
                .iter()
                .enumerate()
                .map(|(i, d)| {
                    builder
                        .int_var_with_values(format!("v{i}"), d.iter().map(|&x| x * scale))
                        .expect("a valid domain")
                })
                .collect();
            builder.post(AllDifferent::new(vars.clone())).expect("a valid scope");
            let model = builder.build();
            let mut store = Store::new(&model);
            for (&var, choice) in vars.iter().zip(&assigned) {
                if let Some(choice) = choice {
                    let values: Vec<i32> = store.domain(var).values().collect();
                    store.assign(&model, var, pick(&values, *choice));
                }
            }
            store.establish_arc_consistency(&model)?;
            Ok(current_domains(&store)
                .into_iter()
                .zip(&vars)
                .map(|(d, &v)| match store.value(v) {
                    Some(x) => vec![x / scale],
                    None => d.into_iter().map(|x| x / scale).collect(),
                })
                .collect())
        };
        prop_assert_eq!(prune(1), prune(100));
    }
}

proptest! {
    #![proptest_config(config())]

    /// Search maintains arc consistency by revising only the constraints a change wakes
    /// (`Constraint::wake`); that must reach the same fixpoint as revising every constraint. Along a
    /// random path of assignments, each followed by `maintain_arc_consistency`, a full pass over every
    /// constraint finds nothing more to remove.
    #[test]
    fn maintaining_arc_consistency_reaches_the_full_fixpoint(
        instance in instance_strategy(3),
        order in order_strategy(),
        picks in picks_strategy(),
    ) {
        let model = instance.model();
        let mut store = Store::new(&model);
        if store.establish_arc_consistency(&model).is_err() {
            return Ok(());
        }
        for (&index, &choice) in order.iter().zip(&picks) {
            if index >= model.num_vars() || store.is_assigned(var(index)) {
                continue;
            }
            let values: Vec<i32> = store.domain(var(index)).values().collect();
            store.assign(&model, var(index), pick(&values, choice));
            if store.maintain_arc_consistency(&model, var(index)).is_err() {
                return Ok(());
            }
            let after = current_domains(&store);
            let mut full = store.clone();
            prop_assert_eq!(full.establish_arc_consistency(&model), Ok(()));
            prop_assert_eq!(current_domains(&full), after, "after {:?}", var(index));
        }
    }
}
