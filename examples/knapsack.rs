//! The 0/1 knapsack problem: Booleans, a capacity, and a profit maximised by branch and bound
//! (`csp::problems::knapsack`), checked against dynamic programming (Bellman's recurrence), which
//! knows nothing of the engine.
//!
//! ```sh
//! cargo run --release --example knapsack -- 30 7   # 30 random items, seed 7
//! ```

use csp::core::ModelError;
use csp::problems::knapsack::Knapsack;
#[cfg(test)]
use csp::search::Outcome;
use csp::search::{SearchResult, solve};

/// Solves the instance; returns the result and the chosen items.
fn solve_knapsack(knapsack: &Knapsack) -> Result<(SearchResult, Vec<bool>), ModelError> {
    let (model, take) = knapsack.model()?;
    let result = solve(&model, &knapsack.config(&take), ());
    let chosen = match &result.solution {
        Some(values) => take.iter().map(|v| values[v.index()] == 1).collect(),
        None => Vec::new(),
    };
    Ok((result, chosen))
}

fn main() -> Result<(), ModelError> {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(30);
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(0);
    let knapsack = Knapsack::random(n, seed);
    let (result, chosen) = solve_knapsack(&knapsack)?;
    let expected = knapsack.dynamic_programming();
    let Some(profit) = knapsack.profit_of(&chosen) else {
        println!("no solution ({:?})", result.outcome);
        return Ok(());
    };
    println!(
        "{n} items, capacity {}: profit {profit} ({:?}), dynamic programming {expected}; {} nodes, \
         {:.3} s",
        knapsack.capacity,
        result.outcome,
        result.stats.nodes,
        result.elapsed.as_secs_f64()
    );
    assert_eq!(profit, expected);
    Ok(())
}

#[test]
fn branch_and_bound_matches_dynamic_programming_on_random_instances() {
    for seed in 0..40 {
        let knapsack = Knapsack::random(8 + (seed as usize % 13), seed);
        let (result, chosen) = solve_knapsack(&knapsack).unwrap();
        assert_eq!(result.outcome, Outcome::Optimal, "seed {seed}");
        let expected = knapsack.dynamic_programming();
        assert_eq!(knapsack.profit_of(&chosen), Some(expected), "seed {seed}");
        assert_eq!(result.objective, Some(expected), "seed {seed}");
    }
}
