//! Golomb rulers (CSPLib prob006): `m` marks `0 = a₁ < a₂ < … < aₘ` whose differences are all
//! different, as short as possible (OEIS A003022: 0, 1, 3, 6, 11, 17, 25, 34, 44, 55, 72, …).
//!
//! The model (`csp::problems::golomb`) is the MiniZinc benchmark's, so the two can be run side by side:
//! differences as linear equations, an all-different, the first difference smaller than the last, and
//! `int_search(mark, input_order, indomain_min)` minimising the last mark by branch and bound.
//!
//! ```sh
//! cargo run --release --example golomb -- 10      # prove the optimum for m = 10 (55)
//! ```

use std::time::Instant;

use csp::core::{ModelError, VarId};
use csp::problems::golomb::{self, A003022};
use csp::search::{Outcome, SearchResult, solve};

/// Proves the optimal ruler with `m` marks; returns the search's result (its solution is the best
/// ruler) and the ruler.
fn optimal_ruler(m: usize) -> Result<(SearchResult, Vec<i32>), ModelError> {
    let (model, marks) = golomb::model(m)?;
    let result = solve(&model, &golomb::config(&marks), ());
    let ruler = match &result.solution {
        Some(values) => marks.iter().map(|v: &VarId| values[v.index()]).collect(),
        None => Vec::new(),
    };
    Ok((result, ruler))
}

fn main() -> Result<(), ModelError> {
    let m: usize = match std::env::args().nth(1) {
        Some(text) => match text.parse() {
            Ok(m) if (1..=12).contains(&m) => m,
            _ => {
                eprintln!("error: the number of marks must be a whole number from 1 to 12");
                std::process::exit(2);
            }
        },
        None => 8,
    };
    let started = Instant::now();
    let (result, ruler) = optimal_ruler(m)?;
    let elapsed = started.elapsed();
    if ruler.is_empty() {
        println!("no ruler found ({:?})", result.outcome);
        return Ok(());
    }
    assert!(
        golomb::is_ruler(&ruler),
        "the ruler is checked by its definition"
    );
    println!("{m} marks: {ruler:?}, length {}", ruler[m - 1]);
    println!(
        "{}: {} nodes, {} failures, {} propagations, {:.3} s",
        if result.outcome == Outcome::Optimal {
            "optimal"
        } else {
            "not proven"
        },
        result.stats.nodes,
        result.stats.dead_ends,
        result.propagations,
        elapsed.as_secs_f64()
    );
    if let Some(&known) = A003022.get(m) {
        println!("OEIS A003022({m}) = {known}");
    }
    Ok(())
}

#[test]
fn optimal_rulers_match_oeis_a003022() {
    // m = 1..=9 here (about a second in the optimised test profile); 10 runs in the example.
    for m in 1..=9 {
        let (result, ruler) = optimal_ruler(m).unwrap();
        assert_eq!(result.outcome, Outcome::Optimal, "m = {m}");
        assert!(golomb::is_ruler(&ruler), "m = {m}: {ruler:?}");
        assert_eq!(ruler[m - 1], A003022[m], "m = {m}: {ruler:?}");
        assert_eq!(result.objective, Some(A003022[m]));
    }
}
