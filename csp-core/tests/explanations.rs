//! Explanations for learning from failure, checked by brute force: every change a propagator
//! makes while the store logs changes ([`Store::enable_change_log`]) and explains with
//! [`Propagator::explain`](csp_core::Propagator::explain) is implied by its explanation, the constraint and the variable's own
//! domain just before the change, over every tuple of small domains.

use csp_core::constraints::{
    AllDifferent, AllDifferentConsistency, Among, Arithmetic, BoolAnd, BoolSum, Clause, Compare,
    Comparison, Cumulative, Disjunctive, Element, Extremum, Inverse, Linear, Reification, Reified,
    ReifiedCompare, Relation, SignedBool, Table, VarElement,
};
use csp_core::{
    Cause, ExplainCtx, Literal, LiteralRelation as Rel, Model, ModelBuilder, Store, VarId,
};
use proptest::prelude::*;
use std::collections::BTreeSet;

/// The values `var` had just before log entry `before`: its initial values within the bounds of
/// that moment, less those removed before it.
fn domain_before(model: &Model, store: &Store, var: VarId, before: usize) -> Vec<i32> {
    let (lo, hi) = store.bounds_before(var, before);
    let removed: Vec<i32> = store.change_log()[..before]
        .iter()
        .filter(|e| e.literal.var == var && e.literal.relation == Rel::Ne)
        .map(|e| e.literal.value)
        .collect();
    model
        .initial_domain(var)
        .values()
        .filter(|v| (lo..=hi).contains(v) && !removed.contains(v))
        .collect()
}

/// Every tuple of the initial domains, as full assignments of the model's variables.
fn tuples(model: &Model) -> Vec<Vec<i32>> {
    let mut out = vec![Vec::new()];
    for var in model.vars() {
        let values: Vec<i32> = model.initial_domain(var).values().collect();
        out = out
            .into_iter()
            .flat_map(|t| {
                values.iter().map(move |&v| {
                    let mut t = t.clone();
                    t.push(v);
                    t
                })
            })
            .collect();
    }
    out
}

/// Propagates `model` (one constraint) after the `cuts` (bounds set as decisions), and checks
/// every explained change by brute force. Returns how many changes were explained.
fn check_explanations(model: &Model, cuts: &[(usize, bool, i32)]) -> usize {
    let mut store = Store::new(model);
    store.enable_change_log();
    let vars: Vec<VarId> = model.vars().collect();
    for &(var, upper, bound) in cuts {
        let var = vars[var % vars.len()];
        let bound = i64::from(bound);
        let cut = if upper {
            store.set_bounds(var, i64::MIN, bound)
        } else {
            store.set_bounds(var, bound, i64::MAX)
        };
        if cut.is_err() {
            return 0;
        }
    }
    let failed = store.establish_arc_consistency(model).is_err();
    // A change a wipe-out refused is explained as if made at the end of the log: learning
    // explains such a failure by it, so its explanation must imply it just the same.
    let failure = store
        .take_failure()
        .filter(|_| failed)
        .map(|(literal, cause)| (store.change_log().len(), literal, cause));
    let changes: Vec<(usize, Literal, Cause)> = store
        .change_log()
        .iter()
        .enumerate()
        .map(|(e, entry)| (e, entry.literal, entry.cause))
        .chain(failure)
        .collect();
    let all = tuples(model);
    let mut explained = 0;
    for (e, literal, cause) in changes {
        let Cause::Constraint(c) = cause else {
            continue;
        };
        let constraint = model.constraint(c);
        let mut reasons: Vec<Literal> = Vec::new();
        if !constraint.explain(literal, &ExplainCtx::new(&store, e), &mut reasons) {
            continue;
        }
        explained += 1;
        let var = literal.var;
        let own = domain_before(model, &store, var, e);
        for (r, reason) in reasons.iter().enumerate() {
            // Every reason held just before the change: every value left then satisfies it.
            assert!(
                domain_before(model, &store, reason.var, e)
                    .into_iter()
                    .all(|v| reason.holds_for(v)),
                "reason {r} {reason:?} did not hold before entry {e} {literal:?}"
            );
        }
        for tuple in &all {
            let values: Vec<i32> = constraint
                .scope()
                .iter()
                .map(|v| tuple[v.index()])
                .collect();
            let premises = constraint.is_satisfied(&values)
                && reasons.iter().all(|r| r.holds_for(tuple[r.var.index()]))
                && own.contains(&tuple[var.index()]);
            assert!(
                !premises || literal.holds_for(tuple[var.index()]),
                "{:?} explained by {reasons:?} but {tuple:?} satisfies both",
                literal
            );
        }
    }
    explained
}

