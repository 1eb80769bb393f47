//! Min-conflicts over models built from csp-core's generic constraints only.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use csp_core::constraints::{AllDifferent, NotEqual};
use csp_core::{Model, ModelBuilder, VarId};
use csp_local::{
    LocalConfig, LocalError, LocalLimit, LocalOutcome, Neighbourhood, Start, min_conflicts,
    total_conflicts,
};
use proptest::prelude::*;

/// A graph-colouring model: one variable per node with `colours` values, `!=` on every edge.
fn colouring(nodes: usize, edges: &[(usize, usize)], colours: i32) -> Model {
    let mut builder = ModelBuilder::new();
    let vars: Vec<VarId> = (0..nodes)
        .map(|i| builder.int_var(format!("v{i}"), 0..=colours - 1))
        .collect::<Result<_, _>>()
        .expect("valid domains");
    for &(a, b) in edges {
        builder
            .post(NotEqual::new(vars[a], vars[b]))
            .expect("valid edge");
    }
    builder.build()
}

/// N-queens from generic constraints only: all-different columns and pairwise diagonal `!=`.
fn generic_queens(n: usize) -> Model {
    let mut builder = ModelBuilder::new();
    let rows: Vec<VarId> = (0..n)
        .map(|i| builder.int_var(format!("q{i}"), 0..=n as i32 - 1))
        .collect::<Result<_, _>>()
        .expect("valid domains");
    builder
        .post(AllDifferent::new(rows.clone()))
        .expect("valid scope");
    for i in 0..n {
        for j in i + 1..n {
            let (a, b) = (i as i32, j as i32);
            builder
                .post(NotEqual::with_offsets(rows[i], a, rows[j], b))
                .expect("valid");
            builder
                .post(NotEqual::with_offsets(rows[i], -a, rows[j], -b))
                .expect("valid");
        }
    }
    builder.build()
}

fn complete_graph(nodes: usize) -> Vec<(usize, usize)> {
    (0..nodes)
        .flat_map(|a| (a + 1..nodes).map(move |b| (a, b)))
        .collect()
}

/// Configurations covering every start, neighbourhood and diversification. Each restarts now and
/// then: plain min-conflicts can cycle on a small board with few solutions (6-queens has four).
fn every_config() -> Vec<LocalConfig> {
    let base = LocalConfig::default()
        .with_max_steps(20_000)
        .with_restart_after(300);
    vec![
        base.clone(),
        base.clone().with_start(Start::Random),
        base.clone().with_noise(0.1).with_tabu_tenure(3),
        base.clone().with_restart_after(50),
        base.clone()
            .with_start(Start::Permutation)
            .with_neighbourhood(Neighbourhood::Swap { partners: 4 }),
        base.with_start(Start::Permutation)
            .with_neighbourhood(Neighbourhood::Swap { partners: 1000 })
            .with_noise(0.05),
    ]
}

#[test]
fn solves_generic_queens_under_every_configuration_and_the_solution_checks() {
    for n in [1, 4, 5, 6, 8, 10, 12] {
        let model = generic_queens(n);
        for (k, config) in every_config().into_iter().enumerate() {
            for seed in 0..3 {
                let result = min_conflicts(&model, &config.clone().with_seed(seed), None)
                    .expect("the queens model is a permutation model");
                assert_eq!(
                    result.outcome,
                    LocalOutcome::Solved,
                    "n {n} config {k} seed {seed}"
                );
                assert!(model.is_solution(&result.assignment), "n {n} config {k}");
                assert_eq!(result.conflicts, 0);
                assert_eq!(result.stats.best_conflicts, 0);
            }
        }
    }
}

#[test]
fn swaps_keep_a_permutation_start_a_permutation() {
    let model = generic_queens(9);
    let config = LocalConfig::default()
        .with_start(Start::Permutation)
        .with_neighbourhood(Neighbourhood::Swap { partners: 3 })
        .with_noise(0.3)
        .with_max_steps(7);
    for seed in 0..20 {
        let result = min_conflicts(&model, &config.clone().with_seed(seed), None).expect("ok");
        let mut sorted = result.assignment.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..9).collect::<Vec<_>>(), "seed {seed}");
    }
}

