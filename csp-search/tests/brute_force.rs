//! The engine against an oracle: on random small models (at most 6 variables, at most 5 values each,
//! random ≠ / table / linear / all-different / predicate constraints) every search configuration finds
//! exactly the solutions that brute-force enumeration of the domains finds.

use std::ops::ControlFlow;

use csp_core::constraints::{AllDifferent, Linear, NotEqual, Predicate, Relation, Table};
use csp_core::{Model, ModelBuilder, VarId};
use csp_search::{
    FnObserver, Outcome, Propagation, Restarts, SearchConfig, SearchEvent, TiePolicy,
    ValueOrderKind, VariableOrderKind, knuth_probes, knuth_probes_on_store, solve,
};
use proptest::prelude::*;

/// A constraint to post, in plain data so proptest can shrink it.
#[derive(Debug, Clone)]
enum Spec {
    NotEqual(usize, i32, usize, i32),
    AllDifferent(Vec<usize>),
    Table(Vec<usize>, Vec<Vec<i32>>),
    Linear(Vec<(i32, usize)>, bool, i32),
    /// `|x - y| != k`.
    Distance(usize, usize, i32),
}

#[derive(Debug, Clone)]
struct Problem {
    domains: Vec<Vec<i32>>,
    constraints: Vec<Spec>,
}

fn distinct_vars(num_vars: usize, max: usize) -> impl Strategy<Value = Vec<usize>> {
    proptest::sample::subsequence((0..num_vars).collect::<Vec<_>>(), 1..=max.min(num_vars))
        .prop_shuffle()
}

/// Two different variables (the model must have at least two).
fn pair(num_vars: usize) -> impl Strategy<Value = (usize, usize)> {
    (0..num_vars, 0..num_vars - 1).prop_map(|(a, b)| (a, if b >= a { b + 1 } else { b }))
}

fn spec(num_vars: usize) -> BoxedStrategy<Spec> {
    let nary = prop_oneof![
        distinct_vars(num_vars, 4).prop_map(Spec::AllDifferent),
        distinct_vars(num_vars, 3)
            .prop_flat_map(|vars| {
                let arity = vars.len();
                (
                    Just(vars),
                    prop::collection::vec(prop::collection::vec(-1..=4i32, arity), 0..12),
                )
            })
            .prop_map(|(vars, tuples)| Spec::Table(vars, tuples)),
        (
            distinct_vars(num_vars, 4).prop_flat_map(|vars| {
                let n = vars.len();
                (Just(vars), prop::collection::vec(-3..=3i32, n))
            }),
            any::<bool>(),
            -6..=10i32
        )
            .prop_map(|((vars, coefs), equal, rhs)| {
                Spec::Linear(coefs.into_iter().zip(vars).collect(), equal, rhs)
            }),
    ];
    if num_vars < 2 {
        return nary.boxed();
    }
    prop_oneof![
        (pair(num_vars), -2..=2i32, -2..=2i32)
            .prop_map(|((x, y), a, b)| Spec::NotEqual(x, a, y, b)),
        (pair(num_vars), 0..=2i32).prop_map(|((x, y), k)| Spec::Distance(x, y, k)),
        nary,
    ]
    .boxed()
}

fn problem() -> impl Strategy<Value = Problem> {
    (1..=6usize)
        .prop_flat_map(|num_vars| {
            (
                prop::collection::vec(prop::collection::btree_set(-1..=4i32, 1..=5), num_vars),
                prop::collection::vec(spec(num_vars), 0..=6),
            )
        })
        .prop_map(|(domains, constraints)| Problem {
            domains: domains
                .into_iter()
                .map(|d| d.into_iter().collect())
                .collect(),
            constraints,
        })
}

fn build(problem: &Problem) -> Model {
    let mut builder = ModelBuilder::new();
    let vars: Vec<VarId> = problem
        .domains
        .iter()
        .enumerate()
        .map(|(i, d)| {
            builder
                .int_var_with_values(format!("v{i}"), d.iter().copied())
                .unwrap()
        })
        .collect();
    for spec in &problem.constraints {
        let posted = match spec {
            Spec::NotEqual(x, a, y, b) => {
                builder.post(NotEqual::with_offsets(vars[*x], *a, vars[*y], *b))
            }
            Spec::AllDifferent(v) => {
                builder.post(AllDifferent::new(v.iter().map(|&i| vars[i]).collect()))
            }
            Spec::Table(v, tuples) => builder
                .post(Table::new(v.iter().map(|&i| vars[i]).collect(), tuples.clone()).unwrap()),
            Spec::Linear(terms, equal, rhs) => builder.post(Linear::new(
                terms.iter().map(|&(a, i)| (a, vars[i])).collect(),
                if *equal {
                    Relation::Equal
                } else {
                    Relation::LessOrEqual
                },
                *rhs,
            )),
            Spec::Distance(x, y, k) => {
                let k = *k;
                builder.post(Predicate::new(
                    format!("|x - y| != {k}"),
                    vars[*x],
                    vars[*y],
                    move |a, b| (a - b).abs() != k,
                ))
            }
        };
        posted.unwrap();
    }
    builder.build()
}

