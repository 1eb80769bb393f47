//! The 0/1 knapsack problem: choose items, each with a weight and a profit, to maximise the profit
//! within a capacity. One Boolean per item, one linear capacity constraint, and a profit variable
//! maximised by branch and bound; the answer is checked against dynamic programming (Bellman's
//! recurrence over capacities), which knows nothing of the engine.
//!
//! ```sh
//! cargo run --release --example knapsack -- 40 7   # 40 random items, seed 7
//! ```

use csp::core::constraints::{Linear, Relation};
use csp::core::{Model, ModelBuilder, ModelError, VarId, rng_for};
#[cfg(test)]
use csp::search::Outcome;
use csp::search::{
    IntSearch, SearchConfig, SearchResult, ValueSelection, VariableSelection, solve,
};
use rand::RngExt;

/// An instance: each item's (weight, profit), and the capacity.
#[derive(Debug, Clone)]
struct Knapsack {
    items: Vec<(i32, i32)>,
    capacity: i32,
}

impl Knapsack {
    /// `n` items with weights and profits from 1 to 60, and a capacity of half their total weight.
    fn random(n: usize, seed: u64) -> Self {
        let mut rng = rng_for(seed, 0);
        let items: Vec<(i32, i32)> = (0..n)
            .map(|_| (rng.random_range(1..=60), rng.random_range(1..=60)))
            .collect();
        let capacity = items.iter().map(|&(w, _)| w).sum::<i32>() / 2;
        Knapsack { items, capacity }
    }

    /// The model: one Boolean per item, the capacity, and the profit to maximise.
    fn model(&self) -> Result<(Model, Vec<VarId>), ModelError> {
        let mut builder = ModelBuilder::new();
        let take: Vec<VarId> = (0..self.items.len())
            .map(|i| builder.bool_var(format!("take{i}")))
            .collect::<Result<_, _>>()?;
        let total: i32 = self.items.iter().map(|&(_, p)| p).sum();
        let profit = builder.int_var("profit", 0..=total)?;
        let weights = self.items.iter().map(|&(w, _)| w).zip(take.iter().copied());
        builder.post(Linear::new(
            weights.collect(),
            Relation::LessOrEqual,
            self.capacity,
        ))?;
        // profit = Σ pᵢ·takeᵢ
        let mut terms: Vec<(i32, VarId)> = self
            .items
            .iter()
            .map(|&(_, p)| p)
            .zip(take.iter().copied())
            .collect();
        terms.push((-1, profit));
        builder.post(Linear::new(terms, Relation::Equal, 0))?;
        builder.maximize(profit)?;
        Ok((builder.build(), take))
    }

    /// Branch and bound, taking the items with the best profit per weight first.
    fn solve(&self) -> Result<(SearchResult, Vec<VarId>), ModelError> {
        let (model, take) = self.model()?;
        let mut by_ratio = take.clone();
        // p_a / w_a > p_b / w_b, compared without division.
        by_ratio.sort_by_key(|v| {
            let (w, p) = self.items[v.index()];
            std::cmp::Reverse((i64::from(p) * 1_000_000) / i64::from(w))
        });
        let config = SearchConfig::decisions(vec![IntSearch::new(
            by_ratio,
            VariableSelection::InputOrder,
            ValueSelection::Max,
        )]);
        Ok((solve(&model, &config, ()), take))
    }

    /// The best profit by dynamic programming: `best[c]` is the best profit within capacity `c`.
    fn dynamic_programming(&self) -> i32 {
        let capacity = self.capacity as usize;
        let mut best = vec![0i32; capacity + 1];
        for &(w, p) in &self.items {
            let w = w as usize;
            for c in (w..=capacity).rev() {
                best[c] = best[c].max(best[c - w] + p);
            }
        }
        best[capacity]
    }

    /// The profit of a choice of items, if it fits.
    fn profit_of(&self, chosen: &[bool]) -> Option<i32> {
        let (weight, profit) = self
            .items
            .iter()
            .zip(chosen)
            .filter(|&(_, &c)| c)
            .fold((0, 0), |(w, p), (&(iw, ip), _)| (w + iw, p + ip));
        (weight <= self.capacity).then_some(profit)
    }
}

fn main() -> Result<(), ModelError> {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(30);
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(0);
    let knapsack = Knapsack::random(n, seed);
    let (result, take) = knapsack.solve()?;
    let expected = knapsack.dynamic_programming();
    let Some(solution) = &result.solution else {
        println!("no solution ({:?})", result.outcome);
        return Ok(());
    };
    let chosen: Vec<bool> = take.iter().map(|v| solution[v.index()] == 1).collect();
    let profit = knapsack.profit_of(&chosen).expect("the choice fits");
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
        let (result, take) = knapsack.solve().unwrap();
        assert_eq!(result.outcome, Outcome::Optimal, "seed {seed}");
        let solution = result.solution.expect("an empty knapsack always fits");
        let chosen: Vec<bool> = take.iter().map(|v| solution[v.index()] == 1).collect();
        let expected = knapsack.dynamic_programming();
        assert_eq!(knapsack.profit_of(&chosen), Some(expected), "seed {seed}");
        assert_eq!(result.objective, Some(expected), "seed {seed}");
    }
}