/// A variable `x{i}` for each of `domains`.
fn int_vars(builder: &mut ModelBuilder, domains: &[BTreeSet<i32>]) -> Vec<VarId> {
    domains
        .iter()
        .enumerate()
        .map(|(i, d)| {
            builder
                .int_var_with_values(format!("x{i}"), d.iter().copied())
                .unwrap()
        })
        .collect()
}

/// A linear constraint over three or four variables with small domains, some with holes.
fn linear_model() -> impl Strategy<Value = (Model, Vec<(usize, bool, i32)>)> {
    (
        prop::collection::vec(prop::collection::btree_set(-3..=3i32, 1..=5), 2..=4),
        prop::collection::vec(-3..=3i32, 4),
        0..3u8,
        -6..=6i32,
        prop::collection::vec((0..5usize, any::<bool>(), -3..=3i32), 0..=4),
        0..3u8,
    )
        .prop_map(|(domains, coefficients, relation, rhs, cuts, reified)| {
            let mut builder = ModelBuilder::new();
            let vars = int_vars(&mut builder, &domains);
            let terms = coefficients.into_iter().zip(vars).collect();
            let relation = match relation {
                0 => Relation::Equal,
                1 => Relation::LessOrEqual,
                _ => Relation::NotEqual,
            };
            let linear = Linear::new(terms, relation, rhs);
            // Now and then reified by a Boolean (the last variable), whose value the cuts may fix.
            match reified {
                0 => builder.post(linear).unwrap(),
                mode => {
                    let b = builder.bool_var("b").unwrap();
                    let mode = if mode == 1 {
                        Reification::Equivalent
                    } else {
                        Reification::Implies
                    };
                    builder
                        .post(Reified::new(b, Box::new(linear), mode))
                        .unwrap()
                }
            };
            (builder.build(), cuts)
        })
}

/// A comparison `x ⋈ y + c`, reified or not, or an all-different over three variables, on small
/// domains with holes. The first variable is the reification's Boolean.
fn other_model() -> impl Strategy<Value = (Model, Vec<(usize, bool, i32)>)> {
    let comparisons = [
        Comparison::Equal,
        Comparison::NotEqual,
        Comparison::LessOrEqual,
        Comparison::Less,
        Comparison::GreaterOrEqual,
        Comparison::Greater,
    ];
    (
        prop::collection::vec(prop::collection::btree_set(-3..=3i32, 1..=5), 3),
        0..4u8,
        proptest::sample::select(comparisons.to_vec()),
        -2..=2i64,
        prop::collection::vec((0..4usize, any::<bool>(), -3..=3i32), 0..=3),
    )
        .prop_map(|(domains, kind, comparison, offset, cuts)| {
            let mut builder = ModelBuilder::new();
            let b = builder.bool_var("b").unwrap();
            let vars = int_vars(&mut builder, &domains);
            let compare = Compare::new(vars[0], comparison, vars[1], offset).unwrap();
            match kind {
                0 => builder.post(compare).unwrap(),
                1 | 2 => {
                    let mode = if kind == 1 {
                        Reification::Equivalent
                    } else {
                        Reification::Implies
                    };
                    builder
                        .post(ReifiedCompare::new(b, compare, mode).unwrap())
                        .unwrap()
                }
                _ => builder
                    .post(AllDifferent::with_consistency(
                        vars.clone(),
                        AllDifferentConsistency::Value,
                    ))
                    .unwrap(),
            };
            (builder.build(), cuts)
        })
}

