//! One event path: a store hands every domain change to the constraints that keep state by
//! notification, under forward checking as under propagation, so that their state is exact
//! whichever search made the changes.
//!
//! The property walks a forward-checking search tree over random models of the constraints that
//! keep such state (linear sums, Boolean sums, clauses, conjunctions and parities), and at every
//! node propagates to a fixpoint twice: in a copy of the searched store, whose constraints answer
//! from the state that forward checking left, and in a fresh store given the same domains, whose
//! constraints compute their state anew. Both must fail together or reach the same domains (the
//! fixpoint of these propagators is unique). `Linear` also asserts, in debug builds, that its
//! cells match the domains whenever it revises.

use csp_core::constraints::{BoolAnd, BoolSum, Clause, Linear, Parity, Relation, SignedBool};
use csp_core::{Model, ModelBuilder, Store, VarId};
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;

/// One constraint of a generated model, over variable indices.
#[derive(Debug, Clone)]
enum Spec {
    Linear(Vec<(i32, usize)>, bool, i32),
    BoolSum(Vec<(i64, usize)>, Option<(i64, usize)>, bool, i64),
    Clause(Vec<usize>, Vec<usize>),
    BoolAnd(usize, Vec<(usize, bool)>),
    Parity(Vec<usize>, bool),
}

/// Variables `0..BOOLEANS` are 0/1; the others range over `0..=3`.
const BOOLEANS: usize = 4;
const VARS: usize = 7;

fn distinct(indices: Vec<usize>) -> Vec<usize> {
    let mut seen = Vec::new();
    for i in indices {
        if !seen.contains(&i) {
            seen.push(i);
        }
    }
    seen
}

fn spec_strategy() -> impl Strategy<Value = Spec> {
    let booleans = || prop::collection::vec(0..BOOLEANS, 2..=4).prop_map(distinct);
    prop_oneof![
        (
            prop::collection::vec((-2i32..=2, 0..VARS), 2..=4),
            any::<bool>(),
            -2i32..=6
        )
            .prop_map(|(terms, equal, rhs)| {
                let vars = distinct(terms.iter().map(|&(_, v)| v).collect());
                let terms = vars
                    .iter()
                    .map(|&v| (terms.iter().find(|t| t.1 == v).unwrap().0, v))
                    .collect();
                Spec::Linear(terms, equal, rhs)
            }),
        (
            booleans(),
            prop::collection::vec(any::<bool>(), 4),
            prop::option::of((prop::sample::select(vec![-2i64, -1, 1, 2]), BOOLEANS..VARS)),
            any::<bool>(),
            -1i64..=4
        )
            .prop_map(|(vars, signs, integer, equal, rhs)| {
                let booleans = vars
                    .iter()
                    .zip(signs)
                    .map(|(&v, s)| (if s { 1 } else { -1 }, v))
                    .collect();
                Spec::BoolSum(booleans, integer, equal, rhs)
            }),
        (booleans(), prop::collection::vec(any::<bool>(), 4)).prop_map(|(vars, signs)| {
            let (mut positive, mut negative) = (Vec::new(), Vec::new());
            for (v, s) in vars.into_iter().zip(signs) {
                if s { &mut positive } else { &mut negative }.push(v);
            }
            Spec::Clause(positive, negative)
        }),
        (
            0..BOOLEANS,
            booleans(),
            prop::collection::vec(any::<bool>(), 4)
        )
            .prop_map(|(r, vars, signs)| {
                let literals = vars.into_iter().filter(|&v| v != r).zip(signs).collect();
                Spec::BoolAnd(r, literals)
            }),
        (booleans(), any::<bool>()).prop_map(|(vars, odd)| Spec::Parity(vars, odd)),
    ]
}

