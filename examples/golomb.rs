//! Golomb rulers (CSPLib prob006): `m` marks `0 = a₁ < a₂ < … < aₘ` whose `m(m−1)/2` differences are
//! all different, as short as possible. The optimal lengths are OEIS A003022: 0, 1, 3, 6, 11, 17, 25,
//! 34, 44, 55, 72, …
//!
//! The model is the MiniZinc benchmark's ("ternary constraints and an all-different",
//! `shared/instances/minizinc/golomb/golomb.mzn`), so the two can be run side by side: each
//! difference is a variable tied to its marks by a linear equation, all differences are different,
//! the first difference is smaller than the last (symmetry), and the search is
//! `int_search(mark, input_order, indomain_min)` minimising the last mark, by branch and bound.
//!
//! ```sh
//! cargo run --release --example golomb -- 10      # prove the optimum for m = 10 (55)
//! ```

use std::time::Instant;

use csp::core::constraints::{AllDifferent, Linear, Relation};
use csp::core::{Model, ModelBuilder, ModelError, VarId};
use csp::search::{
    IntSearch, Outcome, SearchConfig, SearchResult, ValueSelection, VariableSelection, solve,
};

/// OEIS A003022: the length of an optimal Golomb ruler with `m` marks, indexed by `m` (index 0
/// unused).
const A003022: [i32; 12] = [0, 0, 1, 3, 6, 11, 17, 25, 34, 44, 55, 72];

/// The Golomb ruler model with `m` marks over `0..=m²`, minimising the last mark; returns the model
/// and its mark variables.
fn golomb(m: usize) -> Result<(Model, Vec<VarId>), ModelError> {
    let n = (m * m) as i32;
    let mut builder = ModelBuilder::new();
    let marks: Vec<VarId> = (0..m)
        .map(|i| builder.int_var(format!("mark{}", i + 1), 0..=n))
        .collect::<Result<_, _>>()?;
    let mut differences = Vec::new();
    for i in 0..m {
        for j in i + 1..m {
            let d = builder.int_var(format!("d{}_{}", i + 1, j + 1), 0..=n)?;
            // d = mark[j] − mark[i]
            builder.post(Linear::new(
                vec![(1, d), (-1, marks[j]), (1, marks[i])],
                Relation::Equal,
                0,
            ))?;
            differences.push(d);
        }
    }
    builder.post(Linear::new(vec![(1, marks[0])], Relation::Equal, 0))?;
    for pair in marks.windows(2) {
        // mark[i] < mark[i + 1]
        builder.post(Linear::new(
            vec![(1, pair[0]), (-1, pair[1])],
            Relation::LessOrEqual,
            -1,
        ))?;
    }
    builder.post(AllDifferent::new(differences.clone()))?;
    if differences.len() > 1 {
        // Symmetry breaking: the first difference is smaller than the last.
        let (first, last) = (differences[0], differences[differences.len() - 1]);
        builder.post(Linear::new(
            vec![(1, first), (-1, last)],
            Relation::LessOrEqual,
            -1,
        ))?;
    }
    builder.minimize(marks[m - 1])?;
    Ok((builder.build(), marks))
}

/// Proves the optimal ruler with `m` marks; returns the search's result (its solution is the best
/// ruler) and the marks.
fn solve_golomb(m: usize) -> Result<(SearchResult, Vec<VarId>), ModelError> {
    let (model, marks) = golomb(m)?;
    let config = SearchConfig::decisions(vec![IntSearch::new(
        marks.clone(),
        VariableSelection::InputOrder,
        ValueSelection::Min,
    )]);
    let result = solve(&model, &config, ());
    Ok((result, marks))
}

/// Checks a ruler by its definition, independently of the model: marks start at 0, increase, and
/// every difference is different.
fn is_golomb_ruler(ruler: &[i32]) -> bool {
    let mut differences: Vec<i32> = Vec::new();
    for (i, &a) in ruler.iter().enumerate() {
        for &b in &ruler[i + 1..] {
            differences.push(b - a);
        }
    }
    let count = differences.len();
    differences.sort_unstable();
    differences.dedup();
    ruler.first() == Some(&0) && ruler.windows(2).all(|w| w[0] < w[1]) && differences.len() == count
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
    let (result, marks) = solve_golomb(m)?;
    let elapsed = started.elapsed();
    let Some(solution) = &result.solution else {
        println!("no ruler found ({:?})", result.outcome);
        return Ok(());
    };
    let ruler: Vec<i32> = marks.iter().map(|v| solution[v.index()]).collect();
    assert!(
        is_golomb_ruler(&ruler),
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
        let (result, marks) = solve_golomb(m).unwrap();
        assert_eq!(result.outcome, Outcome::Optimal, "m = {m}");
        let solution = result.solution.expect("an optimal ruler");
        let ruler: Vec<i32> = marks.iter().map(|v| solution[v.index()]).collect();
        assert!(is_golomb_ruler(&ruler), "m = {m}: {ruler:?}");
        assert_eq!(ruler[m - 1], A003022[m], "m = {m}: {ruler:?}");
        assert_eq!(result.objective, Some(A003022[m]));
    }
}
