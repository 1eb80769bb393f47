//! Magic squares: the numbers 1 to n² in an n×n grid, every row, column and both diagonals summing to
//! n(n² + 1)/2. Order 3 has 8 (one square and its rotations and reflections); order 4 has 7,040, and
//! one is found here.
//!
//! ```sh
//! cargo run --release --example magic_square
//! ```

use std::ops::ControlFlow;

use csp::core::constraints::{AllDifferent, Linear, Relation};
use csp::core::{Model, ModelBuilder, ModelError, VarId};
use csp::search::{
    FnObserver, Outcome, Propagation, SearchConfig, SearchEvent, VariableOrderKind, solve,
};

/// The model of the order-n magic square, cells row by row.
fn model(n: usize) -> Result<Model, ModelError> {
    // The orders here are small, so every number fits an i32.
    let size = (n * n) as i32;
    let magic = (n as i32) * (size + 1) / 2;
    let mut builder = ModelBuilder::new();
    let cells: Vec<VarId> = (0..n * n)
        .map(|i| builder.int_var(format!("r{}c{}", i / n + 1, i % n + 1), 1..=size))
        .collect::<Result<_, _>>()?;
    builder.post(AllDifferent::new(cells.clone()))?;
    let mut lines: Vec<Vec<usize>> = Vec::new();
    for i in 0..n {
        lines.push((0..n).map(|j| i * n + j).collect());
        lines.push((0..n).map(|j| j * n + i).collect());
    }
    lines.push((0..n).map(|i| i * n + i).collect());
    lines.push((0..n).map(|i| i * n + n - 1 - i).collect());
    for line in lines {
        let terms = line.into_iter().map(|i| (1, cells[i])).collect();
        builder.post(Linear::new(terms, Relation::Equal, magic))?;
    }
    Ok(builder.build())
}

/// Whether `square` (row by row) is an order-n magic square, checked by plain arithmetic.
fn is_magic(n: usize, square: &[i32]) -> bool {
    let magic = (n * (n * n + 1) / 2) as i32;
    let mut sorted = square.to_vec();
    sorted.sort_unstable();
    let sum = |cells: &mut dyn Iterator<Item = usize>| cells.map(|i| square[i]).sum::<i32>();
    sorted == (1..=(n * n) as i32).collect::<Vec<_>>()
        && (0..n).all(|i| sum(&mut (0..n).map(|j| i * n + j)) == magic)
        && (0..n).all(|i| sum(&mut (0..n).map(|j| j * n + i)) == magic)
        && sum(&mut (0..n).map(|i| i * n + i)) == magic
        && sum(&mut (0..n).map(|i| i * n + n - 1 - i)) == magic
}

/// Up to `limit` order-n magic squares (`None`: all), each checked, and whether the search finished.
fn squares(n: usize, limit: Option<u64>) -> Result<(Vec<Vec<i32>>, bool), ModelError> {
    let model = model(n)?;
    let config = SearchConfig {
        variable_order: VariableOrderKind::DomWdeg,
        propagation: Propagation::Mac,
        solution_limit: limit,
        ..SearchConfig::default()
    };
    let mut found = Vec::new();
    let result = solve(
        &model,
        &config,
        FnObserver(|event: &SearchEvent<'_>| {
            if let SearchEvent::Solution { values, .. } = event {
                assert!(is_magic(n, values), "{values:?}");
                found.push(values.to_vec());
            }
            ControlFlow::Continue(())
        }),
    );
    Ok((found, result.outcome == Outcome::Exhausted))
}

fn main() -> Result<(), ModelError> {
    let (order3, complete) = squares(3, None)?;
    println!(
        "order 3: {} magic squares (search complete: {complete})",
        order3.len()
    );
    let (order4, _) = squares(4, Some(1))?;
    for row in order4[0].chunks(4) {
        println!("{row:?}");
    }
    Ok(())
}

#[test]
fn eight_squares_of_order_three_and_one_of_order_four() {
    let (order3, complete) = squares(3, None).unwrap();
    assert!(complete);
    assert_eq!(order3.len(), 8);
    let (order4, _) = squares(4, Some(1)).unwrap();
    assert_eq!(order4.len(), 1);
    assert!(is_magic(4, &order4[0]));
}
