//! Bounding a search's memory does not change the search. With budgets so small that the trail is
//! forgotten and the candidate lists dropped at nearly every node (so that nearly every backtrack redoes
//! the path from the root and lists a node's choices again), every search makes exactly the trace it
//! makes with the default budgets: same nodes, same order, same solutions.

use csp::nqueens::{Encoding, model};
use csp::search::{
    IntSearch, Propagation, Restarts, Search, SearchConfig, Strategy, TiePolicy, TraceRecorder,
    ValueOrderKind, ValueSelection, VariableOrderKind, VariableSelection,
};

/// The trace of a search of n-queens under `config`, with the memory budgets given (or the defaults).
fn trace(
    n: usize,
    encoding: Encoding,
    config: &SearchConfig,
    budget: Option<(usize, usize)>,
) -> String {
    let model = model(n, encoding).unwrap();
    let mut recorder = TraceRecorder::new(&model, None);
    let mut search = Search::new(&model, config);
    if let Some((trail, candidates)) = budget {
        search.set_memory_budget(trail, candidates);
    }
    search.run(&mut recorder);
    recorder.into_text()
}

fn configs(n: usize) -> Vec<SearchConfig> {
    let vars = (0..n).map(csp::core::VarId::from_index).collect::<Vec<_>>();
    vec![
        SearchConfig::lex().all_solutions(),
        SearchConfig::min().all_solutions(),
        SearchConfig {
            ties: TiePolicy::Random,
            seed: 3,
            ..SearchConfig::min().all_solutions()
        },
        // The preset: middle-out values (listed again when dropped), random ties, restarts.
        SearchConfig {
            restarts: Some(Restarts { base_nodes: 7 }),
            ..SearchConfig::fast_preset(n).all_solutions()
        },
        // Random values cannot be listed again: their lists are kept, the trail is still bounded.
        SearchConfig {
            value_order: ValueOrderKind::Random,
            propagation: Propagation::Mac,
            seed: 5,
            ..SearchConfig::min().all_solutions()
        },
        SearchConfig {
            variable_order: VariableOrderKind::DomWdeg,
            propagation: Propagation::Mac,
            restarts: Some(Restarts { base_nodes: 5 }),
            ..SearchConfig::min().all_solutions()
        },
        SearchConfig {
            strategy: Strategy::Decisions(vec![IntSearch::new(
                vars.clone(),
                VariableSelection::FirstFail,
                ValueSelection::Median,
            )]),
            ..SearchConfig::decisions(Vec::new()).all_solutions()
        },
        SearchConfig {
            restarts: Some(Restarts { base_nodes: 9 }),
            ..SearchConfig::decisions(vec![IntSearch::new(
                vars,
                VariableSelection::DomWDeg,
                ValueSelection::Split,
            )])
            .all_solutions()
        },
    ]
}

#[test]
fn tiny_memory_budgets_give_the_same_traces() {
    for n in [5, 6, 8] {
        for encoding in [Encoding::Counters, Encoding::Pairwise] {
            for config in configs(n) {
                let unbounded = trace(n, encoding, &config, None);
                for budget in [(1, 1), (200, 5), (2_000, 40)] {
                    let bounded = trace(n, encoding, &config, Some(budget));
                    assert!(
                        bounded == unbounded,
                        "n = {n}, {encoding}, budget {budget:?}, {config:?}: the traces differ"
                    );
                }
                assert!(unbounded.contains("solution"), "{config:?} finds solutions");
            }
        }
    }
}
