//! All-interval series (CSPLib prob007): orderings `x₁ … xₙ` of `0 … n−1` whose successive
//! differences `|xᵢ₊₁ − xᵢ|` are all different (so they are `1 … n−1`). Their numbers are OEIS
//! A006967 (graceful permutations): 1, 2, 4, 4, 8, 24, 32, 40, 120, 296, 648, 1328, …
//!
//! The model is CSPLib's: the series and its differences, each an all-different, each difference
//! `|xᵢ₊₁ − xᵢ|` an `int_abs` of a linear term. Every solution is counted (the whole tree).
//!
//! ```sh
//! cargo run --release --example all_interval -- 12
//! ```

use csp::core::constraints::{AllDifferent, Arithmetic, Linear, Relation};
use csp::core::{ModelBuilder, ModelError, VarId};
use csp::search::{
    IntSearch, Outcome, SearchConfig, SearchEvent, ValueSelection, VariableSelection, solve,
};

/// OEIS A006967, the number of all-interval series of length n, for n = 1, 2, ….
const A006967: [u64; 12] = [1, 2, 4, 4, 8, 24, 32, 40, 120, 296, 648, 1328];

/// The number of all-interval series of length `n` (each checked by its definition), and how the
/// search ended.
fn count(n: usize) -> Result<(u64, Outcome), ModelError> {
    let last = n as i32 - 1;
    let mut builder = ModelBuilder::new();
    let xs: Vec<VarId> = (0..n)
        .map(|i| builder.int_var(format!("x{i}"), 0..=last))
        .collect::<Result<_, _>>()?;
    let mut differences = Vec::new();
    for i in 0..n.saturating_sub(1) {
        // d = |x[i + 1] − x[i]|, through the signed step y = x[i + 1] − x[i].
        let y = builder.int_var(format!("y{i}"), -last..=last)?;
        builder.post(Linear::new(
            vec![(1, y), (-1, xs[i + 1]), (1, xs[i])],
            Relation::Equal,
            0,
        ))?;
        let d = builder.int_var(format!("d{i}"), 1..=last.max(1))?;
        builder.post(Arithmetic::abs(y, d))?;
        differences.push(d);
    }
    builder.post(AllDifferent::new(xs.clone()))?;
    builder.post(AllDifferent::new(differences))?;
    let model = builder.build();
    let config = SearchConfig::decisions(vec![IntSearch::new(
        xs.clone(),
        VariableSelection::FirstFail,
        ValueSelection::Min,
    )])
    .all_solutions();
    let mut found = 0u64;
    let result = solve(
        &model,
        &config,
        csp::search::FnObserver(|event: &SearchEvent<'_>| {
            if let SearchEvent::Solution { values, .. } = event {
                let series: Vec<i32> = xs.iter().map(|v| values[v.index()]).collect();
                assert!(
                    is_all_interval(&series),
                    "checked by definition: {series:?}"
                );
                found += 1;
            }
            std::ops::ControlFlow::Continue(())
        }),
    );
    Ok((found, result.outcome))
}

/// Checks a series by its definition: a permutation of 0..n whose steps are all different.
fn is_all_interval(series: &[i32]) -> bool {
    let mut values = series.to_vec();
    values.sort_unstable();
    let mut steps: Vec<i32> = series.windows(2).map(|w| (w[1] - w[0]).abs()).collect();
    steps.sort_unstable();
    steps.dedup();
    values.iter().enumerate().all(|(i, &v)| v == i as i32) && steps.len() + 1 == series.len().max(1)
}

fn main() -> Result<(), ModelError> {
    let n: usize = match std::env::args().nth(1) {
        Some(text) => match text.parse() {
            Ok(n) if (1..=16).contains(&n) => n,
            _ => {
                eprintln!("error: the length must be a whole number from 1 to 16");
                std::process::exit(2);
            }
        },
        None => 10,
    };
    let (found, outcome) = count(n)?;
    println!("{found} all-interval series of length {n} ({outcome:?})");
    if let Some(known) = A006967.get(n - 1) {
        println!("OEIS A006967({n}) = {known}");
    }
    Ok(())
}

#[test]
fn counts_match_oeis_a006967() {
    for n in 1..=10 {
        let (found, outcome) = count(n).unwrap();
        assert_eq!(outcome, Outcome::Exhausted, "n = {n}");
        assert_eq!(found, A006967[n - 1], "n = {n}");
    }
}
