//! Langford's problem L(2, n): arrange two 1s, two 2s, …, two ns in a row so that the two ks have
//! exactly k numbers between them. Counted for n = 1 to 8, each pair of mirror images once (OEIS
//! A014552: 0, 0, 1, 1, 0, 0, 26, 150).
//!
//! ```sh
//! cargo run --release --example langford
//! ```
//!
//! The model: for each k, the positions `first_k` and `second_k = first_k + k + 1` (a linear
//! equation), all 2n positions different. A sequence and its mirror image are both solutions; the
//! mirror moves the pair of 1s from `(p, p + 2)` to `(2n - 3 - p, 2n - 1 - p)`, and the two never
//! coincide (`2p = 2n - 3` has no whole solution), so keeping the sequences whose 1s start in
//! `0..=n - 2` keeps exactly one of each mirror pair.

use std::ops::ControlFlow;

use csp::core::constraints::{AllDifferent, Linear, Relation};
use csp::core::{ModelBuilder, ModelError, VarId};
use csp::search::{FnObserver, Outcome, Propagation, SearchConfig, SearchEvent, solve};

/// Whether `sequence` is a Langford sequence: each k from 1 to n twice, with k numbers between.
fn is_langford(sequence: &[i32]) -> bool {
    let n = sequence.len() / 2;
    (1..=n as i32).all(|k| {
        let places: Vec<usize> = (0..sequence.len()).filter(|&i| sequence[i] == k).collect();
        places.len() == 2 && places[1] - places[0] == k as usize + 1
    })
}

/// The number of Langford sequences L(2, n), mirror images counted once.
fn count(n: i32) -> Result<u64, ModelError> {
    let length = 2 * n;
    let mut builder = ModelBuilder::new();
    let mut positions: Vec<VarId> = Vec::new();
    for k in 1..=n {
        // The first k must leave room for k numbers and the second k after it.
        let mut last_first = length - 2 - k;
        if k == 1 {
            last_first = last_first.min(n - 2);
        }
        if last_first < 0 {
            // No room at all: no sequence.
            return Ok(0);
        }
        let first = builder.int_var(format!("first{k}"), 0..=last_first)?;
        let second = builder.int_var(format!("second{k}"), k + 1..=length - 1)?;
        builder.post(Linear::new(
            vec![(1, second), (-1, first)],
            Relation::Equal,
            k + 1,
        ))?;
        positions.extend([first, second]);
    }
    builder.post(AllDifferent::new(positions))?;
    let model = builder.build();
    let config = SearchConfig {
        propagation: Propagation::Mac,
        ..SearchConfig::min().all_solutions()
    };
    // Every solution is turned into its sequence and checked, independently of the model.
    let mut verified = 0;
    let result = solve(
        &model,
        &config,
        FnObserver(|event: &SearchEvent<'_>| {
            if let SearchEvent::Solution { values, .. } = event {
                let mut sequence = vec![0; length as usize];
                for (i, &position) in values.iter().enumerate() {
                    sequence[position as usize] = i as i32 / 2 + 1;
                }
                assert!(is_langford(&sequence), "{sequence:?}");
                verified += 1;
            }
            ControlFlow::Continue(())
        }),
    );
    assert_eq!(result.outcome, Outcome::Exhausted, "no limit is set");
    assert_eq!(verified, result.stats.solutions);
    Ok(verified)
}

fn main() -> Result<(), ModelError> {
    for n in 1..=8 {
        println!("L(2, {n}) = {}", count(n)?);
    }
    Ok(())
}

#[test]
fn langford_counts_match_oeis_a014552() {
    let counts: Vec<u64> = (1..=8).map(|n| count(n).unwrap()).collect();
    assert_eq!(counts, [0, 0, 1, 1, 0, 0, 26, 150]);
}
