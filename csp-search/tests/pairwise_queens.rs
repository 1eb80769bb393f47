//! The engine on N-queens stated with generic pairwise constraints only, checked against the
//! published numbers (Stone & Stone, *Efficient Search Techniques* (1987); OEIS A000170). The
//! specialised encodings live in `nqueens-model`; this pins the engine's own definitions of node
//! and backtrack.

use csp_core::{Model, ModelBuilder, constraints::NotEqual};
use csp_search::{SearchConfig, solve};

fn pairwise_queens(n: usize) -> Model {
    let mut builder = ModelBuilder::new();
    let q: Vec<_> = (0..n)
        .map(|i| builder.int_var(format!("q{i}"), 0..=n as i32 - 1).unwrap())
        .collect();
    for i in 0..n {
        for j in i + 1..n {
            let (a, b) = (i as i32, j as i32);
            builder.post(NotEqual::new(q[i], q[j])).unwrap();
            builder
                .post(NotEqual::with_offsets(q[i], a, q[j], b))
                .unwrap();
            builder
                .post(NotEqual::with_offsets(q[i], -a, q[j], -b))
                .unwrap();
        }
    }
    builder.build()
}

#[test]
fn stone_table2_lex_backtracks_small() {
    let expected = [2u64, 105, 32, 92, 41, 249, 98];
    for (n, &want) in (7..).zip(&expected) {
        let result = solve(&pairwise_queens(n), &SearchConfig::lex(), ());
        assert_eq!(result.stats.backtracks, want, "n = {n}");
        assert_eq!(
            result.stats.nodes - n as u64,
            want,
            "terse search: backtracks = nodes - n"
        );
    }
}

#[test]
fn min_fewest_choices_lowest_index_ties_backtracks_small() {
    let expected = [0u64, 67, 16, 25, 49, 141, 190];
    for (n, &want) in (7..).zip(&expected) {
        let result = solve(&pairwise_queens(n), &SearchConfig::min(), ());
        assert_eq!(result.stats.backtracks, want, "n = {n}");
    }
}

#[test]
fn a000170_counts_small() {
    let expected = [1u64, 0, 0, 2, 10, 4, 40, 92];
    for (n, &want) in (1..).zip(&expected) {
        for config in [SearchConfig::lex(), SearchConfig::min()] {
            let result = solve(&pairwise_queens(n), &config.all_solutions(), ());
            assert_eq!(result.stats.solutions, want, "n = {n}");
        }
    }
}

#[test]
fn lex_full_tree_nodes_small() {
    let expected = [17u64, 54, 153, 552, 2057];
    for (n, &want) in (4..).zip(&expected) {
        let result = solve(
            &pairwise_queens(n),
            &SearchConfig::lex().all_solutions(),
            (),
        );
        assert_eq!(result.stats.tree_nodes(), want, "n = {n}");
    }
}
