//! Colouring against published chromatic numbers and against brute force.

use csp_problems::coloring::{self, Status};
use csp_problems::dimacs::{self, Graph};
use csp_search::{Propagation, SearchConfig, TiePolicy, VariableOrderKind};
use proptest::prelude::*;

fn graph(text: &str) -> Graph {
    dimacs::parse(text).expect("a valid file")
}

/// The configurations every property runs under.
fn configs() -> Vec<SearchConfig> {
    let mut configs = vec![coloring::default_config()];
    for (order, propagation) in [
        (VariableOrderKind::FewestChoices, Propagation::Mac),
        (
            VariableOrderKind::FewestChoices,
            Propagation::ForwardChecking,
        ),
        (VariableOrderKind::DomWdeg, Propagation::ForwardChecking),
        (VariableOrderKind::Lexicographic, Propagation::CheckPast),
    ] {
        configs.push(SearchConfig {
            variable_order: order,
            propagation,
            ..SearchConfig::default()
        });
    }
    configs.push(SearchConfig {
        ties: TiePolicy::Random,
        restarts: Some(csp_search::Restarts { base_nodes: 20 }),
        seed: 7,
        ..coloring::default_config()
    });
    configs
}

#[test]
fn mycielski_graphs_have_their_published_chromatic_numbers_proven() {
    // Trick's DIMACS instances; chromatic numbers 4 and 5 (ANSWERS.tsv, verified by SAT).
    for (text, chi) in [
        (include_str!("../../data/coloring/myciel3.col"), 4),
        (include_str!("../../data/coloring/myciel4.col"), 5),
    ] {
        let graph = graph(text);
        for config in configs() {
            let result = coloring::chromatic_number(&graph, &config, ()).unwrap();
            assert!(result.optimal, "{config:?}");
            let (colors, coloring) = result.best.expect("a colouring");
            assert_eq!(colors, chi, "{config:?}");
            assert_eq!(coloring::check(&graph, &coloring, colors), Ok(()));
            // The triangle-free Mycielski graphs need the search's proof, not a clique's.
            assert_eq!(result.clique, 2);
            let last = result.attempts.last().unwrap();
            assert_eq!((last.colors, last.status), (chi - 1, Status::NoColoring));
        }
    }
}

#[test]
fn queen5_5_and_le450_5a_take_five_colours() {
    // queen5_5: the 5x5 queen graph, chromatic number 5 with a 5-clique (a row); le450_5a:
    // Leighton's graph with a planted 5-colouring.
    let queens = graph(include_str!("../../data/coloring/queen5_5.col"));
    let result = coloring::chromatic_number(&queens, &coloring::default_config(), ()).unwrap();
    assert!(result.optimal);
    assert_eq!(result.best.as_ref().map(|b| b.0), Some(5));
    let leighton = graph(include_str!("../../data/coloring/le450_5a.col"));
    let attempt = coloring::color(&leighton, 5, &coloring::default_config(), ()).unwrap();
    assert_eq!(attempt.status, Status::Colored);
    assert_eq!(
        coloring::check(&leighton, attempt.coloring.as_deref().unwrap(), 5),
        Ok(())
    );
    let four = coloring::color(&leighton, 4, &coloring::default_config(), ()).unwrap();
    assert_eq!(four.status, Status::CliqueTooLarge { clique: 5 });
}

/// The chromatic number by brute force: the fewest colours k for which some assignment of colours
/// `0..k` to the vertices leaves no edge monochrome.
fn brute_force_chromatic_number(graph: &Graph) -> usize {
    let n = graph.vertices();
    (0..=n)
        .find(|&k| {
            let total = (k as u64).pow(n as u32);
            (0..total).any(|mut code| {
                let coloring: Vec<u64> = (0..n)
                    .map(|_| {
                        let c = code % k.max(1) as u64;
                        code /= k.max(1) as u64;
                        c
                    })
                    .collect();
                graph
                    .edges()
                    .iter()
                    .all(|&(u, v)| coloring[u] != coloring[v])
            }) || (n == 0 && k == 0)
        })
        .unwrap_or(n)
}

fn random_graph() -> impl Strategy<Value = Graph> {
    (1..=7usize).prop_flat_map(|n| {
        prop::collection::vec((0..n, 0..n), 0..=n * (n - 1) / 2 + 2).prop_map(move |pairs| {
            Graph::new(n, pairs.into_iter().filter(|(u, v)| u != v)).expect("valid edges")
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Every configuration proves the chromatic number that brute force finds, with a colouring the
    /// checker accepts: the clique pinned to colours 0, 1, … loses no colouring, and no attempt claims
    /// more than it knows.
    #[test]
    fn chromatic_number_matches_brute_force(graph in random_graph()) {
        let expected = brute_force_chromatic_number(&graph);
        for config in configs() {
            let result = coloring::chromatic_number(&graph, &config, ()).unwrap();
            prop_assert!(result.optimal);
            let (colors, coloring) = result.best.expect("a colouring");
            prop_assert_eq!(colors, expected, "{:?}", config);
            prop_assert_eq!(coloring::check(&graph, &coloring, colors), Ok(()));
            prop_assert!(result.clique <= colors);
        }
    }
}
