//! Min-conflicts from `csp-local` on the N-queens counters model: every answer passes the independent
//! verifier, and boards too large for the local-search budget are refused before allocating.

use csp::local::{LocalConfig, LocalOutcome, min_conflicts};
use csp::nqueens::{QueensError, local_search_max_n, local_search_model, verify};

fn solve(n: usize, seed: u64) -> Vec<u32> {
    let model = local_search_model(n).expect("within the local-search budget");
    let config = LocalConfig::default()
        .with_seed(seed)
        .with_restart_after(20 * n as u64 + 1000);
    let result =
        min_conflicts(&model, &config, None).expect("the default start needs no permutation");
    assert_eq!(result.outcome, LocalOutcome::Solved, "n = {n}, seed {seed}");
    result
        .assignment
        .iter()
        .map(|&column| column as u32)
        .collect()
}

#[test]
fn every_board_from_4_to_120_is_solved_and_verified() {
    for n in (4..=120).chain([1]) {
        for seed in 0..2 {
            let placement = solve(n, seed);
            assert_eq!(placement.len(), n);
            if let Err(error) = verify(&placement) {
                panic!("n = {n}, seed {seed}: {error}");
            }
        }
    }
}

#[test]
fn large_boards_are_solved_and_verified() {
    for n in [1000, 10_000] {
        let placement = solve(n, 3);
        assert!(verify(&placement).is_ok(), "n = {n}");
    }
}

#[test]
fn the_same_seed_gives_the_same_placement() {
    assert_eq!(solve(300, 9), solve(300, 9));
}

#[test]
fn a_board_beyond_the_budget_is_refused_before_allocating() {
    let too_big = local_search_max_n() + 1;
    assert!(matches!(
        local_search_model(too_big),
        Err(QueensError::TooLargeForLocalSearch { n, .. }) if n == too_big
    ));
    assert_eq!(local_search_model(0).unwrap_err(), QueensError::ZeroSize);
}