/// A constraint over four variables with small domains, some with holes: an all-different with
/// Régin's domain consistency (Hall sets), a table over three of them, an inverse of the first
/// two and the last two (indexed from `first`), an element of a constant array (the first
/// tuple's values, `x0` the index from `first`, `x1` the result), a clause `x0 ∨ x1 ∨ ¬x2 ∨ ¬x3`,
/// `x0 ↔ x1 ∧ ¬x2 ∧ x3`, arithmetic: `x0 · x1 = x2`, `x0 div x1 = x2`, `x0 mod x1 = x2`,
/// `|x0| = x1`, or `x0 = max(x1, x2, x3)` or `x0 = min(x1, x2, x3)`.
fn global_model() -> impl Strategy<Value = (Model, Vec<(usize, bool, i32)>)> {
    (
        prop::collection::vec(prop::collection::btree_set(-1..=3i32, 1..=5), 4),
        0..15u8,
        prop::collection::vec(prop::collection::vec(-1..=3i32, 3), 0..=12),
        -1..=1i32,
        prop::collection::vec((0..4usize, any::<bool>(), -1..=3i32), 0..=3),
    )
        .prop_map(|(domains, kind, tuples, first, cuts)| {
            let mut builder = ModelBuilder::new();
            let vars = int_vars(&mut builder, &domains);
            match kind {
                0 => builder
                    .post(AllDifferent::with_consistency(
                        vars.clone(),
                        AllDifferentConsistency::Domain,
                    ))
                    .unwrap(),
                1 => builder
                    .post(Table::new(vars[..3].to_vec(), tuples).unwrap())
                    .unwrap(),
                2 => builder
                    .post(Inverse::new(
                        vars[..2].to_vec(),
                        first,
                        vars[2..].to_vec(),
                        first,
                    ))
                    .unwrap(),
                3 => {
                    let array = tuples.first().cloned().unwrap_or_else(|| vec![0]);
                    builder
                        .post(Element::new(vars[0], array, vars[1], first).unwrap())
                        .unwrap()
                }
                4 => builder.post(Clause::new(&vars[..2], &vars[2..])).unwrap(),
                6 => builder
                    .post(Arithmetic::times(vars[0], vars[1], vars[2]))
                    .unwrap(),
                7 => builder
                    .post(Arithmetic::div(vars[0], vars[1], vars[2]))
                    .unwrap(),
                8 => builder
                    .post(Arithmetic::modulo(vars[0], vars[1], vars[2]))
                    .unwrap(),
                9 => builder.post(Arithmetic::abs(vars[0], vars[1])).unwrap(),
                13 => builder
                    .post(Among::new(vars[1..].to_vec(), [first, 2], vars[0]))
                    .unwrap(),
                14 => builder
                    .post(Among::count(vars[1..].to_vec(), first + 1, vars[0]))
                    .unwrap(),
                12 => builder
                    .post(VarElement::new(vars[0], vars[2..].to_vec(), vars[1], first).unwrap())
                    .unwrap(),
                10 => builder
                    .post(Extremum::maximum(vars[0], vars[1..].to_vec()).unwrap())
                    .unwrap(),
                11 => builder
                    .post(Extremum::minimum(vars[0], vars[1..].to_vec()).unwrap())
                    .unwrap(),
                _ => builder
                    .post(BoolAnd::new(
                        SignedBool::positive(vars[0]),
                        [
                            SignedBool::positive(vars[1]),
                            SignedBool::negative(vars[2]),
                            SignedBool::positive(vars[3]),
                        ],
                    ))
                    .unwrap(),
            };
            (builder.build(), cuts)
        })
}

/// A product, quotient or remainder `x0 ∘ x1 = x2`, an equality `x0 = x2 + 1` or a maximum
/// `x2 = max(x0, x1)`, beside two disequalities `x0 ≠ x3` and
/// `x2 ≠ x4` (`x3` and `x4` with one or two values), so that the arithmetic is explained while
/// its domains have holes that propagation made and logged: an explanation by bounds is then
/// sound only if the bounds imply the change without those holes, which is what the shortcuts
/// of [`Arithmetic`]'s explanation decide. (With one constraint, every hole is in the initial
/// domains, which the log takes as given.)
fn arithmetic_with_holes_model() -> impl Strategy<Value = (Model, Vec<(usize, bool, i32)>)> {
    (
        prop::collection::vec(prop::collection::btree_set(-3..=4i32, 1..=6), 3),
        prop::collection::vec(prop::collection::btree_set(-3..=4i32, 1..=2), 2),
        0..5u8,
        prop::collection::vec((0..5usize, any::<bool>(), -3..=4i32), 0..=3),
    )
        .prop_map(|(domains, others, kind, cuts)| {
            let mut builder = ModelBuilder::new();
            let mut vars = int_vars(&mut builder, &domains);
            for (k, d) in others.iter().enumerate() {
                vars.push(
                    builder
                        .int_var_with_values(format!("w{k}"), d.iter().copied())
                        .unwrap(),
                );
            }
            match kind {
                0 => builder.post(Arithmetic::times(vars[0], vars[1], vars[2])),
                1 => builder.post(Arithmetic::div(vars[0], vars[1], vars[2])),
                2 => builder.post(Arithmetic::modulo(vars[0], vars[1], vars[2])),
                3 => builder.post(Compare::new(vars[0], Comparison::Equal, vars[2], 1).unwrap()),
                _ => builder.post(Extremum::maximum(vars[2], vars[..2].to_vec()).unwrap()),
            }
            .unwrap();
            for (a, b) in [(0, 3), (2, 4)] {
                builder
                    .post(Compare::new(vars[a], Comparison::NotEqual, vars[b], 0).unwrap())
                    .unwrap();
            }
            (builder.build(), cuts)
        })
}