#[test]
fn an_unsatisfiable_model_reaches_the_step_limit_with_its_best_assignment() {
    // Four mutually adjacent nodes cannot take three colours.
    let model = colouring(4, &complete_graph(4), 3);
    for config in every_config().into_iter().take(4) {
        let result = min_conflicts(&model, &config.with_max_steps(500), None).expect("ok");
        assert_eq!(
            result.outcome,
            LocalOutcome::LimitReached(LocalLimit::Steps)
        );
        assert_eq!(result.stats.steps, 500);
        assert_eq!(result.assignment.len(), 4);
        assert!(result.conflicts > 0);
        assert_eq!(
            result.conflicts,
            total_conflicts(&model, &result.assignment)
        );
        assert_eq!(result.conflicts, result.stats.best_conflicts);
        // One clash is the best possible: it is two conflicts, one at each end of the edge.
        assert_eq!(result.conflicts, 2);
    }
}

#[test]
fn a_time_limit_and_a_raised_stop_flag_end_the_run() {
    let model = colouring(4, &complete_graph(4), 3);
    let timed = LocalConfig::default().with_time_limit(Duration::from_millis(20));
    let result = min_conflicts(&model, &timed, None).expect("ok");
    assert_eq!(result.outcome, LocalOutcome::LimitReached(LocalLimit::Time));
    let stop = AtomicBool::new(true);
    let result = min_conflicts(&model, &LocalConfig::default(), Some(&stop)).expect("ok");
    assert_eq!(result.outcome, LocalOutcome::Stopped);
    assert_eq!(result.stats.steps, 0);
}

#[test]
fn the_same_seed_gives_the_same_run() {
    let model = generic_queens(10);
    for config in every_config() {
        let config = config.with_seed(42).with_max_steps(40);
        let first = min_conflicts(&model, &config, None).expect("ok");
        let second = min_conflicts(&model, &config, None).expect("ok");
        assert_eq!(first.assignment, second.assignment);
        assert_eq!(first.stats, second.stats);
        assert_eq!(first.outcome, second.outcome);
    }
    let a = min_conflicts(
        &model,
        &LocalConfig::default()
            .with_start(Start::Random)
            .with_seed(1),
        None,
    );
    let b = min_conflicts(
        &model,
        &LocalConfig::default()
            .with_start(Start::Random)
            .with_seed(2),
        None,
    );
    assert_ne!(
        a.expect("ok").stats,
        b.expect("ok").stats,
        "different seeds should differ"
    );
}

#[test]
fn the_conflict_history_starts_at_the_initial_count_and_ends_at_the_answer() {
    let model = generic_queens(30);
    let result = min_conflicts(
        &model,
        &LocalConfig::default().with_start(Start::Random),
        None,
    )
    .expect("ok");
    let history = &result.stats.conflict_history;
    assert_eq!(history[0], (0, result.stats.initial_conflicts));
    assert!(
        result.stats.initial_conflicts > 0,
        "a random 30-queens start clashes"
    );
    assert_eq!(*history.last().expect("recorded"), (result.stats.steps, 0));
    assert!(history.windows(2).all(|w| w[0].0 <= w[1].0), "{history:?}");
}

#[test]
fn a_permutation_start_refuses_a_model_that_is_not_one() {
    let config = LocalConfig::default().with_start(Start::Permutation);
    let error = min_conflicts(&colouring(4, &[(0, 1)], 3), &config, None).unwrap_err();
    assert!(matches!(
        error,
        LocalError::NotAPermutation { num_vars: 4, .. }
    ));
    assert_eq!(
        error.to_string(),
        "a permutation start needs every variable to share one domain of 4 values, but v0 has 3 values"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Random colouring problems: whenever min-conflicts says solved, the model's own checker agrees,
    /// and an unsolved run reports an assignment whose conflicts it measured correctly.
    #[test]
    fn answers_agree_with_the_checker(
        nodes in 1_usize..9,
        edges in prop::collection::vec((0_usize..9, 0_usize..9), 0..20),
        colours in 1_i32..4,
        seed in 0_u64..1000,
    ) {
        let edges: Vec<_> = edges
            .into_iter()
            .map(|(a, b)| (a % nodes, b % nodes))
            .filter(|(a, b)| a != b)
            .collect();
        let model = colouring(nodes, &edges, colours);
        let config = LocalConfig::default().with_seed(seed).with_max_steps(300).with_noise(0.1);
        let result = min_conflicts(&model, &config, None).expect("ok");
        match result.outcome {
            LocalOutcome::Solved => prop_assert!(model.is_solution(&result.assignment)),
            _ => {
                prop_assert!(result.conflicts > 0);
                prop_assert_eq!(result.conflicts, total_conflicts(&model, &result.assignment));
            }
        }
    }
}