/// Every complete assignment of the domains that the model's checkers accept, in lexicographic order.
fn brute_force(problem: &Problem, model: &Model) -> Vec<Vec<i32>> {
    let mut solutions = Vec::new();
    let mut current = vec![0; problem.domains.len()];
    fn walk(
        i: usize,
        problem: &Problem,
        model: &Model,
        current: &mut Vec<i32>,
        out: &mut Vec<Vec<i32>>,
    ) {
        if i == current.len() {
            if model.is_solution(current) {
                out.push(current.clone());
            }
            return;
        }
        for &v in &problem.domains[i] {
            current[i] = v;
            walk(i + 1, problem, model, current, out);
        }
    }
    walk(0, problem, model, &mut current, &mut solutions);
    solutions
}

fn config() -> impl Strategy<Value = SearchConfig> {
    (
        prop_oneof![
            Just(VariableOrderKind::Lexicographic),
            Just(VariableOrderKind::FewestChoices)
        ],
        prop_oneof![
            Just(TiePolicy::LowestIndex),
            Just(TiePolicy::Random),
            Just(TiePolicy::MaxDegree)
        ],
        prop_oneof![
            Just(ValueOrderKind::Ascending),
            Just(ValueOrderKind::Descending),
            Just(ValueOrderKind::Random),
            Just(ValueOrderKind::MiddleOut)
        ],
        prop_oneof![
            Just(Propagation::CheckPast),
            Just(Propagation::ForwardChecking)
        ],
        any::<u64>(),
        // Restarts with tiny budgets restart at almost every node, the hardest case for completeness.
        prop_oneof![
            Just(None),
            (1..8u64).prop_map(|base_nodes| Some(Restarts { base_nodes }))
        ],
    )
        .prop_map(
            |(variable_order, ties, value_order, propagation, seed, restarts)| SearchConfig {
                variable_order,
                ties,
                value_order,
                propagation,
                seed,
                restarts,
                ..SearchConfig::default().all_solutions()
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn every_configuration_finds_exactly_the_brute_force_solutions(problem in problem(), config in config()) {
        let model = build(&problem);
        let expected = brute_force(&problem, &model);
        let mut found = Vec::new();
        let result = solve(&model, &config, FnObserver(|event: &SearchEvent<'_>| {
            if let SearchEvent::Solution { values, .. } = event {
                found.push(values.to_vec());
            }
            ControlFlow::Continue(())
        }));
        prop_assert_eq!(result.outcome, Outcome::Exhausted);
        prop_assert_eq!(result.stats.solutions, found.len() as u64);
        prop_assert_eq!(result.stats.backtracks, result.stats.nodes, "a full search undoes everything");
        found.sort();
        let before = found.len();
        found.dedup();
        prop_assert_eq!(found.len(), before, "no solution is reported twice");
        prop_assert_eq!(found, expected);
    }

    #[test]
    fn first_solution_is_found_exactly_when_one_exists(problem in problem(), config in config()) {
        let model = build(&problem);
        let exists = !brute_force(&problem, &model).is_empty();
        let result = solve(&model, &config.first(1), ());
        let expected = if exists { Outcome::Solved } else { Outcome::Exhausted };
        prop_assert_eq!(result.outcome, expected);
        prop_assert_eq!(result.stats.solutions, u64::from(exists));
    }
}

/// The configurations that maintain arc consistency or learn weights: MAC under every ordering, and
/// dom/wdeg under every propagation level, with and without restarts (which dom/wdeg makes differ run
/// to run even without randomness, since the weights carry over).
fn config_mac_or_dom_wdeg() -> impl Strategy<Value = SearchConfig> {
    (
        prop_oneof![
            Just((VariableOrderKind::DomWdeg, Propagation::CheckPast)),
            Just((VariableOrderKind::DomWdeg, Propagation::ForwardChecking)),
            Just((VariableOrderKind::DomWdeg, Propagation::Mac)),
            Just((VariableOrderKind::Lexicographic, Propagation::Mac)),
            Just((VariableOrderKind::FewestChoices, Propagation::Mac)),
        ],
        prop_oneof![
            Just(TiePolicy::LowestIndex),
            Just(TiePolicy::Random),
            Just(TiePolicy::MaxDegree)
        ],
        prop_oneof![
            Just(ValueOrderKind::Ascending),
            Just(ValueOrderKind::Random)
        ],
        any::<u64>(),
        prop_oneof![
            Just(None),
            (1..8u64).prop_map(|base_nodes| Some(Restarts { base_nodes }))
        ],
    )
        .prop_map(
            |((variable_order, propagation), ties, value_order, seed, restarts)| SearchConfig {
                variable_order,
                ties,
                value_order,
                propagation,
                seed,
                restarts,
                ..SearchConfig::default().all_solutions()
            },
        )
}

fn all_solutions(
    model: &Model,
    config: &SearchConfig,
) -> (csp_search::SearchResult, Vec<Vec<i32>>) {
    let mut found = Vec::new();
    let result = solve(
        model,
        config,
        FnObserver(|event: &SearchEvent<'_>| {
            if let SearchEvent::Solution { values, .. } = event {
                found.push(values.to_vec());
            }
            ControlFlow::Continue(())
        }),
    );
    (result, found)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn mac_and_dom_wdeg_find_exactly_the_brute_force_solutions(
        problem in problem(),
        config in config_mac_or_dom_wdeg(),
    ) {
        let model = build(&problem);
        let expected = brute_force(&problem, &model);
        let (result, mut found) = all_solutions(&model, &config);
        prop_assert_eq!(result.outcome, Outcome::Exhausted);
        prop_assert_eq!(result.stats.solutions, found.len() as u64);
        prop_assert_eq!(result.stats.backtracks, result.stats.nodes, "a full search undoes everything");
        found.sort();
        let before = found.len();
        found.dedup();
        prop_assert_eq!(found.len(), before, "no solution is reported twice");
        prop_assert_eq!(found, expected);
        let first = solve(&model, &config.clone().first(1), ());
        let exists = result.stats.solutions > 0;
        prop_assert_eq!(first.outcome, if exists { Outcome::Solved } else { Outcome::Exhausted });
    }

    /// With the variables in model order, MAC's tree is part of forward checking's: MAC prunes all
    /// that forward checking prunes, and more. Both list the solutions in the same order.
    #[test]
    fn mac_explores_no_more_nodes_than_forward_checking_in_model_order(problem in problem()) {
        let model = build(&problem);
        let fc = SearchConfig {
            variable_order: VariableOrderKind::Lexicographic,
            propagation: Propagation::ForwardChecking,
            ..SearchConfig::default().all_solutions()
        };
        let mac = SearchConfig { propagation: Propagation::Mac, ..fc.clone() };
        let (fc_result, fc_found) = all_solutions(&model, &fc);
        let (mac_result, mac_found) = all_solutions(&model, &mac);
        prop_assert_eq!(fc_found, mac_found);
        prop_assert!(
            mac_result.stats.nodes <= fc_result.stats.nodes,
            "MAC {} nodes, forward checking {}", mac_result.stats.nodes, fc_result.stats.nodes
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Knuth's probes take a shortcut under check-past when every constraint's check decomposes into
    /// pairs: bit masks worked out once from the checks. On random models (whose binary tables and
    /// sums, all-differents, offsets and distances claim to decompose, and whose wider tables and
    /// sums do not) the shortcut makes exactly the probes the store makes, under every ordering and
    /// propagation level.
    #[test]
    fn knuth_probes_match_the_probes_on_the_store(
        problem in problem(),
        config in config(),
        probes in 8..120u64,
    ) {
        let model = build(&problem);
        let config = SearchConfig { restarts: None, ..config };
        prop_assert_eq!(
            knuth_probes(&model, &config, probes),
            knuth_probes_on_store(&model, &config, probes)
        );
        let check_past = SearchConfig { propagation: Propagation::CheckPast, ..config };
        prop_assert_eq!(
            knuth_probes(&model, &check_past, probes),
            knuth_probes_on_store(&model, &check_past, probes)
        );
    }
}