/// A Boolean sum over two to five Booleans with coefficients ±1, and maybe an integer term over
/// a small domain with holes (the last variable).
fn bool_sum_model() -> impl Strategy<Value = (Model, Vec<(usize, bool, i32)>)> {
    (
        prop::collection::vec(prop::sample::select(vec![-1i64, 1]), 2..=5),
        prop::option::of((
            prop::sample::select(vec![-2i64, -1, 1, 2]),
            prop::collection::btree_set(-3..=3i32, 1..=5),
        )),
        any::<bool>(),
        -3..=4i64,
        prop::collection::vec((0..6usize, any::<bool>(), -1..=2i32), 0..=3),
    )
        .prop_map(|(signs, integer, equal, rhs, cuts)| {
            let mut builder = ModelBuilder::new();
            let booleans = signs
                .iter()
                .enumerate()
                .map(|(i, &s)| (s, builder.bool_var(format!("b{i}")).unwrap()))
                .collect();
            let integer = integer.map(|(a, d)| (a, int_vars(&mut builder, &[d])[0]));
            let relation = if equal {
                Relation::Equal
            } else {
                Relation::LessOrEqual
            };
            builder
                .post(BoolSum::new(booleans, integer, relation, rhs).unwrap())
                .unwrap();
            (builder.build(), cuts)
        })
}