fn build(specs: &[Spec]) -> Model {
    let mut builder = ModelBuilder::new();
    let vars: Vec<VarId> = (0..VARS)
        .map(|i| {
            let range = if i < BOOLEANS { 0..=1 } else { 0..=3 };
            builder.int_var(format!("x{i}"), range).unwrap()
        })
        .collect();
    let lit = |(v, positive): (usize, bool)| {
        if positive {
            SignedBool::positive(vars[v])
        } else {
            SignedBool::negative(vars[v])
        }
    };
    for spec in specs {
        let relation = |equal: bool| {
            if equal {
                Relation::Equal
            } else {
                Relation::LessOrEqual
            }
        };
        match spec {
            Spec::Linear(terms, equal, rhs) => {
                let terms = terms.iter().map(|&(a, v)| (a, vars[v])).collect();
                builder
                    .post(Linear::new(terms, relation(*equal), *rhs))
                    .unwrap();
            }
            Spec::BoolSum(booleans, integer, equal, rhs) => {
                let booleans = booleans.iter().map(|&(s, v)| (s, vars[v])).collect();
                let integer = integer.map(|(a, v)| (a, vars[v]));
                let sum = BoolSum::new(booleans, integer, relation(*equal), *rhs).unwrap();
                builder.post(sum).unwrap();
            }
            Spec::Clause(positive, negative) => {
                let pick = |list: &[usize]| list.iter().map(|&v| vars[v]).collect::<Vec<_>>();
                builder
                    .post(Clause::new(&pick(positive), &pick(negative)))
                    .unwrap();
            }
            Spec::BoolAnd(r, literals) => {
                let and = BoolAnd::new(lit((*r, true)), literals.iter().copied().map(lit));
                builder.post(and).unwrap();
            }
            Spec::Parity(list, odd) => {
                let list: Vec<VarId> = list.iter().map(|&v| vars[v]).collect();
                builder.post(Parity::new(&list, *odd)).unwrap();
            }
        }
    }
    builder.build()
}

fn domains(store: &Store, model: &Model) -> Vec<Vec<i32>> {
    model
        .vars()
        .map(|v| store.domain(v).values().collect())
        .collect()
}

/// Propagates a fresh store given the domains `wanted`: every constraint computes its state anew.
fn fresh_fixpoint(model: &Model, wanted: &[Vec<i32>]) -> Option<Vec<Vec<i32>>> {
    let mut store = Store::new(model);
    for (v, values) in model.vars().zip(wanted) {
        let all: Vec<i32> = store.domain(v).values().collect();
        for value in all {
            if !values.contains(&value) {
                store.remove_value(v, value).ok()?;
            }
        }
    }
    store.establish_arc_consistency(model).ok()?;
    Some(domains(&store, model))
}

/// Walks the forward-checking tree (variables in index order, values ascending) for at most
/// `budget` nodes, comparing the two fixpoints at every node forward checking did not refuse.
fn walk(
    model: &Model,
    store: &mut Store,
    depth: usize,
    budget: &mut u32,
) -> Result<(), TestCaseError> {
    if *budget == 0 || depth == VARS {
        return Ok(());
    }
    let var = VarId::from_index(depth);
    let values: Vec<i32> = store.domain(var).values().collect();
    for value in values {
        if *budget == 0 {
            break;
        }
        *budget -= 1;
        let mark = store.checkpoint();
        store.assign(model, var, value);
        // Every third level assigns without forward checking, as check-past does, so that the
        // assignment's own event must reach the constraints before the next checkpoint.
        let checked = depth % 3 == 2 || store.forward_check(model, var).is_ok();
        if checked {
            let here = domains(store, model);
            let mut copy = store.clone();
            let searched = copy
                .establish_arc_consistency(model)
                .ok()
                .map(|()| domains(&copy, model));
            prop_assert_eq!(
                searched,
                fresh_fixpoint(model, &here),
                "after forward checking down to {:?} = {} from {:?}",
                var,
                value,
                here
            );
            walk(model, store, depth + 1, budget)?;
        }
        store.undo_to(model, mark);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 300,
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource("regressions"))),
        ..ProptestConfig::default()
    })]

    /// Propagation after forward checking reaches what a fresh propagation of the same domains
    /// reaches: the state the constraints kept by notification followed forward checking.
    #[test]
    fn notified_state_follows_forward_checking(
        specs in prop::collection::vec(spec_strategy(), 2..=5),
    ) {
        let model = build(&specs);
        let mut store = Store::new(&model);
        let mut budget = 400;
        walk(&model, &mut store, 0, &mut budget)?;
    }
}
