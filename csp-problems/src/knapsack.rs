//! The 0/1 knapsack problem: choose items, each with a weight and a profit, to maximise the profit
//! within a capacity. One Boolean per item, one linear capacity constraint and a profit variable
//! maximised by branch and bound; [`Knapsack::dynamic_programming`] answers by Bellman's recurrence,
//! independently of the engine.

use csp_core::constraints::{Linear, Relation};
use csp_core::{Model, ModelBuilder, ModelError, VarId, rng_for};
use csp_search::{IntSearch, SearchConfig, ValueSelection, VariableSelection};
use rand::RngExt;

/// An instance: each item's (weight, profit), and the capacity.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Knapsack {
    /// Each item's weight and profit, both positive.
    pub items: Vec<(i32, i32)>,
    /// The most weight that fits.
    pub capacity: i32,
}

impl Knapsack {
    /// `n` seeded random items with weights and profits from 1 to 60, and a capacity of half their
    /// total weight.
    pub fn random(n: usize, seed: u64) -> Self {
        let mut rng = rng_for(seed, 0);
        let items: Vec<(i32, i32)> = (0..n)
            .map(|_| (rng.random_range(1..=60), rng.random_range(1..=60)))
            .collect();
        let capacity = items.iter().map(|&(w, _)| w).sum::<i32>() / 2;
        Knapsack { items, capacity }
    }

    /// The model: one Boolean per item, the capacity, and the profit to maximise; returns the model
    /// and the items' Booleans.
    pub fn model(&self) -> Result<(Model, Vec<VarId>), ModelError> {
        let mut builder = ModelBuilder::new();
        let take: Vec<VarId> = (0..self.items.len())
            .map(|i| builder.bool_var(format!("take{i}")))
            .collect::<Result<_, _>>()?;
        let total = self
            .items
            .iter()
            .try_fold(0i32, |sum, &(_, p)| sum.checked_add(p))
            .ok_or_else(|| ModelError::InvalidConstraint {
                constraint: "knapsack".to_owned(),
                reason: "the profits add up beyond i32".to_owned(),
            })?;
        let profit = builder.int_var("profit", 0..=total.max(0))?;
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

    /// Branch and bound taking the items with the best profit per weight first.
    pub fn config(&self, take: &[VarId]) -> SearchConfig {
        let mut by_ratio = take.to_vec();
        // p_a / w_a > p_b / w_b, compared in integers.
        by_ratio.sort_by(|a, b| {
            let (wa, pa) = self.items[a.index()];
            let (wb, pb) = self.items[b.index()];
            (i64::from(pb) * i64::from(wa)).cmp(&(i64::from(pa) * i64::from(wb)))
        });
        SearchConfig::decisions(vec![IntSearch::new(
            by_ratio,
            VariableSelection::InputOrder,
            ValueSelection::Max,
        )])
    }

    /// The best profit by dynamic programming over capacities (`best[c]` is the best profit within
    /// capacity `c`), independent of the engine.
    pub fn dynamic_programming(&self) -> i32 {
        let capacity = self.capacity.max(0) as usize;
        let mut best = vec![0i32; capacity + 1];
        for &(w, p) in &self.items {
            let w = w.max(0) as usize;
            for c in (w..=capacity).rev() {
                best[c] = best[c].max(best[c - w] + p);
            }
        }
        best[capacity]
    }

    /// The profit of a choice of items, if it fits.
    pub fn profit_of(&self, chosen: &[bool]) -> Option<i32> {
        let (weight, profit) = self
            .items
            .iter()
            .zip(chosen)
            .filter(|&(_, &c)| c)
            .fold((0i64, 0i64), |(w, p), (&(iw, ip), _)| {
                (w + i64::from(iw), p + i64::from(ip))
            });
        (weight <= i64::from(self.capacity)).then_some(profit as i32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dynamic_programming_on_a_hand_checked_instance() {
        let k = Knapsack {
            items: vec![(5, 10), (4, 40), (6, 30), (3, 50)],
            capacity: 10,
        };
        assert_eq!(k.dynamic_programming(), 90);
        assert_eq!(k.profit_of(&[false, true, false, true]), Some(90));
        assert_eq!(k.profit_of(&[true, true, true, false]), None);
    }
}