/// Three or four tasks on a cumulative resource (or a disjunctive one), with small start domains,
/// durations and requirements, so that time-tabling pushes starts and overloads.
fn scheduling_model() -> impl Strategy<Value = (Model, Vec<(usize, bool, i32)>)> {
    (
        prop::collection::vec(
            (
                prop::collection::btree_set(0..=5i32, 1..=4),
                0..=3i32,
                0..=2i32,
            ),
            3..=4,
        ),
        1..=3i32,
        any::<bool>(),
        prop::collection::vec((0..4usize, any::<bool>(), 0..=5i32), 0..=3),
    )
        .prop_map(|(tasks, capacity, unary, cuts)| {
            let mut builder = ModelBuilder::new();
            let domains: Vec<BTreeSet<i32>> = tasks.iter().map(|t| t.0.clone()).collect();
            let starts = int_vars(&mut builder, &domains);
            let durations = tasks.iter().map(|t| t.1).collect();
            if unary {
                builder
                    .post(Disjunctive::new(starts, durations).unwrap())
                    .unwrap();
            } else {
                let heights = tasks.iter().map(|t| t.2).collect();
                builder
                    .post(Cumulative::new(starts, durations, heights, capacity).unwrap())
                    .unwrap();
            }
            (builder.build(), cuts)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]

    #[test]
    fn explanations_over_propagated_holes_are_implied(
        (model, cuts) in arithmetic_with_holes_model()
    ) {
        check_explanations(&model, &cuts);
    }

    #[test]
    fn global_and_boolean_explanations_are_implied((model, cuts) in global_model()) {
        check_explanations(&model, &cuts);
    }

    #[test]
    fn linear_explanations_are_implied((model, cuts) in linear_model()) {
        check_explanations(&model, &cuts);
    }

    #[test]
    fn comparison_and_all_different_explanations_are_implied((model, cuts) in other_model()) {
        check_explanations(&model, &cuts);
    }

    #[test]
    fn boolean_sum_explanations_are_implied((model, cuts) in bool_sum_model()) {
        check_explanations(&model, &cuts);
    }

    #[test]
    fn time_table_explanations_are_implied((model, cuts) in scheduling_model()) {
        check_explanations(&model, &cuts);
    }
}

/// The checker is not vacuous: on `x + y ≤ 2` with `x ≥ 2` it checks the two explained changes,
/// and `y ≤ 0` is explained by `x ≥ 2` alone.
#[test]
fn a_linear_bound_is_explained_by_the_other_bound() {
    let mut builder = ModelBuilder::new();
    let x = builder.int_var("x", 0..=3).unwrap();
    let y = builder.int_var("y", 0..=3).unwrap();
    builder
        .post(Linear::new(vec![(1, x), (1, y)], Relation::LessOrEqual, 2))
        .unwrap();
    let model = builder.build();
    assert_eq!(check_explanations(&model, &[(0, false, 2)]), 2);
    let mut store = Store::new(&model);
    store.enable_change_log();
    store.set_bounds(x, 2, i64::MAX).unwrap();
    store.establish_arc_consistency(&model).unwrap();
    let log = store.change_log();
    let e = log
        .iter()
        .position(|entry| entry.literal == Literal::le(y, 0))
        .expect("y ≤ 0 was inferred");
    let mut reasons = Vec::new();
    assert!(
        model
            .constraint(model.constraint_ids().next().unwrap())
            .explain(log[e].literal, &ExplainCtx::new(&store, e), &mut reasons)
    );
    assert_eq!(reasons, vec![Literal::ge(x, 2)]);
}

/// A failure is a change refused: on `x + y ≤ 2` with `x ≥ 2` and `y ≥ 1`, the sum cannot make
/// `y ≤ 0` (or `x ≤ 1`) true; the store hands that literal and its constraint to learning once,
/// and its explanation (the other bound) passes the brute-force check like a logged change's.
#[test]
fn a_refused_bound_is_the_failure_and_is_explained() {
    let mut builder = ModelBuilder::new();
    let x = builder.int_var("x", 0..=3).unwrap();
    let y = builder.int_var("y", 0..=3).unwrap();
    builder
        .post(Linear::new(vec![(1, x), (1, y)], Relation::LessOrEqual, 2))
        .unwrap();
    let model = builder.build();
    let sum = model.constraints_of(x)[0];
    let mut store = Store::new(&model);
    store.enable_change_log();
    store.set_bounds(x, 2, i64::MAX).unwrap();
    store.set_bounds(y, 1, i64::MAX).unwrap();
    assert!(store.establish_arc_consistency(&model).is_err());
    let (literal, cause) = store.take_failure().expect("the sum refused a bound");
    assert_eq!(cause, Cause::Constraint(sum));
    assert!(
        [Literal::le(y, 0), Literal::le(x, 1)].contains(&literal),
        "{literal:?}"
    );
    assert_eq!(store.take_failure(), None, "taken once");
    // The decisions' cut alone refuses nothing; only the sum's bound is a failure to explain.
    assert_eq!(
        check_explanations(&model, &[(0, false, 2), (1, false, 1)]),
        1
    );
}

/// A removal that would empty a domain is refused as `x ≠ v`, and a decision's refused bound
/// carries the decision as its cause.
#[test]
fn a_refused_removal_and_a_refused_decision_are_failures() {
    let mut builder = ModelBuilder::new();
    let x = builder.int_var("x", 0..=3).unwrap();
    let model = builder.build();
    let mut store = Store::new(&model);
    store.enable_change_log();
    assert!(store.set_bounds(x, 5, i64::MAX).is_err());
    assert_eq!(
        store.take_failure(),
        Some((Literal::ge(x, 5), Cause::Decision))
    );
    store.set_bounds(x, 2, 2).unwrap();
    assert!(store.remove_value(x, 2).is_err());
    assert_eq!(
        store.take_failure(),
        Some((Literal::ne(x, 2), Cause::Decision))
    );
}

/// Products over domains without holes are explained by bounds without the enumeration that
/// checks domains with holes; the explanations still pass the brute-force check.
#[test]
fn a_product_over_ranges_is_explained_by_bounds() {
    let mut builder = ModelBuilder::new();
    let x = builder.int_var("x", 0..=4).unwrap();
    let y = builder.int_var("y", 0..=4).unwrap();
    let z = builder.int_var("z", 0..=16).unwrap();
    builder.post(Arithmetic::times(x, y, z)).unwrap();
    let model = builder.build();
    // z ≥ 9 makes x ≥ 3 and y ≥ 3 by bounds, from ranges.
    assert!(check_explanations(&model, &[(2, false, 9)]) >= 2);
    assert!(check_explanations(&model, &[(0, true, 2), (1, true, 3)]) >= 1);
}

/// An equality's bound can pass a value whose partner is a hole above the partner's lower bound:
/// with `x ∈ {-2, 0, 3}`, `y ∈ {-3, -1, 0, 3}` and `y ≠ w`, `w = 0` (posted first, so it
/// propagates first), propagation takes 0 from `y`, and `x = y` then raises `y` to -1 and `x` to
/// 3, past 0, whose partner is gone while `y ≥ -1`. The
/// explanation needs `y ≠ 0` as well as `y ≥ -1`; the brute-force check finds it if missing.
#[test]
fn an_equality_bound_past_a_propagated_hole_is_explained_by_it() {
    let mut builder = ModelBuilder::new();
    let x = builder.int_var_with_values("x", [-2, 0, 3]).unwrap();
    let y = builder.int_var_with_values("y", [-3, -1, 0, 3]).unwrap();
    let w = builder.int_var("w", 0..=0).unwrap();
    builder.post(Compare::not_equal(y, w).unwrap()).unwrap();
    builder.post(Compare::equal(x, y).unwrap()).unwrap();
    let model = builder.build();
    assert!(check_explanations(&model, &[]) >= 1);
}
