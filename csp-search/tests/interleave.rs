//! Two searches in turn ([`Interleaved`]): the solution found is one (checked by the model's
//! checker), an unsatisfiable model is proven so, the turns alternate as documented, and a run
//! is reproducible.

use csp_core::constraints::NotEqual;
use csp_core::{Model, ModelBuilder, VarId};
use csp_search::{
    IntSearch, Interleaved, Limits, Outcome, SearchConfig, ValueSelection, VariableSelection,
};

/// `n` queens, one per row: `q[i]` is the column of row `i`. With `rooks_only`, the diagonals
/// are left out and a pigeon is added (`n + 1` rows over `n` columns), which has no solution.
fn board(n: i32, rooks_only: bool) -> (Model, Vec<VarId>) {
    let mut builder = ModelBuilder::new();
    let rows = if rooks_only { n + 1 } else { n };
    let q: Vec<VarId> = (0..rows)
        .map(|i| builder.int_var(format!("q{i}"), 0..=n - 1).unwrap())
        .collect();
    for i in 0..rows as usize {
        for j in i + 1..rows as usize {
            builder.post(NotEqual::new(q[i], q[j])).unwrap();
            if !rooks_only {
                let d = (j - i) as i32;
                builder
                    .post(NotEqual::with_offsets(q[i], 0, q[j], d))
                    .unwrap();
                builder
                    .post(NotEqual::with_offsets(q[i], d, q[j], 0))
                    .unwrap();
            }
        }
    }
    (builder.build(), q)
}

/// The model's own search: rows in order, smallest column first.
fn annotated(vars: &[VarId]) -> SearchConfig {
    SearchConfig::decisions(vec![IntSearch::new(
        vars.to_vec(),
        VariableSelection::InputOrder,
        ValueSelection::Min,
    )])
}

#[test]
fn the_first_solution_is_a_solution_and_both_searches_take_turns() {
    let (model, q) = board(12, false);
    let mut search = Interleaved::with_turn(&model, &annotated(&q), &SearchConfig::free(), 4);
    let solution = search
        .next_solution(&mut ())
        .expect("12 queens has solutions")
        .to_vec();
    assert!(model.is_solution(&solution));
    assert_eq!(search.outcome(), Some(Outcome::Solved));
    let (first, second) = search.nodes_each();
    // Turns of 4 and 2 nodes: neither search is more than a turn ahead of its share.
    assert!(first > 0 && second > 0, "{first} and {second}");
    assert!(
        first <= 2 * second + 4 && second <= first / 2 + 2,
        "{first} and {second}"
    );
    assert_eq!(search.result().stats.nodes, first + second);
    assert!(search.next_solution(&mut ()).is_none());
}

#[test]
fn an_unsatisfiable_model_is_proven_so_by_either_search() {
    let (model, q) = board(6, true);
    for turn in [1, 7, 1_000_000] {
        let mut search =
            Interleaved::with_turn(&model, &annotated(&q), &SearchConfig::free(), turn);
        assert!(search.next_solution(&mut ()).is_none());
        assert_eq!(search.outcome(), Some(Outcome::Exhausted), "turn {turn}");
        assert_eq!(search.result().solution, None);
    }
}

#[test]
fn a_run_is_reproducible_and_keeps_to_its_node_limit() {
    let (model, q) = board(10, false);
    let run = || {
        let mut search = Interleaved::with_turn(&model, &annotated(&q), &SearchConfig::free(), 3);
        let solution = search.next_solution(&mut ()).map(<[i32]>::to_vec);
        (solution, search.nodes_each())
    };
    assert_eq!(run(), run());
    let (model, q) = board(7, true);
    let mut limited = annotated(&q);
    limited.limits = Limits {
        nodes: Some(5),
        ..Limits::default()
    };
    let mut search = Interleaved::with_turn(&model, &limited, &SearchConfig::free(), 2);
    assert!(search.next_solution(&mut ()).is_none());
    assert_eq!(
        search.outcome(),
        Some(Outcome::LimitReached(csp_search::Limit::Nodes))
    );
    let (first, second) = search.nodes_each();
    assert!(first + second <= 5, "{first} + {second}");
}
