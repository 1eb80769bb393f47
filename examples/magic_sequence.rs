//! Magic sequences (CSPLib prob019): `x₀ … xₙ₋₁` where each `xᵢ` is the number of times `i` occurs in
//! the sequence. For n = 10 there is exactly one, 6210001000 (CSPLib's example).
//!
//! The model is the MiniZinc benchmark's (`magicseq.mzn`: `count(x, i, x[i])` for every `i`), each
//! count a `count_eq` whose counting variable is itself in the array it counts, with the two
//! redundant sums every CP model of the problem adds (`Σ xᵢ = n` and `Σ i·xᵢ = n`). The whole tree is
//! searched, so the answer is proven unique.
//!
//! ```sh
//! cargo run --release --example magic_sequence -- 10
//! ```

use csp::core::constraints::{Among, Linear, Relation};
use csp::core::{ModelBuilder, ModelError, VarId};
use csp::search::{
    IntSearch, Outcome, SearchConfig, SearchEvent, ValueSelection, VariableSelection, solve,
};

/// Every magic sequence of length `n`, and how the search ended.
fn magic_sequences(n: usize) -> Result<(Vec<Vec<i32>>, Outcome), ModelError> {
    let mut builder = ModelBuilder::new();
    let last = n as i32 - 1;
    let xs: Vec<VarId> = (0..n)
        .map(|i| builder.int_var(format!("x{i}"), 0..=last.max(0)))
        .collect::<Result<_, _>>()?;
    for (i, &x) in xs.iter().enumerate() {
        builder.post(Among::count(xs.clone(), i as i32, x))?;
    }
    builder.post(Linear::new(
        xs.iter().map(|&x| (1, x)).collect(),
        Relation::Equal,
        n as i32,
    ))?;
    builder.post(Linear::new(
        xs.iter().enumerate().map(|(i, &x)| (i as i32, x)).collect(),
        Relation::Equal,
        n as i32,
    ))?;
    let model = builder.build();
    let config = SearchConfig::decisions(vec![IntSearch::new(
        xs,
        VariableSelection::InputOrder,
        ValueSelection::Min,
    )])
    .all_solutions();
    let mut found = Vec::new();
    let result = solve(
        &model,
        &config,
        csp::search::FnObserver(|event: &SearchEvent<'_>| {
            if let SearchEvent::Solution { values, .. } = event {
                found.push(values[..n].to_vec());
            }
            std::ops::ControlFlow::Continue(())
        }),
    );
    Ok((found, result.outcome))
}

/// Checks a sequence by its definition: each xᵢ counts the i's.
fn is_magic(xs: &[i32]) -> bool {
    xs.iter()
        .enumerate()
        .all(|(i, &x)| xs.iter().filter(|&&y| y == i as i32).count() as i32 == x)
}

fn main() -> Result<(), ModelError> {
    let n: usize = match std::env::args().nth(1) {
        Some(text) => match text.parse() {
            Ok(n) if (1..=60).contains(&n) => n,
            _ => {
                eprintln!("error: the length must be a whole number from 1 to 60");
                std::process::exit(2);
            }
        },
        None => 10,
    };
    let (sequences, outcome) = magic_sequences(n)?;
    for sequence in &sequences {
        assert!(is_magic(sequence), "checked by definition");
        println!("{sequence:?}");
    }
    println!(
        "{} magic sequence(s) of length {n} ({outcome:?})",
        sequences.len()
    );
    Ok(())
}

#[test]
fn the_magic_sequence_of_length_ten_is_unique() {
    let (sequences, outcome) = magic_sequences(10).unwrap();
    assert_eq!(outcome, Outcome::Exhausted);
    assert_eq!(sequences, vec![vec![6, 2, 1, 0, 0, 0, 1, 0, 0, 0]]);
}

#[test]
fn small_lengths_have_the_known_counts() {
    // Lengths 1 to 3 and 6 have none; 4 has two (1210, 2020); 5 has 21200; from 7 on, one each.
    let counts: Vec<usize> = (1..=9)
        .map(|n| magic_sequences(n).unwrap().0.len())
        .collect();
    assert_eq!(counts, vec![0, 0, 0, 2, 1, 0, 1, 1, 1]);
}
